"""The CUDA test programs in tests/cuda/ build with nvcc, host code included (link only:
nothing runs without a GPU).  About 4 s per program."""

from __future__ import annotations

from pathlib import Path

import pytest

from transpiler.verify.nvcc import NvccError, build_nvcc, find_nvcc

PROGRAMS = sorted((Path(__file__).parent / "cuda").glob("*.cu"))

pytestmark = [
    pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed"),
    pytest.mark.slow,
]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_builds_with_nvcc(program: Path, tmp_path: Path):
    exe = build_nvcc(program, tmp_path / program.stem, arch="sm_90")
    assert exe.read_bytes()[:4] == b"\x7fELF"


def test_nvcc_errors_carry_the_output(tmp_path: Path):
    source = tmp_path / "broken.cu"
    source.write_text('#include "b2t_cuda.h"\n__global__ void k() { undeclared(); }\n')
    with pytest.raises(NvccError) as caught:
        build_nvcc(source, tmp_path / "broken")
    assert 'broken.cu(2): error: identifier "undeclared" is undefined' in caught.value.output
