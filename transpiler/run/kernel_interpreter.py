"""Reference semantics of cuTile BASIC kernel programs, straight from the AST.

This interpreter is deliberately independent of the kernel IR and the backends: it
walks the BASIC statements block by block with NumPy, so comparing its results with
the generated kernels (on the CPU through tilesim, or on a GPU) checks the whole
translation, not just the last step.

Semantics (see also passes/kernel/kernel_dialect.py and docs/semantics.md):
- the grid has one block per tile of the first OUTPUT array (flattened, unless BID(1)
  or BID(2) is used);
- `A(I, J)` is tile (I, J) of A under A's TILE shape; elements outside A read as 0 and
  are never written;
- integers stay integers under + - * MOD and INT(a / b); `/` and `^` give floats; INT
  truncates toward zero to a 32-bit integer, as NVIDIA documents it (beyond the range it
  saturates, NaN gives 0, as the GPU's conversion does); arithmetic on float arrays
  happens in their element type;
- `a MOD b` is the remainder of the division truncated toward zero: it has the sign of a
  (NVIDIA's remf/remi, C's fmod): -7 MOD 3 = -1;
- a comparison gives a truth value, which is the integer 1 or 0 where it is used as a
  number (`1 < 2 < 3` compares 1 with 3);
- I32 arithmetic wraps around (two's complement): 2147483647 + 1 is -2147483648;
- MMA(a, b, acc) = a @ b + acc computed in the accumulator's type (f32 for f16/bf16
  inputs, f64 for f64);
- MAX(T) and MIN(T) of a tile skip NaN elements, as cuTile's max/min do (a tile of NaN
  only gives -INF or INF).
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import TextIO

import numpy as np

from ..errors import BasicRuntimeError, BasicSemanticError, at
from ..ir import ast
from ..language.builtins import BUILTINS
from ..passes.kernel.kernel_dialect import MAX_WHILE_PASSES, KArray, KernelProgram
from ..passes.kernel.nesting import ForBlock, IfChain, Nested, WhileBlock

NP_TYPES = {
    "f16": np.float16,
    "bf16": np.float32,  # bf16 data is held as f32 on the host (see docs/kernel-programs.md)
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
}


def extent_value(expr: ast.Expr, scalars: dict[str, int | float]) -> float:
    """The value of a DIM size expression, given the INPUT scalars (not yet an int)."""
    return float(_Block(None, scalars, {}, {}).eval(expr))


def _sign(x):
    """SGN: 1, 0 or -1, and 0 for NaN (NVIDIA's select of two ordered comparisons)."""
    return np.sign(np.nan_to_num(x, nan=0.0)) if np.asarray(x).dtype.kind == "f" else np.sign(x)


# The NumPy implementation of each built-in a kernel program may call (by BASIC name:
# this reference stays independent of the kernel IR; `tests/test_builtins_table.py`
# checks it against the table's `kernel_program` entries).
ELEMENTWISE = {
    "ABS": np.abs,
    "ATN": np.arctan,
    "COS": np.cos,
    "COSH": np.cosh,
    "EXP": np.exp,
    "LOG": np.log,
    "SGN": _sign,
    "SIN": np.sin,
    "SINH": np.sinh,
    "SQR": np.sqrt,
    "TAN": np.tan,
    "TANH": np.tanh,
}
REDUCTIONS = {"SUM": np.sum, "MAX": np.max, "MIN": np.min}
# MAX(a, b), MIN(a, b): the comparison by which b wins (ties keep a).
PAIRWISE = {"MAX": np.greater, "MIN": np.less}


def evaluate_extent(expr: ast.Expr, scalars: dict[str, int | float]) -> int:
    """The number of elements of a DIM size expression, given the INPUT scalars."""
    return int(extent_value(expr, scalars))


def array_shapes(kp: KernelProgram, scalars: dict[str, int | float]) -> dict[str, tuple[int, ...]]:
    return {name: tuple(evaluate_extent(e, scalars) for e in a.extents) for name, a in kp.arrays.items()}


def run_kernel_program(
    kp: KernelProgram,
    scalars: dict[str, int | float],
    arrays: dict[str, np.ndarray],
    out: TextIO | None = None,
) -> dict[str, np.ndarray]:
    """Run the program on the given INPUT values; returns the OUTPUT arrays.

    `arrays` holds the INPUT arrays; OUTPUT and scratch arrays start as zeros.  PRINT
    writes to `out` (standard output by default), block after block.
    """
    shapes = array_shapes(kp, scalars)
    memory: dict[str, np.ndarray] = {}
    for name, array in kp.arrays.items():
        dtype = NP_TYPES[array.dtype]
        if array.is_input:
            data = np.array(arrays[name], dtype=dtype, copy=True)
            if data.shape != shapes[name]:
                raise BasicRuntimeError(f"{name} has shape {data.shape}, DIM says {shapes[name]}", array.coord)
            memory[name] = data
        else:
            memory[name] = np.zeros(shapes[name], dtype=dtype)
    typed = {n: (int(v) if kp.scalars[n].dtype in ("i32", "i64") else NP_TYPES[kp.scalars[n].dtype](v)) for n, v in scalars.items()}
    # NaN and infinities are results like any other (the zero padding of an edge tile
    # meets LOG, 1/X...): NumPy must not warn about them on stderr.
    with np.errstate(all="ignore"):
        for bid in _grid(kp, shapes):
            _Block(kp, typed, memory, {"BID": bid}, out or sys.stdout).run(kp.body)
    return {name: memory[name] for name in kp.outputs}


def _grid(kp: KernelProgram, shapes: dict[str, tuple[int, ...]]):
    out = kp.arrays[kp.outputs[0]]
    tile = out.tile or (1,) * out.rank
    counts = [-(-n // t) for n, t in zip(shapes[out.name], tile)]
    if kp.grid_rank == 1:
        total = math.prod(counts)
        return ((b, 0, 0) for b in range(total))
    counts += [1] * (3 - len(counts))
    return (tuple(b) + (0,) * (3 - len(b)) for b in itertools.product(*(range(c) for c in counts[: kp.grid_rank])))


class _Block:
    """One block's execution: its scalars, tiles and the shared global arrays."""

    def __init__(self, kp, scalars, memory, bid, out=None):
        self.kp = kp
        self.out = out
        self.vars: dict[str, object] = dict(scalars)
        for name in kp.zero_vars if kp else ():  # first assigned in a block: 0 before
            self.vars[name] = self._as_float(0) if name in kp.float_vars else 0
        self.memory = memory
        self.bid = bid.get("BID", (0, 0, 0))

    # ------------------------------------------------------------------ statements

    def run(self, nodes: list[Nested]) -> None:
        for node in nodes:
            self.statement(node)

    def statement(self, node: Nested) -> None:
        if isinstance(node, ForBlock):
            head = node.head
            start, limit = int(self.eval(head.start)), int(self.eval(head.limit))
            step = int(self.eval(head.step)) if head.step is not None else 1
            value = start
            while (value <= limit) if step > 0 else (value >= limit):
                self.vars[head.var.name] = value
                self.run(node.body)
                value += step
            return
        if isinstance(node, WhileBlock):
            for _ in range(MAX_WHILE_PASSES):
                if not self.truth(node.head.condition):
                    return
                self.run(node.body)
            return
        if isinstance(node, IfChain):
            for arm in node.arms:
                if self.truth(arm.condition):
                    self.run(arm.body)
                    return
            if node.else_body:
                self.run(node.else_body)
            return
        if isinstance(node, ast.Let):
            with at(node.coord):
                self.let(node)
        elif isinstance(node, ast.Print):
            with at(node.coord):
                self.print(node)

    def print(self, stmt: ast.Print) -> None:
        """NVIDIA's device print: items side by side, an integer as C's %d, a float as
        %f (six decimals), a newline unless a separator ends the list."""
        text = []
        for item in stmt.items:
            if isinstance(item, ast.Str):
                text.append(item.value)
            elif isinstance(item, ast.Expr):
                value = _as_number(self.eval(item))
                text.append("%d" % value if _is_integer(value) else "%f" % value)
        if not stmt.items or not isinstance(stmt.items[-1], ast.PrintSep):
            text.append("\n")
        self.out.write("".join(text))

    def truth(self, expr: ast.Expr) -> bool:
        value = self.eval(expr)
        if np.ndim(value) != 0:
            raise BasicSemanticError("a condition must be a scalar", expr.coord)
        return bool(value)

    def let(self, stmt: ast.Let) -> None:
        value = self.eval(stmt.value)
        target = stmt.target
        if isinstance(target, ast.Index):
            array = self.kp.arrays[target.name]
            index = [int(self.eval(i)) for i in target.indices]
            self.store(array, index, value)
            return
        name = target.name
        if name in self.kp.tile_vars:
            shape = self.kp.tile_vars[name]
            if np.ndim(value) and np.shape(value) != shape and np.size(value) == np.prod(shape):
                value = np.reshape(value, shape)
            dtype = self.vars[name].dtype if name in self.vars else (np.float64 if self.kp.dtype == "f64" else np.float32)
            value = np.broadcast_to(np.asarray(value, dtype=dtype), shape).copy()
        elif name.endswith("%"):
            value = _to_i32(_as_number(value))  # truncated toward zero, as NVIDIA's ftoi
        elif name in self.kp.float_vars:
            # A float from its first assignment on (kernel_types.py); later assignments
            # keep the first one's float type.
            previous = self.vars.get(name)
            value = _as_number(value)
            if isinstance(previous, (np.floating, np.ndarray)) and previous.dtype.kind == "f":
                value = np.asarray(value).astype(previous.dtype)[()]
            elif _is_integer(value):
                value = self._as_float(value)
        self.vars[name] = value

    # ------------------------------------------------------------------ memory

    def _region(self, array: KArray, index: list[int]):
        data = self.memory[array.name]
        tile = array.tile or (1,) * array.rank
        if len(index) != array.rank:
            raise BasicSemanticError(f"{array.name} needs {array.rank} indices")
        lo = [i * t for i, t in zip(index, tile)]
        hi = [min(lo_ + t, n) for lo_, t, n in zip(lo, tile, data.shape)]
        return data, tile, lo, hi

    def load(self, array: KArray, index: list[int]):
        data, tile, lo, hi = self._region(array, index)
        if not (all(l < h for l, h in zip(lo, hi)) and all(i >= 0 for i in index)):
            # cuTile leaves a load entirely outside the array undefined: report it.
            where = ", ".join(map(str, index))
            raise BasicRuntimeError(
                f"tile ({where}) of {array.name} lies entirely outside the array "
                f"(shape {data.shape}); check the grid and the tile indices"
            )
        out = np.zeros(tile, dtype=data.dtype)
        out[tuple(slice(0, h - l) for l, h in zip(lo, hi))] = data[tuple(slice(l, h) for l, h in zip(lo, hi))]
        return out if array.tile else out.reshape(())[()]

    def store(self, array: KArray, index: list[int], value) -> None:
        data, tile, lo, hi = self._region(array, index)
        value = np.asarray(value)
        if value.ndim and value.shape != tuple(tile) and value.size == np.prod(tile):
            value = value.reshape(tile)  # SUM(T, 1) of a (16, 64) tile fills a TILE of 16
        value = np.broadcast_to(value, tile).astype(data.dtype)
        if all(l < h for l, h in zip(lo, hi)) and all(i >= 0 for i in index):
            data[tuple(slice(l, h) for l, h in zip(lo, hi))] = value[tuple(slice(0, h - l) for l, h in zip(lo, hi))]

    # ------------------------------------------------------------------ expressions

    def eval(self, e: ast.Expr):
        if isinstance(e, ast.Num):
            if e.value == int(e.value) and e.text.isdigit():
                return int(e.value)
            return float(e.value) if self.kp is None else NP_TYPES[self.kp.dtype](e.value)
        if isinstance(e, ast.Bid):
            return int(self.bid[e.axis])
        if isinstance(e, ast.Var):
            if e.name not in self.vars:
                raise BasicSemanticError(f"{e.name} is used before it is assigned", e.coord)
            return self.vars[e.name]
        if isinstance(e, ast.Index):
            return self.load(self.kp.arrays[e.name], [int(self.eval(i)) for i in e.indices])
        if isinstance(e, ast.UnaryOp):
            v = self.eval(e.operand)
            return {"-": lambda: _wrapped(-v), "+": lambda: v, "NOT": lambda: np.logical_not(v)}[e.op]()
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        raise BasicSemanticError(f"{type(e).__name__} is not supported in a kernel", e.coord)

    def _float_type(self):
        return np.float64 if self.kp is None or self.kp.dtype == "f64" else NP_TYPES[self.kp.dtype]

    def _as_float(self, value):
        """An integer (Python int or int32 array) in the program's float type."""
        ftype = self._float_type()
        return value.astype(ftype) if isinstance(value, np.ndarray) else ftype(value)

    def binop(self, e: ast.BinOp):
        a, b = self.eval(e.left), self.eval(e.right)
        if e.op not in ("AND", "OR"):
            a, b = _as_number(a), _as_number(b)
        both_int = _is_integer(a) and _is_integer(b)
        op = e.op
        if op == "+":
            return _wrapped(a + b)
        if op == "-":
            return _wrapped(a - b)
        if op == "*":
            return _wrapped(a * b)
        if op == "/":
            if both_int:
                return self._as_float(a) / self._as_float(b)
            return a / b
        if op == "^":
            if both_int:
                return self._as_float(a) ** self._as_float(b)
            return a**b
        if op == "MOD":
            return _remainder(a, b, e)
        if op in ("=", "<>", "<", "<=", ">", ">="):
            return {"=": np.equal, "<>": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}[op](a, b)
        if op == "AND":
            return np.logical_and(a, b)
        if op == "OR":
            return np.logical_or(a, b)
        raise BasicSemanticError(f"operator {op} is not supported in a kernel", e.coord)

    def call(self, e: ast.Call):
        name, args = e.name, e.args
        builtin = BUILTINS.get(name)
        form = builtin.kernel_program if builtin is not None else None
        if form == "to_int":
            inner = args[0]
            if isinstance(inner, ast.BinOp) and inner.op == "/":
                a, b = _as_number(self.eval(inner.left)), _as_number(self.eval(inner.right))
                if _is_integer(a) and _is_integer(b):
                    return _truncated_quotient(a, b, e)
            return _to_i32(_as_number(self.eval(inner)))
        if form == "mma":
            a, b, acc = (self.eval(x) for x in args)
            acc_type = np.float64 if np.float64 in (a.dtype, b.dtype) else np.float32
            return (a.astype(acc_type) @ b.astype(acc_type) + acc.astype(acc_type)).astype(acc_type)
        if form == "reduce":
            x = self.eval(args[0])
            axis_given = len(args) == 2 and isinstance(args[1], ast.Num) and args[1].text.isdigit()
            if np.ndim(x) > 0 and (len(args) == 1 or axis_given):
                axis = int(args[1].value) if axis_given else None
                if name != "SUM" and x.dtype.kind == "f":
                    # cuTile's max/min (and CUDA's fmax) skip NaN; from -inf/+inf
                    x = np.where(np.isnan(x), -np.inf if name == "MAX" else np.inf, x)
                return REDUCTIONS[name](x, axis=axis, keepdims=axis is not None).astype(x.dtype)
            if name not in PAIRWISE or len(args) != 2:
                raise BasicSemanticError(
                    f"{name} needs a tile (and optionally an axis number)", e.coord
                )
            y = _as_number(self.eval(args[1]))
            x = _as_number(x)
            # b if it is larger (smaller) or a is NaN, else a: ties keep the first operand
            if isinstance(x, int) and isinstance(y, int):
                return max(x, y) if name == "MAX" else min(x, y)
            better = PAIRWISE[name](y, x)
            if not _is_integer(x):
                better = better | np.isnan(x)
            picked = np.where(better, y, x)
            return picked[()] if np.ndim(picked) == 0 else picked
        if form == "elementwise":
            v = _as_number(self.eval(args[0]))
            if isinstance(v, int) and builtin.keeps_kind:
                return _wrapped(abs(v)) if name == "ABS" else (v > 0) - (v < 0)  # I32 stays I32
            if isinstance(v, int):
                v = self._float_type()(v)
            return ELEMENTWISE[name](v)
        raise BasicSemanticError(f"{name} is not supported in a kernel", e.coord)


def _remainder(a, b, e: ast.BinOp):
    """`a MOD b`: the remainder of the division truncated toward zero, with the sign of a
    (NVIDIA's remf/remi, C's fmod and %).  An integer divisor of 0 is an error here: the
    GPU's result is undefined."""
    if _is_integer(a) and _is_integer(b):
        if np.any(np.asarray(b) == 0):
            raise BasicRuntimeError("integer MOD by zero (undefined on the GPU)", e.coord)
        if isinstance(a, int) and isinstance(b, int):
            r = abs(a) % abs(b)
            return -r if a < 0 else r
    return np.fmod(a, b)


def _truncated_quotient(a, b, e: ast.Call):
    """INT(a / b) of integers: the quotient truncated toward zero (C's /)."""
    if np.any(np.asarray(b) == 0):
        raise BasicRuntimeError("integer division by zero in INT (undefined on the GPU)", e.coord)
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) == (b < 0), q, -q).astype(np.int32)


_I32_LOW, _I32_HIGH = -(2**31), 2**31 - 1


def _to_i32(value):
    """INT(x): x truncated toward zero to a 32-bit integer, as the GPU converts (cuTile's
    astype, NVIDIA's ftoi): values beyond the range saturate, NaN gives 0."""
    if isinstance(value, int):
        return value
    if np.ndim(value) == 0:
        x = float(value)
        if math.isnan(x):
            return 0
        return int(min(max(math.trunc(x), _I32_LOW), _I32_HIGH)) if math.isfinite(x) else (
            _I32_HIGH if x > 0 else _I32_LOW
        )
    x = np.asarray(value, np.float64)
    if x.dtype.kind in "iu":
        return value
    out = np.clip(np.trunc(np.nan_to_num(x, nan=0.0)), _I32_LOW, _I32_HIGH)
    return out.astype(np.int32)


def _is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) or (
        isinstance(value, np.ndarray) and value.dtype.kind in "iu"
    )


def _wrapped(value):
    """A Python integer result wrapped around to an I32, as the GPU's i32 arithmetic does
    (NumPy's int32 values wrap by themselves)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value + 2**31) % 2**32 - 2**31
    return value


def _as_number(value):
    """A truth value used as a number (in arithmetic, or compared with a number) is 1 or
    0, an integer; NumPy would add booleans as a logical OR."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, np.ndarray) and value.dtype == np.bool_:
        return value.astype(np.int32)
    return value
