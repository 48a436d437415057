"""BASIC arithmetic with ECMA-55 exception handling, as bas55 does it (IEEE doubles).

Unary `-` and the comparisons need nothing: Python floats already give the IEEE result,
and nothing can overflow.  The operations below are those where Python would raise, or
where ECMA-55 reports an exception.  The common path is plain float math; checks run
only when the result is exceptional.

Exceptions (ECMA-55 7.5 and 8.5 with bas55's choices).  W = warning: reported through the
notice hook (faults.warn), execution goes on with the value shown.  F = fatal: raises
`BasicFault`.  The NBS program whose .eok shows bas55's message is in the last column.

  condition                         W/F  value          message: what + detail             NBS
  --------------------------------  ---  -------------  ---------------------------------  ----
  X / 0                             W    +-inf, 0/0 NaN division by zero                   P028
  X * Y overflows (not INF * INF)   W    +-inf          operation overflow (*)             P029
  X + Y, X - Y, X / Y overflow      W    +-inf          operation overflow (+), (-), (/)   -
    (finite operands)                                   (ECMA-55 7.5; bas55 says nothing)
  underflow of + - * /              -    0, subnormal   (ECMA-55 7.4: replaced by zero)    P033
  0 ^ Y, Y < 0                      W    +inf           zero raised to negative value      P031
                                                        (0 ^ -6)
  X ^ Y, X < 0, Y not an integer    F    -              negative value raised to           P032
    (NaN counts as not an integer)                      non-integral value (-2 ^ 6.00001)
  X ^ Y is 0 or +-inf, X and Y      W    0, +-inf       operation overflow                 P035
    finite (see _pow_out_of_range)                                                         P169
  EXP(X) overflows                  W    +inf           operation overflow EXP(1140.5695)  P122
  EXP(X) underflows to 0            W    0              operation overflow EXP(-1140.5695) P123
  TAN(X) infinite                   W    +-inf          operation overflow TAN(X)          P129
  LOG(X), X <= 0                    F    -              function domain error LOG(0)       P125
  SQR(X), X < 0                     F    -              function domain error SQR(-3)      P118
  SIN, COS, TAN of +-inf            F    -              function domain error SIN(INF)     -
  TAB(X), floor(X + .5) < 1         W    TAB(1)         invalid TAB argument (0)           P008
  (console.py)

Microsoft BASIC (--dialect ms) reports a domain error as "Illegal function call", and
leaves the overflow of EXP and TAN to the rounding of their result to a single
(msnumbers.py), which reports GW-BASIC's "Overflow".

Underflow is not reported for + - * / (P033, P034 print no message), but bas55 reports an
underflow to zero of ^ and EXP as "operation overflow" (P123, P169, P175), and so do we.

Other runtime conditions live with their feature: DATA (data.py: READ past the data and
READ of a string into a number are fatal, a numeric datum that overflows is a warning
"numeric constant overflow" with +-inf), strings longer than 18 characters (strings.py,
fatal), INPUT (inputs.py: a bad reply is asked for again; end of input is fatal).  The
interpreter itself owns subscripts out of range, ON ... GOTO out of range and RETURN
without GOSUB (all fatal in bas55: "index out of range", "stack underflow").

Operands in a message are printed as by `format_number_trimmed` (PRINT text without
spaces).  bas55 computes EXP, LOG, SIN... with its own polynomials; we use the C library
(Python's math module), so the last bits of transcendental results can differ from bas55.
Visible consequences: the P129 search for TAN overflow never finds an infinite tangent
here (libm's TAN of the double nearest pi/2 is 1.6E+16), the .5 ^ -1075 edge warns here
but not in bas55, and for |X| >= 1E20 bas55's SIN and COS give 0 and TAN NaN, where we
give the libm values (bas55 also warns for that TAN).  A numeric constant in the program that overflows (P030) is the
lexer's to report, not the runtime's.
"""

from __future__ import annotations

import math

from .dialect import microsoft
from .faults import BasicFault, warn
from .numformat import format_number_trimmed as _num

INF = math.inf
NAN = math.nan
_TWO52 = 4503599627370496.0  # 2**52: every double at least this large is an integer
INT_MIN = -(2**31)

DIVISION_BY_ZERO = "division by zero"
OPERATION_OVERFLOW = "operation overflow"
ZERO_TO_NEGATIVE = "zero raised to negative value"
NEGATIVE_TO_NON_INTEGER = "negative value raised to non-integral value"
DOMAIN_ERROR = "function domain error"


def add(a: float, b: float) -> float:
    """`a + b`; finite operands whose sum overflows to +-inf warn."""
    r = a + b
    if (r == INF or r == -INF) and abs(a) != INF and abs(b) != INF:
        warn(OPERATION_OVERFLOW, "(+)")
    return r


def sub(a: float, b: float) -> float:
    """`a - b`; finite operands whose difference overflows to +-inf warn."""
    r = a - b
    if (r == INF or r == -INF) and abs(a) != INF and abs(b) != INF:
        warn(OPERATION_OVERFLOW, "(-)")
    return r


def add_all(total: float, values) -> float:
    """`total` plus each of `values` in turn, each addition reported as `add` reports it
    (a kernel's per-block sums, combined on the host)."""
    for value in values:
        total = add(total, value)
    return total


def sub_all(total: float, values) -> float:
    """`total` minus each of `values` in turn, as `sub` reports it."""
    for value in values:
        total = sub(total, value)
    return total


def div(a: float, b: float) -> float:
    """`a / b`; division by zero warns and gives the IEEE result (+-inf, NaN for 0/0), a
    finite quotient of finite operands that overflows to +-inf warns."""
    if b == 0.0:
        warn(DIVISION_BY_ZERO)
        if a == 0.0 or math.isnan(a):
            return NAN
        # IEEE sign rule: -0.0 in the divisor flips the sign of the infinity.
        return INF if (a > 0.0) == (math.copysign(1.0, b) > 0.0) else -INF
    r = a / b
    if (r == INF or r == -INF) and abs(a) != INF:
        warn(OPERATION_OVERFLOW, "(/)")
    return r


def mul(a: float, b: float) -> float:
    """`a * b`; an overflow to +-inf warns (bas55 stays quiet only for INF * INF)."""
    r = a * b
    if (r == INF or r == -INF) and (abs(a) != INF or abs(b) != INF):
        warn(OPERATION_OVERFLOW, "(*)")
    return r


def _is_integral(y: float) -> bool:
    return y.is_integer() or y == INF or y == -INF  # NaN is not integral


def power(a: float, b: float) -> float:
    """`a ^ b` (ECMA-55 involution)."""
    if a == 0.0:
        if b < 0.0:
            warn(ZERO_TO_NEGATIVE, "(0 ^ " + _num(b) + ")")
            return INF
        if b > 0.0:
            return 0.0  # bas55 gives +0 also for (-0) ^ 3
    elif a < 0.0 and not _is_integral(float(b)):
        raise BasicFault(NEGATIVE_TO_NON_INTEGER, "(" + _num(a) + " ^ " + _num(b) + ")")
    try:
        r = math.pow(a, b)
    except OverflowError:  # finite operands, infinite result
        r = -INF if a < 0.0 and math.fmod(b, 2.0) != 0.0 else INF
    if (r == 0.0 or r == INF or r == -INF) and _pow_out_of_range(a, b):
        warn(OPERATION_OVERFLOW)
    return r


def _pow_out_of_range(a: float, b: float) -> bool:
    """Whether bas55 reports a ``^`` whose result is 0 or infinite (a != 0).

    bas55 computes |a| ^ |b| as exp(|b| * ln|a|) and takes the reciprocal for b < 0.  It
    reports "operation overflow" when that exp overflows or underflows to exactly 0, but
    not when |b| * ln|a| is already infinite (infinite operands, or 10 ^ 1E308), nor when
    only the reciprocal overflows (1E-320 ^ -1: |a| ^ |b| is a non-zero subnormal).
    """
    if abs(a) == INF or abs(b) == INF or abs(b) * abs(math.log(abs(a))) == INF:
        return False
    try:
        magnitude = math.pow(abs(a), abs(b))
    except OverflowError:
        return True
    return magnitude == 0.0


def round_to_int(x: float) -> int:
    """bas55's rounding of TAB and ON ... GOTO arguments: ``(int) floor(x + 0.5)``.

    Values that do not fit a C int, and NaN, give INT_MIN (-2147483648), which is what
    that conversion yields on x86-64; bas55's messages show it (P174: TAB(9^(9^9))).
    """
    r = x + 0.5
    if -2147483648.0 <= r < 2147483648.0:
        return math.floor(r)
    return INT_MIN


def _domain_error(name: str, x: float) -> BasicFault:
    if microsoft():
        return BasicFault("Illegal function call", f"{name}({_num(x)})")
    return BasicFault(DOMAIN_ERROR, f"{name}({_num(x)})")


def ABS(x: float) -> float:
    return abs(x)


def ATN(x: float) -> float:
    return math.atan(x)


def COS(x: float) -> float:
    if abs(x) >= MICROSOFT_TRIG_LIMIT and microsoft():
        return 1.0
    try:
        return math.cos(x)
    except ValueError:
        raise _domain_error("COS", x) from None


def EXP(x: float) -> float:
    try:
        r = math.exp(x)
        overflow = r == 0.0 and x != -INF
    except OverflowError:
        r, overflow = INF, True
    if overflow and not microsoft():
        # (Microsoft BASIC: the single its result is rounded to reports an overflow.)
        warn(OPERATION_OVERFLOW, f"EXP({_num(x)})")
    return r


def _hyperbolic(name: str, function):
    def hyperbolic(x: float) -> float:
        """Extended BASIC's hyperbolic function: an overflow warns, as EXP's."""
        try:
            return function(x)
        except OverflowError:
            warn(OPERATION_OVERFLOW, f"{name}({_num(x)})")
            return math.copysign(INF, x) if name == "SINH" else INF

    hyperbolic.__name__ = hyperbolic.__qualname__ = name
    return hyperbolic


SINH = _hyperbolic("SINH", math.sinh)
COSH = _hyperbolic("COSH", math.cosh)


def TANH(x: float) -> float:
    return math.tanh(x)


def INT(x: float) -> float:
    """The greatest integer not above x (ECMA-55 INT is floor, not truncation)."""
    if -_TWO52 < x < _TWO52 and x != 0.0:
        return float(math.floor(x))
    return x  # already integral (zero keeps its sign), infinite or NaN


def LOG(x: float) -> float:
    if x > 0.0:
        return math.log(x)
    if math.isnan(x):
        return x
    raise _domain_error("LOG", x)


def SGN(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x == 0.0:
        return 0.0
    return -1.0  # also for NaN, as bas55


# PC-BASIC's SIN, COS and TAN of an argument this large (Microsoft BASIC): 0, 1, 0.
MICROSOFT_TRIG_LIMIT = 5e16


def SIN(x: float) -> float:
    if abs(x) >= MICROSOFT_TRIG_LIMIT and microsoft():
        return 0.0
    try:
        return math.sin(x)
    except ValueError:
        raise _domain_error("SIN", x) from None


def SQR(x: float) -> float:
    if x < 0.0:
        raise _domain_error("SQR", x)
    return math.sqrt(x)


def TAN(x: float) -> float:
    if abs(x) >= MICROSOFT_TRIG_LIMIT and microsoft():
        return 0.0
    try:
        r = math.tan(x)
    except ValueError:
        raise _domain_error("TAN", x) from None
    if (r == INF or r == -INF) and not microsoft():
        warn(OPERATION_OVERFLOW, f"TAN({_num(x)})")
    return r
