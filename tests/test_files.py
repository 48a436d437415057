"""Microsoft BASIC's sequential files in the interpreter and both generated programs:
OPEN (both forms), PRINT #, PRINT # USING, WRITE #, INPUT #, LINE INPUT #, EOF, LOF,
CLOSE, KILL, NAME, their errors, and `--check` in scratch folders.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23) for the round trip below (tests/pcbasic_oracle.py);
the error texts are GW-BASIC's messages.  Every program runs in a temporary folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import checking, pcbasic_oracle
from transpiler.run.scratch import files_difference

GXX = shutil.which("g++") is not None
TARGETS = ["cutile", pytest.param("cuda", marks=pytest.mark.skipif(not GXX, reason="no g++"))]

ROUND_TRIP = """\
10 OPEN "DATA.TXT" FOR OUTPUT AS #1
20 PRINT #1, "ALPHA"; 1.5; -2
30 PRINT #1, USING "##.## &"; 3.14159; "PI"
40 WRITE #1, "A,B", 1.5, -2, "X"
50 PRINT #1, "TAIL";
60 CLOSE #1
70 OPEN "DATA.TXT" FOR APPEND AS #2
80 PRINT #2, " MORE"
90 CLOSE
100 OPEN "I", #1, "DATA.TXT"
110 LINE INPUT #1, L$: PRINT "["; L$; "]"
120 INPUT #1, X, S$: PRINT X; "["; S$; "]"
130 INPUT #1, A$, B, C, D$: PRINT "["; A$; "]"; B; C; "["; D$; "]"
140 PRINT EOF(1)
150 LINE INPUT #1, L$: PRINT "["; L$; "]"
160 PRINT EOF(1)
170 CLOSE 1
180 NAME "DATA.TXT" AS "DATA2.TXT"
190 OPEN "DATA2.TXT" FOR INPUT AS #3
200 PRINT LOF(3) > 0
210 CLOSE
220 KILL "DATA2.TXT"
230 END
"""
# What GW-BASIC prints for it (PC-BASIC 2.0.8).
ROUND_TRIP_OUTPUT = """\
[ALPHA 1.5 -2 ]
 3.14 [PI]
[A,B] 1.5 -2 [X]
 0 
[TAIL MORE]
-1 
-1 
"""


def basic2tile(folder: Path, text: str, *options: str, stdin: str = ""):
    """Run `basic2tile prog.bas OPTIONS` in `folder` (the program's current directory)."""
    return checking.basic2tile(folder, text, *options, dialect=None, stdin=stdin)


def test_round_trip_in_the_interpreter(tmp_path):
    # (Its `OPEN "O", ...` would pin --dialect ms, which prints the same.)
    done = basic2tile(tmp_path, ROUND_TRIP, "--interpret", "--dialect", "extended")
    assert (done.returncode, done.stdout, done.stderr) == (0, ROUND_TRIP_OUTPUT, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.bas"]  # KILLed at the end


@pytest.mark.parametrize("target", TARGETS)
def test_round_trip_in_generated_programs(tmp_path, target):
    done = basic2tile(tmp_path, ROUND_TRIP, "--check", "--device", "cpu", "--target", target)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check passed" in done.stdout


@pytest.mark.parametrize("target", TARGETS)
def test_generated_programs_write_files_where_they_run(tmp_path, target):
    text = '10 OPEN "OUT.TXT" FOR OUTPUT AS #1\n20 PRINT #1, "X"; 2\n30 WRITE #1, "Y", 3\n40 END\n'
    done = basic2tile(tmp_path, text, "--run", "--device", "cpu", "--target", target)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "OUT.TXT").read_text() == 'X 2 \n"Y",3\n'  # closed at the end


def test_the_interpreter_reads_dos_text(tmp_path):
    """Oracle: PC-BASIC prints the same (when it is installed)."""
    (tmp_path / "IN.TXT").write_bytes(b'"Q"  , 12AB 3D2\r\nSECOND\r\n\x1aIGNORED')
    text = '10 OPEN "IN.TXT" FOR INPUT AS 1\n20 INPUT #1, S$, X, Y\n30 LINE INPUT #1, L$\n'
    text += "40 PRINT S$; X; Y; L$; EOF(1); LOF(1)\n50 END\n"
    expected = "Q 12  300 SECOND-1  33 \n"  # LOF: all the bytes
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.stdout == expected, done.stderr
    if pcbasic_oracle.AVAILABLE:
        assert pcbasic_oracle.run(text, folder=tmp_path) == expected


FILE_ERRORS = [
    ('10 OPEN "NONE.TXT" FOR INPUT AS #1', "File not found (NONE.TXT)", 10),
    ('10 OPEN "NO/DIR.TXT" FOR OUTPUT AS #1', "Path not found (NO/DIR.TXT)", 10),
    ('10 OPEN "LPT1:" FOR OUTPUT AS #1', "Bad file name (LPT1:: devices and drive letters are not supported)", 10),
    ('10 OPEN "A" FOR OUTPUT AS #1\n20 OPEN "B" FOR OUTPUT AS #1', "File already open (#1)", 20),
    ('10 OPEN "A" FOR OUTPUT AS #1\n20 OPEN "A" FOR APPEND AS #2', "File already open (A as #1)", 20),
    ('10 OPEN "A" FOR OUTPUT AS #0', "Bad file number (#0)", 10),
    ("10 PRINT #3, 1", "Bad file number (#3 is not open)", 10),
    ('10 OPEN "A" FOR OUTPUT AS #1\n20 INPUT #1, X', "Bad file mode (#1 is open for output)", 20),
    ('10 OPEN "A" FOR OUTPUT AS #1\n20 CLOSE\n30 OPEN "A" FOR INPUT AS #1\n40 INPUT #1, X',
     "Input past end", 40),
    ('10 OPEN "A" FOR OUTPUT AS #1\n20 CLOSE\n30 OPEN "A" FOR INPUT AS #1\n40 WRITE #1, 1',
     "Bad file mode (#1 is open for input)", 40),
    ('10 M$ = "X"\n20 OPEN M$, #1, "A"', 'Bad file mode ("X")', 20),
    ('10 KILL "NONE.TXT"', "File not found (NONE.TXT)", 10),
    (('10 OPEN "A" FOR OUTPUT AS #1\n20 CLOSE\n30 OPEN "B" FOR OUTPUT AS #1\n40 CLOSE\n'
      '50 NAME "A" AS "B"'), "File already exists (B)", 50),
    ("10 PRINT EOF(2)", "Bad file number (#2 is not open)", 10),
]  # fmt: skip


@pytest.mark.parametrize("program, message, line", FILE_ERRORS)
def test_file_errors(tmp_path, program, message, line):
    text = program + "\n65000 END\n"
    done = basic2tile(tmp_path, text, "--interpret", "--dialect", "extended")
    assert done.returncode == 1
    [first, *_] = done.stderr.splitlines()
    assert first.endswith(f"error: {message}")
    source_line = text.splitlines().index(
        next(t for t in text.splitlines() if t.startswith(f"{line} "))
    )
    assert first.startswith(f"prog.bas:{source_line + 1}:")
    check = basic2tile(tmp_path, text, "--check", "--device", "cpu", "--dialect", "extended")
    assert check.returncode == 0, check.stdout


@pytest.mark.skipif(not GXX, reason="no g++")
def test_file_errors_in_cuda(tmp_path):
    # The C++ runtime's messages, for every error of the table in one go: the program stops
    # at the first, so each case runs as its own program inside one compilation unit each.
    for program, message, _ in FILE_ERRORS[::3]:
        done = basic2tile(
            tmp_path, program + "\n65000 END\n", "--run", "--device", "cpu", "--target", "cuda"
        )
        assert done.returncode == 1 and done.stderr.strip().endswith(message), done.stderr


def test_check_leaves_real_files_alone(tmp_path):
    (tmp_path / "LOG.TXT").write_text("OLD\n")
    text = '10 OPEN "LOG.TXT" FOR APPEND AS #1\n20 PRINT #1, "NEW"\n30 CLOSE\n'
    text += '40 OPEN "LOG.TXT" FOR INPUT AS #1\n50 WHILE NOT EOF(1)\n60 LINE INPUT #1, L$\n'
    text += (
        '70 PRINT L$\n80 WEND\n90 CLOSE\n100 KILL "LOG.TXT"\n110 OPEN "NEW.TXT" FOR OUTPUT AS #2\n'
    )
    text += '120 WRITE #2, 1, "Z"\n130 END\n'
    for target in checking.TARGETS:
        done = basic2tile(tmp_path, text, "--check", "--device", "cpu", "--target", target)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "check passed: " + target in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LOG.TXT", "prog.bas"]
    assert (tmp_path / "LOG.TXT").read_text() == "OLD\n"
    done = basic2tile(tmp_path, text, "--interpret")  # in place, for real
    assert done.stdout == "OLD\nNEW\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["NEW.TXT", "prog.bas"]


def test_check_compares_the_files_written():
    same = {"/w/A.TXT": " 1.5 \n"}
    assert files_difference(same, dict(same), "f64") == ""
    assert files_difference(same, {"/w/A.TXT": " 1.5000000001 \n"}, "f64") == ""  # tolerance
    report = files_difference(same, {"/w/A.TXT": " 2 \n", "/w/B.TXT": ""}, "f64")
    assert "file /w/A.TXT differs" in report
    assert "file /w/B.TXT: written by the generated program only" in report


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_round_trip_against_gw_basic(tmp_path):
    """Oracle: PC-BASIC prints the same; the file it writes (DOS line ends, a Ctrl-Z at
    the end) reads back the same in our runtime."""
    assert pcbasic_oracle.run(ROUND_TRIP, folder=tmp_path) == ROUND_TRIP_OUTPUT
    keep = ROUND_TRIP.replace("220 KILL", "220 REM").replace("180 NAME", "180 REM")
    keep = keep.replace('"DATA2.TXT"', '"DATA.TXT"')
    pcbasic_oracle.run(keep, folder=tmp_path)
    written = (tmp_path / "DATA.TXT").read_bytes()
    assert written.endswith(b"\r\n\x1a")
    reader = '10 OPEN "DATA.TXT" FOR INPUT AS #1\n20 WHILE NOT EOF(1)\n30 LINE INPUT #1, L$\n'
    reader += '40 PRINT "["; L$; "]"\n50 WEND\n60 END\n'
    ours = basic2tile(tmp_path, reader, "--interpret")
    assert ours.stdout == pcbasic_oracle.run(reader, folder=tmp_path)
