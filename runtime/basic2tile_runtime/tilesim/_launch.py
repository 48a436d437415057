"""Running a kernel on the CPU: `launch`, `bid`, `num_blocks`, and re-binding `ct`.

`launch` takes the object made by the real `@cuda.tile.kernel` decorator (or a plain
function), copies its Python function with module globals in which `cuda.tile` (under any
alias) and the names imported from it point to this simulator, and calls it once per block.
Arguments are converted the way `cuda.tile.launch` types them: Python ints become int32
scalars (int64 under `ct.ScalarInt64`), floats float32, bools bool; `ct.Constant`
parameters stay Python values; NumPy arrays (or anything with `__array_interface__` or
`__dlpack__`, such as a torch CPU tensor) become `Array`s that write through to the caller's
memory.

By default `launch` runs the blocks batched (`_batch.py`): one call of the kernel body per
batch of up to 65536 blocks, falling back to one call per block, with the same results and
errors, when a kernel needs it (blocks taking different branches, atomics, printing, an
error, blocks sharing elements).  `batched=False`, or the environment variable
`TILESIM_BATCHED=0`, always runs block by block.
"""

from __future__ import annotations

import builtins
import math
import os
import sys
import threading
import traceback
import types
from dataclasses import dataclass

import cuda
import cuda.tile as ct
import numpy as np
from cuda.tile._annotated_function import (
    HeterogeneousTupleNode,
    HomogeneousTupleNode,
    LeafAnnotationNode,
    get_annotated_function,
)
from cuda.tile._exception import FunctionDesc, Loc

from . import _batch
from . import _dtypes as dt
from ._array import Array
from ._constants import require_constant_int
from ._elementwise import binary, constant_values, unary
from ._errors import NotBatchable, TileError, TileTypeError, TileValueError
from ._races import LaunchLog, arrays_overlap, track_arguments
from ._tile import Tile, is_loose

_MAX_GRID = (2**31 - 1, 65535, 65535)  # CUDA's grid limits
_state = threading.local()


# ----------------------------------------------------------------------------------------------
# Block indices


def _current_block() -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    block = getattr(_state, "block", None)
    if block is None:
        raise RuntimeError("tilesim: bid()/num_blocks() called outside tilesim.launch")
    return block, _state.grid


def bid(axis) -> Tile:
    """The index of the running block along `axis` (0, 1 or 2), an int32 scalar."""
    axis = require_constant_int(axis, "axis")
    if axis not in (0, 1, 2):
        raise TileTypeError(f"Axis must be 0, 1, or 2, but {axis} was given.")
    run = _batch.current()
    if run is not None:
        return run.bids[axis]
    block, _ = _current_block()
    return Tile(np.asarray(block[axis], dtype=np.int32), dt.int32)


def num_blocks(axis) -> Tile:
    """The grid size along `axis` (0, 1 or 2), an int32 scalar."""
    axis = require_constant_int(axis, "axis")
    if axis not in (0, 1, 2):
        raise TileTypeError(f"Axis must be 0, 1, or 2, but {axis} was given.")
    run = _batch.current()
    grid = run.grid if run is not None else _current_block()[1]
    return Tile(np.asarray(grid[axis], dtype=np.int32), dt.int32)


# ----------------------------------------------------------------------------------------------
# Builtins that cuTile gives tile meanings (range yields int32 scalars; min/max are element-wise)


class TileRange:
    """`range` in tile code: the induction variable is a typed integer scalar (core_ops.py)."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TileTypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        # Bounds, step and the induction variable share one type, at least int32.
        dtype = dt.int32
        values = []
        for a in args:
            if isinstance(a, Tile):
                if a.ndim or not a.dtype.is_integral or not a.dtype.signed:
                    raise TileTypeError(f"range() expects signed integer scalars, got {a!r}")
                dtype = dt.promote(dtype, a.dtype)
                values.append(int(a._values))
            elif type(a) is int:
                dtype = dt.promote(dtype, dt.dtype_of_constant(a))
                values.append(a)
            else:
                raise TileTypeError(f"range() expects signed integer scalars, got {a!r}")
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (*values, 1)[:3]
        if step <= 0:
            raise TileTypeError(f"Step must be positive, got {step}")
        self.python_range = builtins.range(start, stop, step)
        self.dtype = dtype

    def __iter__(self):
        dtype = self.dtype
        for i in self.python_range:
            yield Tile(constant_values(i, dtype), dtype)


def _min(*args, **kwargs):
    if len(args) == 2 and not kwargs and any(isinstance(a, Tile) for a in args):
        return binary("min", *args)
    return builtins.min(*args, **kwargs)


def _max(*args, **kwargs):
    if len(args) == 2 and not kwargs and any(isinstance(a, Tile) for a in args):
        return binary("max", *args)
    return builtins.max(*args, **kwargs)


def _abs(x):
    return unary("abs", x) if isinstance(x, Tile) else builtins.abs(x)


def _print(*args, **kwargs):
    # Each block prints in turn: a batch would print once for all of them.
    if _batch.current() is not None:
        raise NotBatchable("each block prints in turn")
    builtins.print(*args, **kwargs)


_BUILTIN_OVERRIDES = {"range": TileRange, "min": _min, "max": _max, "abs": _abs, "print": _print}


# ----------------------------------------------------------------------------------------------
# Re-binding the kernel's module to the simulator


class _CudaPackageProxy(types.ModuleType):
    """Stands in for the `cuda` package in `import cuda.tile` style modules."""

    def __init__(self, sim_module):
        super().__init__("cuda")
        self.tile = sim_module

    def __getattr__(self, name):
        return getattr(cuda, name)


def _sim_namespace():
    return sys.modules[__package__]


def _replacement_table() -> dict[int, object]:
    sim = _sim_namespace()
    table = {id(ct): sim, id(cuda): _CudaPackageProxy(sim)}
    for name in dir(ct):
        if name.startswith("_"):
            continue
        original = getattr(ct, name)
        if hasattr(sim, name) and not isinstance(original, (int, str)):
            table[id(original)] = getattr(sim, name)
    return table


def _python_function(kernel) -> types.FunctionType:
    if isinstance(kernel, types.FunctionType):
        return kernel
    pyfunc = getattr(kernel, "_pyfunc", None)
    if isinstance(pyfunc, types.FunctionType):
        return pyfunc
    raise TypeError(f"Expected a @ct.kernel object or a Python function, got {kernel!r}")


def rebind(pyfunc: types.FunctionType) -> types.FunctionType:
    """A copy of `pyfunc` whose `ct` is the simulator, with copies of the functions of its
    module that it calls (directly or through each other) sharing its new globals.  Only
    the global names their code uses are looked up and copied: a module can hold
    thousands of kernels (one per loop of a long BASIC program), and copying all of its
    globals and functions at each launch made running them quadratic."""
    original_globals = pyfunc.__globals__
    table = _replacement_table()
    new_globals = {
        name: original_globals[name] for name in _MODULE_NAMES if name in original_globals
    }
    copies: list[tuple[str, types.FunctionType]] = []
    pending = [pyfunc]
    while pending:
        for name in _global_names(pending.pop().__code__):
            if name in new_globals or name not in original_globals:
                continue
            value = original_globals[name]
            replacement = table.get(id(value))
            if replacement is not None:
                new_globals[name] = replacement
                continue
            new_globals[name] = value
            inner = getattr(value, "__wrapped__", None) if _is_tile_function(value) else value
            if isinstance(inner, types.FunctionType) and inner.__globals__ is original_globals:
                copies.append((name, inner))
                pending.append(inner)
    for name, function in copies:
        new_globals[name] = _copy_function(function, new_globals)
    for name, override in _BUILTIN_OVERRIDES.items():
        new_globals.setdefault(name, override)
    return _copy_function(pyfunc, new_globals)


_MODULE_NAMES = ("__name__", "__builtins__", "__file__", "__package__", "__spec__")


def _global_names(code: types.CodeType) -> set[str]:
    """The names `code` and the code nested in it (comprehensions, lambdas) may look up
    as globals."""
    names: set[str] = set()
    work = [code]
    while work:
        current = work.pop()
        names.update(current.co_names)
        work.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return names


def _is_tile_function(value) -> bool:
    return getattr(value, "_cutile_function_wrapper", False) is True


def _copy_function(function: types.FunctionType, new_globals: dict) -> types.FunctionType:
    copy = types.FunctionType(
        function.__code__,
        new_globals,
        function.__name__,
        function.__defaults__,
        function.__closure__,
    )
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    copy.__module__ = function.__module__
    return copy


# ----------------------------------------------------------------------------------------------
# Arguments


@dataclass
class _ArgumentConverter:
    pending_arrays: list

    def convert(self, name: str, value, annotation):
        if isinstance(annotation, HomogeneousTupleNode):
            if not isinstance(value, tuple):
                raise TypeError(f"Kernel argument '{name}' must be a tuple")
            return tuple(
                self.convert(f"{name}[{i}]", v, annotation.each) for i, v in enumerate(value)
            )
        if isinstance(annotation, HeterogeneousTupleNode):
            if not isinstance(value, tuple) or len(value) != len(annotation.items):
                raise TypeError(f"Kernel argument '{name}' must be a {len(annotation.items)}-tuple")
            return tuple(
                self.convert(f"{name}[{i}]", v, a)
                for i, (v, a) in enumerate(zip(value, annotation.items))
            )
        leaf = annotation if isinstance(annotation, LeafAnnotationNode) else None
        if leaf is not None and leaf.constant:
            return _constant_argument(name, value)
        if isinstance(value, tuple):
            return tuple(self.convert(f"{name}[{i}]", v, None) for i, v in enumerate(value))
        if type(value) is bool:
            return Tile(np.asarray(value), dt.bool_)
        if type(value) is int:
            dtype = dt.int32
            if leaf is not None and leaf.scalar is not None:
                dtype = dt.as_dtype(leaf.scalar.dtype)
            low, high = dt.integer_range(dtype)
            if not low <= value <= high:
                raise TileValueError(f"Kernel argument '{name}'={value} does not fit in {dtype}")
            return Tile(np.asarray(value, dtype=dtype.storage), dtype)
        if type(value) is float:
            # cuda.tile.launch passes Python floats as float32 scalars.
            return Tile(np.asarray(value, dtype=np.float32), dt.float32)
        if isinstance(value, np.generic):
            raise TypeError(
                f"Kernel argument '{name}' is a NumPy scalar ({type(value).__name__}); "
                "NumPy scalars are not accepted by cuda.tile.launch either"
            )
        data = _host_array(value)
        if data is not None:
            index_dtype = dt.int32
            if leaf is not None and leaf.array is not None:
                index_dtype = dt.as_dtype(leaf.array.index_dtype)
            array = Array(data, dt.dtype_of_numpy(data.dtype), index_dtype, None)
            self.pending_arrays.append((name, array))
            return array
        raise TypeError(f"Kernel argument '{name}' has unsupported type {type(value).__name__}")


def _host_array(value) -> np.ndarray | None:
    """A NumPy view of an array argument (never a copy: the kernel's stores must land)."""
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__array_interface__"):
        return np.asarray(value)
    if hasattr(value, "__dlpack__"):  # e.g. torch CPU tensors, without importing torch
        return np.from_dlpack(value)
    return None


def _constant_argument(name: str, value):
    if is_loose(value) or value is None:
        return value
    if isinstance(value, (ct.DType, dt.DType)):
        return dt.as_dtype(value)
    raise TypeError(f"ct.Constant argument '{name}' must be a bool, int, float or dtype")


def _convert_arguments(pyfunc, kernel, args, log: LaunchLog | None):
    """The kernel's arguments, and the `Array`s among them."""
    annotated = getattr(kernel, "_annotated_function", None) or get_annotated_function(pyfunc)
    names = list(annotated.pysig.parameters)
    if len(args) != len(names):
        raise TypeError(f"Kernel {pyfunc.__name__} takes {len(names)} arguments, got {len(args)}")
    converter = _ArgumentConverter([])
    converted = [
        converter.convert(name, value, annotation)
        for name, value, annotation in zip(names, args, annotated.parameter_annotations)
    ]
    if log is not None:
        tracked = track_arguments([(n, a._data) for n, a in converter.pending_arrays], log)
        for _, array in converter.pending_arrays:
            array._track = tracked[id(array._data)]
    return converted, [array for _, array in converter.pending_arrays]


# ----------------------------------------------------------------------------------------------
# Launch


def _normalize_grid(grid) -> tuple[int, int, int]:
    if type(grid) is int:
        grid = (grid,)
    if not isinstance(grid, (tuple, list)) or not 1 <= len(grid) <= 3:
        raise TypeError(f"grid must be a tuple of 1 to 3 positive ints, got {grid!r}")
    for size, limit in zip(grid, _MAX_GRID):
        if type(size) is not int or not 1 <= size <= limit:
            raise ValueError(f"grid {tuple(grid)}: each size must be an int in [1, {limit}]")
    return tuple(grid) + (1,) * (3 - len(grid))


def launch(
    stream, grid, kernel, kernel_args, /, *, check_races: bool = True, batched: bool = True
) -> None:
    """Run `kernel` over `grid` on the CPU.

    `stream` is ignored.  With `check_races` (the default) two blocks touching one array
    element, one of them writing it non-atomically, raise `DataRaceError`.  `batched` runs
    many blocks per call of the kernel body where that gives the block-by-block result.
    """
    grid3 = _normalize_grid(grid)
    pyfunc = _python_function(kernel)
    if not isinstance(kernel_args, tuple):
        raise TypeError("kernel_args must be a tuple")
    body = rebind(pyfunc)
    if batched and os.environ.get("TILESIM_BATCHED", "1") != "0" and math.prod(grid3) > 1:
        args, arrays = _convert_arguments(pyfunc, kernel, kernel_args, None)
        # Block numbers of accesses are kept per element address: aliased arrays of other
        # element sizes would escape that, and race checking refuses aliases anyway.
        if not arrays_overlap([a._data for a in arrays]):
            with np.errstate(all="ignore"):
                if _batch.run_batched(body, args, grid3, arrays):
                    return
    log = LaunchLog(grid3) if check_races else None
    args, _ = _convert_arguments(pyfunc, kernel, kernel_args, log)
    _run_sequential(body, args, grid3, log)


def _run_sequential(body, args, grid3, log: LaunchLog | None) -> None:
    gx, gy, gz = grid3
    previous = getattr(_state, "block", None), getattr(_state, "grid", None)
    _state.grid = grid3
    try:
        with np.errstate(all="ignore"):
            linear = 0
            for z in builtins.range(gz):
                for y in builtins.range(gy):
                    for x in builtins.range(gx):
                        _state.block = (x, y, z)
                        if log is not None:
                            log.block = linear
                        linear += 1
                        try:
                            body(*args)
                        except TileError as error:
                            _locate(error, body.__code__, (x, y, z))
                            raise
    finally:
        _state.block, _state.grid = previous


def _locate(error: TileError, kernel_code, block) -> None:
    """Point the error at the innermost line of kernel-module code, and name the block."""
    if getattr(error, "_tilesim_located", False):
        return
    error._tilesim_located = True
    error.message = f"{error.message} [tilesim, block {block}]"
    if not error.loc.is_unknown():
        return
    frames = traceback.extract_tb(error.__traceback__)
    module_file = kernel_code.co_filename
    for frame in reversed(frames):
        if frame.filename == module_file:
            desc = FunctionDesc(frame.name, frame.filename, frame.lineno, (frame.colno or 0) + 1)
            error.loc = Loc(
                frame.lineno,
                frame.colno or 0,
                frame.filename,
                last_line=frame.end_lineno,
                end_col=frame.end_colno,
                function=desc,
            )
            return
