"""PRINT USING, LPRINT USING and PRINT # USING in the interpreter and both generated
programs, against GW-BASIC.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23), tests/pcbasic_oracle.py; our programs run with
--precision f32, whose PRINT USING shows 7 significant digits as GW-BASIC's single
precision does.  (LPRINT goes to GW-BASIC's printer; ours writes to standard output.)
"""

from __future__ import annotations

import shutil

import pytest

from tests import pcbasic_oracle
from tests.test_files import basic2tile

GXX = shutil.which("g++") is not None
TARGETS = ["cutile", pytest.param("cuda", marks=pytest.mark.skipif(not GXX, reason="no g++"))]

PROGRAM = """\
10 PRINT USING "##.##"; 3.14159, 2.675, -0.5
20 PRINT USING "+##.##-"; -1.5; 2.5
30 PRINT USING "**$##.##"; 12.5; -1
40 PRINT USING "$$#,###.##"; 1234.5
50 PRINT USING "##.##^^^^"; 12345
60 PRINT USING "#,###"; 1234; -1234
70 PRINT USING "##"; 99.5; 123
80 PRINT USING "!"; "HELLO"
90 PRINT USING "\\  \\"; "HELLO"; "HI"
100 PRINT USING "[&]"; "A"; "B"
110 PRINT USING "A## B##C"; 1
120 A$ = "X=###.# "
130 FOR I = 1 TO 3
140 PRINT USING A$; I / 4;
150 NEXT I
160 PRINT
170 PRINT USING "_#_&_!##"; 5
180 PRINT USING "& IS ##.#%"; "RATE"; 7.25
190 PRINT USING "NO FIELD"; 1
"""
# GW-BASIC's output (PC-BASIC), and its error at line 190.
OUTPUT = """\
 3.14 2.68-0.50
 -1.50- +2.50-
**$12.50**-$1.00
 $1,234.50
 1.23E+04
1,234%-1,234
%100%123
H
HELLHI  
[A][B]
A 1 B
X=  0.3 X=  0.5 X=  0.8 
#&! 5
RATE IS  7.3%
NO FIELD
"""


def test_the_interpreter_prints_what_gw_basic_prints(tmp_path):
    done = basic2tile(tmp_path, PROGRAM, "--interpret", "--precision", "f32")
    assert (done.returncode, done.stdout) == (1, OUTPUT)
    assert done.stderr.startswith(
        "prog.bas:19:5: error: Illegal function call (a PRINT USING format without a field)"
    )


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_gw_basic_prints_it(tmp_path):
    printed = pcbasic_oracle.run(PROGRAM, folder=tmp_path)
    assert printed.startswith(OUTPUT)
    assert printed[len(OUTPUT) :].startswith("Illegal function call in 190")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_generated_programs_agree(tmp_path, target, precision):
    done = basic2tile(tmp_path, PROGRAM, "--check", "--device", "cpu", "--target", target,
                      "--precision", precision)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_lprint_and_files(tmp_path, target):
    text = '5 LPRINT "L"; 1 : WRITE .5, "A", -2\n10 LPRINT USING "(###)"; -5; 6\n'
    text += '20 OPEN "O", #1, "OUT.TXT"\n'
    text += '30 PRINT #1, USING "##.#;"; 1.25; 2.5;\n40 PRINT #1, USING "&"; "!"\n50 CLOSE\n'
    text += '60 OPEN "OUT.TXT" FOR INPUT AS 1\n70 LINE INPUT #1, L$\n80 PRINT L$\n'
    done = basic2tile(tmp_path, text, "--interpret")
    assert done.stdout == 'L 1 \n.5,"A",-2\n( -5)(  6)\n 1.3; 2.5;!\n'
    done = basic2tile(tmp_path, text, "--check", "--device", "cpu", "--target", target)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    "statement, message",
    [
        ('PRINT USING ""; 1', "Illegal function call"),
        ('PRINT USING "##"; "A"', "Type mismatch (a string for a PRINT USING number field)"),
        ('PRINT USING "&"; 1', "Type mismatch (a number for a PRINT USING string field)"),
        ('PRINT USING "' + "#" * 25 + '"; 1', "Illegal function call (more than 24 digits"),
    ],
)
def test_errors(tmp_path, statement, message):
    done = basic2tile(tmp_path, f"10 {statement}\n20 END\n", "--check", "--device", "cpu")
    assert done.returncode == 0, done.stdout  # the generated program fails the same way
    done = basic2tile(tmp_path, f"10 {statement}\n20 END\n", "--interpret")
    assert done.returncode == 1 and f"error: {message}" in done.stderr


def test_the_format_is_a_string_and_a_semicolon_follows_it(tmp_path):
    done = basic2tile(tmp_path, "10 PRINT USING 5; 1\n", "--interpret")
    assert "prog.bas:1:16: error: string expression expected, not a number" in done.stderr
    done = basic2tile(tmp_path, '10 PRINT 1\n20 PRINT USING "##", 5\n', "--interpret")
    assert "prog.bas:2:20: error: PRINT USING wants ';' after its format" in done.stderr
