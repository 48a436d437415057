"""Kernel programs that NVIDIA's cuTile BASIC compiler accepts, with the meaning its
language reference gives them: each runs through the reference interpreter (checked
against NumPy) and through both generated programs (`--check`)."""

from __future__ import annotations

import numpy as np
import pytest

from transpiler.run.selftest import default_scalars, make_inputs
from transpiler import driver

from transpiler.run.kernel_interpreter import run_kernel_program

from .test_kernel_semantics import _analysis, _check, _reference

TARGETS = ["cutile", pytest.param("cuda", marks=pytest.mark.skipif(
    __import__("shutil").which("g++") is None, reason="g++ not installed"))]


def _run(text: str, **sizes) -> tuple[dict, dict, dict]:
    kp = driver.kernel_program(_analysis(text))
    scalars = default_scalars(kp, sizes or None)
    inputs = make_inputs(kp, scalars)
    return _reference(text, inputs, scalars), inputs, scalars


COUNT_DOWN = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET S = 0
50 FOR I = 3 TO -4 STEP -2
60 LET S = S * 10 + I
70 NEXT I
80 FOR J = 1 TO 0 STEP (-1)
90 LET S = S + J
100 NEXT J
110 FOR K = 0 TO 2 STEP -1
120 LET S = S + 1000
130 NEXT K
140 LET C(BID) = A(BID) + S
150 OUTPUT C
"""


def test_a_negative_step_counts_down_to_the_limit_inclusive():
    out, inputs, _ = _run(COUNT_DOWN)
    s = ((3 * 10 + 1) * 10 - 1) * 10 - 3  # I = 3, 1, -1, -3; then J = 1, 0; K never runs
    np.testing.assert_allclose(out["C"], inputs["A"] + s + 1)


@pytest.mark.parametrize("target", TARGETS)
def test_a_negative_step_matches_the_interpreter(target):
    _check(COUNT_DOWN, target)


def test_cutile_counts_trips_up_because_its_range_only_counts_up():
    code = driver.generate(_analysis(COUNT_DOWN), "cutile")
    assert "for i_trip in range(" in code and "i = 3 - i_trip * 2" in code
    assert ", -" not in code.split("range(", 1)[1].split("\n", 1)[0]


PERCENT = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET X% = 2.7
50 LET Y% = -2.7
60 LET C(BID + X% - 2) = A(BID) + Y%
70 OUTPUT C
"""


def test_a_percent_variable_is_an_integer_truncated_toward_zero():
    out, inputs, _ = _run(PERCENT)
    np.testing.assert_allclose(out["C"], inputs["A"] - 2)


@pytest.mark.parametrize("target", TARGETS)
def test_a_percent_variable_is_a_tile_index_in_both_programs(target):
    _check(PERCENT, target)


INPUT_BOUND = """10 INPUT N, R, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET S = 0
50 FOR I = 1 TO R
60 LET S = S + I
70 NEXT I
80 LET C(BID) = A(BID) * S
90 OUTPUT C
"""


def test_every_input_scalar_is_an_integer():
    kp = driver.kernel_program(_analysis(INPUT_BOUND))
    assert kp.scalars["R"].dtype == "i32"
    out, inputs, scalars = _run(INPUT_BOUND)
    r = scalars["R"]
    np.testing.assert_allclose(out["C"], inputs["A"] * (r * (r + 1) // 2))


@pytest.mark.parametrize("target", TARGETS)
def test_an_input_scalar_bounds_a_loop_in_both_programs(target):
    _check(INPUT_BOUND, target)


FLOAT_INDEX = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET T = (2 * BID + 1) / 2
50 LET C(T) = A(T) + T
60 OUTPUT C
"""


def test_a_float_tile_index_is_truncated_as_nvidia_converts_it():
    out, inputs, _ = _run(FLOAT_INDEX)
    # T = BID + 0.5 selects tile BID; the value added is T itself, still a float.
    n = len(inputs["A"])
    np.testing.assert_allclose(out["C"], inputs["A"] + np.arange(n) // 16 + 0.5)


@pytest.mark.parametrize("target", TARGETS)
def test_a_float_tile_index_matches_the_interpreter(target):
    _check(FLOAT_INDEX, target)


READ_STOP = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 DATA 3, -2.5
50 READ K, X
60 DATA 7
70 READ J%
80 LET C(BID) = A(BID) * K + X + J%
90 STOP
100 LET C(BID) = 0
110 OUTPUT C
"""


def test_read_binds_data_items_in_order_and_stop_ends_the_kernel():
    out, inputs, _ = _run(READ_STOP)
    np.testing.assert_allclose(out["C"], inputs["A"] * 3 - 2.5 + 7, rtol=1e-6)


@pytest.mark.parametrize("target", TARGETS)
def test_read_and_stop_match_the_interpreter(target):
    _check(READ_STOP, target)


@pytest.mark.parametrize(
    "body, message, line, column",
    [
        ("50 FOR I = 1 TO 2\n60 READ K\n70 NEXT I\n", "READ inside FOR, WHILE or IF", 6, 4),
        ("50 IF N > 1 THEN STOP\n", "STOP inside FOR, WHILE or IF", 5, 18),
        ("50 READ K, L\n", "READ past the last DATA item", 5, 12),
        ("50 DATA \"X\"\n", "DATA holds numbers only", 5, 9),
        ("50 GOTO 80\n", "NVIDIA's compiler ignores it silently", 5, 4),
    ],
)
def test_what_a_kernel_cannot_read_or_stop_is_a_located_error(body, message, line, column):
    from transpiler.errors import CompileErrors

    text = ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 DATA 1\n" + body
            + "80 LET C(BID) = A(BID)\n90 OUTPUT C\n")
    with pytest.raises(CompileErrors) as info:
        driver.kernel_library(_analysis(text))
    err = next(e for e in info.value.errors if message in e.message)
    assert (err.coord.line, err.coord.column) == (line, column)


def test_only_goto_gosub_and_return_are_said_to_be_ignored_by_nvidia():
    from transpiler.errors import CompileErrors

    text = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 RANDOMIZE\n50 OUTPUT C\n"
    with pytest.raises(CompileErrors) as info:
        driver.kernel_library(_analysis(text))
    assert "ignores it silently" not in info.value.errors[0].message


PRINTS = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET X = BID / 2
50 PRINT "block "; BID, " x="; X; " 100%"
60 PRINT "then ";
70 PRINT N > 1
80 LET C(BID) = A(BID)
90 OUTPUT C
"""


def test_print_in_a_kernel_prints_once_per_block_in_nvidia_format():
    import io

    kp = driver.kernel_program(_analysis(PRINTS))
    scalars = {"N": 40}
    text = io.StringIO()
    run_kernel_program(kp, scalars, {"A": np.zeros(40, np.float32)}, text)
    assert text.getvalue() == "".join(
        f"block {b} x={b / 2:f} 100%\nthen 1\n" for b in range(3)
    )


@pytest.mark.parametrize("target", TARGETS)
def test_print_output_matches_the_interpreter(target):
    report = _check(PRINTS, target)
    assert "ok PRINT: " in report
    assert "block 2 x=1.000000 100%\nthen 1\n" in report


def test_the_self_test_reports_print_text_that_differs():
    from transpiler.run.selftest import compare_printed

    assert compare_printed("a 1\n", "a 1\n")[0].startswith("ok PRINT")
    assert compare_printed("a 1\n", "a 2\n")[0].startswith("MISMATCH PRINT line 1")
    assert compare_printed("", "") == []


NO_INPUT = """20 DIM A(64, 64), C(64, 64)
30 TILE A(32, 32), C(32, 32)
40 LET C(BID / 2, BID MOD 2) = A(0, 0) + BID
50 OUTPUT C
"""


@pytest.mark.parametrize("target", TARGETS)
def test_a_kernel_program_without_input_compiles_and_runs(target):
    # The cuTile module's run() had a parameter list starting with a comma.
    _check(NO_INPUT, target)


POWERS = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET P = -2 ^ 2
50 LET Q = 2 ^ 3 ^ 2
60 LET R = (2 ^ 3) ^ 2 + 2 ^ -1
70 LET C(BID) = A(BID) + P * 1000000 + Q * 1000 + R
80 OUTPUT C
"""


def test_kernel_programs_take_nvidia_precedence_for_minus_and_powers():
    # -2^2 is (-2)^2 and 2^3^2 is 2^(3^2), as NVIDIA's parser reads them; parentheses
    # still group (2^3)^2.
    out, inputs, _ = _run(POWERS)
    np.testing.assert_allclose(out["C"], inputs["A"] + 4_000_000 + 512_000 + 64.5)


@pytest.mark.parametrize("target", TARGETS)
def test_kernel_powers_match_the_interpreter(target):
    # The generated module's self-test reads the BASIC text back: with the same grammar.
    _check(POWERS, target)


def test_legacy_programs_keep_ecma_precedence():
    import io

    analysis = _analysis("10 PRINT -2 ^ 2; 2 ^ 3 ^ 2\n")
    out = io.StringIO()
    assert driver.interpret(analysis, stdout=out) == 0
    assert out.getvalue().split() == ["-4", "64"]


WHILES = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET X = 1
50 WHILE X < 100
60 LET X = X * 2
70 WEND
80 LET K = 0
90 WHILE K >= 0 AND X > 0
100 LET K = K + 1
110 WEND
120 LET C(BID) = A(BID) + X + K
130 OUTPUT C
"""


def test_a_kernel_while_stops_after_nvidias_documented_number_of_passes(monkeypatch):
    from transpiler.run import kernel_interpreter
    from transpiler.passes.kernel import kernel_lowering

    monkeypatch.setattr(kernel_interpreter, "MAX_WHILE_PASSES", 50)
    monkeypatch.setattr(kernel_lowering, "MAX_WHILE_PASSES", 50)
    out, inputs, _ = _run(WHILES, N=16)
    np.testing.assert_allclose(out["C"], inputs["A"] + 128 + 50)
    code = driver.generate(_analysis(WHILES), "cutile")
    assert "for while_pass in range(50):" in code and "break" in code


def test_the_documented_bound_is_a_million_passes():
    from transpiler.passes.kernel.kernel_dialect import MAX_WHILE_PASSES

    assert MAX_WHILE_PASSES == 1_000_000


FINITE_WHILE = WHILES.replace("90 WHILE K >= 0 AND X > 0", "90 WHILE K < 5")


@pytest.mark.parametrize("target", TARGETS)
def test_a_kernel_while_matches_the_interpreter(target):
    _check(FINITE_WHILE, target)


def test_a_name_spelled_in_two_cases_is_a_located_error():
    # NVIDIA's identifiers are case-sensitive (its compiler dropped the store to c(BID));
    # ours are not: either reading would be a guess.
    from transpiler.errors import CompileErrors

    text = ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 LET X = 1\n"
            "50 LET c(BID) = A(BID) + x\n60 OUTPUT C\n")
    with pytest.raises(CompileErrors) as info:
        driver.kernel_library(_analysis(text))
    found = {(e.coord.line, e.coord.column): e.message for e in info.value.errors}
    assert found[(5, 8)].startswith("c and C (line 2) are two names in cuTile BASIC")
    assert found[(5, 26)].startswith("x and X (line 4) are two names")


LOWER_CASE = """10 input n, a()
20 dim a(n), c(n)
30 tile a(16), c(16)
40 let c(bid) = a(bid) * 2
50 output c
"""


@pytest.mark.parametrize("target", TARGETS)
def test_a_program_spelled_in_lower_case_runs(target):
    _check(LOWER_CASE, target)


def test_reading_a_for_variable_after_its_loop_is_a_located_error():
    # cuTile and the interpreter kept the last value (2), BASIC gives the first value
    # past the limit (3): no kernel reading of it agrees with BASIC for free.
    from transpiler.errors import CompileErrors

    text = ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 FOR I = 1 TO 2\n"
            "50 LET Q = I\n60 NEXT I\n70 LET C(BID) = A(BID) + I\n80 OUTPUT C\n")
    with pytest.raises(CompileErrors) as info:
        driver.kernel_library(_analysis(text))
    err = info.value.errors[0]
    assert err.message.startswith("FOR variable I is read after its loop (line 4)")
    assert (err.coord.line, err.coord.column) == (7, 26)


EMPTY_LOOP = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 FOR I = 1 TO 2
50 NEXT I
60 LET C(BID) = A(BID) + 1
70 OUTPUT C
"""


@pytest.mark.parametrize("target", TARGETS)
def test_an_empty_kernel_loop_is_dropped(target):
    # The cuTile module had a `for` with no body (ruff could not parse it).
    _check(EMPTY_LOOP, target)
    assert "range(" not in driver.generate(_analysis(EMPTY_LOOP), "cutile").split("@ct.kernel")[1].split("def run")[0]


FIRST_IN_A_BLOCK = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 IF N > 20 THEN
50 LET Y = 3
60 ENDIF
70 FOR I = 1 TO 2
80 LET Z = I * 10
90 NEXT I
100 LET C(BID) = A(BID) + Y + Z
110 OUTPUT C
"""


@pytest.mark.parametrize("n, y", [(16, 0), (40, 3)])
def test_a_variable_first_assigned_in_a_block_keeps_its_value_and_starts_at_zero(n, y):
    # NVIDIA's compiler reads 0 after the block whatever ran; BASIC keeps the value the
    # block assigned, and an unassigned variable is 0 (was an error, and the cuTile
    # module failed where the IF did not run).
    out, inputs, _ = _run(FIRST_IN_A_BLOCK, N=n)
    np.testing.assert_allclose(out["C"], inputs["A"] + y + 20)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", ["16", "40"])
def test_a_variable_first_assigned_in_a_block_in_both_programs(target, n):
    from transpiler import driver as d
    import io

    analysis = _analysis(FIRST_IN_A_BLOCK)
    report = io.StringIO()
    status = d.check(analysis, d.generate(analysis, target), target, "cpu", out=report, sizes={"N": int(n)})
    assert status == 0 and "verification: PASSED" in report.getvalue(), report.getvalue()
