"""NVRTC compilation (transpiler/verify/nvrtc.py) of the CUDA test programs in tests/cuda/.

Every program must compile for sm_80, sm_90 and sm_100: its host code is fenced off with
`#ifndef __CUDACC_RTC__` and b2t_cuda.h brings NVIDIA's headers (fp16, bf16, WMMA) found
from the pip wheels.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

pytest.importorskip("cuda.bindings.nvrtc")

from transpiler.verify.nvrtc import ARCHS, NvrtcError, compile_cuda, gpu_target

PROGRAMS = sorted((Path(__file__).parent / "cuda").glob("*.cu"))
EM_CUDA = 190


def kernels_of(source: str) -> list[str]:
    return re.findall(r'extern "C" __global__ void (\w+)\(', source)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_programs_compile_to_cubin(program: Path, arch: str):
    source = program.read_text()
    cubin = compile_cuda(source, program.name, arch)
    assert cubin[:4] == b"\x7fELF"
    assert struct.unpack_from("<H", cubin, 18)[0] == EM_CUDA
    # e_flags hold the SM number in bits 8..15 (0x50, 0x5a, 0x64 for sm_80/90/100)
    assert (struct.unpack_from("<I", cubin, 48)[0] >> 8) & 0xFF == int(arch[3:])
    names = kernels_of(source)
    assert names
    for name in names:  # extern "C": the symbol is the plain name
        assert b"\0" + name.encode() + b"\0" in cubin


@pytest.mark.parametrize("program", PROGRAMS[:3], ids=lambda p: p.stem)
def test_programs_compile_to_ptx(program: Path):
    source = program.read_text()
    ptx = compile_cuda(source, program.name, "sm_90", output="ptx").decode()
    assert re.search(r"^\.target sm_90$", ptx, re.MULTILINE)
    for name in kernels_of(source):
        assert re.search(rf"^\.visible \.entry {name}\(", ptx, re.MULTILINE)


def test_compile_errors_carry_the_log():
    source = 'extern "C" __global__ void k(float* x) {\n  x[0] = undefined_name;\n}\n'
    with pytest.raises(NvrtcError) as caught:
        compile_cuda(source, "broken.cu", "sm_80")
    error = caught.value
    assert (error.name, error.target, error.result) == (
        "broken.cu",
        "sm_80",
        "NVRTC_ERROR_COMPILATION",
    )
    assert 'broken.cu(2): error: identifier "undefined_name" is undefined' in error.log
    assert error.log.rstrip() in str(error)


def test_an_unknown_architecture_is_an_nvrtc_error():
    with pytest.raises(NvrtcError, match="NVRTC_ERROR_INVALID_OPTION") as caught:
        compile_cuda('extern "C" __global__ void k() {}', "k.cu", "sm_999")
    assert "--gpu-architecture" in caught.value.log


def test_extra_include_dirs_and_options(tmp_path: Path):
    (tmp_path / "scale.h").write_text("#define SCALE 3.0f\n")
    source = (
        '#include "scale.h"\nextern "C" __global__ void k(float* x) { x[0] *= SCALE * FACTOR; }\n'
    )
    ptx = compile_cuda(
        source, "k.cu", "sm_90", "ptx", include_dirs=[tmp_path], options=["-DFACTOR=2.0f"]
    ).decode()
    assert "0f40C00000" in ptx  # 6.0f, folded from SCALE * FACTOR


@pytest.mark.parametrize(
    "arch, output, expected",
    [
        ("sm_90", "cubin", "sm_90"),
        ("sm_90", "ptx", "compute_90"),
        ("compute_80", "ptx", "compute_80"),
        ("sm_100a", "cubin", "sm_100a"),
        ("sm_100a", "ptx", "compute_100a"),
    ],
)
def test_gpu_target(arch: str, output: str, expected: str):
    assert gpu_target(arch, output) == expected


@pytest.mark.parametrize(
    "arch, output", [("compute_90", "cubin"), ("gfx90a", "cubin"), ("sm_90", "sass")]
)
def test_gpu_target_rejects(arch: str, output: str):
    with pytest.raises(ValueError):
        gpu_target(arch, output)
