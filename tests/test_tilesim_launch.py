"""Real `@ct.kernel` kernels (tests/test_tilesim_kernels.py) run on the CPU by tilesim.launch."""

from __future__ import annotations

from pathlib import Path

import cuda.tile as ct
import numpy as np
import pytest

from tests import test_tilesim_kernels as K
from transpiler import tilesim as ts

RNG = np.random.default_rng(7)


def test_vector_add_with_a_partial_last_tile():
    n = 1000
    a, b = RNG.random(n).astype(np.float32), RNG.random(n).astype(np.float32)
    c = np.full(n, np.nan, dtype=np.float32)
    ts.launch(None, (ct.cdiv(n, 128),), K.vector_add, (a, b, c, 128))
    np.testing.assert_array_equal(c, a + b)


def test_saxpy_over_a_slice_uses_a_float32_alpha():
    x, y = RNG.random(1000), RNG.random(1000)
    before = y.copy()
    lo, hi = 7, 990
    ts.launch(None, (ct.cdiv(hi - lo, 128),), K.saxpy_slice, (x, y, 0.1, lo, hi, 128))
    expected = before.copy()
    # cuda.tile.launch passes a Python float as a float32 scalar: alpha is float32(0.1).
    expected[lo:hi] = np.float64(np.float32(0.1)) * x[lo:hi] + before[lo:hi]
    np.testing.assert_array_equal(y, expected)
    assert not np.array_equal(y[lo:hi], 0.1 * x[lo:hi] + before[lo:hi])


@pytest.mark.parametrize(
    "in_dtype,out_dtype,rtol", [(np.float64, np.float64, 1e-13), (np.float16, np.float32, 1e-5)]
)
def test_tiled_matmul_with_k_loop_and_ragged_edges(in_dtype, out_dtype, rtol):
    m, n, k = 100, 90, 70  # no multiple of the tile sizes
    a = RNG.random((m, k)).astype(in_dtype)
    b = RNG.random((k, n)).astype(in_dtype)
    c = np.full((m, n), np.nan, dtype=out_dtype)
    ts.launch(None, (ct.cdiv(m, 32), ct.cdiv(n, 32)), K.matmul_k_loop, (a, b, c, 32, 32, 16))
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=rtol)


def test_row_reduction():
    x = RNG.random((50, 300)).astype(np.float32)
    out = np.zeros(50, dtype=np.float32)
    ts.launch(None, (ct.cdiv(50, 16),), K.row_sums, (x, out, 16, 64))
    np.testing.assert_allclose(out, x.sum(axis=1, dtype=np.float64), rtol=1e-5)


def test_atomic_reduction_across_blocks_is_not_a_race():
    x = RNG.random(1000).astype(np.float32)
    total = np.zeros(1, dtype=np.float32)
    ts.launch(None, (8,), K.atomic_total, (x, total, 128))
    np.testing.assert_allclose(total[0], x.sum(dtype=np.float64), rtol=1e-5)


def test_stores_from_several_blocks_to_one_element_are_a_data_race():
    x = RNG.random(1000).astype(np.float32)
    with pytest.raises(ts.DataRaceError, match=r"element \(0,\) of array 'total'") as info:
        ts.launch(None, (8,), K.racy_total, (x, np.zeros(1, np.float32), 128))
    assert info.value.loc.line > 0 and "racy_total" in str(info.value)
    ts.launch(None, (8,), K.racy_total, (x, np.zeros(1, np.float32), 128), check_races=False)


def test_a_loop_carried_dependence_run_in_parallel_is_caught():
    with pytest.raises(ts.DataRaceError, match="reads it after block"):
        ts.launch(None, (8,), K.shifted_copy, (np.arange(100.0), 16))


def test_gather_and_masked_scatter_kernel():
    src = np.arange(10, dtype=np.int32)
    dst = np.full(10, -5, dtype=np.int32)
    ts.launch(None, (2,), K.gather_scatter_reverse, (src, dst, 10, 8))
    np.testing.assert_array_equal(dst, src[::-1])


def test_errors_point_at_the_kernel_line_and_block():
    with pytest.raises(ts.UndefinedBehaviorError, match="entirely outside") as info:
        ts.launch(None, (1,), K.load_past_the_end, (np.arange(16.0), np.zeros(8), 8))
    loc = info.value.loc
    assert loc.filename == K.__file__
    assert "ct.load(x" in Path(K.__file__).read_text().splitlines()[loc.line - 1]
    assert "block (0, 0, 0)" in str(info.value)


def test_type_errors_the_compiler_would_raise_are_raised():
    with pytest.raises(ct.TileTypeError, match="float64 to float32"):
        ts.launch(None, (1,), K.store_wrong_dtype, (np.arange(8.0), np.zeros(8, np.float32), 8))
    with pytest.raises(ct.TileTypeError, match="2\\*\\*24"):
        ts.launch(None, (1,), K.huge_tile, (np.zeros(8, np.float32),))


def test_helper_functions_are_rebound_too():
    x = RNG.normal(size=64).astype(np.float32)
    y = np.zeros_like(x)
    ts.launch(None, (4,), K.clamp_with_helper, (x, y, 16))
    np.testing.assert_array_equal(y, np.clip(x, 0, 1))


def test_three_dimensional_grid():
    out = np.full((2, 3, 4), -1, dtype=np.int32)
    ts.launch(None, (4, 3, 2), K.grid_ids, (out,))
    np.testing.assert_array_equal(out.reshape(-1), np.arange(24))


def test_range_induction_variable_is_an_int32_scalar():
    out = np.zeros(1)
    ts.launch(None, (1,), K.loop_index_typing, (out, 10))
    # k * 0.1 is computed in float32 (k is int32, 0.1 a loose constant), then summed in f64.
    expected = sum(float(np.float32(k) * np.float32(0.1)) for k in range(10))
    assert out[0] == expected
    assert out[0] != sum(k * 0.1 for k in range(10))


def test_arguments_are_typed_like_cuda_tile_launch():
    seen = {}

    def probe(a, n, f, flag, c: ct.Constant[int], big: ct.ScalarInt64):
        seen.update(a=a.dtype, n=n.dtype, f=f.dtype, flag=flag.dtype, c=c, big=big.dtype)
        seen.update(bid=ct.bid(0).dtype, shape=a.shape[0].dtype)

    ts.launch(None, (1,), probe, (np.zeros(4, np.int16), 3, 2.5, True, 8, 2**40))
    assert seen == {
        "a": ts.int16,
        "n": ts.int32,
        "f": ts.float32,
        "flag": ts.bool_,
        "c": 8,
        "big": ts.int64,
        "bid": ts.int32,
        "shape": ts.int32,
    }
    with pytest.raises(TypeError, match="NumPy scalars"):
        ts.launch(None, (1,), probe, (np.zeros(4), np.int32(3), 2.5, True, 8, 1))
    with pytest.raises(ct.TileValueError, match="does not fit"):
        ts.launch(None, (1,), probe, (np.zeros(4), 2**40, 2.5, True, 8, 1))
    with pytest.raises(TypeError, match="takes 6 arguments"):
        ts.launch(None, (1,), probe, (np.zeros(4),))


def test_plain_functions_and_simulator_kernels_launch_too():
    @ts.kernel
    def fill(out, value: ct.Constant[int]):
        ct.store(out, (ct.bid(0),), ct.full((4,), value, out.dtype))

    out = np.zeros(8, dtype=np.int32)
    ts.launch(None, (2,), fill, (out, 3))
    assert out.tolist() == [3] * 8
    with pytest.raises(TypeError):
        fill(out, 3)


def test_outside_a_launch_block_ids_are_unavailable():
    with pytest.raises(RuntimeError, match="outside"):
        ts.bid(0)


def test_bad_grids_are_refused():
    for grid in [(0,), (1, 1, 1, 1), (1, 70000), (1.5,)]:
        with pytest.raises((TypeError, ValueError)):
            ts.launch(None, grid, K.grid_ids, (np.zeros((1, 1, 1), np.int32),))


def test_saxpy_of_a_million_elements():
    """(Its time: bench/linear_time.py.)"""
    n = 1_000_000
    x, y = RNG.random(n).astype(np.float32), RNG.random(n).astype(np.float32)
    expected = 2.0 * x + y
    ts.launch(None, (ct.cdiv(n, 1024),), K.saxpy_slice, (x, y, 2.0, 0, n, 1024))
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_matmul_256_f64():
    """(Its time: bench/linear_time.py.)"""
    a, b = RNG.random((256, 256)), RNG.random((256, 256))
    c = np.zeros((256, 256))
    ts.launch(None, (4, 4), K.matmul_k_loop, (a, b, c, 64, 64, 64))
    np.testing.assert_allclose(c, a @ b, rtol=1e-12)


def test_races_are_found_through_transposed_views_and_gathers():
    def transpose_in_place(x):
        i, j = ct.bid(0), ct.bid(1)
        tile = ct.load(x, (i, j), (2, 2))
        ct.store(x, (i, j), tile, order=(1, 0))  # writes the block of tile (j, i)

    x = np.arange(16.0).reshape(4, 4)
    with pytest.raises(ts.DataRaceError) as info:
        ts.launch(None, (2, 2), transpose_in_place, (x,))
    # Block (1, 0) runs first and writes x[0:2, 2:4], which block (0, 1) then reads.
    assert "block (0, 1, 0) reads it after block (1, 0, 0) wrote it" in str(info.value)
    index = tuple(int(v) for v in str(info.value).split("element (")[1].split(")")[0].split(","))
    assert index[0] in (0, 1) and index[1] in (2, 3)

    def gather_neighbour(x, y):
        i = ct.bid(0)
        ct.scatter(y, i, ct.gather(x, i) + ct.gather(y, i + 1, padding_value=0.0))

    with pytest.raises(ts.DataRaceError, match=r"element \(1,\) of array 'y'"):
        ts.launch(None, (4,), gather_neighbour, (np.ones(4), np.ones(4)))


class _ArrayInterfaceOnly:
    """A host buffer that is not a NumPy array, only exposing __array_interface__."""

    def __init__(self, array):
        self._array = array
        self.__array_interface__ = array.__array_interface__


class _DLPackOnly:
    """A host buffer exposing only DLPack, like a torch CPU tensor."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


@pytest.mark.parametrize("wrap", [_ArrayInterfaceOnly, _DLPackOnly])
def test_foreign_host_arrays_are_written_in_place(wrap):
    a = np.arange(16, dtype=np.float32)
    b = np.ones(16, dtype=np.float32)
    c = np.zeros(16, dtype=np.float32)
    ts.launch(None, (2,), K.vector_add, (wrap(a), wrap(b), wrap(c), 8))
    np.testing.assert_array_equal(c, a + 1)


def test_launching_every_kernel_of_a_large_module_takes_linear_time():
    """Each launch copied every global and every function of the kernel's module: a
    generated module with one kernel per loop of a 100,000-line program ran 7x slower
    than one of 25,000 lines (31 s against 2.9 s).  Counted in lines of the simulator."""
    from tests.scaling import LINEAR_GROWTH, growth, lines_run

    def helper_source(count: int) -> str:
        kernels = "".join(
            f"def kernel_{k}(a):\n"
            f"    tile = ct.load(a, index=(ct.bid(0),), shape=(4,))\n"
            f"    ct.store(a, index=(ct.bid(0),), tile=plus_one(tile) + {k})\n"
            for k in range(count)
        )
        return f"import cuda.tile as ct\ndef plus_one(t):\n    return t + 1\n{kernels}"

    def lines_to_launch_all(count: int) -> int:
        module: dict = {}
        exec(compile(helper_source(count), "kernels", "exec"), module)
        data = np.zeros(4, dtype=np.float32)
        lines = lines_run(
            lambda: [ts.launch(None, (1,), module[f"kernel_{k}"], (data,)) for k in range(count)]
        )
        assert data.tolist() == [count * (count + 1) / 2] * 4  # each added k + 1
        return lines

    lines_to_launch_all(2)
    found, counts = growth(lines_to_launch_all, 100)
    assert found <= LINEAR_GROWTH, counts
