"""Tile factories: arange, full, zeros, ones."""

from __future__ import annotations

import numpy as np

from . import _dtypes as dt
from ._batch import align, batch_size, lead
from ._constants import require_constant_int, require_constant_shape
from ._elementwise import astype, binary, constant_values
from ._errors import TileTypeError
from ._tile import Tile, check_tile_shape, is_loose


def _numeric_dtype(dtype) -> dt.DType:
    dtype = dt.as_dtype(dtype)
    if dtype.restricted:
        raise TileTypeError(f"Expected a numeric dtype, got {dtype}")
    return dtype


def full(shape, fill_value, dtype) -> Tile:
    shape = require_constant_shape(shape, allow_single_int=True)
    dtype = _numeric_dtype(dtype)
    if isinstance(fill_value, Tile):
        if fill_value.ndim != 0 or fill_value.dtype.restricted:
            raise TileTypeError(f"fill_value must be a numeric scalar, got {fill_value!r}")
        scalar = astype(fill_value, dtype)._raw
        batch = batch_size(fill_value)
    elif is_loose(fill_value):
        scalar, batch = constant_values(fill_value, dtype), 0
    else:
        raise TileTypeError(f"fill_value must be a scalar, got {type(fill_value).__name__}")
    scalar = align(scalar, bool(batch), len(shape))
    return Tile(np.broadcast_to(scalar, lead(batch) + shape), dtype, bool(batch))


def zeros(shape, dtype) -> Tile:
    return full(shape, 0, dtype)


def ones(shape, dtype) -> Tile:
    return full(shape, 1, dtype)


def arange(size, /, *, dtype, start=0, step=1) -> Tile:
    """`start, start + step, ...`: an int32 iota converted to `dtype`, then scaled and shifted."""
    size = require_constant_int(size, "arange size")
    check_tile_shape((size,), "Result tile shape")
    dtype = _numeric_dtype(dtype)
    iota = Tile(np.arange(size, dtype=np.int32), dt.int32)
    result = astype(iota, dtype)
    if not (is_loose(step) and step == 1):
        result = binary("mul", result, astype(step, dtype))
    if not (is_loose(start) and start == 0):
        result = binary("add", result, astype(start, dtype))
    return result


def astile(value, /, *, dtype) -> Tile:
    """A tile from a scalar or a nested tuple of scalars (lengths powers of two, uniform)."""
    dtype = _numeric_dtype(dtype)

    def shape_of(item, path: str) -> tuple[int, ...]:
        if isinstance(item, tuple):
            check_tile_shape((len(item),), f"Tuple length at {path}")
            inner = {shape_of(x, f"{path}[{i}]") for i, x in enumerate(item)}
            if len(inner) != 1:
                raise TileTypeError(f"Tuple has non-uniform inner shapes at {path}")
            return (len(item),) + inner.pop()
        if isinstance(item, Tile) and item.ndim == 0 or is_loose(item):
            return ()
        raise TileTypeError(f"Expected scalar elements at {path}; got {item!r}")

    def flatten(item):
        if isinstance(item, tuple):
            for x in item:
                yield from flatten(x)
        else:
            yield astype(item, dtype)._values

    shape = shape_of(value, "value")
    values = np.array([v for v in flatten(value)], dtype=dtype.storage).reshape(shape)
    return Tile(values, dtype)
