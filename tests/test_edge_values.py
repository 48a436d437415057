"""Every operator and numeric built-in on edge values, through the reference interpreter,
the cuTile module on the tile simulator and the CUDA program on g++ (tests/edge_values.py
writes the programs).

Results of IEEE-exact operations (+ - * / MOD MAX MIN, comparisons, AND/OR/NOT, ABS, INT,
SGN, SQR, unary minus) must be identical, down to the sign of a zero and the position of
every NaN; ^ and the transcendental functions may differ in the last bits between libm,
NumPy and a GPU, and are compared within the tolerance of `--check`; the largest or
smallest element of a tile holding -0 and 0 may be either zero (the order in which a
GPU combines elements is its own).
"""

from __future__ import annotations

import importlib.util
import shutil

import numpy as np
import pytest

from tests import edge_values as E
from tests.differential import Run, interpret, run_target
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.run.compare import compare_outputs
from transpiler.run.kernel_interpreter import run_kernel_program
from transpiler.verify.cpu_cuda import build_cpu, run_cpu
from transpiler.verify.cuda_run import format_inputs, parse_outputs

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


# --------------------------------------------------------------------------- legacy programs


@pytest.fixture(scope="module", params=["f64", "f32"])
def legacy(request):
    values = E.LEGACY_VALUES if request.param == "f64" else E.LEGACY_F32_VALUES
    options = Options(precision=request.param)
    analysis = driver.front_end(SourceFile("edge.bas", E.legacy_program(values)), options)
    kernels = driver.host_program(analysis).kernels
    # The three loops of operations are kernels (else nothing of interest is compared).
    assert len(kernels) == 3, [k.name for k in kernels]
    reference = interpret(analysis)
    assert reference.status == 0, reference.stderr
    return analysis, reference


def _split(text: str) -> tuple[str, str]:
    exact, _, libm = text.partition(E.TRANSCENDENTAL_MARKER + "\n")
    return exact, libm


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_legacy_kernels_compute_what_the_interpreter_computes(legacy, target):
    analysis, reference = legacy
    run = run_target(analysis, target)
    _assert_same_results(run, reference, analysis)


@needs_gxx
def test_the_cuda_host_runtime_computes_what_the_interpreter_computes(legacy):
    """The same program with every loop on the host: C++'s runtime (b2t_runtime.h) has
    its own MOD, MAX, ^, SGN...; the Python host shares the interpreter's."""
    analysis, reference = legacy
    code = driver.generate(analysis, "cuda", offload=False)
    result = driver.run(analysis, code, "cuda", "cpu", stdin="")
    _assert_same_results(Run(result.returncode, result.stdout, result.stderr), reference, analysis)


def _assert_same_results(run, reference, analysis) -> None:
    assert run.status == 0, run.stderr
    exact, libm = _split(run.stdout)
    want_exact, want_libm = _split(reference.stdout)
    assert libm, "the program did not get to its transcendental results"
    assert exact.splitlines() == want_exact.splitlines()
    # f32 kernels compute libm functions in float32, the interpreter in double
    assert compare_outputs(want_libm, libm, analysis.number_type) == []


# --------------------------------------------------------------------------- kernel programs


def _generated_module(analysis, tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_text(driver.generate(analysis, "cutile"))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _three_ways(text: str, n: int, inputs: dict, tmp_path, precision=None):
    """OUTPUT arrays of the reference interpreter, cuTile on the CPU and CUDA on g++."""
    analysis = driver.front_end(SourceFile("edge.bas", text), Options(precision=precision))
    kp = driver.kernel_program(analysis)
    scalars = {"N": n}
    want = run_kernel_program(kp, scalars, inputs)
    module = _generated_module(analysis, tmp_path, f"edge_{len(list(tmp_path.iterdir()))}")
    got = module.run(n, *(inputs[a] for a in kp.inputs if a in inputs), device="cpu")
    cutile = dict(zip(kp.outputs, got if isinstance(got, tuple) else (got,)))
    source = tmp_path / "edge.cu"
    source.write_text(driver.generate(analysis, "cuda"))
    result = run_cpu(build_cpu(source), format_inputs(kp, scalars, inputs))
    assert result.returncode == 0, result.stderr
    return want, {"cutile": cutile, "cuda": parse_outputs(result.stdout, kp)}


def _same(got: np.ndarray, want: np.ndarray, zero_signs: bool = True) -> np.ndarray:
    """Elementwise: the same value, NaN where the other has NaN, zeros of the same sign
    (unless not `zero_signs`)."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    both_nan = np.isnan(got) & np.isnan(want)
    signs = np.signbit(got) == np.signbit(want) if zero_signs else True
    return both_nan | ((got == want) & signs)


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> np.ndarray:
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    with np.errstate(invalid="ignore"):
        near = np.abs(got - want) <= rtol * np.maximum(np.abs(want), 1e-30)
    return _same(got, want) | near


def _report(name, ok, inputs, got, want) -> list[str]:
    bad = np.flatnonzero(~ok)
    return [
        f"{name}[{i}] of {', '.join(f'{k}={v[i]!r}' for k, v in inputs.items())}: "
        f"{got[i]!r}, interpreter {want[i]!r}"
        for i in bad[:6]
    ]


def _compare(want, runs, inputs, exact_ops, libm_ops=(), rtol=0.0, reductions=()):
    problems = []
    for target, outputs in runs.items():
        for name in exact_ops:
            ok = _same(outputs[name], want[name])
            problems += [f"{target}: " + p for p in _report(name, ok, inputs, outputs[name], want[name])]
        for name in reductions:
            # -0 and 0 in one tile: the GPU combines elements in its own order, so the
            # largest may be either zero.
            ok = _same(outputs[name], want[name], zero_signs=False)
            problems += [f"{target}: " + p for p in _report(name, ok, inputs, outputs[name], want[name])]
        for name in libm_ops:
            ok = _close(outputs[name], want[name], rtol)
            problems += [f"{target}: " + p for p in _report(name, ok, inputs, outputs[name], want[name])]
    assert not problems, "\n".join(problems)


@needs_gxx
@pytest.mark.parametrize("tiled", [True, False], ids=["tiles", "elements"])
@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_float_kernel_program_operators_on_edge_values(tiled, precision, tmp_path):
    reductions = E.KERNEL_FLOAT_REDUCTIONS if tiled else {}
    ops = {**E.KERNEL_FLOAT_EXACT, **reductions, **E.KERNEL_FLOAT_LIBM}
    text = E.kernel_program(ops, ["X", "Y", "V"], None, tiled)
    if precision == "f32":
        n, inputs = E.float_kernel_inputs()
        rtol = 1e-6  # NumPy's, libm's and the GPU's f32 functions: within a few ulp
    else:
        n, inputs = E.float_kernel_inputs(E.LEGACY_VALUES + [5e-324], np.float64)
        rtol = 1e-13
    want, runs = _three_ways(text, n, inputs, tmp_path, precision)
    _compare(want, runs, inputs, E.KERNEL_FLOAT_EXACT, E.KERNEL_FLOAT_LIBM, rtol, reductions)


@needs_gxx
@pytest.mark.parametrize("tiled", [True, False], ids=["tiles", "elements"])
def test_integer_kernel_program_operators_on_edge_values(tiled, tmp_path):
    text = E.kernel_program(E.KERNEL_INT_OPS, ["X", "Y", "D"], "I32", tiled, float_outputs=("QUOTS",))
    n, inputs = E.int_kernel_inputs()
    want, runs = _three_ways(text, n, inputs, tmp_path)
    _compare(want, runs, inputs, E.KERNEL_INT_OPS)
