"""Microsoft BASIC's CLEAR after the program has started (--dialect ms, passes/check/clear.py):
variables back to 0 and "", arrays erased, DATA restored, the GOSUB stack kept; what it
resets and cannot be reset exactly here is a located error.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) runs each program when it
is installed; the texts below are what it printed, so the tests keep their teeth without
it.  Every program also runs through the generated cuTile Python and CUDA C++ (on the
CPU), which must agree with the interpreter exactly (`--check`).
"""

from __future__ import annotations

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, checked_run
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.ir import ast
from transpiler.options import Options

# name: (program, what PC-BASIC printed)
PROGRAMS = {
    "variables": (
        '10 A = 5: B$ = "X": C% = 3: D# = 1.5\n20 CLEAR\n'
        '30 PRINT A; "["; B$; "]"; C%; D#\n40 A = A + 1: PRINT A\n',
        " 0 [] 0  0 \n 1 \n",
    ),
    # An erased array comes back with the implicit bounds (0 to 10) at its next use.
    "array made again with 10": (
        "10 DIM A(20): A(15) = 7: A(5) = 2\n20 CLEAR\n30 PRINT A(5)\n40 A(15) = 1\n",
        " 0 \nSubscript out of range in 40\n",
    ),
    "array dimensioned again": (
        "10 DIM A(20): A(15) = 7\n20 CLEAR\n30 DIM A(3): A(2) = 4: PRINT A(2); A(3)\n",
        " 4  0 \n",
    ),
    "data restored": (
        "10 DATA 1, 2\n20 READ A: PRINT A\n30 CLEAR\n40 READ A: PRINT A\n",
        " 1 \n 1 \n",
    ),
    # PC-BASIC keeps the GOSUB stack (it drops the FOR and WHILE stacks only).
    "return after clear": (
        '10 X = 1: GOSUB 100\n20 PRINT "back"; X\n30 END\n100 CLEAR: RETURN\n',
        "back 0 \n",
    ),
    "in a one-line if": (
        "10 A = 1: IF A THEN CLEAR: PRINT A\n20 PRINT A\n",
        " 0 \n 0 \n",
    ),
    # Its arguments size GW-BASIC's memory: ignored (a warning).
    "arguments": (
        '10 A = 1\n20 CLEAR , 32768\n30 PRINT A\n40 CLEAR 1000, 2000\n50 PRINT "ok"\n',
        " 0 \nok\n",
    ),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_clear_as_pc_basic(tmp_path, name):
    text, printed = PROGRAMS[name]
    done = checked_run(tmp_path, text)
    assert done.stdout == printed, done.stderr


@pcbasic_oracle.requires_pcbasic
@pytest.mark.parametrize("name", PROGRAMS)
def test_the_texts_are_pc_basics(name):
    text, printed = PROGRAMS[name]
    assert pcbasic_oracle.run(text) == printed


def test_a_clear_at_the_start_that_a_jump_reaches_again_is_lowered():
    """It is no no-op: the second time round it resets X (and the program never ends,
    as in PC-BASIC)."""
    text = "10 CLEAR\n20 X = 1\n30 GOTO 10\n"
    analysis = driver.front_end(SourceFile("e.bas", text), Options(std="ms"))
    assert not any(isinstance(s, ast.NoEffect) for s in analysis.stmts)
    assert any(isinstance(s, ast.Let) and s.coord.line == 1 for s in analysis.stmts)


def test_arguments_warn(tmp_path):
    done = basic2tile(tmp_path, PROGRAMS["arguments"][0], "--interpret")
    warnings = [line for line in done.stderr.splitlines() if ": warning: " in line]
    why = "warning: CLEAR's arguments have no effect: they size GW-BASIC's memory"
    assert warnings == [f"prog.bas:2:4: {why}", f"prog.bas:4:4: {why}"]


_NOT_HERE = "CLEAR after the program has started is not supported here"


@pytest.mark.parametrize(
    "text, message",
    [
        # PC-BASIC: DEFINT's types end at CLEAR (A = 2.7 prints 3, then 2.7); here a
        # DEF statement applies to the text after it.
        ("10 DEFINT A\n20 A = 2.7: PRINT A\n30 CLEAR\n40 A = 2.7: PRINT A\n",
         "CLEAR sets the types of DEFINT and the other DEF statements back to single precision"),
        # PC-BASIC: Undefined user function in 40.
        ("10 DEF FNA(X) = X * 2\n20 PRINT FNA(3)\n30 CLEAR\n40 PRINT FNA(3)\n",
         "the program has DEF FN, and CLEAR forgets the functions it defines"),
        # PC-BASIC: NEXT without FOR in 30; WEND without WHILE in 30.
        ("10 FOR I = 1 TO 3\n20 CLEAR\n30 NEXT I\n",
         "inside a FOR or WHILE loop: CLEAR drops the loops that are running"),
        ("10 WHILE 1\n20 CLEAR\n30 WEND\n",
         "inside a FOR or WHILE loop: CLEAR drops the loops that are running"),
        # PC-BASIC: Illegal function call in 30 (trapping off); RESUME without error.
        ('10 ON ERROR GOTO 100\n20 CLEAR\n30 ERROR 5\n40 END\n100 PRINT "t": RESUME NEXT\n',
         "the program traps errors, and CLEAR turns trapping off and sets ERR and ERL to 0"),
        ("10 X = RND\n20 CLEAR\n30 PRINT RND\n",
         "the program uses RND, and CLEAR starts its sequence again"),
        ("10 OPTION BASE 1\n20 CLEAR\n", "the program has OPTION BASE, and CLEAR sets the base back to 0"),
        ('10 OPEN "O", 1, "X.TXT"\n20 CLEAR\n30 PRINT #1, "hi"\n', "the program opens files"),
    ],
)  # fmt: skip
def test_what_cannot_be_reset_is_a_located_error(tmp_path, text, message):
    done = basic2tile(tmp_path, text, "--interpret")
    clear_line = 1 + text.split("\n").index(next(l for l in text.split("\n") if "CLEAR" in l))
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"prog.bas:{clear_line}:4: error: {_NOT_HERE}")
    assert message in first
    assert done.stderr.count(": error: ") == 1


def test_restore_after_a_colon(tmp_path):
    """RESTORE that is not the first statement of its line (its QuickBASIC label once
    shadowed the line number: 'RESTORE to non-existing label 20')."""
    text = "10 DATA 1\n20 READ A: PRINT A: RESTORE\n30 READ A: PRINT A\n"
    done = basic2tile(tmp_path, text, "--interpret")
    assert (done.returncode, done.stdout) == (0, " 1 \n 1 \n"), done.stderr
