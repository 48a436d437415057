"""Compare two program outputs: text exactly, numbers within a tolerance.

GPU kernels add floating-point numbers in a different order than the interpreter, so
a printed sum may differ in its last digit.  Each line is split into numbers and the
text between them; the text must match exactly (runs of spaces may differ in length
only next to a number whose printed width changed), numbers must agree within `rtol`
relative (and `atol` absolute for values near zero).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass

# ECMA-55 PRINT numbers: 12, -3.5, .5, 1.2345679E+9, INF, NAN.
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:E[+-]\d+)?|-?INF|NAN")

# Tolerances per number type: 8 printed digits, so f64 results differ at most in the
# last printed digit; f32 kernels carry about 7 digits of their own.
TOLERANCES = {"f64": (1e-6, 1e-12), "f32": (2e-4, 1e-6)}


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
    if a == b:
        return True
    try:
        x, y = _value(a), _value(b)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return False
    return abs(x - y) <= atol + rtol * max(abs(x), abs(y))


def _value(token: str) -> float:
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
