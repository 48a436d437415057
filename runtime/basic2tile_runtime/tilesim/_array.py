"""The simulated global `Array`: a NumPy view of a kernel argument.

Loads and stores go through `region()`; views made by `slice` carry the race-tracking
records along with the data, so both always describe the same elements.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes as dt
from ._constants import normalize_axis
from ._elementwise import constant_values
from ._errors import TileTypeError, UndefinedBehaviorError
from ._races import TrackView, View
from ._tile import Tile, is_loose


def scalar_int(value, what: str) -> int:
    """The value of a signed integer scalar: a 0-d tile or a Python int."""
    if isinstance(value, Tile):
        if value.ndim != 0 or not value.dtype.is_integral or not value.dtype.signed:
            raise TileTypeError(f"{what} must be a signed integer scalar, got {value!r}")
        return int(value._values)
    if type(value) is int:
        return value
    raise TileTypeError(f"{what} must be a signed integer scalar, got {value!r}")


def scalar_index(value, what: str) -> int | np.ndarray:
    """`scalar_int`, or the (batch,) int64 values of a batched scalar (`_batch.py`)."""
    if isinstance(value, Tile) and value._batched:
        if value.ndim != 0 or not value.dtype.is_integral or not value.dtype.signed:
            raise TileTypeError(f"{what} must be a signed integer scalar, got a batched tile")
        return value._raw.astype(np.int64)
    return scalar_int(value, what)


class Array:
    """A global array as seen by a kernel."""

    __slots__ = ("_data", "_dtype", "_index_dtype", "_track")

    def __init__(
        self, data: np.ndarray, dtype: dt.DType, index_dtype: dt.DType, track: TrackView | None
    ):
        self._data = data
        self._dtype = dtype
        self._index_dtype = index_dtype
        self._track = track

    @classmethod
    def from_numpy(cls, data, *, index_dtype=dt.int32) -> Array:
        """Simulator only: wrap a host array (outside `launch`, e.g. to test one operation)."""
        data = np.asarray(data)
        return cls(data, dt.dtype_of_numpy(data.dtype), dt.as_dtype(index_dtype), None)

    @property
    def dtype(self) -> dt.DType:
        return self._dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def shape(self) -> tuple[Tile, ...]:
        # Run-time values in cuTile (unless annotated static): scalars of the index dtype.
        return tuple(self._index_scalar(n) for n in self._data.shape)

    @property
    def strides(self) -> tuple[Tile, ...]:
        itemsize = self._data.itemsize
        for stride in self._data.strides:
            if stride % itemsize:
                raise TileTypeError("Array strides must be whole numbers of elements")
        return tuple(self._index_scalar(s // itemsize) for s in self._data.strides)

    def _index_scalar(self, value: int) -> Tile:
        return Tile(constant_values(value, self._index_dtype), self._index_dtype)

    def __repr__(self) -> str:
        return f"<array[{self._dtype}, {self._data.shape}]>"

    def view(self, view: View) -> Array:
        """The same elements through a view (a slice or a transposition)."""
        track = self._track.derive(view) if self._track is not None else None
        return Array(view.apply(self._data), self._dtype, self._index_dtype, track)

    def slice(self, axis, start, stop) -> Array:
        """A view restricted to `start <= i < stop` along `axis` (cuda.tile.Array.slice)."""
        axis = normalize_axis(axis, self.ndim)
        for name, bound in (("start", start), ("stop", stop)):
            if is_loose(bound) and bound < 0:
                raise TileTypeError(f"Slice {name} must be non-negative")
        if is_loose(start) and is_loose(stop) and stop < start:
            raise TileTypeError("Slice stop must be greater than or equal to start")
        lo = scalar_int(start, "Slice start")
        hi = scalar_int(stop, "Slice stop")
        size = self._data.shape[axis]
        # The documented contract: 0 <= start < N and start <= stop <= N.
        if not (0 <= lo < size and lo <= hi <= size):
            raise UndefinedBehaviorError(
                f"Array.slice(axis={axis}, start={lo}, stop={hi}) on an axis of size {size} "
                "breaks the contract 0 <= start < size, start <= stop <= size"
            )
        index = (slice(None),) * axis + (slice(lo, hi),)
        return self.view(View("index", index))

    # -- element access used by load/store/gather/scatter ----------------------------------
    def read(self, region) -> np.ndarray:
        if self._track is not None:
            self._track.read(region)
        return np.array(self._data[region])

    def write(self, region, values: np.ndarray) -> None:
        if self._track is not None:
            self._track.write(region)
        self._data[region] = values

    def update_atomically(self, region) -> None:
        if self._track is not None:
            self._track.update_atomically(region)


def require_array(value, what: str = "array") -> Array:
    if not isinstance(value, Array):
        raise TileTypeError(f"Expected an array for `{what}`, got {type(value).__name__}")
    return value
