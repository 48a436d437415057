"""The reference interpreter on the extensions and on the choices we documented
(transpiler/interpreter/__init__.py).  Expected outputs are worked out by hand."""

from __future__ import annotations

import pytest

from transpiler import driver
from transpiler.errors import BasicUnsupportedError
from transpiler.interpreter import run_program
from transpiler.options import Options

from .interpreter_helpers import output, run, run_capturing, source


def test_while_wend_and_block_if():
    program = """
        10 N = 0
        20 WHILE N < 4
        30 N = N + 1
        40 IF N = 2 THEN
        50 PRINT "TWO";
        60 ELSEIF N = 3 THEN
        70 PRINT "THREE";
        80 ELSE
        90 PRINT N;
        100 END IF
        110 WEND
        120 PRINT
    """
    assert output(program) == " 1 TWOTHREE 4 \n"


def test_while_with_a_jump_to_its_wend():
    program = """
        10 N = 0
        20 WHILE N < 5
        30 N = N + 1
        40 IF N = 3 THEN 60
        50 PRINT N;
        60 WEND
        70 PRINT "DONE"
    """
    assert output(program) == " 1  2  4  5 DONE\n"


def test_block_if_with_a_jump_between_its_branches():
    program = """
        10 FOR K = 1 TO 2
        20 IF K = 1 THEN
        30 PRINT "T";
        40 GOTO 60
        50 ELSE
        60 PRINT "E";
        70 END IF
        80 NEXT K
        90 PRINT
    """
    assert output(program) == "TEE\n"


def test_one_line_if_with_statements_and_else():
    program = '10 FOR X = 0 TO 1\n20 IF X THEN PRINT "A"; : PRINT "B"; ELSE PRINT "C";\n30 NEXT X\n'
    assert output(program) == "CAB\n"


def test_logical_operators_give_minus_one_for_true():
    # (Without --dialect, AND of numbers pins Microsoft BASIC, whose AND is bitwise.)
    text = "10 PRINT 3 AND 5; 0 OR 0; NOT 0; NOT 7; (1 < 2) + 1\n"
    assert output(text, std="extended") == ("-1  0 -1  0  0 \n")


def test_and_does_not_short_circuit():
    out, err = run('10 X = 0\n20 IF X <> 0 AND 1 / X > 1 THEN PRINT "NO"\n30 PRINT "END"\n')
    assert out == "END\n"
    assert "prog.bas:2:4: warning: division by zero" in err


def test_mod_takes_the_sign_of_the_dividend():
    assert output("10 PRINT 7 MOD 3; -7 MOD 3; 7 MOD -3; 7.5 MOD 2\n") == " 1 -1  1  1.5 \n"
    out, err = run("10 PRINT 5 MOD 0\n")
    assert out == " NAN \n" and "warning: division by zero" in err


def test_integer_variables_round_and_overflow():
    assert output("10 I% = 2.5\n20 J% = -2.5\n30 K% = 7 / 2\n40 PRINT I%; J%; K%\n") == (
        " 3 -2  4 \n"
    )
    _, _, error = run_capturing("10 K% = 1E10\n")
    assert str(error) == "prog.bas:1:4: error: integer overflow (1.E+10)"


def test_strings_join_and_order():
    program = '10 A$ = "AB" + "C"\n20 PRINT A$; A$ < "AC"; "B" > "AZ"; A$ = "ABC"\n'
    assert output(program) == "ABC-1 -1 -1 \n"
    # no length limit outside strict mode
    assert output('10 A$ = "A STRING LONGER THAN EIGHTEEN"\n20 PRINT A$\n') == (
        "A STRING LONGER THAN EIGHTEEN\n"
    )


def test_appending_to_a_string_variable():
    """`A$ = A$ + ...` is compiled to an append in place (codegen.append_string): the
    same values, in loops, GOSUBs and when the appended text reads the variable."""
    program = """
        10 LET A$ = "" : LET B$ = "B"
        20 FOR I = 1 TO 3
        30 LET A$ = A$ + "X" + B$
        40 NEXT I
        50 GOSUB 100
        60 LET A$ = A$ + A$
        70 LET B$ = B$ + "-" + A$
        80 PRINT A$ : PRINT B$
        90 END
        100 LET A$ = A$ + "<" : RETURN
    """
    assert output(program) == "XBXBXB<XBXBXB<\nB-XBXBXB<XBXBXB<\n"


def test_max_and_min():
    assert output("10 PRINT MAX(3, 4); MIN(3, 4); MAX(-1, -2)\n") == " 4  3 -1 \n"


def test_dim_with_a_run_time_bound():
    assert output("10 N = 3\n20 DIM A(N)\n30 A(3) = 7\n40 PRINT A(3)\n") == " 7 \n"
    _, _, error = run_capturing("10 N = 3\n20 DIM A(N)\n30 A(4) = 7\n")
    assert str(error) == "prog.bas:3:4: error: subscript out of range A(4) [0 to 3]"
    _, _, error = run_capturing("10 GOTO 30\n20 DIM A(N)\n30 A(1) = 2\n")
    assert str(error) == "prog.bas:3:4: error: array used before its DIM statement ran A"


def test_restore_to_a_line():
    program = """
        10 READ A
        20 RESTORE 60
        30 READ B
        40 PRINT A; B
        50 DATA 1
        60 DATA 2
    """
    assert output(program) == " 1  2 \n"


def test_program_without_end_stops_after_its_last_line():
    assert output('10 PRINT "A"\n') == "A\n"


def test_step_limit_is_a_located_error():
    _, _, error = run_capturing("10 X = 1\n20 GOTO 20\n", max_steps=50)
    assert str(error) == "prog.bas:2:4: error: step limit exceeded (50 statements)"
    _, _, error = run_capturing("10 FOR I = 1 TO 1E9\n20 X = X + 1\n30 NEXT I\n", max_steps=1000)
    assert error.message == "step limit exceeded (1000 statements)"
    # a program that finishes under the limit is not affected
    assert output("10 FOR I = 1 TO 3\n20 NEXT I\n30 PRINT I\n", max_steps=100) == " 4 \n"


def test_gosub_nesting_limit():
    _, _, error = run_capturing("10 GOSUB 10\n20 END\n", std="ecma55")
    assert str(error) == "prog.bas:1:4: error: GOSUB nested too deeply (256 levels)"
    # extended mode recurses deeper
    program = """
        10 D = 0
        20 GOSUB 50
        30 PRINT D
        40 END
        50 D = D + 1
        60 IF D < 1000 THEN GOSUB 50
        70 RETURN
    """
    assert output(program) == " 1000 \n"


def test_f32_precision_rounds_stored_values():
    program = "10 X = .1\n20 PRINT X - .1; X = .1\n30 DIM A(2)\n40 A(1) = 1E39\n50 PRINT A(1)\n"
    assert output(program, precision="f32") == " 1.4901161E-9  0 \n INF \n"
    assert output(program) == " 0 -1 \n 1.E+39 \n"


def test_kernel_programs_are_not_run_by_this_interpreter():
    program = """
        10 INPUT N, A(), B()
        20 DIM A(N), B(N)
        30 TILE A(128), B(128)
        40 B(BID) = A(BID) * 2
        50 OUTPUT B
        60 END
    """
    # (the driver sends kernel programs to the kernel interpreter instead)
    analysis = driver.front_end(source(program), Options())
    with pytest.raises(BasicUnsupportedError, match="kernel program"):
        run_program(analysis)
