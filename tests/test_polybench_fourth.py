"""A fourth set of PolyBench/C 4.2 kernels in BASIC (issue 21's generalisation check),
written from PolyBench's C without reading the programs of the other three sets, in the
styles GW-BASIC and QuickBASIC programmers used (`tests/polybench_fourth/*.bas`):
several statements a line and one-line `FOR ... : NEXT` nests, `NEXT J, I` and `NEXT K,
J, I`, long names (ALPHA, BETA, TMP, ACC, SUM1, SUMSQ), `DEFDBL A-H, O-Z: DEFINT I-N`,
`DEFSNG`, `%` counters, `OPTION BASE 1` with 1..N loops, sizes READ from DATA, bounds as
expressions (`N - 1`, `I - 1`, `K + 1`), `IF ... THEN` guards in full loops, sums in a
scalar stored after the loop, a `WHILE ... WEND` time loop, and QuickBASIC programs
(the `_qb` ones, `--dialect qbasic`): no line numbers, `CONST`, `DIM A(1 TO N, 1 TO N) AS
DOUBLE`, `DO WHILE ... LOOP` and `DO ... LOOP UNTIL`.  Each must pass `--check` on both
targets, also with `--tile 4`, and the offload coverage of its parallel loops must not
drop.

`PARALLEL` lists, per program, the loops of the kernel whose iterations are independent
as written (the rule of tests/test_polybench.py: a sum into one element, a recurrence or
an in-place sweep is not parallel), as (line, loop variable): the BASIC line number under
Microsoft BASIC, the line of the file in a QuickBASIC program.  A sum into one scalar
(`S = S + ...`) counts too where no parallel loop encloses it (trisolv's dot product,
durbin's, gramschmidt's norm, lu's first K loop): then it is the only parallelism there
is, and a reduction kernel is its offload; one inside a parallel loop runs in each lane.

Coverage when these programs were written: 59 of 72; 60 once a QuickBASIC CONST counts
as an integer (lu_qb's `FOR J = I TO N`, passes/parallel/integrality.py); 56 once a matrix product
over `%` counters whose last NEXT may overflow stays on the host like any other loop
(3mm_pct's first two products had become mma kernels that lost GW-BASIC's Overflow); 65
once the singles that f64 computes exactly alike (`N - 1` of integers, a constant like
`.33333`) no longer make a loop of doubles compute in f32 (gemm_colon 3, gesummv_dbl 1,
durbin_tmp 3, jacobi-1d_dbl_qb 2: tests/test_defdbl_kernels.py); 71 once a `%` loop whose
sizes are READ from DATA (so NI% may be 32767 and its last NEXT overflow) runs as a
kernel launched only when its count keeps that NEXT in range (3mm_pct 6:
tests/test_offload_integer_loops.py).  The loop left on the host, and why (`--explain`):
- trmm_qb (1), "QuickBASIC's INTEGER and LONG arithmetic that may overflow": the counter
  of `DO WHILE K% < M ... K% = K% + 1 ... LOOP` inside the lane has no known range.

Oracle: the reference interpreter (`--check`, both targets)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_polybench import _run, coverage, kernel_lanes

HERE = Path(__file__).parent / "polybench_fourth"

PARALLEL = {
    "gemm_colon": [(100, "I"), (110, "J"), (120, "J")],
    "2mm_qb": [(14, "I"), (15, "J"), (22, "I"), (23, "J")],
    "3mm_pct": [(100, "I%"), (110, "J%"), (200, "I%"), (210, "J%"), (300, "I%"), (310, "J%")],
    "atax_data": [(100, "I"), (110, "I"), (160, "J")],
    "bicg_qb": [(20, "I%")],
    "mvt_nextji": [(100, "I"), (200, "I")],
    "gesummv_dbl": [(100, "I")],
    "gemver_long": [(100, "I"), (100, "J"), (200, "I"), (300, "I"), (400, "I")],
    "syrk_guard": [(100, "I"), (110, "J"), (150, "J")],
    "syr2k_qb": [(18, "I"), (19, "J")],
    "symm_pct": [(110, "J%")],
    "trmm_qb": [(17, "J%")],
    "jacobi-1d_wend": [(110, "I"), (140, "I")],
    "jacobi-1d_dbl_qb": [(12, "I"), (15, "I")],
    "jacobi-2d_qb": [(13, "I"), (14, "J"), (18, "I"), (19, "J")],
    "heat-3d_nest": [(110, "I"), (120, "J"), (130, "K"), (210, "I"), (210, "J"), (210, "K")],
    "fdtd-2d_qb": [(15, "J"), (18, "I"), (19, "J"), (23, "I"), (24, "J"), (28, "I"), (29, "J")],
    # The R and Q loops share SUM() as written: only the P loops are independent.
    "doitgen_sum": [(120, "P"), (160, "P")],
    # Parallel for a fixed K while PATHS(K,K) >= 0, as here (passes/parallel/value_guards.py).
    "floyd-warshall_if": [(110, "I"), (120, "J")],
    "covariance_qb": [(15, "J"), (22, "I"), (23, "J"), (27, "I"), (28, "J")],
    # The dot product into DOT (a scalar sum; the I loop is a recurrence).
    "trisolv_sum": [(120, "J")],
    # 140: the sum into SUM1 (K is a recurrence); 160 and 170: the copy through Z().
    "durbin_tmp": [(140, "I"), (160, "I"), (170, "I")],
    # 27: the sum into W of the first J loop (a recurrence); 32: the second J loop.
    "lu_qb": [(27, "K"), (32, "J")],
    # 120: the norm's sum into SUMSQ; 140, 150 (J = K + 1 TO N - 1) and 180.
    "gramschmidt_sqr": [(120, "I"), (140, "I"), (150, "J"), (180, "I")],
}
OFFLOADED_AT_LEAST = 71

# `  line 100   FOR ...` (Microsoft BASIC) or `  source line 14 FOR ...` (QuickBASIC).
_KERNEL = re.compile(
    r"^  (?:source )?line (\d+)\s+FOR .*\n\s+-> GPU kernel \S+ \(\w+\): .*? over "
    r"([A-Z0-9_%!#, ]+)(?: \(FOR lines ([\d, ]+)\))?;",
    re.MULTILINE,
)
# A matrix product (`E(I,J) = sum of A(I,K) * B(K,J)`) is one kernel over its I and J.
_MATMUL = re.compile(
    r"^  (?:source )?line (\d+)\s+FOR .*\n\s+-> GPU kernel \S+ \(mma\): matrix product",
    re.MULTILINE,
)


def _dialect(name: str) -> tuple[str, str]:
    return ("--dialect", "qbasic" if name.endswith("_qb") else "ms")


def _fors(path: Path) -> list[tuple[int, str]]:
    """(line, loop variable) of every FOR, in source order: the BASIC line number, or
    the line of the file where the program has none."""
    out = []
    for place, line in enumerate(path.read_text().splitlines(), start=1):
        number = re.match(r"^(\d+) ", line)
        for match in re.finditer(r"\bFOR (\w+[%!#]?)", line):
            out.append((int(number.group(1)) if number else place, match.group(1)))
    return out


def offloaded_loops(name: str) -> set[tuple[int, str]]:
    """The loops (line, variable) whose iterations are lanes of a kernel, from --explain.
    A DEFINT variable is shown with its %: `I%` is the FOR's `I`."""
    path = HERE / f"{name}.bas"
    explain = _run(path, "--explain", *_dialect(name))
    assert explain.returncode == 0, explain.stderr
    fors = _fors(path)
    out = kernel_lanes(explain.stdout, fors, _KERNEL)
    for match in _MATMUL.finditer(explain.stdout):
        position = [n for n, _ in fors].index(int(match.group(1)))
        out.update(fors[position : position + 2])
    return out


def test_every_program_has_its_parallel_loops():
    assert sorted(p.stem for p in HERE.glob("*.bas")) == sorted(PARALLEL)
    for name, loops in PARALLEL.items():
        assert set(loops) <= set(_fors(HERE / f"{name}.bas")), name
    assert sum(len(loops) for loops in PARALLEL.values()) == 72


def test_offload_coverage_of_the_parallel_loops(capsys):
    rows, offloaded, total = coverage(PARALLEL, offloaded_loops)
    with capsys.disabled():
        print(
            "\n" + "\n".join(rows) + f"\nparallel loops offloaded (fourth set): {offloaded}/{total}"
        )
    assert offloaded >= OFFLOADED_AT_LEAST


def test_lu_with_a_const_size_offloads_its_second_j_loop():
    """`CONST N = 12` holds an integer, so `FOR J = I TO N` is affine and the exact test
    finds its lanes independent (it was "not affine: the limit of FOR J% ...")."""
    assert (32, "J") in offloaded_loops("lu_qb")


# GW-BASIC stops with "Overflow" at the last NEXT of FOR I% = 1 TO 32767 (I% would be
# 32768); a matrix product kernel over I% printed E(5, 1) instead.
OVERFLOWING_PRODUCT = """30 READ NI%, NJ%, NK%
40 DATA 32767, 1, 1
50 DIM A(NI%, NK%), B(NK%, NJ%), E(NI%, NJ%)
60 A(5, 1) = 2: B(1, 1) = 3
100 FOR I% = 1 TO NI%
110 FOR J% = 1 TO NJ%
120 SUM1 = 0
130 FOR K% = 1 TO NK%: SUM1 = SUM1 + A(I%, K%) * B(K%, J%): NEXT K%
140 E(I%, J%) = SUM1
150 NEXT J%, I%
500 PRINT E(5, 1)
"""


def test_a_matrix_product_keeps_the_overflow_of_its_counters(tmp_path):
    path = tmp_path / "product.bas"
    path.write_text(OVERFLOWING_PRODUCT)
    explain = _run(path, "--explain", "--dialect", "ms").stdout
    # Not a matrix product kernel: a map whose launch tests the count of I% first.
    assert "(mma)" not in explain and "iterations of I%" in explain, explain
    result = _run(path, "--check", "--device", "cpu", "--target", "cuda", "--dialect", "ms")
    assert result.returncode == 0, f"{result.stdout}{result.stderr}"
    assert "Overflow in 150" in _run(path, "--interpret", "--dialect", "ms").stdout


# A sample that runs without -m slow (one program of each dialect, the small tiles).
_QUICK = ["lu_qb", "syrk_guard"]


@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", _QUICK)
def test_a_sample_agrees_with_the_interpreter_in_small_tiles(name, target):
    path = HERE / f"{name}.bas"
    result = _run(
        path, "--check", "--device", "cpu", "--target", target, *_dialect(name), "--tile", "4"
    )
    assert result.returncode == 0, f"{result.stdout}{result.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", sorted(PARALLEL))
def test_program_agrees_with_the_interpreter(name, target):
    path = HERE / f"{name}.bas"
    for tile in [[], ["--tile", "4"]]:
        result = _run(
            path, "--check", "--device", "cpu", "--target", target, *_dialect(name), *tile
        )
        assert result.returncode == 0, f"{tile}: {result.stdout}{result.stderr}"
