"""Number <-> text: the PRINT format and the numeric-constant syntax of DATA and INPUT."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transpiler.runtime import format_number, format_number_trimmed, parse_number


@pytest.mark.parametrize(
    "value, text",
    [
        # P009.ok, sections 9.1 and 9.5: NR1 and NR2, sign or space, trailing space.
        (0.0, " 0 "),
        (-0.0, " 0 "),
        (-1.0, "-1 "),
        (999999.0, " 999999 "),
        (-123456.0, "-123456 "),
        (0.1, " .1 "),
        (-0.123456, "-.123456 "),
        (0.56789, " .56789 "),
        (-1.23456, "-1.23456 "),
        (99999.9, " 99999.9 "),
        (0.000002, " .000002 "),
        (-0.000123, "-.000123 "),
        (90000.1, " 90000.1 "),
        # P010.ok: NR3, one digit before the point, the point kept, signed exponent.
        (1.23456e32, " 1.23456E+32 "),
        (-1.23456e-24, "-1.23456E-24 "),
        (1e30, " 1.E+30 "),
        (1e9, " 1.E+9 "),
        (25.01e36, " 2.501E+37 "),
        (-1e-30, "-1.E-30 "),
        (-9.87e-37, "-9.87E-37 "),
        (5e-20, " 5.E-20 "),
        (99e10, " 9.9E+11 "),
        (-765.32e32, "-7.6532E+34 "),
        (0.00082e-9, " 8.2E-13 "),
        # P013.ok: rounding to 8 significant digits, and the choice of format.
        (1234567886.0, " 1.2345679E+9 "),
        (0.000001234567886, " 1.2345679E-6 "),
        (9.999999999, " 10 "),
        (923456.7886, " 923456.79 "),
        (-0.09234567886, "-9.2345679E-2 "),
        (0.04444444444, " 4.4444444E-2 "),
        (0.001200000004, " .0012 "),
        # P014.ok: near bas55's test limits; P029.ok: three-digit exponents.
        (-9.99999e34, "-9.99999E+34 "),
        (1.00001e-38, " 1.00001E-38 "),
        (1e38, " 1.E+38 "),
        (1.258757e157, " 1.258757E+157 "),
        # P028.ok / P174.ok: infinities; bas55 prints NaN the same way (vm.c sprint_num).
        (math.inf, " INF "),
        (-math.inf, "-INF "),
        (math.nan, " NAN "),
    ],
)
def test_corpus_number_texts(value, text):
    assert format_number(value) == text


@pytest.mark.parametrize(
    "value, text",
    [
        # Worked out by hand from the algorithm in numformat's docstring.
        (12345678.0, " 12345678 "),  # 8 integer digits: still unscaled
        (123456789.0, " 1.2345679E+8 "),  # 9 integer digits: scaled
        (99999999.0, " 99999999 "),
        (99999999.5, " 1.E+8 "),  # exact tie, rounds to even: 1.0000000E+08
        (12345678.5, " 12345678 "),  # exact tie, 8 is even: stays
        (1234567.25, " 1234567.2 "),  # exact tie, 2 is even: stays
        (1234567.75, " 1234567.8 "),  # exact tie, 7 is odd: up
        (1234567.85, " 1234567.9 "),  # not a tie: the double is 1234567.850000000093...
        (0.5, " .5 "),
        (0.00000001, " .00000001 "),  # n - e = 1 + 8 = 9: unscaled
        (0.000000015, " 1.5E-8 "),  # n - e = 2 + 8 = 10: scaled
        (0.12345678, " .12345678 "),
        (0.012345678, " 1.2345678E-2 "),
        (0.99999999, " .99999999 "),
        (0.999999995, " 1 "),  # rounds up to 1.0000000E+00
        (1e100, " 1.E+100 "),
        (1.7976931348623157e308, " 1.7976931E+308 "),
        (5e-324, " 4.9406565E-324 "),
        (3, " 3 "),  # Python ints are numbers too
        (10**12, " 1.E+12 "),
    ],
)
def test_hand_worked_number_texts(value, text):
    assert format_number(value) == text


def test_trimmed_text_is_for_messages():
    # P031.eok "(0 ^ -6)", P174.eok "(0 ^ -1.E-33)", P122.eok "EXP(1140.5695)".
    assert format_number_trimmed(-6.0) == "-6"
    assert format_number_trimmed(-1e-33) == "-1.E-33"
    assert format_number_trimmed(1140.5695) == "1140.5695"
    assert format_number_trimmed(math.inf) == "INF"


_SHAPE = re.compile(
    r"[ -](?:[1-9][0-9]*(?:\.[0-9]*[1-9])?|\.[0-9]*[1-9]|[1-9]\.[0-9]*E[+-][1-9][0-9]*) "
)


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != 0.0))
def test_text_is_the_value_rounded_to_8_digits(x):
    text = format_number(x)
    assert _SHAPE.fullmatch(text), text
    assert (text[0] == "-") == (x < 0)
    assert len(text) <= 16  # the widest: "-1.2345678E-308 "
    assert float(text.strip()) == float(f"{x:.7e}")
    digits = re.sub(r"E.*|[^0-9]", "", text).lstrip("0")
    assert 1 <= len(digits) <= 8


@pytest.mark.parametrize(
    "text, value",
    [
        ("1", 1.0),
        ("-2.5", -2.5),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("1.E-3", 0.001),
        ("007", 7.0),
        ("1E-99999", 0.0),  # underflow is replaced by zero (ECMA-55 5.6, P096)
        ("9.9E99999", math.inf),  # overflow: the caller warns (P101)
        ("-9.9E99999", -math.inf),
    ],
)
def test_numeric_constants(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        ".",
        "+",
        "-",
        "1E",
        "1E+",
        "E5",
        "1.2.3",
        "1 2",
        "1e5",
        "ABC",
        "inf",
        "nan",
        "1_000",
        "0x10",
        " 1",
    ],
)
def test_not_numeric_constants(text):
    assert parse_number(text) is None
