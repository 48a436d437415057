"""How the interpreter compiles control flow (regions.py), and a check of it: every
program must behave the same with structured blocks (Python loops and ifs) and without
(explicit jumps only)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from transpiler import driver
from transpiler.errors import BasicError, SourceFile
from transpiler.interpreter import compile_program, run_program
from transpiler.interpreter.regions import find_regions
from transpiler.options import Options

from .conftest import EXAMPLES, NBS_DIR
from .passes_helpers import analysis_of


def test_nested_loops_compile_to_one_function_of_python_loops():
    a = analysis_of("""
        10 FOR I = 1 TO 3
        20 FOR J = 1 TO 3
        30 IF I = J THEN 50
        40 PRINT I; J
        50 NEXT J
        60 NEXT I
        70 END
        """)
    regions = find_regions(a)
    assert regions.leaders == {0, len(a.stmts)}
    assert regions.structured == set(a.for_next) | set(a.if_parts)
    # the GOTO to NEXT J is a `continue` of the J loop
    assert list(regions.continues.values()) == [1]
    text = compile_program(a).text
    assert text.count("while ") == 2 and "continue" in text and "def _b0" in text


def test_a_jump_into_the_middle_of_a_body_unstructures_the_loop_around_it():
    a = analysis_of("""
        10 FOR I = 1 TO 3
        20 IF I = 2 THEN 40
        30 PRINT "A";
        40 PRINT I;
        50 NEXT I
        60 END
        """)
    regions = find_regions(a)
    for_index = 0
    assert for_index not in regions.structured
    # the body start (NEXT jumps back there), the jump target, and the loop exit
    assert {1, 5, 7} <= regions.leaders
    # the one-line IFs inside stay structured
    assert set(a.if_parts) <= regions.structured


def test_continue_out_of_an_inner_loop_is_a_plain_jump():
    a = analysis_of("""
        10 FOR I = 1 TO 3
        20 FOR J = 1 TO 3
        30 IF J = 2 THEN 60
        40 NEXT J
        50 PRINT I;
        60 NEXT I
        70 END
        """)
    regions = find_regions(a)
    assert regions.continues == {}
    assert 0 not in regions.structured and 1 in regions.structured


def _programs() -> list:
    params = []
    manifest = NBS_DIR / "MANIFEST.tsv"
    if manifest.is_file():
        with manifest.open() as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row["kind"] != "error" and row["uses_input"] == "n" and row["prog"] != "131":
                    path = NBS_DIR / f"P{row['prog']}.BAS"
                    params.append(pytest.param(path, "ecma55", id=path.stem))
    for path in sorted(Path(EXAMPLES).glob("*.bas")):
        params.append(pytest.param(path, "extended", id=path.stem))
    return params


def _run(analysis, structure: bool) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        run_program(analysis, stdin=io.StringIO(""), stdout=out, stderr=err, structure=structure)
    except BasicError as exc:
        err.write(str(exc))
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path, std", _programs())
def test_structured_and_unstructured_compilation_agree(path: Path, std: str) -> None:
    analysis = driver.front_end(SourceFile.read(path), Options(std=std))
    if analysis.kind != "legacy":
        pytest.skip("kernel program")
    structured = _run(analysis, True)
    assert structured == _run(analysis, False)
    assert structured[0]  # every program prints something


# --------------------------------------------------------------------------- random programs


class _RandomProgram:
    """Random extended-BASIC programs mixing nested blocks and jumps (whose targets are
    drawn after the layout, so many jump into, out of and across blocks; the passes
    reject the illegal ones)."""

    def __init__(self, rng):
        self.rng = rng
        self.lines: list[str] = []
        self.loop_vars = ["I", "J", "K"]

    def add(self, text: str) -> None:
        self.lines.append(text)

    def condition(self) -> str:
        r = self.rng
        return (
            r.choice(["X", "Y", "I", "J"]) + r.choice(["=", "<", ">", "<>"]) + str(r.randint(0, 4))
        )

    def block(self, depth: int, free_vars: list[str]) -> None:
        r = self.rng
        for _ in range(r.randint(1, 4)):
            kind = r.random()
            if kind < 0.25:
                self.add(r.choice(["X = X + 1", "Y = Y + X", "X = X - 2", "Y = Y * 2 MOD 7"]))
            elif kind < 0.45:
                self.add(r.choice(["PRINT X;", "PRINT Y;", "PRINT I; J;", 'PRINT "*";']))
            elif kind < 0.6:
                self.add(f"IF {self.condition()} THEN GOTO@")
            elif kind < 0.7 and depth < 3 and free_vars:
                var = free_vars[0]
                self.add(f"FOR {var} = {r.randint(0, 2)} TO {r.randint(0, 3)}")
                self.block(depth + 1, free_vars[1:])
                self.add(f"NEXT {var}")
            elif kind < 0.8 and depth < 3:
                self.add(f"IF {self.condition()} THEN")
                self.block(depth + 1, free_vars)
                if r.random() < 0.5:
                    self.add("ELSE")
                    self.block(depth + 1, free_vars)
                self.add("END IF")
            elif kind < 0.87 and depth < 3:
                self.add("W = 0")
                self.add(f"WHILE W < {r.randint(0, 3)}")
                self.add("W = W + 1")
                self.block(depth + 1, free_vars)
                self.add("WEND")
            elif kind < 0.93:
                self.add(f"IF {self.condition()} THEN PRINT X; ELSE GOTO@")
            else:
                self.add("GOSUB@")

    def text(self) -> str:
        self.block(0, list(self.loop_vars))
        self.add("END")
        self.add('PRINT "SUB"; : RETURN')
        numbered = []
        count = len(self.lines)
        for n, line in enumerate(self.lines, 1):
            while "@" in line:
                # mostly near the jump, so that many stay inside their block
                near = self.rng.random() < 0.7
                target = n + self.rng.randint(-3, 3) if near else self.rng.randint(1, count)
                line = line.replace("@", f" {10 * min(max(target, 1), count)}", 1)
            numbered.append(f"{10 * n} {line}")
        return "\n".join(numbered) + "\n"


@pytest.mark.parametrize("seed", range(300))
def test_random_programs_agree_structured_and_not(seed: int) -> None:
    import random

    from transpiler.errors import CompileErrors

    text = _RandomProgram(random.Random(seed)).text()
    source = SourceFile("random.bas", text)
    try:
        analysis = driver.front_end(source, Options(max_steps=5000))
    except CompileErrors:
        return  # a jump the passes reject: nothing to run
    structured, unstructured = _run(analysis, True), _run(analysis, False)
    if "step limit" in structured[1] or "step limit" in unstructured[1]:
        return  # the two count steps differently, so they stop at different places
    assert structured == unstructured, text
