"""QuickBASIC / QBasic's data types (--dialect qbasic): LONG (`&`, 32-bit integers),
QuickBASIC's INTEGER arithmetic, names with a `.` (GW-BASIC's too), LTRIM$ and RTRIM$.

There is no QuickBASIC interpreter here: the expected outputs are reasoned from
Microsoft's QuickBASIC 4.5 / QBasic 1.1 language reference ("Data types": LONG is a
32-bit signed integer, -2147483648..2147483647, suffix `&`; "Numeric constants": `123&`,
`&HFFFF&` is 65535, a whole number 32768..2147483647 without a point is a LONG;
"Type conversion": an operation takes the type of its most precise operand, INTEGER <
LONG < SINGLE < DOUBLE, and an INTEGER or LONG result out of its range is the run-time
error "Overflow"; `\\` and MOD round their operands to integers or LONGs).  Numbers
print as GW-BASIC prints them (a LONG with all its digits).  Where GW-BASIC can say the
same thing (names with a `.`), PC-BASIC 2.0.8 ran the program (tests/pcbasic_oracle.py)
and printed the text held here.  Every program runs through the interpreter and both
generated targets (cuTile Python and CUDA C++ on the CPU), which must agree exactly.
"""

from __future__ import annotations

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, checked_run, interpreted_and_checked, refused

# LONG near 2^31: constants of every spelling, DIM ... AS LONG, DEFLNG, the `&` suffix,
# \ and MOD of LONGs, bitwise operators on 32 bits, READ and SWAP, CLNG, a LONG array.
LONG_ARITHMETIC = """\
DIM big AS LONG, total AS LONG
DIM squares(1 TO 4) AS LONG
DEFLNG L
big = 2147483647
PRINT big; big - 1; -big - 1; 123&; &HFFFF&; &H7FFF; &HFFFF; 40000; &H10000
large = 100000
PRINT large * 3; large \\ 7; large MOD 7; -large; CLNG(-1234567.4); CLNG(99.6)
x& = &H10000
PRINT x& AND &HFFFF&; x& OR 1; NOT x&; x& XOR -1; STR$(big)
FOR i% = 1 TO 4
    squares(i%) = CLNG(i%) * 46340
    total = total + squares(i%)
NEXT i%
PRINT squares(4); total
READ r&, s&
DATA 2147483647, -2147483648
PRINT r& \\ 2; s& MOD 7; s& \\ -7
SWAP r&, s&
PRINT r&; s&; ABS(s&); SGN(r&); INT(r&)
fact& = 1
FOR k% = 1 TO 12
    fact& = fact& * k%
NEXT
PRINT "12! ="; fact&; fact& / 3
WRITE big, fact&
PRINT USING "###########"; big
"""
# -big - 1 is -2147483648 (in range); squares(i%) = i% * 46340: 185360 for 4, and
# 46340 * (1 + 2 + 3 + 4) = 463400 in all; s& MOD 7 = -(2147483648 MOD 7) = -2, s& \ -7
# truncates 306783378.29; 12! = 479001600, and / gives a single.
LONG_ARITHMETIC_OUTPUT = """\
 2147483647  2147483646 -2147483648  123  65535  32767 -1  40000  65536 
 300000  14285  5 -100000 -1234567  100 
 0  65537 -65537 -65537  2147483647
 185360  463400 
 1073741823 -2  306783378 
-2147483648  2147483647  2147483647 -1 -2147483648 
12! = 479001600  1.596672E+08 
2147483647,479001600
 2147483647
"""


def test_long_arithmetic(tmp_path):
    assert interpreted_and_checked(tmp_path, LONG_ARITHMETIC, dialect="qbasic") == (
        LONG_ARITHMETIC_OUTPUT
    )


def test_long_pins_qbasic(tmp_path):
    """The `&` suffix is QuickBASIC's: it pins --dialect qbasic, and is an error in
    GW-BASIC's dialect chosen on the command line."""
    text = "x& = 70000\nPRINT x& * 2\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 140000 \n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=None)
    assert done.stderr == "prog.bas:1: note: the LONG suffix '&' (X&): assuming --dialect qbasic\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect="ms")
    assert "prog.bas:1:1: error: the LONG suffix '&' (X&) is QuickBASIC, not Microsoft" in (
        done.stderr
    )


@pytest.mark.parametrize(
    "text, output, message",
    [
        # LONG arithmetic beyond 32 bits (12! * 13 = 6227020800)
        (
            "f& = 479001600\nPRINT 1\nf& = f& * 13\nPRINT 2\n",
            " 1 \nOverflow\n",
            "3:1: error: Overflow",
        ),
        ("x& = 2147483647\nPRINT x& + 1\n", "Overflow\n", "2:1: error: Overflow"),
        ("x& = -2147483647 - 1\nPRINT -x&\n", "Overflow\n", "2:1: error: Overflow"),
        # storing beyond a LONG, CLNG beyond it
        ("DIM x AS LONG\nx = 3E9\n", "Overflow\n", "2:1: error: Overflow"),
        ("PRINT CLNG(2147483647.6)\n", "Overflow\n", "1:1: error: Overflow"),
        # QuickBASIC's INTEGER arithmetic stays INTEGER: 300 * 200 is "Overflow" (GW-BASIC
        # gives the single 60000)
        ("i% = 300: j% = 200\nPRINT i% * j%\n", "Overflow\n", "2:1: error: Overflow"),
        ("i% = 32767\ni% = i% + 1\n", "Overflow\n", "2:1: error: Overflow"),
        # \ of LONGs by zero: QuickBASIC's "Division by zero" is an error
        ("x& = 5\nPRINT x& \\ 0\n", "Division by zero\n", "2:1: error: Division by zero"),
    ],
)
def test_overflow_stops_the_program(tmp_path, text, output, message):
    done = checked_run(tmp_path, text, dialect="qbasic")
    assert done.returncode == 1
    assert done.stdout == output
    assert "prog.bas:" + message in done.stderr, done.stderr


def test_integer_arithmetic_in_range_is_exact(tmp_path):
    """INTEGER + - * within 16 bits, \\ and MOD of INTEGERs, and of singles (rounded to
    LONGs, so 100000 \\ 3 is fine where GW-BASIC stops with Overflow)."""
    text = (
        "a% = 181: b% = -181\nPRINT a% * a%; a% * b%; a% - b%; -a%; 7 \\ 2; -7 MOD 3\n"
        "y = 100000\nPRINT y \\ 3; y MOD 7; 2.5 * a%\n"
    )
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == (
        " 32761 -32761  362 -181  3 -1 \n 33333  5  452.5 \n"
    )


def test_long_loops_stay_on_the_host(tmp_path):
    """A kernel would not stop at an INTEGER's or a LONG's overflow: such loops stay on
    the host (a loop of singles is still a kernel)."""
    text = (
        "DIM a(1000), b(1000)\nFOR i% = 1 TO 1000\n  a(i%) = i% * 100\nNEXT i%\n"
        "FOR j = 1 TO 1000\n  b(j) = j * 100\nNEXT j\nPRINT b(1000)\n"
    )
    done = basic2tile(tmp_path, text, "--explain", dialect="qbasic")
    assert "QuickBASIC's INTEGER and LONG arithmetic that may overflow" in done.stdout
    assert "source line 5 FOR j = 1 TO 1000\n      -> GPU kernel" in done.stdout, done.stdout
    done = checked_run(tmp_path, text, dialect="qbasic")
    assert done.stdout == "Overflow\n"


def test_long_generated_python_reads_as_long_arithmetic(tmp_path):
    text = "DIM t AS LONG\nFOR k% = 1 TO 3\n  t = t * 1000 + k%\nNEXT\nPRINT t\n"
    done = basic2tile(tmp_path, text, "-o", "-", dialect="qbasic")
    assert "t_lng = clng(long_result(long_result(t_lng * 1000.0) + k_int))" in done.stdout
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == " 1002003 \n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("x& = 1.5&\n", "1:6: error: a LONG constant is a whole number from 0 to 2147483647"),
        ("x& = 2147483648&\n", "1:6: error: a LONG constant is a whole number"),
        ("x = &H100000000\n", "1:5: error: a hexadecimal or octal constant has at most 32 bits"),
        ("DIM X& AS LONG\n", "1:5: error: X& has a type suffix"),
    ],
)
def test_long_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


def test_sixteen_bit_hex_stays_gw_basic_under_ms(tmp_path):
    done = basic2tile(tmp_path, "10 PRINT &H10000\n", "--interpret", dialect="ms")
    assert "error: a hexadecimal or octal constant has at most 16 bits" in done.stderr


# GW-BASIC's names may have a `.` in them (PC-BASIC printed DOTTED_OUTPUT).
DOTTED = """\
10 PLAYER.X = 1: PLAYER.Y = 2: PLAYERX = 3: DIM BOARD.ROW(3): BOARD.ROW(2) = 9
20 PRINT PLAYER.X; PLAYER.Y; PLAYERX; BOARD.ROW(2)
30 FOR I.J = 1 TO 2: PRINT I.J;: NEXT
40 DEF FNA.B(X) = X * 2: PRINT FNA.B(3)
50 B.$ = "q": PRINT B.$
"""
DOTTED_OUTPUT = " 1  2  3  9 \n 1  2  6 \nq\n"


def test_dotted_names_under_ms(tmp_path):
    assert interpreted_and_checked(tmp_path, DOTTED, dialect="ms") == DOTTED_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_dotted_names_oracle():
    assert pcbasic_oracle.pcbasic_output(DOTTED) == DOTTED_OUTPUT


def test_dotted_name_pins_ms(tmp_path):
    done = basic2tile(tmp_path, "A.B = 1\nPRINT A.B\n", "--interpret", dialect="extended")
    assert "prog.bas:1:1: error: the '.' in the name A.B is Microsoft BASIC, not extended" in (
        done.stderr
    )
    done = basic2tile(tmp_path, "A.B = 1\nPRINT A.B\n", "--interpret", dialect=None)
    assert done.stdout == " 1 \n"


def test_ltrim_rtrim(tmp_path):
    """QBasic's LTRIM$ and RTRIM$ remove spaces only (QBasic 1.1 reference)."""
    text = 'a$ = "  hi  "\nPRINT "["; LTRIM$(a$); "]["; RTRIM$(a$); "]"; LTRIM$(STR$(42)); "]"\n'
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == "[hi  ][  hi]42]\n"


# TYPE records: a small database (a LONG, a nested record, a DOUBLE), READ into fields of
# elements, a bubble sort that SWAPs whole records, whole-record assignment (a copy: tmp
# changes, best does not).  QuickBASIC's reference: TYPE ... END TYPE, `a(i).x`, SWAP
# and `=` of records of one TYPE.
RECORDS = """\
' a small database of parts, sorted by price
TYPE Money
    dollars AS LONG
    cents AS INTEGER
END TYPE
TYPE Part
    id AS INTEGER
    qty AS LONG
    price AS Money
    weight AS DOUBLE
END TYPE
CONST N = 5
DIM parts(1 TO N) AS Part, tmp AS Part, best AS Part
FOR i = 1 TO N
    READ parts(i).id, parts(i).qty, parts(i).price.dollars, parts(i).price.cents, parts(i).weight
NEXT i
DATA 101, 40000, 12, 50, 1.5
DATA 102, 7, 3, 99, 0.25
DATA 103, 123456, 250, 0, 12.125
DATA 104, 1, 3, 5, 2
DATA 105, 99, 12, 49, 0.5
' bubble sort on the price in cents
FOR i = 1 TO N - 1
    FOR j = 1 TO N - i
        a& = parts(j).price.dollars * 100& + parts(j).price.cents
        b& = parts(j + 1).price.dollars * 100& + parts(j + 1).price.cents
        IF a& > b& THEN SWAP parts(j), parts(j + 1)
    NEXT j
NEXT i
total& = 0
FOR i = 1 TO N
    PRINT parts(i).id; parts(i).qty; parts(i).price.dollars; parts(i).price.cents; parts(i).weight
    total& = total& + parts(i).qty
NEXT i
best = parts(N)
tmp = best
tmp.qty = tmp.qty * 2
PRINT "most expensive"; best.id; best.qty; tmp.qty; "total qty"; total&
"""
# Sorted by dollars * 100 + cents: 305, 399, 1249, 1250, 25000.
RECORDS_OUTPUT = """\
 104  1  3  5  2 
 102  7  3  99  .25 
 105  99  12  49  .5 
 101  40000  12  50  1.5 
 103  123456  250  0  12.125 
most expensive 103  123456  246912 total qty 163563 
"""


def test_records_database_sorted(tmp_path):
    assert interpreted_and_checked(tmp_path, RECORDS, dialect=None) == RECORDS_OUTPUT


def test_records_generated_python_names_the_fields(tmp_path):
    done = basic2tile(tmp_path, RECORDS, "-o", "-", dialect="qbasic")
    assert "best_price_dollars_lng = clng(parts_price_dollars_lng[n_int])" in done.stdout
    assert "parts_id_int[j], parts_id_int[sng(j + 1.0)] = (" in done.stdout


_TYPE = "TYPE Pair\n  a AS INTEGER\n  b AS SINGLE\nEND TYPE\n"


@pytest.mark.parametrize(
    "text, message",
    [
        (_TYPE + "DIM p AS Pair\np.c = 1\n", "6:1: error: C is not a field of P (TYPE PAIR)"),
        (_TYPE + "DIM p AS Pair\nPRINT p\n", "6:7: error: the record P used whole"),
        (_TYPE + "DIM p AS Pair\np = 1\n", "6:5: error: Type mismatch: a record takes a record"),
        (_TYPE + "DIM p AS Pair, q(3) AS Pair\nq(RND * 3) = p\n", "6:1: error: a subscript with"),
        ("TYPE T\n  s AS STRING\nEND TYPE\n", "2:3: error: the field S AS STRING: a field's"),
        ("TYPE T\n  s AS Nothing\nEND TYPE\n", "2:3: error: AS NOTHING: no such TYPE"),
        ("TYPE T\n  x AS INTEGER\n", "1:1: error: TYPE T without END TYPE"),
        (
            "TYPE T\n  PRINT 1\nEND TYPE\n",
            "2:3: error: only fields and comments may stand in TYPE T",
        ),
        ("x AS INTEGER\n", "1:1: error: the field X outside TYPE ... END TYPE"),
        (_TYPE + "SUB S (p AS Pair)\nEND SUB\n", "5:8: error: a record parameter (P AS PAIR)"),
        ("DIM s AS STRING * 200\n", "1:5: error: STRING * 200: fixed-length strings of more"),
        ("DIM s AS INTEGER * 2\n", "1:10: error: AS INTEGER * n: only a STRING has a length"),
        ("DIM s AS STRING * 2\nSWAP s, t$\n", "2:1: error: SWAP of strings of different"),
    ],
)
def test_record_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


# Fixed-length strings: LEN is always n; a string never stored is n CHR$(0) (Microsoft
# KB Q27631, Q35245: "initialized as a string of null bytes"; storing "" fills it with
# spaces); a longer value is cut, a shorter one padded with spaces (QuickBASIC 4.5's
# reference, "Fixed-length string arrays": "Any unused space ... will be padded with
# spaces"); READ stores the same way; MID$ overwrites the null bytes.
FIXED_STRINGS = """\
DIM s AS STRING * 5, names(1 TO 3) AS STRING * 4
PRINT LEN(s); ASC(s); LEN(names(2))
s = "abcdefgh"
PRINT "["; s; "]"; LEN(s)
s = "x"
PRINT "["; s; "]"
s = ""
PRINT "["; s; "]"; ASC(s)
READ names(1), names(2)
DATA "Joe", "Alexandra"
PRINT "["; names(1); "]["; names(2); "]"; LEN(names(3))
t$ = names(1) + "|"
PRINT t$; RTRIM$(names(1)); "|"
SWAP names(2), names(1)
PRINT "["; s; "]["; names(1); "]"
MID$(names(3), 2) = "zz"
PRINT ASC(names(3)); MID$(names(3), 2, 2); ASC(RIGHT$(names(3), 1))
"""
FIXED_STRINGS_OUTPUT = (
    " 5  0  4 \n[abcde] 5 \n[x    ]\n[     ] 32 \n[Joe ][Alex] 4 \nJoe |Joe|\n"
    "[     ][Alex]\n 0 zz 0 \n"
)


def test_fixed_length_strings(tmp_path):
    assert interpreted_and_checked(tmp_path, FIXED_STRINGS, dialect="qbasic") == (
        FIXED_STRINGS_OUTPUT
    )


# Records with a fixed-length string field: READ cuts "Alexander", a sort by name SWAPs
# whole records, a record copied whole keeps its padding.
PEOPLE = """\
TYPE Person
    nm AS STRING * 6
    age AS INTEGER
END TYPE
DIM people(1 TO 4) AS Person, oldest AS Person
FOR i = 1 TO 4
    READ people(i).nm, people(i).age
NEXT
DATA "Grace", 85, "Ada", 36, "Alexander", 52, "Linus", 54
FOR i = 1 TO 3
    FOR j = i + 1 TO 4
        IF people(j).nm < people(i).nm THEN SWAP people(i), people(j)
    NEXT j
NEXT i
FOR i = 1 TO 4
    PRINT "["; people(i).nm; "]"; people(i).age; LEN(people(i).nm)
    IF people(i).age > oldest.age THEN oldest = people(i)
NEXT i
PRINT "oldest: "; RTRIM$(oldest.nm); oldest.age
"""
PEOPLE_OUTPUT = """\
[Ada   ] 36  6 
[Alexan] 52  6 
[Grace ] 85  6 
[Linus ] 54  6 
oldest: Grace 85 
"""


def test_records_with_fixed_length_strings(tmp_path):
    assert interpreted_and_checked(tmp_path, PEOPLE, dialect="qbasic") == PEOPLE_OUTPUT


# REDIM in a loop: each REDIM gives new bounds and clears the elements (QuickBASIC 4.5's
# reference, REDIM: "elements are reset to zero or null strings"); a first REDIM makes
# the array; a REDIM of records and fixed-length strings makes every field's array again.
REDIM_LOOP = """\
' REDIM in a loop: new bounds, cleared each time
DIM n AS INTEGER
REDIM a(1 TO 2) AS LONG
a(1) = 99
FOR n = 2 TO 4
    REDIM a(1 TO n * 2) AS LONG
    PRINT a(1);
    FOR k = 1 TO n * 2
        a(k) = k * 100000
    NEXT k
    PRINT a(n * 2)
NEXT n
REDIM b$(3)
b$(3) = "x"
PRINT b$(3); LEN(b$(0))
"""
REDIM_RECORDS = """\
TYPE T
 x AS INTEGER
 s AS STRING * 3
END TYPE
FOR n = 1 TO 2
REDIM r(n) AS T
PRINT r(n).x; LEN(r(n).s); ASC(r(n).s)
r(n).x = 5: r(n).s = "abcd"
PRINT r(n).x; r(n).s
NEXT
"""


def test_redim_in_a_loop(tmp_path):
    assert interpreted_and_checked(tmp_path, REDIM_LOOP, dialect=None) == (
        " 0  400000 \n 0  600000 \n 0  800000 \nx 0 \n"
    )
    assert interpreted_and_checked(tmp_path, REDIM_RECORDS, dialect="qbasic") == (
        " 0  3  0 \n 5 abc\n 0  3  0 \n 5 abc\n"
    )


def test_redim_preserve_is_a_located_error(tmp_path):
    done = basic2tile(tmp_path, "REDIM PRESERVE a(5)\n", "--interpret", dialect="qbasic")
    assert "prog.bas:1:1: error: REDIM PRESERVE is QuickBASIC 7 (PDS) and VB-DOS's" in (done.stderr)


# RESTORE Label: the next READ reads the first DATA after the label (QBasic 1.1
# reference, RESTORE), a label on a line of its own or before DATA.
RESTORE_LABELS = """\
READ a
RESTORE Second
READ b
RESTORE Third
READ c, d
PRINT a; b; c; d
First:
DATA 1, 2
Second:
DATA 3
Third: DATA 5, 6
"""


def test_restore_label(tmp_path):
    assert interpreted_and_checked(tmp_path, RESTORE_LABELS, dialect=None) == " 1  3  5  6 \n"
    done = basic2tile(tmp_path, "RESTORE Nowhere\n", "--interpret", dialect="qbasic")
    assert "prog.bas:1:1: error: RESTORE to non-existing label NOWHERE" in done.stderr


# COMMON SHARED in a single program: the SUBs share the variables, as with DIM SHARED;
# COMMON without SHARED does nothing (a warning says so).
COMMON = """\
COMMON SHARED total AS LONG, n
COMMON other
n = 3
Add
Add
PRINT total; n
SUB Add
  total = total + n * 100000
END SUB
"""


def test_common_shared(tmp_path):
    assert interpreted_and_checked(tmp_path, COMMON, dialect="qbasic") == " 600000  3 \n"
    done = basic2tile(tmp_path, COMMON, "--interpret", dialect="qbasic")
    assert "prog.bas:2:1: warning: COMMON without SHARED shares variables with other" in (
        done.stderr
    )
    done = basic2tile(tmp_path, "COMMON SHARED y()\n", "--interpret", dialect="qbasic")
    assert "prog.bas:1:15: error: COMMON of an array (Y()): not supported" in done.stderr


# LBOUND and UBOUND (QBasic 1.1 reference): the bounds written in DIM and REDIM (a lower
# bound not written is OPTION BASE's), UBOUND as REDIM changes it, of a record array too.
BOUNDS = """\
OPTION BASE 0
DIM m(3, 1 TO 5), v(1 TO 4) AS LONG
PRINT LBOUND(m); UBOUND(m); LBOUND(m, 2); UBOUND(m, 2); LBOUND(v); UBOUND(v)
FOR n = 2 TO 3
    REDIM w(1 TO n * 2)
    FOR i = LBOUND(w) TO UBOUND(w)
        w(i) = i
    NEXT
    PRINT UBOUND(w); w(UBOUND(w))
NEXT
"""


def test_lbound_ubound(tmp_path):
    assert interpreted_and_checked(tmp_path, BOUNDS, dialect="qbasic") == (
        " 0  3  1  5  1  4 \n 4  4 \n 6  6 \n"
    )
    text = "TYPE T\n x AS INTEGER\nEND TYPE\nDIM r(2 * 3) AS T\nPRINT UBOUND(r); LBOUND(r)\n"
    assert interpreted_and_checked(tmp_path, text, dialect="qbasic") == " 6  0 \n"
    # GW-BASIC has no UBOUND: a variable there
    assert interpreted_and_checked(tmp_path, "10 UBOUND = 3: PRINT UBOUND\n") == " 3 \n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("PRINT UBOUND(q)\n", "1:7: error: UBOUND(Q): the program has no array Q"),
        ("DIM a(5)\nPRINT UBOUND(a, 2)\n", "2:7: error: UBOUND(A, 2): A has 1 dimension(s)"),
        ("DIM a(5)\nPRINT LBOUND(a, 2)\n", "2:7: error: LBOUND(A, 2): Subscript out of range"),
        (
            "DIM a(0 TO 5)\nERASE a\nDIM a(1 TO 5)\nPRINT LBOUND(a)\n",
            "4:7: error: LBOUND(A): its DIMs give it different lower bounds",
        ),
    ],
)
def test_bound_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)
