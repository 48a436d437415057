"""Tile-space loads and stores: `load`, `store`, `num_tiles`.

`load(array, index, shape)` reads the tile at `index` of the array partitioned into tiles of
`shape` (after permuting the array's axes by `order`).  Elements outside the array are
padded; a tile wholly outside is undefined on the GPU and an error here.  Stores write only
the elements inside the array.  A tile index that depends on the block (`_batch.py`) makes
the access a gather or scatter of every block's tile at once.
"""

from __future__ import annotations

import numpy as np
from cuda.tile import MemoryOrder, MemoryScope, PaddingMode

from . import _batch
from . import _dtypes as dt
from ._array import Array, require_array, scalar_index
from ._constants import (
    normalize_axis,
    require_axis_order,
    require_constant_bool,
    require_constant_shape,
)
from ._elementwise import as_operand_dtype, batch_values_as, values_as
from ._errors import NotBatchable, TileTypeError, TileValueError, UndefinedBehaviorError
from ._races import View
from ._tile import Tile

_LOAD_ORDERS = (MemoryOrder.WEAK, MemoryOrder.RELAXED, MemoryOrder.ACQUIRE)
_STORE_ORDERS = (MemoryOrder.WEAK, MemoryOrder.RELAXED, MemoryOrder.RELEASE)


def check_hints(latency, allow_tma=None) -> None:
    if latency is not None and (type(latency) is not int or not 1 <= latency <= 10):
        raise TileValueError(f"Latency must be between 1 and 10, got {latency}")
    if allow_tma is not None and type(allow_tma) is not bool:
        raise TileTypeError(f"Allow TMA must be a boolean, got {allow_tma}")


def check_memory_order(order, scope, allowed, op: str) -> None:
    if not isinstance(order, MemoryOrder) or order not in allowed:
        raise TileTypeError(f"Invalid memory order for {op}: {order}")
    if not isinstance(scope, MemoryScope) or scope == MemoryScope.CLUSTER:
        raise TileTypeError(f"Invalid memory scope for {op}: {scope}")
    if order == MemoryOrder.WEAK and scope != MemoryScope.NONE:
        raise TileTypeError(f"{op} with WEAK memory ordering cannot specify a memory scope")
    if order != MemoryOrder.WEAK and scope == MemoryScope.NONE:
        raise TileTypeError(f"{op} with {order.name} memory ordering requires a memory scope")


def padding_value(mode, dtype: dt.DType):
    """The fill value for out-of-bounds elements of a load."""
    if not isinstance(mode, PaddingMode):
        raise TileTypeError(f"padding_mode must be a ct.PaddingMode, got {mode!r}")
    if mode == PaddingMode.ZERO:
        return 0
    if mode == PaddingMode.UNDETERMINED:
        # Any value is allowed; pick one that makes reliance on it visible.
        if dtype.is_float:
            return np.nan
        if dtype.is_bool:
            return True
        low, high = dt.integer_range(dtype)
        return low if dtype.signed else high
    if not dtype.is_float:
        raise TileTypeError(f"padding_mode={mode.name} needs a floating-point array, not {dtype}")
    return {
        PaddingMode.NEG_ZERO: -0.0,
        PaddingMode.NAN: np.nan,
        PaddingMode.POS_INF: np.inf,
        PaddingMode.NEG_INF: -np.inf,
    }[mode]


def _index_items(array: Array, index) -> tuple:
    """The tile index: ints, or (batch,) arrays for the items that depend on the block."""
    items = index if isinstance(index, tuple) else (index,)
    if len(items) != array.ndim:
        raise TileTypeError(f"Index size {len(items)} does not match the array rank {array.ndim}")
    return tuple(scalar_index(item, f"Index #{i}") for i, item in enumerate(items))


def _is_batched(items) -> bool:
    return any(isinstance(item, np.ndarray) for item in items)


def _require_weak(memory_order) -> None:
    if memory_order != MemoryOrder.WEAK:
        raise NotBatchable("ordered loads and stores run block by block")


def _load_batched(view: Array, items, shape, tile_shape, pad, check_bounds) -> Tile:
    run = _batch.current()
    index, live = _batch.tile_lanes(run, view._data.shape, items, tile_shape, check_bounds)
    values = np.full(live.shape, pad, dtype=view.dtype.storage)
    values[live] = view._track.gather(index, run.block_of(live))
    return Tile(values.reshape(live.shape[:1] + shape), view.dtype, True)


def _store_batched(view: Array, items, tile, tile_shape, check_bounds) -> None:
    run = _batch.current()
    index, live = _batch.tile_lanes(run, view._data.shape, items, tile_shape, check_bounds)
    values = batch_values_as(tile, view.dtype, len(tile_shape))
    values = np.broadcast_to(values, live.shape)[live]
    view._track.scatter(index, values, run.block_of(live))


def _tile_region(shape, index, tile_shape):
    """Array slices inside the array, the matching slices of the tile, and "is it partial"."""
    source, target, partial = [], [], False
    for size, i, extent in zip(shape, index, tile_shape):
        lo, hi = i * extent, (i + 1) * extent
        clipped_lo, clipped_hi = max(lo, 0), min(hi, size)
        if clipped_lo >= clipped_hi:
            return None
        partial |= clipped_lo != lo or clipped_hi != hi
        source.append(slice(clipped_lo, clipped_hi))
        target.append(slice(clipped_lo - lo, clipped_hi - lo))
    return tuple(source), tuple(target), partial


def _permuted(array: Array, order) -> Array:
    order = require_axis_order(order, array.ndim)
    if order == tuple(range(array.ndim)):
        return array
    return array.view(View("transpose", order))


def _outside(op, array_shape, index, tile_shape, order) -> UndefinedBehaviorError:
    return UndefinedBehaviorError(
        f"{op} of the tile at index {index} with shape {tile_shape} (order {order}) lies "
        f"entirely outside the array of shape {array_shape}"
    )


def load(
    array,
    /,
    index,
    shape,
    *,
    order="C",
    padding_mode=PaddingMode.UNDETERMINED,
    check_bounds=True,
    latency=None,
    allow_tma=None,
    memory_order=MemoryOrder.WEAK,
    memory_scope=MemoryScope.NONE,
) -> Tile:
    array = require_array(array)
    items = _index_items(array, index)
    shape = require_constant_shape(
        shape, allow_single_int=True, expected_rank=array.ndim, allow_0d=True
    )
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_hints(latency, allow_tma)
    check_memory_order(memory_order, memory_scope, _LOAD_ORDERS, "load")
    pad = padding_value(padding_mode, array.dtype)
    view = _permuted(array, order)
    tile_shape = shape if shape else (1,) * array.ndim
    if _is_batched(items):
        _require_weak(memory_order)
        return _load_batched(view, items, shape, tile_shape, pad, check_bounds)
    region = _tile_region(view._data.shape, items, tile_shape)
    if region is None:
        raise _outside("load", array._data.shape, items, tile_shape, order)
    source, target, partial = region
    if partial and not check_bounds:
        raise UndefinedBehaviorError(
            f"load with check_bounds=False of the tile at index {items} with shape {tile_shape} "
            f"extends beyond the array of shape {array._data.shape}"
        )
    if memory_order == MemoryOrder.WEAK:
        values = view.read(source)
    else:
        view.update_atomically(source)  # ordered accesses may legitimately meet other blocks
        values = np.array(view._data[source])
    if partial:
        padded = np.full(tile_shape, pad, dtype=array.dtype.storage)
        padded[target] = values
        values = padded
    return Tile(values.reshape(shape), array.dtype)


def store(
    array,
    /,
    index,
    tile,
    *,
    order="C",
    check_bounds=True,
    latency=None,
    allow_tma=None,
    memory_order=MemoryOrder.WEAK,
    memory_scope=MemoryScope.NONE,
) -> None:
    array = require_array(array)
    items = _index_items(array, index)
    source_dtype = as_operand_dtype(tile, "tile")
    dt.check_implicit_cast(
        source_dtype, array.dtype, "Stored tile is incompatible with array's dtype"
    )
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_hints(latency, allow_tma)
    check_memory_order(memory_order, memory_scope, _STORE_ORDERS, "store")
    tile_shape = tile.shape if isinstance(tile, Tile) else ()
    if tile_shape and len(tile_shape) != array.ndim:
        raise TileTypeError(
            f"Stored tile of rank {len(tile_shape)} does not match the array rank {array.ndim}"
        )
    batched = _is_batched(items) or _batch.batch_size(tile)
    if not tile_shape:
        tile_shape = (1,) * array.ndim
    if not batched:
        values = values_as(tile, array.dtype).reshape(tile_shape)
    view = _permuted(array, order)
    if batched:
        _require_weak(memory_order)
        return _store_batched(view, items, tile, tile_shape, check_bounds)
    region = _tile_region(view._data.shape, items, tile_shape)
    if region is None:
        raise _outside("store", array._data.shape, items, tile_shape, order)
    source, target, partial = region
    if partial and not check_bounds:
        raise UndefinedBehaviorError(
            f"store with check_bounds=False of the tile at index {items} with shape "
            f"{tile_shape} extends beyond the array of shape {array._data.shape}"
        )
    if memory_order == MemoryOrder.WEAK:
        view.write(source, values[target])
    else:
        view.update_atomically(source)
        view._data[source] = values[target]


def num_tiles(array, /, axis, shape, order="C") -> Tile:
    """How many tiles of `shape` cover the (permuted) array along `axis`, as an int32."""
    array = require_array(array)
    axis = normalize_axis(axis, array.ndim)
    shape = require_constant_shape(
        shape, allow_single_int=True, expected_rank=array.ndim, allow_0d=True
    )
    view = _permuted(array, order)
    tile_shape = shape if shape else (1,) * array.ndim
    count = -(-view._data.shape[axis] // tile_shape[axis])
    return Tile(np.asarray(count, dtype=np.int32), dt.int32)
