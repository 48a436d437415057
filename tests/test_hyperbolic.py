"""SINH, COSH and TANH: extended BASIC's hyperbolic functions, on the host and in kernels.

One row in `transpiler/language/builtins.py` plus their implementations (the two runtimes, the
kernel IR's operations in both kernel printers and the kernel interpreter).  Expected
values are Python's math.sinh/cosh/tanh printed with BASIC's 8 digits (the reference
interpreter's output, held here); SINH and COSH overflow with EXP's warning.
"""

from __future__ import annotations

from tests.checking import basic2tile, interpreted_and_checked
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

PROGRAM = """\
10 DIM Y(100)
20 FOR I = 1 TO 100
30 Y(I) = SINH(I / 50) + COSH(I / 100) * TANH(I / 25 - 2)
40 NEXT I
50 PRINT Y(1); Y(50); Y(100)
60 PRINT SINH(1); COSH(-1); TANH(0.5)
"""
OUTPUT = "-.94113655  1.1752012  5.1144327 \n 1.1752012  1.5430806  .46211716 \n"


def test_hyperbolic_functions_agree_on_the_host_and_in_a_kernel(tmp_path):
    assert interpreted_and_checked(tmp_path, PROGRAM, dialect=None) == OUTPUT


def test_the_loop_is_a_kernel():
    analysis = driver.front_end(SourceFile("prog.bas", PROGRAM), Options())
    assert driver.host_program(analysis).kernels


def test_an_overflow_warns_as_exp_does(tmp_path):
    text = "10 PRINT SINH(1000); COSH(-1000); TANH(1000)\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " INF  INF  1 \n"
    done = basic2tile(tmp_path, text, "--interpret", dialect=None)
    assert "operation overflow SINH(1000)" in done.stderr
    assert "operation overflow COSH(-1000)" in done.stderr


def test_gw_basic_has_no_hyperbolic_functions(tmp_path):
    """In GW-BASIC, SINH is a variable name (0 here), as PC-BASIC reads it."""
    text = "10 PRINT SINH\n"
    assert interpreted_and_checked(tmp_path, text) == " 0 \n"
