"""QuickBASIC / QBasic (--dialect qbasic): its structured statements, written as QBasic
users wrote them (indented, no line numbers, mixed case).

There is no QuickBASIC interpreter here: the expected outputs are reasoned from
Microsoft's documentation (QuickBASIC 4.5 / QBasic 1.1 language reference: DO...LOOP
tests before or after each iteration, EXIT DO / EXIT FOR go on after the LOOP / NEXT;
numbers print as GW-BASIC prints them).  Where GW-BASIC can say the same thing (WHILE,
GOTO), the equivalent GW-BASIC program ran through PC-BASIC 2.0.8 (tests/pcbasic_oracle.py)
and printed the same text; that program is here too, and runs when PC-BASIC is installed.
Every program runs through the interpreter and both generated targets (cuTile Python and
CUDA C++ on the CPU), which must agree exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, interpreted_and_checked, refused

# Every form of DO ... LOOP, EXIT DO and EXIT FOR.
DO_FORMS = """\
' DO loops in all their forms
i = 0
DO WHILE i < 3
    PRINT "while"; i
    i = i + 1
LOOP
DO UNTIL i = 0
    i = i - 1
LOOP
PRINT "after until"; i
n = 10
DO
    n = n - 3
LOOP WHILE n > 0
PRINT "bottom while"; n
k = 1
Do
    k = k * 2
Loop Until k > 100
print "bottom until"; k
count = 0
DO
    count = count + 1
    IF count >= 5 THEN EXIT DO
LOOP
PRINT "endless"; count
FOR j = 1 TO 10
    IF j * j > 20 THEN EXIT FOR
NEXT j
PRINT "exit for"; j
x = 5
DO UNTIL x
  PRINT "never"
LOOP
DO WHILE x
  x = x - 2.5
LOOP
PRINT "x"; x
END
"""
# The same program in GW-BASIC (PC-BASIC printed DO_FORMS_OUTPUT for it).
DO_FORMS_GWBASIC = """\
10 I = 0
20 WHILE I < 3
30 PRINT "while"; I
40 I = I + 1
50 WEND
60 WHILE NOT (I = 0)
70 I = I - 1
80 WEND
90 PRINT "after until"; I
100 N = 10
110 N = N - 3
120 IF N > 0 THEN 110
130 PRINT "bottom while"; N
140 K = 1
150 K = K * 2
160 IF NOT (K > 100) THEN 150
170 PRINT "bottom until"; K
180 COUNT = 0
190 COUNT = COUNT + 1
200 IF COUNT >= 5 THEN 220
210 GOTO 190
220 PRINT "endless"; COUNT
230 FOR J = 1 TO 10
240 IF J * J > 20 THEN 260
250 NEXT J
260 PRINT "exit for"; J
270 X = 5
280 WHILE X = 0
290 PRINT "never"
300 WEND
310 WHILE X
320 X = X - 2.5
330 WEND
340 PRINT "x"; X
350 END
"""
DO_FORMS_OUTPUT = """\
while 0 
while 1 
while 2 
after until 0 
bottom while-2 
bottom until 128 
endless 5 
exit for 5 
x 0 
"""


def test_do_loop_forms(tmp_path):
    assert interpreted_and_checked(tmp_path, DO_FORMS, dialect="qbasic") == DO_FORMS_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_do_loop_forms_oracle():
    assert pcbasic_oracle.pcbasic_output(DO_FORMS_GWBASIC) == DO_FORMS_OUTPUT


def test_do_loop_pins_qbasic(tmp_path):
    """DO pins --dialect qbasic, once, with a note; its numbers are GW-BASIC's (singles:
    2 ^ 24 + 1 is 2 ^ 24).  The last loop of the program is left to its end."""
    text = "x = 2 ^ 24 + 1\nDO\n  PRINT x\nLOOP UNTIL 1\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 1.677722E+07 \n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=None)
    assert done.stderr == "prog.bas:2: note: DO ... LOOP: assuming --dialect qbasic\n"


def test_qbasic_pinned_in_a_program_extended_basic_cannot_parse(tmp_path):
    """DEFINT (a Microsoft BASIC pin) then `DIM A(1 TO 3)`, which extended BASIC does not
    parse: QuickBASIC's construct still pins --dialect qbasic (it was read as ms, where
    `1 TO 3` is an error)."""
    text = "DEFINT I-N\nDIM a(1 TO 3)\nFOR i = 1 TO 3: a(i) = i * i: NEXT\nPRINT a(3) \\ 2\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 4 \n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=None)
    assert done.stderr == "prog.bas:2: note: DIM A(lower TO upper): assuming --dialect qbasic\n"


# EXIT DO from a FOR inside the DO, EXIT FOR from a DO inside the FOR (both leave two
# loops), EXIT FOR of the inner of two FORs, a string test at the bottom.
NESTED_EXITS = """\
DO
  FOR i = 1 TO 5
     IF i = 3 THEN EXIT DO
     PRINT i;
  NEXT i
LOOP
PRINT "out"; i
FOR a = 1 TO 3
  b = 0
  DO WHILE b < 10
    b = b + 1
    IF b > a THEN EXIT FOR
  LOOP
  PRINT "never";
NEXT a
PRINT a; b
total = 0
FOR a = 1 TO 4
  FOR b = 1 TO 4
    IF b > a THEN EXIT FOR
    total = total + b
  NEXT b
NEXT a
PRINT total
s$ = ""
DO
  s$ = s$ + "x"
LOOP UNTIL LEN(s$) >= 4
PRINT s$
"""
# 1+2, EXIT DO at 3; EXIT FOR at a = 1, b = 2; total: 1 + 3 + 6 + 10.
NESTED_EXITS_OUTPUT = " 1  2 out 3 \n 1  2 \n 20 \nxxxx\n"


def test_nested_exits(tmp_path):
    assert interpreted_and_checked(tmp_path, NESTED_EXITS, dialect="qbasic") == (
        NESTED_EXITS_OUTPUT
    )


def test_do_loop_generated_python_reads_as_loops(tmp_path):
    """A DO becomes `while`, a test at the bottom `if ...: break`, EXIT DO `break`."""
    text = "n = 10\nDO\n  n = n - 3\n  IF n = 4 THEN EXIT DO\nLOOP WHILE n > 0\nPRINT n\n"
    done = basic2tile(tmp_path, text, "-o", "-", dialect="qbasic")
    assert done.returncode == 0, done.stderr
    assert "while True:" in done.stdout
    assert "if not n > 0.0:" in done.stdout
    assert done.stdout.count("break") == 2
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == " 4 \n"


def test_exit_for_keeps_the_loop_on_the_host(tmp_path):
    text = (
        "DIM a(100)\nFOR i = 1 TO 100\n  a(i) = i * 2\n  IF a(i) > 50 THEN EXIT FOR\n"
        "NEXT i\nPRINT i\n"
    )
    done = basic2tile(tmp_path, text, "--explain", dialect="qbasic")
    assert "-> host: the loop is left early (a jump out of it)" in done.stdout, done.stdout
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == " 26 \n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("DO\nPRINT 1\n", "prog.bas:1:1: error: DO without LOOP"),
        ("PRINT 1\nLOOP\n", "prog.bas:2:1: error: LOOP without DO"),
        ("WHILE X < 3\nX = X + 1\nLOOP\n", "prog.bas:3:1: error: LOOP without DO"),
        ("EXIT DO\n", "prog.bas:1:1: error: EXIT DO outside a DO loop"),
        ("DO\nEXIT FOR\nLOOP\n", "prog.bas:2:1: error: EXIT FOR outside a FOR loop"),
        ("FOR I = 1 TO 2\nDO\nNEXT I\nLOOP\n", "not in the same DO block"),
    ],
)
def test_block_errors_are_located(tmp_path, text, message):
    done = basic2tile(tmp_path, text, "--interpret", dialect="qbasic")
    assert done.returncode != 0
    assert message in done.stderr, done.stderr


def test_do_is_quickbasic_only(tmp_path):
    done = basic2tile(
        tmp_path, "10 DO: X = X + 1: LOOP UNTIL X > 2\n", "--interpret", dialect="extended"
    )
    assert done.returncode != 0
    assert "prog.bas:1:4: error: DO ... LOOP is QuickBASIC, not extended BASIC" in done.stderr
    assert "note: --dialect qbasic accepts it" in done.stderr


def test_do_under_dialect_ms_is_gw_basics_syntax_error_with_a_note(tmp_path):
    """GW-BASIC reads DO as a name: the line stops with Syntax error when it runs."""
    done = basic2tile(tmp_path, "10 DO: X = X + 1: LOOP UNTIL X > 2\n", "--interpret", dialect="ms")
    assert done.returncode == 1 and done.stdout == "Syntax error in 10\n"
    assert "note: DO is a QuickBASIC statement (--dialect qbasic)" in done.stderr


# SELECT CASE: IS, TO, lists, CASE ELSE, numbers and strings, a selector evaluated once
# into a temporary (an expression) or read from its variable.
SELECT_CASES = """\
' grades
FOR score = 35 TO 105 STEP 10
    SELECT CASE score
        CASE IS >= 100
            grade$ = "perfect"
        CASE 90 TO 99, 85
            grade$ = "A"
        CASE 60 TO 84
            grade$ = "pass"
        CASE ELSE
            grade$ = "fail"
    END SELECT
    PRINT score; grade$
NEXT score
FOR i% = 1 TO 4
  Select Case Mid$("abcz", i%, 1)
    Case "a", "b"
      Print "early";
    Case "c" TO "m"
      Print "middle";
    Case Else
      Print "late";
  End Select
NEXT
PRINT
n = 0
SELECT CASE n + 1
CASE 1: PRINT "one"
CASE 1: PRINT "not again"
END SELECT
SELECT CASE 7 MOD 3
  CASE 2
    PRINT "two"
END SELECT
ncalls = 0
SELECT CASE RND * 0 + 5
  CASE 1, 2, 3
    PRINT "small"
  CASE IS > 4
    PRINT "large"
END SELECT
PRINT "done"
"""
# The first CASE that matches runs, and only it (QBasic 1.1 reference, SELECT CASE).
SELECT_CASES_OUTPUT = """\
 35 fail
 45 fail
 55 fail
 65 pass
 75 pass
 85 A
 95 A
 105 perfect
earlyearlymiddlelate
one
large
done
"""


def test_select_case(tmp_path):
    assert interpreted_and_checked(tmp_path, SELECT_CASES, dialect=None) == SELECT_CASES_OUTPUT


def test_select_case_generated_python_is_an_elif_chain(tmp_path):
    done = basic2tile(tmp_path, SELECT_CASES, "-o", "-", dialect="qbasic")
    assert done.returncode == 0, done.stderr
    assert "elif score >= 90.0 and score <= 99.0 or score == 85.0:" in done.stdout
    assert 'select_1_str = MIDS("abcz", i_int, 1.0)' in done.stdout


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "SELECT CASE X\nPRINT 1\nCASE 1\nEND SELECT\n",
            "2:1: error: only comments may stand before",
        ),
        ("CASE 1\n", "1:1: error: CASE without SELECT CASE"),
        ("END SELECT\n", "1:1: error: END SELECT without SELECT CASE"),
        ("SELECT CASE X\nCASE 1\n", "1:1: error: SELECT CASE without END SELECT"),
        (
            "SELECT CASE X\nCASE 1\nIF X THEN\nCASE 2\nEND IF\nEND SELECT\n",
            "4:1: error: CASE inside the unfinished IF block of source line 3",
        ),
        (
            "IF X THEN\nSELECT CASE X\nCASE 1\nEND IF\nEND SELECT\n",
            "4:1: error: END IF inside the unfinished SELECT CASE block",
        ),
        ("SELECT CASE X\nCASE ELSE\nCASE 2\nEND SELECT\n", "3:1: error: CASE after CASE ELSE"),
        ('SELECT CASE X\nCASE "a"\nEND SELECT\n', "2:6: error: numeric expression expected"),
    ],
)
def test_select_errors_are_located(tmp_path, text, message):
    done = refused(tmp_path, text, message)
    if "END IF" not in text:  # there the IF is unfinished too
        assert done.stderr.count("error:") == 1, done.stderr


def test_is_is_a_name_outside_case(tmp_path):
    """IS is reserved only in CASE: a GW-BASIC program may have a variable IS."""
    assert interpreted_and_checked(tmp_path, "10 IS = 3: PRINT IS\n", dialect="ms") == " 3 \n"


# CONST (an integer, a double, a string), DIM ... AS for scalars and arrays, a lower
# bound, a metacommand (a comment).
DECLARATIONS = """\
'$DYNAMIC
CONST N = 5, PI = 3.141592653589793#, NAME$ = "sum"
CONST HALF = 0.5
DIM total AS DOUBLE, count AS INTEGER
DIM v(1 TO N) AS DOUBLE
DIM w(N) AS INTEGER
DIM s AS STRING
FOR count = 1 TO N
    v(count) = count / 3
    w(count) = count * 2.6
    total = total + v(count)
NEXT count
s = NAME$ + ":"
PRINT s; total; w(N); PI * 2; HALF; count
PRINT N * 2; 7 \\ 2
"""
# The same with GW-BASIC's suffixes (NAME is a reserved word there): PC-BASIC printed
# DECLARATIONS_OUTPUT.  AS DOUBLE is `#`, AS INTEGER `%`, as QuickBASIC's manual says;
# count / 3 is a single, stored in a double.
DECLARATIONS_GWBASIC = """\
10 N% = 5: PI# = 3.141592653589793#: NM$ = "sum": HALF = .5
20 DIM V#(5), W%(5)
30 FOR COUNT% = 1 TO N%
40 V#(COUNT%) = COUNT% / 3
50 W%(COUNT%) = COUNT% * 2.6
60 TOTAL# = TOTAL# + V#(COUNT%)
70 NEXT COUNT%
80 S$ = NM$ + ":"
90 PRINT S$; TOTAL#; W%(N%); PI# * 2; HALF; COUNT%
100 PRINT N% * 2; 7 \\ 2
"""
DECLARATIONS_OUTPUT = "sum: 5.000000029802322  13  6.283185307179586  .5  6 \n 10  3 \n"


def test_const_and_dim_as(tmp_path):
    assert interpreted_and_checked(tmp_path, DECLARATIONS, dialect=None) == DECLARATIONS_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_const_and_dim_as_oracle():
    assert pcbasic_oracle.pcbasic_output(DECLARATIONS_GWBASIC) == DECLARATIONS_OUTPUT


@pytest.mark.parametrize(
    "text, message",
    [
        ("CONST N = 5\nN = 6\n", "2:1: error: N% is a constant (CONST at source line 1)"),
        ("CONST N = 5\nFOR N = 1 TO 2: NEXT\n", "2:5: error: N% is a constant"),
        ("CONST N = 1\nCONST N = 2\n", "2:7: error: CONST N% given twice"),
        ("DIM X& AS LONG\n", "1:5: error: X& has a type suffix"),
        ("DIM X AS RECORD\n", "1:5: error: AS RECORD: only INTEGER, LONG, SINGLE, DOUBLE and"),
        ("DIM A(N TO 5)\n", "1:7: error: a lower bound must be an integer constant here"),
        ("OPTION BASE 1\nDIM A(0 TO 5)\n", "2:5: error: a lower bound of 0 after OPTION BASE 1"),
        ("DIM X% AS INTEGER\n", "1:5: error: X% has a type suffix"),
    ],
)
def test_declaration_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


def test_as_integer_is_quickbasic_only(tmp_path):
    """`DIM A(5) AS INTEGER` once stored 1.7 and printed it back; outside --dialect
    qbasic it is an error, in it A is an INTEGER array."""
    text = "10 DIM A(5) AS INTEGER\n20 LET A(1) = 1.7\n30 PRINT A(1)\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect="extended")
    assert "prog.bas:1:16: error: DIM ... AS INTEGER is QuickBASIC, not extended BASIC" in (
        done.stderr
    )
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 2 \n"


# Labels as GOTO and GOSUB targets in a program without line numbers.
LABELS = """\
' labels as jump targets
n = 0
Again:
    n = n + 1
    IF n < 3 THEN GOTO Again
GOSUB Show
PRINT "back"
GOTO Done
Show: PRINT "n ="; n
RETURN
Done:
END
"""


def test_labels(tmp_path):
    assert interpreted_and_checked(tmp_path, LABELS, dialect=None) == " n = 3 \nback\n".lstrip()
    done = basic2tile(tmp_path, LABELS, "--interpret", dialect=None)
    assert done.stderr == "prog.bas:3: note: a label: assuming --dialect qbasic\n"


@pytest.mark.parametrize(
    "text, dialect, message",
    [
        ("GOTO Nowhere\n", "qbasic", "1:6: error: jump to non-existing label NOWHERE"),
        ("A:\nA: PRINT 1\n", "qbasic", "error: label A used twice"),
        ("10 GOTO Start\n", "ms", "1:9: error: expected a line number, found name 'START'"),
    ],
)
def test_label_errors_are_located(tmp_path, text, dialect, message):
    done = basic2tile(tmp_path, text, "--interpret", dialect=dialect)
    assert done.returncode != 0
    assert message in done.stderr, done.stderr


# The manual's example (docs/qbasic.md), then `CASE ELSE: PRINT` and a block `ELSE: PRINT`,
# which keep their ':'.
MANUAL_EXAMPLE = """\
CONST N = 5, PI = 3.141592653589793#
DIM v(1 TO N) AS DOUBLE, count AS INTEGER
DO
    count = count + 1
    v(count) = PI * count
    IF v(count) > 12 THEN EXIT DO
LOOP UNTIL count = N
SELECT CASE count
    CASE 1, 2: PRINT "few"
    CASE 3 TO 4: PRINT "some"
    CASE IS >= 5: PRINT "all"
    CASE ELSE: PRINT "none"
END SELECT
SELECT CASE count * 10
    CASE ELSE: PRINT "else";
END SELECT
IF count = 0 THEN
    PRINT "zero"
ELSE: PRINT count
END IF
"""


def test_manual_example(tmp_path):
    """4 * PI > 12 leaves the DO at count = 4."""
    assert interpreted_and_checked(tmp_path, MANUAL_EXAMPLE, dialect=None) == "some\nelse 4 \n"


def test_the_manual_shows_the_example_tested_here():
    page = Path(__file__).resolve().parent.parent / "docs" / "qbasic.md"
    shown = page.read_text(encoding="utf-8").split("```basic\n", 1)[1].split("```", 1)[0]
    assert MANUAL_EXAMPLE.startswith(shown)


# SUBs (a first version: not recursive, scalar parameters): by reference, by value in
# parentheses, locals that start at 0 on each call, SHARED arrays, EXIT SUB, DECLARE.
SUBS = """\
DECLARE SUB Swap2 (a, b)
DECLARE SUB Stats (n%, total)
x = 1: y = 2
CALL Swap2(x, y)
PRINT x; y
CALL Swap2((x), y)
PRINT x; y
DIM v(5)
FOR i% = 1 TO 5: v(i%) = i% * i%: NEXT
CALL Stats(5, s)
PRINT "sum"; s
DIM w(2)
CALL Stats(3, w(2))
PRINT w(2)

SUB Stats (n%, total)
    SHARED v()
    total = 0
    FOR k% = 1 TO n%
        IF v(k%) > 16 THEN EXIT SUB
        total = total + v(k%)
    NEXT k%
END SUB

SUB Swap2 (a, b)
    t = a
    a = b
    b = t
    PRINT "t was"; t; "count"; count
    count = count + 1
END SUB
"""
# Swap2(x, y) swaps; Swap2((x), y) changes y only; count is 0 at each call; Stats
# leaves at v(5) = 25 > 16: 1 + 4 + 9 + 16.
SUBS_OUTPUT = """\
t was 1 count 0 
 2  1 
t was 2 count 0 
 2  2 
sum 30 
 14 
"""


def test_subs(tmp_path):
    assert interpreted_and_checked(tmp_path, SUBS, dialect=None) == SUBS_OUTPUT


def test_sub_generated_python_reads_as_calls(tmp_path):
    done = basic2tile(tmp_path, SUBS, "-o", "-", dialect="qbasic")
    assert "    # CALL Swap2(x, y)\n    x, y = swap2(x, y)\n" in done.stdout


_SUB = "\nSUB S (a)\n  a = a + 1\nEND SUB\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("CALL T(1)" + _SUB, "1:1: error: CALL of SUB T, which the program does not define"),
        ("CALL S(1, 2)" + _SUB, "1:1: error: SUB S takes 1 argument(s), not 2"),
        ("CALL S(i%)" + _SUB, "1:8: error: parameter type mismatch: I% passed by reference to A"),
        (
            "CALL S(x)\nSUB S (a)\n  SHARED x\n  x = 2\nEND SUB\n",
            "1:8: error: X is passed by reference and SHARED by the SUB",
        ),
        (
            "SUB T (a, b)\nEND SUB\nCALL T(x, x)\n",
            "3:11: error: X is passed by reference and passed twice",
        ),
        ("EXIT SUB" + _SUB, "1:1: error: EXIT SUB outside a SUB"),
        ("SUB S (a)\nPRINT a\n", "1:1: error: SUB S without END SUB"),
        ("SUB S (a)\n  t(3) = 1\nEND SUB\n", "2:3: error: array T in SUB S: DIM it in the SUB"),
        ("DECLARE SUB S (a, b)" + _SUB, "1:1: error: DECLARE SUB S does not match"),
        ("FUNCTION F (a)\n", "1:1: error: FUNCTION F without END FUNCTION"),
    ],
)
def test_sub_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


def test_gw_basic_call_is_still_machine_code(tmp_path):
    done = basic2tile(tmp_path, "10 CALL X\n", "--interpret", dialect="ms")
    assert "prog.bas:1:4: error: unsupported statement CALL (Microsoft BASIC)" in done.stderr
    assert "note: CALL is not supported: it calls machine code" in done.stderr


# A SUB called without CALL (as QBasic's editor writes it); `Twice (n)` passes n by value.
SUB_WITHOUT_CALL = """\
DECLARE SUB Show (label$, value)
Show "pi", 3.14159
n = 2
Show "n", n
Twice n
Show "twice", n
Twice (n)
Show "same", n
SUB Show (label$, value)
    PRINT label$; "="; value
END SUB
SUB Twice (x)
    x = x * 2
END SUB
"""


def test_sub_called_without_call(tmp_path):
    assert interpreted_and_checked(tmp_path, SUB_WITHOUT_CALL, dialect=None) == (
        "pi= 3.14159 \nn= 2 \ntwice= 4 \nsame= 4 \n"
    )


# A parallel FOR inside a SUB becomes a kernel, like one of the module.
SUB_KERNEL = """\
DIM a(1000), b(1000)
FOR i = 1 TO 1000: a(i) = i: NEXT
Scale 2.5
PRINT b(1); b(1000)
SUB Scale (f)
    SHARED a(), b()
    FOR k = 1 TO 1000
        b(k) = a(k) * f
    NEXT k
END SUB
"""


def test_loop_in_a_sub_is_offloaded(tmp_path):
    done = basic2tile(tmp_path, SUB_KERNEL, "--explain", dialect="qbasic")
    assert "source line 7 FOR k = 1 TO 1000\n      -> GPU kernel map_l7 (map)" in done.stdout
    assert interpreted_and_checked(tmp_path, SUB_KERNEL, dialect="qbasic") == " 2.5  2500 \n"


# DIM SHARED gives every SUB the module's variable or array; `other` is not shared, so
# AddUp's `other` is a local of its own.
DIM_SHARED = """\
DIM SHARED total AS DOUBLE, v(3)
DIM other
v(1) = 1: v(2) = 2: v(3) = 4
AddUp
PRINT total; other
CALL Note(other)
PRINT other
SUB AddUp
    FOR i% = 1 TO 3
        total = total + v(i%)
    NEXT
    other = 99
END SUB
SUB Note (x)
    x = total * 10
END SUB
"""


def test_dim_shared(tmp_path):
    assert interpreted_and_checked(tmp_path, DIM_SHARED, dialect=None) == " 7  0 \n 70 \n"


def test_dim_shared_variable_passed_by_reference_is_an_error(tmp_path):
    text = "DIM SHARED t\nCALL S(t)\nSUB S (x)\n  x = t + 1\nEND SUB\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect="qbasic")
    assert "prog.bas:2:8: error: T is passed by reference and SHARED by the SUB" in done.stderr


# Typed parameters (`n AS INTEGER` is n% inside the SUB only: the module's n stays a
# single), a SUB called without CALL, a DOUBLE passed by reference.
TYPED_PARAMETERS = """\
DECLARE SUB Repeat (s AS STRING, n AS INTEGER, total AS DOUBLE)
DIM t AS DOUBLE
n = 2.5
Repeat "ab", 3, t
PRINT t; n
SUB Repeat (s AS STRING, n AS INTEGER, total AS DOUBLE)
    FOR i = 1 TO n
        PRINT s;
        total = total + 1 / 3
    NEXT
    PRINT n / 2
END SUB
"""


def test_typed_parameters(tmp_path):
    """1 / 3 is a single (GW-BASIC's: .3333333432674408), added three times in a double."""
    assert interpreted_and_checked(tmp_path, TYPED_PARAMETERS, dialect=None) == (
        "ababab 1.5 \n 1.000000029802322  2.5 \n"
    )


def test_array_parameter_needs_an_array(tmp_path):
    """Array parameters: tests/test_qbasic_procedures.py."""
    text = "CALL S(1)\nSUB S (a())\nEND SUB\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect="qbasic")
    assert "prog.bas:1:8: error: A() is an array parameter: pass a whole array" in done.stderr


# `SUB ... STATIC` keeps its locals between calls; a plain SUB starts them at 0; ON ...
# GOSUB / GOTO with labels.
STATIC_AND_ON = """\
FOR i = 1 TO 3
  Counter
  Fresh
NEXT
k = 2
ON k GOSUB One, Two
ON k - 1 GOTO Last
PRINT "not here"
One: PRINT "one": RETURN
Two: PRINT "two": RETURN
Last: PRINT "last"
END
SUB Counter STATIC
    c = c + 1
    PRINT "static"; c
END SUB
SUB Fresh
    c = c + 1
    PRINT "fresh"; c
END SUB
"""


def test_static_sub_and_on_labels(tmp_path):
    assert interpreted_and_checked(tmp_path, STATIC_AND_ON, dialect=None) == (
        "static 1 \nfresh 1 \nstatic 2 \nfresh 1 \nstatic 3 \nfresh 1 \ntwo\nlast\n"
    )


# QuickBASIC's error handlers are labels (QBasic 1.1 help, "ON ERROR": `ON ERROR GOTO
# line`, where line is a label or a line number; "RESUME": `RESUME line` likewise).
TRAP_LABELS = """\
ON ERROR GOTO Oops
PRINT SQR(-1)
PRINT "skipped"
Again:
PRINT "again"; n
n = n + 1
IF n < 2 THEN ERROR 11
END
Oops:
  PRINT "caught"; ERR
  IF ERR = 5 THEN RESUME Again
  RESUME NEXT
"""


def test_error_handler_and_resume_at_labels(tmp_path):
    # ERROR 11 is caught, RESUME NEXT goes on after the IF: END
    expected = "caught 5 \nagain 0 \ncaught 11 \n"
    assert interpreted_and_checked(tmp_path, TRAP_LABELS, dialect=None) == expected


def test_missing_handler_label_is_located(tmp_path):
    done = basic2tile(tmp_path, "ON ERROR GOTO Nowhere\nPRINT 1\n", "--interpret", dialect="qbasic")
    assert done.returncode == 1
    assert "1:15: error: jump to non-existing label NOWHERE" in done.stderr
