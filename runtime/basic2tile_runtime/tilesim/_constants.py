"""Checks for arguments cuTile requires to be compile-time constants.

In the simulator every run-time value is a `Tile` and every constant a Python object, so
"is this a constant?" is a type test.  Messages follow cuda/tile/_ir/op_impl.py.
"""

from __future__ import annotations

from collections import Counter

from ._errors import TileTypeError
from ._tile import Tile, check_tile_shape


def require_constant_int(value, what: str) -> int:
    if isinstance(value, Tile):
        raise TileTypeError(f"{what} must be a compile-time constant integer, got a tile")
    if type(value) is not int:
        raise TileTypeError(f"{what} must be a constant integer, got {value!r}")
    return value


def require_constant_bool(value, what: str) -> bool:
    if type(value) is not bool:
        raise TileTypeError(f"{what} must be a constant bool, got {value!r}")
    return value


def require_constant_shape(
    shape,
    *,
    what: str = "shape",
    allow_single_int: bool = False,
    expected_rank: int | None = None,
    allow_0d: bool = False,
) -> tuple[int, ...]:
    if allow_single_int and not isinstance(shape, (tuple, list)):
        shape = (shape,)
    if not isinstance(shape, tuple):
        raise TileTypeError(f"Expected a constant tuple for {what}, got {shape!r}")
    for i, dim in enumerate(shape):
        if isinstance(dim, Tile):
            raise TileTypeError(f"Dimension #{i} of {what} is not a compile-time constant")
    wrong_rank = expected_rank is not None and len(shape) != expected_rank
    if wrong_rank and not (allow_0d and len(shape) == 0):
        raise TileTypeError(f"Expected {what} length to be {expected_rank}, got {len(shape)}")
    return check_tile_shape(shape, what)


def normalize_axis(axis, ndim: int) -> int:
    axis = require_constant_int(axis, "axis")
    normalized = axis + ndim if axis < 0 else axis
    if not 0 <= normalized < ndim:
        raise TileTypeError(f"Axis {axis} is out of range for rank {ndim}")
    return normalized


def require_axis_order(order, rank: int) -> tuple[int, ...]:
    """`order=` of load/store: "C", "F" or a permutation of the array's axes."""
    if order == "C":
        return tuple(range(rank))
    if order == "F":
        return tuple(range(rank - 1, -1, -1))
    if isinstance(order, str):
        raise TileTypeError(f"Expected 'C' or 'F', got '{order}'")
    if not isinstance(order, tuple):
        raise TileTypeError(f"Expected a constant string or integer tuple for order, got {order!r}")
    if len(order) != rank:
        raise TileTypeError(f"Expected tuple of length {rank}, got {len(order)}")
    normalized = tuple(normalize_axis(axis, rank) for axis in order)
    if normalized:
        axis, count = Counter(normalized).most_common(1)[0]
        if count > 1:
            raise TileTypeError(
                f"Axis order must be a permutation, but axis {axis} is used at least twice"
            )
    return normalized
