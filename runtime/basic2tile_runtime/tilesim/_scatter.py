"""Element-indexed memory access: `gather`, `scatter` and the atomic operations.

Indices are integer tiles or scalars broadcast to one shape; negative indices are out of
bounds (cuTile reinterprets them as unsigned).  With `check_bounds=True` out-of-bounds
lanes are skipped; with `check_bounds=False` they are undefined on the GPU and an error here.
Batched operands (`_batch.py`) give every block of the batch its own lanes.  Atomics always
run block by block (the array's batch tracker refuses them).
"""

from __future__ import annotations

import numpy as np
from cuda.tile import MemoryOrder, MemoryScope, PaddingMode

from . import _batch
from . import _dtypes as dt
from ._array import Array, require_array
from ._batch import align, lead
from ._constants import require_constant_bool
from ._elementwise import as_operand_dtype, batch_values_as, broadcast_shape
from ._errors import TileTypeError, UndefinedBehaviorError
from ._memory import check_hints, check_memory_order, padding_value
from ._tile import Tile, is_loose

_ATOMIC_ORDERS = (
    MemoryOrder.RELAXED,
    MemoryOrder.ACQUIRE,
    MemoryOrder.RELEASE,
    MemoryOrder.ACQ_REL,
)
_INT_32_64 = (dt.int32, dt.int64, dt.uint32, dt.uint64)
_INT_FLOAT_32_64 = _INT_32_64 + (dt.float32, dt.float64)


class _Lanes:
    """The element positions an indexed access touches, and which lanes are live.

    With batched operands (among indices, mask and `values`) the lanes of all the blocks of
    the batch: `live` then has a leading batch axis, and `full` is the storage shape.
    """

    def __init__(self, array: Array, indices, check_bounds: bool, mask=None, values=()):
        items = indices if isinstance(indices, tuple) else (indices,)
        if len(items) != array.ndim:
            raise TileTypeError(
                f"For array of rank {array.ndim}, `indices` must be a tuple of length "
                f"{array.ndim}" + (", or a single scalar/tile" if array.ndim == 1 else "")
            )
        shapes = []
        for dim, item in enumerate(items):
            dtype = as_operand_dtype(item, f"index for dimension {dim}")
            kind = dtype if isinstance(dtype, dt.DType) else dt.dtype_of_constant(item)
            if not kind.is_integral:
                raise TileTypeError(f"Index for dimension {dim} has non-integer data type {kind}")
            shapes.append(item.shape if isinstance(item, Tile) else ())
        self.shape = broadcast_shape(*shapes) if shapes else ()
        self.batch = _batch.batch_size(*items, mask, *values)
        self.full = lead(self.batch) + self.shape
        rank = len(self.shape)
        positions = []
        live = np.ones(self.full, dtype=bool)
        for item, size in zip(items, array._data.shape):
            if isinstance(item, Tile):
                raw = align(item._raw, item._batched, rank)
            else:
                raw = np.asarray(item)
            wide = np.broadcast_to(raw.astype(np.int64), self.full)
            if isinstance(item, Tile) and item.dtype is dt.uint64:
                wide = np.where(raw > np.iinfo(np.int64).max, -1, wide)
            live &= (wide >= 0) & (wide < size)
            positions.append(wide)
        mask_values = _mask_values(mask, self.shape, self.full)
        if not check_bounds and not np.all(live | ~mask_values):
            raise UndefinedBehaviorError(
                f"indexed access with check_bounds=False reaches outside the array of shape "
                f"{array._data.shape}"
            )
        self.live = live & mask_values
        self.region = tuple(p[self.live] for p in positions)

    def blocks(self):
        """The block of each live lane of a batched access."""
        return _batch.current().block_of(self.live)


def _mask_values(mask, shape, full) -> np.ndarray:
    if mask is None:
        return np.ones(full, dtype=bool)
    dtype = as_operand_dtype(mask, "mask")
    if isinstance(dtype, dt.DType):
        if not dtype.is_bool:
            raise TileTypeError(f"Custom mask must have boolean dtype, but got {dtype}")
        mask_shape = mask.shape
        values = align(mask._raw, mask._batched, len(shape))
    else:
        if type(mask) is not bool:
            raise TileTypeError(f"Custom mask must be boolean, got {mask!r}")
        mask_shape, values = (), np.asarray(mask)
    _require_broadcastable(mask_shape, shape, "Custom mask")
    return np.broadcast_to(values, full)


def _require_broadcastable(source, target, what: str) -> None:
    if len(source) > len(target) or any(
        a not in (b, 1) for a, b in zip(reversed(source), reversed(target))
    ):
        raise TileTypeError(
            f"{what} shape {source} is not broadcastable to the index shape {target}"
        )


def _value_for_lanes(value, lanes: _Lanes, array: Array, what: str, cast: bool = True):
    dtype = as_operand_dtype(value, what)
    shape = value.shape if isinstance(value, Tile) else ()
    _require_broadcastable(shape, lanes.shape, what)
    if cast:
        dt.check_implicit_cast(dtype, array.dtype, f"{what} is incompatible with the array's dtype")
    values = batch_values_as(value, array.dtype, len(lanes.shape))
    return np.broadcast_to(values, lanes.full)


def gather(array, indices, /, *, mask=None, padding_value=0, check_bounds=True, latency=None):
    array = require_array(array)
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_hints(latency)
    lanes = _Lanes(array, indices, check_bounds, mask, (padding_value,))
    fill = _value_for_lanes(padding_value, lanes, array, "Padding value")
    result = np.array(fill, dtype=array.dtype.storage)
    if lanes.batch:
        result[lanes.live] = array._track.gather(lanes.region, lanes.blocks())
    else:
        result[lanes.live] = array.read(lanes.region)
    return Tile(result, array.dtype, bool(lanes.batch))


def scatter(array, indices, value, /, *, mask=None, check_bounds=True, latency=None) -> None:
    array = require_array(array)
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_hints(latency)
    lanes = _Lanes(array, indices, check_bounds, mask, (value,))
    values = _value_for_lanes(value, lanes, array, "Stored value")[lanes.live]
    blocks = lanes.blocks() if lanes.batch else None
    _reject_conflicting_duplicates(array, lanes.region, values, blocks)
    if lanes.batch:
        array._track.scatter(lanes.region, values, blocks)
    else:
        array.write(lanes.region, values)


def _reject_conflicting_duplicates(array: Array, region, values: np.ndarray, blocks) -> None:
    """Two lanes of a block writing different values to one element: the GPU keeps either."""
    if not values.size:
        return
    flat = np.ravel_multi_index(region, array._data.shape) if region else np.zeros(1, np.int64)
    if blocks is None:
        order = np.argsort(flat, kind="stable")
        same_place = flat[order][1:] == flat[order][:-1]
    else:
        order = np.lexsort((flat, blocks))
        same_place = (flat[order][1:] == flat[order][:-1]) & (
            blocks[order][1:] == blocks[order][:-1]
        )
    differs = values[order][1:] != values[order][:-1]
    if np.any(same_place & differs):
        raise UndefinedBehaviorError(
            "scatter writes different values to the same element; which one lands is unspecified"
        )


# ----------------------------------------------------------------------------------------------
# Atomics


def _atomic(kind, array, indices, update, check_bounds, memory_order, memory_scope, combine):
    array = require_array(array)
    supported, bitwise = kind
    if array.dtype not in supported:
        raise TileTypeError(f"Unsupported array dtype: {array.dtype}")
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_memory_order(memory_order, memory_scope, _ATOMIC_ORDERS, "atomic operation")
    lanes = _Lanes(array, indices, check_bounds, values=(update,))
    if bitwise:
        update_dtype = as_operand_dtype(update, "update")
        if isinstance(update_dtype, dt.DType) and update_dtype is not array.dtype:
            raise TileTypeError(
                "Bitwise atomic read-modify-write operations require the update dtype "
                f"({update_dtype}) to exactly match the target dtype ({array.dtype})"
            )
        updates = _value_for_lanes(update, lanes, array, "Update", cast=is_loose(update))
    else:
        updates = _value_for_lanes(update, lanes, array, "Update")
    old = np.full(lanes.shape, padding_value_for_missing(array.dtype), dtype=array.dtype.storage)
    array.update_atomically(lanes.region)
    old[lanes.live] = _apply_in_lane_order(array, lanes.region, updates[lanes.live], combine)
    return Tile(old, array.dtype)


def padding_value_for_missing(dtype):
    """What an out-of-bounds atomic returns: "implementation-defined", so make it visible."""
    return padding_value(PaddingMode.UNDETERMINED, dtype)


def _apply_in_lane_order(array: Array, region, updates: np.ndarray, combine) -> np.ndarray:
    """Apply element-wise atomics lane by lane; repeated elements see earlier lanes' updates."""
    data = array._data
    with np.errstate(all="ignore"):
        flat = np.ravel_multi_index(region, data.shape) if region else np.zeros(0, np.int64)
        if np.unique(flat).size == flat.size:
            old = np.array(data[region])
            data[region] = combine(old, updates)
            return old
        old = np.empty(updates.shape, dtype=data.dtype)
        for lane in range(updates.size):
            where = tuple(axis[lane] for axis in region)
            old[lane] = data[where]
            data[where] = combine(data[where], updates[lane])
        return old


def _float_or_int_add(old, update):
    return np.add(old, update, dtype=old.dtype)


_ATOMICS = {
    "xchg": (_INT_FLOAT_32_64, False),
    "add": (_INT_FLOAT_32_64 + (dt.float16,), False),
    "max": (_INT_32_64, False),
    "min": (_INT_32_64, False),
    "and": (_INT_32_64, True),
    "or": (_INT_32_64, True),
    "xor": (_INT_32_64, True),
}


def _atomic_function(name: str, combine):
    def atomic(
        array,
        indices,
        update,
        /,
        *,
        check_bounds=True,
        memory_order=MemoryOrder.ACQ_REL,
        memory_scope=MemoryScope.DEVICE,
    ) -> Tile:
        return _atomic(
            _ATOMICS[name],
            array,
            indices,
            update,
            check_bounds,
            memory_order,
            memory_scope,
            combine,
        )

    atomic.__name__ = f"atomic_{name}"
    atomic.__doc__ = f"Atomic {name} on array elements at `indices`; returns the old values."
    return atomic


atomic_xchg = _atomic_function("xchg", lambda old, update: update)
atomic_add = _atomic_function("add", _float_or_int_add)
atomic_max = _atomic_function("max", np.maximum)
atomic_min = _atomic_function("min", np.minimum)
atomic_and = _atomic_function("and", np.bitwise_and)
atomic_or = _atomic_function("or", np.bitwise_or)
atomic_xor = _atomic_function("xor", np.bitwise_xor)


def atomic_cas(
    array,
    indices,
    expected,
    desired,
    /,
    *,
    check_bounds=True,
    memory_order=MemoryOrder.ACQ_REL,
    memory_scope=MemoryScope.DEVICE,
) -> Tile:
    """Compare-and-swap: where the element equals `expected`, store `desired`; return old."""
    array = require_array(array)
    if array.dtype not in _INT_FLOAT_32_64:
        raise TileTypeError(f"Unsupported array dtype: {array.dtype}")
    check_bounds = require_constant_bool(check_bounds, "check_bounds")
    check_memory_order(memory_order, memory_scope, _ATOMIC_ORDERS, "atomic_cas")
    lanes = _Lanes(array, indices, check_bounds, values=(expected, desired))
    expect = _value_for_lanes(expected, lanes, array, "Expected value")
    desire = _value_for_lanes(desired, lanes, array, "Desired value")
    old = np.array(expect, dtype=array.dtype.storage)  # out-of-bounds lanes return `expected`
    array.update_atomically(lanes.region)
    data = array._data
    live_expect, live_desire = expect[lanes.live], desire[lanes.live]
    results = np.empty(live_expect.shape, dtype=data.dtype)
    for lane in range(live_expect.size):
        where = tuple(axis[lane] for axis in lanes.region)
        results[lane] = data[where]
        if data[where] == live_expect[lane]:
            data[where] = live_desire[lane]
    old[lanes.live] = results
    return Tile(old, array.dtype)
