"""Moved to `basic2tile_runtime.extended` (also exported by `basic2tile_runtime`)."""

from .extended import INTEGER_OVERFLOW, MAX, MIN, MOD, to_integer

__all__ = ["INTEGER_OVERFLOW", "MAX", "MIN", "MOD", "to_integer"]
