"""A third set of PolyBench/C 4.2 kernels in BASIC (issue 21's generalisation check),
written afresh in styles that tests/polybench/ and tests/polybench_styles/ do not use:
`DEFINT I-N` with %-free names, `OPTION BASE 1`, loops that count down (`STEP -1`), a
time loop made of `WHILE ... WEND` or of `IF ... THEN GOTO`, a triangle chosen by `IF J >
I THEN GOTO` (the NEXT), row sums and dot products in scalars, several statements a line
and whole nests on one line (`tests/polybench_third/*.bas`, Microsoft BASIC).  Each must
pass `--check` on both targets, also with `--tile 4`, and the offload coverage of their
parallel loops must not drop.

`PARALLEL` lists, per program, the loops of the kernel section (lines 100-499) whose
iterations are independent as written (see tests/test_polybench.py), as (BASIC line,
loop variable): a line may hold several FORs.

Coverage when these programs were written: 40 of 42; 42 of 42 once the parts of a
distributed loop take lanes (I, J) with the sum over K inside each lane rather than
atomic adds over lanes (I, J, K) (a histogram part had kept the loop whole): gemm's
`FOR I : FOR J : C(I,J) = C(I,J) * BETA : NEXT J : FOR J : FOR K : C(I,J) = C(I,J) + ...`
(the I-J-K order) was a 1-D kernel over I with both J loops inside each lane.
floyd-warshall_while (a WHILE over K, the sum in a temporary) came later, with the
kernel guarded by `P(K,K) >= 0`: 44 of 44.

Oracle: the reference interpreter (`--check`, both targets, messages included)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_polybench import _KERNEL, _run, coverage, kernel_lanes

HERE = Path(__file__).parent / "polybench_third"
DIALECT = ("--dialect", "ms")

PARALLEL = {
    "gemm_defint": [(100, "I"), (110, "J"), (150, "J")],
    "atax_base1": [(100, "I"), (180, "J")],
    "bicg_down": [(100, "J")],
    "mvt_oneline": [(100, "I"), (200, "I")],
    "gesummv_scalars": [(100, "I")],
    "jacobi-1d_while": [(110, "I"), (140, "I")],
    "jacobi-2d_goto": [(110, "I"), (120, "J"), (160, "I"), (170, "J")],
    "fdtd-2d_defint": [
        (110, "J"),
        (140, "I"),
        (150, "J"),
        (190, "I"),
        (200, "J"),
        (240, "I"),
        (250, "J"),
    ],
    "2mm_defint_base1": [(100, "I"), (110, "J"), (200, "I"), (210, "L")],
    "syrk_goto": [(100, "I"), (110, "J"), (150, "J")],
    "covariance_pct": [(100, "J%"), (200, "I%"), (210, "J%"), (300, "I%"), (310, "J%")],
    "lu_defint": [(160, "J")],
    "trmm_down": [(110, "J")],
    "heat-3d_while": [(110, "I"), (110, "J"), (110, "K"), (210, "I"), (210, "J"), (210, "K")],
    # Parallel for a fixed K while P(K,K) >= 0, as here (passes/parallel/value_guards.py).
    "floyd-warshall_while": [(120, "I"), (130, "J")],
}
OFFLOADED_AT_LEAST = 44


def _fors(path: Path) -> list[tuple[int, str]]:
    """(BASIC line, loop variable) of every FOR, in source order."""
    out = []
    for line in path.read_text().splitlines():
        number = re.match(r"^(\d+) ", line)
        for match in re.finditer(r"\bFOR (\w+[%!#]?)", line) if number else ():
            out.append((int(number.group(1)), match.group(1)))
    return out


def offloaded_loops(path: Path) -> set[tuple[int, str]]:
    """The loops (line, variable) whose iterations are lanes of a kernel, from --explain.
    A DEFINT variable is shown with its %: `I%` is the FOR's `I`."""
    explain = _run(path, "--explain", *DIALECT)
    assert explain.returncode == 0, explain.stderr
    return kernel_lanes(explain.stdout, _fors(path), _KERNEL)


def test_every_program_has_its_parallel_loops():
    assert sorted(p.stem for p in HERE.glob("*.bas")) == sorted(PARALLEL)
    assert sum(len(loops) for loops in PARALLEL.values()) == 44


def test_offload_coverage_of_the_parallel_loops(capsys):
    rows, offloaded, total = coverage(PARALLEL, lambda name: offloaded_loops(HERE / f"{name}.bas"))
    with capsys.disabled():
        print(
            "\n" + "\n".join(rows) + f"\nparallel loops offloaded (third set): {offloaded}/{total}"
        )
    assert offloaded >= OFFLOADED_AT_LEAST


def test_gemm_in_the_ijk_order_is_two_2d_kernels():
    """`FOR I : FOR J : scale : NEXT J : FOR J : FOR K : sum : NEXT K : NEXT J`: the loop
    is distributed, each part a 2-D grid over (I, J), the sum over K inside each lane (in
    BASIC's order, no atomic adds)."""
    explain = _run(HERE / "gemm_defint.bas", "--explain", *DIALECT).stdout
    assert "over I%, J% (FOR lines 100, 110)" in explain, explain
    assert "map_100_2 (map): elementwise map over I%, J% (FOR lines 100, 150)" in explain


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", sorted(PARALLEL))
def test_program_agrees_with_the_interpreter(name, target):
    path = HERE / f"{name}.bas"
    for tile in [[], ["--tile", "4"]]:
        result = _run(path, "--check", "--device", "cpu", "--target", target, *DIALECT, *tile)
        assert result.returncode == 0, f"{tile}: {result.stdout}{result.stderr}"
