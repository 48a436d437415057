"""Arithmetic and built-in functions with ECMA-55 exception handling (arith.py's table).

Messages are bas55's, from the .eok files cited; values from the matching .ok files or
from IEEE arithmetic worked out by hand.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transpiler.runtime import (
    ABS,
    ATN,
    COS,
    EXP,
    INT,
    LOG,
    SGN,
    SIN,
    SQR,
    TAN,
    BasicFault,
    add,
    div,
    mul,
    power,
    round_to_int,
    set_warning_hook,
    sub,
)

INF = math.inf


@pytest.fixture
def notices():
    seen = []
    previous = set_warning_hook(seen.append)
    yield seen
    set_warning_hook(previous)


def messages(notices) -> list[str]:
    return [n.message for n in notices]


def test_division_by_zero_warns_and_gives_ieee_values_p028(notices):
    # P028.ok: "VALUE SUPPLIED =  INF" and "-INF"; P028.eok: "warning: division by zero".
    assert div(1.0, 0.0) == INF
    assert div(-1e-33, 0.0) == -INF  # P174 line 310: C/A
    assert div(1.0, -0.0) == -INF
    assert math.isnan(div(0.0, 0.0))
    assert messages(notices) == ["division by zero"] * 4
    assert notices[0].bas55_text(220) == "220: warning: division by zero "


def test_ordinary_division_is_quiet(notices):
    assert div(1.0, 4.0) == 0.25
    assert div(1e-300, 1e300) == 0.0  # underflow is replaced by zero silently (P033)
    assert div(INF, 2.0) == INF  # no overflow: the dividend is infinite already
    assert notices == []


def test_sums_differences_and_quotients_that_overflow_warn(notices):
    # ECMA-55 7.5: an overflow is an exception.  bas55 reports those of * and ^ only;
    # here every operation of finite operands with an infinite result is reported.
    assert add(1e308, 1e308) == INF
    assert sub(-1e308, 1e308) == -INF
    assert div(1e300, 1e-300) == INF
    assert messages(notices) == [f"operation overflow ({op})" for op in "+-/"]


def test_sums_with_an_infinite_operand_are_quiet(notices):
    assert add(INF, 1.0) == INF
    assert sub(1.0, INF) == -INF
    assert math.isnan(add(INF, -INF))
    assert add(1e308, -1e308) == 0.0
    assert notices == []


def test_multiplication_overflow_p029(notices):
    # P029: 1.0577146E+307 * 1.2660092E+28 gives INF with "operation overflow (*)", and so
    # does INF * 8.1786295E+30 on the next round (two warnings for line 260).
    assert mul(1.0577146e307, 1.2660092e28) == INF
    assert mul(INF, 8.1786295e30) == INF
    assert mul(-1e200, 1e200) == -INF
    assert [n.bas55_text(260) for n in notices] == ["260: warning: operation overflow (*)"] * 3


def test_multiplication_quiet_cases(notices):
    assert mul(INF, INF) == INF  # both operands infinite: bas55 says nothing
    assert mul(1e-200, 1e-200) == 0.0  # underflow is replaced by zero silently (P033)
    assert mul(3.0, -2.0) == -6.0
    assert notices == []


def test_zero_to_a_negative_power_p031(notices):
    assert power(0.0, -6.0) == INF
    assert power(-0.0, -1e-33) == INF
    assert [n.bas55_text(220) for n in notices] == [
        "220: warning: zero raised to negative value (0 ^ -6)",  # P031.eok
        "220: warning: zero raised to negative value (0 ^ -1.E-33)",  # P174.eok
    ]


def test_negative_to_a_non_integral_power_is_fatal_p032():
    with pytest.raises(BasicFault) as caught:
        power(-2.0, 6.00001)
    assert caught.value.bas55_text(230) == (
        "230: error: negative value raised to non-integral value (-2 ^ 6.00001)"
    )
    with pytest.raises(BasicFault, match=r"\(-2 \^ 1.E-33\)"):  # P182.eok
        power(-2.0, 1e-33)
    with pytest.raises(BasicFault):
        power(-2.0, math.nan)


def test_power_overflow_and_underflow_warn(notices):
    # P174 line 310: (-1E-33)^(-3333) supplies -INF with "operation overflow".
    assert power(-1e-33, -3333.0) == -INF
    assert power(9.0, power(9.0, 9.0)) == INF  # P174 line 620
    assert power(0.1, 400.0) == 0.0  # underflow of ^ is reported as overflow (P169)
    assert power(-10.0, 401.0) == -INF
    assert messages(notices) == ["operation overflow"] * 4


def test_power_cases_bas55_does_not_report(notices):
    # Checked against bas55 2.0: it reports ^ only when exp(|b| * ln|a|) over/underflows.
    assert power(10.0, 1e308) == INF  # |b| * ln|a| is already infinite
    assert power(1e-320, -1.0) == INF  # |a| ^ |b| is a non-zero subnormal
    assert power(INF, 2.0) == INF
    assert power(2.0, -INF) == 0.0
    assert notices == []


@pytest.mark.parametrize(
    "a, b, result",
    [
        (-2.0, 3.0, -8.0),
        (-2.0, -2.0, 0.25),
        (2.0, 0.5, math.sqrt(2.0)),
        (0.0, 0.0, 1.0),  # ECMA-55: 0 ^ 0 = 1
        (0.0, 5.0, 0.0),
        (1.0, math.nan, 1.0),
        (-1.0, INF, 1.0),
    ],
)
def test_power_values(notices, a, b, result):
    assert power(a, b) == result
    assert notices == []


def test_power_of_negative_zero_is_positive_zero():
    assert math.copysign(1.0, power(-0.0, 3.0)) == 1.0  # as bas55, not IEEE's -0


def test_exp_overflow_and_underflow_p122_p123(notices):
    assert EXP(1140.5695) == INF
    assert EXP(-1140.5695) == 0.0
    assert EXP(-INF) == 0.0  # no message: the argument was already infinite
    assert [n.bas55_text(250) for n in notices] == [
        "250: warning: operation overflow EXP(1140.5695)",
        "250: warning: operation overflow EXP(-1140.5695)",
    ]


@pytest.mark.parametrize(
    "function, argument, message",
    [
        (LOG, 0.0, "function domain error LOG(0)"),  # P125
        (LOG, -3.0, "function domain error LOG(-3)"),  # P126
        (SQR, -3.0, "function domain error SQR(-3)"),  # P118
        (SIN, INF, "function domain error SIN(INF)"),
        (COS, -INF, "function domain error COS(-INF)"),
        (TAN, INF, "function domain error TAN(INF)"),
    ],
)
def test_domain_errors_are_fatal(function, argument, message):
    with pytest.raises(BasicFault) as caught:
        function(argument)
    assert caught.value.message == message


def test_tan_overflow_warns(notices, monkeypatch):
    # libm's tan never overflows on a double; the check is for ports whose tan can.
    monkeypatch.setattr(math, "tan", lambda x: INF)
    assert TAN(1.5707963) == INF
    assert messages(notices) == ["operation overflow TAN(1.5707963)"]


@pytest.mark.parametrize(
    "x, floor",
    # P115.ok, section 115.1.
    [
        (3, 3),
        (-3, -3),
        (2.1, 2),
        (2.9, 2),
        (-2.1, -3),
        (-2.9, -3),
        (0.1, 0),
        (-0.1, -1),
        (-12345.6, -12346),
        (-44.0001, -45),
        (1e-38, 0),
        (-1e-38, -1),
        (-1.23456e-31, -1),
    ],
)
def test_int_is_floor_p115(x, floor):
    result = INT(float(x))
    assert result == floor and type(result) is float


def test_int_special_values():
    assert INT(1e300) == 1e300
    assert INT(-INF) == -INF
    assert math.isnan(INT(math.nan))
    assert math.copysign(1.0, INT(-0.0)) == -1.0


@pytest.mark.parametrize(
    "x, sign",
    # P116.ok.
    [
        (0, 0),
        (1, 1),
        (-1, -1),
        (3, 1),
        (-4, -1),
        (86.1234, 1),
        (-3.45678e24, -1),
        (2.22222e-32, 1),
        (1.23e-8, 1),
        (1e38, 1),
        (-1e-38, -1),
    ],
)
def test_sgn_p116(x, sign):
    assert SGN(float(x)) == sign


def test_other_functions():
    assert ABS(-2.5) == 2.5 and math.copysign(1.0, ABS(-0.0)) == 1.0
    assert ATN(1.0) == math.pi / 4
    assert SQR(16.0) == 4.0 and SQR(INF) == INF
    assert LOG(math.e) == 1.0 and LOG(INF) == INF
    assert math.isnan(LOG(math.nan)) and math.isnan(SQR(math.nan))
    assert SGN(math.nan) == -1.0  # as bas55
    assert SIN(0.0) == 0.0 and COS(0.0) == 1.0 and TAN(0.0) == 0.0


@pytest.mark.parametrize(
    "x, n",
    [
        (0.4, 0),
        (0.5, 1),
        (-0.5, 0),
        (-0.6, -1),
        (2.5, 3),
        (24.0, 24),
        (2147483646.6, 2147483647),
        (2147483647.5, -(2**31)),
        (INF, -(2**31)),
        (-INF, -(2**31)),
        (math.nan, -(2**31)),
    ],
)
def test_round_to_int(x, n):
    assert round_to_int(x) == n


_finite = st.floats(allow_nan=False, allow_infinity=False)


def _pow_or_none(a: float, b: float) -> float | None:
    try:
        return math.pow(a, b)
    except (OverflowError, ValueError):
        return None


@given(_finite, _finite)
def test_quiet_arithmetic_is_plain_ieee(a, b):
    seen = []
    previous = set_warning_hook(seen.append)
    try:
        if b != 0.0 and not math.isinf(a / b):
            assert div(a, b) == a / b
        if not math.isinf(a * b):
            assert mul(a, b) == a * b
        if not math.isinf(a + b):
            assert add(a, b) == a + b
        if not math.isinf(a - b):
            assert sub(a, b) == a - b
        expected = _pow_or_none(a, b)
        if expected is not None and expected != 0.0 and not math.isinf(expected):
            assert power(a, b) == expected
        assert seen == []
    finally:
        set_warning_hook(previous)
