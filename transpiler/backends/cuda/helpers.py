"""The helper functions generated kernels call (templates/cuda/helpers.cu.jinja).

Kernels record what they use (`KernelLowering.use_helper`); a program carries only those
helpers and the ones they depend on.
"""

from __future__ import annotations

from ..render import render

_DEPENDS = {
    "b2t_floordiv": ("b2t_int_min",),
    "b2t_truncdiv": ("b2t_int_min",),
    "b2t_cdiv": ("b2t_int_min",),
    "b2t_mod": ("b2t_int_min",),
    "b2t_rem": ("b2t_int_min",),
    "b2t_block_sum": ("b2t_block_reduce",),
    "b2t_block_prod": ("b2t_block_reduce",),
    "b2t_block_max": ("b2t_block_reduce",),
    "b2t_block_min": ("b2t_block_reduce",),
}
# How each block reduction combines two partial results (generic over the element type).
_COMBINE = {"sum": "a + b", "prod": "a * b", "max": "max(a, b)", "min": "min(a, b)"}


def helpers_text(used: set[str]) -> str:
    """The C++ definitions of the helpers in `used` (and what they need), or ""."""
    names = set(used)
    for name in used:
        names.update(_DEPENDS.get(name, ()))
    reductions = [(op, _COMBINE[op]) for op in _COMBINE if f"b2t_block_{op}" in names]
    return render("cuda/helpers.cu.jinja", helpers=names, block_reductions=reductions)
