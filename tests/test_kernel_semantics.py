"""Semantics of cuTile BASIC kernel programs that the reference interpreter, the cuTile
module (on the tile simulator) and the CUDA program (on g++) must share, and the
self-test that compares them.  Each test runs a small program through all three."""

from __future__ import annotations

import io
import shutil

import numpy as np
import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.run.kernel_interpreter import run_kernel_program
from transpiler.run.selftest import compare, default_scalars, make_inputs

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


def _analysis(text: str, precision: str | None = None):
    return driver.front_end(SourceFile("prog.bas", text), Options(precision=precision))


def _check(text: str, target: str, precision: str | None = None) -> str:
    """`basic2tile prog.bas --check --target TARGET --device cpu`: the report, which must
    say PASSED."""
    analysis = _analysis(text, precision)
    report = io.StringIO()
    status = driver.check(analysis, driver.generate(analysis, target), target, "cpu", out=report)
    assert status == 0, report.getvalue()
    assert "verification: PASSED" in report.getvalue()
    return report.getvalue()


def _reference(text: str, inputs: dict, scalars: dict, precision: str | None = None) -> dict:
    kp = driver.kernel_program(_analysis(text, precision))
    return run_kernel_program(kp, scalars, inputs)


# --------------------------------------------------------------------------- the self-test

SQR_LOG = """10 INPUT N, A()
20 DIM A(N), C(N)
30 TILE A(16), C(16)
40 LET C(BID) = SQR(A(BID)) + LOG(A(BID)) + A(BID) ^ 1.5
50 OUTPUT C
"""


def test_self_test_feeds_square_roots_logarithms_and_powers_their_domain():
    kp = driver.kernel_program(_analysis(SQR_LOG))
    scalars = default_scalars(kp)
    inputs = make_inputs(kp, scalars)
    assert inputs["A"].min() >= 0.5
    want = run_kernel_program(kp, scalars, inputs)["C"]
    # Only the zero padding of the edge tile meets LOG(0); the stored elements are numbers.
    assert np.all(np.isfinite(want))


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_self_test_of_square_roots_and_logarithms_passes(target):
    _check(SQR_LOG, target)


def test_compare_takes_nan_at_the_same_element_as_equal():
    kp = driver.kernel_program(_analysis(SQR_LOG))
    want = {"C": np.array([1.0, np.nan, np.inf, -np.inf], np.float32)}
    same = {"C": np.array([1.0, np.nan, np.inf, -np.inf], np.float32)}
    assert compare(kp, same, want) == [
        "ok C: shape (4,), max |diff| = 0 (tolerance 0.0001)"
    ]
    moved = {"C": np.array([np.nan, 1.0, np.inf, -np.inf], np.float32)}
    assert compare(kp, moved, want)[0].startswith("MISMATCH C: shape (4,), NaN in one result only")
    flipped = {"C": np.array([1.0, np.nan, -np.inf, -np.inf], np.float32)}
    assert compare(kp, flipped, want)[0].startswith("MISMATCH C")


# --------------------------------------------------------------------------- truth values

CHAINED = """10 INPUT N, A()
20 DIM A(N), C(N), D(N)
30 TILE A(16), C(16), D(16)
40 LET X = 1
50 IF 1 < 2 < 3 THEN LET X = 5
60 IF 3 > 2 > 1 THEN LET X = X + 10
70 IF (2 > 1) + (3 > 2) = 2 THEN LET X = X + 100
80 LET C(BID) = (A(BID) > 0) + (A(BID) > 0.5) + X
90 LET D(BID) = (A(BID) > -2 > 0.5) * 3
100 OUTPUT C, D
"""


def test_a_truth_value_used_as_a_number_is_one_or_zero():
    a = np.array([-1.0, 0.25, 0.75, 0.0], np.float32)
    got = _reference(CHAINED, {"A": a}, {"N": 4})
    # 1 < 2 < 3 is (1) < 3: true; 3 > 2 > 1 is (1) > 1: false; true + true = 2.
    np.testing.assert_array_equal(got["C"], (a > 0).astype(int) + (a > 0.5).astype(int) + 105.0)
    np.testing.assert_array_equal(got["D"], np.full(4, 3.0))  # (1) > 0.5


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_chained_comparisons_and_truth_arithmetic_match_the_interpreter(target):
    # The CUDA translation compared (1 < 2) with `true` (3 converted to bool).
    _check(CHAINED, target)


# --------------------------------------------------------------------------- MOD

KERNEL_MOD = """10 INPUT N, A(), B(), K()
20 DIM A(N), B(N), K(N) AS I32, C(N), D(N), E(N) AS I32
30 TILE A(16), B(16), K(16), C(16), D(16), E(16)
40 LET X = -7 MOD 3
50 LET Y = 7 MOD -3
60 LET C(BID) = (A(BID) - 0.25) MOD (B(BID) + 2)
70 LET D(BID) = A(BID) * 0 + X * 10 + Y
80 LET E(BID) = K(BID) MOD 3 + (BID - 2) MOD 2 * 100
90 OUTPUT C, D, E
"""


def test_mod_truncates_toward_zero_in_the_reference_interpreter():
    a = np.array([-1.0, -0.5, 0.5, 0.9] * 8, np.float32)
    b = np.array([-3.0, -2.5, -1.0, 0.5] * 8, np.float32)
    k = np.array([-7, -6, 5, 7] * 8, np.int32)
    got = _reference(KERNEL_MOD, {"A": a, "B": b, "K": k}, {"N": 32})
    np.testing.assert_array_equal(got["C"], np.fmod(a - np.float32(0.25), b + np.float32(2)))
    np.testing.assert_array_equal(got["D"], np.full(32, -10.0 + 1.0))  # -7 MOD 3 = -1, 7 MOD -3 = 1
    bid = np.arange(32) // 16
    np.testing.assert_array_equal(got["E"], np.fmod(k, 3) + np.fmod(bid - 2, 2) * 100)


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_mod_of_negative_values_matches_the_interpreter(target):
    # -7 MOD 3 gave 2 in both generated programs (Python's and cuTile's % take the sign of
    # the divisor); NVIDIA's remf/remi and our interpreter give -1.
    _check(KERNEL_MOD, target)


def test_the_tile_functions_compile_with_nvidia_compiler(tmp_path):
    """basic_mod, basic_mod_int, basic_div_int, basic_max and basic_min (cuTile has no
    operator for them) are tile code that cuTile's front end and tileiras accept, for
    f32, f64 and i32 operands."""
    from tests import edge_values as E

    programs = {
        "f32": (E.kernel_program(E.KERNEL_FLOAT_EXACT, ["X", "Y", "V"], None, True), None),
        "f64": (E.kernel_program(E.KERNEL_FLOAT_EXACT, ["X", "Y", "V"], None, False), "f64"),
        "i32": (E.kernel_program(E.KERNEL_INT_OPS, ["X", "Y", "D"], "I32", True), None),
    }
    used = set()
    for name, (text, precision) in programs.items():
        analysis = _analysis(text, precision)
        code = driver.generate(analysis, "cutile")
        used |= {f for f in ("basic_mod", "basic_mod_int", "basic_div_int", "basic_max", "basic_min") if f"def {f}(" in code}
        out = tmp_path / name
        out.mkdir()
        files = driver.emit_binaries(analysis, code, "cutile", "cubin", "sm_90", str(out / "m.py"))
        assert [f.name for f in files] == ["prog.cutile.sm_90.cubin"]
    assert used == {"basic_mod", "basic_mod_int", "basic_div_int", "basic_max", "basic_min"}


# --------------------------------------------------------------------------- INT

KERNEL_INT = """10 INPUT N, A(), K()
20 DIM A(N), K(N) AS I32, C(N), D(N), E(N) AS I32
30 TILE A(16), K(16), C(16), D(16), E(16)
40 LET X = INT(-7.5)
50 LET Y = INT(-7 / 2) * 10 + INT((BID - 3) / 2) * 100
60 LET C(BID) = INT(A(BID) * 3) + X + Y
70 LET D(BID) = INT(A(BID) * 1E12)
80 LET E(BID) = INT(K(BID) / 3)
90 OUTPUT C, D, E
"""


def test_int_truncates_toward_zero_as_nvidia_documents_it():
    """NVIDIA's INT is "integer truncation (returns I32)": ftoi, which saturates."""
    a = np.array([-1.0, -0.5, 0.5, np.nan] * 8, np.float32)
    k = np.array([-7, -6, 5, 7] * 8, np.int32)
    got = _reference(KERNEL_INT, {"A": a, "K": k}, {"N": 32})
    y = -3 * 10 - 1 * 100  # INT(-7 / 2) = -3; INT(-3 / 2) = INT(-2 / 2) = -1 (BID 0, 1)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got["C"], np.where(np.isnan(a), 0, np.trunc(a * 3)) - 7 + y)
    saturated = np.where(np.isnan(a), 0, np.where(a > 0, 2**31 - 1, -(2**31)))
    np.testing.assert_array_equal(got["D"], saturated.astype(np.float32))
    np.testing.assert_array_equal(got["E"], np.trunc(k / 3).astype(np.int32))


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_int_of_negative_values_matches_the_interpreter(target):
    _check(KERNEL_INT, target)


# --------------------------------------------------------------------------- variable types

WIDENED = """10 INPUT N, A()
20 DIM A(N), C(N), D(N)
30 TILE A(16), C(16), D(16)
40 LET X = 7
50 LET X = X / 2
60 LET K = 16777217
70 LET J = K
80 LET K = K * 0.5
90 LET C(BID) = A(BID) * 0 + X
100 LET D(BID) = A(BID) * 0 + (J - 16777216)
110 OUTPUT C, D
"""


def test_a_variable_assigned_a_float_anywhere_is_a_float_from_the_start():
    """As NVIDIA's analyzer widens I32 to F32: X is 3.5, not 3.  J copies K, a float (in
    f32 16777217 is 16777216), so J - 16777216 is 0."""
    kp = driver.kernel_program(_analysis(WIDENED))
    assert kp.float_vars == {"X", "K", "J"}
    got = _reference(WIDENED, {"A": np.zeros(20, np.float32)}, {"N": 20})
    np.testing.assert_array_equal(got["C"], np.full(20, 3.5, np.float32))
    np.testing.assert_array_equal(got["D"], np.zeros(20, np.float32))


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_widened_variables_match_the_interpreter(target):
    # The generated code was x = ct.astype(ct.astype(x, ct.float32) / 2.0, ct.int32): 3.
    _check(WIDENED, target)


def test_a_loop_variable_assigned_a_float_is_an_error():
    from transpiler.errors import CompileErrors

    text = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 FOR I = 1 TO 3\n50 LET I = I / 2\n60 NEXT I\n70 LET C(BID) = A(BID)\n80 OUTPUT C\n"
    with pytest.raises(CompileErrors) as info:
        driver.kernel_program(_analysis(text))
    (err,) = info.value.errors
    assert "FOR variable I is assigned a non-integer value" in err.message
    assert (err.coord.line, err.coord.column) == (5, 8)


# --------------------------------------------------------------------------- I32 overflow

OVERFLOW = """10 INPUT N, A(), K()
20 DIM A(N), K(N) AS I32, C(N) AS I32, D(N) AS I32, E(N) AS I32
30 TILE A(16), K(16), C(16), D(16), E(16)
40 LET X = 2147483647 + 1
50 LET Y = N + 2147483647
60 LET Z = -X
70 LET C(BID) = K(BID) * 0 + X
80 LET D(BID) = K(BID) * 0 + Y + Z
90 LET E(BID) = K(BID) * 1000000000
100 OUTPUT C, D, E
"""


def test_i32_arithmetic_wraps_around_in_the_reference_interpreter():
    k = np.array([3, -3, 2, 1] * 5, np.int32)
    got = _reference(OVERFLOW, {"A": np.zeros(20, np.float32), "K": k}, {"N": 20})
    low = -(2**31)
    np.testing.assert_array_equal(got["C"], np.full(20, low))  # 2147483647 + 1
    # Y = 20 + 2147483647 wraps to low + 19; Z = -low wraps to low; Y + Z wraps to 19.
    np.testing.assert_array_equal(got["D"], np.full(20, 19))
    np.testing.assert_array_equal(got["E"], (k.astype(np.int64) * 10**9 + 2**31) % 2**32 - 2**31)


@needs_gxx
@pytest.mark.usefixtures("built_as_printed")
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_i32_overflow_wraps_in_both_generated_programs(target):
    # 2147483647 + 1 wrapped in the .cu (undefined behaviour in C++) but not in the .py
    # (Python folded the constants), and the interpreter did not wrap at all.
    _check(OVERFLOW, target)


def test_an_integer_constant_beyond_i32_is_an_error():
    from transpiler.errors import CompileErrors

    text = OVERFLOW.replace("2147483647 + 1", "2147483648")
    with pytest.raises(CompileErrors) as info:
        driver.kernel_program(_analysis(text))
    (err,) = info.value.errors
    assert err.message.startswith("integer constant 2147483648 does not fit a 32-bit integer")
    assert (err.coord.line, err.coord.column) == (4, 12)


# --------------------------------------------------------------------------- run()

IN_PLACE = """10 INPUT N, A(), B()
20 DIM A(N), B(N), C(N)
30 TILE A(16), B(16), C(16)
40 LET A(BID) = A(BID) * 2
50 LET C(BID) = B(BID) + 1
60 OUTPUT A, C
"""


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_run_never_writes_into_its_arguments(tmp_path, dtype):
    """An INPUT array the kernel writes (here also an OUTPUT) is copied: run() returns a
    new array and leaves the caller's alone, whatever its element type (a float32 array
    was written in place and returned, a float64 one copied)."""
    import importlib.util

    analysis = _analysis(IN_PLACE)
    path = tmp_path / "in_place.py"
    path.write_text(driver.generate(analysis, "cutile"))
    assert 'dev.array(a, (n,), np.float32, "A", copy=True)' in path.read_text()
    assert 'dev.array(b, (n,), np.float32, "B")' in path.read_text()  # only read
    spec = importlib.util.spec_from_file_location("in_place", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    a = np.arange(20).astype(dtype)
    b = np.ones(20, dtype)
    out_a, out_c = module.run(20, a, b, device="cpu")
    np.testing.assert_array_equal(a, np.arange(20))  # untouched
    assert out_a is not a and isinstance(out_a, np.ndarray)
    np.testing.assert_array_equal(out_a, 2 * np.arange(20))
    np.testing.assert_array_equal(out_c, np.full(20, 2.0))


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_self_test_of_an_array_that_is_input_and_output(target):
    # The self-test ran run() first, which doubled its own input data in place; the
    # reference interpreter then saw the doubled data.
    _check(IN_PLACE, target)


def test_the_gpu_device_follows_the_same_rule_with_cupy_stood_in_by_numpy():
    """GpuDevice shares Device.array; with NumPy in CuPy's place its conversions copy a
    written argument, return NumPy results for NumPy arguments, and check shapes."""
    import types

    from transpiler.device import DeviceError, GpuDevice

    dev = object.__new__(GpuDevice)
    dev._cp = types.SimpleNamespace(
        array=np.array, asarray=np.asarray, ascontiguousarray=np.ascontiguousarray, asnumpy=np.array
    )
    a = np.arange(4, dtype=np.float32)
    written = dev.array(a, (4,), np.float32, "A", copy=True)
    assert written is not a and not np.shares_memory(written, a)
    assert dev.array(a, (4,), np.float32, "A") is a  # only read: no copy needed
    assert dev.device_inputs is False
    result = dev.result(written)
    assert isinstance(result, np.ndarray) and result is not written
    with pytest.raises(DeviceError, match="A has shape"):
        dev.array(a, (5,), np.float32, "A", copy=True)


@needs_gxx
def test_abs_of_an_i32_scalar_stays_i32():
    # ABS(-2147483648) wraps as the GPU's abs does: it is negative (NumPy's int64 was not).
    text = (
        "10 INPUT N, K()\n20 DIM K(N) AS I32, C(N) AS I32\n30 TILE K(16), C(16)\n"
        "40 LET X = -2147483647 - 1\n50 LET Z = 2\n60 IF ABS(X) < 0 THEN LET Z = 1\n"
        "70 LET C(BID) = K(BID) * 0 + Z * 10 + SGN(X)\n80 OUTPUT C\n"
    )
    got = _reference(text, {"K": np.ones(20, np.int32)}, {"N": 20})
    np.testing.assert_array_equal(got["C"], np.full(20, 1 * 10 - 1))
    for target in ("cutile", "cuda"):
        _check(text, target)
