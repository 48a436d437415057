"""PolyBench kernels written afresh in other styles than tests/polybench/ (1-based
arrays, `%` loop variables, a guard instead of a triangular bound, temporaries set
between the FORs, `NEXT K, J, I`, one-line nests): `tests/polybench_styles/*.bas`, in
Microsoft BASIC (GW-BASIC).  Each must pass `--check` on both targets, also with small
tiles, and the offload coverage of their parallel loops must not drop.

`PARALLEL` lists, per program, the FOR lines of the kernel section (lines 100-499)
whose iterations are independent as written (see tests/test_polybench.py).

Coverage when these programs were written: 28 of 33 parallel loops offloaded; 33 of 33
once the J loop of `FOR K : T = ALPHA * A(I, K) : FOR J` may move outside K (temporaries
before an interchanged FOR), a triangle `FOR J% = 0 TO I%` knows the range of I%,
temporaries between the second and third FOR of a nest no longer stop it at two lane
loops, and a scalar carried from one part of a distributed loop to the next is read
from the element it was stored in (gemm_temp, syr2k_pct, heat-3d_temps,
gramschmidt_scalar).

Oracle: the reference interpreter (`--check`, both targets, messages included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_polybench import _run, offloaded_lines

HERE = Path(__file__).parent / "polybench_styles"
DIALECT = ("--dialect", "ms")

PARALLEL = {
    "gemm_1based_pct": [100, 110, 150],
    "gemm_temp": [100, 110, 150],
    "gemm_ijk": [100, 110],
    "syrk_guard": [100, 110, 150],
    "syr2k_pct": [100, 110, 150],
    "2mm_1based": [100, 110, 200, 210],
    "heat-3d_pct": [110, 120, 130, 210, 220, 230],
    "heat-3d_temps": [110, 120, 130, 210, 220, 230],
    "gramschmidt_scalar": [140, 150, 190],
}
OFFLOADED_AT_LEAST = 33


def test_every_program_has_its_parallel_loops():
    assert sorted(p.stem for p in HERE.glob("*.bas")) == sorted(PARALLEL)


@pytest.mark.parametrize("name", sorted(PARALLEL))
def test_the_parallel_loops_are_offloaded(name):
    got = offloaded_lines(HERE / f"{name}.bas", *DIALECT) & set(PARALLEL[name])
    assert sorted(got) == PARALLEL[name]


def test_offload_coverage_of_the_parallel_loops(capsys):
    offloaded = sum(
        len(offloaded_lines(HERE / f"{name}.bas", *DIALECT) & set(lines))
        for name, lines in PARALLEL.items()
    )
    with capsys.disabled():
        total = sum(len(lines) for lines in PARALLEL.values())
        print(f"\nparallel loops offloaded (other styles): {offloaded}/{total}")
    assert offloaded >= OFFLOADED_AT_LEAST


@pytest.mark.parametrize(
    ("name", "line", "over"),
    [
        ("gemm_temp", 100, "over I, J (FOR lines 100, 150);"),
        ("syr2k_pct", 100, "over I%, J% (FOR lines 100, 150);"),
        ("heat-3d_temps", 110, "over I, J, K;"),
        ("gramschmidt_scalar", 150, "over J, I (FOR lines 150, 190);"),
    ],
)
def test_explain_names_the_grid(name, line, over):
    explain = _run(HERE / f"{name}.bas", "--explain", *DIALECT).stdout
    assert f"line {line} " in explain and over in explain, explain


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", sorted(PARALLEL))
def test_program_agrees_with_the_interpreter(name, target):
    path = HERE / f"{name}.bas"
    for tile in [[], ["--tile", "4"]]:
        result = _run(path, "--check", "--device", "cpu", "--target", target, *DIALECT, *tile)
        assert result.returncode == 0, f"{tile}: {result.stdout}{result.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", ["gemm_temp", "syr2k_pct", "heat-3d_temps"])
def test_the_2d_and_3d_kernels_compile_with_nvidias_compilers(tmp_path, monkeypatch, name, target):
    """cuTile's export_kernel (Tile IR, then a cubin) and NVRTC, for sm_90."""
    pytest.importorskip("cuda.bindings.nvrtc")
    from transpiler import cli

    monkeypatch.chdir(tmp_path)
    path = HERE / f"{name}.bas"
    assert cli.main([str(path), *DIALECT, "--emit", "cubin", "--target", target]) == 0
    cubins = sorted(p.name for p in tmp_path.glob("*.cubin"))
    if target == "cutile":  # one cubin per kernel
        assert "map_100_2.cutile.sm_90.cubin" in cubins or "stencil_110.cutile.sm_90.cubin" in cubins, cubins
    else:  # one for the program
        assert cubins == [f"{name.replace('-', '_')}.nvrtc.sm_90.cubin"], cubins
