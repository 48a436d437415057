"""Microsoft BASIC where the dialect's parts meet: numbers of --dialect ms (singles and
doubles) in PRINT USING, WRITE, files and string functions; RND in loops; the FOR stack.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) runs each program when it
is installed; the texts below are what it printed (checked the same way), so the tests
keep their teeth without it.  Every program also runs through the generated cuTile
Python and CUDA C++ (on the CPU) in a scratch folder, which must agree with the
interpreter exactly.
"""

from __future__ import annotations

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, interpreted_and_checked

# PRINT USING, WRITE and PRINT # of a double have its 16 digits and `D`; a single 7.
DOUBLES = """\
10 A# = 1/3#: B = .625: C% = 7
20 PRINT USING "#.#########"; A#; B; C%
30 PRINT USING "##.##^^^^"; A#; B
40 WRITE A#, B, C%, 12345678#
50 OPEN "T.TXT" FOR OUTPUT AS #1
60 WRITE #1, A#, B: PRINT #1, USING "#.##########"; A#; B: PRINT #1, A#; B
70 CLOSE #1
80 OPEN "T.TXT" FOR INPUT AS #1
90 WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT L$: WEND
100 CLOSE #1: KILL "T.TXT"
"""
DOUBLES_OUTPUT = """\
0.3333333330.6250000007.000000000
 3.33D-01 6.25E-01
.3333333333333333,.625,7,12345678
.3333333333333333,.625
0.33333333330.6250000000
 .3333333333333333  .625 
"""


@pytest.mark.parametrize("precision", [(), ("--precision", "f64")], ids=["f32", "f64"])
def test_print_using_and_write_give_doubles_their_digits(tmp_path, precision):
    """A single prints 7 digits in PRINT USING even when computed in double (--precision
    f64); a double 16, with `D` in E format (was: every number formatted as a single)."""
    assert interpreted_and_checked(tmp_path, DOUBLES, *precision) == DOUBLES_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_doubles_as_gw_basic_prints_them(tmp_path):
    assert pcbasic_oracle.run(DOUBLES, folder=tmp_path) == DOUBLES_OUTPUT


# STR$ of a single has 7 digits, of a double 16 (was: 7); TAB(-1) is TAB(65535).
STRINGS = """\
10 A = 1/3: B# = 1/3#: C% = 7
20 PRINT STR$(A); STR$(B#); STR$(C%); STR$(2^31); STR$(-1.5E-10)
30 X$ = STR$(A) + "|": PRINT X$; LEFT$(STR$(B#), 6); LEN(STR$(B#))
40 PRINT HEX$(255.5); OCT$(-1); CHR$(65.6)
50 PRINT "A"; TAB(-1); "T"; SPC(3); "S"
"""
STRINGS_OUTPUT = """\
 .3333334 .3333333333333333 7 2.147484E+09-1.5E-10
 .3333334| .3333 18 
100177777B
A             T   S
"""

# RND is GW-BASIC's generator: the loops that draw stay on the host, the numeric ones are
# offloaded, and every engine prints PC-BASIC's numbers.
RANDOM_LOOPS = """\
10 DIM A(1000), B(1000)
20 RANDOMIZE 7
30 FOR I = 1 TO 1000: A(I) = RND(1) * 10: NEXT I
40 FOR I = 1 TO 1000: B(I) = A(I) * 2 + 1: NEXT I
50 FOR I = 1 TO 1000: B(I) = B(I) + RND: NEXT I
60 S = 0: FOR I = 1 TO 1000: S = S + B(I): NEXT I
70 PRINT S; RND(0); A(5); B(7)
"""
RANDOM_LOOPS_OUTPUT = " 11586.74  .1930903  9.731121  12.18428 \n"

# Loops of strings on the run-time FOR stack: a FOR reopened, zero trips (start + step),
# NEXT J, I and NEXT in an IF branch.
STRING_LOOPS = """\
10 FOR L = 10 TO 1: W$ = "NEVER": NEXT L: PRINT W$; L
20 FOR I = 1 TO 2: FOR J = 1 TO 2: P$ = P$ + STR$(I * J / 3): NEXT J, I: PRINT P$
30 FOR I = 1 TO 3: Q$ = Q$ + "*": IF I < 3 THEN NEXT
40 PRINT Q$; I; STR$(1# / 3)
"""
STRING_LOOPS_OUTPUT = """\
 11 
 .3333334 .6666667 .6666667 1.333333
*** 3  .3333333333333333
"""

PROGRAMS = {
    "strings": (STRINGS, STRINGS_OUTPUT),
    "random_loops": (RANDOM_LOOPS, RANDOM_LOOPS_OUTPUT),
    "string_loops": (STRING_LOOPS, STRING_LOOPS_OUTPUT),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_print_what_gw_basic_printed(tmp_path, name):
    text, expected = PROGRAMS[name]
    assert interpreted_and_checked(tmp_path, text) == expected


def test_random_draws_stay_on_the_host_and_numeric_loops_are_offloaded(tmp_path):
    explained = basic2tile(tmp_path, RANDOM_LOOPS, "--explain").stdout
    assert explained.count("RND inside the loop: its sequence is sequential") == 2
    assert "GPU kernel map_40" in explained and "GPU kernel reduce_60" in explained


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_as_gw_basic_prints_them(tmp_path, name):
    text, expected = PROGRAMS[name]
    assert pcbasic_oracle.run(text, folder=tmp_path) == expected


# MOD binds less tightly than * and / in GW-BASIC (PC-BASIC prints 1 2 -1), as tightly in
# the other dialects (3 2 -1).  A program pinned to ms by a later line is read as ms.
MOD_PRECEDENCE = "10 PRINT 7 MOD 2 * 3; 2 * 7 MOD 4; -7 MOD 3\n"


@pytest.mark.parametrize(
    "text, dialect, expected",
    [
        (MOD_PRECEDENCE, "ms", " 1  2 -1 \n"),
        (MOD_PRECEDENCE, "extended", " 3  2 -1 \n"),
        (MOD_PRECEDENCE + "20 PRINT 7 \\ 2\n", None, " 1  2 -1 \n 3 \n"),  # `\` pins ms
    ],
    ids=["ms", "extended", "pinned"],
)
def test_mod_binds_as_the_dialect_says(tmp_path, text, dialect, expected):
    """Was: MOD below * and / in every dialect (GW-BASIC's precedence), which changed
    what extended BASIC and kernel programs compute."""
    assert interpreted_and_checked(tmp_path, text, dialect=dialect) == expected


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_mod_binds_as_gw_basic_binds_it():
    assert pcbasic_oracle.run(MOD_PRECEDENCE) == " 1  2 -1 \n"


def test_a_misplaced_mod_is_named_as_written(tmp_path):
    done = basic2tile(tmp_path, "10 PRINT MOD 3\n", "--interpret", dialect=None)
    assert "error: expected expression, found MOD" in done.stderr
    assert "MOD_TIMES" not in done.stderr
