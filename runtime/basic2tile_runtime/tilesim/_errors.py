"""Errors raised by the simulator.

What the real cuTile compiler rejects is raised as cuTile's own exception classes, so a test
can expect `ct.TileTypeError` whether a kernel was compiled or simulated.  What compiles but
is undefined on the GPU (a tile wholly outside its array, a data race between blocks,
integer division by zero) is an `UndefinedBehaviorError`: the GPU would not report it, the
simulator must.
"""

from __future__ import annotations

from cuda.tile import (
    TileError,
    TileSyntaxError,
    TileTypeError,
    TileUnsupportedFeatureError,
    TileValueError,
)

__all__ = [
    "DataRaceError",
    "NotSimulatedError",
    "TileError",
    "TileSyntaxError",
    "TileTypeError",
    "TileUnsupportedFeatureError",
    "TileValueError",
    "UndefinedBehaviorError",
]


class UndefinedBehaviorError(TileError):
    """The kernel compiles, but this execution has no defined result on a GPU."""


class DataRaceError(UndefinedBehaviorError):
    """Two blocks touch the same array element and at least one of them writes it."""


class NotSimulatedError(TileUnsupportedFeatureError):
    """Valid cuTile that this simulator does not model (a rounding mode, an fp8 dtype, ...)."""


class NotBatchable(Exception):
    """Internal: this kernel cannot run with all blocks batched; run it block by block.

    Deliberately not a `TileError`: it never reaches the caller, `launch` falls back instead.
    """
