"""Offloaded loops of legacy programs compute what the reference interpreter computes:
each program here has its loop made a kernel (asserted), and `--check` runs the
generated cuTile module (tile simulator) and CUDA program (g++) against the interpreter
on the CPU."""

from __future__ import annotations

import shutil

import pytest

from tests.differential import Run, interpret, run_target
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

TARGETS = ["cutile", "cuda"]
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


def _analysis(text: str):
    return driver.front_end(SourceFile("prog.bas", text), Options())


def interpreted(text: str) -> str:
    return interpret(_analysis(text)).stdout


def check(text: str, target: str) -> Run:
    """The loops of `text` became kernels, and the generated program prints exactly what
    the interpreter prints and exits as it does; returns the generated program's run."""
    analysis = _analysis(text)
    assert driver.host_program(analysis).kernels, "the loop stayed on the host: nothing checked"
    reference = interpret(analysis)
    run = run_target(analysis, target)
    assert (run.status, run.stdout) == (reference.status, reference.stdout), run.stderr
    return run


NEGATIVE_MOD = """10 DIM A(4), B(4)
20 FOR I = 1 TO 4 : A(I) = (0 - I) MOD 3 : B(I) = (I + 0.5) MOD (-2) : NEXT I
30 PRINT A(1); A(2); A(3); A(4)
40 PRINT B(1); B(2); B(3); B(4)
"""


def test_mod_takes_the_sign_of_the_dividend_in_the_interpreter():
    assert interpreted(NEGATIVE_MOD) == "-1 -2  0 -1 \n 1.5  .5  1.5  .5 \n"


@needs_gxx
@pytest.mark.parametrize("target", TARGETS)
def test_mod_of_negative_operands_in_a_kernel(target):
    # The kernels printed 2 1 (cuTile's and Python's % take the sign of the divisor).
    check(NEGATIVE_MOD, target)


# A loop whose lane 3 meets a fatal error of the interpreter; the message the generated
# program gives (its operand is not known to the host, which only learns the site).
FATAL = {
    "sqr": ("LET A(I) = SQR(2 - I)", "function domain error SQR"),
    "log_of_zero": ("LET A(I) = LOG(3 - I)", "function domain error LOG"),
    "log_of_negative": ("LET A(I) = LOG(2 - I)", "function domain error LOG"),
    "sin_of_inf": ("LET A(I) = SIN(H * H * (I - 2))", "function domain error SIN"),
    "tan_of_inf": ("LET A(I) = TAN(H * H * (I - 2))", "function domain error TAN"),
    "cos_of_inf": ("LET A(I) = COS(-H * H * (I - 2))", "function domain error COS"),
    "fractional_power": ("LET A(I) = (2 - I) ^ 0.5", "negative value raised to non-integral value"),
    "nan_power": ("LET A(I) = (2 - I) ^ (Z * (H * H))", "negative value raised to non-integral value"),
}


@needs_gxx
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", sorted(FATAL))
def test_a_fatal_domain_error_in_a_kernel_stops_the_program(case, target):
    """SQR(-1), LOG(0), SIN(INF), (-1) ^ .5 in a kernel gave NaN and the program went on;
    the interpreter stops with a fatal error.  (Z * (H * H) is 0 * INF, NaN: not integral.)"""
    statement, message = FATAL[case]
    text = (
        f'10 DIM A(5)\n20 LET H = 1E300\n25 LET Z = 0\n30 PRINT "BEFORE"\n40 FOR I = 1 TO 5\n'
        f'50 {statement}\n60 NEXT I\n70 PRINT "AFTER"; A(1)\n80 END\n'
    )
    assert interpret(_analysis(text)).status == 1
    run = check(text, target)
    assert run.stdout == "BEFORE\n"
    assert f"line 50: {message}" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


@needs_gxx
@pytest.mark.parametrize("target", TARGETS)
def test_a_nan_subscript_in_a_kernel_is_out_of_range(target):
    # The conversion of NaN to an integer gives 0: the kernels read B(0) silently.
    text = (
        "10 DIM A(5), B(5)\n20 LET Z = 0\n30 LET H = 1E300\n40 FOR I = 0 TO 5 : B(I) = 10 + I : NEXT I\n"
        "50 FOR I = 1 TO 3\n60 LET A(I) = B(I + Z * (H * H) * (I - 2))\n70 NEXT I\n"
        "80 PRINT A(1); A(2); A(3)\n"
    )
    run = check(text, target)
    assert run.status == 1 and "line 60: subscript out of range" in run.stderr
