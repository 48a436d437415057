"""Hand-written cuTile matrix products: the yardstick for the generated mma kernels.

bench/gpu_bench.py times the kernels that basic2tile generates from
examples/kernels/gemm.bas (f32, 128x128 tiles of C, K in steps of 32) and hgemm.bas (f16
inputs, f32 accumulator and output, 64x64 tiles, K in steps of 32) against these, launched
with the same tile shapes:

  matmul_grid2d    one block per (row tile, column tile) on a 2-D grid: what a person writes
                   first, the same schedule as hgemm.bas
  matmul_grouped   a 1-D grid whose block order walks GROUP_M row tiles together, so that
                   consecutive blocks share the tiles of A and B they read (better L2 reuse
                   on large matrices): what a person writes when tuning

Both accumulate in f32 with ct.mma and load with zero padding, so partial tiles are
correct.  Written for this project from cuTile's documented API (ct.load/ct.mma/ct.store,
tile-space indexing, ct.num_tiles, ct.Constant); not derived from NVIDIA's samples.
Compiled here by cuTile's front end and tileiras (bench/gpu_bench.py --dry-run) and run on
the CPU tile simulator, but not yet run on a GPU.
"""

from __future__ import annotations

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def matmul_grid2d(a, b, c, tm: ConstInt, tn: ConstInt, tk: ConstInt):
    """C = A @ B; block (i, j) computes the (tm x tn) tile (i, j) of C."""
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for kt in range(ct.num_tiles(a, axis=1, shape=(tm, tk))):
        x = ct.load(a, index=(bm, kt), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(kt, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def matmul_grouped(a, b, c, tm: ConstInt, tn: ConstInt, tk: ConstInt, group_m: ConstInt):
    """C = A @ B on a 1-D grid; blocks are ordered in groups of `group_m` row tiles."""
    pid = ct.bid(0)
    rows = ct.num_tiles(c, axis=0, shape=(tm, tn))
    cols = ct.num_tiles(c, axis=1, shape=(tm, tn))
    per_group = group_m * cols
    first_row = (pid // per_group) * group_m
    height = ct.minimum(rows - first_row, group_m)  # the last group may be shorter
    within = pid % per_group
    bm = first_row + within % height
    bn = within // height
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for kt in range(ct.num_tiles(a, axis=1, shape=(tm, tk))):
        x = ct.load(a, index=(bm, kt), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, index=(kt, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, index=(bm, bn), tile=acc)


GROUP_M = 8


def launch_args(kind: str, a, b, c, tiles: tuple[int, int, int]):
    """(kernel, grid, args) for ct.launch (or tilesim.launch) of a reference kernel."""
    tm, tn, tk = tiles
    m, n = c.shape
    rows, cols = -(-m // tm), -(-n // tn)
    if kind == "grid2d":
        return matmul_grid2d, (rows, cols, 1), (a, b, c, tm, tn, tk)
    if kind == "grouped":
        return matmul_grouped, (rows * cols, 1, 1), (a, b, c, tm, tn, tk, GROUP_M)
    raise ValueError(f"unknown reference kernel {kind!r}")


KINDS = ("grid2d", "grouped")
