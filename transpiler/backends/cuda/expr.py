"""Kernel IR expressions as CUDA C++ text, evaluated at one element of a tile.

`ExprPrinter.at(e, index)` prints the value of `e` at element `index` (see cuda_index);
`ExprPrinter.scalar(e)` prints a scalar (shape ()) expression.  Elementwise nodes print
as C++ operators and math functions of their element type; broadcasting and reshaping
only change which element of an operand is read.  Nodes that need other threads'
elements (Reduce, Mma) were computed before the statement by the lowering and are read
from their temporaries; register values read at an element the thread does not hold are
read from a shared-memory copy that the statement makes first (`staged`).

Loads and gathers name their element coordinates in `preludes` (declarations that the
statement emits before its expression), so the expression reads like the BASIC:
`at < 2 + i_count ? t[at] : 0.0`.  In an element loop the preludes are in a block of the
loop's own, so every loop says `at` (`at_row`, `at_col`); elsewhere the name is the array's
(`done_at`), as a gather's is (`t_at`).  Parentheses are emitted only where C++
precedence needs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import BasicUnsupportedError
from ...ir import kernel as ir
from ..kernel_expressions import CPP, KernelExpressions
from . import element_types as T
from .index import Index, add, axis_words, is_simple, mul, paren

ATOM, COND = CPP.atom, 3  # COND: `?:`, the least precedence
AND = CPP.infix["and"][1]


def math_function(op: str, dtype: ir.DType) -> str:
    """The C function computing `op` on `dtype` (f32 or f64) values: sqrtf, sqrt..."""
    return CPP.math[op] + ("" if dtype == "f64" else "f")


@dataclass
class ArrayInfo:
    """A kernel array parameter: its pointer and extent parameter names."""

    name: str
    dtype: ir.DType
    extents: list[str]


@dataclass
class ValueInfo:
    """A value held by the threads: a local (Let) or a temporary made by the lowering.

    storage: "scalar" (one variable, the same in every thread), "regs" (register array
    `name[slot]` in the distributed layout) or "shared" (a shared-memory array indexed by
    the linear element index).  `dtype` is the stored type (it may be the compute type of
    the IR type, e.g. float for an f16 sum).  `definition`: for a local bound once to an
    expression of element indices only (lanes, block ids, parameters), that expression,
    which can be evaluated at any element instead of reading other threads' registers.
    """

    name: str
    type: ir.TileType
    storage: str
    dtype: ir.DType
    definition: ir.KExpr | None = None
    read_in_registers: bool = False


@dataclass
class Statement:
    """What printing one statement's expressions needs around them."""

    preludes: list[str] = field(default_factory=list)
    prelude_names: dict[str, str] = field(default_factory=dict)
    # The preludes go inside a block of their own (an element loop's body), so the names
    # another statement's block declared can be declared again.
    in_block: bool = False
    staged: list[ValueInfo] = field(default_factory=list)  # register values read remapped
    reads_shared: bool = False


class ExprPrinter(KernelExpressions):
    """Prints expressions of one kernel; `scope` resolves names (cuda_kernels.KernelScope)."""

    syntax = CPP

    def __init__(self, scope):
        self.scope = scope
        self.stmt = Statement()
        # Recompute locals from their definitions even where registers hold them (while
        # printing another such definition, so that unread ones can be dropped).
        self.recompute = False
        # The kernel's tile sizes by value -> their constexpr's name (`bid * tile`, not
        # the literal the constexpr names).
        self.tile_names: dict[int, str] = {}
        # A block-scoped prelude's name by the word it wanted: one per kernel, kept free
        # of the kernel's other names (`at` in every element loop, not at_2, at_3...).
        self.block_names: dict[str, str] = {}

    def _tiles(self, block: str, extent: int) -> str:
        """`block` tiles of `extent` elements: the kernel's name of the extent if it has one."""
        if extent in self.tile_names and extent > 1 and block != "0":
            return f"{paren(block)} * {self.tile_names[extent]}"
        return mul(block, extent)

    def begin(self, in_block: bool = False) -> Statement:
        """Start a statement: preludes and staging needs are collected afresh.  `in_block`:
        its preludes will be declared inside a block of their own."""
        self.stmt = Statement(in_block=in_block)
        return self.stmt

    # ------------------------------------------------------------------ entry points

    def scalar(self, e: ir.KExpr) -> str:
        return self.expr(e, None)[0]

    def at(self, e: ir.KExpr, index: Index | None, dtype: ir.DType | None = None) -> str:
        """`e` at `index`, converted to `dtype` if one is given."""
        text = self.expr(e, index)[0]
        return T.convert(text, e.type.dtype, dtype) if dtype else text

    def expr(self, e: ir.KExpr, index: Index | None = None) -> tuple[str, int]:
        """(text, precedence) of `e` at `index` (None for scalars)."""
        if index is not None and not e.type.shape:
            index = None
        elif index is not None and index.shape != e.type.shape:
            index = index.broadcast_from(e.type.shape)
        temp = self.scope.temp_of(e)
        if temp is not None:  # Reduce, Scan and Mma nodes always are (KernelLowering.hoist)
            return self.value(temp, index)
        return super().expr(e, index)

    def operand(self, e: ir.KExpr, index: Index | None, prec: int) -> str:
        """`e` in its compute type (half precision as float), wrapped for `prec`."""
        if e.type.dtype in T.LOW_PRECISION:
            return T.to_compute(self.expr(e, index)[0], e.type.dtype)
        return self.wrap(e, index, prec)

    def value(self, v: ValueInfo, index: Index | None) -> tuple[str, int]:
        if v.storage == "scalar" or index is None:
            if v.storage != "scalar":
                raise BasicUnsupportedError(f"a tile value is used as a scalar ({v.name})")
            text = v.name
        elif v.storage == "shared":
            self.stmt.reads_shared = True
            text = f"{v.name}[{index.linear}]"
        elif index.own and not (self.recompute and v.definition is not None):
            v.read_in_registers = True
            text = self.scope.reg(v)
        elif v.definition is not None:
            return self.expr(v.definition, index)
        else:
            if all(v is not w for w in self.stmt.staged):
                self.stmt.staged.append(v)
            self.stmt.reads_shared = True
            text = f"{self.scope.staged_copy(v)}[{index.linear}]"
        if v.dtype != v.type.dtype:
            return T.convert(text, v.dtype, v.type.dtype), ATOM
        return text, ATOM

    def prelude(self, key: str, wanted: str, value: str) -> str:
        """A `const int` the statement declares before its expression (deduplicated)."""
        if key not in self.stmt.prelude_names:
            name = self._prelude_name(wanted)
            self.stmt.prelude_names[key] = name
            self.stmt.preludes.append(f"const int {name} = {value};")
        return self.stmt.prelude_names[key]

    def _prelude_name(self, wanted: str) -> str:
        """The kernel's block-scoped name for `wanted` when the statement has a block of its
        own and has not used that name yet; else a name of its own in the kernel."""
        if not self.stmt.in_block:
            return self.scope.fresh(wanted)
        if wanted not in self.block_names:
            self.block_names[wanted] = self.scope.fresh(wanted)
        name = self.block_names[wanted]
        if name in self.stmt.prelude_names.values():
            return self.scope.fresh(wanted)
        return name

    # ------------------------------------------------------------------ leaves

    def name_of(self, e: ir.Param | ir.ConstRef) -> str:
        return self.scope.param(e.name)

    def literal(self, value, dtype: ir.DType) -> str:
        return T.literal(value, dtype)

    def _Local(self, e: ir.Local, index):
        return self.value(self.scope.local(e.name), index)

    def _Full(self, e: ir.Full, index):  # every element of a Full tile is the constant
        return self._Const(e, index)

    def _BlockId(self, e: ir.BlockId, index):
        return self.scope.block_id(e.axis), ATOM

    def _Arange(self, e: ir.Arange, index):
        return index.coord(0), ATOM if index.coord(0).isidentifier() else CPP.infix["add"][1]

    def _Extent(self, e: ir.Extent, index):
        return self.scope.array(e.array).extents[e.axis], ATOM

    # ------------------------------------------------------------------ memory

    def _Load(self, e: ir.Load, index):
        array = self.scope.array(e.array)
        coords, inside = self.tile_element(e.array, e.index, e.view, e.order, e.type.shape, index)
        return self._loaded(
            element(array, coords), array.dtype, e.type.dtype, inside, T.literal(0, array.dtype)
        )

    def tile_element(self, name, tile_index, view, order, shape, index: Index | None):
        """Array coordinates of element `index` of tile `tile_index` (of `shape`) of array
        `name` seen through `view` and axis `order`, and the condition that it exists."""
        array = self.scope.array(name)
        ndim = len(array.extents)
        if len(tile_index) != ndim or (shape and len(shape) != ndim):
            raise BasicUnsupportedError(
                f"a tile of {name} is addressed with {len(tile_index)} indices and shape "
                f"{shape}, but {name} has {ndim} dimension(s)"
            )
        tile = shape or (1,) * ndim
        order = order or tuple(range(ndim))
        slices = {s.axis: s for s in view}
        coords: list[str] = [""] * ndim
        checks = []
        for axis in range(ndim):
            target = order[axis]
            start = self.scalar(slices[target].start) if target in slices else "0"
            block = self.scalar(tile_index[axis])
            within = index.coord(axis) if shape else "0"
            text = add(start, self._tiles(block, tile[axis]), within)
            word = self._coord_name(name, ndim, target)
            coord = text if is_simple(text) else self.prelude(text, word, text)
            coords[target] = coord
            if not self.scope.nonnegative(tile_index[axis]):
                checks.append(f"{coord} >= {start}")
            if target in slices:
                # The view's end, and the array's: the host checked that the first lies
                # within the second, but memory safety should not depend on it.
                checks.append(f"{coord} < {self.scalar(slices[target].stop)}")
            checks.append(f"{coord} < {array.extents[target]}")
        return coords, " && ".join(checks)

    def _coord_name(self, array: str, ndim: int, axis: int) -> str:
        """`at` in an element loop's block; outside one, where the name stays declared to
        the kernel's end, the array's (`done_at`, not at_2 beside at)."""
        word = axis_words(ndim, "at", ("at_row", "at_col"), "at")[axis]
        return word if self.stmt.in_block else f"{self.scope.array(array).name}_{word}"

    def _loaded(self, element: str, stored: ir.DType, wanted: ir.DType, inside: str, zero: str):
        if stored != wanted:
            element = T.convert(element, stored, wanted)
            zero = T.literal(0, wanted)
        if not inside:
            return element, ATOM
        return f"{inside} ? {element} : {zero}", COND

    def _Gather(self, e: ir.Gather, index):
        array = self.scope.array(e.array)
        target, inside = self.element_at(e.array, e.indices, e.mask, index)
        return self._loaded(target, array.dtype, e.type.dtype, inside, T.literal(0, array.dtype))

    def element_at(self, name: str, indices, mask, index: Index | None) -> tuple[str, str]:
        """The element of array `name` at `indices` (a gather's or a scatter's, evaluated
        at `index`) and the condition that it exists and `mask` is set."""
        array = self.scope.array(name)
        coords, checks = [], []
        for axis, idx in enumerate(indices):
            text = self.at(idx, index)
            if not is_simple(text):
                word = f"{array.name}_at" if len(indices) == 1 else f"{array.name}_at{axis}"
                text = self.prelude(text, word, text)
            coords.append(text)
            checks.append(f"{text} >= 0 && {text} < {array.extents[axis]}")
        if mask is not None:
            checks.append(self.wrap(mask, index, AND))
        return element(array, coords), " && ".join(checks)

    # ------------------------------------------------------------------ arithmetic

    def result(self, e: ir.KExpr, text: str, prec: int) -> tuple[str, int]:
        """Half precision is computed in float and rounded back once."""
        if e.type.dtype in T.LOW_PRECISION:
            return T.from_compute(text, e.type.dtype), ATOM
        return text, prec

    def unary_call(self, e: ir.Unary, index):
        cdt, x = T.compute_type(e.type.dtype), e.operand
        if e.op == "isnan":
            return f"isnan({self.operand(x, index, COND)})", ATOM
        if e.op == "sign":
            self.scope.use_helper("b2t_sign")
            return self.result(e, f"b2t_sign({self.operand(x, index, COND)})", ATOM)
        if e.op == "abs" and cdt in T.INTEGERS:
            return f"{'llabs' if cdt == 'i64' else 'abs'}({self.at(x, index)})", ATOM
        if e.op in CPP.math and cdt in ("f32", "f64"):
            text = f"{math_function(e.op, cdt)}({self.operand(x, index, COND)})"
            return self.result(e, text, ATOM)
        raise BasicUnsupportedError(f"{e.op} of {e.type.dtype} values has no CUDA translation")

    def binary_call(self, function: str, e: ir.Binary, index):
        """`function(left, right)` on the operands in their compute type: one of
        cuda/helpers.py's (b2t_), C++'s min and max, or a <cmath> function."""
        cdt = T.compute_type(e.left.type.dtype)
        if function.startswith("b2t_"):
            self.scope.use_helper(function)
        elif cdt in ("f32", "f64"):
            function = math_function(e.op if e.op != "floordiv" else "floor", cdt)
        if e.op == "floordiv" and cdt in ("f32", "f64"):
            mul = CPP.infix["div"][1]
            left, right = self.operand(e.left, index, mul), self.operand(e.right, index, mul + 1)
            return self.result(e, f"{function}({left} / {right})", ATOM)
        left, right = self.operand(e.left, index, COND), self.operand(e.right, index, COND)
        return self.result(e, f"{function}({left}, {right})", ATOM)

    def _Select(self, e: ir.Select, index):
        cond = self.wrap(e.cond, index, COND + 1)
        return (
            f"{cond} ? {self.wrap(e.if_true, index, COND)} : {self.wrap(e.if_false, index, COND)}",
            COND,
        )

    def _Cast(self, e: ir.Cast, index):
        source, target = e.operand.type.dtype, e.type.dtype
        if source == target:
            return self.expr(e.operand, index)
        if target == "tf32":
            self.scope.use_helper("b2t_tf32")
        return T.convert(self.at(e.operand, index), source, target), ATOM

    def _Reshape(self, e: ir.Reshape, index):
        inner = index.reshaped(e.operand.type.shape) if index is not None else None
        return self.expr(e.operand, inner)

    def _Broadcast(self, e: ir.Broadcast, index):
        return self.expr(e.operand, index)


def element(array: ArrayInfo, coords: list[str]) -> str:
    """The array element at `coords` (row-major; a 64-bit offset for several axes)."""
    if len(coords) == 1:
        return f"{array.name}[{coords[0]}]"
    offset = f"static_cast<long long>({coords[0]})"
    for coord, extent in zip(coords[1:], array.extents[1:]):
        offset = f"{offset if '+' not in offset else f'({offset})'} * {extent} + {coord}"
    return f"{array.name}[{offset}]"
