"""Batched execution: one run of a kernel body computes many blocks at once.

`launch` first tries to run the kernel body once per *batch* of blocks instead of once per
block.  `ct.bid` then yields a batched int32 scalar (one value per block, see `_tile.py`),
and every operation touching a batched value carries the batch axis along; values that do
not depend on the block stay unbatched and are computed once.

A batch must behave exactly as its blocks run one after another.  Whatever the batched
code cannot reproduce exactly raises (`NotBatchable`, or any other exception: a `TileError`
of one block, say); `launch` then undoes every store of the attempt and runs the launch
block by block, so errors and results are the sequential ones.  Stores land at once, so a
block reads back its own stores; every access is recorded per element and per block, and
two blocks sharing an element that one of them writes (a race, or an order the batch would
not keep) also sends the launch back to sequential execution, where the race checker reports
it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

from . import _dtypes as dt
from ._errors import NotBatchable
from ._tile import Tile

_FIRST_BATCH = 16  # a small first batch measures the kernel's memory use per block
_MAX_BATCH = 1 << 16
_BATCH_BYTES = 64 << 20  # largest batched array aimed for
_NONE = -1  # no block has accessed the element
_MANY = -2  # several blocks have (or: every block of the batch accesses it)
_local = threading.local()


@dataclass
class BatchStats:
    """How launches ran: for tests, and to see how much of a program batches."""

    batched: int = 0
    fallbacks: int = 0
    last_fallback: str = ""


STATS = BatchStats()


def current() -> BatchRun | None:
    """The batched launch running on this thread, if any."""
    return getattr(_local, "run", None)


# ----------------------------------------------------------------------------------------------
# Batched values


def batch_size(*operands) -> int:
    """The batch length of the first batched tile among `operands`; 0 if none is batched."""
    for x in operands:
        if isinstance(x, Tile) and x._batched:
            return x._raw.shape[0]
    return 0


def align(values: np.ndarray, batched: bool, ndim: int) -> np.ndarray:
    """Storage ready to broadcast against a result of logical rank `ndim`.

    NumPy aligns trailing axes, so an unbatched value broadcasts as it is; a batched one gets
    unit axes between its batch axis and its own axes.
    """
    if not batched:
        return values
    missing = ndim - (values.ndim - 1)
    if missing <= 0:
        return values
    return values.reshape(values.shape[:1] + (1,) * missing + values.shape[1:])


def lead(batch: int) -> tuple[int, ...]:
    """The storage shape prefix of a result with `batch` blocks (0: unbatched)."""
    return (batch,) if batch else ()


def per_block(values: np.ndarray, func) -> np.ndarray:
    """`func` applied to each block's values of batched storage, one call per block (NumPy's
    order of a float reduction depends on the array's layout; this keeps the sequential one)."""
    return np.stack([np.asarray(func(v)) for v in values])


# ----------------------------------------------------------------------------------------------
# One batched launch


class BatchRun:
    """The blocks of the current batch, and the stores to undo."""

    def __init__(self, grid: tuple[int, int, int]):
        self.grid = grid
        self.journal: list[tuple[np.ndarray, tuple, np.ndarray]] = []

    def start(self, first: int, count: int) -> None:
        blocks = np.arange(first, first + count, dtype=np.int64)
        gx, gy, _ = self.grid
        self.blocks = blocks.astype(np.int32)
        self.shared = first if count == 1 else _MANY
        coords = (blocks % gx, blocks // gx % gy, blocks // (gx * gy))
        self.bids = tuple(_block_index(c) for c in coords)

    def block_of(self, live: np.ndarray) -> np.ndarray:
        """The block number of each live lane of a (batch, ...)-shaped mask."""
        blocks = self.blocks.reshape((-1,) + (1,) * (live.ndim - 1))
        return np.broadcast_to(blocks, live.shape)[live]

    def undo(self) -> None:
        for data, index, old in reversed(self.journal):
            data[index] = old


def _block_index(values: np.ndarray) -> Tile:
    """`ct.bid` of a batch: unbatched where all its blocks agree (e.g. along a 1-wide axis)."""
    if (values == values[0]).all():
        return Tile(np.asarray(values[0], np.int32), dt.int32)
    return Tile(values.astype(np.int32), dt.int32, batched=True)


class _Records:
    """Which block wrote and which read each element of one array argument.

    Kept by element position in the argument's memory, so every view of it finds the same
    records.  Unlike `_races`, it need not name the blocks: any conflict means "run the
    launch block by block", and the sequential race checker reports it.
    """

    def __init__(self, data: np.ndarray):
        low, high = np.lib.array_utils.byte_bounds(data)
        self.low = low
        self.itemsize = data.itemsize
        count = (high - low) // data.itemsize
        self.writer = np.full(count, _NONE, np.int32)
        self.reader = np.full(count, _NONE, np.int32)

    def positions(self, data: np.ndarray, index: tuple) -> np.ndarray:
        return (_addresses(data, index) - self.low) // self.itemsize

    def read(self, at: np.ndarray, blocks) -> None:
        writer = self.writer[at]
        if np.any((writer != _NONE) & (writer != blocks)):
            raise NotBatchable("a block reads an element another block writes")
        reader = self.reader[at]
        mine = np.broadcast_to(blocks, at.shape)
        self.reader[at] = np.where((reader == _NONE) | (reader == mine), mine, _MANY)
        # Lanes of several blocks reading one element: the assignment kept only one of them.
        self.reader[at[self.reader[at] != mine]] = _MANY

    def write(self, at: np.ndarray, blocks) -> None:
        for seen in (self.writer[at], self.reader[at]):
            if np.any((seen != _NONE) & (seen != blocks)):
                raise NotBatchable("a block writes an element another block accesses")
        self.writer[at] = blocks
        if np.any(self.writer[at] != blocks):
            raise NotBatchable("blocks of the batch write the same element")


def _addresses(data: np.ndarray, index: tuple) -> np.ndarray:
    """The byte address of each element of `data[index]` (index: all slices or all arrays)."""
    base = data.__array_interface__["data"][0]
    if all(isinstance(i, slice) for i in index):
        index = index + (slice(None),) * (data.ndim - len(index))
        ranges = [
            np.arange(*item.indices(size), dtype=np.int64) * stride
            for item, size, stride in zip(index, data.shape, data.strides)
        ]
        offsets = sum(np.ix_(*ranges), np.int64(0))
    else:
        offsets = sum(
            (np.asarray(i, np.int64) * stride for i, stride in zip(index, data.strides)),
            np.int64(0),
        )
    return (np.asarray(offsets, np.int64) + base).reshape(-1)


class BatchTrack:
    """An `Array`'s access records in a batched launch, in place of `_races.TrackView`.

    `gather`/`scatter` are the batched accesses, with the block of each element; `read`,
    `write` and `update_atomically` are the unbatched code paths' accesses, made by every
    block of the batch at once.
    """

    __slots__ = ("data", "records", "run")

    def __init__(self, run: BatchRun, records: _Records, data: np.ndarray):
        self.run = run
        self.records = records
        self.data = data

    def derive(self, view) -> BatchTrack:
        return BatchTrack(self.run, self.records, view.apply(self.data))

    def gather(self, index: tuple, blocks) -> np.ndarray:
        self.records.read(self.records.positions(self.data, index), blocks)
        return self.data[index]

    def scatter(self, index: tuple, values, blocks) -> None:
        self.write_records(index, blocks)
        self.data[index] = values

    def write_records(self, index: tuple, blocks) -> None:
        self.records.write(self.records.positions(self.data, index), blocks)
        self.run.journal.append((self.data, index, np.array(self.data[index])))

    def read(self, region) -> None:
        self.records.read(self.records.positions(self.data, region), self.run.shared)

    def write(self, region) -> None:
        if self.run.shared == _MANY and self.data[region].size:
            raise NotBatchable("every block of the batch writes the same elements")
        self.write_records(region, self.run.shared)

    def update_atomically(self, region) -> None:
        raise NotBatchable("atomic and ordered accesses run block by block")


def track_arrays(run: BatchRun, arrays) -> None:
    """Give each array argument batched records (one set per distinct NumPy array)."""
    records: dict[int, _Records] = {}
    for array in arrays:
        data = array._data
        if id(data) not in records:
            records[id(data)] = _Records(data)
        array._track = BatchTrack(run, records[id(data)], data)


# ----------------------------------------------------------------------------------------------
# Tile-space accesses (load/store) whose tile index depends on the block


def tile_lanes(run: BatchRun, shape, starts, tile_shape, check_bounds: bool):
    """Where each block's tile lies: index arrays broadcastable to (batch,) + tile_shape, and
    the mask of elements inside the array.  `starts` are tile indices, ints or (batch,) arrays.

    A block whose tile lies wholly outside, or partly outside without bounds checks, is an
    error of that block: raise, and let the sequential run report it.
    """
    batch = run.blocks.size
    rank = len(tile_shape)
    positions = []
    live = np.ones((batch,) + tuple(tile_shape), dtype=bool)
    for axis, (size, start, extent) in enumerate(zip(shape, starts, tile_shape)):
        first = np.broadcast_to(np.asarray(start, np.int64), (batch,)) * extent
        at = first[:, None] + np.arange(extent, dtype=np.int64)
        inside = (at >= 0) & (at < size)
        if not inside.any(axis=1).all():
            raise NotBatchable("a block's tile lies outside the array")
        if not check_bounds and not inside.all():
            raise NotBatchable("a block's tile is partial without bounds checks")
        axes = [batch] + [1] * rank
        axes[axis + 1] = extent
        positions.append(at.reshape(axes))
        live &= inside.reshape(axes)
    index = tuple(np.broadcast_to(p, live.shape)[live] for p in positions)
    return index, live


def run_batched(body, args, grid: tuple[int, int, int], arrays) -> bool:
    """Run every block of `grid`, batch after batch.  False (with memory as it was before)
    when the launch must run block by block instead."""
    run = BatchRun(grid)
    track_arrays(run, arrays)
    total = math.prod(grid)
    _local.run = run
    try:
        first, count = 0, min(total, _FIRST_BATCH)
        while first < total:
            run.start(first, count)
            Tile.peak_batched_bytes = 0
            body(*args)
            first += count
            bytes_per_block = max(Tile.peak_batched_bytes // count, 1)
            count = max(1, min(_MAX_BATCH, _BATCH_BYTES // bytes_per_block, total - first))
    except Exception as error:  # noqa: BLE001 (anything at all: the sequential run decides)
        run.undo()
        STATS.fallbacks += 1
        STATS.last_fallback = f"{type(error).__name__}: {error}"
        return False
    finally:
        _local.run = None
    STATS.batched += 1
    return True
