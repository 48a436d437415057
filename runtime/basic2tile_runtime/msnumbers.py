"""Microsoft BASIC arithmetic (--dialect ms), as GW-BASIC does it.

PC-BASIC 2.0.8, a GW-BASIC emulator, is the oracle for every rule here
(`tests/test_ms_numbers.py` runs it when it is installed).

Types.  A single is an IEEE float32 and a double an IEEE float64 (GW-BASIC's Microsoft
Binary Format has the same 24-bit single mantissa, and a 56-bit double one, with an 8-bit
exponent: results can differ from GW-BASIC in the last bit, since MBF rounds its own way).
An integer (`%`) is 16-bit, -32768..32767.  The host code holds every value as a Python
float (or an int); these functions give each operation's result its BASIC type.

Range.  Both floating types have GW-BASIC's range: a result whose magnitude exceeds the
largest MBF value (1.701412E+38) warns "Overflow" and gives that value with the result's
sign; one below the smallest (2^-128) is 0, silently.  There are no infinities and no NaN.

  operation                            result                  on exception
  -----------------------------------  ----------------------  ------------------------------
  + - * / of singles (and integers)    sng(exact result)       W Overflow: +-SINGLE_MAX
  the same with a double operand       dbl(exact result)       W Overflow: +-DOUBLE_MAX
  a / 0, a \\ 0, a MOD 0               -                       W Division by zero: +-MAX with
                                                                 the sign of a (0/0: +)
  a \\ b, a MOD b                      integer: the operands   F Overflow: an operand or the
                                       rounded (CINT) first;   quotient outside 16 bits
                                       truncated; MOD has the
                                       sign of a
  AND OR XOR EQV IMP NOT               16-bit two's complement F Overflow: an operand outside
                                       of the CINT operands      16 bits
  a ^ n (n an integer expression)      a single, by repeated   W Overflow (+-SINGLE_MAX),
                                       squaring in singles       Division by zero (0 ^ -n)
  a ^ b (otherwise)                    a single: pow rounded   W Overflow: +SINGLE_MAX;
                                                                 Division by zero (0 ^ -b);
                                                               F Illegal function call (a < 0,
                                                                 b not an integer)
  CINT(x), storing into a % variable   x rounded half away     F Overflow: outside 16 bits
                                       from zero

QuickBASIC (--dialect qbasic) keeps an INTEGER or LONG (`&`, 32-bit) result of + - * and
unary minus in its type, and stops with "Overflow" where it leaves that type's range
(`int_result`, `long_result`); \\, MOD and the bitwise operators work on LONGs
(`long_div`, `long_mod`, `long_and`...) unless both operands are INTEGERs; CLNG(x), and
the value a `&` variable stores, is x rounded half away from zero (as CINT), fatal
"Overflow" outside 32 bits.

QuickBASIC's numbers (QuickBASIC 4.5 / QBasic 1.1 reference; `quickbasic()` of dialect.py)
differ from GW-BASIC's in four places: they are IEEE (a single's range is float32's,
up to 3.402823E+38, a double's float64's); CINT, CLNG and storing into a `%` or `&`
variable round .5 to even, as the 8087's rounding does (CINT(2.5) is 2, CINT(3.5) 4),
and so do the operands of \\ and MOD; "Overflow" and "Division by zero" are errors
that stop the program (trappable: ERR 6 and 11), not warnings; a function computed
in double (SQR, LOG, SIN...) gives its result rounded to the nearest single (and a
double where its argument is a double: the type checker's `qbasic` rule).

"W" warns and goes on, "F" ends the program (faults.py).  The functions SQR, LOG, SIN...
(arith.py) report a domain error as "Illegal function call" in this dialect; their results
are rounded to singles (GW-BASIC computes them in single precision, even for a double
argument).  With --precision f64 the singles are computed as doubles (`dbl` instead of
`sng`); they still print 7 digits.
"""

from __future__ import annotations

import datetime
import math
import os
from array import array

from .dialect import machine, quickbasic
from .faults import BasicFault, warn
from .machines import MACHINE_NUMBERS
from .numformat import format_number_trimmed as _num

OVERFLOW = "Overflow"
DIVISION_BY_ZERO = "Division by zero"
ILLEGAL_FUNCTION_CALL = "Illegal function call"

SINGLE_MAX = (2.0 - 2.0**-23) * 2.0**126  # the largest MBF single: 1.701412E+38
DOUBLE_MAX = (2.0 - 2.0**-52) * 2.0**126  # the largest IEEE double within MBF's range
SMALLEST = 2.0**-128  # the smallest MBF value above zero
# QuickBASIC's IEEE range: the largest float32, and the value from which a double rounds
# to a float32 infinity (half the float32's last unit above it).
IEEE_SINGLE_MAX = (2.0 - 2.0**-23) * 2.0**127
_IEEE_SINGLE_LIMIT = IEEE_SINGLE_MAX + 2.0**103
# A value rounds to a float32 above SINGLE_MAX from here on (half its last unit above).
_SINGLE_LIMIT = SINGLE_MAX + 2.0**102
INT_MIN, INT_MAX = -32768, 32767
LONG_MIN, LONG_MAX = -2147483648, 2147483647

_F32 = array("f", [0.0])


def float32(x: float) -> float:
    """x rounded to the nearest float32 (an infinity beyond its range), no questions asked."""
    _F32[0] = x
    return _F32[0]


def sng(x: float) -> float:
    """x as a single: rounded to float32, within GW-BASIC's range (beyond it: "Overflow"
    and the largest single with x's sign)."""
    if -_SINGLE_LIMIT < x < _SINGLE_LIMIT:
        _F32[0] = x
        r = _F32[0]
        if -SMALLEST < r < SMALLEST:
            return 0.0
        return r
    return _out_of_range(x, SINGLE_MAX)


def dbl(x: float) -> float:
    """x as a double, within GW-BASIC's range (as `sng`)."""
    if -DOUBLE_MAX <= x <= DOUBLE_MAX:
        if -SMALLEST < x < SMALLEST:
            return 0.0
        return x
    return _out_of_range(x, DOUBLE_MAX)


def fits(x: float, single: bool = True) -> bool:
    """Whether x as a single (`single` False: a double) is within GW-BASIC's range, so
    that `sng(x)` (`dbl(x)`) warns no "Overflow".  A kernel's per-block sum is combined
    into its variable only where it fits: else the host runs the block's iterations,
    whose additions may each overflow (a running total held at the largest single
    overflows again at every positive term; one block sum would overflow once)."""
    if single:
        return -_SINGLE_LIMIT < x < _SINGLE_LIMIT
    return -DOUBLE_MAX <= x <= DOUBLE_MAX


def totals_fit(total: float, values, single: bool = True, subtract: bool = False) -> bool:
    """Whether `total + value` (`subtract`: `-`) for each of `values` in turn, each
    result rounded to its type, `fits`: then the kernel's per-block sums combine as
    BASIC's sequential sum would, with no warning."""
    rounded = sng if single else dbl
    for value in values:
        x = total - value if subtract else total + value
        if not fits(x, single):
            return False
        total = rounded(x)
    return True


def _out_of_range(x: float, largest: float) -> float:
    if math.isnan(x):
        return x
    if quickbasic():
        return _ieee(x, largest)
    warn(OVERFLOW)
    return largest if x > 0.0 else -largest


def _ieee(x: float, largest: float) -> float:
    """QuickBASIC's value for x beyond GW-BASIC's range: a single or a double within
    IEEE's (`largest` says which), else the fatal "Overflow"."""
    if largest == SINGLE_MAX and -_IEEE_SINGLE_LIMIT < x < _IEEE_SINGLE_LIMIT:
        return float32(x)
    if largest == DOUBLE_MAX and math.isfinite(x):
        return x
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def _report(what: str, detail: str = "") -> None:
    """An "Overflow" or "Division by zero": a warning that goes on in GW-BASIC, an error
    that stops the program in QuickBASIC."""
    if quickbasic():
        raise BasicFault(what, detail)
    warn(what, detail)


def round_whole(x: float) -> int:
    """x rounded to an integer as CINT does (x finite): .5 away from zero in GW-BASIC,
    to even in QuickBASIC (the 8087's round-to-nearest; Python's round is that)."""
    if quickbasic():
        return round(x)
    a = abs(x)
    whole = math.floor(a)
    if a - whole >= 0.5:  # exact: a is below 2^52 or integral
        whole += 1
    return whole if x >= 0.0 else -whole


def cint(x: float) -> float:
    """CINT(x), and the value a % variable stores: x rounded (`round_whole`; on
    Applesoft and Commodore BASIC `floor_int`); outside -32768..32767 it is the fatal
    "Overflow"."""
    if machine() is not None and MACHINE_NUMBERS[machine()].integers_floor:
        return floor_int(x)
    if abs(x) < 32768.5:
        r = round_whole(x)
        if INT_MIN <= r <= INT_MAX:
            return float(r)
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def floor_int(x: float) -> float:
    """The integer Applesoft and Commodore BASIC store for x: INT(x), the largest integer
    not above it (`A% = -7.9` is -8); outside -32768..32767 the fatal "Overflow"."""
    if INT_MIN <= x < INT_MAX + 1:
        return float(math.floor(x))
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def cint_unsigned(x: float) -> int:
    """An argument that GW-BASIC reads as an unsigned or signed 16-bit integer (TAB, SPC):
    x rounded half away from zero, -32768..65535, else the fatal "Overflow"."""
    if -32768.5 < x < 65535.5:
        a = abs(x)
        whole = math.floor(a)
        if a - whole >= 0.5:
            whole += 1
        return whole if x >= 0.0 else -whole
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def clng(x: float) -> float:
    """CLNG(x), and the value a `&` variable stores: x rounded (`round_whole`); outside
    -2147483648..2147483647 it is the fatal "Overflow"."""
    if abs(x) < 2147483648.5:
        r = round_whole(x)
        if LONG_MIN <= r <= LONG_MAX:
            return float(r)
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def int_result(x: float) -> float:
    """QuickBASIC's INTEGER result of + - * (exact in a double): "Overflow" beyond 16 bits."""
    if INT_MIN <= x <= INT_MAX:
        return x
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def long_result(x: float) -> float:
    """QuickBASIC's LONG result of + - * (exact in a double up to 2^53, and far beyond 32
    bits above that): "Overflow" beyond 32 bits."""
    if LONG_MIN <= x <= LONG_MAX:
        return x
    raise BasicFault(OVERFLOW, f"({_num(x)})")


def _long_of(x: float) -> int:
    return int(clng(x))


def long_div(a: float, b: float) -> float:
    """QuickBASIC's a \\ b of LONGs: the operands rounded to LONGs, the quotient
    truncated toward zero; "Division by zero" is fatal there."""
    left, right = _long_of(a), _long_of(b)
    if right == 0:
        raise BasicFault(DIVISION_BY_ZERO, f"({left} \\ 0)")
    quotient = abs(left) // abs(right)
    if (left < 0) != (right < 0):
        quotient = -quotient
    return long_result(float(quotient))


def long_mod(a: float, b: float) -> float:
    """QuickBASIC's a MOD b of LONGs: the remainder has the sign of a."""
    left, right = _long_of(a), _long_of(b)
    if right == 0:
        raise BasicFault(DIVISION_BY_ZERO, f"({left} MOD 0)")
    remainder = abs(left) % abs(right)
    return float(-remainder if left < 0 else remainder)


def _to_int32(bits: int) -> float:
    bits &= 0xFFFFFFFF
    return float(bits - 0x100000000 if bits & 0x80000000 else bits)


def fix(x: float) -> float:
    """FIX(x): x truncated toward zero (keeps its type)."""
    return float(math.trunc(x)) if math.isfinite(x) else x


def _divided_by_zero(a: float, largest: float) -> float:
    _report(DIVISION_BY_ZERO)
    return -largest if a < 0.0 else largest


def single_div(a: float, b: float) -> float:
    """a / b of singles (and integers)."""
    if b == 0.0:
        return _divided_by_zero(a, SINGLE_MAX)
    return sng(a / b)


def double_div(a: float, b: float) -> float:
    """a / b with a double operand."""
    if b == 0.0:
        return _divided_by_zero(a, DOUBLE_MAX)
    return dbl(a / b)


def _int_of(x: float) -> int:
    return int(cint(x))


def int_div(a: float, b: float) -> float:
    """a \\ b: the operands rounded to integers, the quotient truncated toward zero."""
    left, right = _int_of(a), _int_of(b)
    if right == 0:
        return _divided_by_zero(left, SINGLE_MAX)
    quotient = abs(left) // abs(right)
    if (left < 0) != (right < 0):
        quotient = -quotient
    if quotient > INT_MAX:  # -32768 \ -1
        raise BasicFault(OVERFLOW, f"({left} \\ {right})")
    return float(quotient)


def int_mod(a: float, b: float) -> float:
    """a MOD b: the operands rounded to integers; the remainder has the sign of a."""
    left, right = _int_of(a), _int_of(b)
    if right == 0:
        return _divided_by_zero(left, SINGLE_MAX)
    remainder = abs(left) % abs(right)
    return float(-remainder if left < 0 else remainder)


def _to_int16(bits: int) -> float:
    bits &= 0xFFFF
    return float(bits - 0x10000 if bits & 0x8000 else bits)


# AND, OR, XOR, EQV and IMP, each written once for both widths: GW-BASIC's 16-bit
# integers (`bit_and`..., operands rounded as CINT) and QuickBASIC's LONG, 32 bits
# (`long_and`..., rounded as CLNG).  The C++ runtime does the same (b2t_runtime.h).
_BITWISE = {
    "and": lambda x, y: x & y,
    "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y,
    "eqv": lambda x, y: ~(x ^ y),
    "imp": lambda x, y: ~x | y,
}
_WIDTHS = {"bit": (_int_of, _to_int16), "long": (_long_of, _to_int32)}


def _bitwise(width: str, name: str):
    operand, word = _WIDTHS[width]
    op = _BITWISE[name]

    def operation(a: float, b: float) -> float:
        return word(op(operand(a), operand(b)))

    operation.__name__ = operation.__qualname__ = f"{width}_{name}"
    return operation


def _bitwise_not(width: str):
    operand, word = _WIDTHS[width]

    def operation(a: float) -> float:
        return word(~operand(a))

    operation.__name__ = operation.__qualname__ = f"{width}_not"
    return operation


bit_and, bit_or, bit_xor, bit_eqv, bit_imp = (_bitwise("bit", name) for name in _BITWISE)
long_and, long_or, long_xor, long_eqv, long_imp = (_bitwise("long", name) for name in _BITWISE)
bit_not, long_not = _bitwise_not("bit"), _bitwise_not("long")


def single_result(x: float) -> float:
    """The single that a function computed in double gives (SQR, LOG, SIN... and ^ of a
    non-integer exponent), converted as PC-BASIC converts its results: with the binary
    exponent k = int(log2|x| - 23) (int() truncating toward zero), the mantissa
    int(|x| / 2^k) (truncated), shifted to 24 bits.  Below 2^23 that keeps 23 bits and a
    zero, not the 24 of a rounded float32: SQR(2) is 1.414213 in PC-BASIC, and here, where
    a correctly rounded single prints 1.414214.  GW-BASIC itself computes these functions
    with its own series in single precision, whose last bits differ again; PC-BASIC is the
    GW-BASIC we can run.  Beyond GW-BASIC's range: "Overflow" and the positive maximum,
    whatever the sign, as PC-BASIC gives it."""
    if x == 0.0 or math.isnan(x):
        return x
    if quickbasic():  # the 8087's result rounded to the nearest single
        return sng(x)
    a = abs(x)
    if a < SMALLEST:
        return 0.0
    if a >= _SINGLE_LIMIT:  # (an infinity too)
        _report(OVERFLOW)
        return SINGLE_MAX
    k = int(math.log(a, 2) - 23)  # noqa: FURB163 - PC-BASIC's own log(a) / log(2)
    m = int(a * 0.5**k)
    while m <= 0x7FFFFF:
        k -= 1
        m <<= 1
    while m > 0xFFFFFF:
        k += 1
        m >>= 1
    r = math.ldexp(m, k)
    if r > SINGLE_MAX:
        _report(OVERFLOW)
        return SINGLE_MAX
    if r < SMALLEST:
        return 0.0
    return r if x > 0.0 else -r


def single_power(a: float, b: float) -> float:
    """a ^ b (b not an integer expression): pow in double, as a single (`single_result`)."""
    return _power(a, b, SINGLE_MAX, single_result)


def double_power(a: float, b: float) -> float:
    """a ^ b computed in double (--precision f64)."""
    return _power(a, b, DOUBLE_MAX, dbl)


def _power(a: float, b: float, largest: float, rounded) -> float:
    if a == 0.0 and b < 0.0:
        _report(DIVISION_BY_ZERO)
        return largest
    if a < 0.0 and not b.is_integer():
        raise BasicFault(ILLEGAL_FUNCTION_CALL, f"({_num(a)} ^ {_num(b)})")
    try:
        r = math.pow(a, b)
    except OverflowError:
        r = math.inf
    if largest == DOUBLE_MAX and abs(r) > DOUBLE_MAX:
        _report(OVERFLOW)  # the positive maximum whatever the sign, as PC-BASIC
        return largest
    return rounded(r)


def single_power_int(a: float, n: float) -> float:
    """a ^ n for an integer expression n: by repeated squaring, each product a single, and
    1 / a ^ -n for n < 0 (GW-BASIC's way; the last bits can differ from pow).  A product
    that overflows ends the computation: one "Overflow", and the maximum with its sign."""
    exponent = int(n)
    try:
        power = _power_by_squaring(sng(a), abs(exponent))
    except _ProductOverflow as overflow:
        _report(OVERFLOW)
        return overflow.value
    return single_div(1.0, power) if exponent < 0 else power


class _ProductOverflow(Exception):
    def __init__(self, value: float):
        super().__init__(value)
        self.value = value


def _power_by_squaring(a: float, n: int) -> float:
    if n == 0:
        return 1.0
    if n == 1:
        return a
    half = _power_by_squaring(a, n // 2)
    square = _product(half, half)
    return _product(square, a) if n % 2 else square


def _product(a: float, b: float) -> float:
    r = a * b
    if abs(r) >= _SINGLE_LIMIT and not quickbasic():  # (QuickBASIC: sng's IEEE range)
        raise _ProductOverflow(SINGLE_MAX if r > 0.0 else -SINGLE_MAX)
    return sng(r)


# --------------------------------------------------------------------------- functions

TIMER_VARIABLE = "BASIC2TILE_TIMER"


def FIX(x: float) -> float:
    return fix(x)


def CINT(x: float) -> float:
    return cint(x)


def CLNG(x: float) -> float:
    return clng(x)


def CSNG(x: float) -> float:
    return sng(x)


def CDBL(x: float) -> float:
    return x


def TIMER() -> float:
    """Seconds since midnight, in twentieths of a second as GW-BASIC counts them (a single).
    $BASIC2TILE_TIMER, if set, is the value instead: runs that must agree (--check) fix it."""
    text = os.environ.get(TIMER_VARIABLE, "").strip()
    if text:
        try:
            return sng(float(text))
        except ValueError:
            raise BasicFault(f"{TIMER_VARIABLE} is not a number", f"({text})") from None
    now = datetime.datetime.now()
    seconds = now.hour * 3600 + now.minute * 60 + now.second + now.microsecond / 1e6
    return sng(math.floor(seconds * 20.0) / 20.0)
