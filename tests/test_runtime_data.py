"""DATA, READ and RESTORE through DataPool; the NBS programs cited show bas55's behaviour."""

from __future__ import annotations

import math

import pytest

from transpiler.runtime import BasicFault, DataItem, DataPool, check_string, set_warning_hook


@pytest.fixture
def notices():
    seen = []
    previous = set_warning_hook(seen.append)
    yield seen
    set_warning_hook(previous)


def test_read_in_order_and_restore():
    # P095: RESTORE starts again from the first datum.
    pool = DataPool([DataItem("1"), DataItem("ABC", quoted=True), ("-2.5E3", False)])
    assert len(pool) == 3
    assert pool.read_number() == 1.0
    assert pool.read_string() == "ABC"
    assert pool.read_number() == -2500.0
    pool.restore()
    assert pool.position == 0
    assert pool.read_string() == "1"  # an unquoted number reads as its text into A$
    pool.restore(2)
    assert pool.read_string() == "-2.5E3"


def test_quoted_strings_keep_their_spaces_unquoted_ones_do_not():
    pool = DataPool([("  A B  ", True), ("  A B  ", False)])
    assert pool.read_string() == "  A B  "
    assert pool.read_string() == "A B"


def test_read_past_the_data_is_fatal_p097():
    pool = DataPool([("1", False)])
    pool.read_number()
    with pytest.raises(BasicFault, match="^insufficient data for READ$"):
        pool.read_number()
    with pytest.raises(BasicFault, match="^insufficient data for READ$"):
        pool.read_string()


@pytest.mark.parametrize(
    "item",
    [
        ("ABC", False),  # P098: unquoted string into a numeric variable
        ("1", True),  # P099: quoted string, even if it looks like a number
        ("1E", False),
        ("1 2", False),
    ],
)
def test_string_into_numeric_variable_is_fatal(item):
    with pytest.raises(BasicFault, match="^reading string into numeric variable$"):
        DataPool([item]).read_number()


def test_long_string_is_fatal_p100():
    pool = DataPool([("ABC12345678901234567890123456789012345678901234567890123456789XYZ", False)])
    with pytest.raises(BasicFault, match="^string datum contains too many characters$"):
        pool.read_string()


def test_numeric_overflow_warns_at_each_read_p101(notices):
    pool = DataPool([("9.9E99999", False), ("-9.9E99999", False)])
    assert pool.read_number() == math.inf
    assert pool.read_number() == -math.inf
    pool.restore()
    pool.read_number()
    assert [n.bas55_text(190) for n in notices] == ["190: warning: numeric constant overflow "] * 3


def test_numeric_underflow_is_zero_without_message_p096(notices):
    assert DataPool([("1E-99999", False)]).read_number() == 0.0
    assert notices == []


def test_string_length_limit_p007():
    # P007: LET A$ = a 19-character string is fatal; 18 characters fit.
    assert check_string("X" * 18) == "X" * 18
    with pytest.raises(BasicFault, match="^string datum contains too many characters$"):
        check_string("?*******19********!")
