"""Dartmouth BASIC's CHANGE: a string to the codes of its characters and back.

Oracle: the Dartmouth BASIC manual (4th edition, 1968, "CHANGE") and DEC's BASIC-PLUS
manual, which keep the same layout: `CHANGE A$ TO A` sets A(0) to the length of A$ and
A(1), A(2)... to the codes of its characters; `CHANGE A TO A$` makes the string of A(0)
characters whose codes are A(1), A(2)...  (bwBASIC 2.20 has no CHANGE: it cannot serve.)
Codes are ASCII here; a count or a code outside 0..255 follows CHR$'s rule.

Every program runs through the interpreter and both generated programs (--check).
"""

from __future__ import annotations

import pytest

from tests.checking import TARGETS, basic2tile, interpreted_and_checked

ROUND_TRIP = """\
10 DIM A(20)
20 LET A$ = "HELLO"
30 CHANGE A$ TO A
40 PRINT A(0); A(1); A(5)
50 LET A(1) = 74
60 CHANGE A TO B$
70 PRINT B$
80 END
"""

# The classic use: shift the letters' codes (here to lower case) between two CHANGEs,
# in a loop the compiler runs as a GPU kernel: the kernel must see what CHANGE stored.
LOWER_CASE = """\
10 DIM A(40), B(40)
20 LET S$ = "THE QUICK BROWN FOX"
30 CHANGE S$ TO A
40 FOR I = 1 TO A(0)
50 LET B(I) = A(I)
60 IF A(I) < 65 THEN 80
70 LET B(I) = A(I) + 32
80 NEXT I
90 LET B(0) = A(0)
100 CHANGE B TO T$
110 PRINT T$; LEN(T$)
120 END
"""

# Without DIM an array has subscripts 0 to 10; an empty string is a count of 0.
IMPLICIT_AND_EMPTY = """\
10 LET W$ = "ABCDEFGHIJ"
20 CHANGE W$ TO C
30 PRINT C(0); C(10)
40 CHANGE "" TO C
50 PRINT C(0); C(1)
60 CHANGE C TO E$
70 PRINT "["; E$; "]"
80 END
"""


@pytest.mark.parametrize(
    "program, printed",
    [
        (ROUND_TRIP, " 5  72  79 \nJELLO\n"),
        (LOWER_CASE, "the quick brown fox 19 \n"),
        (IMPLICIT_AND_EMPTY, " 10  74 \n 0  65 \n[]\n"),
    ],
    ids=["round-trip", "kernel-between", "implicit-dim-and-empty"],
)
def test_change_converts_both_ways(tmp_path, program, printed):
    assert interpreted_and_checked(tmp_path, program, dialect=None) == printed


def test_change_under_dartmouth(tmp_path):
    assert interpreted_and_checked(tmp_path, ROUND_TRIP, dialect="dartmouth") == (
        " 5  72  79 \nJELLO\n"
    )


def test_the_loop_between_is_a_kernel(tmp_path):
    explained = basic2tile(tmp_path, LOWER_CASE, "--explain", dialect=None)
    assert "1 offloaded to GPU kernels" in explained.stdout


def test_a_loop_with_change_stays_on_the_host_and_says_why(tmp_path):
    program = '10 DIM A(9)\n20 FOR I = 1 TO 3\n30 CHANGE "AB" TO A\n40 NEXT I\n50 END\n'
    explained = basic2tile(tmp_path, program, "--explain", dialect=None)
    assert "CHANGE inside the loop runs on the host" in explained.stdout


@pytest.mark.parametrize(
    "program, message",
    [
        # eleven characters need A(11): beyond the implicit bounds
        ('10 LET W$ = "ABCDEFGHIJK"\n20 CHANGE W$ TO A\n30 END\n', "subscript out of range A(11)"),
        # a code of 300 is not a character (CHR$'s rule)
        (
            "10 DIM A(5)\n20 A(0) = 2\n30 A(1) = 65\n40 A(2) = 300\n50 CHANGE A TO B$\n60 END\n",
            "Illegal function call",
        ),
        # a negative count
        ("10 DIM A(5)\n20 A(0) = -1\n30 CHANGE A TO B$\n40 END\n", "Illegal function call"),
        # OPTION BASE 1: there is no A(0) to hold the length
        (
            '10 OPTION BASE 1\n20 DIM A(5)\n30 CHANGE "AB" TO A\n40 END\n',
            "subscript out of range A(0)",
        ),
    ],
    ids=["too-long", "bad-code", "negative-count", "no-element-0"],
)
def test_change_faults_alike_everywhere(tmp_path, program, message):
    done = basic2tile(tmp_path, program, "--interpret", dialect=None)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert "CHANGE" in done.stderr  # the located source line
    for target in TARGETS:
        check = basic2tile(
            tmp_path, program, "--check", "--device", "cpu", "--target", target, dialect=None
        )
        assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize(
    "program, message",
    [
        ("10 CHANGE 5 TO X$\n", "CHANGE converts a string to an array or back"),
        ("10 CHANGE A$ TO B$\n", "CHANGE converts a string to an array or back"),
        ('10 DIM A(3, 3)\n20 CHANGE "AB" TO A\n', "array A was dimensioned as a two-dimensional"),
        ("10 CHANGE A TO B\n", "string expression expected"),
    ],
    ids=["number-source", "two-strings", "matrix", "two-arrays"],
)
def test_change_misuse_is_a_located_error(tmp_path, program, message):
    done = basic2tile(tmp_path, program + "90 END\n", "--interpret", dialect=None)
    assert done.returncode == 1
    assert message.lower() in done.stderr.lower() and "^" in done.stderr, done.stderr


def test_change_is_not_minimal_basic_and_is_a_name_in_gw_basic(tmp_path):
    strict = basic2tile(tmp_path, '10 CHANGE "A" TO A\n20 END\n', "--interpret", dialect="ecma55")
    assert "CHANGE is not ECMA-55 Minimal BASIC" in strict.stderr
    # GW-BASIC does not reserve CHANGE (PC-BASIC's token list): a variable there
    named = basic2tile(tmp_path, "10 CHANGE = 5\n20 PRINT CHANGE\n", "--interpret", dialect="ms")
    assert named.stdout == " 5 \n"
