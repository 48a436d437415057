"""Matrix multiply: `mma` (with an accumulator) and `matmul` / `@`.

The dtype rules are cuTile's own (`_resolve_mma_supported_dtype`): f16 accumulates in f16
or f32, bf16 and tf32 in f32, f32 in f32, f64 in f64, int8/uint8 in int32.  Products are
summed in the accumulator's precision, then rounded to the accumulator dtype.
Batched operands (`_batch.py`) multiply block by block: np.matmul broadcasts leading axes.
"""

from __future__ import annotations

import numpy as np
from cuda.tile import _datatype as ct_datatype

from . import _dtypes as dt
from ._batch import align, batch_size, lead
from ._constants import require_constant_bool
from ._elementwise import convert, make_tile
from ._errors import TileTypeError
from ._tile import Tile


def _broadcast_shapes(x_shape, y_shape):
    """cuTile's matmul shape rule (ops.py, _matmul_broadcast_shape)."""
    x_1d, y_1d = len(x_shape) == 1, len(y_shape) == 1
    if x_1d:
        x_shape = (1,) + x_shape
    if y_1d:
        y_shape = y_shape + (1,)
    if x_shape[-1] != y_shape[-2]:
        raise TileTypeError(f"Incompatible shapes for matrix mul on tiles: {x_shape}, {y_shape}.")
    try:
        batch = np.broadcast_shapes(x_shape[:-2], y_shape[:-2])
    except ValueError:
        raise TileTypeError(
            f"Incompatible shapes for matrix mul on tiles: {x_shape}, {y_shape}."
        ) from None
    acc_shape = batch + (x_shape[-2], y_shape[-1])
    out_shape = acc_shape
    if x_1d:
        out_shape = out_shape[:-2] + out_shape[-1:]
    if y_1d:
        out_shape = out_shape[:-1]
    return batch + x_shape[-2:], batch + y_shape[-2:], acc_shape, out_shape


def _require_matrix_tile(value, name: str) -> Tile:
    if not isinstance(value, Tile):
        raise TileTypeError(f"`{name}` must be a tile, got {type(value).__name__}")
    return value


def _products(x: Tile, y: Tile, x_shape, y_shape, acc_dtype: dt.DType) -> np.ndarray:
    """x @ y summed in the accumulator's precision (f16 accumulators sum in f32)."""
    if acc_dtype.is_integral:
        work = np.int64
    elif acc_dtype is dt.float64:
        work = np.float64
    else:
        work = np.float32
    a = x._raw.astype(work)
    b = y._raw.astype(work)
    if x.ndim == 1:
        a = a.reshape(a.shape[:-1] + (1, -1))
    if y.ndim == 1:
        b = b.reshape(b.shape[:-1] + (-1, 1))
    a = np.broadcast_to(align(a, x._batched, len(x_shape)), lead(batch_size(x)) + x_shape)
    b = np.broadcast_to(align(b, y._batched, len(y_shape)), lead(batch_size(y)) + y_shape)
    return np.matmul(a, b)


def mma(x, y, /, acc, *, use_fast_acc=False) -> Tile:
    """`x @ y + acc` in the dtype of `acc`; x and y keep their dtypes (no promotion)."""
    use_fast_acc = require_constant_bool(use_fast_acc, "use_fast_acc")
    x = _require_matrix_tile(x, "x")
    y = _require_matrix_tile(y, "y")
    acc = _require_matrix_tile(acc, "acc")
    if x.ndim < 2:
        raise TileTypeError(f"Expect shape of `x` to be at least 2D, got {x.shape}")
    if y.ndim < 2:
        raise TileTypeError(f"Expect shape of `y` to be at least 2D, got {y.shape}")
    x_shape, y_shape, _, out_shape = _broadcast_shapes(x.shape, y.shape)
    if acc.shape != out_shape:
        raise TileTypeError(f"Expect acc shape to be {out_shape}, got {acc.shape}")
    if use_fast_acc:
        raise TileTypeError("use_fast_acc is only supported for fp8 input dtypes")
    ct_datatype._resolve_mma_supported_dtype(x.dtype.ct, y.dtype.ct, acc.dtype.ct)
    batched = bool(batch_size(x, y, acc))
    acc_values = align(acc._raw, acc._batched, len(out_shape))
    if x.dtype.is_integral:
        # Integer products are exact in int64; the int32 accumulator wraps.
        total = _products(x, y, x_shape, y_shape, acc.dtype) + acc_values.astype(np.int64)
        return Tile(total.astype(np.int32), acc.dtype, batched)
    total = _products(x, y, x_shape, y_shape, acc.dtype)
    with np.errstate(all="ignore"):
        total = total + acc_values.astype(total.dtype)
    return make_tile(total, acc.dtype, batched)


def matmul(x, y, /) -> Tile:
    """`x @ y`: operands promoted to a common dtype, result in that dtype."""
    x = _require_matrix_tile(x, "x")
    y = _require_matrix_tile(y, "y")
    x_shape, y_shape, _, out_shape = _broadcast_shapes(x.shape, y.shape)
    common = dt.promote(x.dtype, y.dtype)
    acc_dtype = dt.as_dtype(ct_datatype._resolve_mma_supported_dtype(common.ct, common.ct, None))
    xc = Tile(convert(x._raw, x.dtype, common), common, x._batched)
    yc = Tile(convert(y._raw, y.dtype, common), common, y._batched)
    total = _products(xc, yc, x_shape, y_shape, acc_dtype)
    if acc_dtype.is_integral:
        acc_values = total.astype(np.int32)
    else:
        acc_values = dt.round_to(total, acc_dtype)
    result = convert(acc_values, acc_dtype, common)
    batch = batch_size(x, y)
    return make_tile(result.reshape(lead(batch) + out_shape), common, bool(batch))
