"""Differential runs of one BASIC program: the reference interpreter against the generated
cuTile Python and CUDA C++ (both on the CPU), and optionally against Debian's bwbasic.

Shared by tests/test_fuzz.py (a few hypothesis examples) and bench/fuzz.py (thousands).
Every path goes through transpiler.driver, the same functions the CLI uses.

    outcome = differential(random_program(7), "seed7", targets=("cutile", "cuda"))
    assert outcome.agrees, outcome.describe()
"""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
from dataclasses import dataclass, field

from transpiler import driver
from transpiler.errors import BasicError, BasicRuntimeError, CompileErrors, SourceFile
from transpiler.options import Options
from transpiler.run.compare import (
    compare_outputs,
    diagnostics_match,
    interpreter_diagnostics,
    program_diagnostics,
)

BWBASIC = shutil.which("bwbasic")
# bwbasic prints 7 to 9 significant digits (".99991186" here is "0.9999119" there), so
# only a looser relative tolerance is fair; its text layout (zones, spaces) differs too.
BWBASIC_RTOL = 1e-5
BWBASIC_ATOL = 1e-6
_BW_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:E[+-]?\d+)?", re.IGNORECASE)


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str = ""


@dataclass
class Outcome:
    name: str
    program: str
    reference: Run
    runs: dict[str, Run] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        lines = [f"{self.name}: {len(self.problems)} disagreement(s)", *self.problems]
        return "\n".join(lines)


def interpret(analysis) -> Run:
    """The reference interpreter with empty stdin; a run-time error is exit status 1."""
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analysis, stdin=io.StringIO(""), stdout=out, stderr=err)
    except BasicRuntimeError as exc:
        err.write(exc.render(analysis.source) + "\n")
        status = 1
    return Run(status, out.getvalue(), err.getvalue())


def run_target(analysis, target: str, tile: tuple[int, ...] | None = None) -> Run:
    """Generate code for `target` (kernels with `tile`, else their own tiles) and run it
    on the CPU with empty stdin."""
    code = driver.generate(analysis, target, tile)
    result = driver.run(analysis, code, target, "cpu", stdin="")
    return Run(result.returncode, result.stdout, result.stderr)


def compare_runs(
    reference: Run, other: Run, label: str, precision: str, analysis=None
) -> list[str]:
    """Differences of exit status and stdout, and (given the program's `analysis`) of
    the warnings and the fatal error on stderr."""
    problems = []
    if reference.status != other.status:
        problems.append(
            f"{label}: exit status {other.status}, interpreter {reference.status}\n"
            f"{other.stderr.strip()[-2000:]}"
        )
    for d in compare_outputs(reference.stdout, other.stdout, precision)[:5]:
        problems.append(f"{label}: line {d.line}: interpreter {d.expected!r}, got {d.actual!r}")
    if analysis is not None:
        expected = interpreter_diagnostics(analysis, reference.stderr)
        got = program_diagnostics(analysis, other.stderr)
        if not diagnostics_match(expected, got, precision):
            problems.append(f"{label}: stderr: interpreter {expected[:6]!r}, got {got[:6]!r}")
    return problems


def differential(
    program: str,
    name: str,
    targets: tuple[str, ...] = ("cutile", "cuda"),
    precision: str | None = None,
    bwbasic: bool = False,
    tile: tuple[int, ...] | None = None,
) -> Outcome:
    """Run `program` everywhere asked for and list every disagreement with the interpreter."""
    source = SourceFile(f"{name}.bas", program)
    try:
        analysis = driver.front_end(source, Options(precision=precision))
    except (CompileErrors, BasicError) as exc:
        rendered = exc.render(source)
        return Outcome(name, program, Run(1, ""), problems=[f"front end rejected it:\n{rendered}"])
    reference = interpret(analysis)
    outcome = Outcome(name, program, reference)
    for target in targets:
        try:
            run = run_target(analysis, target, tile)
        except BasicError as exc:  # e.g. g++ rejected the generated CUDA
            run = Run(-1, "", exc.render(source))
        outcome.runs[target] = run
        outcome.problems += compare_runs(reference, run, target, analysis.number_type, analysis)
    if bwbasic and BWBASIC:
        outcome.problems += compare_with_bwbasic(program, reference.stdout)
    return outcome


def run_bwbasic(program: str, timeout: float = 30) -> str:
    """bwbasic's output for `program` without its banner and trailing prompt."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="b2t-bw-") as tmp:
        path = Path(tmp) / "prog.bas"
        path.write_text(program, encoding="ascii")
        proc = subprocess.run(
            [BWBASIC, str(path)],
            stdin=subprocess.DEVNULL,
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=tmp,
        )
    lines = [line.lstrip("\r") for line in proc.stdout.splitlines()]
    # The banner ends with a line holding a single space; the prompt follows END.
    if " " in lines:
        lines = lines[lines.index(" ") + 1 :]
    return "\n".join(line for line in lines if not line.startswith("bwBASIC:"))


def bwbasic_numbers(text: str) -> list[float]:
    return [float(t) for t in _BW_NUMBER.findall(text)]


def compare_with_bwbasic(program: str, reference_stdout: str) -> list[str]:
    """The numbers of each printed line must agree with bwbasic's within BWBASIC_RTOL."""
    theirs = run_bwbasic(program).splitlines()
    ours = reference_stdout.splitlines()
    if len(theirs) != len(ours):
        return [f"bwbasic: {len(theirs)} lines, interpreter {len(ours)}"]
    problems = []
    for number, (a, b) in enumerate(zip(ours, theirs), 1):
        x, y = bwbasic_numbers(a), bwbasic_numbers(b)
        close = len(x) == len(y) and all(
            math.isclose(p, q, rel_tol=BWBASIC_RTOL, abs_tol=BWBASIC_ATOL) for p, q in zip(x, y)
        )
        if not close:
            problems.append(f"bwbasic: line {number}: interpreter {a!r}, bwbasic {b!r}")
    return problems


__all__ = ["BWBASIC", "Outcome", "Run", "compare_with_bwbasic", "differential"]
