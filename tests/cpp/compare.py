"""Running a BASIC program through the reference interpreter and through a generated C++
program, and comparing what they print.

The interpreter's diagnostics carry the place and a quote of the source; a translated
program knows neither, so diagnostics are compared as "severity: message" lines, and a
fatal error as "<file>: error: line N: <message>" (the Python host program's format).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from transpiler import driver
from transpiler.errors import BasicRuntimeError


@dataclass
class Outcome:
    stdout: str
    notices: list[str]  # "warning: division by zero", "error: line too long"
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
    notices = []
    for line in err.getvalue().splitlines():
        m = re.match(r"\S.*?: (warning|error): (.*)$", line)
        if m:
            notices.append(f"{m[1]}: {m[2]}")
    return Outcome(out.getvalue(), notices, error)


def outcome_of_run(run) -> Outcome:
    """The same for a finished C++ program (a subprocess.CompletedProcess)."""
    lines = run.stderr.splitlines()
    error = None
    if run.returncode == 1 and lines:
        error = lines.pop()
    elif run.returncode != 0:
        raise AssertionError(f"exit status {run.returncode}: {run.stderr}")
    notices = []
    for line in lines:
        m = re.match(r"(?:\S.*?: )?(warning|error): (.*)$", line)
        if m:
            notices.append(f"{m[1]}: {m[2]}")
    return Outcome(run.stdout, notices, error)
