"""Data-race detection between blocks.

The simulator runs blocks one after another, which would silently give a race-free answer to
a racy kernel (say, a loop-carried dependence wrongly turned into a parallel grid).  So it
records, per array element, which block wrote, read or atomically updated it during one
launch, and reports two blocks touching an element when at least one of them writes it
non-atomically.  Accesses within one block are ordered, as in cuTile.
"""

from __future__ import annotations

import math

import numpy as np

from ._errors import DataRaceError, NotSimulatedError

_NONE = -1  # no block has touched the element
_MANY = -2  # several blocks have (only meaningful for reads and atomics)


class LaunchLog:
    """The block running now, and how to name block numbers in messages."""

    def __init__(self, grid: tuple[int, int, int]):
        self.grid = grid
        self.block = 0

    def coords(self, block: int) -> tuple[int, int, int]:
        gx, gy, _ = self.grid
        return block % gx, (block // gx) % gy, block // (gx * gy)

    def describe(self, block: int) -> str:
        if block == _MANY:
            return "several other blocks"
        return f"block {self.coords(block)}"


# Columns of the record kept for every element.
_WRITER, _READER, _ATOMIC = 0, 1, 2


class View:
    """A view of an array described as data, so it can be replayed on the records too.

    `kind` is "index" (basic indexing with `arg`, a tuple of slices) or "transpose" (axes
    permuted by `arg`).  Records carry one extra trailing axis, which views leave in place.
    """

    __slots__ = ("arg", "kind")

    def __init__(self, kind: str, arg: tuple):
        self.kind = kind
        self.arg = arg

    def apply(self, a: np.ndarray, trailing: int = 0) -> np.ndarray:
        if self.kind == "index":
            return a[self.arg]
        return a.transpose(self.arg + tuple(range(len(self.arg), len(self.arg) + trailing)))


class TrackedArray:
    """Per-element access records for one array argument of one launch."""

    def __init__(self, name: str, shape: tuple[int, ...], log: LaunchLog):
        self.name = name
        self.shape = shape
        self.log = log
        # One int32 triple per element (writer, reader, atomic): one slice per access.
        self.root = TrackView(self, np.full((*shape, 3), _NONE, np.int32), ())

    def element_index(self, views, region, position: int) -> tuple[int, ...]:
        """The index in the argument of the `position`-th element of `region` of a view."""
        flat = np.arange(math.prod(self.shape), dtype=np.int64).reshape(self.shape)
        for view in views:
            flat = view.apply(flat)
        element = int(flat[region].reshape(-1)[position])
        return tuple(int(i) for i in np.unravel_index(element, self.shape))


class TrackView:
    """The access records seen through the same views (slices, transposes) as an `Array`."""

    __slots__ = ("owner", "records", "views")

    def __init__(self, owner: TrackedArray, records: np.ndarray, views: tuple):
        self.owner = owner
        self.records = records
        self.views = views  # replayed to name an element in error messages

    def derive(self, view: View) -> TrackView:
        return TrackView(self.owner, view.apply(self.records, 1), (*self.views, view))

    def read(self, region) -> None:
        me = self.owner.log.block
        seen = self.records[region]
        self._check(region, me, seen, (_WRITER, _ATOMIC), "reads")
        readers = seen[..., _READER]
        self.records[(*region, _READER)] = np.where((readers == _NONE) | (readers == me), me, _MANY)

    def write(self, region) -> None:
        me = self.owner.log.block
        self._check(region, me, self.records[region], (_WRITER, _READER, _ATOMIC), "writes")
        self.records[(*region, _WRITER)] = me

    def update_atomically(self, region) -> None:
        me = self.owner.log.block
        seen = self.records[region]
        self._check(region, me, seen, (_WRITER, _READER), "atomically updates")
        atomics = seen[..., _ATOMIC]
        self.records[(*region, _ATOMIC)] = np.where((atomics == _NONE) | (atomics == me), me, _MANY)

    def _check(self, region, me: int, seen: np.ndarray, columns, verb: str) -> None:
        relevant = seen if len(columns) == 3 else seen[..., list(columns)]
        clash = (relevant != _NONE) & (relevant != me)
        if clash.any():
            self._report(region, me, seen, columns, verb)

    def _report(self, region, me: int, seen: np.ndarray, columns, verb: str):
        past = {_WRITER: "wrote", _READER: "read", _ATOMIC: "atomically updated"}
        flat_seen = seen.reshape(-1, 3)
        for position, triple in enumerate(flat_seen):
            for column in columns:
                other = int(triple[column])
                if other not in (_NONE, me):
                    index = self.owner.element_index(self.views, region, position)
                    log = self.owner.log
                    raise DataRaceError(
                        f"data race on element {index} of array '{self.owner.name}': "
                        f"{log.describe(me)} {verb} it after {log.describe(other)} "
                        f"{past[column]} it in the same launch (blocks run in parallel on a "
                        "GPU, in no fixed order)"
                    )


def track_arguments(arrays: list[tuple[str, np.ndarray]], log: LaunchLog) -> dict[int, TrackView]:
    """Records for each distinct array argument (the same object passed twice shares them)."""
    tracked: dict[int, TrackView] = {}
    distinct: list[tuple[str, np.ndarray]] = []
    for name, data in arrays:
        if id(data) in tracked:
            continue
        for other_name, other in distinct:
            if _overlap(data, other):
                raise NotSimulatedError(
                    f"array arguments '{other_name}' and '{name}' share memory; race checking "
                    "cannot follow aliased views (pass check_races=False to run anyway)"
                )
        distinct.append((name, data))
        tracked[id(data)] = TrackedArray(name, data.shape, log).root
    return tracked


def arrays_overlap(arrays: list[np.ndarray]) -> bool:
    """Do two distinct arrays among `arrays` share memory?"""
    distinct = list({id(a): a for a in arrays}.values())
    return any(_overlap(a, b) for i, a in enumerate(distinct) for b in distinct[i + 1 :])


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=1_000_000))
    except np.exceptions.TooHardError:
        return True
