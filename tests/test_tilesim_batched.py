"""Batched block execution (tilesim/_batch.py) gives exactly the block-by-block results.

Every kernel runs twice on copies of the same inputs, batched and sequential; the arrays
must be bitwise equal afterwards and any exception the same.  Kernels that can batch must
really have taken the batched path (not a silent fallback); the others must fall back.
"""

from __future__ import annotations

import cuda.tile as ct
import numpy as np
import pytest

from tests import test_tilesim_kernels as K
from transpiler import tilesim as ts
from transpiler.tilesim import _batch

ConstInt = ct.Constant[int]
ZERO = ct.PaddingMode.ZERO
RNG = np.random.default_rng(11)


@ct.kernel
def row_stats(X, out_max, out_arg, out_cum, out_soft, TM: ConstInt, TN: ConstInt):
    """Reductions and a scan along an axis, and a softmax with keepdims."""
    bm = ct.bid(0)
    t = ct.load(X, (bm, 0), (TM, TN), padding_mode=ZERO)
    ct.store(out_max, (bm,), ct.max(t, axis=1))
    ct.store(out_arg, (bm,), ct.argmax(t, axis=1))
    ct.store(out_cum, (bm, 0), ct.cumsum(t, axis=1))
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(out_soft, (bm, 0), e / ct.sum(e, axis=1, keepdims=True))


@ct.kernel
def shape_mix(X, Y, T: ConstInt):
    """Transpose, reshape, where, astype and expand_dims on block-dependent tiles."""
    bm, bn = ct.bid(0), ct.bid(1)
    t = ct.load(X, (bm, bn), (T, T), padding_mode=ZERO)
    r = ct.reshape(ct.transpose(t), (T * T,)).reshape((T, T))
    s = ct.where(r > 0.5, r, ct.astype(bm + 2 * bn, ct.float32))
    col = ct.expand_dims(ct.sum(s, axis=0), 0)
    ct.store(Y, (bn, bm), s + col + ct.full((T, T), bm, ct.float32))


@ct.kernel
def halve_until_small(x, y, TILE: ConstInt):
    """A `while` on a per-block value: cannot batch."""
    t = ct.load(x, (ct.bid(0),), (TILE,), padding_mode=ZERO)
    while ct.max(t) > 1.0:
        t = t * 0.5
    ct.store(y, (ct.bid(0),), t)


@ct.kernel
def odd_blocks_negate(x, TILE: ConstInt):
    """An `if` on the block index: cannot batch."""
    i = ct.bid(0)
    t = ct.load(x, (i,), (TILE,), padding_mode=ZERO)
    if i % 2 == 1:
        t = -t
    ct.store(x, (i,), t)


@ct.kernel
def next_tile(x, out, TILE: ConstInt):
    """Copies the following tile: the last block's tile lies outside the array (an error)."""
    i = ct.bid(0)
    ct.store(out, (i,), ct.load(x, (i + 1,), (TILE,), padding_mode=ZERO))


@ct.kernel
def read_back_own_store(x, y, TILE: ConstInt):
    """A block reads back what it stored: fine, it sees its own store."""
    i = ct.bid(0)
    ct.store(y, (i,), ct.load(x, (i,), (TILE,), padding_mode=ZERO) * 2.0)
    ct.store(x, (i,), ct.load(y, (i,), (TILE,), padding_mode=ZERO) + 1.0)


def _run(grid, kernel, args, batched, **options):
    arrays = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
    before = (_batch.STATS.batched, _batch.STATS.fallbacks)
    error = None
    try:
        ts.launch(None, grid, kernel, tuple(arrays), batched=batched, **options)
    except Exception as e:  # noqa: BLE001 (compared below)
        error = e
    after = (_batch.STATS.batched, _batch.STATS.fallbacks)
    took = "batched" if after[0] > before[0] else "fallback" if after[1] > before[1] else "none"
    return [a for a in arrays if isinstance(a, np.ndarray)], error, took


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


def check_same(grid, kernel, args, expect: str, **options):
    """Launch both ways; `expect` is the path the batched launch must take."""
    got, got_error, took = _run(grid, kernel, args, True, **options)
    want, want_error, sequential = _run(grid, kernel, args, False, **options)
    assert sequential == "none"
    assert took == expect, _batch.STATS.last_fallback
    assert [_bits(a) for a in got] == [_bits(a) for a in want]
    assert type(got_error) is type(want_error)
    assert str(got_error) == str(want_error)
    if isinstance(want_error, ts.TileError):
        assert got_error.loc.line == want_error.loc.line
    return want, want_error


def test_partial_edge_tiles_and_slices():
    n = 1000
    a, b = RNG.random(n).astype(np.float32), RNG.random(n).astype(np.float32)
    check_same(
        (ct.cdiv(n, 128),), K.vector_add, (a, b, np.full(n, np.nan, np.float32), 128), "batched"
    )
    x, y = RNG.random(n), RNG.random(n)
    check_same((ct.cdiv(983, 128),), K.saxpy_slice, (x, y, 0.1, 7, 990, 128), "batched")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_mma_over_a_2d_grid_with_a_k_loop(dtype):
    m, n, k = 100, 90, 70
    a = RNG.random((m, k)).astype(dtype)
    b = RNG.random((k, n)).astype(dtype)
    c = np.full((m, n), np.nan, np.float32 if dtype == np.float16 else dtype)
    grid = (ct.cdiv(m, 32), ct.cdiv(n, 32))
    (_, _, result), _ = check_same(grid, K.matmul_k_loop, (a, b, c, 32, 32, 16), "batched")
    assert not np.isnan(result).any()


def test_reductions_along_an_axis():
    x = (RNG.standard_normal((50, 300)) * 10).astype(np.float32)
    check_same((ct.cdiv(50, 16),), K.row_sums, (x, np.zeros(50, np.float32), 16, 64), "batched")
    x = RNG.standard_normal((64, 32)).astype(np.float32)
    outs = (np.zeros(64, np.float32), np.zeros(64, np.int32), np.zeros((64, 32), np.float32))
    check_same((8,), row_stats, (x, *outs, np.zeros((64, 32), np.float32), 8, 32), "batched")


def test_shape_operations_on_block_dependent_tiles():
    x = RNG.random((64, 48)).astype(np.float32)
    y = np.zeros((48, 64), np.float32)
    check_same((4, 3), shape_mix, (x, y, 16), "batched")


def test_gather_and_masked_scatter():
    src = np.arange(100, dtype=np.int32)
    check_same(
        (4,), K.gather_scatter_reverse, (src, np.full(100, -5, np.int32), 100, 32), "batched"
    )


def test_a_3d_grid():
    out = np.full((5, 4, 3), -1, np.int32)
    (ids,), _ = check_same((3, 4, 5), K.grid_ids, (out,), "batched")
    np.testing.assert_array_equal(ids.reshape(-1), np.arange(60))


def test_helpers_and_reading_back_own_stores():
    x = RNG.standard_normal(1000).astype(np.float32)
    check_same((8,), K.clamp_with_helper, (x, np.zeros(1000, np.float32), 128), "batched")
    check_same((8,), read_back_own_store, (x, np.zeros(1000, np.float32), 128), "batched")


def test_large_grids_run_in_several_batches(monkeypatch):
    monkeypatch.setattr(_batch, "_FIRST_BATCH", 3)
    monkeypatch.setattr(_batch, "_MAX_BATCH", 5)
    n = 1000
    a, b = RNG.random(n).astype(np.float32), RNG.random(n).astype(np.float32)
    check_same((ct.cdiv(n, 16),), K.vector_add, (a, b, np.zeros(n, np.float32), 16), "batched")
    # A race between blocks of different batches is caught too.
    _, error = check_same((8,), K.shifted_copy, (np.arange(100.0), 16), "fallback")
    assert isinstance(error, ts.DataRaceError)


def test_control_flow_on_per_block_values_falls_back_where_blocks_disagree():
    x = (RNG.random(512) * 20).astype(np.float32)
    x[:128] *= 0.01  # the first block never halves, the others do
    check_same((4,), halve_until_small, (x, np.zeros(512, np.float32), 128), "fallback")
    check_same((4,), odd_blocks_negate, (x, 128), "fallback")


@ct.kernel
def store_if_finite(x, y, done, TILE: ConstInt):
    """A store under an `if` on a per-block value (as the offloaded loops' kernels do)."""
    t = ct.load(x, (ct.bid(0),), (TILE,), padding_mode=ZERO) * 2.0
    finished = ct.max(ct.astype(~(ct.abs(t) < float("inf")), ct.int32)) == 0
    if finished:
        ct.store(y, (ct.bid(0),), t)
    ct.store(done, (ct.bid(0),), ct.astype(finished, ct.int32))


def test_a_branch_all_blocks_of_a_batch_take_alike_stays_batched():
    x = RNG.random(512)
    args = (x, np.zeros(512), np.zeros(4, np.int32), 128)
    got, _ = check_same((4,), store_if_finite, args, "batched")
    assert got[2].tolist() == [1, 1, 1, 1]
    x[300] = np.inf  # block 2 stores nothing
    got, _ = check_same((4,), store_if_finite, (x, *args[1:]), "fallback")
    assert got[2].tolist() == [1, 1, 0, 1] and not got[1][256:384].any()


def test_atomics_fall_back():
    x = RNG.random(1000).astype(np.float32)
    check_same((8,), K.atomic_total, (x, np.zeros(1, np.float32), 128), "fallback")


def test_races_still_raise():
    x = RNG.random(1000).astype(np.float32)
    _, error = check_same((8,), K.racy_total, (x, np.zeros(1, np.float32), 128), "fallback")
    assert isinstance(error, ts.DataRaceError)
    _, error = check_same((8,), K.shifted_copy, (np.arange(100.0), 16), "fallback")
    assert isinstance(error, ts.DataRaceError)
    # Without race checks the sequential result (the last block's store wins) is kept.
    _, error = check_same(
        (8,), K.racy_total, (x, np.zeros(1, np.float32), 128), "fallback", check_races=False
    )
    assert error is None


def test_an_error_in_one_block_is_reported_as_in_sequential_mode():
    x = RNG.random(512).astype(np.float32)
    (_, out), error = check_same((4,), next_tile, (x, np.zeros(512, np.float32), 128), "fallback")
    assert isinstance(error, ts.UndefinedBehaviorError) and "block (3, 0, 0)" in str(error)
    np.testing.assert_array_equal(out[:384], x[128:])  # blocks before the failing one stored


def test_the_environment_variable_forces_sequential_runs(monkeypatch):
    monkeypatch.setenv("TILESIM_BATCHED", "0")
    a = RNG.random(256).astype(np.float32)
    _, _, took = _run((2,), K.vector_add, (a, a, np.zeros(256, np.float32), 128), True)
    assert took == "none"


@ct.kernel
def print_block(x, TILE: ConstInt):
    """Prints from every block: the batch must not print once for all of them."""
    t = ct.load(x, (ct.bid(0),), (TILE,), padding_mode=ZERO)
    print("block sum", ct.sum(t))


def test_printing_kernels_fall_back(capsys):
    x = np.arange(8, dtype=np.int32)
    _, _, took = _run((4,), print_block, (x, 2), True)
    batched = capsys.readouterr().out
    _run((4,), print_block, (x, 2), False)
    assert took == "fallback" and batched == capsys.readouterr().out
    assert batched.count("block sum") == 4
