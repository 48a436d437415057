"""GW-BASIC's error behaviour under --dialect ms, second part (see test_ms_error_trapping.py
for the first): which line an error names (ERR and ERL when trapped, "... in 30" on the
screen when not), errors GW-BASIC finds only when a statement runs, the Overflow it shows
while loading a program, ELSE where no IF waits for it, and a batch of small trapping
programs in the style of a GW-BASIC behaviour suite (each prints ERR and ERL).

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py).  The texts below are what
it printed; the tests marked requires_pcbasic check them again where it is installed, so
the tests keep their teeth without it.  One case follows GW-BASIC's own source where
PC-BASIC differs (`FIRST_DATUM`).  Every program also runs through the generated cuTile
Python and CUDA C++ (`--check --device cpu`), which must agree with the interpreter
exactly, stderr included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from transpiler.runtime.gwerrors import MESSAGES, UNPRINTABLE

from tests.checking import basic2tile, checked_run
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic

# What we fixed: (name, program, what PC-BASIC printed).
# - a FOR whose NEXT names another variable: NEXT without FOR in the NEXT's line (the FOR
#   finds it when it runs); a FOR no NEXT closes: FOR without NEXT in the FOR's line;
# - WEND without WHILE, WHILE without WEND: when they run, and trapped;
# - ON ERROR GOTO / RESUME / RESTORE to a missing line: Undefined line number when they run (RESUME
#   leaves the handler first, so the error is trapped again);
# - a string DATA item READ into a number: Syntax error in the DATA line;
# - Undefined user function, Duplicate Definition: when the statement runs;
# - a `%` loop variable that overflows at the last NEXT: the NEXT's line (C++ named the
#   FOR's).
FIXED = [
    (
        "for_finds_next_of_another_variable",
        """\
5 ON ERROR GOTO 100
10 FOR I=1 TO 2: FOR J=1 TO 2
20 PRINT I;J
30 NEXT I
40 PRINT "END": END
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
        ("ERR 26 ERL 10 \nERR 1 ERL 30 \n 0  0 \nERR 1 ERL 30 \nEND\n"),
    ),
    (
        "for_then_next_of_another_variable",
        """\
5 ON ERROR GOTO 100
10 FOR I=1 TO 2
20 NEXT J
30 PRINT "END": END
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
        ("ERR 1 ERL 20 \nERR 1 ERL 20 \nEND\n"),
    ),
    (
        "next_with_two_variables",
        """\
5 ON ERROR GOTO 100
10 FOR I=1 TO 2: PRINT I
20 FOR J=1 TO 2: PRINT J
30 NEXT J, K
40 PRINT "END": END
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
        ("ERR 1 ERL 30 \n 0 \n 1 \n 2 \nERR 1 ERL 30 \nEND\n"),
    ),
    (
        "wend_without_while",
        """\
5 ON ERROR GOTO 100
10 PRINT "A"
20 WEND
30 PRINT "B": END
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
        ("A\nERR 30 ERL 20 \nB\n"),
    ),
    (
        "while_without_wend",
        """\
5 ON ERROR GOTO 100
10 X=1
20 WHILE X
30 PRINT "A"
40 X=0
100 PRINT "ERR";ERR;"ERL";ERL: END
""",
        "ERR 29 ERL 20 \n",
    ),
    (
        "on_error_goto_a_missing_line",
        """\
10 ON ERROR GOTO 100
20 ON ERROR GOTO 999
30 PRINT "END": END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 8  20 \nEND\n"),
    ),
    (
        "resume_to_a_missing_line",
        """\
10 ON ERROR GOTO 100
20 X = 1/0
30 PRINT "END": END
100 PRINT ERR; ERL: IF ERR = 8 THEN RESUME 30
110 RESUME 60
""",
        (" 11  20 \n 8  110 \nEND\n"),
    ),
    (
        "bad_datum_after_a_good_one",
        """\
10 ON ERROR GOTO 100
20 READ A, B
30 PRINT A; B
35 READ C: PRINT C
40 END
50 DATA 1, ABC
60 DATA 7X, 8
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
        ("ERR 2 ERL 50 \n 1  0 \nERR 2 ERL 50 \n 0 \n"),
    ),
    (
        "undefined_user_function",
        """\
10 ON ERROR GOTO 100
20 DEF FNA(X) = 1 / X
30 PRINT FNA(0)
40 PRINT FNB(1)
50 DIM A(5): DIM A(6)
70 END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 11  30 \n 18  40 \n 10  50 \n"),
    ),
    (
        "duplicate_definition",
        """\
10 ON ERROR GOTO 100
20 DIM A(5): DIM A(6)
30 PRINT "END": END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 10  20 \nEND\n"),
    ),
    (
        "restore_to_a_missing_line",
        """\
10 ON ERROR GOTO 100
20 RESTORE 999
30 PRINT "END": END
100 PRINT ERR; ERL: RESUME NEXT
""",
        " 8  20 \nEND\n",
    ),
    (
        "overflow_in_a_percent_loop",
        """\
5 ON ERROR GOTO 100
10 FOR I% = 32765 TO 32767
20 PRINT I%
30 NEXT I%
40 PRINT "END": END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
""",
        (" 32765 \n 32766 \n 32767 \nERR 6  30 \nEND\n"),
    ),
]

# GW-BASIC's load-time Overflow: each numeric constant beyond its range prints
# "Overflow" while the program is read, before anything runs; it then is the largest
# number of its type.
LOAD_OVERFLOW = (
    "constants_beyond_range",
    """\
10 X = 1E39 * 0: PRINT X; -1E39
30 PRINT 1D400
50 IF X THEN PRINT 1E40 ELSE PRINT 2E40
60 READ A: PRINT A
70 DATA 1E39
""",
    (
        "Overflow\n" * 5
        + " 0 -1.701412E+38 \n"
        + " 1.701411834604692D+38 \n"
        + " 1.701412E+38 \n"
        + "Overflow\n"  # READ's, when it runs
        + " 1.701412E+38 \n"
    ),
)

# ELSE that no IF of its line waits for runs as GW-BASIC's REM: the rest of the line is
# skipped (`:` before an IF's ELSE is the ELSE's own).
ELSES = (
    "stray_else",
    """\
10 X = 1: Y = 0
20 IF X THEN PRINT 1: ELSE PRINT 2
30 IF Y THEN PRINT 3: ELSE PRINT 4
40 ELSE PRINT 5
50 PRINT 6: ELSE PRINT 7
55 IF Y THEN PRINT 8 ELSE PRINT 9: ELSE PRINT 10
57 IF X THEN IF Y THEN PRINT 11 ELSE PRINT 12 ELSE PRINT 13
58 IF Y THEN IF X THEN PRINT 14 ELSE PRINT 15 ELSE PRINT 16
59 IF Y THEN PRINT 17: PRINT 18 ELSE PRINT 19: PRINT 20
60 PRINT "END"
""",
    " 1 \n 4 \n 6 \n 9 \n 12 \n 16 \n 19 \n 20 \nEND\n",
)

# A batch of trapping programs that already agreed with PC-BASIC (kept so they stay so):
# errors inside PRINT (its items before the error are printed), inside a GOSUB and a
# WHILE, errors in the handler itself (fatal), ERROR n of every kind, RESUME forms.
BATCH = [
    (
        "errors_inside_print",
        """\
10 ON ERROR GOTO 100
20 PRINT "A"; 1; SQR(-1); "B"
30 PRINT "C"; LOG(0); "D";
40 PRINT "E"
50 END
100 PRINT "<"; ERR; ERL; ">"
110 RESUME NEXT
""",
        ("A 1 < 5  20 >\nC< 5  30 >\nE\n"),
    ),
    (
        "error_n_in_a_subroutine",
        """\
10 ON ERROR GOTO 100
20 GOSUB 200
30 PRINT "BACK"; ERR; ERL
40 END
200 PRINT "IN SUB"
210 ERROR 57
220 PRINT "AFTER ERROR"
230 RETURN
100 PRINT "H"; ERR; ERL: RESUME NEXT
""",
        ("IN SUB\nH 57  210 \nAFTER ERROR\nBACK 0  210 \n"),
    ),
    (
        "unprintable_codes",
        """\
10 ON ERROR GOTO 100
20 ERROR 73
30 ERROR 254
40 ERROR 21
50 ERROR 28
60 ERROR 31
70 ERROR 49
80 END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 73  20 \n 254  30 \n 21  40 \n 28  50 \n 31  60 \n 49  70 \n"),
    ),
    (
        "error_of_an_expression_then_goto_0_in_handler",
        """\
10 ON ERROR GOTO 100
20 X = 5
30 ERROR X * 2
40 PRINT "END": END
100 PRINT ERR; ERL: ON ERROR GOTO 0
""",
        (" 10  30 \nDuplicate Definition in 30\n"),
    ),
    (
        "division_by_zero_in_the_handler",
        """\
10 ON ERROR GOTO 100
20 PRINT "START"
30 DIM A(5): A(10) = 1
40 PRINT "END": END
100 PRINT "HANDLER"; ERR; ERL
110 PRINT 1/0
120 RESUME NEXT
""",
        ("START\nHANDLER 9  30 \nDivision by zero in 110\n"),
    ),
    (
        "illegal_function_call_in_the_handler",
        """\
10 ON ERROR GOTO 100
20 PRINT "START"
30 X = SQR(-1)
40 PRINT "END": END
100 PRINT "HANDLER"; ERR; ERL
110 X = SQR(-4)
120 RESUME NEXT
""",
        ("START\nHANDLER 5  30 \nIllegal function call in 110\n"),
    ),
    (
        "resume_next_inside_a_for_loop",
        """\
10 ON ERROR GOTO 100
20 FOR I = 1 TO 3
30 PRINT I; 10 / (I - 2)
40 NEXT I
50 PRINT "DONE"
60 END
100 PRINT "ERR"; ERR; "LINE"; ERL; : RESUME NEXT
""",
        (" 1 -10 \n 2 ERR 11 LINE 30  3  10 \nDONE\n"),
    ),
    (
        "string_function_errors",
        """\
10 ON ERROR GOTO 100
20 A$ = STRING$(200, "X")
30 B$ = A$ + A$
40 PRINT LEN(B$)
50 PRINT MID$("ABC", 0, 1)
60 PRINT LEFT$("ABC", -1)
70 PRINT CHR$(256)
80 PRINT VAL("1E40")
90 END
100 PRINT "ERR"; ERR; "ERL"; ERL: RESUME NEXT
""",
        ("ERR 15 ERL 30 \n 0 \nERR 5 ERL 50 \nERR 5 ERL 60 \nERR 5 ERL 70 \nERR 6 ERL 80 \n"),
    ),
    (
        "overflows",
        """\
10 ON ERROR GOTO 100
20 X% = 32767
30 X% = X% + 1
40 PRINT X%
50 Y = 2 ^ 200
60 PRINT Y
70 Z = -1 ^ .5
80 PRINT Z
90 END
100 PRINT "ERR"; ERR; "ERL"; ERL: RESUME NEXT
""",
        ("ERR 6 ERL 30 \n 32767 \nERR 6 ERL 50 \n 0 \n-1 \n"),
    ),
    (
        "resume_line_after_goto",
        """\
10 ON ERROR GOTO 100
20 PRINT "A"
30 GOTO 60
40 PRINT "B"
50 END
60 ERROR 5
70 PRINT "C": END
100 PRINT ERR; ERL: RESUME 40
""",
        ("A\n 5  60 \nB\n"),
    ),
    (
        "read_string_and_numbers",
        """\
10 ON ERROR GOTO 100
20 READ A, B$, C
30 PRINT A; B$; C
40 RESTORE
50 READ A$, B$, C$: PRINT A$; B$; C$
60 READ D
70 END
80 DATA 1, HELLO, 3
100 PRINT "ERR"; ERR; "ERL"; ERL: RESUME NEXT
""",
        (" 1 HELLO 3 \n1HELLO3\nERR 4 ERL 60 \n"),
    ),
    (
        "the_last_on_error_goto_wins",
        """\
10 ON ERROR GOTO 1000
20 ON ERROR GOTO 2000
30 ERROR 12
40 END
1000 PRINT "ONE"; ERR: RESUME NEXT
2000 PRINT "TWO"; ERR: RESUME NEXT
""",
        "TWO 12 \n",
    ),
    (
        "retry_after_fixing",
        """\
10 ON ERROR GOTO 100
20 X = 1: Y = 0
30 Z = X / Y: PRINT "Z ="; Z
40 END
100 PRINT "ERR"; ERR; ERL
110 Y = 1
120 RESUME
""",
        ("ERR 11  30 \nZ = 1 \n"),
    ),
    (
        "error_n_inside_while",
        """\
10 ON ERROR GOTO 100
20 WHILE I < 3
30 I = I + 1
40 IF I = 2 THEN ERROR 250
50 PRINT I
60 WEND
70 END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
""",
        (" 1 \nERR 250  40 \n 2 \n 3 \n"),
    ),
    (
        "resume_without_error_trapped",
        """\
10 ON ERROR GOTO 100
20 PRINT "BEFORE"
30 RESUME NEXT
40 PRINT "AFTER"
50 END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
""",
        ("BEFORE\nRESUME without error in 30\n"),
    ),
    (
        "errors_in_one_line",
        """\
10 ON ERROR GOTO 100
20 ERROR 1: ERROR 2: ERROR 3
30 PRINT "X": ERROR 4: PRINT "Y"
40 END
100 PRINT ERR; ERL; : RESUME NEXT
""",
        (" 1  20  2  20  3  20 X\n 4  30 Y\n"),
    ),
    (
        "err_and_erl_before_and_after",
        """\
10 ON ERROR GOTO 100
20 PRINT ERR; ERL
30 ERROR 7
40 PRINT ERR; ERL
50 END
100 PRINT "IN"; ERR; ERL: RESUME NEXT
""",
        (" 0  0 \nIN 7  30 \n 0  30 \n"),
    ),
    (
        "return_without_gosub_after_return",
        """\
10 ON ERROR GOTO 100
20 GOSUB 50
30 PRINT "RET"
40 END
50 RETURN 
60 RETURN
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
""",
        "RET\n",
    ),
    (
        "file_errors",
        """\
10 ON ERROR GOTO 100
20 INPUT# 1, A
30 OPEN "NOFILE.TXT" FOR INPUT AS #1
40 CLOSE #5
50 PRINT #2, "X"
60 OPEN "O", #1, "T.TXT": OPEN "O", #1, "U.TXT"
70 CLOSE: KILL "T.TXT"
80 KILL "NOFILE.TXT"
90 END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 52  20 \n 53  30 \n 52  50 \n 55  60 \n 53  80 \n"),
    ),
    (
        "on_goto_out_of_range",
        """\
10 ON ERROR GOTO 100
20 ON 300 GOTO 50
30 ON -1 GOTO 50
40 PRINT "END": END
50 PRINT "FIFTY": END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 5  20 \n 5  30 \nEND\n"),
    ),
    (
        "next_in_an_else_branch",
        """\
10 ON ERROR GOTO 100
20 FOR I = 1 TO 3
30 IF I = 2 THEN 40 ELSE NEXT I
40 PRINT "I"; I
50 NEXT I
60 END
100 PRINT ERR; ERL: RESUME NEXT
""",
        ("I 2 \n 1  50 \n"),
    ),
    (
        "resume_line_out_of_a_subroutine",
        """\
10 ON ERROR GOTO 100
20 GOSUB 200
30 PRINT "BACK"
40 END
100 PRINT "H"; ERR; ERL: RESUME 30
200 PRINT "SUB"
210 X = 1/0
220 RETURN
""",
        ("SUB\nH 11  210 \nBACK\n"),
    ),
    (
        "retry_then_resume_next_from_an_if",
        """\
10 ON ERROR GOTO 100
20 X = 1
30 PRINT "X"; : ERROR 5 : PRINT "Y"
40 END
100 PRINT "[";ERR;"]";: IF X < 3 THEN X = X + 1: RESUME ELSE RESUME NEXT
""",
        "X[ 5 ][ 5 ][ 5 ]Y\n",
    ),
    (
        "handler_that_only_resumes",
        """\
10 ON ERROR GOTO 100
20 X = 1
30 END
100 RESUME NEXT
""",
        "",
    ),
    (
        "error_n_out_of_range",
        """\
10 ON ERROR GOTO 100
20 ERROR 300
30 ERROR 32768
40 ERROR -5
50 END
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 5  20 \n 6  30 \n 5  40 \n"),
    ),
    (
        "errors_between_print_items",
        """\
10 ON ERROR GOTO 100
20 PRINT "A", 1/0, "B"
30 PRINT USING "##.#"; 1/0; 2
40 END
100 PRINT "H"; ERR; ERL: RESUME NEXT
""",
        ("A             H 11  20 \nH 11  30 \n"),
    ),
]

# Programs that end with an untrapped error (the last line is GW-BASIC's message).
FATAL = [
    (
        "next_of_another_variable",
        """\
10 FOR I=1 TO 2
20 NEXT J
30 PRINT "END"
""",
        "NEXT without FOR in 20\n",
    ),
    (
        "lone_wend",
        """\
10 PRINT "A"
20 WEND
30 PRINT "B"
""",
        ("A\nWEND without WHILE in 20\n"),
    ),
    (
        "lone_while",
        """\
10 X=1
20 WHILE X
30 PRINT "A"
""",
        "WHILE without WEND in 20\n",
    ),
    (
        "handler_line_missing",
        """\
10 ON ERROR GOTO 900
20 PRINT "A"
30 X = 1/0
40 PRINT "B"
""",
        "Undefined line number in 10\n",
    ),
    (
        "bad_datum",
        """\
10 READ A, B
20 PRINT A; B
50 DATA 1, ABC
""",
        "Syntax error in 50\n",
    ),
    (
        "percent_loop_overflows",
        """\
10 FOR I% = 32765 TO 32767
20 PRINT I%
30 NEXT I%
40 PRINT "END"
""",
        (" 32765 \n 32766 \n 32767 \nOverflow in 30\n"),
    ),
    (
        "unprintable_error",
        """\
10 ERROR 21
""",
        "Unprintable error in 10\n",
    ),
    (
        "warnings_then_overflow",
        """\
10 PRINT "A";
20 PRINT 1/0;
30 PRINT "B"
40 X% = 40000
50 PRINT "C"
""",
        ("ADivision by zero\n 1.701412E+38 B\nOverflow in 40\n"),
    ),
    (
        "untrapped_error_mid_print",
        """\
10 PRINT "A", 
20 PRINT 1/0
30 PRINT "B"; LOG(-1)
""",
        ("A             Division by zero\n 1.701412E+38 \nB\nIllegal function call in 30\n"),
    ),
    (
        "error_in_handler",
        """\
10 ON ERROR GOTO 100
20 PRINT "START"
30 DIM A(5): A(10) = 1
40 PRINT "END": END
100 PRINT "HANDLER"; ERR; ERL
110 PRINT 1/0
120 RESUME NEXT
""",
        ("START\nHANDLER 9  30 \nDivision by zero in 110\n"),
    ),
    (
        "for_without_next",
        """\
10 FOR I=1 TO 2
20 PRINT I
""",
        "FOR without NEXT in 10\n",
    ),
]

# The first READ of a program whose first datum is not a number: GW-BASIC makes the DATA
# line current (its READ code: DATLIN into CURLIN, then the Syntax error), so the error
# names line 50, as it does for any later datum.  PC-BASIC names no line here (ERL 65535;
# its data pointer does not point into the program yet): not its output, GW-BASIC's.
FIRST_DATUM = (
    "first_datum_not_a_number",
    """\
10 ON ERROR GOTO 100
20 READ A
30 PRINT A
40 END
50 DATA ABC
100 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
""",
    "ERR 2 ERL 50 \n 0 \n",
)

CASES = FIXED + [LOAD_OVERFLOW, ELSES] + BATCH + FATAL
ORACLE_CASES = CASES  # every one but FIRST_DATUM


def _ids(cases) -> list[str]:
    return [case[0] for case in cases]


def _ends_with_an_error(screen: str) -> bool:
    last = screen.rstrip("\n").rsplit("\n", 1)[-1]
    messages = [*MESSAGES.values(), UNPRINTABLE]
    return any(last.startswith(f"{message} in ") for message in messages)


def gw_screen(folder: Path, program: str) -> str:
    """What the interpreter prints, after --check passed on both targets (their output
    and stderr agree with the interpreter's); the exit status is 1 exactly when the
    program ends with an error."""
    done = checked_run(folder, program)
    assert done.returncode == (1 if _ends_with_an_error(done.stdout) else 0), done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "name, program, output", CASES + [FIRST_DATUM], ids=_ids(CASES + [FIRST_DATUM])
)
def test_gw_basic_error_behaviour(tmp_path: Path, name, program, output):
    assert gw_screen(tmp_path, program) == output


@requires_pcbasic
@pytest.mark.parametrize("name, program, output", ORACLE_CASES, ids=_ids(ORACLE_CASES))
def test_outputs_are_pc_basics(name, program, output):
    assert pcbasic_output(program) == output


def test_a_fault_found_when_it_runs_is_a_warning_first(tmp_path: Path):
    """The compile-time warning says which statement stops the program, and why."""
    program = "10 ON ERROR GOTO 900\n20 WEND\n30 PRINT FNQ(1)\n40 DIM A(2): DIM A(3)\n"
    done = basic2tile(tmp_path, program, "--interpret")
    assert (done.returncode, done.stdout) == (1, "Undefined line number in 10\n")
    for words in (
        "warning: Undefined line number: jump to non-existing line 900",
        "warning: WEND without WHILE: no WHILE before it",
        "warning: Undefined user function: undefined function FNQ",
        "warning: Duplicate Definition: array A dimensioned twice (first at line 40)",
    ):
        assert words in done.stderr, done.stderr


def test_other_dialects_still_reject_them(tmp_path: Path):
    """Outside GW-BASIC (--dialect extended here) these stay compile-time errors."""
    for program, message in [
        ("10 ON ERROR GOTO 900\n", "ON ERROR GOTO is Microsoft BASIC"),
        ("10 WEND\n", "WEND without WHILE"),
        ("10 PRINT FNQ(1)\n", "undefined function FNQ"),
        ("10 DIM A(2): DIM A(3)\n", "array A dimensioned twice"),
        ("10 PRINT 6: ELSE PRINT 7\n", "unexpected ELSE"),
    ]:
        done = basic2tile(tmp_path, program, "--interpret", dialect="extended")
        assert done.returncode == 1 and message in done.stderr, done.stderr
