"""`--precision tf32`: f32 programs whose matrix products take TensorFloat-32 operands.

cuTile rounds the operands with `ct.astype(..., ct.tfloat32)`; the CUDA back end rounds
them with `b2t_tf32` (nearest, ties to even, like the tile simulator) into WMMA m16n16k8
tf32 fragments.  The rounding is real (1.0001 counts as 1), the same on both targets
(a tie, 1 + 2^-11, goes to the even 1), and within `--check`'s tf32 tolerance of the
interpreter's f32; NVIDIA's tileiras and NVRTC build the kernels, and the PTX uses the
tensor cores' tf32 instruction.

Oracles: the reference interpreter (`--check`), and the values tf32 must give
(computed by hand: 64 products of 1 by 1, and 1 + 2^-11 rounded to 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# 64 products of 1.0001 * 1.0001 (f32: 64.0128; tf32 operands are 1: exactly 64), and
# 1 + 2^-11 times 1 (half way between two tf32 values: the even one, 1).
GEMM = """10 N = 47 : M = 31 : K = 63
20 DIM A(N,K), B(K,M), C(N,M)
30 FOR I = 0 TO N : FOR J = 0 TO K : A(I,J) = 1.0001 : NEXT J : NEXT I
40 FOR I = 0 TO K : FOR J = 0 TO M : B(I,J) = 1.0001 : NEXT J : NEXT I
45 A(0,0) = 1 + 2^-11 : FOR J = 1 TO K : A(0,J) = 0 : NEXT J : B(0,0) = 1
50 FOR I = 0 TO N
60 FOR J = 0 TO M
70 S = 0
80 FOR L = 0 TO K
90 S = S + A(I,L) * B(L,J)
100 NEXT L
110 C(I,J) = S
120 NEXT J
130 NEXT I
140 PRINT C(0,0); C(5,7); C(N,M)
"""


def _basic2tile(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "transpiler", *args]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)


def _on_cpu(program: Path, target: str, action: str, precision: str) -> subprocess.CompletedProcess:
    return _basic2tile(
        str(program), action, "--device", "cpu", "--target", target, "--precision", precision
    )


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "gemm.bas"
    path.write_text(GEMM)
    return path


def test_the_interpreter_keeps_f32(program):
    result = _basic2tile(str(program), "--interpret", "--precision", "tf32")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1.0004883", "64.012756", "64.012756"]


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_products_round_their_operands_to_tf32(program, target):
    result = _on_cpu(program, target, "--run", "tf32")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "64", "64"]


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_tf32_agrees_with_the_interpreter_within_its_tolerance(program, target):
    result = _on_cpu(program, target, "--check", "tf32")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check passed" in result.stdout
    # Without the option, f32 operands stay f32 (64 products of 1.0002001).
    result = _on_cpu(program, target, "--run", "f32")
    values = [float(v) for v in result.stdout.split()]
    assert values[0] > 1.0004 and 64.0127 < values[1] < 64.0129, result.stdout + result.stderr


def test_the_generated_code_says_tf32(program, tmp_path):
    assert (
        _basic2tile(str(program), "--precision", "tf32", "-o", str(tmp_path / "g.py")).returncode
        == 0
    )
    python = (tmp_path / "g.py").read_text()
    assert python.count("ct.tfloat32") == 2 and "ct.mma(" in python
    assert (
        _basic2tile(str(program), "--precision", "tf32", "-o", str(tmp_path / "g.cu")).returncode
        == 0
    )
    cuda = (tmp_path / "g.cu").read_text()
    assert "wmma::precision::tf32" in cuda and "b2t_tf32(" in cuda
    explain = _basic2tile(str(program), "--precision", "tf32", "--explain").stdout
    assert "operands rounded to tf32" in explain


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_a_kernel_program_mma_in_tf32_passes_its_self_test(target):
    gemm = Path(__file__).parent.parent / "examples" / "kernels" / "gemm.bas"
    result = _on_cpu(gemm, target, "--check", "tf32")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verification: PASSED" in result.stdout


def test_a_kernel_module_self_test_uses_its_precision(tmp_path):
    gemm = Path(__file__).parent.parent / "examples" / "kernels" / "gemm.bas"
    out = tmp_path / "gemm.py"
    assert _basic2tile(str(gemm), "--precision", "f64", "-o", str(out)).returncode == 0
    assert 'BASIC_PRECISION = "f64"' in out.read_text()
    result = subprocess.run(
        [sys.executable, str(out), "--device", "cpu"],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # f64 data, f64's tolerance (1e-10 of the largest value), not f32's.
    assert "tolerance 1.35e-09" in result.stdout, result.stdout


def test_nvidia_compilers_build_tf32_products(program, tmp_path):
    """tileiras (cubin) and NVRTC (PTX with the tensor cores' tf32 WMMA) for sm_80/90/100."""
    for arch in ("sm_80", "sm_90", "sm_100"):
        for target, emit in (("cutile", "cubin"), ("cuda", "ptx")):
            result = _basic2tile(
                str(program), "--target", target, "--precision", "tf32", "--emit", emit,
                "--arch", arch, "-o", str(tmp_path / f"out.{emit}"),
            )  # fmt: skip
            assert result.returncode == 0, result.stdout + result.stderr
        assert (tmp_path / f"mma_50.cutile.{arch}.cubin").stat().st_size > 0
        ptx = (tmp_path / f"gemm.{arch}.ptx").read_text()
        assert "m16n16k8.f32.tf32.tf32.f32" in ptx, arch
