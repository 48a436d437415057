"""Running a BASIC program through the reference interpreter and through a generated C++
program, and comparing what they print.

The interpreter's diagnostics carry the place and a quote of the source; a translated
program names the BASIC line only, so diagnostics are compared as "severity: line N:
message" lines (transpiler.run.compare), and a fatal error as "<file>: error: line N:
<message>" (the generated programs' format).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from transpiler import driver
from transpiler.errors import BasicRuntimeError
from transpiler.run.compare import interpreter_diagnostics, program_diagnostics


@dataclass
class Outcome:
    stdout: str
    notices: list[str]  # "warning: line 30: division by zero", "error: line 40: line too long"
    error: str | None  # "<file>: error: line N: <message>" of a fatal error


def interpret(analysis, stdin: str = "") -> Outcome:
    """The reference interpreter's run (BASIC2TILE_SEED from the environment)."""
    out, err = io.StringIO(), io.StringIO()
    error = None
    try:
        driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except BasicRuntimeError as exc:
        where = analysis.line_name(exc.coord)
        where = f"{where}: " if where.startswith("line ") else ""
        error = f"{analysis.source.name}: error: {where}{exc.message}"
    return Outcome(out.getvalue(), interpreter_diagnostics(analysis, err.getvalue()), error)


def outcome_of_run(run, analysis) -> Outcome:
    """The same for a finished C++ program (a subprocess.CompletedProcess) of `analysis`."""
    lines = run.stderr.splitlines()
    error = None
    if run.returncode == 1 and lines:
        error = lines.pop()
    elif run.returncode != 0:
        raise AssertionError(f"exit status {run.returncode}: {run.stderr}")
    notices = program_diagnostics(analysis, "\n".join(lines))
    return Outcome(run.stdout, notices, error)
