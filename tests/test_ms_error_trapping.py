"""GW-BASIC's error trapping under --dialect ms: ON ERROR GOTO, RESUME (retry), RESUME
NEXT, RESUME n, ERR, ERL and ERROR n, in the interpreter and both generated targets.

The programs follow GW-BASIC 3.23's manual (the ON ERROR GOTO, RESUME, ERR and ERL, and
ERROR statements; appendix A for the error numbers): an error after ON ERROR GOTO n jumps
to line n with ERR its number and ERL its line, Division by zero and Overflow included
(they only print a message when nothing traps them); RESUME runs the failed statement
again, RESUME NEXT the one after it (inside a line, a FOR loop, a subroutine), RESUME n
goes to line n, and each sets ERR back to 0; an error inside the handler is fatal, and
ON ERROR GOTO 0 there makes the error being handled fatal at once; a program that runs
past its end inside the handler stops with No RESUME; ERROR n raises error n (200: a
number of the program's own; 99: one GW-BASIC has no message for).

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py).  The texts below are
what it printed (the test marked requires_pcbasic checks them again where it is
installed), so the tests keep their teeth without it.  Every program also runs through
the generated cuTile Python and CUDA C++ (`--check --device cpu`), which must agree with
the interpreter exactly, stderr included.

An untrapped error shows as on GW-BASIC's screen, on stdout ("Out of DATA in 20", at the
start of a line), and as the located message on stderr; FATAL holds PC-BASIC's screen
without that last line, which `_screen` adds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from transpiler.runtime.gwerrors import gw_code, gw_message

from tests.checking import basic2tile, checked_run, interpreted_and_checked
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic
from transpiler.runtime import BasicFault

# Programs that end normally: (name, program, what PC-BASIC printed).
TRAPPED = [
    (
        "mid_line",
        """\
10 ON ERROR GOTO 1000
20 PRINT "A";: X = SQR(-1): PRINT "B";: Y = 1 / 0: PRINT "C"
30 PRINT "X ="; X; "Y ="; Y
40 END
1000 PRINT "[";ERR;ERL;"]";: RESUME NEXT
""",
        ("A[ 5  20 ]B[ 11  20 ]C\nX = 0 Y = 0 \n"),
    ),
    (
        "for_loop",
        """\
10 ON ERROR GOTO 100
20 DIM A(5)
30 FOR I = 1 TO 8
40   A(I) = I * I: PRINT I; A(I)
50 NEXT I
60 PRINT "DONE"; I
70 END
100 PRINT "ERR"; ERR; "AT"; ERL; "I ="; I
110 RESUME NEXT
""",
        (
            " 1  1 \n"
            " 2  4 \n"
            " 3  9 \n"
            " 4  16 \n"
            " 5  25 \n"
            "ERR 9 AT 40 I = 6 \n"
            " 6 ERR 9 AT 40 I = 6 \n"
            "ERR 9 AT 40 I = 7 \n"
            " 7 ERR 9 AT 40 I = 7 \n"
            "ERR 9 AT 40 I = 8 \n"
            " 8 ERR 9 AT 40 I = 8 \n"
            "DONE 9 \n"
        ),
    ),
    (
        "gosub",
        """\
10 ON ERROR GOTO 500
20 FOR K = 1 TO 3
30   GOSUB 200
40   PRINT "BACK"; K
50 NEXT K
60 END
200 PRINT "SUB"; K;: R = LOG(K - 2): PRINT "R ="; R
210 RETURN
500 PRINT "(ERR"; ERR; "ERL"; ERL; ")";
510 RESUME NEXT
""",
        (
            "SUB 1 (ERR 5 ERL 200 )R = 0 \n"
            "BACK 1 \n"
            "SUB 2 (ERR 5 ERL 200 )R = 0 \n"
            "BACK 2 \n"
            "SUB 3 R = 0 \n"
            "BACK 3 \n"
        ),
    ),
    (
        "retry",
        """\
10 ON ERROR GOTO 100
20 D = 0: N = 0
30 Q = 10 / D
40 PRINT "Q ="; Q; "AFTER"; N; "FIXES"
50 END
100 N = N + 1: PRINT "FIXING"; ERR; ERL
110 D = D + 2
120 RESUME
""",
        ("FIXING 11  30 \nQ = 5 AFTER 1 FIXES\n"),
    ),
    (
        "resume_line",
        """\
10 ON ERROR GOTO 100
20 READ A, B
30 PRINT A; B
40 GOTO 20
50 PRINT "NO MORE DATA; ERR IS NOW"; ERR; "ERL STILL"; ERL
60 END
70 DATA 1, 2, 3, 4, 5
100 IF ERR = 4 THEN RESUME 50
110 PRINT "UNEXPECTED": END
""",
        (" 1  2 \n 3  4 \nNO MORE DATA; ERR IS NOW 0 ERL STILL 20 \n"),
    ),
    (
        "error_n",
        """\
10 ON ERROR GOTO 100
20 ERROR 200
30 ERROR 53
40 INPUT# 1, X
50 ERROR 0
60 E = 11: ERROR E
70 PRINT "END"
80 END
100 PRINT ERR; ERL;
110 IF ERR = 200 THEN PRINT "MY OWN ERROR" ELSE PRINT "STANDARD"
120 RESUME NEXT
""",
        (
            " 200  20 MY OWN ERROR\n"
            " 53  30 STANDARD\n"
            " 52  40 STANDARD\n"
            " 5  50 STANDARD\n"
            " 11  60 STANDARD\n"
            "END\n"
        ),
    ),
    (
        "goto_erl",
        """\
10 ON ERROR GOTO 900
20 GOTO 300
30 PRINT "BACK AT 30": END
300 X = 5
310 Y = X / (X - 5): PRINT "NOT HERE"
320 PRINT "NOR HERE"
900 PRINT "ERROR"; ERR; "IN LINE"; ERL
910 RESUME 30
""",
        ("ERROR 11 IN LINE 310 \nBACK AT 30\n"),
    ),
    (
        "end_in_handler",
        """\
10 ON ERROR GOTO 100
20 READ X
30 PRINT "NOT REACHED"
40 END
100 PRINT "OUT OF DATA IS"; ERR; "AT"; ERL: END
""",
        "OUT OF DATA IS 4 AT 20 \n",
    ),
    (
        "kinds",
        """\
10 ON ERROR GOTO 1000
20 DIM A(3)
30 READ X
40 A(4) = 1
50 RETURN
60 X = SQR(-1)
70 S$ = CHR$(300)
80 X = 1 / 0
90 X = 10 ^ 39
100 Y% = 40000
110 OPEN "NOSUCH.DAT" FOR INPUT AS #1
120 S$ = STRING$(300, "A")
130 X = ASC("")
140 NEXT J
150 A$ = "X": B = 1: A$ = B
160 PRINT "END"
170 END
1000 PRINT ERL; ERR
1010 RESUME NEXT
""",
        (
            " 30  4 \n"
            " 40  9 \n"
            " 50  3 \n"
            " 60  5 \n"
            " 70  5 \n"
            " 80  11 \n"
            " 90  6 \n"
            " 100  6 \n"
            " 110  53 \n"
            " 120  5 \n"
            " 130  5 \n"
            " 140  1 \n"
            " 150  13 \n"
            "END\n"
        ),
    ),
    (
        "while_loop",
        """\
10 ON ERROR GOTO 100
20 I = 0
30 WHILE I < 4
40   I = I + 1: PRINT 12 / (I - 2);
50 WEND
60 PRINT: PRINT "I ="; I
70 END
100 PRINT "DIV"; ERR;: RESUME NEXT
""",
        ("-12 DIV 11  12  6 \nI = 4 \n"),
    ),
    (
        # a DEF FN, a WHILE inside a FOR, IF ... ELSE GOSUB, ON GOSUB; the handler
        # prints on the same line, between the items of a PRINT
        "nested",
        """\
10 ON ERROR GOTO 900
20 DEF FNA(X) = SQR(X)
30 FOR I = -1 TO 1
40   J = 0
50   WHILE J < 2
60     J = J + 1: PRINT FNA(I * J);
70   WEND
80 NEXT I
85 IF I > 0 THEN GOSUB 500 ELSE PRINT "NEG"
87 ON I GOSUB 500, 500
90 PRINT: END
500 PRINT "G"; 1/0: RETURN
900 PRINT "E"; ERR; ERL;: RESUME NEXT
""",
        "E 5  60 E 5  60  0  0  1  1.414213 GE 11  500 GE 11  500 \n",
    ),
]

# Programs that end with an untrapped error: (name, program, what PC-BASIC printed
# before its error line, GW-BASIC's message, the line PC-BASIC names).
FATAL = [
    (
        "off_in_handler",
        """\
10 ON ERROR GOTO 100
20 PRINT "START"
30 DIM A(3): A(7) = 1
40 PRINT "NOT REACHED"
50 END
100 PRINT "HANDLER SEES"; ERR
110 ON ERROR GOTO 0
120 PRINT "NOT REACHED EITHER"
""",
        ("START\nHANDLER SEES 9 \n"),
        "Subscript out of range",
        30,
    ),
    (
        "off_outside",
        """\
10 ON ERROR GOTO 100
20 X = SQR(-4)
30 ON ERROR GOTO 0
40 PRINT "NOW UNTRAPPED"
50 RETURN
60 END
100 PRINT "TRAPPED"; ERR; ERL: RESUME NEXT
""",
        ("TRAPPED 5  20 \nNOW UNTRAPPED\n"),
        "RETURN without GOSUB",
        50,
    ),
    (
        "error_in_handler",
        """\
10 ON ERROR GOTO 100
20 PRINT "A"
30 X = LOG(0)
40 PRINT "NOT REACHED"
50 END
100 PRINT "IN HANDLER"; ERR
110 Y = 1 / 0
120 PRINT "Y ="; Y
130 READ Z
140 RESUME NEXT
""",
        ("A\nIN HANDLER 5 \n"),
        "Division by zero",
        110,
    ),
    (
        "no_resume",
        """\
10 ON ERROR GOTO 100
20 X = CHR$(300) = ""
30 END
100 PRINT "ERR"; ERR; "ERL"; ERL
""",
        "ERR 5 ERL 20 \n",
        "No RESUME",
        100,
    ),
    (
        "resume_without_error",
        """\
10 PRINT "A";
20 RESUME NEXT
""",
        "A",
        "RESUME without error",
        20,
    ),
    (
        "unprintable",
        """\
10 ON ERROR GOTO 100
20 ERROR 99
30 PRINT "GOES ON"
40 ON ERROR GOTO 0
50 ERROR 99
100 PRINT ERR; ERL: RESUME NEXT
""",
        (" 99  20 \nGOES ON\n"),
        "Unprintable error",
        50,
    ),
]


def _ids(cases) -> list[str]:
    return [case[0] for case in cases]


@pytest.mark.parametrize("name, program, output", TRAPPED, ids=_ids(TRAPPED))
def test_trapped_errors_go_on_as_gw_basic(tmp_path: Path, name, program, output):
    assert interpreted_and_checked(tmp_path, program) == output


@pytest.mark.parametrize("name, program, output, message, line", FATAL, ids=_ids(FATAL))
def test_untrapped_errors_stop_where_gw_basic_stops(
    tmp_path: Path, name, program, output, message, line
):
    done = checked_run(tmp_path, program)
    assert done.returncode == 1
    assert done.stdout == _screen(output, message, line)  # GW-BASIC's screen
    # the located error names the statement's source line
    assert "error: " in done.stderr and f"\n    {line} " in done.stderr, done.stderr


def _ended(output: str) -> str:
    return output + "\n" if output and not output.endswith("\n") else output


def _screen(output: str, message: str, line: int) -> str:
    """What GW-BASIC shows: the output, then the error line at the start of a line."""
    return f"{_ended(output)}{message} in {line}\n"


@requires_pcbasic
@pytest.mark.parametrize("name, program, output", TRAPPED, ids=_ids(TRAPPED))
def test_trapped_outputs_are_pc_basics(name, program, output):
    assert pcbasic_output(program) == output


@requires_pcbasic
@pytest.mark.parametrize("name, program, output, message, line", FATAL, ids=_ids(FATAL))
def test_fatal_outputs_are_pc_basics(name, program, output, message, line):
    assert pcbasic_output(program).replace("\xff", "") == _screen(output, message, line)


@pytest.mark.parametrize(
    "what, code",
    [
        ("insufficient data for READ", 4),  # bas55's words for Out of DATA
        ("subscript out of range", 9),
        ("RETURN without GOSUB", 3),
        ("Illegal function call", 5),
        ("Division by zero", 11),
        ("Overflow", 6),
        ("Type mismatch", 13),
        ("File not found", 53),
        ("Input past end", 62),
        ("NEXT without FOR", 1),
        ("step limit exceeded", None),  # --max-steps: no GW-BASIC error, never trapped
    ],
)
def test_faults_carry_gw_basic_numbers(what, code):
    assert BasicFault(what).code == code == gw_code(what)


def test_gw_basic_messages():
    assert gw_message(4) == "Out of DATA"
    assert gw_message(53) == "File not found"
    assert gw_message(200) == "Unprintable error"


def test_loops_of_a_trapping_program_stay_on_the_host(tmp_path: Path):
    """A RESUME may go on inside any loop, at any iteration: the loop is not a kernel
    (without the ON ERROR GOTO the same loop is one), and --explain says why."""
    program = (
        "10 ON ERROR GOTO 100\n20 DIM A(1000)\n30 FOR I = 1 TO 1000: A(I) = I * 2: NEXT I\n"
        "40 PRINT A(1000)\n50 END\n100 PRINT ERR: RESUME NEXT\n"
    )
    explained = basic2tile(tmp_path, program, "--explain")
    assert "-> host: runs on the run-time FOR stack: the program traps errors" in explained.stdout
    plain = basic2tile(tmp_path, program.replace("ON ERROR GOTO 100", "REM"), "--explain")
    assert "GPU kernel" in plain.stdout
    assert interpreted_and_checked(tmp_path, program) == " 2000 \n"


def test_trapping_is_microsoft_basic(tmp_path: Path):
    done = basic2tile(tmp_path, "10 ON ERROR GOTO 20\n20 END\n", "--interpret", dialect="extended")
    assert done.returncode == 1
    assert "ON ERROR GOTO is Microsoft BASIC, not extended BASIC" in done.stderr
    pinned = basic2tile(tmp_path, "10 ON ERROR GOTO 20\n20 END\n", "--interpret", dialect=None)
    assert pinned.returncode == 0 and "assuming --dialect ms" in pinned.stderr


def test_a_missing_handler_line_is_an_error_when_it_runs(tmp_path: Path):
    """GW-BASIC (PC-BASIC): ON ERROR GOTO a missing line is "Undefined line number" when
    the statement runs; the compiler warns first (test_ms_trap_more.py has more)."""
    done = basic2tile(tmp_path, "10 ON ERROR GOTO 50\n20 RESUME 60\n", "--interpret")
    assert (done.returncode, done.stdout) == (1, "Undefined line number in 10\n")
    assert "warning: Undefined line number: jump to non-existing line 50" in done.stderr
    assert "warning: Undefined line number: jump to non-existing line 60" in done.stderr
    other = basic2tile(tmp_path, "10 ON ERROR GOTO 50\n", "--interpret", dialect="qbasic")
    assert other.returncode == 1 and "error: jump to non-existing line 50" in other.stderr


def test_on_error_goto_0_without_a_trap_does_nothing(tmp_path: Path):
    program = '10 ON ERROR GOTO 0\n20 PRINT "A";\n30 ERROR 4\n40 PRINT "B"\n'
    done = checked_run(tmp_path, program)
    assert (done.returncode, done.stdout) == (1, "A\nOut of DATA in 30\n")
    assert "error: Out of DATA" in done.stderr


@pytest.mark.parametrize(
    "program, screen",
    [
        # PC-BASIC: the line being printed ends first
        ('10 PRINT "A";\n20 READ X\n', "A\nOut of DATA in 20\n"),
        ('10 PRINT "A"\n20 READ X\n', "A\nOut of DATA in 20\n"),
        ("10 X = SQR(-1)\n", "Illegal function call in 10\n"),
        ('10 PRINT "ABC";\n20 NEXT I\n', "ABC\nNEXT without FOR in 20\n"),
        ("10 RETURN\n", "RETURN without GOSUB in 10\n"),
    ],
)
def test_an_untrapped_error_shows_on_the_screen(tmp_path: Path, program, screen):
    """GW-BASIC's screen is the program's output: an error that ends the program shows
    there, and the located message goes to stderr as before (exit status 1)."""
    done = checked_run(tmp_path, program)
    assert (done.returncode, done.stdout) == (1, screen)
    assert ": error: " in done.stderr


def test_read_without_data_in_generated_programs(tmp_path: Path):
    """A READ in a program with no DATA statement: out of data at once (the generated
    programs used to name a DATA list they did not define)."""
    program = '10 ON ERROR GOTO 100\n20 READ X\n30 END\n100 PRINT "NO DATA"; ERR: RESUME NEXT\n'
    assert interpreted_and_checked(tmp_path, program) == "NO DATA 4 \n"
