"""The simulator's typing against cuTile's own compiler code, and its refusals.

Promotion with Python constants and implicit casts are re-implemented in
`tilesim._dtypes`; here they are compared, case by case, with the functions the cuTile
compiler itself calls (`cuda.tile._ir.ops_utils.promote_dtypes`, `cast_ops.check_implicit_cast`).
"""

from __future__ import annotations

import itertools

import cuda.tile as ct
import numpy as np
import pytest
from cuda.tile._ir.cast_ops import check_implicit_cast as ct_check_implicit_cast
from cuda.tile._ir.ops_utils import promote_dtypes as ct_promote_dtypes
from cuda.tile._ir.type import LooselyTypedScalar

from transpiler import tilesim as ts
from transpiler.tilesim import _dtypes

DTYPES = [d for d in _dtypes.ALL_DTYPES if d is not ts.tfloat32]
CONSTANTS = [
    True,
    False,
    0,
    1,
    -1,
    127,
    128,
    255,
    300,
    -129,
    2**31,
    -(2**31) - 1,
    2**40,
    2**63,
    0.5,
    -2.0,
    1e300,
]


def _outcome(function, *args):
    try:
        return ("ok", function(*args))
    except (ct.TileTypeError, ct.TileValueError) as error:
        return ("error", type(error).__name__)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("force_float", [False, True])
def test_promotion_with_constants_matches_the_compiler(dtype, force_float):
    for value in CONSTANTS:
        expected = _outcome(ct_promote_dtypes, dtype.ct, LooselyTypedScalar(value), force_float)
        got = _outcome(_dtypes.promote_operands, dtype, value, force_float)
        if got[0] == "ok":
            got = ("ok", got[1].ct)
        assert got == expected, (dtype, value, force_float)


def test_promotion_of_two_typed_operands_matches_the_compiler():
    for a, b in itertools.product(DTYPES, repeat=2):
        expected = _outcome(ct_promote_dtypes, a.ct, b.ct)
        got = _outcome(_dtypes.promote, a, b)
        assert (got[0], got[1].ct if got[0] == "ok" else got[1]) == expected, (a, b)


@pytest.mark.parametrize("target", DTYPES, ids=str)
def test_implicit_casts_match_the_compiler(target):
    for source in DTYPES:
        expected = _outcome(ct_check_implicit_cast, ct_type(source), target.ct)
        got = _outcome(_dtypes.check_implicit_cast, source, target, "store")
        assert got[0] == expected[0], (source, target)
    for value in CONSTANTS:
        expected = _outcome(ct_check_implicit_cast, LooselyTypedScalar(value), target.ct)
        got = _outcome(_dtypes.check_implicit_cast, value, target, "store")
        assert got[0] == expected[0], (value, target)


def ct_type(dtype):
    from cuda.tile._ir.type import TileTy

    return TileTy(dtype.ct, ())


# ----------------------------------------------------------------------------------------------
# Result dtypes of operations (cuTile's documented rules)


def test_python_constants_take_the_tile_dtype():
    t = ts.arange(4, dtype=ts.float16)
    assert (t + 1).dtype == ts.float16
    assert (t * 0.5).dtype == ts.float16
    i8 = ts.arange(4, dtype=ts.int8)
    assert (i8 + 100).dtype == ts.int8
    with pytest.raises(ts.TileValueError):
        i8 + 300  # out of range of int8


def test_int_tile_with_float_constant_becomes_float32():
    t = ts.arange(4, dtype=ts.int64)
    assert (t * 0.5).dtype == ts.float32
    assert (t / t).dtype == ts.float32  # true division always gives a float


def test_typed_scalars_promote_like_tiles():
    assert (ts.int16(5) + 2).dtype == ts.int16
    assert (ts.int16(5) + ts.int32(7)).dtype == ts.int32
    assert (ts.float16(1.0) + ts.float32(2.0)).dtype == ts.float32


def test_mixed_signedness_and_bool_arithmetic_are_refused():
    with pytest.raises(ts.TileTypeError):
        ts.arange(4, dtype=ts.int32) + ts.arange(4, dtype=ts.uint32)
    with pytest.raises(ts.TileTypeError):
        ts.full((4,), True, ts.bool_) + ts.full((4,), True, ts.bool_)
    with pytest.raises(ts.TileTypeError):
        ts.arange(4, dtype=ts.float16) + ts.arange(4, dtype=ts.bfloat16)


def test_dtype_objects_compare_equal_to_cutile_dtypes():
    assert ts.float32 == ct.float32 and ct.float32 == ts.float32
    assert ts.float32 != ct.float64
    assert hash(ts.int32) == hash(ct.int32)
    assert ts.arange(4, dtype=ct.int64).dtype == ts.int64  # cuTile dtypes are accepted too


def test_dtype_constructors_make_typed_scalars():
    assert ts.int32(2.7).to_numpy() == 2  # int() of the constant, as cuTile does
    assert ts.int8(300).to_numpy() == 44  # strictly typed constants wrap
    assert ts.bool_(5).to_numpy()
    with pytest.raises(ts.TileTypeError):
        ts.int32(ts.arange(4, dtype=ts.int32))  # needs a scalar


# ----------------------------------------------------------------------------------------------
# Things the real compiler refuses; the simulator must too


def test_tile_shapes_must_be_powers_of_two():
    with pytest.raises(ts.TileTypeError, match="power of two"):
        ts.zeros((3,), ts.float32)
    with pytest.raises(ts.TileTypeError, match="power of two"):
        ts.arange(12, dtype=ts.int32)
    with pytest.raises(ts.TileTypeError, match="power of two"):
        ts.load(ts.Array.from_numpy(np.zeros(10)), (0,), (5,))
    with pytest.raises(ts.TileTypeError, match="power of two"):
        ts.cat((ts.zeros((4,), ts.int32), ts.zeros((2,), ts.int32)), 0)


def test_tiles_larger_than_2_to_24_elements_are_refused():
    with pytest.raises(ts.TileTypeError, match="2\\*\\*24"):
        ts.zeros((1 << 25,), ts.float32)


def test_shapes_must_be_compile_time_constants():
    n = ts.int32(8)
    with pytest.raises(ts.TileTypeError, match="constant"):
        ts.zeros((n,), ts.float32)
    with pytest.raises(ts.TileTypeError, match="constant"):
        ts.arange(n, dtype=ts.int32)


def test_tiles_are_immutable_and_not_indexable():
    t = ts.arange(4, dtype=ts.int32)
    with pytest.raises(ts.TileTypeError):
        t[0] = 1
    with pytest.raises(ts.TileTypeError):
        t[1]
    with pytest.raises(ts.TileTypeError):
        list(t)
    with pytest.raises(ts.TileTypeError):
        bool(t)  # only scalars are conditions
    assert bool(ts.int32(3))
    copy = t.to_numpy()
    copy[0] = 99
    assert t.to_numpy()[0] == 0


def test_mma_dtype_and_shape_rules():
    f16 = ts.ones((16, 16), ts.float16)
    assert ts.mma(f16, f16, ts.zeros((16, 16), ts.float32)).dtype == ts.float32
    assert ts.mma(f16, f16, ts.zeros((16, 16), ts.float16)).dtype == ts.float16
    bf16 = ts.ones((16, 16), ts.bfloat16)
    with pytest.raises(ts.TileTypeError, match="acc"):
        ts.mma(bf16, bf16, ts.zeros((16, 16), ts.float16))
    with pytest.raises(ts.TileTypeError, match="same dtype"):
        ts.mma(f16, ts.ones((16, 16), ts.float32), ts.zeros((16, 16), ts.float32))
    with pytest.raises(ts.TileTypeError, match="Unsupported input dtype"):
        i32 = ts.ones((16, 16), ts.int32)
        ts.mma(i32, i32, ts.zeros((16, 16), ts.int32))
    with pytest.raises(ts.TileTypeError, match="acc shape"):
        ts.mma(f16, f16, ts.zeros((16, 8), ts.float32))
    with pytest.raises(ts.TileTypeError, match="Incompatible shapes"):
        ts.mma(ts.ones((16, 8), ts.float16), f16, ts.zeros((16, 16), ts.float32))
    with pytest.raises(ts.TileTypeError, match="Unsupported acc"):
        f64 = ts.ones((8, 8), ts.float64)
        ts.mma(f64, f64, ts.zeros((8, 8), ts.float32))


def test_integer_pow_and_float_only_functions_are_refused():
    i = ts.arange(4, dtype=ts.int32)
    with pytest.raises(ts.TileTypeError):
        i**i
    with pytest.raises(ts.TileTypeError):
        ts.floor(i)
    with pytest.raises(ts.TileTypeError):
        ts.cdiv(ts.full((4,), 1.0, ts.float32), 2)
    assert ts.sqrt(i).dtype == ts.float32  # ints are promoted for transcendental functions
