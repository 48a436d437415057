"""Dartmouth BASIC's MAT statements work on rows and columns 1..N: row and column 0 are
left alone, whatever the OPTION BASE (runtime/dialect.py, MAT_FIRST_SUBSCRIPT).

Oracle: Kemeny and Kurtz, "BASIC" (Dartmouth, 4th edition, 1968), on MAT: "the MAT
instructions ignore row 0 and column 0"; DIM M(2, 2) there gives MAT a 2 x 2 matrix.
The results below are worked out by hand.  extended (and ms) follow ECMA-116 instead: a
MAT statement takes the whole array from the OPTION BASE.  Every program runs through the
interpreter and both generated targets (on the CPU), which must agree.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tests.checking import interpreted_and_checked
from transpiler import driver
from transpiler.errors import BasicRuntimeError, SourceFile
from transpiler.ir import hostir
from transpiler.options import Options
from transpiler.reports.explain import explain

IDENTITY = "10 DIM A(2,2) : MAT A = IDN : MAT PRINT A;\n"


def test_idn_is_two_by_two_in_dartmouth(tmp_path: Path) -> None:
    assert interpreted_and_checked(tmp_path, IDENTITY, dialect="dartmouth") == (" 1  0 \n 0  1 \n")


def test_idn_takes_row_and_column_zero_in_extended(tmp_path: Path) -> None:
    assert interpreted_and_checked(tmp_path, IDENTITY, dialect="extended") == (
        " 1  0  0 \n 0  1  0 \n 0  0  1 \n"
    )


# Row and column 0 keep the values PRINT shows at line 140 through every MAT statement.
EVERY_STATEMENT = """\
10 DIM A(2,2), B(2,2), C(2,2), V(2), W(2)
20 A(0,0) = 9: A(0,1) = 8: A(1,0) = 6: C(0,2) = 7: W(0) = 5
30 MAT READ A, B, V
40 MAT C = A * B
50 MAT PRINT A; B; C;
60 MAT C = INV(A)
70 MAT PRINT C;
80 MAT C = TRN(A)
90 MAT PRINT C;
100 MAT C = A + B
110 MAT C = (2) * C
115 MAT C = C - A
120 MAT PRINT C;
130 MAT W = A * V
140 PRINT A(0,0); A(0,1); A(1,0); C(0,2); W(0)
150 MAT PRINT W
160 MAT C = CON
170 MAT PRINT C;
180 MAT B = C
190 MAT PRINT B;
200 DATA 1,2,3,4, 5,6,7,8, 1,1
"""
EVERY_STATEMENT_OUTPUT = """\
 1  2 
 3  4 

 5  6 
 7  8 

 19  22 
 43  50 
-2  1 
 1.5 -.5 
 1  3 
 2  4 
 11  14 
 17  20 
 9  8  6  7  5 
 3               7 
 1  1 
 1  1 
 1  1 
 1  1 
"""


def test_every_mat_statement_leaves_row_and_column_zero_alone(tmp_path: Path) -> None:
    got = interpreted_and_checked(tmp_path, EVERY_STATEMENT, dialect="dartmouth")
    assert got == EVERY_STATEMENT_OUTPUT


def test_new_dimensions_count_from_one(tmp_path: Path) -> None:
    program = (
        "10 DIM M(3,3), S$(3)\n20 MAT M = ZER(1,2)\n30 MAT PRINT M;\n"
        "40 MAT READ S$\n50 MAT PRINT S$;\n60 PRINT M(0,0); M(1,2)\n"
        '70 DATA "X", "Y", "Z"\n'
    )
    got = interpreted_and_checked(tmp_path, program, dialect="dartmouth")
    assert got == " 0  0 \nXYZ\n 0  0 \n"


def test_dimension_checks_count_from_one(tmp_path: Path) -> None:
    # a 2x2 A times a 3x3 B: the message gives the MAT shapes, not 3x3 and 4x4
    program = "10 DIM A(2,2), B(3,3), C(2,2)\n20 MAT C = A * B\n"
    for target in ("cutile", "cuda"):
        (tmp_path / "prog.bas").write_text(program)
        analysis = _analysis(program)
        got = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
        assert "MAT dimensions do not match (A is 2x2, B is 3x3)" in got.stderr
    with pytest.raises(BasicRuntimeError, match=r"A is 2x2, B is 3x3"):
        _interpret(_analysis(program), "")


MAT_INPUT = "10 DIM A(2,3)\n20 MAT INPUT A\n30 MAT PRINT A;\n40 PRINT A(0,0); A(1,0)\n"
MAT_INPUT_OUTPUT = "? ?  1  2  3 \n 4  5  6 \n 0  0 \n"


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_mat_input_asks_for_rows_of_columns_one_to_n(target: str) -> None:
    analysis = _analysis(MAT_INPUT)
    stdin = "1, 2, 3\n4, 5, 6\n"
    assert _interpret(analysis, stdin) == MAT_INPUT_OUTPUT
    got = driver.run(analysis, driver.generate(analysis, target), target, "cpu", stdin=stdin)
    assert got.stdout == MAT_INPUT_OUTPUT, got.stderr


PRODUCT = """\
10 DIM A(2,2), B(2,2), C(2,2)
20 MAT READ A, B
30 C(0,0) = 7
40 MAT C = A * B
50 MAT PRINT C;
60 PRINT C(0,0)
70 DATA 1,2,3,4, 5,6,7,8
"""
PRODUCT_BASE_1 = "5 OPTION BASE 1\n" + PRODUCT.replace("30 C(0,0) = 7\n", "").replace(
    "60 PRINT C(0,0)\n", ""
)


def test_mat_product_kernel_leaves_row_and_column_zero_alone() -> None:
    # The kernel starts one row and column in; test_mat_product_runs_like_the_interpreter
    # checks that C(0, 0) keeps its 7 on both targets.
    analysis = _analysis(PRODUCT)
    assert _launches(analysis)
    assert re.search(r"line 40\s+MAT .*\n\s+-> GPU kernel", explain(analysis))


def test_mat_product_is_offloaded_under_option_base_1() -> None:
    assert _launches(_analysis(PRODUCT_BASE_1))


@pytest.mark.parametrize("program", [PRODUCT, PRODUCT_BASE_1])
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_mat_product_runs_like_the_interpreter(program: str, target: str) -> None:
    analysis = _analysis(program)
    want = _interpret(analysis, "")
    assert want.startswith(" 19  22 \n 43  50 \n")
    got = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert got.stdout == want, got.stderr


def _analysis(text: str):
    return driver.front_end(SourceFile("prog.bas", text), Options(std="dartmouth"))


def _launches(analysis) -> list:
    host = driver.host_program(analysis)
    return [n for n in hostir.walk(host.body) if isinstance(n, hostir.Launch) and n.shapes]


def _interpret(analysis, stdin: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    status = driver.interpret(analysis, io.StringIO(stdin), out, err)
    assert status == 0, err.getvalue()
    return out.getvalue()


def test_a_three_dimensional_array_skips_every_subscript_zero(tmp_path: Path) -> None:
    # MAT READ fills A(1..2, 1..2, 1..2) in row-major order; MAT PRINT shows rows of the
    # last extent (the C++ runtime walked only two dimensions before)
    program = (
        "10 DIM A(2,2,2)\n20 MAT READ A\n30 PRINT A(1,1,1); A(1,2,1); A(2,2,2); A(0,1,1)\n"
        "40 MAT PRINT A;\n50 DATA 1,2,3,4,5,6,7,8\n"
    )
    got = interpreted_and_checked(tmp_path, program, dialect="dartmouth")
    assert got == " 1  3  8  0 \n 1  2 \n 3  4 \n 5  6 \n 7  8 \n"
