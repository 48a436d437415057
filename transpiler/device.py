"""Moved to basic2tile-runtime: `transpiler.device` is `basic2tile_runtime.device`.

Where generated programs run their kernels (the GPU, or the CPU tile simulator) is part of
the runtime they import without the compiler; this name stays for the compiler's imports
and for modules generated before the move (`_moved.py`).
"""

from ._identity import require_basic2tile

require_basic2tile()  # modules generated before the move import this: a plain message if foreign

from ._moved import alias  # noqa: E402

alias(__name__, "basic2tile_runtime.device")
