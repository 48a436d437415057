"""Ahead-of-time compilation of the shared test kernels with cuTile's front end and tileiras."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import cuda.tile as ct
import pytest
from cuda.tile._compile import _find_tileirdisasm_bin

from tests import test_tilesim_kernels as K
from transpiler import tilesim
from transpiler.verify import cutile_aot
from transpiler.verify.cutile_aot import CutileCompileError, ParamSpec, export

A, S, C = ParamSpec.array, ParamSpec.scalar, ParamSpec.constant

KERNELS = {
    "vector_add": (K.vector_add, [A(ct.float32, 1)] * 3 + [C(1024)]),
    "saxpy_slice": (
        K.saxpy_slice,
        [A(ct.float64, 1)] * 2 + [S(ct.float32), S(ct.int32), S(ct.int32), C(256)],
    ),
    "matmul_f16": (
        K.matmul_k_loop,
        [A(ct.float16, 2)] * 2 + [A(ct.float32, 2), C(32), C(32), C(32)],
    ),
    "matmul_f64": (K.matmul_k_loop, [A(tilesim.float64, 2)] * 3 + [C(32), C(32), C(16)]),
    "row_sums": (K.row_sums, [A(ct.float32, 2), A(ct.float32, 1), C(16), C(64)]),
    "atomic_total": (K.atomic_total, [A(ct.float32, 1)] * 2 + [C(128)]),
    "gather_scatter": (K.gather_scatter_reverse, [A(ct.int32, 1)] * 2 + [S(ct.int32), C(128)]),
    "helper": (K.clamp_with_helper, [A(ct.float32, 1)] * 2 + [C(128)]),
    "grid_ids": (K.grid_ids, [A(ct.int32, 3)]),
}


def _cubin_arch(data: bytes) -> int:
    """The SM version an NVIDIA cubin is built for (ELF machine EM_CUDA, arch in e_flags)."""
    assert data[:4] == b"\x7fELF" and data[4] == 2  # 64-bit ELF
    assert struct.unpack_from("<H", data, 18)[0] == 190  # EM_CUDA
    return (struct.unpack_from("<I", data, 48)[0] >> 8) & 0xFF


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(KERNELS))
def test_kernels_compile_to_bytecode_and_three_cubins(case, tmp_path):
    kernel, params = KERNELS[case]
    paths = export(kernel, params, tmp_path)
    name = kernel._pyfunc.__name__
    assert [p.name for p in paths] == [
        f"{name}.tileirbc",
        f"{name}.sm_80.cubin",
        f"{name}.sm_90.cubin",
        f"{name}.sm_100.cubin",
    ]
    assert paths[0].read_bytes().startswith(b"\x7fTileIR\x00")
    for path, arch in zip(paths[1:], (80, 90, 100)):
        assert _cubin_arch(path.read_bytes()) == arch
    listing = subprocess.run(
        [_find_tileirdisasm_bin(), str(paths[0])], capture_output=True, text=True, check=True
    ).stdout
    assert f"entry @{name}" in listing


def test_front_end_errors_carry_the_message_and_kernel_location(tmp_path):
    with pytest.raises(CutileCompileError) as info:
        export(K.store_wrong_dtype, [A(ct.float64, 1), A(ct.float32, 1), C(8)], tmp_path)
    error = info.value
    assert error.stage == "front-end" and error.kernel == "store_wrong_dtype"
    assert "cannot implicitly cast float64 to float32" in error.message
    assert "Unknown location" not in error.message
    line = Path(K.__file__).read_text().splitlines()[error.line - 1]
    assert error.filename == K.__file__ and line[error.column - 1 :].startswith("ct.store")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_tileiras_errors_carry_the_compiler_message(tmp_path):
    with pytest.raises(CutileCompileError) as info:
        export(K.huge_tile, [A(ct.float32, 1)], tmp_path, formats=("cubin",), archs=("sm_90",))
    assert info.value.stage == "tileiras" and info.value.target == "sm_90"
    assert "16777216" in info.value.message


def test_the_simulator_agrees_about_the_same_errors():
    # The two tools must reject the same kernels (here: a front-end type error).
    import numpy as np

    with pytest.raises(ct.TileTypeError):
        tilesim.launch(None, (1,), K.store_wrong_dtype, (np.zeros(8), np.zeros(8, np.float32), 8))


def test_cubins_are_cached_by_content(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDA_TILE_CACHE_DIR", str(tmp_path / "cache"))
    calls = []
    real = cutile_aot.compile_cubin

    def counting(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(cutile_aot, "compile_cubin", counting)
    kernel, params = KERNELS["vector_add"]
    first = export(kernel, params, tmp_path / "a", formats=("cubin",), archs=("sm_80", "sm_90"))
    second = export(kernel, params, tmp_path / "b", formats=("cubin",), archs=("sm_80", "sm_90"))
    assert sorted(calls) == ["sm_80", "sm_90"]  # tileiras ran once per architecture
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    other = export(
        kernel, params[:3] + [C(512)], tmp_path / "c", formats=("cubin",), archs=("sm_80",)
    )
    assert len(calls) == 3 and other[0].read_bytes() != first[0].read_bytes()


def test_bad_requests_are_refused(tmp_path):
    kernel, params = KERNELS["vector_add"]
    with pytest.raises(ValueError, match="formats"):
        export(kernel, params, tmp_path, formats=("ptx",))
    with pytest.raises(TypeError, match="dtype"):
        export(kernel, [A("float32", 1)] * 3 + [C(1024)], tmp_path)
