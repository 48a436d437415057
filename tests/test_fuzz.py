"""Differential fuzzing: random valid programs (tests/programgen.py) must print the same
thing and exit the same way under the reference interpreter, the generated cuTile Python
(NumPy tile simulator) and the generated CUDA C++ (g++ with the emulator), and their
numbers must agree with Debian's bwbasic.

Bounded so the file runs in well under a minute on 2 cores: a CUDA build costs 1-3 s, so
CUDA gets few examples; bench/fuzz.py runs the same check for thousands of programs.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.differential import (
    BWBASIC,
    Run,
    compare_runs,
    compare_with_bwbasic,
    differential,
    interpret,
)
from tests.nestgen import nest_program
from tests.programgen import random_program
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
SIZES = st.integers(min_value=1, max_value=20)
# Derandomized: CI sees the same programs every run (bench/fuzz.py explores new seeds).
BOUNDED = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": [HealthCheck.too_slow],
}


def _agrees(program: str, seed: int, precision: str | None) -> None:
    outcome = differential(program, f"seed{seed}", targets=("cutile",), precision=precision)
    if precision and not outcome.agrees:
        # Kernels compute in float32 where the interpreter keeps double intermediates
        # (docs/command-line.md: --precision), as bench/fuzz.py counts "f32 rounding only": the
        # program's logic is checked in f64, where the results must agree.
        outcome = differential(program, f"seed{seed}", targets=("cutile",))
    assert outcome.agrees, f"{outcome.describe()}\n{program}"


@settings(max_examples=16, **BOUNDED)
@given(seed=SEEDS, statements=SIZES, precision=st.sampled_from([None, "f32"]))
def test_cutile_on_cpu_agrees_with_interpreter(seed, statements, precision):
    _agrees(random_program(seed, statements), seed, precision)


@settings(max_examples=5, **BOUNDED)
@given(seed=SEEDS, statements=SIZES)
def test_cuda_and_cutile_on_cpu_agree_with_interpreter(seed, statements):
    program = random_program(seed, statements)
    outcome = differential(program, f"seed{seed}", targets=("cutile", "cuda"))
    assert outcome.agrees, f"{outcome.describe()}\n{program}"


@settings(max_examples=16, **BOUNDED)
@given(seed=SEEDS, statements=SIZES, precision=st.sampled_from([None, "f32"]))
def test_near_misses_of_exceptions_report_alike_on_cutile(seed, statements, precision):
    # Warnings and errors too: the harness compares stderr's diagnostics.
    _agrees(random_program(seed, statements, exceptions=True), seed, precision)


@settings(max_examples=4, **BOUNDED)
@given(seed=SEEDS, statements=SIZES)
def test_near_misses_of_exceptions_report_alike_on_both_targets(seed, statements):
    program = random_program(seed, statements, exceptions=True)
    outcome = differential(program, f"seed{seed}", targets=("cutile", "cuda"))
    assert outcome.agrees, f"{outcome.describe()}\n{program}"


@pytest.mark.skipif(BWBASIC is None, reason="bwbasic is not installed (apt install bwbasic)")
@settings(max_examples=12, **BOUNDED)
@given(seed=SEEDS, statements=SIZES)
def test_interpreter_numbers_agree_with_bwbasic(seed, statements):
    program = random_program(seed, statements)
    outcome = differential(program, f"seed{seed}", targets=(), bwbasic=True)
    assert outcome.agrees, f"{outcome.describe()}\n{program}"


# The harness itself must notice a difference, or the tests above could never fail.


def test_harness_reports_a_number_outside_the_tolerance():
    assert compare_runs(Run(0, "SUM 1.5 \n"), Run(0, "SUM 1.5001 \n"), "t", "f64")
    assert not compare_runs(Run(0, "SUM 1.5 \n"), Run(0, "SUM 1.5000001 \n"), "t", "f64")


def test_harness_reports_text_missing_lines_and_exit_status():
    assert compare_runs(Run(0, "A = 1 \n"), Run(0, "B = 1 \n"), "t", "f64")
    assert compare_runs(Run(0, "A = 1 \nB = 2 \n"), Run(0, "A = 1 \n"), "t", "f64")
    assert compare_runs(Run(0, "A = 1 \n"), Run(1, "A = 1 \n"), "t", "f64")


def test_harness_reports_a_difference_in_the_warnings():
    analysis = driver.front_end(
        SourceFile("w.bas", "10 LET X = 1E308\n20 PRINT X + X\n30 END\n"), Options()
    )
    reference = interpret(analysis)
    warned = Run(0, reference.stdout, "w.bas: warning: line 20: operation overflow (+)\n")
    assert not compare_runs(reference, warned, "t", "f64", analysis)
    assert compare_runs(reference, Run(0, reference.stdout, ""), "t", "f64", analysis)
    other_line = Run(0, reference.stdout, "w.bas: warning: line 10: operation overflow (+)\n")
    assert compare_runs(reference, other_line, "t", "f64", analysis)


def test_harness_reports_a_program_the_front_end_rejects():
    assert not differential("10 PRINT (\n20 END\n", "bad", targets=()).agrees


@pytest.mark.skipif(BWBASIC is None, reason="bwbasic is not installed (apt install bwbasic)")
def test_harness_reports_a_number_bwbasic_disagrees_with():
    program = '10 PRINT "V"; 1/3\n20 END\n'
    assert compare_with_bwbasic(program, "V .33333333 \n") == []
    assert compare_with_bwbasic(program, "V .33343333 \n")


@settings(max_examples=6, **BOUNDED)
@given(seed=SEEDS)
def test_affine_nests_agree_on_cutile(seed):
    """tests/nestgen.py's nests (distance vectors, triangular, skewed, strided and backward
    bounds, imperfect nests, % and DEFINT loop variables): a loop offloaded that carries
    a dependence prints another element (bench/fuzz.py --nests runs thousands)."""
    program = nest_program(seed)
    tile = (4,) if seed % 2 else None
    outcome = differential(program, f"nest{seed}", targets=("cutile",), tile=tile)
    assert outcome.agrees, f"{outcome.describe()}\n{program}"
