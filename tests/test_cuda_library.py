"""cuTile BASIC kernel programs as CUDA C++ libraries (backends/cuda/program.py).

Every example kernel program is translated, compiled by NVRTC for three architectures,
built with g++ and the CUDA emulator, and run on generated data through the CLI's
self-test path (`--target cuda --check --device cpu`), whose OUTPUT arrays must equal the
reference interpreter's within selftest.TOLERANCE.  The generated file must be a fixed
point of clang-format, and its main() must follow its documented stdin/stdout format.
"""

from __future__ import annotations

import io
import re
import shutil

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.backends.cuda.program import basic_source_of, run_cuda_program
from transpiler.errors import BasicError, SourceFile
from transpiler.formatting.cpp import format_cpp
from transpiler.options import Options
from transpiler.run.kernel_interpreter import run_kernel_program
from transpiler.run.selftest import compare, default_scalars, make_inputs
from transpiler.verify.cpu_cuda import build_cpu, run_cpu
from transpiler.verify.cuda_run import OUTPUT_MARKER, format_inputs, parse_outputs
from transpiler.verify.emit import compile_kernels
from transpiler.verify.nvcc import build_nvcc, find_nvcc
from transpiler.verify.nvrtc import ARCHS, compile_cuda

KERNEL_EXAMPLES = sorted(p for p in (EXAMPLES / "kernels").glob("*.bas") if p.stem != "hello")
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


def _generate(path, precision=None):
    analysis = driver.front_end(SourceFile.read(path), Options(precision=precision))
    return analysis, driver.generate(analysis, "cuda")


@pytest.fixture(scope="module", params=KERNEL_EXAMPLES, ids=lambda p: p.stem)
def example(request):
    return (request.param, *_generate(request.param))


def test_generated_library_is_clang_formatted_and_commented(example):
    path, _, code = example
    assert format_cpp(code) == code
    assert re.search(r"// \d+ LET ", code)  # the BASIC statement over its translation
    assert f"void run_{path.stem}(" in code and "int main()" in code
    source, precision = basic_source_of(code)
    assert source.splitlines() == list(SourceFile.read(path).lines)
    assert precision is None


def test_generated_library_compiles_with_nvrtc_for_every_architecture(example):
    _, _, code = example
    for arch in ARCHS:
        assert compile_cuda(code, "prog.cu", arch=arch).startswith(b"\x7fELF")


@needs_gxx
def test_cli_check_on_the_cpu_matches_the_reference_interpreter(example):
    _, analysis, code = example
    report = io.StringIO()
    status = driver.check(analysis, code, "cuda", "cpu", out=report)
    out = report.getvalue()
    assert status == 0, out
    lines = out.splitlines()
    assert lines[-1].startswith("verification: PASSED")
    kp = driver.kernel_program(analysis)
    assert [line.split()[1].rstrip(":") for line in lines[1:-1]] == kp.outputs
    assert all(line.startswith("ok ") for line in lines[1:-1])


@needs_gxx
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_cli_run_prints_the_same_verification_report_for_both_targets(target, capfd):
    """`basic2tile kernel.bas --run` shows the self-test's report for either target (the
    CUDA report was computed and then dropped)."""
    from transpiler.cli import main

    path = str(EXAMPLES / "kernels" / "vector_add.bas")
    status = main([path, "--run", "--target", target, "--device", "cpu", "--size", "N=100"])
    out = capfd.readouterr().out
    assert status == 0, out
    lines = out.splitlines()
    assert lines[0] == "vector_add: N=100"
    assert lines[1].startswith("ok C: shape (100,)")
    assert lines[2].startswith("verification: PASSED")


@needs_gxx
def test_main_reads_documented_input_and_prints_outputs(tmp_path):
    """vector_add's main() on hand-written stdin: C = A + B exactly, in the documented
    format (independent of the self-test helpers)."""
    _, code = _generate(EXAMPLES / "kernels" / "vector_add.bas")
    source = tmp_path / "vector_add.cu"
    source.write_text(code)
    n = 1500  # one full 1024-element tile and a partial one
    a = np.arange(n, dtype=np.float32) * np.float32(0.25)
    b = np.full(n, -1.5, dtype=np.float32)
    stdin = (
        f"{n}\n" + " ".join(map(repr, a.tolist())) + "\n" + " ".join(map(repr, b.tolist())) + "\n"
    )
    result = run_cpu(build_cpu(source), stdin)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")
    # What the kernel PRINTs comes first (nothing here), then the marker and the arrays.
    assert lines[0] == OUTPUT_MARKER
    assert lines[1] == f"C 1 {n}"
    np.testing.assert_array_equal(np.array([float(x) for x in lines[2 : n + 2]], np.float32), a + b)


@needs_gxx
def test_main_fails_when_its_outputs_cannot_be_written(tmp_path):
    """A closed stdout: main() must not end as a success with its OUTPUT arrays lost."""
    import subprocess

    _, code = _generate(EXAMPLES / "kernels" / "vector_add.bas")
    source = tmp_path / "vector_add.cu"
    source.write_text(code)
    exe = build_cpu(source)
    result = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", str(exe)],
        input="3\n1 2 3\n4 5 6\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr == "vector_add: cannot write the OUTPUT arrays to stdout\n"


@needs_gxx
def test_main_reports_missing_input(tmp_path):
    _, code = _generate(EXAMPLES / "kernels" / "vector_add.bas")
    source = tmp_path / "vector_add.cu"
    source.write_text(code)
    result = run_cpu(build_cpu(source), "10\n1 2 3\n")
    assert result.returncode == 1
    assert "expected a number for A on stdin" in result.stderr


@needs_gxx
def test_main_refuses_a_non_integer_for_an_integer_input_scalar(tmp_path):
    """N=2.5 was read as 2 (static_cast<int>): a silent wrong result.  Now main() stops as
    run() and the self-test do (issue 23, point 10); a whole number still works."""
    _, code = _generate(EXAMPLES / "kernels" / "vector_add.bas")
    source = tmp_path / "vector_add.cu"
    source.write_text(code)
    exe = build_cpu(source)
    for bad in ("2.5", "nan", "inf"):
        result = run_cpu(exe, f"{bad}\n1 2 3\n4 5 6\n")
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr.startswith("vector_add: N is an integer INPUT scalar; ")
    assert run_cpu(exe, "2.5\n").stderr == (
        "vector_add: N is an integer INPUT scalar; 2.5 is not a whole number\n"
    )
    result = run_cpu(exe, "2.0\n1 2\n4 5\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[1:4] == ["C 1 2", "5", "7"]


@needs_gxx
def test_f64_precision_and_sizes_reach_the_self_test(tmp_path):
    """--precision f64 is recorded in the .cu and used by its self-test; NAME=VALUE sizes
    choose the data (gemm with sizes that are not multiples of its tiles)."""
    path = EXAMPLES / "kernels" / "gemm.bas"
    _, code = _generate(path, precision="f64")
    assert basic_source_of(code)[1] == "f64" and "double* __restrict__ c" in code
    result = run_cuda_program(code, "gemm", "cpu", args=["M=130", "N=70", "K=33"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "M=130, N=70, K=33" in result.stdout and "verification: PASSED" in result.stdout


def test_tabs_in_the_quoted_source_read_back_as_white_space():
    """The self-test reparses the BASIC quoted in the .cu: a TAB there was a "?", which
    made --run and --check of a program with a TAB fail for CUDA only."""
    text = (EXAMPLES / "kernels" / "vector_add.bas").read_text()
    text = text.replace("60 LET C(BID) = A(BID) + B(BID)", "60\tLET C(BID) = A(BID)\t+ B(BID)")
    analysis = driver.front_end(SourceFile("tabs.bas", text), Options())
    source, _ = basic_source_of(driver.generate(analysis, "cuda"))
    assert "60      LET C(BID) = A(BID)     + B(BID)" in source  # tab stops of 8
    assert driver.kernel_program(analysis) is not None  # the original parses...
    from transpiler.run.selftest import kernel_program_from_text

    assert kernel_program_from_text(source, "tabs").outputs == ["C"]  # ...and so does the copy


@needs_gxx
def test_a_kernel_program_with_tabs_checks_on_the_cpu():
    text = (EXAMPLES / "kernels" / "vector_add.bas").read_text().replace("60 LET", "60\tLET")
    analysis = driver.front_end(SourceFile("tabs.bas", text), Options())
    report = io.StringIO()
    assert driver.check(analysis, driver.generate(analysis, "cuda"), "cuda", "cpu", out=report) == 0
    assert report.getvalue().splitlines()[-1].startswith("verification: PASSED")


@needs_gxx
def test_outputs_parse_back_to_the_interpreters_arrays(tmp_path):
    """format_inputs/parse_outputs round trip through softmax_rows' main()."""
    analysis, code = _generate(EXAMPLES / "kernels" / "softmax_rows.bas")
    kp = driver.kernel_program(analysis)
    scalars = default_scalars(kp, {"R": 33})
    inputs = make_inputs(kp, scalars, seed=5)
    source = tmp_path / "softmax_rows.cu"
    source.write_text(code)
    result = run_cpu(build_cpu(source), format_inputs(kp, scalars, inputs))
    got = parse_outputs(result.stdout, kp)
    assert got["Y"].shape == (33, 64)
    np.testing.assert_allclose(got["Y"].sum(axis=1), 1.0, rtol=1e-5)  # softmax rows sum to 1
    assert not any(
        line.startswith("MISMATCH")
        for line in compare(kp, got, run_kernel_program(kp, scalars, inputs))
    )


def test_emit_ptx_and_cubin(tmp_path):
    _, code = _generate(EXAMPLES / "kernels" / "hgemm.bas")
    ptx = compile_kernels(code, "ptx", "sm_90", tmp_path, "hgemm")
    cubin = compile_kernels(code, "cubin", "sm_80", tmp_path, "hgemm")
    assert ptx == [tmp_path / "hgemm.sm_90.ptx"] and cubin == [tmp_path / "hgemm.sm_80.cubin"]
    text = ptx[0].read_text()
    assert ".entry hgemm" in text and "wmma.mma.sync" in text  # tensor cores
    with pytest.raises(BasicError, match="cuTile target"):
        compile_kernels(code, "tileir", "sm_90", tmp_path, "hgemm")


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
def test_nvcc_compiles_a_generated_library(tmp_path):
    """The whole file (host code included) is valid CUDA for nvcc (compile only)."""
    _, code = _generate(EXAMPLES / "kernels" / "softmax_rows.bas")
    source = tmp_path / "softmax_rows.cu"
    source.write_text(code)
    assert build_nvcc(source, tmp_path / "softmax_rows.o", extra_flags=("-c",)).stat().st_size > 0


CONTROL_FLOW = """10 REM INTEGER ARRAYS, A SCALAR PARAMETER, WHILE, IF/ELSE, A COLUMN SUM
20 INPUT N, S, A(), B()
30 DIM A(N, 32), B(N, 32) AS I32, C(N, 32), D(INT((N + 15) / 16), 32)
40 TILE A(16, 32), B(16, 32), C(16, 32), D(1, 32), T(16, 32)
50 LET T = A(BID, 0) * S
60 LET K = 0
70 WHILE K < 3
80   IF K = 1 THEN
90     LET T = T + B(BID, 0)
100  ELSE
110    LET T = T - 0.5
120  ENDIF
130  LET K = K + 1
140 WEND
150 LET C(BID, 0) = T
160 LET D(BID, 0) = SUM(T, 0)
170 OUTPUT C, D
180 END
"""


@needs_gxx
@pytest.mark.parametrize(
    "text, precision",
    [
        (CONTROL_FLOW, "f64"),
        # bf16 inputs on tensor cores (the self-test rounds the data to bf16 for both sides)
        ((EXAMPLES / "kernels" / "hgemm.bas").read_text().replace("AS F16", "AS BF16"), None),
    ],
    ids=["control_flow_f64", "bf16_gemm"],
)
def test_more_kernel_programs_check_on_the_cpu(text, precision):
    analysis = driver.front_end(SourceFile("prog.bas", text), Options(precision=precision))
    report = io.StringIO()
    status = driver.check(analysis, driver.generate(analysis, "cuda"), "cuda", "cpu", out=report)
    assert status == 0, report.getvalue()
    assert "verification: PASSED" in report.getvalue()
