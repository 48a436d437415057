"""QuickBASIC's loops become kernels as GW-BASIC's do (issues 21 and 22): the parallel
FOR loops of a SUB or a FUNCTION, loops over DOUBLE arrays (DEFDBL, `DIM SHARED a(1 TO n)`,
computed in an f64 kernel when every value of the loop is a double or an integer), and
loops whose INTEGER arithmetic provably stays within 16 bits (QuickBASIC stops with
"Overflow" beyond it, so a loop whose INTEGER or LONG operation may overflow stays on the
host, where BASIC reports it).

There is no QuickBASIC interpreter here: the outputs are reasoned from Microsoft's
QuickBASIC 4.5 / QBasic 1.1 language reference (INTEGER arithmetic stays INTEGER and
stops with "Overflow" beyond -32768..32767; "Type conversion") and from the arithmetic
itself (the Gauss-Jordan system's solution is 2, 3, -1).  Every program runs through the
interpreter and both generated targets (cuTile Python and CUDA C++ on the CPU), with the
default tiles and with `--tile 4` (several blocks), which must agree exactly.
"""

from __future__ import annotations

import pytest

from tests import pcbasic_oracle
from tests.checking import assert_checks, basic2tile, checked_run, interpreted_and_checked

GAUSS = """\
DEFDBL A-H, O-Z
DIM SHARED a(1 TO 3, 1 TO 4)
FOR i% = 1 TO 3: FOR j% = 1 TO 4: READ a(i%, j%): NEXT j%, i%
DATA 2, 1, -1, 8
DATA -3, -1, 2, -11
DATA -2, 1, 2, -3
CALL Gauss(3)
FOR i% = 1 TO 3
    PRINT USING "x# = ###.###"; i%; a(i%, 4)
NEXT i%

SUB Gauss (n AS INTEGER)
    FOR k% = 1 TO n
        p = a(k%, k%)
        FOR j% = k% TO n + 1: a(k%, j%) = a(k%, j%) / p: NEXT j%
        FOR i% = 1 TO n
            IF i% <> k% THEN
                f = a(i%, k%)
                FOR j% = k% TO n + 1
                    a(i%, j%) = a(i%, j%) - f * a(k%, j%)
                NEXT j%
            END IF
        NEXT i%
    NEXT k%
END SUB
"""
GAUSS_OUTPUT = "x1 =   2.000\nx2 =   3.000\nx3 =  -1.000\n"

# A matrix product in a SUB, `%` loop variables bounded by a CONST and the SUB's
# INTEGER parameter; the filling loop's `i% - j%` is INTEGER arithmetic within 1 - 6..6 - 1.
MATRIX_PRODUCT = """\
CONST N = 6
DIM SHARED a(1 TO N, 1 TO N), b(1 TO N, 1 TO N), c(1 TO N, 1 TO N)
FOR i% = 1 TO N
    FOR j% = 1 TO N
        a(i%, j%) = i% + j% / 4
        b(i%, j%) = i% - j%
    NEXT j%
NEXT i%
CALL MatMul(N)
FOR i% = 1 TO N
    PRINT c(i%, 1); c(i%, N)
NEXT i%

SUB MatMul (m AS INTEGER)
    FOR i% = 1 TO m
        FOR j% = 1 TO m
            s = 0
            FOR k% = 1 TO m
                s = s + a(i%, k%) * b(k%, j%)
            NEXT k%
            c(i%, j%) = s
        NEXT j%
    NEXT i%
END SUB
"""
MATRIX_PRODUCT_OUTPUT = """\
 32.5 -23.75 
 47.5 -38.75 
 62.5 -53.75 
 77.5 -68.75 
 92.5 -83.75 
 107.5 -98.75 
"""

# A vector update in a FUNCTION: `i% + 1` and `i% * 3` are INTEGER arithmetic whose
# operands' ranges (1..19) keep them far inside 16 bits.
VECTOR_UPDATE = """\
DIM SHARED x(1 TO 20), y(1 TO 20)
FOR i% = 1 TO 20: x(i%) = i% / 2: y(i%) = 20 - i%: NEXT i%
PRINT Axpy(2.5, 20)
FOR i% = 1 TO 20 STEP 5: PRINT y(i%); : NEXT i%
PRINT

FUNCTION Axpy (alpha, n AS INTEGER)
    FOR i% = 1 TO n - 1
        y(i% + 1) = alpha * x(i%) + y(i% + 1) + i% * 3
    NEXT i%
    Axpy = y(n)
END FUNCTION
"""
VECTOR_UPDATE_OUTPUT = " 80.75 \n 19  35.25  51.5  67.75 \n"


def checked(folder, text: str, *options: str) -> str:
    """What the interpreter prints, after --check passed on both targets, with the
    default tiles and with 4-wide ones."""
    for tile in ((), ("--tile", "4")):
        assert_checks(folder, text, *tile, *options, dialect="qbasic")
    done = basic2tile(folder, text, "--interpret", *options, dialect="qbasic")
    return done.stdout


def explained(folder, text: str, dialect: str = "qbasic") -> str:
    done = basic2tile(folder, text, "--explain", dialect=dialect)
    assert done.returncode == 0, done.stderr
    return done.stdout


def offloaded(explanation: str, loop: str) -> bool:
    return f"{loop}\n      -> GPU kernel" in explanation


@pytest.mark.parametrize(
    "text, loops, output",
    [
        pytest.param(
            GAUSS,
            ["source line 15 FOR j% = k% TO n + 1", "source line 19 FOR j% = k% TO n + 1"],
            GAUSS_OUTPUT,
            id="gauss-jordan-in-a-sub",
        ),
        pytest.param(
            MATRIX_PRODUCT,
            ["source line 3 FOR i% = 1 TO N", "source line 15 FOR i% = 1 TO m"],
            MATRIX_PRODUCT_OUTPUT,
            id="matrix-product-in-a-sub",
        ),
        pytest.param(
            VECTOR_UPDATE,
            ["source line 2 FOR i% = 1 TO 20", "source line 8 FOR i% = 1 TO n - 1"],
            VECTOR_UPDATE_OUTPUT,
            id="vector-update-in-a-function",
        ),
    ],
)
def test_procedure_loops_become_kernels(tmp_path, text, loops, output):
    explanation = explained(tmp_path, text)
    for loop in loops:
        assert offloaded(explanation, loop), explanation
    assert checked(tmp_path, text) == output


def test_double_loops_compute_in_f64_kernels(tmp_path):
    """The loops of the DEFDBL Gauss-Jordan solver are f64 kernels in a program whose
    singles are f32 (a double array was "not numeric", and an f32 kernel would round)."""
    explanation = explained(tmp_path, GAUSS)
    assert "A#() f64 2-D in/out" in explanation, explanation
    assert "is not numeric" not in explanation


def test_a_single_in_a_double_loop_keeps_it_on_the_host(tmp_path):
    """A single among the doubles: an f64 kernel would not round it as a single, an f32
    kernel would round the doubles."""
    text = (
        "DEFDBL A\nDIM a(1 TO 8), s(1 TO 8)\nFOR i% = 1 TO 8\n    a(i%) = s(i%) + 1 / 3\n"
        "NEXT i%\nPRINT a(8)\n"
    )
    explanation = explained(tmp_path, text)
    assert "double-precision values stay on the host" in explanation, explanation
    assert checked(tmp_path, text) == " .3333333432674408 \n"


def test_a_single_in_a_subroutine_of_a_double_loop_keeps_it_on_the_host(tmp_path):
    """The subroutine a GOSUB of the loop runs is part of the loop: its single `I% / 7`
    keeps an f64 kernel away (--check's tolerance for singles would not see it)."""
    text = (
        "10 DEFDBL A-H\n20 DIM A(12), B(12)\n"
        "30 FOR I% = 1 TO 12: A(I%) = I% / 3#: GOSUB 100: NEXT I%\n"
        "40 PRINT B(12)\n50 END\n100 B(I%) = A(I%) + I% / 7: RETURN\n"
    )
    explanation = explained(tmp_path, text, "ms")
    assert "double-precision values stay on the host" in explanation, explanation


def test_a_single_in_a_function_of_a_double_loop_keeps_it_on_the_host(tmp_path):
    """So is the body of a DEF FN the loop calls: its single SQR(2) (GW-BASIC computes
    functions in single precision).  A single constant there is no single operation:
    `X# * 1.1` widens the constant's float32 value, as an f64 kernel does (4 times
    float32(1.1) is 4.400000095367432: numpy's float32(1.1) widened)."""
    text = (
        "10 DEFDBL A-H\n20 DIM A(12)\n25 DEF FNF#(X#) = X# * SQR(2)\n"
        "30 FOR I% = 1 TO 12: A(I%) = FNF#(I% / 3#): NEXT I%\n40 PRINT A(12)\n"
    )
    explanation = explained(tmp_path, text, "ms")
    assert "double-precision values stay on the host" in explanation, explanation
    for factor in ("2", "1.1"):
        other = text.replace("SQR(2)", factor)
        assert offloaded(explained(tmp_path, other, "ms"), "line 30    FOR I% = 1 TO 12")
    constant = text.replace("SQR(2)", "1.1")
    for tile in ((), ("--tile", "4")):
        assert_checks(tmp_path, constant, *tile, dialect="ms")
    printed = basic2tile(tmp_path, constant, "--interpret", dialect="ms").stdout
    assert printed == " 4.400000095367432 \n"


# The near miss: 40 * 7 * 1000 is beyond an INTEGER, so QuickBASIC stops with Overflow
# at line 40 (the first i% whose product overflows is 5: 35000).
OVERFLOW = """\
10 DIM a%(1 TO 40), c%(1 TO 40)
20 FOR i% = 1 TO 40: a%(i%) = i% * 7: NEXT i%
30 FOR i% = 1 TO 40
40     c%(i%) = a%(i%) * 1000
50 NEXT i%
60 PRINT c%(1)
"""

# Nearer still: a loop that is a kernel when its product fits (40 * 100) and stays on the
# host when it may not (40 * 1000: Overflow at i% = 33, line 50).
NEAR_MISS = """\
10 DIM c(1 TO 40), d(1 TO 40)
20 FOR i% = 1 TO 40
30     c(i%) = i% * 100
40     d(i%) = i% * 1000
50 NEXT i%
60 PRINT c(40)
"""


@pytest.mark.parametrize(
    "text, loop, output, where",
    [
        (
            OVERFLOW,
            "line 30    FOR i% = 1 TO 40",
            "Overflow in 40\n",
            "4:8: error: Overflow (35000)",
        ),
        (
            NEAR_MISS,
            "line 20    FOR i% = 1 TO 40",
            "Overflow in 40\n",
            "4:8: error: Overflow (33000)",
        ),
    ],
    ids=["integer-arrays", "single-arrays"],
)
def test_an_integer_product_that_may_overflow_stays_on_the_host(
    tmp_path, text, loop, output, where
):
    explanation = explained(tmp_path, text)
    assert (
        f"{loop}\n      -> host: QuickBASIC's INTEGER and LONG arithmetic that may overflow"
        in explanation
    ), explanation
    # --check compares the reports too: both targets stop with it at that line.
    assert checked(tmp_path, text) == output
    done = basic2tile(tmp_path, text, "--interpret", dialect="qbasic")
    assert "prog.bas:" + where in done.stderr, done.stderr


def test_the_product_that_fits_is_a_kernel(tmp_path):
    text = NEAR_MISS.replace("40     d(i%) = i% * 1000\n", "")
    assert offloaded(explained(tmp_path, text), "line 20    FOR i% = 1 TO 40")
    assert checked(tmp_path, text) == " 4000 \n"


# 300 * 200: QuickBASIC's INTEGER product overflows; GW-BASIC's is the single 60000.
PRODUCTS = "DIM b(300)\nFOR i% = 1 TO 300\n    b(i%) = i% * 200\nNEXT i%\nPRINT b(300)\n"


def test_microsoft_basic_integer_products_stay_kernels(tmp_path):
    """Under --dialect ms the loop stays a kernel (GW-BASIC's integer arithmetic gives
    singles); under qbasic its product may overflow: the host, with QuickBASIC's Overflow."""
    assert offloaded(explained(tmp_path, PRODUCTS, "ms"), "source line 2 FOR i% = 1 TO 300")
    assert checked_run(tmp_path, PRODUCTS).stdout == " 60000 \n"
    explanation = explained(tmp_path, PRODUCTS)
    assert "source line 2 FOR i% = 1 TO 300\n      -> host" in explanation, explanation
    assert checked(tmp_path, PRODUCTS) == "Overflow\n"


# PC-BASIC 2.0.8 (tests/pcbasic_oracle.py) printed this (GW-BASIC warns "Overflow" and
# goes on with its largest double; a double FOR variable would be a Type mismatch there).
GW_DOUBLES = """\
10 DEFDBL A-H
20 DIM A(12), B(12)
30 FOR I% = 1 TO 12: A(I%) = I% / 3#: B(I%) = A(I%) * 1D+37 * I%: NEXT I%
40 PRINT A(1); A(12); B(1); B(12)
"""
GW_DOUBLES_OUTPUT = (
    "Overflow\n" * 5 + " .3333333333333333  4  3.333333333333333D+36  1.701411834604692D+38 \n"
)


def test_gw_basic_double_loops_are_f64_kernels_too(tmp_path):
    """The same holds under --dialect ms: a loop of doubles and integers is an f64 kernel
    (it stayed on the host), and a product beyond the double range still warns "Overflow"
    in each iteration, in order (the kernel's block is replayed on the host)."""
    assert offloaded(explained(tmp_path, GW_DOUBLES, "ms"), "line 30    FOR I% = 1 TO 12")
    for tile in ((), ("--tile", "4")):
        assert interpreted_and_checked(tmp_path, GW_DOUBLES, *tile) == GW_DOUBLES_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_gw_basic_doubles_as_pc_basic_prints_them(tmp_path):
    assert pcbasic_oracle.run(GW_DOUBLES, folder=tmp_path) == GW_DOUBLES_OUTPUT
