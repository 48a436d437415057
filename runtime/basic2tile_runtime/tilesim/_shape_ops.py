"""Shape operations: reshape, broadcast, expand_dims, permute, transpose, cat, extract, insert.

All of them return new tiles (tiles are immutable); results must keep power-of-two shapes.
On batched tiles (`_batch.py`) they act on the axes after the batch axis.
"""

from __future__ import annotations

import math

import numpy as np

from . import _dtypes as dt
from ._batch import align, batch_size
from ._constants import normalize_axis, require_constant_int, require_constant_shape
from ._elementwise import as_operand_dtype, constant_values
from ._errors import TileTypeError
from ._tile import Tile, check_tile_shape


def as_tile(x, what: str = "operand") -> Tile:
    """A tile, or a Python constant as a 0-d tile of its default dtype."""
    dtype = as_operand_dtype(x, what)
    if isinstance(x, Tile):
        return x
    dtype = dt.dtype_of_constant(x)
    return Tile(constant_values(x, dtype), dtype)


def reshape(x, shape) -> Tile:
    x = as_tile(x)
    if not isinstance(shape, tuple):
        raise TileTypeError(f"Expected a constant tuple for shape, got {shape!r}")
    for i, dim in enumerate(shape):
        if type(dim) is not int:
            raise TileTypeError(f"Dimension #{i} of shape {shape} is not a constant integer")
    numel = math.prod(x.shape)
    known = math.prod(d for d in shape if d != -1)
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise TileTypeError(f"Only one dimension can be -1 and none can be negative: {shape}")
    if -1 in shape:
        if known == 0 or numel % known:
            raise TileTypeError(f"Cannot reshape {x.shape} to {shape}")
        shape = tuple(numel // known if d == -1 else d for d in shape)
    elif known != numel:
        raise TileTypeError(f"Cannot reshape {x.shape} to {shape}")
    check_tile_shape(shape)
    if shape == x.shape:
        return x
    return Tile(x._raw.reshape(_lead_of(x) + shape), x._dtype, x._batched)


def _lead_of(x: Tile) -> tuple[int, ...]:
    """The batch part of a tile's storage shape."""
    return x._raw.shape[:1] if x._batched else ()


def _batch_axes(x: Tile, axes) -> tuple[int, ...]:
    """Storage axes for logical `axes` (the batch axis, if any, stays first)."""
    return (0, *(a + 1 for a in axes)) if x._batched else tuple(axes)


def broadcast_to(x, shape) -> Tile:
    x = as_tile(x)
    shape = require_constant_shape(shape)
    old = x.shape
    if len(old) > len(shape) or any(
        a not in (b, 1) for a, b in zip(reversed(old), reversed(shape))
    ):
        raise TileTypeError(f"Shape {old} is not broadcastable to {shape}")
    values = align(x._raw, x._batched, len(shape))
    return Tile(np.broadcast_to(values, _lead_of(x) + shape), x._dtype, x._batched)


def expand_dims(x, /, axis) -> Tile:
    x = as_tile(x)
    axis = normalize_axis(axis, x.ndim + 1)
    return Tile(np.expand_dims(x._raw, axis + x._batched), x._dtype, x._batched)


def getitem_expand_dims(x: Tile, index) -> Tile:
    """`t[None, :]`-style indexing: only new axes, `...` and full slices are allowed."""
    if not isinstance(index, tuple):
        index = (index,)
    for item in index:
        if not (item is None or item is Ellipsis or item == slice(None)):
            raise TileTypeError(
                f"Expected `None|np.newaxis` or `ellipsis` or full slice (`:`), but got {item}."
                " Hint: Directly indexing a tile is not supported, use `extract` or `item`."
            )
    if sum(1 for item in index if isinstance(item, slice)) > x.ndim:
        raise TileTypeError(f"Tile is {x.ndim}-dimensional, but more axes were indexed")
    if sum(1 for item in index if item is Ellipsis) > 1:
        raise TileTypeError("Only one ellipsis is allowed")
    if x._batched:
        index = (slice(None), *index)
    return Tile(x._raw[index], x._dtype, x._batched)


def permute(x, /, axes) -> Tile:
    x = as_tile(x)
    if not isinstance(axes, tuple):
        raise TileTypeError(f"Expected a constant tuple of axes, got {axes!r}")
    if len(axes) != x.ndim:
        raise TileTypeError(f"Num axes must match input's rank: {len(axes)} vs {x.ndim}")
    normalized = tuple(normalize_axis(a, x.ndim) for a in axes)
    if len(set(normalized)) != len(normalized):
        raise TileTypeError(f"Repeated axis in {axes}")
    return Tile(np.transpose(x._raw, _batch_axes(x, normalized)), x._dtype, x._batched)


def transpose(x, /, axis0=None, axis1=None) -> Tile:
    x = as_tile(x)
    if x.ndim < 2:
        raise TileTypeError("Cannot transpose a tile with fewer than 2 dimensions")
    if axis0 is None and axis1 is None:
        if x.ndim != 2:
            raise TileTypeError("`axes` must be specified for tile with more than 2 dimensions")
        axis0, axis1 = 1, 0
    elif axis0 is None or axis1 is None:
        raise TileTypeError("transpose axes must either both be specified or both be None")
    a0 = normalize_axis(axis0, x.ndim)
    a1 = normalize_axis(axis1, x.ndim)
    axes = list(range(x.ndim))
    axes[a0], axes[a1] = axes[a1], axes[a0]
    return Tile(np.transpose(x._raw, _batch_axes(x, axes)), x._dtype, x._batched)


def cat(tiles, /, axis) -> Tile:
    if not isinstance(tiles, tuple) or not tiles:
        raise TileTypeError("cat() expects a non-empty tuple of tiles")
    if len(tiles) > 2:
        raise TileTypeError(f"cat() supports at most 2 tiles, got {len(tiles)}")
    for t in tiles:
        if not isinstance(t, Tile):
            raise TileTypeError(f"Expected tuple of Tile, got a {type(t).__name__}")
    if len(tiles) == 1:
        return tiles[0]
    x, y = tiles
    if x.ndim != y.ndim:
        raise TileTypeError(f"Expected tiles to have the same rank: {x.ndim} != {y.ndim}")
    if x._dtype is not y._dtype:
        raise TileTypeError(f"Expected tiles to have the same dtype: {x.dtype} != {y.dtype}")
    axis = normalize_axis(axis, x.ndim)
    for i, (a, b) in enumerate(zip(x.shape, y.shape)):
        if i != axis and a != b:
            raise TileTypeError(
                "Expected tiles to have the same shape for non axis dimensions, "
                f"got {x.shape} and {y.shape}"
            )
    batch = batch_size(x, y)
    parts = [_batch_broadcast(t, batch) for t in (x, y)]
    values = np.concatenate(parts, axis=axis + bool(batch))
    check_tile_shape(values.shape[bool(batch) :], "Result tile shape")
    return Tile(values, x._dtype, bool(batch))


def _batch_broadcast(x: Tile, batch: int) -> np.ndarray:
    """The storage of `x` with a batch axis of `batch` blocks (none if `batch` is 0)."""
    if x._batched or not batch:
        return x._raw
    return np.broadcast_to(x._raw, (batch, *x.shape))


def _subtile_slices(x: Tile, index, shape: tuple[int, ...], noun: str) -> tuple[slice, ...]:
    if not isinstance(index, tuple):
        index = (index,)
    if len(index) != x.ndim:
        raise TileTypeError(f"Index size {len(index)} does not match the tile rank {x.ndim}")
    slices = []
    for i, (whole, part, idx) in enumerate(zip(x.shape, shape, index)):
        if whole % part:
            raise TileTypeError(
                f"Input shape {x.shape} is not divisible by {noun} shape {shape} at dimension #{i}"
            )
        if isinstance(idx, Tile):
            if idx.ndim != 0 or not idx.dtype.is_integral or not idx.dtype.signed:
                raise TileTypeError(f"Index #{i} must be a signed integer scalar")
            idx = int(idx._values)
        else:
            idx = require_constant_int(idx, f"index #{i}")
        count = whole // part
        if not 0 <= idx < count:
            raise TileTypeError(
                f"Index {idx} out of bounds at dimension #{i}: valid range is [0, {count})"
            )
        slices.append(slice(idx * part, (idx + 1) * part))
    return tuple(slices)


def extract(x, /, index, shape) -> Tile:
    x = as_tile(x)
    shape = require_constant_shape(
        shape, allow_single_int=True, expected_rank=x.ndim, allow_0d=True
    )
    result_shape = shape
    if not shape:
        shape = (1,) * x.ndim
    slices = _subtile_slices(x, index, shape, "result")
    lead_slice = (slice(None),) if x._batched else ()
    values = x._raw[lead_slice + slices].reshape(_lead_of(x) + result_shape)
    return Tile(values, x._dtype, x._batched)


def insert(x, /, index, value) -> Tile:
    x = as_tile(x)
    value = as_tile(value, "value")
    if value._dtype is not x._dtype:
        raise TileTypeError(
            f"Cannot insert a tile of dtype {value.dtype} into a tile of dtype {x.dtype}"
        )
    shape = value.shape if value.ndim else (1,) * x.ndim
    if len(shape) != x.ndim:
        raise TileTypeError(f"Value rank {value.ndim} does not match the tile rank {x.ndim}")
    slices = _subtile_slices(x, index, shape, "value")
    batch = batch_size(x, value)
    values = np.array(_batch_broadcast(x, batch))
    lead_slice = (slice(None),) if batch else ()
    values[lead_slice + slices] = value._raw.reshape(_lead_of(value) + shape)
    return Tile(values, x._dtype, bool(batch))
