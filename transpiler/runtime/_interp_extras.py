"""Moved to `transpiler.runtime.extended` (also exported by `transpiler.runtime`)."""

from .extended import INTEGER_OVERFLOW, MAX, MIN, MOD, to_integer

__all__ = ["INTEGER_OVERFLOW", "MAX", "MIN", "MOD", "to_integer"]
