"""MOD, MAX, MIN and integer (%) variables of the extended dialect (extended.py)."""

from __future__ import annotations

import math

import pytest

from transpiler.runtime import MAX, MIN, MOD, BasicFault, set_warning_hook, to_integer


@pytest.mark.parametrize(
    "a, b, r", [(7, 3, 1), (-7, 3, -1), (7, -3, 1), (7.5, 2, 1.5), (-0.5, 1, -0.5), (6, 3, 0)]
)
def test_mod_truncates_toward_zero(a, b, r):
    assert MOD(float(a), float(b)) == r


def test_mod_by_zero_warns_and_gives_nan():
    seen = []
    previous = set_warning_hook(seen.append)
    try:
        assert math.isnan(MOD(1.0, 0.0))
        assert math.isnan(MOD(math.inf, 2.0))
    finally:
        set_warning_hook(previous)
    assert [n.message for n in seen] == ["division by zero"]


def test_max_and_min_prefer_numbers_to_nan():
    assert MAX(1.0, 2.0) == 2.0 and MIN(1.0, 2.0) == 1.0
    assert MAX(math.nan, 2.0) == 2.0 and MAX(2.0, math.nan) == 2.0
    assert MIN(math.nan, -2.0) == -2.0 and MIN(-2.0, math.nan) == -2.0


@pytest.mark.parametrize(
    "x, n",
    [
        (2.5, 3.0),
        (-2.5, -2.0),
        (0.49, 0.0),
        (2147483647.4, 2147483647.0),
        (-2147483648.5, -2147483648.0),
    ],
)
def test_integer_variables_round_half_up(x, n):
    result = to_integer(x)
    assert result == n and type(result) is float


@pytest.mark.parametrize("x", [2147483647.5, -2147483649.0, math.inf, math.nan])
def test_integer_overflow_is_fatal(x):
    with pytest.raises(BasicFault, match="^integer overflow"):
        to_integer(x)
