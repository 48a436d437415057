"""Syntax errors: messages, locations, recovery, and strict ECMA-55 rejections."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from transpiler.errors import BasicSyntaxError, CompileErrors, SourceFile
from transpiler.frontend.parser import parse
from transpiler.options import Options

from .conftest import ROOT


def errors(text: str, std: str = "extended") -> list[BasicSyntaxError]:
    with pytest.raises(CompileErrors) as info:
        parse(SourceFile("e.bas", text), Options(std=std))
    found = info.value.errors
    assert all(isinstance(e, BasicSyntaxError) for e in found)
    return found


def error(text: str, std: str = "extended") -> BasicSyntaxError:
    [only] = errors(text, std)
    return only


def at(err: BasicSyntaxError) -> tuple[int, int]:
    return (err.coord.line, err.coord.column)


def accepts(text: str, std: str = "extended") -> None:
    parse(SourceFile("ok.bas", text), Options(std=std))


# --------------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    "text, message, column",
    [
        ("10 LET A = 5 +", "expected expression, found end of line", 15),
        ("10 LET A = * 3", "expected expression, found '*'", 12),
        ("10 LET A = INT()", "expected expression, found ')'", 16),
        ("10 LET A = B(1,)", "expected expression, found ')'", 16),
        ("10 LET A = RND()", "expected expression, found ')'", 16),
        ("10 IF X = 1 PRINT X", "expected THEN, found PRINT", 13),
        ("10 IF X", "expected THEN, found end of line", 8),
        ("10 FOR I = 1 10", "expected TO, found number 10", 14),
        ("10 FOR I 1 TO 10", "expected '=', found number 1", 10),
        ("10 ON X 100, 200", "expected GOTO or GOSUB, found number 100", 9),
        ("10 LET A = (1 + 2", "missing ')'", 18),
        ("10 IF (X = 1 THEN 20", "missing ')'", 14),
        ("10 LET A = (1 + 2))", "unexpected ')'", 19),
        ("10 LET A = 5 ** 2", "'**' is not a BASIC operator: use '^' for powers", 14),
        ('10 PRINT "A""B"', "'\"\"' inside a string: BASIC strings cannot contain a quote", 12),
        ("10 GOTO X", "expected a line number, found name 'X'", 9),
        ("10 GOTO 1.5", "expected a line number, found '1.5'", 9),
        ("10 READ A,,B", "expected a variable name, found ','", 11),
        ("10 PRINT A THEN", "expected ',' or ';' between PRINT items, found THEN", 12),
        ("10 )", "expected a statement, found ')'", 4),
        ("10 PRINT 1 : = 2", "expected a statement, found '='", 14),
        ("10", "expected a statement after the line number", 3),
        ("10 DEF X = 1", "expected a function name (FN and a letter), found name 'X'", 8),
        ("10 OPTION BASE 2", "OPTION BASE must be 0 or 1", 16),
        ('10 DATA "A" B', "expected ',' between data items, found 'B'", 13),
        (
            "10 RETURN 30",
            "RETURN to a line number (Microsoft BASIC's RETURN n) is not supported: "
            "RETURN, then GOTO that line where the GOSUB returns",
            4,
        ),
        ("10 LET X = BID(3)", "the BID axis must be 0, 1 or 2", 16),
        ("10 MAT C = FOO(A)", "expected ZER, CON, IDN, TRN or INV, found 'FOO'", 12),
        ("10 DIM A(3) BY F16", "unexpected name 'BY'", 13),
        ("10 LET A = 1 @ 2", "unexpected character '@'", 14),
    ],
)
def test_error_message_and_location(text, message, column):
    err = error(text)
    assert err.message == message
    assert at(err) == (1, column)
    assert err.coord.file == "e.bas"


@pytest.mark.parametrize(
    "text, message, column",
    [
        ("10 DATA 1,,2", "expected a datum after ','", 11),
        ("10 DATA", "expected a datum after DATA", 8),
    ],
)
def test_empty_data_items_are_not_ecma55(text, message, column):
    # Microsoft BASIC reads them as "" or 0 (tests/test_ms_numbers.py, PC-BASIC).
    accepts(text + "\n")
    err = error(text, "ecma55")
    assert (err.message, at(err)) == (message, (1, column))


def test_print_items_without_separator_are_not_ecma55():
    # Microsoft BASIC prints them as if `;` separated them; ECMA-55 needs one.
    accepts('10 PRINT "X"N TAB(3)"Y"\n')
    err = error('10 PRINT "X"N\n', "ecma55")
    assert err.message == "expected ',' or ';' between PRINT items (ECMA-55)"
    assert at(err) == (1, 13)


def test_missing_parenthesis_notes_the_opening_one():
    err = error("10 LET A= 8+(7-(9-88)/3+(7-9)-3")
    assert err.message == "missing ')'"
    assert err.notes == ("the '(' it should close is at column 13",)


def test_end_of_line_error_points_after_the_last_character_before_a_comment():
    err = error("10 LET A = 1 +   ' add")
    assert at(err) == (1, 15)


def test_rendered_error_has_location_source_line_and_caret():
    source = SourceFile("r.bas", "10 PRINT 1\n20 LET A = 5 +\n")
    with pytest.raises(CompileErrors) as info:
        parse(source, Options())
    assert info.value.render(source).splitlines() == [
        "r.bas:2:15: error: expected expression, found end of line",
        "    20 LET A = 5 +",
        "                  ^",
    ]


# --------------------------------------------------------------------------- recovery


def test_every_bad_line_is_reported_and_good_lines_between_do_not_matter():
    found = errors(
        '10 PRINT 1\n20 LET A = (1\n30 PRINT 2\n40 IF A PRINT\n\n50 GOTO\n60 PRINT "OK"\n'
    )
    assert [(at(e), e.message) for e in found] == [
        ((2, 14), "missing ')'"),
        ((4, 9), "expected THEN, found PRINT"),
        ((6, 8), "expected a line number, found end of line"),
    ]


def test_one_syntax_error_per_line():
    found = errors("10 LET A = ) : LET B = ) : LET C = )\n20 X = ((\n")
    assert [at(e) for e in found] == [(1, 12), (2, 10)]


@pytest.mark.parametrize("std", ["extended", "ecma55"])
def test_duplicate_and_decreasing_line_numbers(std):
    found = errors("10 PRINT\n20 PRINT\n20 PRINT\n15 PRINT\n30 END\n", std)
    assert [(at(e), e.message) for e in found] == [
        ((3, 1), "duplicate line number 20 (also on line 2)"),
        ((4, 1), "line number 15 is out of order: it follows 20 (line 3)"),
    ]
    assert found[0].coord.length == 2


def test_line_numbers_have_at_most_nine_digits():
    # Every engine keeps a line number in a 32-bit int (generated C++ reported line
    # 1661992959 for 99999999999999999999).
    found = error("10 PRINT\n99999999999999999999 PRINT\n")
    assert (at(found), found.message) == (
        (2, 1),
        "line number 99999999999999999999 is too large (at most 999999999)",
    )
    assert found.coord.length == 20
    assert error("1000000000 END\n").message.startswith("line number 1000000000 is too large")
    accepts("0 PRINT\n999999999 END\n")
    accepts("0000000000001 END\n")


def test_order_is_checked_even_on_lines_with_syntax_errors():
    found = errors("20 PRINT\n10 PRINT )\n")
    assert [at(e) for e in found] == [(2, 1), (2, 10)]


def test_unnumbered_lines_do_not_take_part_in_the_order_check():
    accepts("20 PRINT\nPRINT\n30 PRINT\n")


# --------------------------------------------------------------------------- strict ECMA-55

STRICT_REJECTIONS = [
    # (program, message fragment, line, column)
    ("10 print", "lower-case letter 'p'", 1, 4),
    ('10 PRINT "abc"', "lower-case letter 'a'", 1, 11),
    ("10 PRINT " + "1" * 70, "longer than 72 characters", 1, 73),
    ("PRINT", "missing line number", 1, 1),
    (" 10 PRINT", "spaces before the line number", 1, 1),
    ("1 0 PRINT", "spaces inside the line number", 1, 1),
    ("10PRINT", "a space must follow the line number", 1, 3),
    ("0 PRINT", "1 to 9999", 1, 1),
    ("10000 PRINT", "1 to 9999", 1, 1),
    ("00010 PRINT", "1 to 9999", 1, 1),
    ("10 LETX=10", "'LETX' is not an ECMA-55 name", 1, 4),
    ("10 COUNT%=1", "'COUNT%' is not an ECMA-55 name", 1, 4),
    ("10 X=1", "an assignment without LET", 1, 4),
    ("10 PRINT ' note", "apostrophe comments", 1, 10),
    ("10 PRINT : PRINT", "more than one statement on a line", 1, 10),
    ("10 IF X = 1 THEN", "block IF", 1, 4),
    ("10 ELSE", "ELSE is not ECMA-55", 1, 4),
    ("10 ELSEIF X = 1 THEN", "ELSEIF", 1, 4),
    ("10 ENDIF", "ENDIF", 1, 4),
    ("10 END IF", "END IF", 1, 4),
    ("10 IF X = 1 THEN 20 ELSE 30", "ELSE", 1, 21),
    ("10 IF X = 1 THEN PRINT", "a statement after THEN", 1, 13),
    ("10 IF X = 1 GOTO 20", "IF ... GOTO", 1, 13),
    ("10 IF X THEN 20", "IF needs a comparison", 1, 7),
    ("10 LET A = B < C", "a comparison outside IF", 1, 12),
    ("10 WHILE X = 1", "WHILE", 1, 4),
    ("10 WEND", "WEND", 1, 4),
    ("10 LET A = B MOD 2", "MOD", 1, 14),
    ("10 IF A = 1 AND B = 2 THEN 30", "AND", 1, 13),
    ("10 IF A = 1 OR B = 2 THEN 30", "OR", 1, 13),
    ("10 IF NOT A = 1 THEN 30", "NOT", 1, 7),
    ("10 MAT C = A + B", "MAT", 1, 4),
    ("10 TILE A(128)", "TILE", 1, 4),
    ("10 OUTPUT C", "OUTPUT", 1, 4),
    ("10 LET C = BID", "BID", 1, 12),
    ("10 LET A = MMA(B, C, D)", "MMA", 1, 12),
    ("10 LET A = 4 ^ -2", "no sign after an operator", 1, 16),
    ("10 LET A = B * -C", "no sign after an operator", 1, 16),
    ("10 LET A = B - +C", "no sign after an operator", 1, 16),
    ("10 LET A = SIN(1, 2)", "too many arguments", 1, 19),
    ("10 LET A = FNA(1, 2)", "too many arguments", 1, 19),
    ("10 DEF FNA(X, Y) = X", "at most one parameter", 1, 15),
    ("10 DEF FNA(X$) = 1", "numeric variable expected", 1, 12),
    ("10 DIM A(N)", "not an integer constant", 1, 10),
    ('10 INPUT "N"; N', "an INPUT prompt", 1, 10),
    ("10 INPUT A()", "an array parameter", 1, 10),
    ("10 RESTORE 20", "RESTORE with a line number", 1, 12),
    ("10 ON X GOSUB 20", "ON ... GOSUB", 1, 9),
    ("10 NEXT", "NEXT without a variable", 1, 4),
    ("10 NEXT I, J", "NEXT with several variables", 1, 12),
    ("10 DIM A(3) AS F16", "'F16' is not an ECMA-55 name", 1, 16),
    ("10 DATA ABC, D?F", "'?' is not allowed in an unquoted datum", 1, 15),
    ("10 DATA 1 : 2", "':' is not allowed in an unquoted datum", 1, 11),
    ('10 PRINT "{"', "character '{' is not in the ECMA-55 character set", 1, 11),
]


@pytest.mark.parametrize("text, fragment, line, column", STRICT_REJECTIONS)
def test_strict_mode_rejects_with_a_located_error(text, fragment, line, column):
    found = errors(text + "\n", "ecma55")
    assert [(at(e), fragment in e.message) for e in found] == [((line, column), True)], [
        str(e) for e in found
    ]


# `LETX` is a name, so `=10` follows it; in extended mode DATA ends at the colon.
ALSO_EXTENDED_ERRORS = {"10 LETX=10", "10 DATA 1 : 2"}


@pytest.mark.parametrize(
    "text", [t for t, *_ in STRICT_REJECTIONS if t not in ALSO_EXTENDED_ERRORS]
)
def test_extended_mode_accepts_what_strict_mode_rejects(text):
    accepts(text + "\n")


def test_strict_remarks_may_hold_anything():
    accepts("10 REM lower case, {braces} and ' quotes\n20 REMARK TOO\n", "ecma55")


def test_strict_mode_reports_several_findings_of_one_line():
    found = errors(" 10 X=1\n", "ecma55")
    assert [at(e) for e in found] == [(1, 1), (1, 5)]


# --------------------------------------------------------------------------- command line


def test_cli_reports_syntax_errors_with_caret_and_exit_status_1(tmp_path):
    program = tmp_path / "bad.bas"
    program.write_text("10 PRINT 1\n20 LET A = 5 +\n30 IF X PRINT\n40 END\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BASIC2TILE_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-m", "transpiler", str(program), "--interpret"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[:3] == [
        f"{program}:2:15: error: expected expression, found end of line",
        "    20 LET A = 5 +",
        "                  ^",
    ]
    assert lines[3:] == [
        f"{program}:3:9: error: expected THEN, found PRINT",
        "    30 IF X PRINT",
        "            ^^^^^",
    ]


def test_an_open_string_is_an_error_only_in_ecma55():
    """Microsoft BASIC ends a string left open at the end of the line (PC-BASIC prints
    `PRINT "Q` as Q); ECMA-55 does not."""
    assert [e.message for e in errors('10 PRINT "ABC\n20 END\n', "ecma55")] == [
        "unterminated string"
    ]
    parse(SourceFile("e.bas", '10 PRINT "ABC\n'), Options(std="extended"))


def test_gw_basic_s_brackets_and_relations_are_not_ecma55():
    found = errors("10 IF A => B[1] THEN 20\n20 END\n", "ecma55")
    assert [(e.coord.column, e.message) for e in found] == [
        (9, "'=>' is not ECMA-55 (write '>=')"),
        (13, "'[' is not ECMA-55 (write '(' and ')')"),
        (15, "']' is not ECMA-55 (write '(' and ')')"),
    ]
