"""The reference interpreter on ECMA-55 features.  Expected outputs are worked out by
hand from the standard's rules and bas55's PRINT format (a number prints with a sign
or space before it and a space after it; `,` moves to the next 16-column zone)."""

from __future__ import annotations

from .interpreter_helpers import output, run, run_capturing

# --------------------------------------------------------------------------- FOR


def test_for_runs_to_the_limit_and_leaves_the_variable_past_it():
    program = """
        10 FOR I = 1 TO 3
        20 PRINT I;
        30 NEXT I
        40 PRINT I
        50 END
    """
    assert output(program, std="ecma55") == " 1  2  3  4 \n"


def test_for_may_run_zero_times():
    program = '10 FOR I = 5 TO 1\n20 PRINT "NEVER"\n30 NEXT I\n40 PRINT I\n50 END\n'
    assert output(program) == " 5 \n"


def test_limit_and_step_are_evaluated_once():
    program = """
        10 N = 3
        20 S = 1
        30 FOR I = 1 TO N STEP S
        40 N = 10
        50 S = 5
        60 PRINT I;
        70 NEXT I
        80 END
    """
    assert output(program) == " 1  2  3 \n"


def test_negative_and_fractional_steps():
    assert output("10 FOR I = 3 TO 1 STEP -1\n20 PRINT I;\n30 NEXT I\n40 PRINT I\n") == (
        " 3  2  1  0 \n"
    )
    assert output("10 FOR X = 0 TO 1 STEP .25\n20 PRINT X;\n30 NEXT X\n40 PRINT X\n") == (
        " 0  .25  .5  .75  1  1.25 \n"
    )


def test_assigning_the_control_variable_changes_the_loop():
    program = "10 FOR I = 1 TO 10\n20 PRINT I;\n30 I = I + 4\n40 NEXT I\n50 PRINT I\n"
    assert output(program) == " 1  6  11 \n"


def test_nested_loops_and_next_of_two_variables():
    program = """
        10 FOR I = 1 TO 2
        20 FOR J = I TO 2
        30 PRINT I * 10 + J;
        40 NEXT J, I
        50 PRINT
    """
    assert output(program) == " 11  12  22 \n"


def test_goto_out_of_a_loop_and_back_to_its_for():
    program = """
        10 C = 0
        20 FOR I = 1 TO 5
        30 IF I = 3 THEN 60
        40 NEXT I
        50 PRINT "NOT HERE"
        60 C = C + 1
        70 IF C < 2 THEN 20
        80 PRINT I; C
    """
    assert output(program) == " 3  2 \n"


def test_goto_next_continues_the_loop():
    program = """
        10 FOR I = 1 TO 6
        20 IF I = 2 THEN 50
        30 IF I = 4 THEN 50
        40 PRINT I;
        50 NEXT I
        60 PRINT I
    """
    assert output(program) == " 1  3  5  6  7 \n"


def test_loop_entered_in_the_middle_from_inside_runs_unstructured():
    # the jump to 40 comes from inside the loop, so it is legal, and the loop cannot
    # be a Python while loop: this exercises the explicit FOR/NEXT tests
    program = """
        10 FOR I = 1 TO 3
        20 IF I = 2 THEN 40
        30 PRINT "A";
        40 PRINT I;
        50 NEXT I
        60 PRINT I
    """
    assert output(program) == "A 1  2 A 3  4 \n"


def test_step_variable_sign_decides_the_test():
    program = """
        10 S = -2
        20 FOR I = 5 TO 0 STEP S
        30 PRINT I;
        40 NEXT I
        50 S = 0
        60 FOR I = 1 TO 0 STEP S
        70 PRINT "ZERO STEP RUNS WHILE I <= ... NEVER ENDS";
        80 GOTO 100
        90 NEXT I
        100 PRINT
    """
    assert output(program) == " 5  3  1 ZERO STEP RUNS WHILE I <= ... NEVER ENDS\n"


def test_loop_over_float_subscripts_and_shadowed_subscripts_agree():
    program = """
        10 DIM A(10)
        20 FOR I = 0 TO 10
        30 A(I) = I * I
        40 NEXT I
        50 FOR X = .6 TO 3.6
        60 PRINT A(X); A(X + 1); A(2 * X - 1);
        70 NEXT X
        80 PRINT
        90 FOR I = 1 TO 3
        100 PRINT A(I); A(I + 1); A(2 * I - 1);
        110 NEXT I
        120 PRINT
    """
    # X = .6 rounds to 1; X + 1 = 1.6 -> 2; 2 * X - 1 = .2 -> 0 ... X = 3.6 -> 4, 5, 6
    assert output(program) == (
        " 1  4  0  4  9  4  9  16  16  16  25  36 \n" " 1  4  1  4  9  9  9  16  25 \n"
    )


# --------------------------------------------------------------------------- arithmetic


def test_operators_and_functions():
    program = """
        10 PRINT INT(-2.5); INT(2.7); 2^3^2; -2^2; 2*3+4/8-1
        20 PRINT ABS(-3); SGN(-2); SGN(0); SQR(16); 10 / 4
        30 END
    """
    assert output(program, std="ecma55") == (
        "-3  2  64 -4  5.5 \n"  # ^ is left-associative; -A^B is -(A^B)
        " 3 -1  0  4  2.5 \n"
    )


def test_division_by_zero_warns_with_its_location_and_continues():
    out, err = run("10 X = 0\n20 PRINT 1 / X; -1 / X\n30 PRINT 0 / X\n40 END\n")
    assert out == " INF -INF \n NAN \n"
    assert err.count("prog.bas:2:4: warning: division by zero") == 2
    assert "prog.bas:3:4: warning: division by zero" in err
    assert "    20 PRINT 1 / X; -1 / X" in err


def test_overflow_of_a_product_warns():
    out, err = run("10 X = 1E300\n20 Y = X * X\n30 PRINT Y\n")
    assert out == " INF \n"
    assert "prog.bas:2:4: warning: operation overflow (*)" in err


def test_numeric_constant_overflow_is_reported_before_running():
    out, err = run("10 PRINT 1E999\n")
    assert out == " INF \n"
    assert err.startswith("prog.bas:1:10: warning: numeric constant overflow")


# --------------------------------------------------------------------------- arrays


def test_subscripts_round_to_the_nearest_integer():
    program = "10 DIM A(3)\n20 A(1.4) = 7\n30 A(1.5) = 9\n40 PRINT A(1); A(2)\n"
    assert output(program) == " 7  9 \n"


def test_arrays_without_dim_have_bounds_ten_and_option_base():
    assert output("10 A(10) = 5\n20 PRINT A(10); A(0)\n") == " 5  0 \n"
    program = "10 OPTION BASE 1\n20 DIM B(2, 3)\n30 B(2, 3) = 6\n40 PRINT B(2, 3)\n"
    assert output(program) == " 6 \n"


def test_subscript_out_of_range_is_fatal_and_located():
    out, _, error = run_capturing('10 PRINT "BEFORE";\n20 DIM A(5)\n30 A(6) = 1\n')
    assert out == "BEFORE\n"  # the unfinished line is ended before the error
    assert str(error) == "prog.bas:3:4: error: subscript out of range A(6) [0 to 5]"
    _, _, error = run_capturing("10 OPTION BASE 1\n20 LET X = B(2, 0)\n30 END\n", std="ecma55")
    assert str(error) == "prog.bas:2:4: error: subscript out of range B(2,0) [1 to 10, 1 to 10]"


# --------------------------------------------------------------------------- control


def test_gosub_return_and_nested_subroutines():
    program = """
        10 GOSUB 100
        20 PRINT "BACK"
        30 STOP
        100 PRINT "A";
        110 GOSUB 200
        120 RETURN
        200 PRINT "B";
        210 RETURN
        220 END
    """
    assert output(program, std="ecma55") == "ABBACK\n"


def test_end_inside_a_subroutine_stops_the_program():
    assert output("10 GOSUB 40\n20 PRINT 2\n30 END\n40 PRINT 1\n50 END\n") == " 1 \n"


def test_return_without_gosub_is_fatal():
    _, _, error = run_capturing("10 PRINT 1\n20 RETURN\n30 END\n")
    assert str(error) == "prog.bas:2:4: error: RETURN without GOSUB"


def test_on_goto_and_on_gosub():
    program = """
        10 FOR K = 1 TO 3
        20 ON K GOTO 30, 50, 70
        30 PRINT "ONE";
        40 GOTO 80
        50 PRINT "TWO";
        60 GOTO 80
        70 ON K - 2.4 GOSUB 100
        80 NEXT K
        90 STOP
        100 PRINT "SUB";
        110 RETURN
        120 END
    """
    assert output(program) == "ONETWOSUB\n"  # ON ... GOSUB is an extension
    _, _, error = run_capturing("10 ON 3 GOTO 20, 30\n20 STOP\n30 END\n", std="ecma55")
    assert str(error) == "prog.bas:1:4: error: ON index out of range (3; 1 to 2 allowed)"


def test_if_then_with_strings_and_numbers():
    program = """
        10 LET A$ = "YES"
        20 IF A$ = "YES" THEN 40
        30 PRINT "WRONG"
        40 IF 1 <> 1 THEN 30
        50 PRINT "RIGHT"
        60 END
    """
    assert output(program, std="ecma55") == "RIGHT\n"


# --------------------------------------------------------------------------- DEF FN


def test_def_fn_parameters_are_local():
    program = """
        10 LET X = 100
        20 DEF FNA(X) = X * X + Y
        30 LET Y = 1
        40 PRINT FNA(3); X
        50 DEF FNP = Y + 1
        60 PRINT FNP
        70 END
    """
    assert output(program, std="ecma55") == " 10  100 \n 2 \n"


def test_fatal_error_inside_a_function_is_located_at_the_call():
    _, _, error = run_capturing("10 DEF FNR(X) = SQR(X)\n20 PRINT FNR(-1)\n30 END\n")
    assert str(error) == "prog.bas:2:4: error: function domain error SQR(-1)"
    assert error.notes == ("in the function FNR defined at prog.bas:1:4",)


# --------------------------------------------------------------------------- DATA and INPUT


def test_read_data_restore():
    program = """
        10 READ A, B$, C
        20 PRINT A; B$; C
        30 RESTORE
        40 READ D
        50 PRINT D
        60 DATA 1, "X Y", -2.5E1
        70 END
    """
    assert output(program, std="ecma55") == " 1 X Y-25 \n 1 \n"


def test_read_past_the_data_is_fatal():
    out, _, error = run_capturing("10 READ A, B\n20 DATA 7\n30 END\n")
    assert out == ""
    assert str(error) == "prog.bas:1:4: error: insufficient data for READ"


def test_input_prompts_and_reads_a_reply():
    out, err = run("10 INPUT A, B$\n20 PRINT A + 1; B$\n30 END\n", stdin="41, HELLO\n")
    assert (out, err) == ("?  42 HELLO\n", "")


def test_input_asks_again_after_a_bad_reply():
    out, err = run("10 INPUT A\n20 PRINT A\n", stdin="X\n5\n")
    assert out == "? ?  5 \n"
    assert "prog.bas:1:4: error: type mismatch for variable" in err


def test_input_at_end_of_file_is_fatal():
    _, _, error = run_capturing("10 INPUT A\n20 END\n")
    assert str(error) == "prog.bas:1:4: error: error on input stream"


# --------------------------------------------------------------------------- strings and PRINT


def test_print_zones_tab_and_trailing_separators():
    program = """
        10 PRINT "A", "B"; "C"
        20 PRINT TAB(5); "D";
        30 PRINT ,
        40 PRINT "E"
        50 PRINT 1, 2, 3, 4, 5, 6
        60 END
    """
    assert output(program, std="ecma55") == (
        "A               BC\n"
        "    D           E\n" + (" " * 13).join([" 1 ", " 2 ", " 3 ", " 4 ", " 5 "]) + "\n 6 \n"
    )


def test_strict_string_length_limit():
    _, _, error = run_capturing('10 LET A$ = "12345678901234567890"\n20 END\n', std="ecma55")
    assert str(error) == "prog.bas:1:4: error: string datum contains too many characters"


def test_unfinished_print_line_is_ended_at_the_end():
    assert output('10 PRINT "X";\n20 END\n') == "X\n"
