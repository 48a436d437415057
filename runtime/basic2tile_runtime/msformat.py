"""Numbers to text as Microsoft BASIC prints them (--dialect ms).

GW-BASIC keeps numbers in Microsoft Binary Format (MBF): a sign, an 8-bit exponent and a
24-bit (single) or 56-bit (double) mantissa.  Our singles are IEEE float32 and our doubles
IEEE float64 (`msnumbers.py`); every value in GW-BASIC's range has the same mantissa bits
in both formats, so the decimal conversion below, which works on those bits, gives the
text GW-BASIC gives for the same value.  The oracle is PC-BASIC 2.0.8 (a GW-BASIC
emulator, `tests/pcbasic_oracle.py`), whose output this reproduces digit for digit.

PRINT text of a number (`format_single`, `format_double`): a sign (`-`, or a space), the
digits, and no trailing space (the console adds it).  Zero is `0`.

1. Decimal digits.  The value is held as (e, m): m an integer of B bits (32 for singles,
   64 for doubles: the mantissa and 8 guard bits) with its top bit set, the value being
   m * 2^(e - 128 - B).  While it is above the largest value of the format below 10^D
   (D = 7 digits for singles, 16 for doubles) it is divided by 10; it is rounded to its
   mantissa; while it is below the largest value below 10^(D-1) it is multiplied by 10;
   it is rounded again, and its integer part, rounded half up, gives D digits N and the
   power of ten e10 that scales them.  Dividing and multiplying by ten are GW-BASIC's own
   operations on the mantissa bits, with their rounding (a bit-by-bit long division that
   sets a quotient bit only when the remainder is strictly larger; 10x as 8x + 2x with a
   sticky bit): this is what makes 1/3 print as .3333334 and SQR(2) as 1.414213 where a
   correctly rounded conversion would give .3333333 and 1.414214.
2. Layout.  Trailing zeros of N are dropped, leaving digits d; x = e10 + D - 1 is the
   power of ten of the first digit.  If x > D - 1 (more integer digits than D) or the
   digits after the point would be more than D + 1 (len(d) - x > D + 1), it prints
   scaled: `d[0]`, `.` and the other digits if any, then `E` (`D` for doubles), the sign
   of x and |x| in at least two digits: `1E+10`, `1.234568E+07`, `3.333333320013991D-13`.
   Otherwise unscaled, without a leading zero: `123.4567`, `.0000015`, `1234567`.

QuickBASIC (--dialect qbasic) keeps IEEE numbers and converts them correctly rounded
(QuickBASIC 4.5 reference, "Floating-point numbers": IEEE format rather than Microsoft
Binary Format): step 1 is the value rounded to D significant digits, so 1/3 prints
`.3333333` and SQR(2) `1.414214`; the layout (step 2) is GW-BASIC's.
"""

from __future__ import annotations

import math
from array import array

from .dialect import quickbasic

_F32 = array("f", [0.0])


def _den(x: float, bits: int) -> tuple[int, int]:
    """(e, m) of a positive value: m has `bits` bits, the value is m * 2^(e - 128 - bits)."""
    fraction, exponent = math.frexp(x)
    return exponent + 128, int(fraction * (1 << bits))


class _Format:
    """The decimal conversion of one precision (see the module docstring)."""

    def __init__(self, bits: int, digits: int, exponent_letter: str):
        self.bits = bits
        self.digits = digits
        self.limit = 10**digits  # the smallest number of D + 1 digits
        self.letter = exponent_letter
        self.upper = 1 << bits
        self.top_bit = 1 << (bits - 1)
        self.ten = 0xA << (bits - 4)  # the mantissa of 10, as m of _den(10.0, bits)
        self._limits: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
        self.top, self.bottom = self.limits(digits)

    def just_under(self, power: int) -> tuple[int, int]:
        """(e, m) of the largest value of the format below 10^power: one unit of the last
        mantissa bit (above the 8 guard bits) less, normalised again (below 1 the top bit
        moves: GW-BASIC's value just under 1 is 1 - 2^-23 for singles)."""
        e, m = _den(float(10**power), self.bits)
        m -= 0x100
        if m < self.top_bit:
            e, m = e - 1, m << 1
        return e, m

    def limits(self, digits: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The values between which `decimal_digits` brings a value for `digits` digits:
        the largest below 10^digits and the largest below 10^(digits - 1); for no digits
        (0 or fewer) the largest below 1 and zero."""
        if digits not in self._limits:
            if digits > 0:
                bounds = (self.just_under(digits), self.just_under(digits - 1))
            else:
                bounds = (self.just_under(0), (0, 0))
            self._limits[digits] = bounds
        return self._limits[digits]

    def divide_by_ten(self, e: int, m: int) -> tuple[int, int]:
        quotient, rest, divisor = 0, m, self.ten
        for _ in range(self.bits):
            quotient <<= 1
            if rest > divisor:
                rest -= divisor
                quotient |= 1
            divisor >>= 1
        e -= 3
        while quotient < self.top_bit:
            e -= 1
            quotient <<= 1
        return e, quotient

    def multiply_by_ten(self, e: int, m: int) -> tuple[int, int]:
        # 10x = 8x + 2x: the 2x term is aligned to the 8x one, losing its two low bits,
        # which are kept as a sticky bit.
        total = m + (m >> 2)
        e += 3
        if total >= self.upper:
            e += 1
            total >>= 1
        if m & 3:
            total |= 1
        return e, total

    def round_guard(self, e: int, m: int) -> tuple[int, int]:
        if (m & 0xFF) > 0x7F:
            m += 0x100
        if m >= self.upper:
            e += 1
            m >>= 1
        return e, m & ~0xFF

    def decimal_digits(self, x: float, digits: int) -> tuple[int, int]:
        """GW-BASIC's conversion of a positive value to `digits` decimal digits (step 1 of
        the module docstring with D = `digits`): (N, e10), the value ~ N * 10^e10.  N has
        `digits` digits, or is 10^digits where the rounding carried (e10 is then one
        decade low, as GW-BASIC leaves it); for no digits (0 or fewer) N is the value
        divided by ten until below 1, rounded to 0 or 1.  PRINT USING converts with as
        many digits as its field shows (using.py)."""
        top, bottom = self.limits(digits)
        e, m = _den(x, self.bits)
        e10 = 0
        while (e, m) > top:
            e, m = self.divide_by_ten(e, m)
            e10 += 1
        e, m = self.round_guard(e, m)
        while bottom > (e, m):
            e, m = self.multiply_by_ten(e, m)
            e10 -= 1
        e, m = self.round_guard(e, m)
        shift = e - (128 + self.bits - 8)
        scaled = m << shift if shift > 0 else m >> -shift  # the value times 256
        if scaled & 0x80:
            scaled += 0x80
        return scaled >> 8, e10

    def decimal(self, x: float) -> tuple[int, int]:
        """(N, e10) for a positive value: D digits N, value ~ N * 10^e10."""
        if quickbasic():
            return self.rounded_decimal(x)
        number, e10 = self.decimal_digits(x, self.digits)
        if number >= self.limit:  # rounded up to 10^D (1D-06 is 1000...0 * 10^-22)
            return number // 10, e10 + 1
        return number, e10

    def rounded_decimal(self, x: float) -> tuple[int, int]:
        """(N, e10) of the value rounded correctly to D significant digits (QuickBASIC's
        IEEE conversion)."""
        mantissa, _, exponent = f"{x:.{self.digits - 1}e}".partition("e")
        return int(mantissa.replace(".", "")), int(exponent) - (self.digits - 1)

    def text(self, x: float) -> str:
        if x == 0.0:
            return " 0"
        if not math.isfinite(x):  # never a BASIC value here; in a message, as bas55
            return " NAN" if math.isnan(x) else (" INF" if x > 0 else "-INF")
        sign = "-" if x < 0 else " "
        number, e10 = self.decimal(abs(x))
        digits = str(number).rjust(self.digits, "0").rstrip("0")
        first = e10 + self.digits - 1  # the power of ten of the first digit
        if first > self.digits - 1 or len(digits) - first > self.digits + 1:
            mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
            return f"{sign}{mantissa}{self.letter}{'-' if first < 0 else '+'}{abs(first):02d}"
        before = first + 1  # digits before the point
        if before >= len(digits):
            return sign + digits + "0" * (before - len(digits))
        if before > 0:
            return f"{sign}{digits[:before]}.{digits[before:]}"
        return f"{sign}.{'0' * -before}{digits}"


SINGLE = _Format(32, 7, "E")
DOUBLE = _Format(64, 16, "D")


class Double(float):
    """A number that PRINT shows as a double (16 digits): generated code wraps the values
    of double-precision expressions in PRINT lists with it; arithmetic gives plain floats."""

    __slots__ = ()


def format_ms_number(x: float) -> str:
    """PRINT's text of a number in Microsoft BASIC: a single, or a double for a `Double`."""
    return format_double(x) if isinstance(x, Double) else format_single(x)


def format_single(x: float) -> str:
    """The PRINT text of a single-precision value, without the trailing space: ` .3333334`.
    A value that is not a float32 (--precision f64 computes singles in double) is rounded
    to one first: a single prints 7 digits whatever it was computed with."""
    _F32[0] = x
    return SINGLE.text(_F32[0])


def format_double(x: float) -> str:
    """The PRINT text of a double-precision value, without the trailing space."""
    return DOUBLE.text(x)


def single_constant(text: str) -> float:
    """The single GW-BASIC makes of the decimal constant `text` (`3.14159`, `.017`,
    `1E-3`, `12!`): its digits as an integer, divided (or multiplied) by ten once per
    power with GW-BASIC's own operations on the mantissa bits, then rounded to 24 bits,
    half to even.  It is not always the float32 nearest to the decimal value (3.14159 is
    one unit of the last bit below it): constants in a program take the same bits as in
    GW-BASIC (oracle: PC-BASIC's conversion, tests/test_ms_numbers.py)."""
    word = text.upper().rstrip("!")
    mantissa_text, _, exponent_text = word.partition("E")
    whole, _, fraction = mantissa_text.partition(".")
    digits = int((whole + fraction) or "0")
    if digits == 0:
        return 0.0
    exponent = int(exponent_text) if exponent_text not in ("", "+", "-") else 0
    power = exponent - len(fraction)
    if power + len(str(digits)) > 40:  # beyond any single: the caller's overflow
        return math.inf
    if power + len(str(digits)) < -40:  # below any single
        return 0.0
    fmt = SINGLE
    e, m = _den(float(digits), fmt.bits)
    if digits >= 1 << 24:  # a `!` constant of more digits: rounded to 24 bits first
        e, m = _round_even(e, m, fmt)
    for _ in range(-power):
        e, m = fmt.divide_by_ten(e, m)
    for _ in range(power):
        e, m = fmt.multiply_by_ten(e, m)
    e, m = _round_even(e, m, fmt)
    return math.ldexp(m >> 8, e - 128 - fmt.bits + 8)


def _round_even(e: int, m: int, fmt: _Format) -> tuple[int, int]:
    """(e, m) rounded to its mantissa (the bits above the 8 guard bits), half to even."""
    guard = m & 0xFF
    if guard > 0x80 or (guard == 0x80 and m & 0x100):
        m += 0x100
    m &= ~0xFF
    if m >= fmt.upper:
        e += 1
        m >>= 1
    return e, m
