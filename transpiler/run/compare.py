"""Compare two program outputs: text exactly, numbers within a tolerance.

GPU kernels add floating-point numbers in a different order than the interpreter, so
a printed sum may differ in its last digit.  Each line is split into numbers and the
text between them; the text must match exactly (runs of spaces may differ in length
only next to a number whose printed width changed), numbers must agree within `rtol`
relative (and `atol` absolute for values near zero).

Run-time diagnostics (warnings, the fatal error) are compared as lists of
"warning: line 30: division by zero": the interpreter writes them with their place and a
quote of the source (`prog.bas:3:4: warning: ...`), a generated program as
`prog.bas: warning: line 30: ...`.  Their order and number must be the same, numbers in
their messages (`LOG(-.5)`) within the tolerance.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

from ..errors import Coord

# ECMA-55 PRINT numbers: 12, -3.5, .5, 1.2345679E+9, INF, NAN, with the space PRINT puts
# in place of a minus sign (" 0" and "-1E-17" differ in the number, not in the text).
_NUMBER = re.compile(r"[ -]?(?:\d+\.?\d*|\.\d+)(?:E[+-]\d+)?|[ -]?INF|[ -]?NAN")

# Tolerances per number type: 8 printed digits, so f64 results differ at most in the
# last printed digit; f32 kernels carry about 7 digits of their own.
# tf32: an f32 program whose matrix products take TensorFloat-32 operands (10 mantissa
# bits, `--precision tf32`): about ten of their units in the last place.
TOLERANCES = {"f64": (1e-6, 1e-12), "f32": (2e-4, 1e-6), "tf32": (5e-3, 1e-4)}


@dataclass
class Difference:
    line: int
    expected: str
    actual: str


def _split(line: str) -> tuple[list[str], list[str]]:
    numbers = _NUMBER.findall(line)
    texts = _NUMBER.split(line)
    return [" ".join(t.split()) if t.strip() else " " if t else "" for t in texts], numbers


def _close(a: str, b: str, rtol: float, atol: float) -> bool:
    if a.strip() == b.strip():
        return True
    try:
        x, y = _value(a), _value(b)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return False
    return abs(x - y) <= atol + rtol * max(abs(x), abs(y))


def _value(token: str) -> float:
    token = token.strip()
    return {"INF": math.inf, "-INF": -math.inf, "NAN": math.nan}.get(token) or float(token)


def lines_match(expected: str, actual: str, rtol: float, atol: float) -> bool:
    if expected == actual:
        return True
    text_e, num_e = _split(expected)
    text_a, num_a = _split(actual)
    return (
        len(num_e) == len(num_a)
        and text_e == text_a
        and all(_close(a, b, rtol, atol) for a, b in zip(num_e, num_a))
    )


def compare_outputs(expected: str, actual: str, precision: str = "f64") -> list[Difference]:
    rtol, atol = TOLERANCES[precision]
    want, got = expected.splitlines(), actual.splitlines()
    diffs = []
    for i in range(max(len(want), len(got))):
        e = want[i] if i < len(want) else "<no line>"
        a = got[i] if i < len(got) else "<no line>"
        if i >= len(want) or i >= len(got) or not lines_match(e, a, rtol, atol):
            diffs.append(Difference(i + 1, e, a))
    return diffs


def unified_diff(expected: str, actual: str, expected_name: str, actual_name: str) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=expected_name,
            tofile=actual_name,
        )
    )


def interpreter_diagnostics(analysis, stderr: str, error=None) -> list[str]:
    """The interpreter's warnings in `stderr` and its fatal `error` (a BasicRuntimeError
    or None), as "warning: line 30: division by zero"."""
    out = program_diagnostics(analysis, stderr)
    if error is not None:
        out.append(f"error: {_where(analysis, error.coord.line)}{error.message}")
    return out


def program_diagnostics(analysis, stderr: str) -> list[str]:
    """The warnings and errors in `stderr` of a run of the program of `analysis`, in that
    form: a generated program's, and those located at a source line and column (the
    interpreter's, and the translation's warnings that both print first)."""
    name = re.escape(analysis.source.name)
    located = re.compile(name + r":(\d+):\d+: (warning|error): (.*)$")
    generated = re.compile(name + r": (warning|error): (.*)$")
    out = []
    for line in stderr.splitlines():
        m = located.match(line)
        if m:
            out.append(f"{m[2]}: {_where(analysis, int(m[1]))}{m[3]}")
        elif m := generated.match(line):
            out.append(f"{m[1]}: {m[2]}")
    return out


def diagnostics_match(expected: list[str], actual: list[str], precision: str = "f64") -> bool:
    """The same diagnostics, in order; numbers in their messages (LOG(-.2234948)) within
    the tolerance, as on stdout."""
    rtol, atol = TOLERANCES[precision]
    return len(expected) == len(actual) and all(
        lines_match(e, a, rtol, atol) for e, a in zip(expected, actual)
    )


def _where(analysis, line: int) -> str:
    """ "line 30: " as a generated program names a source line ("" without a number)."""
    name = analysis.line_name(Coord(analysis.source.name, line, 0))
    return f"{name}: " if name.startswith("line ") else ""
