"""QuickBASIC's array lower bounds other than 0 and 1 (--dialect qbasic).

QuickBASIC 4.5 reference, DIM: `DIM A(lower TO upper)`, "lower and upper ... can be
negative" (-32768..32767); LBOUND and UBOUND give the declared bounds; a subscript
outside them is the run-time error 9, "Subscript out of range".  There is no QuickBASIC
here: the outputs follow from those rules.  Every program runs through the interpreter
and both generated targets (passes/quickbasic/array_bounds.py shifts such an array to start at
OPTION BASE, its subscripts with it).
"""

from __future__ import annotations

import pytest

from tests.checking import basic2tile, checked_run, interpreted_and_checked, refused

BOUNDS = """\
DIM A(2 TO 5), B(-3 TO 3, 1 TO 10) AS INTEGER
FOR i = 2 TO 5: A(i) = i * i: NEXT
FOR i = -3 TO 3
    FOR j = 1 TO 10
        B(i, j) = i * j
    NEXT
NEXT
PRINT LBOUND(A); UBOUND(A); LBOUND(B, 1); UBOUND(B, 1); LBOUND(B, 2); UBOUND(B, 2)
PRINT A(2); A(5); B(-3, 10); B(3, 1)
FOR i = LBOUND(A) TO UBOUND(A): PRINT A(i);: NEXT: PRINT
REDIM A(2 TO 8)
PRINT UBOUND(A); A(8)
ON ERROR GOTO Trap
PRINT A(1)
PRINT B(4, 1)
PRINT "end"
END
Trap:
PRINT "error"; ERR
RESUME NEXT
"""
BOUNDS_OUTPUT = """\
 2  5 -3  3  1  10 
 4  25 -30  3 
 4  9  16  25 
 8  0 
error 9 
error 9 
end
"""


def test_lower_bounds_other_than_0_and_1(tmp_path):
    assert interpreted_and_checked(tmp_path, BOUNDS, dialect="qbasic") == BOUNDS_OUTPUT


# Under OPTION BASE 1, in offloaded loops (kernels index the shifted arrays) and for a
# record array (its per-field arrays shift with it).
KERNELS_AND_RECORDS = """\
OPTION BASE 1
TYPE Pt
    x AS SINGLE
    y AS SINGLE
END TYPE
DIM p(-2 TO 2) AS Pt
DIM v(10 TO 1000), w(10 TO 1000)
FOR i = 10 TO 1000
    w(i) = i
NEXT
FOR i = 10 TO 1000
    v(i) = w(i) * 2 + 1
NEXT
PRINT v(10); v(1000); LBOUND(v); UBOUND(w)
FOR k = -2 TO 2: p(k).x = k: p(k).y = k * k: NEXT
PRINT p(-2).x; p(2).y; LBOUND(p); UBOUND(p)
PRINT v(9)
"""


def test_shifted_arrays_in_kernels_records_and_out_of_range(tmp_path):
    run = checked_run(tmp_path, KERNELS_AND_RECORDS, dialect="qbasic")
    assert run.stdout == " 21  2001  10  1000 \n-2  4 -2  2 \nSubscript out of range\n"
    assert "prog.bas:17:1: error: subscript out of range" in run.stderr
    explanation = basic2tile(tmp_path, KERNELS_AND_RECORDS, "--explain", dialect="qbasic")
    assert "3 loop(s), 3 offloaded to GPU kernels" in explanation.stdout + explanation.stderr


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "DIM a(2 TO 5)\nCALL S(a())\nSUB S (x())\nPRINT LBOUND(x)\nEND SUB\n",
            "2:8: error: A() has a lower bound other than 0 or 1: passing it to a SUB",
        ),
        (
            "DIM a(2 TO 5)\nREDIM a(3 TO 5)\n",
            "2:7: error: the DIMs of A give it different lower bounds: not supported",
        ),
    ],
)
def test_what_is_not_supported_is_located(tmp_path, text, message):
    refused(tmp_path, text, message)
