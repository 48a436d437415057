"""PRINT through Console: zones, TAB, the margin, and INPUT prompting and re-asking.

Expected lines are copied from the NBS .ok files named in the comments (bas55's output),
or worked out by hand from the rules in console.py's docstring.
"""

from __future__ import annotations

import io
import math

import pytest

from transpiler.runtime import (
    ERROR,
    NUMBER,
    STRING,
    ZONE,
    BasicFault,
    Console,
    power,
    set_warning_hook,
    tab,
)


@pytest.fixture
def notices():
    seen = []
    previous = set_warning_hook(seen.append)
    yield seen
    set_warning_hook(previous)


def printed(*statements: tuple) -> str:
    """Run PRINT statements given as item tuples (a trailing "" item means end="")."""
    out = io.StringIO()
    console = Console(out)
    for items in statements:
        if items and items[-1] == "":
            console.print(*items[:-1], end="")
        else:
            console.print(*items)
    console.finish()
    return out.getvalue()


def test_semicolons_and_zones_p009():
    # P009 lines 650 and 890.
    assert printed(
        ("   ACTUAL:", ZONE, "*", 1.0, "*", ZONE, "*", -23.0, "*", ZONE, "*", 456.0, "*")
    ) == ("   ACTUAL:      * 1 *           *-23 *          * 456 *\n")
    assert printed(("   ACTUAL:", 0.0, -0.0, 1.0, -12.0, 123.0, -1234.0, 12345.0, -123456.0)) == (
        "   ACTUAL: 0  0  1 -12  123 -1234  12345 -123456 \n"
    )


def test_zones_of_numbers_p010():
    # P010 lines 1650-1670.
    assert printed(
        (1e30, ZONE, -9.87e-37, ZONE, 1.23456e32),
        (-1.23456e32, ZONE, 1.7865e36, ZONE, 5e-20),
        (99e10, ZONE, -765.32e32, ZONE, 0.00082e-9),
    ) == (
        " 1.E+30         -9.87E-37        1.23456E+32 \n"
        "-1.23456E+32     1.7865E+36      5.E-20 \n"
        " 9.9E+11        -7.6532E+34      8.2E-13 \n"
    )


def test_tab_to_columns_p006():
    # P006 lines 680-700: TAB(24);"1" etc. put the text in that (1-based) column.
    assert printed((tab(24), "1"), (tab(48), "2"), (tab(59), "3")) == (
        " " * 23 + "1\n" + " " * 47 + "2\n" + " " * 58 + "3\n"
    )


def test_leading_commas_p006():
    # P006 line 1980: PRINT , , ,"A"
    assert printed((ZONE, ZONE, ZONE, "A")) == " " * 48 + "A\n"


def test_comma_in_last_zone_ends_the_line():
    # 5 zones of 16 in a margin of 80: the 5th comma starts a new line instead of padding.
    assert printed(("1", ZONE, "2", ZONE, "3", ZONE, "4", ZONE, "5", ZONE, "6")) == (
        "1" + " " * 15 + "2" + " " * 15 + "3" + " " * 15 + "4" + " " * 15 + "5\n6\n"
    )


def test_trailing_separators_keep_the_line_open():
    # P006 lines 110-120: PRINT "...1"; then PRINT "2" continue the same line.
    assert printed(("A", ""), ("B",)) == "AB\n"
    assert printed(("A", ZONE, ""), ("B",)) == "A" + " " * 15 + "B\n"


def test_tab_below_one_warns_and_uses_column_one_p008(notices):
    # P008.eok: "invalid TAB argument (0)" for TAB(0) and TAB(.4), "(-10)" for TAB(-10);
    # P008.ok: the X is printed in column 1.
    assert printed((tab(0.0), "X"), (tab(-10.0), "X"), (tab(0.4), "X"), (tab(0.5), "X")) == (
        "X\nX\nX\nX\n"
    )
    assert [n.message for n in notices] == [
        "invalid TAB argument (0)",
        "invalid TAB argument (-10)",
        "invalid TAB argument (0)",
    ]


def test_tab_of_an_overflowed_value_p174(notices):
    # P174 line 620: PRINT TAB(D^(D^D));X$ with D = 9; P174.eok shows the overflow of ^
    # and then bas55's C int conversion of +inf; P174.ok shows the X in column 1.
    assert printed((tab(power(9.0, power(9.0, 9.0))), "X")) == "X\n"
    assert [n.bas55_text(620) for n in notices] == [
        "620: warning: operation overflow ",
        "620: warning: invalid TAB argument (-2.1474836E+9)",
    ]


def test_tab_behind_the_column_starts_a_new_line():
    assert printed(("ABCDEF", tab(3), "X")) == "ABCDEF\n  X\n"
    assert printed(("ABC", tab(4), "X")) == "ABCX\n"  # already there: no spaces


def test_tab_beyond_the_margin_wraps_modulo_80():
    # Column n-1 becomes (n-1) % 80: TAB(81) is column 1, TAB(85) column 5.
    assert printed((tab(81), "X"), (tab(85), "Y"), (tab(160.6), "Z")) == "X\n    Y\nZ\n"


def test_number_that_does_not_fit_starts_a_new_line():
    # The number's text includes its trailing space: 73 + len(" 12345 ") = 80 fits.
    assert printed(("X" * 73, 12345.0)) == "X" * 73 + " 12345 \n"
    assert printed(("X" * 74, 12345.0)) == "X" * 74 + "\n 12345 \n"


def test_string_that_does_not_fit_starts_a_new_line():
    assert printed(("X" * 78, "AB")) == "X" * 78 + "AB\n"
    assert printed(("X" * 79, "AB")) == "X" * 79 + "\nAB\n"
    # Longer than the margin (impossible in Minimal BASIC): cut into lines of 80.
    assert printed(("Y", "X" * 170)) == "Y\n" + "X" * 80 + "\n" + "X" * 80 + "\n" + "X" * 10 + "\n"


def test_finish_ends_only_an_open_line():
    # P007.ok: the program dies after PRINT "...- "; and bas55 still ends the line.
    out = io.StringIO()
    console = Console(out)
    console.print("ABOUT TO ASSIGN", end="")
    console.finish()
    console.finish()
    assert out.getvalue() == "ABOUT TO ASSIGN\n"


def test_item_methods_print_like_print():
    out = io.StringIO()
    console = Console(out)
    console.write_string("A")
    console.next_zone()
    console.write_number(-1.5)
    console.tab(30)
    console.write_string("B")
    console.newline()
    assert out.getvalue() == "A" + " " * 15 + "-1.5 " + " " * 8 + "B\n"  # B in column 30
    assert console.column == 0


def test_print_rejects_what_is_not_an_item():
    console = Console(io.StringIO())
    with pytest.raises(TypeError):
        console.print(None)
    with pytest.raises(ValueError):
        console.print("A", end=";")


def test_numpy_scalars_print_as_numbers():
    np = pytest.importorskip("numpy")
    assert printed((np.float64(2.5), np.float32(0.5), np.int64(7))) == " 2.5  .5  7 \n"


def test_input_prompts_and_returns_values():
    out = io.StringIO()
    console = Console(out, io.StringIO("1.5, hello\n"))
    console.print("NAME", end="")
    assert console.input(None, [NUMBER, STRING]) == [1.5, "HELLO"]
    assert out.getvalue() == "NAME? "
    assert console.column == 0  # the reply's newline ended the terminal line


def test_input_with_prompt_text():
    out = io.StringIO()
    console = Console(out, io.StringIO("7\r\n"))
    assert console.input("HOW MANY", [NUMBER]) == [7.0]
    assert out.getvalue() == "HOW MANY? "


def test_input_asks_again_after_a_bad_reply(notices):
    # ECMA-55 13.5: an inconsistent reply is reported and asked for again (P112).
    out = io.StringIO()
    console = Console(out, io.StringIO("1\nX, 2\n1, 2\n"))
    assert console.input(None, [NUMBER, NUMBER]) == [1.0, 2.0]
    assert out.getvalue() == "? ? ? "
    assert [(n.severity, n.message) for n in notices] == [
        (ERROR, "insuficient input data"),
        (ERROR, "type mismatch for variable"),
    ]
    assert notices[0].bas55_text() == "error: insuficient input data "


def test_input_at_end_of_file_is_fatal():
    console = Console(io.StringIO(), io.StringIO(""))
    with pytest.raises(BasicFault, match="error on input stream"):
        console.input(None, [NUMBER])


def test_input_underflow_is_zero():
    # P111: numeric underflow on input is replaced by zero, without a message.
    console = Console(io.StringIO(), io.StringIO("1E-400\n"))
    assert console.input(None, [NUMBER]) == [0.0]


def test_infinite_values_print_p028():
    # P028 line 230, PRINT "VALUE SUPPLIED = ";A after A = 1/0 and after A = -1/0.
    assert printed(("VALUE SUPPLIED = ", math.inf), ("VALUE SUPPLIED = ", -math.inf)) == (
        "VALUE SUPPLIED =  INF \nVALUE SUPPLIED = -INF \n"
    )
