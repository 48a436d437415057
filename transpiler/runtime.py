"""Moved to basic2tile-runtime: `transpiler.runtime` is `basic2tile_runtime`.

The BASIC runtime shared by the reference interpreter and generated programs is the
distribution generated programs import without the compiler (runtime/ in this repository).
This name and its modules' names (`transpiler.runtime.console`...) stay for the compiler's
own imports and for modules generated before the move (`_moved.py`).
"""

from ._identity import require_basic2tile

require_basic2tile()  # modules generated before the move import this: a plain message if foreign

from ._moved import alias  # noqa: E402

alias(__name__, "basic2tile_runtime")
