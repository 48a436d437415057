"""BASIC's run-time exceptions inside offloaded loops, on both targets (CPU device).

A kernel block whose iterations meet an exception (division by zero, overflow, a domain
error, a subscript out of range) stores nothing, and the host runs its iterations with
BASIC's semantics (hostir.Replay): the generated program reports exactly what the
interpreter reports, warnings with their number, order and BASIC line, and the fatal
error with its message.  `driver.check` compares stdout, the exit status and the
diagnostics; each program is also checked to really offload the loop in question.
"""

from __future__ import annotations

import io

import pytest

from transpiler import driver
from transpiler.errors import BasicRuntimeError, SourceFile
from transpiler.options import Options

TARGETS = ["cutile", "cuda"]


@pytest.fixture(autouse=True)
def empty_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def _analysis(text: str, precision: str | None = None):
    return driver.front_end(SourceFile("prog.bas", text), Options(precision=precision))


def _offloaded(analysis) -> dict[int, str]:
    """BASIC line of each offloaded loop -> its kernel's kind."""
    return {d.label: d.kind for d in driver.host_program(analysis).decisions if d.offloaded}


def _interpreter_stderr(analysis) -> tuple[int, str]:
    err = io.StringIO()
    try:
        driver.interpret(analysis, stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    except BasicRuntimeError as error:
        return 1, err.getvalue() + error.render(analysis.source)
    return 0, err.getvalue()


def _check(analysis, target: str) -> str:
    out = io.StringIO()
    code = driver.generate(analysis, target)
    status = driver.check(analysis, code, target, "cpu", out=out)
    assert status == 0, out.getvalue()
    return out.getvalue()


# The programs, each with what the interpreter reports.
PROGRAMS = {
    # An inner loop's subscript out of range in its middle iteration only (the kernel's
    # error flag used to be reset in each inner iteration).
    "inner_loop_subscript": (
        (
            "10 DIM X(20), Y(20)\n20 FOR I = 1 TO 20\n30 LET X(I) = I\n40 NEXT I\n"
            "50 FOR I = 1 TO 10\n60 LET S = 0\n70 FOR J = 1 TO 3\n80 LET S = S + X(ABS(J-2)-1)\n"
            "90 NEXT J\n100 LET Y(I) = S\n110 NEXT I\n120 PRINT Y(1); Y(10)\n130 END\n"
        ),
        50,
        "subscript out of range X(-1) [0 to 20]",
    ),
    # An inner loop that runs zero times (the kernel used to crash on its error flag).
    "zero_trip_inner_loop": (
        (
            "10 DIM X(20), Y(20)\n15 LET K = 0\n20 FOR I = 1 TO 20\n30 LET X(I) = I\n40 NEXT I\n"
            "50 FOR I = 1 TO 10\n60 LET S = 0\n70 FOR J = 1 TO K\n80 LET S = S + X(J)\n90 NEXT J\n"
            "100 LET Y(I) = S + I\n110 NEXT I\n120 PRINT Y(1); Y(10)\n130 END\n"
        ),
        50,
        None,
    ),
    "log_of_a_negative": (
        (
            "10 DIM A(10), B(10)\n20 FOR I = 1 TO 10\n30 LET A(I) = I - 5\n40 NEXT I\n"
            "50 FOR I = 1 TO 10\n60 LET B(I) = LOG(A(I) + 10)\n70 LET B(I) = B(I) + LOG(A(I))\n"
            "80 NEXT I\n90 PRINT B(10)\n100 END\n"
        ),
        50,
        "function domain error LOG(-4)",
    ),
    "sqr_of_a_negative_inside_an_if": (
        (
            "10 DIM A(100), B(100)\n20 FOR I = 1 TO 100\n30 LET A(I) = 60 - I\n40 NEXT I\n"
            "50 FOR I = 1 TO 100\n60 IF I > 3 THEN B(I) = SQR(A(I))\n70 NEXT I\n80 PRINT B(4)\n"
            "90 END\n"
        ),
        50,
        "function domain error SQR(-1)",
    ),
    # A subscript that is NaN: a warning for 0/0, then the error.
    "nan_subscript": (
        (
            "10 DIM A(10), B(10)\n20 LET Z = 0\n30 FOR I = 1 TO 10\n40 LET B(I) = A(Z/Z)\n"
            "50 NEXT I\n60 PRINT B(1)\n70 END\n"
        ),
        30,
        "subscript out of range A(NAN) [0 to 10]",
    ),
    # The guard is BASIC's: T(11) is never read (the range check before the launch used
    # to report it).
    "guarded_stencil": (
        (
            "10 DIM T(10), U(10)\n20 LET N = 10\n30 FOR I = 1 TO 10\n40 LET T(I) = I * I\n"
            "50 NEXT I\n60 FOR I = 1 TO N\n70 IF I < N THEN LET U(I) = T(I+1) - T(I)\n80 NEXT I\n"
            "90 PRINT U(1); U(9); U(10)\n100 END\n"
        ),
        60,
        None,
    ),
    # An element written through a loop-invariant offset: Y(I + K), not Y(I).
    "write_with_an_invariant_offset": (
        (
            "10 DIM Y(20)\n20 LET K = 3\n30 FOR I = 1 TO 5\n40 LET Y(I + K) = I\n50 NEXT I\n"
            "60 PRINT Y(1); Y(4); Y(8)\n70 END\n"
        ),
        30,
        None,
    ),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_generated_program_reports_what_the_interpreter_reports(name, target):
    text, line, error = PROGRAMS[name]
    analysis = _analysis(text)
    assert line in _offloaded(analysis)
    status, diagnostics = _interpreter_stderr(analysis)
    assert (status == 1) == (error is not None)
    if error is not None:
        assert f"error: {error}" in diagnostics
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_ten_divisions_by_zero_warn_ten_times(target):
    analysis = _analysis(
        "10 DIM X(10), Y(10)\n20 FOR I = 1 TO 10\n30 LET Y(I) = 1/X(I)\n40 NEXT I\n"
        "50 PRINT Y(1)\n60 END\n"
    )
    assert 20 in _offloaded(analysis)
    assert _interpreter_stderr(analysis)[1].count("warning: division by zero") == 10
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_warnings_of_two_lines_come_out_in_iteration_order_in_a_2d_nest(target):
    # 40 x 40 lanes in 32 x 32 tiles: BASIC's order (I, then J) crosses the blocks.  Line 40
    # warns where I = J, line 50 (EXP overflow, with its argument) where J >= 36.
    analysis = _analysis(
        "10 DIM M(40, 40)\n20 FOR I = 1 TO 40\n30 FOR J = 1 TO 40\n40 LET A = 1 / (I - J)\n"
        "50 LET M(I, J) = EXP(J * 20) + A\n60 NEXT J\n70 NEXT I\n80 PRINT M(1, 2); M(40, 1)\n"
        "90 END\n"
    )
    assert _offloaded(analysis) == {20: "map"}
    diagnostics = _interpreter_stderr(analysis)[1]
    assert "warning: operation overflow EXP(720)" in diagnostics
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_reduction_and_an_arg_max_with_exceptions_combine_in_block_order(target):
    # Blocks of 512 iterations; the overflow at I = 700 (block 1) runs on the host between
    # the device's blocks 0 and 2.  The maximum 699 is at I = 699 (block 1) and 1399
    # (block 2): `>` keeps the first, which only block order finds.
    analysis = _analysis(
        "10 DIM X(2000), Z(2000)\n20 FOR I = 1 TO 2000\n30 LET X(I) = I MOD 700\n"
        "35 LET Z(I) = I\n40 NEXT I\n50 LET Z(700) = 1E308\n60 LET S = 0\n70 LET M = -1\n"
        "80 LET K = 0\n90 FOR I = 1 TO 2000\n100 LET S = S + Z(I) * 2\n"
        "110 IF X(I) > M THEN M = X(I) : K = I\n120 NEXT I\n130 PRINT S; M; K\n140 END\n"
    )
    assert _offloaded(analysis)[90] == "reduce"
    assert "warning: operation overflow (*)" in _interpreter_stderr(analysis)[1]
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_histogram_bin_out_of_range_after_a_warning(target):
    analysis = _analysis(
        "10 DIM H(5), V(100)\n20 FOR I = 1 TO 100\n30 LET V(I) = I / 10\n40 NEXT I\n"
        "50 LET V(3) = 0\n60 FOR I = 1 TO 100\n70 LET B = INT(1 / V(I))\n"
        "80 LET H(INT(V(I))) = H(INT(V(I))) + B\n90 NEXT I\n100 END\n"
    )
    assert _offloaded(analysis)[60] == "histogram"
    diagnostics = _interpreter_stderr(analysis)[1]
    assert diagnostics.index("division by zero") < diagnostics.index("H(6) [0 to 5]")
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_the_matrix_product_nest_warns_for_an_overflowed_product(target):
    analysis = _analysis(
        "10 DIM A(5,5), B(5,5), C(5,5)\n20 FOR I = 1 TO 5\n30 FOR J = 1 TO 5\n"
        "40 LET A(I,J) = I + J\n50 LET B(I,J) = I - J\n60 NEXT J\n70 NEXT I\n"
        "80 LET A(2,3) = 1E300\n90 LET B(3,4) = 1E10\n100 FOR I = 1 TO 5\n110 FOR J = 1 TO 5\n"
        "120 LET S = 0\n130 FOR K = 1 TO 5\n140 LET S = S + A(I,K) * B(K,J)\n150 NEXT K\n"
        "160 LET C(I,J) = S\n170 NEXT J\n180 NEXT I\n190 PRINT C(1,1); C(2,4); C(5,5)\n200 END\n"
    )
    assert _offloaded(analysis)[100] == "mma"
    assert "warning: operation overflow (*)" in _interpreter_stderr(analysis)[1]
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
def test_an_inner_loop_with_step_zero_runs_on_the_host_as_long_as_basic_does(target):
    # FOR J = 1 TO 1 STEP Z with Z = 0 never ends in BASIC; the kernel must not guess a
    # trip count: the block goes to the host, which loops for ever as BASIC does.  Here
    # Z is 0 only in a branch the program does not take, so the loop ends normally.
    analysis = _analysis(
        "10 DIM Y(10)\n20 LET Z = 1\n30 FOR I = 1 TO 10\n40 LET S = 0\n"
        "50 FOR J = 1 TO 3 STEP Z\n60 LET S = S + J * I\n70 NEXT J\n80 LET Y(I) = S\n"
        "90 NEXT I\n100 PRINT Y(10)\n110 END\n"
    )
    assert 30 in _offloaded(analysis)
    code = driver.generate(analysis, "cutile")
    assert "j_ends" in code
    _check(analysis, target)


def test_f32_kernels_leave_their_overflows_to_the_host():
    # In float32 the kernel's product overflows; the interpreter computes in double (no
    # warning) and rounds the stored value: the block runs on the host, as the interpreter.
    analysis = _analysis(
        "10 DIM X(10), Y(10)\n20 FOR I = 1 TO 10\n30 LET X(I) = I * 1E30\n40 NEXT I\n"
        "50 FOR I = 1 TO 10\n60 LET Y(I) = X(I) * 1E10 / 1E20\n70 NEXT I\n80 PRINT Y(3)\n90 END\n",
        "f32",
    )
    assert 50 in _offloaded(analysis)
    _check(analysis, "cutile")


@pytest.mark.parametrize("target", TARGETS)
def test_f32_kernels_leave_constants_beyond_the_f32_range_to_the_host(target):
    # EXP(100) and 1E300 are no float32 values (cuTile stopped the program on them: a
    # constant out of range of float32); the interpreter computes with them in double.
    analysis = _analysis(
        "10 DIM X(10), Y(10), Z(10)\n20 FOR I = 1 TO 10\n30 LET X(I) = I / 10\n40 NEXT I\n"
        "50 FOR I = 1 TO 10\n60 LET Y(I) = X(I) * EXP(100) * EXP(-90)\n70 NEXT I\n"
        "80 FOR I = 1 TO 10\n90 LET Z(I) = X(I) * 1E-300 * 1E300\n100 NEXT I\n"
        "110 PRINT Y(3); Z(3)\n120 END\n",
        "f32",
    )
    reasons = {d.label: d.reason for d in driver.host_program(analysis).decisions}
    assert reasons[50] == "the constant 2.6881171E+43 is beyond the range of f32, line 60"
    assert reasons[80] == "the constant 1E+300 is beyond the range of f32, line 90"
    assert 20 in _offloaded(analysis)
    _check(analysis, target)


def test_loops_that_report_in_every_iteration_or_multiply_stay_on_the_host():
    analysis = _analysis(
        "10 DIM Y(10)\n20 FOR I = 1 TO 10\n30 LET Y(I) = 1 / 0\n40 NEXT I\n"
        "50 LET P = 1\n60 FOR I = 1 TO 10\n70 LET P = P * Y(I)\n80 NEXT I\n90 END\n"
    )
    reasons = {d.label: d.reason for d in driver.host_program(analysis).decisions}
    assert reasons[20] == "a constant expression warns or fails in every iteration, line 30"
    assert "the product P overflows (and warns) in the order of the iterations" in reasons[60]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("inner", [0, 40])
def test_a_statement_between_the_fors_of_a_nest_warns_once_per_outer_iteration(target, inner):
    # Line 40 runs 3 times in BASIC, also when the inner loop runs zero times (the kernel
    # then has no block at all); the kernel repeats it per lane.
    analysis = _analysis(
        f"10 DIM M(3, 40)\n20 LET Z = 0\n25 LET K = {inner}\n30 FOR I = 1 TO 3\n"
        "40 LET T = I / Z\n50 FOR J = 1 TO K\n60 LET M(I, J) = T + J\n70 NEXT J\n80 NEXT I\n"
        "90 PRINT M(2, 3)\n100 END\n"
    )
    assert _offloaded(analysis) == {30: "map"}
    assert _interpreter_stderr(analysis)[1].count("warning: division by zero") == 3
    _check(analysis, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("where", [1, 256, 257, 512, 700])
def test_one_lane_anywhere_in_a_block_sends_the_whole_block_to_the_host(target, where):
    # Blocks of 512 iterations, 256 CUDA threads of 2 slots: the lane that divides by zero
    # is the first or last thread's first or second slot (b2t_block_any gives every
    # thread of the block the flag; a block whose flag is lost would store an infinity).
    analysis = _analysis(
        f"10 DIM X(1000), Y(1000)\n20 FOR I = 1 TO 1000\n30 LET X(I) = I\n40 NEXT I\n"
        f"50 LET X({where}) = 0\n60 FOR I = 1 TO 1000\n70 LET Y(I) = 2 / X(I)\n80 NEXT I\n"
        f"90 PRINT Y({where}); Y(1000)\n100 END\n"
    )
    assert 60 in _offloaded(analysis)
    assert _interpreter_stderr(analysis)[1].count("warning: division by zero") == 1
    _check(analysis, target)


def test_only_constant_expressions_are_evaluated_when_compiling():
    # LOG(-1) + I fails in the iterations only if I is finite: it is no constant (it was
    # evaluated from the left up to its failing term); LOF(1) reads the program's files
    # and POS(0) its screen, not the compiler's.
    from transpiler.passes.parallel.exceptions import constant_number, constant_reports

    analysis = _analysis(
        "10 LET I = 1\n20 LET A = LOG(-1) + I\n30 LET B = LOF(1)\n40 LET C = POS(0)\n"
        "50 LET D = EXP(1000) + 1\n60 LET E = 2 + 3\n70 END\n"
    )
    values = [s.value for s in analysis.stmts[1:6]]
    assert [constant_reports(v) for v in values] == [None, None, None, True, False]
    assert [constant_number(v) for v in values] == [None, None, None, None, 5.0]
