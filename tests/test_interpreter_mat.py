"""MAT statements (semantics in transpiler/interpreter/mat.py); results worked out by hand."""

from __future__ import annotations

from .interpreter_helpers import output, run_capturing

SETUP = """
    10 OPTION BASE 1
    20 DIM A(2, 3), B(3, 2), C(2, 2), D(3, 2), E(2, 3), V(3), W(3)
    30 MAT READ A, B
    40 DATA 1, 2, 3, 4, 5, 6
    50 DATA 7, 8, 9, 10, 11, 12
"""


def test_mat_read_product_and_packed_print():
    program = SETUP + "60 MAT C = A * B\n70 MAT PRINT C;\n"
    assert output(program) == " 58  64 \n 139  154 \n"


def test_mat_print_zones_and_a_blank_line_between_arrays():
    program = SETUP + "60 MAT PRINT A, C;\n"
    assert output(program) == (
        " 1               2               3 \n"
        " 4               5               6 \n"
        "\n"
        " 0  0 \n"
        " 0  0 \n"
    )


def test_transpose_sum_difference_and_scale():
    program = SETUP + (
        "60 MAT D = TRN(A)\n70 MAT PRINT D;\n"
        "80 MAT E = A + A\n90 MAT E = E - A\n100 MAT E = (3) * E\n110 MAT PRINT E;\n"
    )
    assert output(program) == " 1  4 \n 2  5 \n 3  6 \n 3  6  9 \n 12  15  18 \n"


def test_vector_times_matrix_and_matrix_times_vector():
    program = SETUP + (
        "60 MAT V = CON\n70 MAT W = V * B\n80 MAT PRINT W;\n" "90 MAT W = A * V\n100 MAT PRINT W;\n"
    )
    # V * B: column sums of B; A * V: row sums of A (W takes each result's length)
    assert output(program) == " 27  30 \n 6  15 \n"


def test_zer_con_idn_and_redimensioning():
    program = """
        10 OPTION BASE 1
        20 DIM M(3, 3)
        30 MAT M = IDN
        40 MAT PRINT M;
        50 MAT M = CON(2, 4)
        60 MAT PRINT M;
        70 MAT M = ZER(1, 2)
        80 MAT PRINT M;
    """
    assert output(program) == (
        " 1  0  0 \n 0  1  0 \n 0  0  1 \n 1  1  1  1 \n 1  1  1  1 \n 0  0 \n"
    )


def test_option_base_zero_includes_row_and_column_zero():
    program = "5 OPTION BASE 0\n10 DIM A(1, 1)\n20 MAT A = CON\n30 PRINT A(0, 0); A(1, 1)\n40 MAT PRINT A;\n"
    assert output(program) == " 1  1 \n 1  1 \n 1  1 \n"


def test_mat_without_option_base_is_dartmouths_from_row_one():
    # Dartmouth BASIC, 4th edition: MAT leaves row and column 0 alone; a program with
    # MAT and no OPTION BASE gets --dialect dartmouth (docs/dialects.md).
    program = "10 DIM A(2, 2)\n20 MAT READ A\n30 DATA 1, 2, 3, 4\n40 MAT PRINT A;\n50 PRINT A(0, 0)\n"
    assert output(program) == " 1  2 \n 3  4 \n 0 \n"


def test_inverse():
    program = """
        10 OPTION BASE 1
        20 DIM A(2, 2), B(2, 2)
        30 MAT READ A
        40 DATA 4, 7, 2, 6
        50 MAT B = INV(A)
        60 MAT PRINT B;
    """
    assert output(program) == " .6 -.7 \n-.2  .4 \n"


def test_singular_matrix_and_mismatched_shapes_are_fatal():
    program = (
        "10 OPTION BASE 1\n20 DIM S(2, 2)\n30 MAT READ S\n40 DATA 1, 2, 2, 4\n50 MAT S = INV(S)\n"
    )
    _, _, error = run_capturing(program)
    assert str(error) == "prog.bas:5:4: error: singular matrix INV(S)"
    _, _, error = run_capturing(SETUP + "60 MAT E = A + B\n")
    assert str(error) == "prog.bas:6:4: error: MAT dimensions do not match (A is 2x3, B is 3x2)"


def test_redimensioning_beyond_the_dim_is_fatal():
    program = "10 OPTION BASE 1\n20 DIM A(2, 2)\n30 MAT A = ZER(3, 3)\n"
    _, _, error = run_capturing(program)
    assert str(error) == "prog.bas:3:4: error: MAT result larger than the array's DIM A(3,3)"


def test_mat_read_with_new_dimensions_and_element_access_after_it():
    program = """
        10 OPTION BASE 1
        20 DIM A(3, 3)
        30 MAT READ A(2, 2)
        40 DATA 1, 2, 3, 4
        50 PRINT A(2, 1); A(1, 2)
    """
    assert output(program) == " 3  2 \n"
    # the shape changed: (3, 1) is outside it now
    _, _, error = run_capturing(program + "60 PRINT A(3, 1)\n")
    assert str(error) == "prog.bas:6:4: error: subscript out of range A(3,1) [1 to 2, 1 to 2]"


def test_mat_input_reads_one_reply_per_row():
    program = "10 OPTION BASE 1\n20 DIM M(2, 2)\n30 MAT INPUT M\n40 MAT PRINT M;\n"
    out = output(program, stdin="1, 2\n3, 4\n")
    assert out == "? ?  1  2 \n 3  4 \n"
