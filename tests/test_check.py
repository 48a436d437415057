"""`--check` (driver.check): besides stdout and the exit status, the warnings and the
fatal error on stderr must be the same, in the same order, with the same BASIC lines."""

from __future__ import annotations

import io
import os

import pytest

from transpiler import driver
from transpiler.errors import BasicRuntimeError, SourceFile
from transpiler.options import Options
from transpiler.run.compare import interpreter_diagnostics, program_diagnostics

PROGRAM = "10 LET Z = 0\n20 PRINT 1 / Z\n30 FOR I = 1 TO 2\n40 PRINT LOG(Z - I)\n50 NEXT I\n"


@pytest.fixture(autouse=True)
def empty_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def _analysis(text: str = PROGRAM):
    return driver.front_end(SourceFile("prog.bas", text), Options())


def test_interpreter_and_program_diagnostics_read_alike():
    analysis = _analysis()
    err = io.StringIO()
    with pytest.raises(BasicRuntimeError) as failure:
        driver.interpret(analysis, stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    expected = [
        "warning: line 20: division by zero",
        "error: line 40: function domain error LOG(-1)",
    ]
    assert interpreter_diagnostics(analysis, err.getvalue(), failure.value) == expected
    generated = (
        "prog.bas: warning: line 20: division by zero\n"
        "prog.bas: error: line 40: function domain error LOG(-1)\n"
    )
    assert program_diagnostics(analysis, generated) == expected


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_check_passes_when_the_warnings_agree(target):
    analysis = _analysis()
    code = driver.generate(analysis, target)
    out = io.StringIO()
    assert driver.check(analysis, code, target, "cpu", out=out) == 0, out.getvalue()


def test_check_fails_when_a_warning_is_lost():
    analysis = _analysis()
    code = driver.generate(analysis, "cutile")
    hook = "set_warning_hook(report_notice)"
    assert hook in code
    quiet = code.replace(hook, "set_warning_hook(lambda notice: None)")
    out = io.StringIO()
    assert driver.check(analysis, quiet, "cutile", "cpu", out=out) == 1
    assert "-warning: line 20: division by zero" in out.getvalue()


def test_a_number_near_zero_may_change_sign_within_the_tolerance():
    # PRINT puts a space where a minus sign goes: " 0" against "-5.5511151E-17" is a
    # number that moved by 5.6E-17 (within 1e-12 absolute), not text that changed.
    from transpiler.run.compare import lines_match

    assert lines_match(" 0               1 \n", "-5.5511151E-17   1 \n", 1e-6, 1e-12)
    assert not lines_match(" 0 \n", "-1E-9 \n", 1e-6, 1e-12)
    assert not lines_match("X = 5 \n", "X =-5 \n", 1e-6, 1e-12)


INVERSE_PRODUCT = (
    "5 OPTION BASE 1\n10 DIM A(3,3), B(3,3), C(3,3)\n20 MAT READ A\n30 DATA 4,7,2,3,6,1,2,5,3\n"
    "40 MAT B = INV(A)\n50 MAT C = A * B\n60 MAT PRINT C\n70 END\n"
)


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_check_accepts_a_matrix_product_summed_in_another_order(target):
    # The kernel's products add per tile of K (NumPy's matrix product on the CPU): an
    # element the interpreter computes as exactly 0 can be -5.6E-17 (docs/semantics.md).
    analysis = _analysis(INVERSE_PRODUCT)
    assert any(d.offloaded and d.kind == "mma" for d in driver.host_program(analysis).decisions)
    out = io.StringIO()
    code = driver.generate(analysis, target)
    assert driver.check(analysis, code, target, "cpu", out=out) == 0, out.getvalue()


RANDOMIZED = "10 RANDOMIZE\n20 FOR I = 1 TO 3\n30 PRINT RND\n40 NEXT I\n50 END\n"


@pytest.mark.parametrize("std", ["ecma55", "extended"])
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_check_gives_a_plain_randomize_one_seed_for_both_runs(monkeypatch, std, target):
    """A plain RANDOMIZE seeds from the clock: --check fixes $BASIC2TILE_SEED for both
    runs (as it fixes TIMER under ms), and leaves it unset afterwards."""
    monkeypatch.delenv("BASIC2TILE_SEED", raising=False)
    analysis = driver.front_end(SourceFile("prog.bas", RANDOMIZED), Options(std=std))
    code = driver.generate(analysis, target)
    out = io.StringIO()
    assert driver.check(analysis, code, target, "cpu", out=out) == 0, out.getvalue()
    assert "BASIC2TILE_SEED" not in os.environ


def test_a_plain_run_of_randomize_stays_random(monkeypatch):
    monkeypatch.delenv("BASIC2TILE_SEED", raising=False)
    analysis = driver.front_end(SourceFile("prog.bas", RANDOMIZED), Options(std="ecma55"))
    outputs = set()
    for _ in range(2):
        out = io.StringIO()
        driver.interpret(analysis, stdin=io.StringIO(""), stdout=out, stderr=io.StringIO())
        outputs.add(out.getvalue())
    assert len(outputs) == 2
