"""Loading a program as GW-BASIC loads it: the bytes of the file (Ctrl-Z, CRLF, a lone
CR), the order of its lines, lines that do not parse, and the spellings GW-BASIC's
tokenizer accepts.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23).  `loaded_by_pcbasic` gives it the file's exact
bytes through `LOAD "PROG.BAS"` then RUN (tests/pcbasic_oracle.py types lines in, which
sorts them itself), so the file's bytes, the order of its lines, a line number alone and
a line that does not parse are checked as GW-BASIC loads them; GW-BASIC's manual says the
same of LOAD (an ASCII file ends at Ctrl-Z; each line is entered as if typed, so lines
are stored by number and a number entered again replaces or, alone, deletes its line).
The expected texts are what PC-BASIC printed, held here so the tests keep their teeth
without it.  Every program runs in the interpreter and through the generated cuTile
Python and CUDA C++ (on the CPU), which must agree with it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, checked_run


def oracle(program: str, expected: str) -> None:
    """PC-BASIC, where installed, prints `expected` for `program` (typed in)."""
    if pcbasic_oracle.AVAILABLE:
        assert pcbasic_oracle.run(program) == expected


# Runs in the child: LOAD the file as it is, then RUN (PC-BASIC's Python API).
_LOAD_DRIVER = r"""
import io, sys, pcbasic
with pcbasic.Session(output_streams=sys.stdout.buffer, input_streams=io.BytesIO(b""),
                     devices={"C:": sys.argv[1]}, current_device="C:") as session:
    session.execute('LOAD "PROG.BAS"')
    session.execute("RUN")
"""


def loaded_by_pcbasic(tmp_path: Path, raw: bytes, expected: str) -> None:
    """PC-BASIC, where installed, prints `expected` for the file `raw` loaded with LOAD."""
    if not pcbasic_oracle.AVAILABLE:
        return
    folder = tmp_path / "pcbasic"
    folder.mkdir()
    (folder / "PROG.BAS").write_bytes(raw)
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_DRIVER, str(folder)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode("latin-1").replace("\r\n", "\n").replace("\xff", "") == expected


# --------------------------------------------------------------------------- the file's bytes

DOS_FILE = b'10 PRINT "A";\r\n20 PRINT "B"\r\n30 END\r\n\x1a'


def test_crlf_lines_and_ctrl_z_end_the_text(tmp_path):
    """GW-BASIC's SAVE "P",A writes CRLF lines and DOS editors a Ctrl-Z after the last:
    the Ctrl-Z ends the text (GW-BASIC's manual, LOAD), in every dialect."""
    done = checked_run(tmp_path, DOS_FILE)
    assert (done.returncode, done.stdout, done.stderr) == (0, "AB\n", "")
    loaded_by_pcbasic(tmp_path, DOS_FILE, "AB\n")


def test_text_after_ctrl_z_is_not_read(tmp_path):
    raw = b'10 PRINT "A"\r\n\x1a20 PRINT "B"\r\n@@@\r\n'
    done = checked_run(tmp_path, raw)
    assert (done.returncode, done.stdout) == (0, "A\n")
    loaded_by_pcbasic(tmp_path, raw, "A\n")


def test_lone_cr_ends_a_line(tmp_path):
    raw = b'10 PRINT "A";\r20 PRINT "B"\r'
    done = checked_run(tmp_path, raw)
    assert (done.returncode, done.stdout) == (0, "AB\n")
    loaded_by_pcbasic(tmp_path, raw, "AB\n")


@pytest.mark.parametrize("dialect", ["extended", "ecma55", "dartmouth"])
def test_ctrl_z_ends_the_text_in_every_dialect(tmp_path, dialect):
    done = basic2tile(tmp_path, b"10 PRINT 1\r\n20 END\r\n\x1a", "--interpret", dialect=dialect)
    assert (done.returncode, done.stdout, done.stderr) == (0, " 1 \n", "")


# --------------------------------------------------------------------------- the lines' order

OUT_OF_ORDER = """\
30 PRINT "THIRTY": GOSUB 100
10 PRINT "TEN"
20 PRINT "OLD TWENTY"
100 PRINT "SUB": RETURN
20 PRINT "NEW TWENTY"
40 END
"""
OUT_OF_ORDER_OUTPUT = "TEN\nNEW TWENTY\nTHIRTY\nSUB\n"


def test_lines_run_in_order_of_number_and_a_repeated_number_replaces(tmp_path):
    """GW-BASIC stores each line by its number as it is typed or loaded, and a number
    typed again replaces its line (PC-BASIC, typing these lines in, agrees)."""
    raw = OUT_OF_ORDER.replace("\n", "\r\n").encode() + b"\x1a"
    done = checked_run(tmp_path, raw)
    assert (done.returncode, done.stdout) == (0, OUT_OF_ORDER_OUTPUT)
    warnings = [line for line in done.stderr.splitlines() if ": warning: " in line]
    moved = "is out of order: it follows {} (line {}); it is put in its place by number"
    assert warnings == [
        "prog.bas:2:1: warning: line number 10 " + moved.format(30, 1),
        "prog.bas:3:1: warning: line number 20 " + moved.format(30, 1),
        "prog.bas:5:1: warning: line number 20 again: this line replaces the one on line 3",
        "prog.bas:6:1: warning: line number 40 " + moved.format(100, 4),
    ]
    oracle(OUT_OF_ORDER, OUT_OF_ORDER_OUTPUT)
    loaded_by_pcbasic(tmp_path, raw, OUT_OF_ORDER_OUTPUT)


def test_a_line_number_alone_deletes_its_line(tmp_path):
    """As typed in GW-BASIC's editor, and in PC-BASIC's LOAD of this file."""
    raw = b'10 PRINT "A"\r\n20 PRINT "B"\r\n30 PRINT "C"\r\n20\r\n'
    done = checked_run(tmp_path, raw)
    assert (done.returncode, done.stdout) == (0, "A\nC\n")
    assert "prog.bas:4:1: warning: line number 20 alone deletes the line 20 on line 2" in (
        done.stderr
    )
    loaded_by_pcbasic(tmp_path, raw, "A\nC\n")
    # With no line of that number GW-BASIC's LOAD stops ("Undefined line number").
    done = basic2tile(tmp_path, b'10 PRINT "A"\r\n20\r\n', "--interpret")
    assert done.returncode != 0
    assert "prog.bas:2:3: error: expected a statement after the line number" in done.stderr


def test_locations_stay_on_the_lines_of_the_file(tmp_path):
    """A run-time error of a moved line names the line of the file where it stands."""
    done = basic2tile(tmp_path, b"20 PRINT 1: X% = 40000\r\n10 PRINT 0\r\n", "--interpret")
    assert done.stdout == " 0 \n 1 \nOverflow in 20\n"  # GW-BASIC's line on the screen
    assert "prog.bas:1:" in done.stderr.splitlines()[-3] and "Overflow" in done.stderr


@pytest.mark.parametrize("dialect", ["extended", "dartmouth"])
def test_other_dialects_keep_the_order_error(tmp_path, dialect):
    done = basic2tile(tmp_path, "20 PRINT 2\n10 PRINT 1\n", "--interpret", dialect=dialect)
    assert done.returncode != 0
    assert "error: line number 10 is out of order" in done.stderr
    assert "note: --dialect ms puts the lines in order" in done.stderr


# --------------------------------------------------------------------------- GW-BASIC's spellings

SPELLINGS = """\
10 GOSUB 100MEDIAN: PRINT "BACK"
20 GOSUB 100 XYZ: PRINT "AGAIN"
30 DIM S1$, N: S1$ = "X": PRINT S1$
40 DEF FN ST(A#) = A# * 2: PRINT FN ST(3); FNST(4)
50 IF 3 => 2 AND 2 =< 3 AND 3> =2 AND 2< >3 AND 1 >< 2 AND 2 = > 1 THEN PRINT "RELATIONS"
60 DIM A(3): A[1] = 5: A[2) = 7: PRINT A[1]; A(2); .; -.
70 IF 1 THEN GOTO 90ABC ELSE PRINT "NOT HERE"
80 PRINT "SKIPPED"
90 PRINT "OPEN: STRING
99 END
100 PRINT "SUB": RETURN
"""
SPELLINGS_OUTPUT = """\
SUB
BACK
SUB
AGAIN
X
 6  8 
RELATIONS
 5  7  0  0 
OPEN: STRING
"""


def test_spellings_gw_basic_accepts(tmp_path):
    """The line number of GOSUB or GOTO glued to a name (the name is never read), DIM
    of a plain variable, `FN ST`, relations written `=>` `=<` `><` or with spaces,
    brackets for parentheses, `.` for 0 and a string left open at the end of the line
    (PC-BASIC prints the same)."""
    done = checked_run(tmp_path, SPELLINGS.encode())
    assert (done.returncode, done.stdout) == (0, SPELLINGS_OUTPUT)
    warnings = [line for line in done.stderr.splitlines() if ": warning: " in line]
    ignored = "after the line number is ignored, as GW-BASIC ignores it"
    assert warnings == [
        f"prog.bas:1:13: warning: 'MEDIAN' {ignored}",
        f"prog.bas:2:14: warning: 'XYZ' {ignored}",
        f"prog.bas:7:21: warning: 'ABC' {ignored}",
    ]
    oracle(SPELLINGS, SPELLINGS_OUTPUT)


# --------------------------------------------------------------------------- Syntax error when run

RUNS_INTO_SYNTAX_ERROR = """\
10 PRINT "A": GOTO 30: X = = 5
20 PRINT "NEVER": Y = )
30 IF 0 THEN Y = (: PRINT "NO"
40 PRINT "C"; : IF 1 THEN PRINT "D" ELSE Z = )
50 PRINT "E": IF 0 THEN 60 ELSE PRINT "F": Q = * 2: PRINT "G"
60 PRINT "H"
"""


def test_a_statement_that_does_not_parse_stops_only_when_it_runs(tmp_path):
    """GW-BASIC tokenises lines without checking them: the statements before the bad one
    run, statements on lines never reached do not matter, and the bad one stops the
    program with "Syntax error in 50" (PC-BASIC).  Each is a located warning first."""
    done = checked_run(tmp_path, RUNS_INTO_SYNTAX_ERROR.encode())
    assert (done.returncode, done.stdout) == (1, "A\nCD\nE\nF\nSyntax error in 50\n")
    warnings = [line for line in done.stderr.splitlines() if ": warning: " in line]
    assert [w.split(": warning: ")[0] for w in warnings] == [
        "prog.bas:1:28", "prog.bas:2:23", "prog.bas:3:19", "prog.bas:4:46", "prog.bas:5:48"
    ]  # fmt: skip
    assert warnings[-1].endswith(
        "Syntax error: expected expression, found '*' (GW-BASIC stops with it when the "
        "statement runs)"
    )
    assert done.stderr.splitlines()[-3] == "prog.bas:5:44: error: Syntax error"
    oracle(RUNS_INTO_SYNTAX_ERROR, "A\nCD\nE\nF\nSyntax error in 50\n")
    loaded_by_pcbasic(
        tmp_path, RUNS_INTO_SYNTAX_ERROR.encode(), "A\nCD\nE\nF\nSyntax error in 50\n"
    )


def test_generated_programs_stop_with_the_syntax_error(tmp_path):
    for target, name in (("cutile", "prog_out.py"), ("cuda", "prog_out.cu")):
        raw = b'10 PRINT "A"\r\n20 X = (1\r\n30 PRINT "B"\r\n'
        made = basic2tile(tmp_path, raw, "--target", target, "-o", name)
        assert made.returncode == 0, made.stderr
        text = (tmp_path / name).read_text()
        assert "Syntax error" in text


def test_unsupported_statements_stay_compile_errors(tmp_path):
    """A reserved word we do not implement, after a statement that does not parse, and a
    statement whose GW-BASIC forms we implement only in part (OPEN ... ACCESS, the
    graphics PUT), are located compile errors: GW-BASIC may run them."""
    done = basic2tile(tmp_path, b"10 X = = 1: LOCATE 1, 1\r\n", "--interpret")
    assert done.returncode != 0 and "unsupported statement LOCATE" in done.stderr
    for line in (b'10 OPEN "F" FOR RANDOM ACCESS READ AS #1\r\n', b"10 PUT (10, 10), A\r\n"):
        done = basic2tile(tmp_path, line, "--interpret")
        assert done.returncode != 0 and ": error: " in done.stderr
        assert "Syntax error" not in done.stderr


@pytest.mark.parametrize("dialect", ["extended", "dartmouth"])
def test_other_dialects_reject_the_line_at_once(tmp_path, dialect):
    done = basic2tile(tmp_path, '10 PRINT "A"\n20 X = = 5\n', "--interpret", dialect=dialect)
    assert (done.returncode, done.stdout) == (1, "")
    assert "prog.bas:2:8: error: expected expression, found '='" in done.stderr


JUMPS_WITH_NAMES = """\
10 IF 1 THEN 30ABC
20 PRINT "NO"
30 IF 0 THEN 20 ELSE 50XY
40 PRINT "NO2"
50 PRINT "YES"
60 ON 1 GOSUB 100ABC: PRINT "BACK"
70 END
100 PRINT "SUB": RETURN
"""


def test_the_name_after_the_line_number_of_then_else_and_on_is_ignored_too(tmp_path):
    done = checked_run(tmp_path, JUMPS_WITH_NAMES.encode())
    assert (done.returncode, done.stdout) == (0, "YES\nSUB\nBACK\n")
    assert done.stderr.count("after the line number is ignored") == 3
    oracle(JUMPS_WITH_NAMES, "YES\nSUB\nBACK\n")


@pytest.mark.parametrize("line", [b"10 FN = 3\r\n", b"10 X = 2 / FN: PRINT X\r\n"])
def test_fn_alone_is_a_reserved_word_not_a_name(tmp_path, line):
    """`FN` with no function's name after it: PC-BASIC says "Syntax error in 10" (FN is
    a token of its own); here a located compile error, where it was an internal error
    (the renaming of default types read the letter after FN)."""
    done = basic2tile(tmp_path, line, "--interpret")
    assert done.returncode == 1 and "internal error" not in done.stderr
    assert "error: FN is a reserved word of Microsoft BASIC" in done.stderr
