"""The CPU emulator of CUDA (transpiler/cpp_runtime/b2t_cuda_emu.h) and build_cpu/run_cpu.

The programs in tests/cuda/ are ordinary CUDA (also compiled by NVRTC and nvcc in
test_nvrtc.py and test_nvcc.py); each checks itself against a host computation and ends
with a PASS/FAIL line.  Where a program prints numbers, they are also checked here against
values computed independently in Python.  tests/cuda/emulator/emu_checks.cu exercises
behaviour only the emulator can show (deadlock reports, error codes, thread order).
"""

from __future__ import annotations

import math
import re
import shutil
import struct
from bisect import bisect_right
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from transpiler.verify.cpu_cuda import CpuBuildError, build_cpu, run_cpu

CUDA_DIR = Path(__file__).parent / "cuda"
PROGRAMS = sorted(CUDA_DIR.glob("*.cu"))
CHECKS = CUDA_DIR / "emulator" / "emu_checks.cu"

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")


def run_program(name: str, **kwargs) -> str:
    result = run_cpu(build_cpu(CUDA_DIR / f"{name}.cu"), **kwargs)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_passes_its_own_check(program: Path):
    result = run_cpu(build_cpu(program))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith(f"PASS {program.stem}")


def test_vector_add_checksum_matches_numpy():
    out = run_program("vector_add")
    n = int(re.search(r"n = (\d+)", out).group(1))
    i = np.arange(n, dtype=np.float32)
    c = np.float32(0.5) * i + (np.float32(1.0) - i)  # float32 arithmetic, as on the device
    checksum = float(re.search(r"checksum = (\S+)", out).group(1))
    assert checksum == pytest.approx(math.fsum(c.astype(np.float64)), rel=1e-12)


def test_block_reduce_sum_is_the_harmonic_number():
    out = run_program("block_reduce")
    total = float(re.search(r"sum = (\S+)", out).group(1))
    assert total == pytest.approx(math.fsum(1.0 / k for k in range(1, 1_000_001)), rel=1e-12)


def test_tiled_matmul_elements_match_numpy():
    out = run_program("tiled_matmul")
    m, n, k = 77, 53, 91
    a = ((np.arange(m * k) * 37 % 101) - 50).astype(np.float32) / np.float32(25)
    b = ((np.arange(k * n) * 53 % 89) - 44).astype(np.float32) / np.float32(22)
    c = a.reshape(m, k).astype(np.float64) @ b.reshape(k, n).astype(np.float64)
    probes = re.findall(r"^c\[(\d+)\]\[(\d+)\] = (\S+)$", out, re.MULTILINE)
    assert len(probes) == 5  # corners of the partial edge tiles among them
    for i, j, value in probes:
        # float32 accumulation of 91 products of magnitude <= 4
        assert float(value) == pytest.approx(c[int(i), int(j)], abs=1e-4)


def _bf16_value(bits: int) -> Fraction:
    return Fraction(struct.unpack("<f", struct.pack("<I", bits << 16))[0])


# Non-negative finite bfloat16 values in increasing order, with +inf standing in as 2**128
# (the value IEEE rounding treats as the next one after the largest finite number).
_BF16_POSITIVE = [_bf16_value(b) for b in range(0x7F80)] + [Fraction(2) ** 128]


def _round_to_bf16(x: Fraction, negative: bool) -> int:
    """Round-to-nearest-even on exact rationals: a reference independent of bit tricks."""
    lo = bisect_right(_BF16_POSITIVE, abs(x)) - 1
    if lo == len(_BF16_POSITIVE) - 1:  # at or past 2**128: infinity
        return 0x7F80 | (0x8000 if negative else 0)
    if _BF16_POSITIVE[lo] != abs(x):
        below, above = abs(x) - _BF16_POSITIVE[lo], _BF16_POSITIVE[lo + 1] - abs(x)
        if above < below or (above == below and lo % 2 == 1):
            lo += 1
    return lo | (0x8000 if negative else 0)


def test_half_and_bfloat16_conversions_round_correctly():
    out = run_program("atomics_types")
    rows = re.findall(r"^lowp (\w{8}) (\w{4}) (\w{4}) (\w{4}) (\w{4})$", out, re.MULTILINE)
    assert len(rows) == 22
    for row in rows:
        in_bits, half, bf16, half_plus_one, bf16_squared = (int(h, 16) for h in row)
        x = np.frombuffer(struct.pack("<I", in_bits), dtype=np.float32)[0]
        with np.errstate(over="ignore"):  # 65520 and up round to infinity, as they should
            h = x.astype(np.float16)
        assert half == int(h.view(np.uint16)), hex(in_bits)
        assert half_plus_one == int((h + np.float16(1.0)).view(np.uint16)), hex(in_bits)
        if math.isinf(x):
            assert bf16 == (0xFF80 if x < 0 else 0x7F80)
            continue
        assert bf16 == _round_to_bf16(Fraction(float(x)), math.copysign(1, x) < 0), hex(in_bits)
        assert bf16_squared == _round_to_bf16(_bf16_value(bf16 & 0x7FFF) ** 2, False), hex(in_bits)


def test_float_to_int_conversions_saturate_and_take_nan_to_zero_as_on_the_gpu(tmp_path):
    # PTX cvt saturates; a C++ cast of an out-of-range float is undefined (x86: INT_MIN).
    source = tmp_path / "cvt.cu"
    source.write_text(
        '#include "b2t_cuda.h"\n#include <cstdio>\n'
        "volatile float big = 3e9f, not_a_number = NAN, two_and_a_half = 2.5f;\n"
        "volatile double d = -7.9, huge = 1e300;\n"
        "int main() {\n"
        '  printf("%d %d %d %d %d %lld\\n", __float2int_rz(big), __float2int_rz(-big),\n'
        "         __float2int_rz(not_a_number), __double2int_rz(d), __float2int_rn(two_and_a_half),\n"
        "         __double2ll_rn(huge));\n"
        "}\n"
    )
    result = run_cpu(build_cpu(source))
    assert result.stdout == "2147483647 -2147483648 0 -7 2 9223372036854775807\n", result.stderr


@pytest.mark.parametrize("workers, reverse", [(1, False), (1, True), (2, True)])
def test_results_do_not_depend_on_scheduling(workers: int, reverse: bool):
    for name in ("block_reduce", "tiled_matmul", "warp_ops", "wmma_matmul"):
        out = run_program(name, workers=workers, reverse=reverse)
        assert out.strip().splitlines()[-1].startswith("PASS")


@pytest.fixture(scope="module")
def checks() -> Path:
    return build_cpu(CHECKS)


def test_threads_that_returned_do_not_block_a_barrier(checks: Path):
    result = run_cpu(checks, args=["early_return"], timeout=60)
    assert (result.returncode, result.stdout) == (0, f"sum {sum(range(1000))}\n")


def test_divergent_barriers_are_reported_not_hung(checks: Path):
    result = run_cpu(checks, args=["deadlock"], timeout=60)
    assert result.returncode != 0
    assert "deadlock in block (0,0,0): 32 threads wait at __syncthreads(), 32 at a warp" in (
        result.stderr
    )


def test_partial_warp_masks_are_refused(checks: Path):
    result = run_cpu(checks, args=["partial_mask"], timeout=60)
    assert result.returncode != 0
    assert "__shfl_down_sync with mask 0x0000ffff: only full-warp masks" in result.stderr


def test_reverse_thread_order_exposes_a_missing_barrier(checks: Path):
    forward = run_cpu(checks, args=["missing_barrier"], workers=1)
    backward = run_cpu(checks, args=["missing_barrier"], workers=1, reverse=True)
    assert forward.stdout == "neighbours wrong 0\n"  # thread order happens to hide the bug
    assert backward.stdout == "neighbours wrong 62\n"  # all but threads 0 and 32 read stale


def test_b2t_check_reports_file_line_and_call(checks: Path):
    line = next(
        number
        for number, text in enumerate(CHECKS.read_text().splitlines(), start=1)
        if "CHECK-FAILS-HERE" in text
    )
    result = run_cpu(checks, args=["bad_memcpy"])
    assert result.returncode == 1
    assert result.stdout == ""
    assert f"emu_checks.cu:{line}: CUDA error cudaErrorInvalidValue: invalid argument" in (
        result.stderr
    )
    assert "in cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice)" in result.stderr


def test_memory_api_checks_directions_bounds_and_frees(checks: Path):
    result = run_cpu(checks, args=["memory_errors"])
    assert result.returncode == 0, result.stderr
    assert dict(line.split(" ", 1) for line in result.stdout.splitlines()) == {
        "poison": "-1",  # fresh device memory is not zeroed
        "overflow": "cudaErrorInvalidValue",
        "last": "cudaErrorInvalidValue",
        "cleared": "cudaSuccess",
        "memset_host": "cudaErrorInvalidValue",
        "free_host": "cudaErrorInvalidDevicePointer",
        "free": "cudaSuccess",
        "double_free": "cudaErrorInvalidDevicePointer",
        "devices": "1",
    }


def test_launch_configuration_errors_and_dynamic_shared_limit(checks: Path):
    result = run_cpu(checks, args=["launch_errors"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "block_2048 cudaErrorInvalidConfiguration",
        "grid_0 cudaErrorInvalidConfiguration",
        "shmem_64k cudaErrorInvalidValue",
        "shmem_64k_opt_in cudaSuccess",
        "echo wrong 0",
    ]


def test_run_cpu_feeds_stdin(checks: Path):
    result = run_cpu(checks, "1000\n", args=["stdin"])
    assert (result.returncode, result.stdout) == (0, f"sum {sum(range(1000))}\n")


@pytest.mark.usefixtures("built_as_printed")  # a speed measured at the suite's -O0 says little
def test_thousands_of_blocks_with_barriers_are_fast():
    # OS threads with std::barrier took 26 s here (6 ms per block); fibers take ~0.3 s.
    result = run_cpu(build_cpu(CHECKS), args=["speed"])
    match = re.search(r"threads x 9 barriers: (\S+) s, wrong 0", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) < 10.0


def test_address_sanitizer_catches_a_kernel_writing_past_its_buffer():
    line = next(
        number
        for number, text in enumerate(CHECKS.read_text().splitlines(), start=1)
        if "the bug: writes out[n]" in text
    )
    exe = build_cpu(CHECKS, extra_flags=["-fsanitize=address", "-g"])
    result = run_cpu(exe, args=["out_of_bounds"])
    assert result.returncode != 0
    assert "ERROR: AddressSanitizer: heap-buffer-overflow" in result.stderr
    assert re.search(rf"#0 .* in off_by_one \S*emu_checks\.cu:{line}\b", result.stderr)


def test_ucontext_fallback_for_other_cpus():
    # Targets other than x86-64 switch fibers with <ucontext.h>; force it here.
    exe = build_cpu(CUDA_DIR / "warp_ops.cu", extra_flags=["-DB2T_EMU_UCONTEXT"])
    result = run_cpu(exe)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "PASS warp_ops (0 wrong)\n"


def test_build_errors_carry_the_compiler_output(tmp_path: Path):
    source = tmp_path / "broken.cu"
    source.write_text('#include "b2t_cuda.h"\n__global__ void k() { undeclared(); }\n')
    with pytest.raises(CpuBuildError) as caught:
        build_cpu(source, cache=False)
    assert "broken.cu:2:" in caught.value.output
    assert "undeclared" in str(caught.value)


def test_builds_are_cached_by_content(tmp_path: Path):
    source = tmp_path / "answer.cu"
    template = '#include "b2t_cuda.h"\nint main() {{ printf("%d\\n", {}); }}\n'
    source.write_text(template.format(42))
    first = build_cpu(source)
    assert build_cpu(source) == first
    copy = build_cpu(source, tmp_path / "answer")
    assert run_cpu(copy).stdout == "42\n"
    source.write_text(template.format(43))
    second = build_cpu(source)
    assert second != first
    assert run_cpu(second).stdout == "43\n"
