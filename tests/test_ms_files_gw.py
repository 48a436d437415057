"""GW-BASIC's strings, files and DATA where they used to print something else: DATA
after THEN/ELSE, the MID$ statement copying from the string it changes, DOS file names
that ignore case, PRINT # zones and WIDTH #, INPUT # and LINE INPUT # on CR, LF, quotes
and NUL, and the screen's column after control characters.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) runs each program when it
is installed, in a folder holding the same input files; the texts below are what it
printed, so the tests keep their teeth without it.  Every program also runs through the
generated cuTile Python and CUDA C++ (on the CPU), which must agree with the interpreter
exactly (`interpreted_and_checked`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import assert_checks, basic2tile, interpreted_and_checked

requires_pcbasic = pytest.mark.skipif(
    not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON
)

# READ finds a DATA only where it starts a statement, after the line number or a `:`;
# one right after THEN or ELSE is never read (was: read, so line 40 printed 1).
DATA_IN_IF = """\
20 IF 0 THEN DATA 1,2 ELSE DATA 3
30 DATA 4
40 READ A: PRINT A
50 IF 1 THEN PRINT 2: DATA 5
60 IF 0 THEN PRINT 1 ELSE DATA 6: DATA 7
70 IF 0 THEN IF 1 THEN DATA 8 ELSE DATA 9
80 PRINT 3: DATA 10
90 READ A, B, C: PRINT A; B; C
100 RESTORE 70: READ A: PRINT A
"""
DATA_IN_IF_OUTPUT = """\
 4 
 2 
 3 
 5  7  10 
 10 
"""

# MID$(A$, ...) = A$ copies character by character from the string it changes; another
# variable holding the same text is a copy (was: 12312345, 12345678 for lines 10, 20).
MID_FROM_ITSELF = """\
10 A$ = "12345678": MID$(A$, 4) = A$: PRINT A$
20 A$ = "12345678": MID$(A$, 2, 3) = A$: PRINT A$
30 A$ = "12345678": MID$(A$, 1) = MID$(A$, 3): PRINT A$
40 A$ = "12345678": MID$(A$, 1) = A$: PRINT A$
50 A$ = "12345678": B$ = A$: MID$(A$, 3) = B$: PRINT A$; " "; B$
60 DIM C$(2): C$(1) = "ABCDEF": I = 1: MID$(C$(I), 3) = C$(I): PRINT C$(1)
"""
MID_FROM_ITSELF_OUTPUT = """\
12312312
11115678
34567878
12345678
12123456 12345678
ABABAB
"""

# The screen's column after control characters is GW-BASIC's: CHR$(13) and CHR$(10) start
# a new line (CHR$(13) is written as a line end), so an item after them is not wrapped
# early; TAB goes to the next multiple of 8; CHR$(11), CHR$(12) to column 0; CHR$(28),
# CHR$(29) one right or left; BEL none; an item's width counts CHR$(8) as -1 and none for
# an item with a line end.  Was: every character took a column, CHR$(13) was written raw.
# After a full line POS is 1.
SCREEN_CONTROLS = """\
10 PRINT STRING$(70, "A"); CHR$(13); STRING$(20, "B"); POS(0)
20 PRINT "X"; CHR$(13); "Y"; POS(0): PRINT "AB"; CHR$(13); CHR$(10); "Y"; POS(0)
30 PRINT STRING$(70, "I"); CHR$(10); STRING$(11, "J"); POS(0)
40 PRINT STRING$(60, "O"); "P" + CHR$(13) + STRING$(30, "Q"); POS(0)
50 PRINT STRING$(70, "G"); CHR$(8); CHR$(8); STRING$(11, "H"); POS(0)
60 PRINT STRING$(75, "D"); CHR$(9); "E"; POS(0): PRINT "X"; CHR$(7); "Y"; POS(0)
70 PRINT STRING$(79, "M"); CHR$(29); "N"; POS(0)
80 PRINT STRING$(79, "B"); CHR$(28); CHR$(28); "C"; POS(0)
90 PRINT "K"; CHR$(12); "L"; POS(0): PRINT "XX"; CHR$(11); "Y"; POS(0)
100 PRINT STRING$(80, "A"); POS(0)
"""
SCREEN_CONTROLS_OUTPUT = (
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
    "BBBBBBBBBBBBBBBBBBBB 21 \n"
    "X\n"
    "Y 2 \n"
    "AB\n"
    "\n"
    "Y 2 \n"
    "IIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIII\n"
    "JJJJJJJJJJJ 12 \n"
    "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOP\n"
    "QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ 31 \n"
    "GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG\x08\x08\n"
    "HHHHHHHHHHH 12 \n"
    "DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD\tE 2 \n"
    "X\x07Y 3 \n"
    "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM\x1dN\n"
    " 80 \n"
    "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB\x1c\x1cC 3 \n"
    "K\x0cL 2 \n"
    "XX\x0bY 2 \n"
    + "A" * 80  # a full line: POS is 1 (was: 81)
    + "\n 1 \n"
)

PROGRAMS = {
    "data_in_if": (DATA_IN_IF, DATA_IN_IF_OUTPUT),
    "mid_from_itself": (MID_FROM_ITSELF, MID_FROM_ITSELF_OUTPUT),
    "screen_controls": (SCREEN_CONTROLS, SCREEN_CONTROLS_OUTPUT),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_print_what_gw_basic_printed(tmp_path, name):
    text, expected = PROGRAMS[name]
    assert interpreted_and_checked(tmp_path, text) == expected


@requires_pcbasic
@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_as_gw_basic_prints_them(tmp_path, name):
    text, expected = PROGRAMS[name]
    assert pcbasic_oracle.run(text, folder=tmp_path) == expected


def test_data_after_then_is_not_read_in_extended_basic_either(tmp_path):
    """One rule in every dialect that has IF ... THEN statements (bwbasic 2.20 does not
    read `IF 0 THEN DATA 1,2 ELSE DATA 3` either: it prints 4)."""
    text = "\n".join(DATA_IN_IF.splitlines()[:3]) + "\n"
    assert interpreted_and_checked(tmp_path, text, dialect="extended") == " 4 \n"


def run_with_files(
    folder: Path, text: str, files: dict[str, bytes], *, oracle: bool, dialect: str = "ms"
) -> str:
    """What the program prints in `folder` holding `files`: through PC-BASIC (`oracle`;
    for --dialect ms with its soft-linefeed option: a lone LF is a character, as in
    GW-BASIC), else through the interpreter after both targets agreed with it."""
    for name, data in files.items():
        (folder / name).write_bytes(data)
    if oracle:
        return pcbasic_oracle.run(text, folder=folder, soft_linefeed=dialect == "ms")
    return interpreted_and_checked(folder, text, dialect=dialect)


# DOS file names ignore case: an existing file matches whatever the case of the name, in
# OPEN (every mode), KILL and NAME; a new file is written with the name as written (was:
# "File not found" in line 10).
CASELESS_FILES = {"OUTPUT.TXT": b"HELLO\r\n", "lower.txt": b"low\r\n"}
CASELESS = """\
10 OPEN "output.txt" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE
20 OPEN "I", #1, "Lower.Txt": LINE INPUT #1, L$: PRINT L$: CLOSE
30 OPEN "Output.Txt" FOR APPEND AS #1: PRINT #1, "MORE": CLOSE
40 OPEN "OUTPUT.TXT" FOR INPUT AS #1: WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT L$: WEND: CLOSE
50 OPEN "new.txt" FOR OUTPUT AS #1: PRINT #1, "NEW": CLOSE
60 OPEN "NEW.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE
70 NAME "new.TXT" AS "renamed.txt"
80 OPEN "RENAMED.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE
90 KILL "Renamed.Txt"
"""
CASELESS_OUTPUT = "HELLO\nlow\nHELLO\nMORE\nNEW\nNEW\n"


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_file_names_ignore_case(tmp_path, oracle):
    assert run_with_files(tmp_path, CASELESS, CASELESS_FILES, oracle=oracle) == CASELESS_OUTPUT
    names = sorted(p.name for p in tmp_path.iterdir() if p.name != "prog.bas")
    assert names == ["OUTPUT.TXT", "lower.txt"]  # appended to; the new file KILLed
    assert (tmp_path / "OUTPUT.TXT").read_bytes().startswith(b"HELLO\r\nMORE")


def test_a_new_file_keeps_the_name_as_written(tmp_path):
    """PC-BASIC writes it as NEW.TXT (DOS names are upper case): a difference that no
    program can see, as every name is looked up without case."""
    text = '10 OPEN "new.txt" FOR OUTPUT AS #1: PRINT #1, "X": CLOSE\n'
    interpreted_and_checked(tmp_path, text)
    assert (tmp_path / "new.txt").read_text() == "X\n"


# A file open under one spelling is open under every other (GW-BASIC: "File already
# open in 10", and in 20).
@pytest.mark.parametrize(
    "line",
    [
        '10 OPEN "a.txt" FOR INPUT AS #1: OPEN "A.TXT" FOR OUTPUT AS #2',
        '10 OPEN "a.txt" FOR INPUT AS #1\n20 KILL "A.TXT"',
    ],
    ids=["open", "kill"],
)
def test_a_file_open_under_another_spelling_is_open(tmp_path, line):
    (tmp_path / "A.TXT").write_bytes(b"x\r\n")
    text = line + '\n30 PRINT "NOT HERE"\n'
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.returncode == 1 and "error: File already open (" in done.stderr
    assert_checks(tmp_path, text)  # the same error on the same line
    if pcbasic_oracle.AVAILABLE:
        line_number = line.splitlines()[-1].split()[0]
        expected = f"File already open in {line_number}\n"
        assert pcbasic_oracle.run(text, folder=tmp_path) == expected


# INPUT # and LINE INPUT # read as GW-BASIC does (PC-BASIC; under --dialect extended with
# its text files, which end a line with CR LF, CR or LF): NULs dropped from items (kept
# by LINE INPUT #), an empty line an empty item, quotes removed (not after a NUL), a line
# end inside quotes CHR$(13), an item or a line cut after 255 characters (the rest comes
# next; after a line of exactly 255 its line end is an empty line), a number read as VAL
# reads it.  Was: line ends skipped before an item, NULs kept, items and lines of any
# length, `&H10` read as 0.
READ_ITEMS_FILES = {
    "ITEMS.TXT": (
        b'AB\nCD,EF\r\n"Q,Q"X,  "R\r\nR" ,S\x00T\r\n  U V  \r\n\r\n\x00"A,B"\r\n'
        + b"P" * 300
        + b"\r\n"
    ),
    "NUMBERS.TXT": b'1\n2,3\r\n4 5\n\n6\x007,"8",&H10,1D2, -3 ,12AB\r\n',
    "LINES.TXT": b"AB\nCD\r\nEF\rGH\n\r\nIJ\x00K\r\n"
    + b"X" * 300
    + b"\r\n"
    + b"Y" * 255
    + b"\r\nZ",
}
READ_ITEMS = """\
10 OPEN "ITEMS.TXT" FOR INPUT AS #1
20 WHILE NOT EOF(1): INPUT #1, S$: PRINT "["; LEFT$(S$, 20); "]"; LEN(S$); INSTR(S$, CHR$(13)): WEND
30 CLOSE: OPEN "NUMBERS.TXT" FOR INPUT AS #1
40 WHILE NOT EOF(1): INPUT #1, X: PRINT X;: WEND: PRINT
50 CLOSE: OPEN "LINES.TXT" FOR INPUT AS #1
60 WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT "["; LEFT$(L$, 20); "]"; LEN(L$); INSTR(L$, CHR$(0)): WEND
"""
READ_ITEMS_OUTPUT = """\
[AB] 2  0 
[CD] 2  0 
[EF] 2  0 
[Q,Q] 3  0 
[X] 1  0 
[R
R] 3  2 
[ST] 2  0 
[U V] 3  0 
[] 0  0 
["A] 2  0 
[B"] 2  0 
[PPPPPPPPPPPPPPPPPPPP] 255  0 
[PPPPPPPPPPPPPPPPPPPP] 45  0 
 1  2  3  4  5  0  67  0  16  100 -3  12 
[AB] 2  0 
[CD] 2  0 
[EF] 2  0 
[GH] 2  0 
[] 0  0 
[IJ\0K] 4  3 
[XXXXXXXXXXXXXXXXXXXX] 255  0 
[XXXXXXXXXXXXXXXXXXXX] 45  0 
[YYYYYYYYYYYYYYYYYYYY] 255  0 
[] 0  0 
[Z] 1  0 
"""


# Under --dialect ms a lone LF is a character, as in GW-BASIC (its manual: LINE INPUT #
# reads "up to a carriage return", "a line feed/carriage return sequence is preserved";
# its source, DSKCOM.ASM, drops an LF, and a CR after it, from an unquoted item): PC-BASIC
# with its soft-linefeed option, not its default, which reads an LF as a line end.  A
# quoted CR LF is kept whole (both print as line ends: `[R`, ``, `R]`).  (Was: every LF
# ended a line, as above.)
READ_ITEMS_GW_OUTPUT = """\
[ABCD] 4  0 
[EF] 2  0 
[Q,Q] 3  0 
[X] 1  0 
[R\n\nR] 4  2 
[ST] 2  0 
[U V] 3  0 
[] 0  0 
["A] 2  0 
[B"] 2  0 
[PPPPPPPPPPPPPPPPPPPP] 255  0 
[PPPPPPPPPPPPPPPPPPPP] 45  0 
 12  3  4  567  0  16  100 -3  12 
[AB\nCD] 5  0 
[EF] 2  0 
[GH\n\n\nIJ\x00K] 9  8 
[XXXXXXXXXXXXXXXXXXXX] 255  0 
[XXXXXXXXXXXXXXXXXXXX] 45  0 
[YYYYYYYYYYYYYYYYYYYY] 255  0 
[] 0  0 
[Z] 1  0 
"""


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_input_and_line_input_from_a_file(tmp_path, oracle):
    output = run_with_files(tmp_path, READ_ITEMS, READ_ITEMS_FILES, oracle=oracle)
    assert output == READ_ITEMS_GW_OUTPUT


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_other_dialects_end_a_line_at_an_lf(tmp_path, oracle):
    files = READ_ITEMS_FILES
    output = run_with_files(tmp_path, READ_ITEMS, files, oracle=oracle, dialect="extended")
    assert output == READ_ITEMS_OUTPUT


# PRINT # and WRITE # lay a line out as GW-BASIC does in a file: 14-column zones, a column
# that is a byte (after 255 it is 0 again, so a zone is reached in 16 blanks where the
# column ran on before: 12), control characters that take no column; WIDTH #n, w breaks
# a line before an item that would pass column w (not WRITE #'s, written whole), and
# `,` in the last zone ends the line; WIDTH 255, the default, never breaks one.
# Was: the zones ran on past 255, and WIDTH # was a syntax error.
FILE_LAYOUT = """\
10 OPEN "Z.TXT" FOR OUTPUT AS #1
20 PRINT #1, STRING$(250, "A"), "B", "C"
30 PRINT #1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
40 PRINT #1, STRING$(255, "A"); "BC", "D"; TAB(5); "E"; SPC(300); "F"
50 PRINT #1, "AB"; CHR$(13); "C", "D"; CHR$(10); "E", "F"; CHR$(9); "G", "H"
60 WIDTH #1, 255: PRINT #1, STRING$(250, "A"), "B", "C"
70 WIDTH #1, 20: PRINT #1, "A", "B", "C"
80 PRINT #1, "1234567890123456789012345"
90 PRINT #1, "12345678901234"; "123456"; "X"
100 PRINT #1, 12345678; 1234567; 123456
110 PRINT #1, "Q"; TAB(30); "R"; SPC(25); "S"
120 PRINT #1, USING "####"; 1; 22; 333; 4444; 55555
130 WRITE #1, "ABCDEFGH", 12345, "IJKLMNOP"
140 WIDTH #1, 30: PRINT #1, "A", "B", "C", "D"
150 WIDTH #1, 10: PRINT #1, "A", "B"; "CDEFGHIJKL"; "M"
160 WIDTH #1, 1: PRINT #1, "AB"; "C", "D"
170 CLOSE
"""
A250 = "A" * 250
ZONES = "".join(f" {n}".ljust(14) for n in range(1, 19))
FILE_LAYOUT_TEXT = (
    f"{A250}  B             C\n"
    + ZONES  # " 19 " ends in column 256: the column is 0 again, the next zone is 14
    + " 19 "
    + " " * 14
    + " 20 \n"
    + "A" * 255
    + "BC"
    + " " * 13
    + "D\n    E"
    + " " * 45
    + "F\n"  # TAB(5): a new line
    + "AB\rC             D\nE            F\tG            H\n"  # LF and TAB: no column
    + f"{A250}  B             C\n"
    + "A\nB\nC\n1234567890123456789012345\n12345678901234123456\nX\n"
    + " 12345678  1234567 \n 123456 \nQ        R     S\n   1  22 3334444\n%55555\n"
    + '"ABCDEFGH",12345,"IJKLMNOP"\n'
    + "A             B\nC             D\n"
    + "A             \nB\nCDEFGHIJKL\nM\n"
    + "AB\nC             \nD\n"
)


# GW-BASIC ends a file's lines with CR LF; the CHR$(10) of line 50 stays a lone LF (was:
# every line ended with LF).
FILE_LAYOUT_BYTES = FILE_LAYOUT_TEXT.replace("\n", "\r\n").replace("D\r\nE", "D\nE").encode()


def test_print_to_a_file_lays_out_as_gw_basic(tmp_path):
    assert interpreted_and_checked(tmp_path, FILE_LAYOUT) == ""  # both targets wrote the same
    assert (tmp_path / "Z.TXT").read_bytes() == FILE_LAYOUT_BYTES


@requires_pcbasic
def test_print_to_a_file_as_gw_basic_lays_it_out(tmp_path):
    assert pcbasic_oracle.run(FILE_LAYOUT, folder=tmp_path) == ""
    # (PC-BASIC ends the file with a Ctrl-Z; we do not: reading stops there either way.)
    assert (tmp_path / "Z.TXT").read_bytes().rstrip(b"\x1a") == FILE_LAYOUT_BYTES


@pytest.mark.parametrize(
    "line, message",
    [
        ('10 OPEN "Z.TXT" FOR OUTPUT AS #1: WIDTH #1, 256', "Illegal function call"),
        ("10 WIDTH #2, 40", "Bad file number"),
    ],
)
def test_file_width_errors(tmp_path, line, message):
    """GW-BASIC (PC-BASIC): "Illegal function call in 10", "Bad file number in 10"."""
    text = line + '\n20 PRINT "NOT HERE"\n'
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.returncode == 1 and f"error: {message} (" in done.stderr
    assert_checks(tmp_path, text)
    if pcbasic_oracle.AVAILABLE:
        assert pcbasic_oracle.run(text, folder=tmp_path) == f"{message} in 10\n"


# Under --dialect ms PRINT # and WRITE # end a line with CR LF, as GW-BASIC does (was: LF);
# a CHR$(10) printed is a lone LF, a CHR$(13) a lone CR, and reading them back LINE INPUT #
# keeps the LF in its line and ends one at the CR; INPUT # drops the LF from an unquoted
# item (`1<LF>2` is 12).  APPEND adds after the last line.  PC-BASIC with soft-linefeed;
# it also ends the file with a Ctrl-Z, which we do not write (so LOF is one less here).
LINE_ENDS = """\
10 OPEN "L.TXT" FOR OUTPUT AS #1
20 PRINT #1, "A"; CHR$(10); "B": PRINT #1, "C"; CHR$(13); "D": WRITE #1, "E", 1
30 PRINT #1, "1"; CHR$(10); "2,"; CHR$(10); "X": CLOSE
40 OPEN "L.TXT" FOR INPUT AS #1
50 WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT LEN(L$); INSTR(L$, CHR$(10)): WEND
60 CLOSE: OPEN "L.TXT" FOR INPUT AS #1: INPUT #1, A$, B$, C$, D$, E, F, G$: PRINT A$; "|"; B$; "|"; C$; "|"; D$; "|"; E; F; G$
70 CLOSE: OPEN "L.TXT" FOR APPEND AS #1: PRINT #1, "Z": CLOSE
"""
LINE_ENDS_OUTPUT = """\
 3  2 
 1  0 
 1  0 
 5  0 
 6  2 
AB|C|D|E| 1  12 X
"""
LINE_ENDS_BYTES = b'A\nB\r\nC\rD\r\n"E",1\r\n1\n2,\nX\r\nZ\r\n'


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_files_end_lines_with_cr_lf(tmp_path, oracle):
    assert run_with_files(tmp_path, LINE_ENDS, {}, oracle=oracle) == LINE_ENDS_OUTPUT
    assert (tmp_path / "L.TXT").read_bytes().rstrip(b"\x1a") == LINE_ENDS_BYTES


# APPEND writes over the Ctrl-Z that ends a DOS file, as PC-BASIC does (was: after it, so
# that reading stopped before what was appended).
APPEND_AFTER_CTRL_Z = """\
10 OPEN "A.TXT" FOR APPEND AS #1: PRINT #1, "NEW": CLOSE
20 OPEN "A.TXT" FOR INPUT AS #1: WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT L$: WEND
"""


@pytest.mark.parametrize("oracle", [False, pytest.param(True, marks=requires_pcbasic)])
def test_append_writes_over_a_ctrl_z(tmp_path, oracle):
    files = {"A.TXT": b"OLD\r\n\x1a"}
    assert run_with_files(tmp_path, APPEND_AFTER_CTRL_Z, files, oracle=oracle) == "OLD\nNEW\n"
    assert (tmp_path / "A.TXT").read_bytes().rstrip(b"\x1a") == b"OLD\r\nNEW\r\n"
