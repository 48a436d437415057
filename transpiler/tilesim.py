"""Moved to basic2tile-runtime: `transpiler.tilesim` is `basic2tile_runtime.tilesim`.

The CPU tile simulator is part of the runtime generated programs import without the
compiler; this name and its modules' names stay for the compiler's imports (`_moved.py`).
"""

from ._moved import alias

alias(__name__, "basic2tile_runtime.tilesim")
