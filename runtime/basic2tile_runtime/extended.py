"""Operations of the extended BASIC dialect (beyond ECMA-55 Minimal BASIC).

Defined by the reference interpreter's author (first in `_interp_extras`) and kept here so
that the interpreter and the generated host programs share one definition:

- ``a MOD b`` is the remainder of the division truncated toward zero, with the sign of
  `a` (C's fmod, Fortran's MOD, QBasic's MOD without its rounding to integers):
  7 MOD 3 = 1, -7 MOD 3 = -1, 7 MOD -3 = 1, 7.5 MOD 2 = 1.5.  ``a MOD 0`` warns
  "division by zero" and gives NaN (the IEEE fmod result); ``inf MOD b`` gives NaN.
- MAX(a, b) and MIN(a, b): the larger / smaller of two numbers; if one is NaN, the other.
- DET (Dartmouth BASIC): the determinant of the matrix the last MAT INV inverted, 0
  before any and after an INV of a singular matrix (the MAT INV of `arrays.py` and of
  the interpreter record it).
- A ``%`` variable holds a 32-bit signed integer: assigning x stores floor(x + 0.5) (the
  rounding ECMA-55 uses for subscripts, so BASIC has one rounding rule); a result outside
  -2147483648..2147483647, or NaN, is fatal "integer overflow (x)".
"""

from __future__ import annotations

import math

from .arith import DIVISION_BY_ZERO
from .faults import BasicFault, warn
from .numformat import format_number_trimmed

INTEGER_OVERFLOW = "integer overflow"

_determinant = [0.0]


def DET() -> float:
    """Dartmouth BASIC's DET: the determinant of the matrix the last MAT INV inverted."""
    return _determinant[0]


def set_determinant(value: float) -> None:
    """Record what DET returns (MAT INV)."""
    _determinant[0] = value


def MOD(a: float, b: float) -> float:
    if b == 0.0:
        warn(DIVISION_BY_ZERO)
        return math.nan
    try:
        return math.fmod(a, b)
    except ValueError:  # an infinite dividend
        return math.nan


def MAX(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    return max(a, b)  # a unless b > a: a NaN `b` gives `a`


def MIN(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    return min(a, b)  # a unless b < a: a NaN `b` gives `a`


def to_integer(x: float) -> float:
    """The value a ``%`` variable stores for x (an integral float)."""
    r = x + 0.5
    if -2147483648.0 <= r < 2147483648.0:
        return float(math.floor(r))
    raise BasicFault(INTEGER_OVERFLOW, f"({format_number_trimmed(x)})")


# The farthest a kernel's lanes go from the loop's start: lane values are 32-bit, and a
# start is below 2**30 in magnitude (passes/parallel/dependence.py; a computed start is checked in
# the kernel), so start + count * step stays a 32-bit integer.
MAX_LOOP_SPAN = 2**30
LOOP_TOO_LONG = "FOR loop too long for one kernel launch"


def loop_count(start: int, limit: float, step: int) -> int:
    """How many times `FOR v = start TO limit STEP step` runs (the limit evaluated once).

    A loop whose iterations span more than MAX_LOOP_SPAN (a NaN limit never ends it:
    v > NaN is false) is a fatal error rather than a silently shorter or wrong loop."""
    n = (limit - start) / step + 1.0
    if math.isnan(n) or n * abs(step) > MAX_LOOP_SPAN:
        raise BasicFault(LOOP_TOO_LONG, f"(limit {format_number_trimmed(limit)})")
    return max(0, math.floor(n))
