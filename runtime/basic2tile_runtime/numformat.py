"""Numbers to text (PRINT) and text to numbers (DATA, INPUT), as bas55 does them
(Microsoft BASIC prints numbers its own way: msformat.py).

PRINT format (ECMA-55 12.4 with bas55's choices: 8 significant digits, exponent with as
many digits as needed).  For a double x:

1. NaN prints ``" NAN "``, +inf ``" INF "``, -inf ``"-INF "``; zero (either sign) ``" 0 "``.
2. Round |x| to 8 significant decimal digits, correctly (ties to even on the exact binary
   value): this is the ``d.dddddddE±XX`` text of C's ``printf("%.7E")``.  Call the digits
   D (8 of them) and the decimal exponent e, so that |x| ~ D[0].D[1..7] * 10**e.  Drop the
   trailing zeros of D; n = len(D) >= 1 is the number of significant digits left.
3. The sign field is ``"-"`` for x < 0, else ``" "``; every number is followed by ``" "``.
4. If 0 <= e <= 7 (at most 8 integer digits), print without exponent ("unscaled"): the
   first e+1 digits of D (padded with zeros on the right if n < e+1), then, if n > e+1,
   ``"."`` and the remaining digits.  ``12345678``, ``1234.5``, ``1.5``.
5. If e < 0 and the digits after the point, (-e-1) zeros plus n digits, number at most 8,
   i.e. n - e <= 9, print unscaled with no leading zero: ``"." + "0"*(-e-1) + D``.
   ``.5``, ``.000123``, ``.12345678``.
6. Otherwise print scaled: ``D[0] + "." + D[1:] + "E" + sign of e + str(|e|)``, the
   exponent without leading zeros and the point kept even when no digit follows:
   ``1.E+30``, ``1.2345679E+9``, and ``-9.2345679E-2`` (-0.092345679 has n = 8 and
   e = -2, so n - e = 10 > 9: unscaled it would need 9 digits after the point).

Steps 4-6 are bas55's `sprint_num`: it prints ``"% .7E"``, counts the significant digits,
and for the unscaled forms prints ``"% .{k}f"`` with k = max(0, n-1-e) and removes a
leading ``0``; with that k, rounding at k decimals gives the digits of step 2 again, so
the two descriptions agree (checked against bas55 on millions of doubles).

Number syntax (DATA items and INPUT replies, ECMA-55 5.2)::

    [+|-] ( digits [ "." [digits] ] | "." digits ) [ "E" [+|-] digits ]

Its value is the correctly rounded double (C's strtod).  bas55 has its own converter
that keeps 17 digits and scales by powers of ten, so its last bit can differ on long
or extreme constants; both round to the same 8 printed digits in the corpus.  A value
too large for a double becomes +/-inf (the caller reports "numeric constant overflow");
one too small becomes 0 silently (ECMA-55 5.6: underflow is replaced by zero).
"""

from __future__ import annotations

import math
import re

from .dialect import machine, microsoft
from .machines import MACHINE_NUMBERS, machine_number_text
from .msformat import format_ms_number

SIGNIFICANT_DIGITS = 8
_INT_LIMIT = 10**SIGNIFICANT_DIGITS  # integers below this print exactly
_INF = math.inf

# ECMA-55 numeric constant, anchored at the start; DATA needs the whole text, INPUT a prefix.
NUMBER_PATTERN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:E[+-]?[0-9]+)?")


def format_number(x: float) -> str:
    """The exact PRINT text of `x`: sign or space, digits, trailing space (Microsoft
    BASIC's text in --dialect ms: msformat.py)."""
    if microsoft():
        if machine() is not None:
            numbers = MACHINE_NUMBERS[machine()]
            return machine_number_text(x, numbers) + numbers.after
        return format_ms_number(x) + " "
    # Fast path: integers of up to 8 digits print as themselves (also -0.0 -> " 0 ").
    if -_INT_LIMIT < x < _INT_LIMIT:
        i = int(x)
        if i == x:
            return f" {i} " if i >= 0 else f"{i} "
    elif math.isnan(x):
        return " NAN "
    elif x == _INF:
        return " INF "
    elif x == -_INF:
        return "-INF "
    mantissa, _, exponent = f"{abs(x):.7e}".partition("e")
    e = int(exponent)
    digits = (mantissa[0] + mantissa[2:]).rstrip("0")
    n = len(digits)
    sign = "-" if x < 0 else " "
    if 0 <= e < SIGNIFICANT_DIGITS:
        if n <= e + 1:
            return f"{sign}{digits}{'0' * (e + 1 - n)} "
        return f"{sign}{digits[:e + 1]}.{digits[e + 1:]} "
    if e < 0 and n - e <= SIGNIFICANT_DIGITS + 1:
        return f"{sign}.{'0' * (-e - 1)}{digits} "
    return f"{sign}{digits[0]}.{digits[1:]}E{'+' if e > 0 else '-'}{abs(e)} "


def number_text(x: float) -> str:
    """STR$'s text of `x`: PRINT's without the space it writes after a number (an 8-bit
    machine's own: Applesoft's `STR$(5)` is "5", it writes no space after 5)."""
    if microsoft() and machine() is not None:
        return machine_number_text(x, MACHINE_NUMBERS[machine()])
    return format_number(x)[:-1]


def format_number_trimmed(x: float) -> str:
    """The PRINT text without spaces, as bas55 quotes operands in its messages: ``-2.5``."""
    return format_number(x).replace(" ", "")


def parse_number(text: str) -> float | None:
    """The value of `text` if all of it is an ECMA-55 numeric constant, else None.

    Overflow gives +/-inf, underflow 0.0.  Upper-case E only, as ECMA-55 has no lower case.
    """
    if NUMBER_PATTERN.fullmatch(text) is None:
        return None
    return float(text)


def match_number(text: str, pos: int = 0) -> re.Match[str] | None:
    """The longest numeric constant starting at `pos` (for INPUT replies), or None."""
    return NUMBER_PATTERN.match(text, pos)
