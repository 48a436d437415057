"""`@tilesim.kernel` and `@tilesim.function` for kernels written against the simulator itself.

Generated modules use the real `@ct.kernel`; `tilesim.launch` accepts those objects
directly.  These decorators exist so that the simulator's namespace is complete and a
kernel can be written and run without cuTile's decorator.
"""

from __future__ import annotations

import types

from cuda.tile._annotated_function import get_annotated_function


class SimKernel:
    """A kernel for `tilesim.launch`; like `ct.kernel`, it cannot be called directly."""

    def __init__(self, function: types.FunctionType, options: dict):
        if not isinstance(function, types.FunctionType):
            raise TypeError("`kernel` decorator must be applied to a Python function")
        self._function = function
        self._annotated_function = get_annotated_function(function)
        self.options = options

    @property
    def _pyfunc(self) -> types.FunctionType:
        return self._function

    def __call__(self, *args, **kwargs):
        raise TypeError("Tile kernels cannot be called directly; use tilesim.launch()")


def kernel(function=None, /, **options):
    """Decorate a tile kernel (options such as `num_ctas` are accepted and ignored)."""
    if function is None:
        return lambda f: SimKernel(f, options)
    return SimKernel(function, options)


def function(func=None, /, *, host=False, tile=True):
    """Mark a tile function; in the simulator it is an ordinary Python function."""
    if func is None:
        return lambda f: f
    return func
