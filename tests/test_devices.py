"""Microsoft BASIC's screen, sound and machine statements: no-ops with a located
warning (CLS, COLOR, BEEP, KEY ON/OFF, SCREEN 0, WIDTH 80, SOUND, PLAY, CLEAR at the
start), SYSTEM (END), and located errors for the rest (SCREEN 1, WIDTH 40, CLEAR later where it cannot be exact,
KEY n, POKE...).  The warnings come from every engine (`--check` compares them)."""

from __future__ import annotations

import shutil

import pytest

from tests.test_files import basic2tile
from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.options import Options

GXX = shutil.which("g++") is not None
TARGETS = ["cutile", pytest.param("cuda", marks=pytest.mark.skipif(not GXX, reason="no g++"))]

SCREEN_PROGRAM = """\
10 CLEAR 1000 : REM THE STRING SPACE OF MBASIC
20 CLS : KEY OFF : COLOR 14, 1 : SCREEN 0 : WIDTH 80
30 PRINT "HELLO";
40 BEEP : SOUND 440, 18 : PLAY "CDE"
50 CLS
60 PRINT "WORLD"
70 KEY ON
80 SYSTEM
90 PRINT "NOT REACHED"
"""
WARNINGS = [
    (1, 4, "CLEAR has no effect: nothing has been assigned yet"),
    (2, 4, "CLS has no effect: the output is a text stream, not a screen"),
    (2, 10, "KEY OFF has no effect: there is no function-key line"),
    (2, 20, "COLOR has no effect: the output is plain text"),
    (2, 34, "SCREEN has no effect: text is the only mode"),
    (2, 45, "WIDTH has no effect: lines are 80 characters wide already"),
    (4, 4, "BEEP has no effect: there is no sound"),
    (4, 11, "SOUND has no effect: there is no sound"),
    (4, 27, "PLAY has no effect: there is no sound"),
    (5, 4, "CLS has no effect: the output is a text stream, not a screen"),
    (7, 4, "KEY ON has no effect: there is no function-key line"),
]


def test_screen_statements_warn_and_run(tmp_path):
    done = basic2tile(tmp_path, SCREEN_PROGRAM, "--interpret")
    assert (done.returncode, done.stdout) == (0, "HELLOWORLD\n")
    found = [line for line in done.stderr.splitlines() if ": warning: " in line]
    assert found == [f"prog.bas:{ln}:{col}: warning: {text}" for ln, col, text in WARNINGS]


@pytest.mark.parametrize("target", TARGETS)
def test_generated_programs_warn_the_same(tmp_path, target):
    done = basic2tile(tmp_path, SCREEN_PROGRAM, "--check", "--device", "cpu", "--target", target)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    "statement, message, column",
    [
        ("SCREEN 1", "SCREEN 1: graphics modes are not supported: the output is a text stream", 11),
        ("WIDTH 40", "WIDTH 40: lines are 80 characters wide: other widths are not supported", 10),
        ("SCREEN M", "SCREEN M: graphics modes are not supported: the output is a text stream", 11),
        ('WIDTH "LPT1:", 80', 'WIDTH "LPT1:": lines are 80 characters wide: other widths are not supported', 10),
        ('KEY 1, "LIST"', "KEY defines a function key or traps one: only KEY ON and KEY OFF are supported", 4),
        ("DEFINT A : CLEAR", "CLEAR after the program has started is not supported here: CLEAR sets the types of DEFINT and the other DEF statements back to single precision", 15),
        ("LOCATE 5, 10", "unsupported statement LOCATE (Microsoft BASIC)", 4),
        ("POKE 1047, 64", "unsupported statement POKE (Microsoft BASIC)", 4),
        ('RUN "MENU.BAS"', "unsupported statement RUN (Microsoft BASIC)", 4),
        ("X = PEEK(0)", "unsupported function PEEK (Microsoft BASIC)", 8),
    ],
)  # fmt: skip
def test_located_errors(statement, message, column):
    with pytest.raises(CompileErrors) as info:
        driver.front_end(SourceFile("e.bas", f"10 {statement}\n20 END\n"), Options())
    [error] = info.value.errors
    assert (error.message, error.coord.line, error.coord.column) == (message, 1, column)


def test_clear_reached_again_by_a_jump_is_an_error_under_qbasic():
    """(Under --dialect ms it resets the variables: tests/test_ms_clear.py.)"""
    text = "10 CLEAR\n20 X = 1\n30 GOTO 10\n"
    with pytest.raises(CompileErrors) as info:
        driver.front_end(SourceFile("e.bas", text), Options(std="qbasic"))
    assert info.value.errors[0].message.startswith("CLEAR after the program has started")


def test_a_loop_with_cls_is_still_offloaded_and_one_with_files_is_not():
    text = '10 DIM A(100)\n20 OPEN "O", 1, "X"\n30 FOR I = 1 TO 100\n40 A(I) = I * 2 : CLS\n'
    text += "50 NEXT I\n60 FOR I = 1 TO 100\n70 PRINT #1, A(I)\n80 NEXT I\n"
    text += "90 FOR I = 1 TO 100\n100 A(I) = LOF(1) + I\n110 NEXT I\n120 END\n"
    analysis = driver.front_end(SourceFile("e.bas", text), Options())
    decisions = {d.label: d for d in driver.host_program(analysis).decisions}
    assert decisions[30].offloaded
    assert not decisions[60].offloaded and "PRINT" in decisions[60].reason
    assert not decisions[90].offloaded and "LOF" in decisions[90].reason


def test_strict_mode_reports_them_as_extensions():
    with pytest.raises(CompileErrors) as info:
        driver.front_end(SourceFile("e.bas", "10 CLS\n20 END\n"), Options(std="ecma55"))
    assert info.value.errors[0].message == "CLS is not ECMA-55 Minimal BASIC"


POS_PROGRAM = """\
10 PRINT "ABC"; POS(0)
20 PRINT POS(0); "X";
30 PRINT POS(0)
40 FOR I = 1 TO 25 : PRINT "*"; : IF POS(0) > 10 THEN PRINT
50 NEXT I
60 PRINT
"""


@pytest.mark.parametrize("target", TARGETS)
def test_pos_is_the_column_of_the_screen(tmp_path, target):
    """Oracle: PC-BASIC prints the same (checked when this was written)."""
    done = basic2tile(tmp_path, POS_PROGRAM, "--interpret")
    assert done.stdout == "ABC 4 \n 1 X 5 \n" + "*" * 10 + "\n" + "*" * 10 + "\n*****\n"
    done = basic2tile(tmp_path, POS_PROGRAM, "--check", "--device", "cpu", "--target", target)
    assert done.returncode == 0, done.stdout + done.stderr
