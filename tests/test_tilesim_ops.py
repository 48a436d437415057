"""tilesim operations against NumPy, with the edge cases that matter for verification.

(The happy paths of every documented operation are also checked against NVIDIA's recorded
GPU output in test_tilesim_docs.py.)
"""

from __future__ import annotations

import numpy as np
import pytest

from transpiler import tilesim as ts

RNG = np.random.default_rng(1234)


def tile(values, dtype):
    """A tile holding `values` (a NumPy array, shape a power of two per axis)."""
    values = np.asarray(values)
    return ts.reshape(ts.astile(tuple(values.reshape(-1).tolist()), dtype=dtype), values.shape)


def array(values):
    return ts.Array.from_numpy(values)


# ----------------------------------------------------------------------------------------------
# Element-wise arithmetic


@pytest.mark.parametrize("dtype,np_dtype", [(ts.float32, np.float32), (ts.float64, np.float64)])
def test_arithmetic_and_math_match_numpy(dtype, np_dtype):
    a = RNG.uniform(0.5, 4.0, size=(4, 8)).astype(np_dtype)
    b = RNG.uniform(-3.0, 3.0, size=(4, 8)).astype(np_dtype)
    ta, tb = tile(a, dtype), tile(b, dtype)
    cases = {
        "add": (ta + tb, a + b),
        "sub": (ta - tb, a - b),
        "mul": (ta * tb, a * b),
        "div": (ta / tb, a / b),
        "pow": (ta**tb, a**b),
        "atan2": (ts.atan2(ta, tb), np.arctan2(a, b)),
        "minimum": (ts.minimum(ta, tb), np.minimum(a, b)),
        "maximum": (ts.maximum(ta, tb), np.maximum(a, b)),
        "exp": (ts.exp(tb), np.exp(b)),
        "log": (ts.log(ta), np.log(a)),
        "sqrt": (ts.sqrt(ta), np.sqrt(a)),
        "sin": (ts.sin(tb), np.sin(b)),
        "cos": (ts.cos(tb), np.cos(b)),
        "tan": (ts.tan(tb), np.tan(b)),
        "tanh": (ts.tanh(tb), np.tanh(b)),
        "abs": (ts.abs(tb), np.abs(b)),
        "floor": (ts.floor(tb), np.floor(b)),
        "ceil": (ts.ceil(tb), np.ceil(b)),
        "negative": (-tb, -b),
        "rsqrt": (ts.rsqrt(ta), 1 / np.sqrt(a)),
    }
    for name, (got, expected) in cases.items():
        assert got.dtype == dtype, name
        np.testing.assert_array_equal(got.to_numpy(), expected.astype(np_dtype), err_msg=name)


def test_integer_division_and_modulo_follow_python():
    a = np.array([7, -7, 7, -7, 0, 5, -5, 6], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 3, -3, 3, 4], dtype=np.int32)
    ta, tb = tile(a, ts.int32), tile(b, ts.int32)
    np.testing.assert_array_equal((ta // tb).to_numpy(), [x // y for x, y in zip(a, b)])
    np.testing.assert_array_equal((ta % tb).to_numpy(), [x % y for x, y in zip(a, b)])
    np.testing.assert_array_equal(ts.cdiv(ta, tb).to_numpy(), [-(-x // y) for x, y in zip(a, b)])


def test_float_floor_division_is_floor_of_quotient():
    # cuTile computes floor(a / b); Python's 1.0 // 0.1 is 9.0 but floor(1.0 / 0.1) is 10.0.
    result = ts.full((1,), 1.0, ts.float64) // 0.1
    assert result.to_numpy()[0] == 10.0
    np.testing.assert_array_equal(
        (tile(np.array([-7.5, 7.5]), ts.float64) % 2.0).to_numpy(), [0.5, 1.5]
    )


def test_float_modulo_zero_keeps_the_sign_of_fmod_as_cutile_lowers_it():
    # cuTile computes fmod(a, b) and adds b where the signs differ; a zero fmod is kept,
    # sign and all (NumPy's np.mod and Python's % would give +0.0).
    a = np.array([-0.0, -6.0, 6.0, -7.0, 3.0, -3.0, 7.0, -1e-20], np.float64)
    b = np.array([3.0, 3.0, -3.0, 3.0, np.inf, np.inf, -2.0, 3.0], np.float64)
    got = (tile(a, ts.float64) % tile(b, ts.float64)).to_numpy()
    np.testing.assert_array_equal(got, [-0.0, -0.0, 0.0, 2.0, 3.0, np.inf, -1.0, 3.0])
    assert list(np.signbit(got[:3])) == [True, True, False]


def test_isnan_of_tiles_and_scalars():
    got = ts.isnan(tile(np.array([1.0, np.nan, np.inf, -0.0]), ts.float64)).to_numpy()
    np.testing.assert_array_equal(got, [False, True, False, False])
    scalar = ts.isnan(ts.full((), np.nan, ts.float32))  # a 0-d tile (NumPy gives a scalar)
    assert scalar.shape == () and bool(scalar.to_numpy())


def test_integer_arithmetic_wraps_like_the_gpu():
    big = ts.full((2,), 2**31 - 1, ts.int32)
    np.testing.assert_array_equal((big + 1).to_numpy(), [-(2**31)] * 2)
    assert (ts.full((1,), 200, ts.uint8) * 2).to_numpy()[0] == 144


def test_integer_division_by_zero_gives_a_conspicuous_value_not_an_exception():
    # `where(d != 0, n // d, 0)` is legitimate tile code, so the lane must not raise.
    n = tile(np.array([6, 6]), ts.int32)
    d = tile(np.array([3, 0]), ts.int32)
    q = ts.where(d != 0, n // d, 0)
    np.testing.assert_array_equal(q.to_numpy(), [2, 0])
    assert (n // d).to_numpy()[1] == np.iinfo(np.int32).min


def test_minimum_and_maximum_ignore_nan_unless_asked():
    a = tile(np.array([np.nan, 1.0]), ts.float32)
    b = tile(np.array([2.0, np.nan]), ts.float32)
    np.testing.assert_array_equal(ts.maximum(a, b).to_numpy(), [2.0, 1.0])
    assert np.isnan(ts.maximum(a, b, propagate_nan=True).to_numpy()).all()


def test_comparisons_give_bool_and_nan_is_unordered_for_ne():
    a = tile(np.array([1.0, np.nan, 3.0, 4.0]), ts.float32)
    assert (a < 2).dtype == ts.bool_
    np.testing.assert_array_equal(ts.not_equal(a, a).to_numpy(), [False, True, False, False])
    np.testing.assert_array_equal((a == 3).to_numpy(), [False, False, True, False])


def test_bitwise_and_shifts():
    a = tile(np.array([5, -8, 3, 1]), ts.int32)
    np.testing.assert_array_equal((a & 3).to_numpy(), [1, 0, 3, 1])
    np.testing.assert_array_equal((a | 8).to_numpy(), [13, -8, 11, 9])
    np.testing.assert_array_equal((~a).to_numpy(), [-6, 7, -4, -2])
    np.testing.assert_array_equal((a >> 1).to_numpy(), [2, -4, 1, 0])  # arithmetic shift
    np.testing.assert_array_equal((a << 40).to_numpy(), [0, 0, 0, 0])  # out-of-range count
    with pytest.raises(ts.TileTypeError, match="same data type"):
        a & tile(np.array([1, 2, 3, 4]), ts.int64)


def test_where_promotes_and_broadcasts():
    cond = tile(np.array([[True], [False]]), ts.bool_)
    result = ts.where(cond, ts.arange(4, dtype=ts.int32), 0.5)
    assert result.dtype == ts.float32 and result.shape == (2, 4)
    np.testing.assert_array_equal(result.to_numpy(), [[0, 1, 2, 3], [0.5] * 4])


# ----------------------------------------------------------------------------------------------
# Conversions


def test_float_to_int_truncates_and_saturates_like_ptx():
    values = tile(np.array([2.7, -2.7, 1e20, -1e20, np.nan, 0.0, 3e9, -0.5]), ts.float64)
    np.testing.assert_array_equal(
        ts.astype(values, ts.int32).to_numpy(),
        [2, -2, 2**31 - 1, -(2**31), 0, 0, 2**31 - 1, 0],
    )
    np.testing.assert_array_equal(
        ts.astype(values, ts.uint8).to_numpy(), [2, 0, 255, 0, 0, 0, 255, 0]
    )


def test_bfloat16_rounds_to_nearest_even_once():
    one = 1.0
    values = np.array([one + 2**-8, one + 3 * 2**-8, one + 2**-8 + 2**-30, 3.4e38])
    as_bf16 = ts.astype(tile(values, ts.float64), ts.bfloat16).to_numpy()
    # ties go to even; the f64 value just above a tie rounds up (rounding via f32 would not);
    # values beyond bf16's range become inf.
    np.testing.assert_array_equal(as_bf16, [1.0, one + 2**-6, one + 2**-7, np.inf])
    from_f32 = ts.astype(tile(values.astype(np.float32), ts.float32), ts.bfloat16).to_numpy()
    assert from_f32[2] == 1.0  # the float32 input has already lost the 2**-30


def test_bfloat16_arithmetic_rounds_every_result():
    x = ts.astype(ts.full((2,), 1.0, ts.float32), ts.bfloat16)
    total = x + 2**-9  # below half an ulp of bf16 at 1.0
    assert total.dtype == ts.bfloat16
    np.testing.assert_array_equal(total.to_numpy(), [1.0, 1.0])


# ----------------------------------------------------------------------------------------------
# Reductions and scans


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(axis, keepdims):
    x = RNG.integers(-50, 50, size=(2, 4, 8)).astype(np.float64)
    t = tile(x, ts.float64)
    for ours, theirs in [(ts.sum, np.sum), (ts.max, np.max), (ts.min, np.min), (ts.prod, np.prod)]:
        got = ours(t, axis, keepdims=keepdims).to_numpy()
        np.testing.assert_array_equal(got, theirs(x, axis=axis, keepdims=keepdims))


def test_integer_sums_wrap_and_bools_sum_as_int32():
    big = ts.full((4,), 2**30, ts.int32)
    assert ts.sum(big).to_numpy() == 0  # 4 * 2**30 wraps in int32
    flags = tile(np.array([True, False, True, True]), ts.bool_)
    assert ts.sum(flags).dtype == ts.int32 and ts.sum(flags).to_numpy() == 3


def test_max_ignores_nan_and_argmax_picks_the_first_best():
    x = tile(np.array([[np.nan, 3.0, 3.0, 1.0], [np.nan, np.nan, np.nan, np.nan]]), ts.float32)
    np.testing.assert_array_equal(ts.max(x, 1).to_numpy(), [3.0, -np.inf])
    np.testing.assert_array_equal(ts.argmax(x, 1).to_numpy(), [1, 0])
    np.testing.assert_array_equal(ts.argmax(x, 1, propagate_nan=True).to_numpy(), [0, 0])
    np.testing.assert_array_equal(ts.argmin(x, 1).to_numpy(), [3, 0])


def test_scans_match_numpy():
    x = RNG.integers(1, 5, size=(4, 8)).astype(np.int32)
    t = tile(x, ts.int32)
    np.testing.assert_array_equal(ts.cumsum(t, 1).to_numpy(), np.cumsum(x, 1))
    np.testing.assert_array_equal(ts.cumprod(t, 0).to_numpy(), np.cumprod(x, 0))
    np.testing.assert_array_equal(
        ts.cumsum(t, 1, reverse=True).to_numpy(), np.flip(np.cumsum(np.flip(x, 1), 1), 1)
    )


# ----------------------------------------------------------------------------------------------
# Matrix multiply


def test_mma_f16_inputs_accumulate_in_f32():
    a = RNG.uniform(-1, 1, size=(32, 64)).astype(np.float16)
    b = RNG.uniform(-1, 1, size=(64, 16)).astype(np.float16)
    acc = RNG.uniform(-1, 1, size=(32, 16)).astype(np.float32)
    got = ts.mma(tile(a, ts.float16), tile(b, ts.float16), tile(acc, ts.float32))
    expected = a.astype(np.float32) @ b.astype(np.float32) + acc
    np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-6, atol=1e-6)
    # An f16 accumulator would be far off: the result must keep f32 precision.
    f16_result = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16) + acc
    assert np.abs(got.to_numpy() - expected).max() < np.abs(f16_result - expected).max()


def test_mma_f64_and_batched_broadcast():
    a = RNG.normal(size=(2, 8, 16))
    b = RNG.normal(size=(16, 4))
    acc = RNG.normal(size=(2, 8, 4))
    got = ts.mma(tile(a, ts.float64), tile(b, ts.float64), tile(acc, ts.float64))
    np.testing.assert_allclose(got.to_numpy(), a @ b + acc, rtol=1e-13)


def test_matmul_keeps_the_operand_dtype():
    a = ts.full((8, 8), 1.0, ts.float16)
    assert (a @ a).dtype == ts.float16
    i8 = ts.full((4, 64), 2, ts.int8)
    j8 = ts.full((64, 4), 3, ts.int8)
    # int8 accumulates in int32 (384), then is cast back to int8 (wrapping to -128).
    np.testing.assert_array_equal((i8 @ j8).to_numpy(), np.full((4, 4), -128))


# ----------------------------------------------------------------------------------------------
# Shapes


def test_shape_operations_match_numpy():
    x = np.arange(16, dtype=np.int32).reshape(2, 8)
    t = tile(x, ts.int32)
    np.testing.assert_array_equal(ts.reshape(t, (4, -1)).to_numpy(), x.reshape(4, -1))
    np.testing.assert_array_equal(ts.transpose(t).to_numpy(), x.T)
    np.testing.assert_array_equal(
        ts.permute(t.reshape((2, 2, 4)), (2, 0, 1)).to_numpy(),
        x.reshape(2, 2, 4).transpose(2, 0, 1),
    )
    np.testing.assert_array_equal(
        ts.broadcast_to(t[:, None, :], (2, 4, 8)).to_numpy(),
        np.broadcast_to(x[:, None, :], (2, 4, 8)),
    )
    np.testing.assert_array_equal(ts.expand_dims(t, -1).to_numpy(), x[..., None])
    np.testing.assert_array_equal(ts.cat((t, t), 0).to_numpy(), np.concatenate((x, x), 0))
    np.testing.assert_array_equal(ts.extract(t, (1, 1), (1, 4)).to_numpy(), x[1:2, 4:8])
    inserted = ts.insert(t, (0, 1), ts.full((2, 4), -1, ts.int32)).to_numpy()
    expected = x.copy()
    expected[:, 4:] = -1
    np.testing.assert_array_equal(inserted, expected)
    assert ts.full((1, 1), 7, ts.int32).item().shape == ()
    with pytest.raises(ts.TileTypeError):
        t.item()  # 16 elements are not a scalar


# ----------------------------------------------------------------------------------------------
# Loads and stores


def test_partial_tiles_are_padded_as_requested():
    a = array(np.arange(10, dtype=np.float32))
    z = ts.load(a, (2,), (4,), padding_mode=ts.PaddingMode.ZERO).to_numpy()
    np.testing.assert_array_equal(z, [8, 9, 0, 0])
    u = ts.load(a, (2,), (4,)).to_numpy()  # UNDETERMINED: NaN, so reliance shows
    assert u[:2].tolist() == [8, 9] and np.isnan(u[2:]).all()
    n = ts.load(a, (2,), (4,), padding_mode=ts.PaddingMode.NEG_INF).to_numpy()
    assert n[2:].tolist() == [-np.inf, -np.inf]
    i = ts.load(array(np.arange(10, dtype=np.int32)), (2,), (4,)).to_numpy()
    assert i[2:].tolist() == [np.iinfo(np.int32).min] * 2
    with pytest.raises(ts.TileTypeError, match="floating-point"):
        ts.load(array(np.arange(10, dtype=np.int32)), (2,), (4,), padding_mode=ts.PaddingMode.NAN)


def test_two_dimensional_tile_space_with_order():
    x = np.arange(6 * 10, dtype=np.float64).reshape(6, 10)
    a = array(x)
    t = ts.load(a, (1, 2), (4, 4), padding_mode=ts.PaddingMode.ZERO).to_numpy()
    expected = np.zeros((4, 4))
    expected[:2, :2] = x[4:6, 8:10]
    np.testing.assert_array_equal(t, expected)
    # order=(1, 0): the tile space of the transposed array.
    t = ts.load(a, (2, 1), (4, 4), order=(1, 0), padding_mode=ts.PaddingMode.ZERO).to_numpy()
    np.testing.assert_array_equal(t, expected.T)
    assert ts.num_tiles(a, 0, (4, 4)).to_numpy() == 2
    assert ts.num_tiles(a, 0, (4, 4), order="F").to_numpy() == 3


def test_loaded_tiles_do_not_follow_later_stores():
    data = np.arange(4, dtype=np.float32)
    a = array(data)
    t = ts.load(a, (0,), (4,))
    ts.store(a, (0,), ts.zeros((4,), ts.float32))
    np.testing.assert_array_equal(t.to_numpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(data, [0, 0, 0, 0])


def test_tiles_wholly_outside_or_unchecked_partial_tiles_are_errors():
    a = array(np.arange(10, dtype=np.float32))
    with pytest.raises(ts.UndefinedBehaviorError, match="entirely outside"):
        ts.load(a, (3,), (4,), padding_mode=ts.PaddingMode.ZERO)
    with pytest.raises(ts.UndefinedBehaviorError, match="entirely outside"):
        ts.load(a, (-1,), (4,), padding_mode=ts.PaddingMode.ZERO)
    with pytest.raises(ts.UndefinedBehaviorError, match="check_bounds=False"):
        ts.load(a, (2,), (4,), check_bounds=False)
    ts.load(a, (1,), (4,), check_bounds=False)  # wholly inside: fine
    with pytest.raises(ts.UndefinedBehaviorError, match="entirely outside"):
        ts.store(a, (5,), ts.zeros((2,), ts.float32))


def test_stores_clip_to_the_array_and_check_types():
    data = np.zeros(6, dtype=np.float32)
    a = array(data)
    ts.store(a, (1,), ts.full((4,), 2, ts.int32))  # int32 -> float32 is an implicit cast
    np.testing.assert_array_equal(data, [0, 0, 0, 0, 2, 2])
    with pytest.raises(ts.TileTypeError, match="float64 to float32"):
        ts.store(a, (0,), ts.zeros((4,), ts.float64))
    with pytest.raises(ts.TileTypeError, match="rank"):
        ts.store(a, (0,), ts.zeros((2, 2), ts.float32))
    grid = np.zeros((2, 2), dtype=np.int32)
    ts.store(array(grid), (1, 0), 5)  # a scalar is stored as a 1x1 tile
    np.testing.assert_array_equal(grid, [[0, 0], [5, 0]])


def test_slices_address_arbitrary_offsets_and_stores_stay_inside():
    data = np.arange(20, dtype=np.float64)
    a = array(data)
    view = a.slice(0, 3, 13)
    tile_ = ts.load(view, (1,), (8,), padding_mode=ts.PaddingMode.ZERO).to_numpy()
    np.testing.assert_array_equal(tile_, [11, 12, 0, 0, 0, 0, 0, 0])
    ts.store(view, (1,), ts.full((8,), -1.0, ts.float64))
    expected = np.arange(20, dtype=np.float64)
    expected[11:13] = -1
    np.testing.assert_array_equal(data, expected)  # elements 13.. untouched
    assert [int(s.to_numpy()) for s in view.shape] == [10]
    two_d = array(np.arange(12, dtype=np.int32).reshape(3, 4)).slice(1, 1, 3)
    np.testing.assert_array_equal(
        ts.load(two_d, (0, 0), (4, 2), padding_mode=ts.PaddingMode.ZERO).to_numpy()[:3],
        np.arange(12).reshape(3, 4)[:, 1:3],
    )


@pytest.mark.parametrize("start,stop", [(10, 10), (2, 11), (5, 4), (-1, 3)])
def test_slices_outside_the_documented_contract_are_refused(start, stop):
    a = array(np.zeros(10))
    error = ts.TileTypeError if start < 0 or stop < start else ts.UndefinedBehaviorError
    with pytest.raises(error):
        a.slice(0, start, stop)
    with pytest.raises(ts.UndefinedBehaviorError):
        a.slice(0, ts.int32(start), ts.int32(stop))


# ----------------------------------------------------------------------------------------------
# Gather, scatter, atomics


def test_gather_with_mask_padding_and_bounds():
    a = array(np.arange(10, dtype=np.float32) * 10)
    idx = tile(np.array([0, 3, 9, 10, -1, 5, 2, 7]), ts.int32)
    mask = tile(np.array([True, True, True, True, True, False, True, True]), ts.bool_)
    got = ts.gather(a, idx, mask=mask, padding_value=-1).to_numpy()
    np.testing.assert_array_equal(got, [0, 30, 90, -1, -1, -1, 20, 70])  # negative: out of bounds
    with pytest.raises(ts.UndefinedBehaviorError):
        ts.gather(a, idx, check_bounds=False)
    ts.gather(a, idx, mask=(idx >= 0) & (idx < 10), check_bounds=False)  # masked lanes: unread


def test_gather_broadcasts_2d_indices():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    rows = tile(np.array([[0], [2]]), ts.int32)
    cols = tile(np.array([[1, 3]]), ts.int32)
    np.testing.assert_array_equal(
        ts.gather(array(x), (rows, cols)).to_numpy(), x[[[0], [2]], [[1, 3]]]
    )


def test_scatter_masks_and_refuses_conflicting_duplicates():
    data = np.zeros(8, dtype=np.int32)
    idx = tile(np.array([1, 3, 8, 5]), ts.int32)
    ts.scatter(
        array(data),
        idx,
        tile(np.array([10, 30, 80, 50]), ts.int32),
        mask=tile(np.array([True, True, True, False]), ts.bool_),
    )
    np.testing.assert_array_equal(data, [0, 10, 0, 30, 0, 0, 0, 0])
    ts.scatter(array(data), tile(np.array([2, 2]), ts.int32), 7)  # same value twice: fine
    assert data[2] == 7
    with pytest.raises(ts.UndefinedBehaviorError, match="same element"):
        ts.scatter(array(data), tile(np.array([4, 4]), ts.int32), tile(np.array([1, 2]), ts.int32))


def test_atomic_add_accumulates_duplicates_and_returns_old_values():
    data = np.zeros(4, dtype=np.int32)
    idx = tile(np.array([1, 1, 1, 9]), ts.int32)
    old = ts.atomic_add(array(data), idx, 5).to_numpy()
    np.testing.assert_array_equal(data, [0, 15, 0, 0])
    assert old[:3].tolist() == [0, 5, 10]  # lanes applied one after another
    assert old[3] == np.iinfo(np.int32).min  # out of bounds: "implementation-defined"
    f = np.zeros(2, dtype=np.float32)
    ts.atomic_add(array(f), tile(np.array([0, 1, 0, 1]), ts.int32), 0.5)
    np.testing.assert_array_equal(f, [1.0, 1.0])


def test_atomic_min_max_xchg_and_cas():
    data = np.array([5, 5, 5, 5], dtype=np.int64)
    a = array(data)
    ts.atomic_max(a, tile(np.array([0, 1]), ts.int32), tile(np.array([9, 1]), ts.int64))
    ts.atomic_min(a, 2, ts.int64(-3))
    old = ts.atomic_xchg(a, 3, ts.int64(42))
    assert data.tolist() == [9, 5, -3, 42] and old.to_numpy() == 5
    old = ts.atomic_cas(a, tile(np.array([0, 1]), ts.int32), 9, 7)
    assert data.tolist() == [7, 5, -3, 42] and old.to_numpy().tolist() == [9, 5]
    with pytest.raises(ts.TileTypeError, match="Unsupported array dtype"):
        ts.atomic_max(array(np.zeros(2, np.float32)), 0, 1.0)
    with pytest.raises(ts.TileTypeError, match="exactly match"):
        ts.atomic_or(a, 0, ts.int32(1))
