"""Programs in the style of published listings of the 8-bit and mainframe BASICs.

Each program runs through the interpreter and both generated targets (cuTile Python and
CUDA C++ on the CPU, which must agree with the interpreter exactly); the expected text is
held here.  The oracle of each is named with it:

- Commodore BASIC V2 and Applesoft BASIC: no emulator here, so the expected text is
  reasoned from the manuals (Commodore 64 Programmer's Reference Guide, "Variables": only
  the first two characters of a name count; Applesoft II BASIC Programming Reference
  Manual, "Variable names": likewise; GET waits for / reads one key into a string).  The
  programs print integers and strings only, whose text is the same as GW-BASIC's there
  (a space for the sign, a space after) except where said.
- MBASIC 5.x (CP/M): PC-BASIC 2.0.8 (GW-BASIC 3.23, `tests/pcbasic_oracle.py`), whose
  number text and PRINT USING are MBASIC 5's; checked against it when it is installed.
- Dartmouth BASIC (4th edition, "BASIC" by Kemeny and Kurtz): DET is the determinant of
  the matrix the last MAT INV inverted; the numbers are worked out by hand.
"""

from __future__ import annotations

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, interpreted_and_checked

# ------------------------------------------------------------ two-character names

# Commodore 64 style: COUNT and CO, HITS and HI, ROWS() and RO(), MSG$ and MS$, the DEF FN
# parameter XX1 and XX are one variable each on the machine.  (No name holds a reserved
# word: the machine's tokenizer would split SCORE into SC OR E.)
COMMODORE_NAMES = """\
10 REM COMMODORE 64 STYLE: TWO-CHARACTER NAMES
20 COUNT = 0: HITS = 0
30 FOR TRY = 1 TO 5
40 CO = CO + 1
50 IF TRY > 2 THEN HI = HI + 2
60 NEXT TRY
70 PRINT "COUNT";COUNT;"HITS";HITS
80 DIM ROWS(5): RO(3) = 9: PRINT ROWS(3)
90 MSG$ = "AB": MS$ = MS$ + "C": PRINT MSG$
100 DEF FN DB(XX1) = XX * 2: PRINT FN DB(21)
"""
COMMODORE_NAMES_OUTPUT = """\
COUNT 5 HITS 6 
 9 
ABC
 42 
"""


def test_name_chars_2_reads_names_as_commodore_basic(tmp_path):
    out = interpreted_and_checked(tmp_path, COMMODORE_NAMES, "--name-chars", "2")
    assert out == COMMODORE_NAMES_OUTPUT


def test_names_that_two_characters_join_are_warned_about(tmp_path):
    """Without --name-chars the names stay apart (GW-BASIC's 40 characters), and each
    pair the 8-bit machines would join gets a located warning."""
    done = basic2tile(tmp_path, COMMODORE_NAMES, "--interpret")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "COUNT 0 HITS 0 \n 0 \nAB\n 0 \n"
    warnings = [line for line in done.stderr.splitlines() if ": warning: " in line]
    assert [w.split(": warning: ")[1].split(" in ")[0] for w in warnings] == [
        "CO and COUNT are one variable",
        "HI and HITS are one variable",
        "RO and ROWS are one array",
        "MS$ and MSG$ are one variable",
        "XX1 and XX are one variable",
    ]
    assert warnings[0].startswith("prog.bas:4:4: warning:")
    assert "note: --name-chars 2 reads names as those machines do" in done.stderr


def test_no_name_warning_for_gw_basics_dotted_names(tmp_path):
    """A `.` in a name is GW-BASIC's alone: PLAYER.X and PLAYER.Y warn of nothing."""
    text = "10 PLAYER.X = 1: PLAYER.Y = 2: PRINT PLAYER.X; PLAYER.Y\n"
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.stdout == " 1  2 \n"
    assert "warning" not in done.stderr


@pytest.mark.parametrize("dialect", ["qbasic", "extended"])
def test_no_name_warning_outside_microsoft_basic(tmp_path, dialect):
    """QuickBASIC's and extended BASIC's programs use long names by design: `total` and
    `tot` stay quiet there."""
    text = "10 total = 1: tot = 2\n20 PRINT total; tot\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=dialect)
    assert done.stdout == " 1  2 \n"
    assert "warning" not in done.stderr


# ------------------------------------------------------------ Applesoft / Commodore GET

# Applesoft style: GET A$ reads one key (a string variable: never GW-BASIC's GET of a
# record, whose file number is a number).  Keys come from standard input.
APPLESOFT_GET = """\
10 PRINT "PLAY AGAIN (Y/N)?"
20 GET A$: IF A$ = "" THEN 20
30 IF A$ = "Y" THEN PRINT "AGAIN": GOTO 10
40 DIM K$(2): GET K$(1): PRINT "KEY ";K$(1);ASC(K$(1))
50 PRINT "BYE"
"""
APPLESOFT_GET_OUTPUT = """\
PLAY AGAIN (Y/N)?
AGAIN
PLAY AGAIN (Y/N)?
KEY Q 81 
BYE
"""


def test_get_of_a_string_reads_a_key(tmp_path):
    out = interpreted_and_checked(tmp_path, APPLESOFT_GET, dialect=None, stdin="YNQ\n")
    assert out == APPLESOFT_GET_OUTPUT


def test_get_of_a_key_pins_microsoft_basic(tmp_path):
    done = basic2tile(tmp_path, APPLESOFT_GET, "--interpret", dialect=None, stdin="N")
    assert "prog.bas:2: note: GET of a key into a string: assuming --dialect ms" in done.stderr


# Applesoft's screen statements: alone as a statement each does nothing to the text (a
# warning says so); anywhere else HOME is a name, as in GW-BASIC.
APPLESOFT_SCREEN = """\
10 HOME
20 TEXT : NORMAL
30 PRINT "TITLE"
40 INVERSE : PRINT "MENU" : NORMAL
50 HOME = 3: PRINT HOME
60 IF HOME = 3 THEN HOME
70 PRINT "END"
"""


def test_applesoft_screen_statements_have_no_effect(tmp_path):
    out = interpreted_and_checked(tmp_path, APPLESOFT_SCREEN, dialect=None)
    assert out == "TITLE\nMENU\n 3 \nEND\n"
    done = basic2tile(tmp_path, APPLESOFT_SCREEN, "--interpret", dialect=None)
    assert "prog.bas:1: note: Applesoft's statement HOME: assuming --dialect ms" in done.stderr
    assert (
        "prog.bas:1:4: warning: HOME has no effect: the output is a text stream, not a screen"
        in done.stderr
    )
    assert "prog.bas:4:4: warning: INVERSE has no effect: the output is plain text" in done.stderr


def test_applesoft_onerr_goto_is_a_located_error(tmp_path):
    """`ONERR GOTO 100` was read as `ON ERR GOTO 100` (a jump on ERR, 0 before any
    error: no jump) and the program ran on without its trap."""
    text = '10 ONERR GOTO 100\n20 X = 1/0\n30 PRINT "NOT HERE"\n100 PRINT "TRAPPED"\n'
    for dialect in (None, "ms"):
        done = basic2tile(tmp_path, text, "--interpret", dialect=dialect)
        assert done.returncode == 1
        assert done.stdout == ""
        assert done.stderr.startswith(
            "prog.bas:1:4: error: unsupported statement ONERR GOTO (Applesoft BASIC)\n"
            "    10 ONERR GOTO 100\n"
            "       ^^^^^\n"
        )


def test_on_err_goto_with_a_space_stays_microsofts(tmp_path):
    """GW-BASIC's `ON ERR GOTO` (a jump on the value of ERR) is unchanged."""
    text = "10 ON ERR GOTO 30\n20 PRINT 1\n30 PRINT 2\n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=None)
    assert done.stdout == " 1 \n 2 \n"


# ------------------------------------------------------------ MBASIC 5.x (CP/M)

MBASIC = """\
10 REM MBASIC 5.21 STYLE: CP/M LISTING
20 DEFINT I-N
30 DIM A(10), B$(5)
40 FOR I=1 TO 10: A(I)=I*I/3: NEXT
50 FOR I=1 TO 10 STEP 3: PRINT USING "##.### ";A(I);: NEXT: PRINT
60 PRINT USING "\\   \\";"ABCDEFGH"
70 PRINT USING "$$###.##";12.5;-3.25
80 PRINT USING "**#####.#";42.42
90 PRINT USING "+##.#";3.14;-3.14
100 PRINT USING "###,###.##";1234567.891
110 PRINT USING "!";"XYZ"
120 PRINT USING "&";"AMP"
130 PRINT USING "#.##^^^^";12345
140 PRINT USING "##";123
150 X=1E+20: PRINT X, -X/7
160 PRINT 1/7, 1#/7, 2^31, 2^-20
170 PRINT CINT(2.5), CINT(3.5), INT(-2.5), FIX(-2.5)
180 PRINT 7\\2, 7 MOD 3, -7 MOD 3, NOT 0, 5 AND 3, 5 OR 3, 5 XOR 3
190 PRINT HEX$(255), OCT$(8), STR$(3.5), VAL("  -1.5E2")
200 PRINT SPACE$(3)+"X", STRING$(3,"*"), INSTR("HELLO","L"), INSTR(4,"HELLO","L")
210 A$="HELLO": MID$(A$,2,3)="IPP": PRINT A$
220 PRINT LEN(""), ASC("A"), CHR$(66)
230 N=0: FOR I=1 TO 0: N=N+1: NEXT: PRINT N; I
240 WHILE N<3: N=N+1: WEND: PRINT N
250 ON 3 GOSUB 300,310,320: PRINT "BACK"
260 PRINT TAB(5);"T5";TAB(2);"T2"
270 PRINT "A";SPC(4);"B"
280 PRINT 1;-1;0;1.5;-.5;100000;1000000;10000000
290 END
300 PRINT "S1": RETURN
310 PRINT "S2": RETURN
320 PRINT "S3": RETURN
"""
MBASIC_OUTPUT = """\
 0.333  5.333 16.333 33.333 
ABCDE
  $12.50  -$3.25
*****42.4
 +3.1 -3.1
%1,234,567.89
X
AMP
0.12E+05
%123
 1E+20        -1.428572E+19 
 .1428572      .1428571428571429           2.147484E+09 
 9.536743E-07 
 3             4            -3            -2 
 3             1            -1            -1             1 
 7             6 
FF            10             3.5          -150 
   X          ***            3             4 
HIPPO
 0             65           B
 0  2 
 3 
S3
BACK
    T5
 T2
A    B
 1 -1  0  1.5 -.5  100000  1000000  10000000 
"""


def test_mbasic_listing(tmp_path):
    assert interpreted_and_checked(tmp_path, MBASIC) == MBASIC_OUTPUT


@pcbasic_oracle.requires_pcbasic
def test_mbasic_listing_against_pcbasic():
    assert pcbasic_oracle.pcbasic_output(MBASIC) == MBASIC_OUTPUT


# ------------------------------------------------------------ Dartmouth BASIC: DET

# det [[0, 2], [3, 4]] = -6 (a row swap in the elimination); det of the diagonal 2, 4, 8
# is 64; before any MAT INV, DET is 0.
DARTMOUTH_DET = """\
10 DIM A(2,2), B(2,2), C(3,3), D(3,3)
20 PRINT DET
30 MAT READ A
40 DATA 0, 2, 3, 4
50 MAT B = INV(A)
60 MAT PRINT B;
70 PRINT DET
80 MAT READ C
90 DATA 2,0,0,0,4,0,0,0,8
100 MAT D = INV(C)
110 PRINT "DET ="; DET
120 END
"""
DARTMOUTH_DET_OUTPUT = """\
 0 
-.66666667  .33333333 
 .5  0 
-6 
DET = 64 
"""


def test_dartmouth_det_is_the_determinant_of_the_last_inverse(tmp_path):
    out = interpreted_and_checked(tmp_path, DARTMOUTH_DET, dialect="dartmouth")
    assert out == DARTMOUTH_DET_OUTPUT


def test_dartmouth_det_of_an_inverse_is_the_reciprocal(tmp_path):
    """det [[1, 2], [3, 4]] = -2; the inverse's determinant is -1/2."""
    text = "10 DIM A(2,2),B(2,2),C(2,2)\n20 MAT READ A\n30 DATA 1,2,3,4\n"
    text += "40 MAT B = INV(A)\n50 PRINT DET\n60 MAT C = INV(B)\n70 PRINT DET\n"
    out = interpreted_and_checked(tmp_path, text, dialect="dartmouth")
    assert out == "-2 \n-.5 \n"
