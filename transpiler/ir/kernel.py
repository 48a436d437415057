"""The kernel IR: tile programs shared by the cuTile Python and CUDA C++ backends.

A `Kernel` is written at the level of cuTile: each block (`BlockId`) loads tiles from
global arrays, computes on whole tiles, and stores tiles back.  Every expression has
a `TileType` (element type and shape; shape `()` is a scalar).  The cuTile backend
prints it almost one to one.  The CUDA backend lowers it to threads: a tile value is
spread over the threads of a block (thread t holds elements t, t + blockDim, ...),
elementwise operations run per element, and the operations that need other threads'
elements (reductions, mma operands) go through shared memory.

Kernels come from two places, and backends do not care which:
- cuTile BASIC programs (`TILE`, `BID`, `MMA`, `OUTPUT`), translated by
  `passes/kernel/kernel_dialect.py` and `lower/kernel_program.py`;
- FOR loops of legacy programs that the dependence pass found parallel, translated by
  the kernel extraction pass.

Decisions (names, tile shapes, what is parallel, element types) are all made before
this IR exists; templates only lay it out.  A name is a BASIC name (upper case, as the
lexer reads it) or one the compiler invented (lower case: `valid`, `i_count`, `y_tile`),
so the two never meet; each backend's namer (naming.py) turns both into identifiers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Literal, Union

from ..errors import Coord

if TYPE_CHECKING:
    from .cuda_plan import CudaKernelPlan

# "tf32": an f32 value rounded to TensorFloat-32 (10 mantissa bits), only as an operand
# of an Mma (`--precision tf32`).
DType = Literal["f16", "bf16", "tf32", "f32", "f64", "i32", "i64", "bool"]
FLOAT_TYPES = ("f16", "bf16", "tf32", "f32", "f64")


@dataclass(frozen=True, slots=True)
class TileType:
    dtype: DType
    shape: tuple[int, ...] = ()

    @property
    def is_scalar(self) -> bool:
        return self.shape == ()

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def with_dtype(self, dtype: DType) -> "TileType":
        return TileType(dtype, self.shape)


@dataclass(frozen=True, slots=True)
class Origin:
    """The BASIC statement an IR statement was translated from (for comments/reports)."""

    label: int | None  # BASIC line number, if the program has them
    text: str  # the statement as written, for the `# 50 LET ...` comment
    coord: Coord


# --------------------------------------------------------------------------- expressions


@dataclass(eq=False, slots=True)
class KExpr:
    type: TileType = field(kw_only=True)


@dataclass(eq=False, slots=True)
class Param(KExpr):
    """A scalar kernel parameter (see `ScalarParam`)."""

    name: str


@dataclass(eq=False, slots=True)
class ConstRef(KExpr):
    """A compile-time constant parameter (a tile size, see `ConstParam`)."""

    name: str


@dataclass(eq=False, slots=True)
class Local(KExpr):
    """A value bound by `Let` or a loop variable of `ForRange`."""

    name: str


@dataclass(eq=False, slots=True)
class Const(KExpr):
    value: float | int | bool


@dataclass(eq=False, slots=True)
class BlockId(KExpr):
    axis: int = 0


@dataclass(eq=False, slots=True)
class ViewSlice:
    """Restrict `axis` of an array to [start, stop): elements outside are never touched.

    Legacy loops address `X(I + c)` for I in [lo, hi]; viewing X through the slice
    [lo + c, hi + c + 1) turns that into an aligned tile-space index (the block id) and
    makes the bounds check exact.
    """

    axis: int
    start: KExpr
    stop: KExpr


@dataclass(eq=False, slots=True)
class Load(KExpr):
    """Tile `index` of `array` (seen through `view`) in the tile space of `type.shape`;
    elements outside the (viewed) array read as zero."""

    array: str
    index: tuple[KExpr, ...]
    view: tuple[ViewSlice, ...] = ()
    # A tile axis -> array axis permutation (`order=` in cuTile), for transposed reads.
    order: tuple[int, ...] | None = None


@dataclass(eq=False, slots=True)
class Gather(KExpr):
    """Elements of `array` at integer index tiles (one per array axis, broadcast
    together); out-of-bounds or masked-off elements read as zero."""

    array: str
    indices: tuple[KExpr, ...]
    mask: KExpr | None = None


@dataclass(eq=False, slots=True)
class Extent(KExpr):
    """The number of elements of `array` along `axis` (an i32 scalar)."""

    array: str
    axis: int


@dataclass(eq=False, slots=True)
class Arange(KExpr):
    """The i32 tile [0, 1, ..., n-1] (n = type.shape[0])."""


@dataclass(eq=False, slots=True)
class Full(KExpr):
    """A tile of `type.shape` filled with `value`."""

    value: float | int | bool


@dataclass(eq=False, slots=True)
class Unary(KExpr):
    # neg not abs sqrt exp log sin cos tan atan sinh cosh tanh floor ceil sign | isnan (bool)
    op: str
    operand: KExpr


@dataclass(eq=False, slots=True)
class Binary(KExpr):
    # add sub mul div pow rem mod min max floordiv truncdiv cdiv | lt le gt ge eq ne | and or
    # `rem` is BASIC's MOD: the remainder of the division truncated toward zero, with the
    # sign of the dividend (C's fmod and %); `mod` is Python's and cuTile's % (the sign of
    # the divisor), which the passes use where both operands are known to be >= 0 (the
    # two agree there); integer `truncdiv`, `floordiv` and `cdiv` round toward zero, -inf
    # and +inf (INT(a / b) of a kernel program truncates).  Float `max(a, b)` is b if
    # b > a or a is NaN, else a (BASIC's MAX: a NaN operand gives the other, a tie, -0
    # with 0 included, gives a); `min` likewise with b < a.
    op: str
    left: KExpr
    right: KExpr


@dataclass(eq=False, slots=True)
class Select(KExpr):
    """Elementwise `cond ? a : b` (cuTile `ct.where`)."""

    cond: KExpr
    if_true: KExpr
    if_false: KExpr


@dataclass(eq=False, slots=True)
class Cast(KExpr):
    operand: KExpr


@dataclass(eq=False, slots=True)
class Reduce(KExpr):
    """Reduce over `axis` (None: all axes, giving a scalar)."""

    op: Literal["sum", "max", "min", "prod"]
    operand: KExpr
    axis: int | None = None
    # Keep the reduced axis with size 1, so the result broadcasts against the operand
    # (how cuTile BASIC's SUM(T, 1) behaves: T - MAX(T, 1) works row by row).
    keepdims: bool = False


@dataclass(eq=False, slots=True)
class Scan(KExpr):
    """Inclusive prefix along a 1-D tile, element k from elements 0..k: "sum" and "prod"
    of `operand`; "linear", with `factor` a, the x_k = a_k * x_{k-1} + operand_k that
    start from x_{-1} = 0 (a first-order linear recurrence: its pairs (a, b) combine
    associatively, (a1, b1) then (a2, b2) giving (a1 * a2, b1 * a2 + b2))."""

    op: Literal["sum", "prod", "linear"]
    operand: KExpr
    factor: KExpr | None = None


@dataclass(eq=False, slots=True)
class Mma(KExpr):
    """`a @ b + acc` on 2-D tiles; the result has acc's type."""

    a: KExpr
    b: KExpr
    acc: KExpr


@dataclass(eq=False, slots=True)
class Reshape(KExpr):
    """Same elements, new shape (row-major), e.g. a (T,) index tile as (T, 1)."""

    operand: KExpr


@dataclass(eq=False, slots=True)
class Broadcast(KExpr):
    """Repeat a tile (or scalar) to `type.shape` (numpy broadcasting rules)."""

    operand: KExpr


# --------------------------------------------------------------------------- statements


@dataclass(eq=False, slots=True)
class KStmt:
    origin: Origin | None = field(default=None, kw_only=True)


@dataclass(eq=False, slots=True)
class Let(KStmt):
    """Bind (or rebind, inside loops) a local value."""

    name: str
    value: KExpr


@dataclass(eq=False, slots=True)
class Store(KStmt):
    """Store a tile at tile `index` of `array` (seen through `view`); elements outside
    the (viewed) array are not written."""

    array: str
    index: tuple[KExpr, ...]
    value: KExpr
    view: tuple[ViewSlice, ...] = ()


@dataclass(eq=False, slots=True)
class Scatter(KStmt):
    array: str
    indices: tuple[KExpr, ...]
    value: KExpr
    mask: KExpr | None = None


@dataclass(eq=False, slots=True)
class AtomicAdd(KStmt):
    """`array[indices] += value` atomically (histograms); out-of-bounds indices (the
    producers use -1 for lanes that must not update) do nothing."""

    array: str
    indices: tuple[KExpr, ...]
    value: KExpr


@dataclass(eq=False, slots=True)
class AtomicMax(KStmt):
    """`array[indices] = max(array[indices], value)` atomically (error flags)."""

    array: str
    indices: tuple[KExpr, ...]
    value: KExpr


@dataclass(eq=False, slots=True)
class ForRange(KStmt):
    """`for var in range(start, stop, step)` with scalar i32 bounds, inside a kernel."""

    var: str
    start: KExpr
    stop: KExpr
    body: list[KStmt]
    step: int = 1


@dataclass(eq=False, slots=True)
class WhileLoop(KStmt):
    """`while cond:` with a scalar condition (the masked inner loops of legacy code)."""

    cond: KExpr
    body: list[KStmt]


@dataclass(eq=False, slots=True)
class IfScalar(KStmt):
    cond: KExpr
    then_body: list[KStmt]
    else_body: list[KStmt] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class Break(KStmt):
    pass


@dataclass(eq=False, slots=True)
class Print(KStmt):
    """`printf(format, *args)` once per block (a kernel's PRINT, NVIDIA's device print):
    `format` is C's, with `%d` for an i32 and `%f` for a float scalar in `args`."""

    format: str
    args: tuple[KExpr, ...]


# --------------------------------------------------------------------------- kernels


@dataclass(eq=False, slots=True)
class ArrayParam:
    name: str
    dtype: DType
    ndim: int
    reads: bool = True
    writes: bool = False


@dataclass(eq=False, slots=True)
class ScalarParam:
    name: str
    dtype: DType


@dataclass(eq=False, slots=True)
class ConstParam:
    """A compile-time constant (`ct.Constant[int]`; a `constexpr` in CUDA)."""

    name: str
    value: int


KernelParam = Union[ArrayParam, ScalarParam, ConstParam]

KernelKind = Literal["map", "stencil", "reduce", "mma", "histogram", "iterate", "tile"]


@dataclass(eq=False, slots=True)
class Kernel:
    name: str
    kind: KernelKind
    params: list[KernelParam]
    body: list[KStmt]
    # Number of blocks per grid axis, as expressions over the kernel's scalar and
    # constant parameters (the host evaluates them with the argument values).
    grid: tuple[KExpr, ...]
    # The block's principal tile shape (what --explain reports; CUDA sizes blocks by it).
    tile: tuple[int, ...]
    dtype: DType
    origin: Origin | None = None
    # One line for --explain and the HTML report: what was recognised and how it maps.
    summary: str = ""
    # What the CUDA lowering decided (passes/kernel/cuda_plan.py; the CUDA printer reads it).
    cuda: CudaKernelPlan | None = field(default=None, repr=False)

    def param(self, name: str) -> KernelParam:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def size_names(self) -> dict[int, str]:
        """The constant parameters by value, the first of a value (the passes give each
        tile size its own: tile, tile_k): both printers write an extent equal to one as
        the parameter's name, not as the literal it names."""
        return {p.value: p.name for p in reversed(self.params) if isinstance(p, ConstParam)}


@dataclass(frozen=True, slots=True)
class LoopDecision:
    """What the offload analysis decided for one FOR loop (or perfect nest)."""

    label: int | None
    coord: Coord
    offloaded: bool
    kind: str  # the kernel kind, or "host"
    reason: str  # why it was kept on the host, or what was recognised
    kernel: str | None = None  # the kernel name when offloaded
    dependence: str = ""  # kept on the host: the dependence, named exactly (--explain)
    advice: str = ""  # kept on the host: the change to the BASIC that removes it


# --------------------------------------------------------------------------- cuTile BASIC programs


@dataclass(eq=False, slots=True)
class HostArray:
    """An array the host side allocates or receives (a kernel program's DIM)."""

    name: str
    dtype: DType
    extents: tuple[KExpr, ...]  # over the scalar parameters
    role: Literal["input", "output", "inout", "scratch"]


@dataclass(eq=False, slots=True)
class KernelLibrary:
    """A cuTile BASIC program: one kernel plus a `run(<INPUT names>)` host function."""

    name: str
    kernel: Kernel
    inputs: list[str]  # INPUT order: run()'s parameters
    scalars: list[ScalarParam]
    arrays: list[HostArray]
    outputs: list[str]
    precision: str | None = None  # `--precision` (the module's self-test uses the same)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The field names of an IR node class, cached: passes walk nodes field by field, and
    `dataclasses.fields` is slow enough to show in profiles."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


# --------------------------------------------------------------------------- walking kernels
# One walk of the kernel IR for every pass and printer that reads it, in field order (for
# a Load: its tile index, then its view's bounds; for a Store: index, value, view).


_OPERAND_FIELDS: dict[type, tuple[str, ...]] = {}


def operands(node: KExpr | KStmt) -> list[KExpr]:
    """The expressions directly under an expression or statement (tile indices, view
    bounds and masks included; a statement's nested bodies are not)."""
    names = _OPERAND_FIELDS.get(type(node))
    if names is None:  # the fields declared to hold expressions or view slices
        held = [f.name for f in fields(type(node)) if re.search(r"KExpr|ViewSlice", str(f.type))]
        names = _OPERAND_FIELDS[type(node)] = tuple(held)
    out: list[KExpr] = []
    for name in names:
        value = getattr(node, name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, KExpr):
                out.append(item)
            elif isinstance(item, ViewSlice):
                out += [item.start, item.stop]
    return out


def walk(e: KExpr):
    """`e` and every expression under it, pre-order."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(operands(node)))


def bodies(s: KStmt) -> list[list[KStmt]]:
    """The statement lists nested in `s` (a loop's body, an IF's two branches)."""
    if isinstance(s, (ForRange, WhileLoop)):
        return [s.body]
    if isinstance(s, IfScalar):
        return [s.then_body, s.else_body]
    return []


def statements(stmts: list[KStmt]):
    """Every statement of `stmts`, nested ones after the statement holding them."""
    for s in stmts:
        yield s
        for body in bodies(s):
            yield from statements(body)


def expressions(stmts: list[KStmt]):
    """Every expression under the statements of `stmts`, nested ones included."""
    for s in statements(stmts):
        for e in operands(s):
            yield from walk(e)


# --------------------------------------------------------------------------- facts

# The nodes that read memory or other threads' elements: every other node is a function
# of the element's indices (and of locals that are).
NOT_ELEMENTWISE = (Load, Gather, Reduce, Scan, Mma)

# Operations whose result is >= 0 when both operands are.  (Integer overflow could wrap a
# sum or product of sizes past 2**31; such a kernel indexes nothing sensible anyway.)
_CLOSED = ("add", "mul", "floordiv", "truncdiv", "cdiv", "mod", "rem", "min")


def nonnegative(e: KExpr, params: set[str], locals_: set[str]) -> bool:
    """Whether `e` is certainly >= 0 (`params`, `locals_`: names known to be)."""
    if isinstance(e, BlockId):
        return True
    if isinstance(e, (Const, Full)):
        return not isinstance(e.value, bool) and e.value >= 0  # NaN is not
    if isinstance(e, Param):
        return e.name in params
    if isinstance(e, Local):
        return e.name in locals_
    if isinstance(e, Cast):
        return e.type.dtype != "bool" and nonnegative(e.operand, params, locals_)
    if isinstance(e, Unary) and e.op in ("floor", "ceil"):
        return nonnegative(e.operand, params, locals_)
    if isinstance(e, Binary):
        left = nonnegative(e.left, params, locals_)
        if e.op == "max":
            return left or nonnegative(e.right, params, locals_)
        return e.op in _CLOSED and left and nonnegative(e.right, params, locals_)
    return False
