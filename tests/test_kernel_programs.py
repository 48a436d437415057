"""cuTile BASIC kernel programs: translation, CPU execution, NVIDIA's compiler, errors."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.formatting.python import format_python
from transpiler.options import Options
from transpiler.run.kernel_interpreter import run_kernel_program
from transpiler.run.selftest import compare, default_scalars, make_inputs, run_generated

KERNEL_EXAMPLES = sorted(p for p in (EXAMPLES / "kernels").glob("*.bas") if p.stem != "hello")


def _analysis(text: str, name: str = "prog.bas", options: Options | None = None):
    return driver.front_end(SourceFile(name, text), options or Options())


def _import(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=KERNEL_EXAMPLES, ids=lambda p: p.stem)
def generated(request, tmp_path):
    source = SourceFile.read(request.param)
    analysis = driver.front_end(source, Options())
    assert analysis.kind == "kernel"
    code = driver.generate(analysis, "cutile")
    path = tmp_path / f"{request.param.stem}.py"
    path.write_text(code)
    return analysis, code, _import(path, f"gen_{request.param.stem}")


def test_generated_module_is_formatted(generated):
    _, code, _ = generated
    assert format_python(code) == code
    assert "# 60 " in code or "# 50 " in code  # BASIC line comments over statements


def test_generated_kernel_matches_reference_interpreter_on_cpu(generated):
    analysis, _, module = generated
    kp = driver.kernel_program(analysis)
    scalars = default_scalars(kp)
    inputs = make_inputs(kp, scalars, seed=3)
    got = run_generated(module, kp, scalars, inputs, device="cpu")
    want = run_kernel_program(kp, scalars, inputs)
    lines = compare(kp, got, want)
    assert not any(line.startswith("MISMATCH") for line in lines), lines


def test_generated_kernel_compiles_with_nvidia_compiler(generated, tmp_path):
    from transpiler.verify.cutile_aot import export
    from transpiler.verify.emit import aot_param_specs

    analysis, _, module = generated
    kernel = driver.kernel_library(analysis).kernel
    files = export(getattr(module, kernel.name), aot_param_specs(kernel), tmp_path)
    suffixes = sorted(f.name.split(".", 1)[1] for f in files)
    assert suffixes == ["sm_100.cubin", "sm_80.cubin", "sm_90.cubin", "tileirbc"]
    assert all(f.stat().st_size > 0 for f in files)


def test_vector_add_equals_numpy(tmp_path):
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "kernels" / "vector_add.bas"), Options())
    path = tmp_path / "vadd.py"
    path.write_text(driver.generate(analysis, "cutile"))
    module = _import(path, "gen_vadd_numpy")
    a = np.arange(3000, dtype=np.float32)
    b = np.full(3000, 0.5, dtype=np.float32)
    np.testing.assert_array_equal(module.run(3000, a, b, device="cpu"), a + b)


def test_gemm_with_sizes_not_multiple_of_tiles_equals_numpy(tmp_path):
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "kernels" / "gemm.bas"), Options())
    path = tmp_path / "gemm.py"
    path.write_text(driver.generate(analysis, "cutile"))
    module = _import(path, "gen_gemm_numpy")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((130, 70)).astype(np.float32)
    b = rng.standard_normal((70, 200)).astype(np.float32)
    c = module.run(130, 200, 70, a, b, device="cpu")
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


# A GEMM in the style of NVIDIA's gemm.bas: tiles per row counted with INT(N / 64), so
# it is only right when the sizes it divides are multiples of the tile.
WHOLE_TILE_GEMM = """10 INPUT M, N, K, A(), B()
20 DIM A(M, K), B(K, N), C(M, N)
30 TILE A(64, 16), B(16, 64), C(64, 64), S(64, 64)
40 LET R = INT(BID / INT(N / 64))
50 LET Q = BID MOD INT(N / 64)
60 LET S = 0.0
70 FOR T = 0 TO INT(K / 16) - 1
80 LET S = MMA(A(R, T), B(T, Q), S)
90 NEXT T
100 LET C(R, Q) = S
110 OUTPUT C
"""


def test_self_test_uses_whole_tiles_where_the_program_counts_them_with_int(tmp_path):
    analysis = _analysis(WHOLE_TILE_GEMM, "whole.bas")
    kp = driver.kernel_program(analysis)
    scalars = default_scalars(kp)
    # N and K are divided with INT: whole tiles; M is not: 2.5 tiles, masked edge.
    assert scalars == {"M": 160, "N": 192, "K": 48}
    result = driver.run(analysis, driver.generate(analysis, "cutile"), "cutile", "cpu")
    assert result.returncode == 0, result.stderr
    assert "verification: PASSED" in result.stdout


@pytest.mark.parametrize(
    "source, message, line, column",
    [
        ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(100), C(100)\n40 LET C(BID) = A(BID)\n50 OUTPUT C\n",
         "TILE size 100 is not a power of two", 3, 11),
        ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(128), C(128)\n40 GOTO 60\n"
         "50 LET C(BID) = A(BID)\n60 OUTPUT C\n", "GOTO is not supported inside a kernel program", 4, 4),
        ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(128), C(128)\n40 PRINT A(BID)\n50 OUTPUT C\n",
         "a kernel's PRINT prints scalars, not tiles", 4, 10),
        ("10 INPUT N, A()\n20 DIM C(N)\n30 TILE C(128)\n40 LET C(BID) = 1\n50 OUTPUT C\n",
         "array parameter A() needs a DIM statement", 1, 13),
        ("10 INPUT N, A()\n20 DIM A(N, N), C(N, N)\n30 TILE A(32, 16), C(32, 32), ACC(32, 32)\n"
         "40 LET ACC = 0.0\n50 LET ACC = MMA(A(0, 0), A(0, 0), ACC)\n60 LET C(0, 0) = ACC\n70 OUTPUT C\n",
         "MMA shapes do not fit: (32, 16) x (32, 16)", 5, 14),
        ("10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(128), C(128)\n40 LET C(BID) = X + A(BID)\n50 OUTPUT C\n",
         "X is used before it is assigned", 4, 17),
    ],
)
def test_kernel_program_errors_are_located(source, message, line, column):
    analysis = _analysis(source)
    with pytest.raises(CompileErrors) as info:
        driver.kernel_library(analysis)
    errors = info.value.errors
    assert any(message in e.message for e in errors), [e.message for e in errors]
    err = next(e for e in errors if message in e.message)
    assert (err.coord.line, err.coord.column) == (line, column)


def test_reference_interpreter_reports_tile_outside_array():
    from transpiler.errors import BasicRuntimeError

    text = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 LET C(BID) = A(BID + 5)\n50 OUTPUT C\n"
    kp = driver.kernel_program(_analysis(text))
    with pytest.raises(BasicRuntimeError, match="entirely outside"):
        run_kernel_program(kp, {"N": 32}, {"A": np.zeros(32, np.float32)})


def test_reference_interpreter_rejects_sum_of_two_values_as_the_lowering_does():
    # SUM(x, y) of two values once ran as MIN(x, y) in the reference interpreter.
    from transpiler.errors import BasicSemanticError

    text = (
        "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n40 LET X = SUM(2, 3)\n"
        "50 LET C(BID) = A(BID) + X\n60 OUTPUT C\n"
    )
    analysis = _analysis(text)
    with pytest.raises(CompileErrors) as lowering:
        driver.kernel_library(analysis)
    assert [e.message for e in lowering.value.errors] == ["SUM needs a tile (and optionally an axis number)"]
    kp = driver.kernel_program(analysis)
    with pytest.raises(BasicSemanticError, match="SUM needs a tile") as info:
        run_kernel_program(kp, {"N": 32}, {"A": np.zeros(32, np.float32)})
    assert (info.value.coord.line, info.value.coord.column) == (4, 12)
