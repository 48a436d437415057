"""The kernel being built: its state (parameters, locals, the statement list being
written, the lane mask) and the primitives every part of the lowering uses to add to it."""

from __future__ import annotations

from dataclasses import dataclass

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import Finish, LoopCount, RangeCheck, Temp
from ....ir.kernel import KExpr, TileType
from ....ir.model import Analysis
from ....ir.naming import generated_name
from ...kernel.kernel_lowering import origin_of
from ..dependence import LoopPlan, NotParallel, Reduction
from .shapes import kernel_number_type, tile_size_names

# One flag per block: 1 when the block finished without a BASIC exception (hostir.Replay).
# Invented names are lower case, so no BASIC name (upper case in the IR) is one.
DONE_FLAGS = "done"


@dataclass(eq=False)
class LoopContext:
    live: str  # name of the local holding the mask of lanes still looping


class KernelBuilder:
    """What the lowering of one loop has made so far, and how it adds to it."""

    def __init__(self, plan: LoopPlan, analysis: Analysis, name: str, tile: tuple[int, ...]):
        self.plan = plan
        self.analysis = analysis
        self.name = name
        self.tile = tile
        self.ndt: ir.DType = kernel_number_type(plan, analysis)
        # Microsoft BASIC: every operation may overflow GW-BASIC's range (see `finite`).
        self.microsoft = analysis.options.microsoft
        self.base = analysis.option_base
        self.rank = len(plan.dims)
        self.lane_type = TileType(self.ndt, tile)
        self.params: list[ir.KernelParam] = []
        self.args: list[hostir.HostValue] = []
        self._param_names: set[tuple[str, str]] = set()
        self.counts: list[LoopCount] = []
        self.temps: list[Temp] = []
        self.checks: list[RangeCheck] = []
        self.finish: list[Finish] = []
        self.out: list[ir.KStmt] = []
        self.mask: KExpr | None = None  # lanes active at this point (None: all valid lanes)
        self.loops: list[LoopContext] = []
        self.locals: dict[str, TileType] = {}
        self.fresh_counter = 0
        # Names of the values this kernel invents (lower case, so never a BASIC name),
        # each allocated once: two values never share one.
        self.generated: set[str] = {DONE_FLAGS}
        self.valid = self.new_name("valid")  # the mask of lanes that are iterations
        # The tile size along each axis, a `ct.Constant[int]` / constexpr parameter of the
        # kernel (NVIDIA's samples name tile sizes; the literal repeated is hard to change).
        self.tile_sizes = [
            ir.ConstParam(self.new_name(name), t)
            for name, t in tile_size_names([d.var for d in plan.dims], tile)
        ]
        self.lanes: list[str] = []  # per axis: the lane numbers
        self.accumulators: dict[str, str] = {}  # sum variable -> its lane partials
        self.events: str | None = None  # the lanes that met an exception (or inf, NaN)
        self.uniform: dict[str, str] = {}  # inner uniform FOR variable -> its float local
        self.array_tiles: dict[str, str] = {}  # written array -> local holding its lane tile
        # Storage index tiles and in-range masks of written arrays that are not aligned.
        self.scatter_at: dict[str, tuple[KExpr, ...]] = {}
        self.top: list[ir.KStmt] = self.out  # the kernel's top level
        self.events_at = 0  # where in `top` the events tile starts as all False
        self.deferred: list[ir.KStmt] = []  # histogram updates, made by finished blocks only
        self.inner_depth = 0  # inner loops around the statement being lowered
        self.constant = False  # lowering a constant expression (checked when compiling)
        self.guards = 0  # IFs around the statement being lowered
        self.scalar_ifs = 0  # of which IFs on a condition the same in every lane
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        # max/min reductions, finished at the end of the kernel: (reduction, lane
        # candidates, [(payload variable, lane values)]).
        self.extremes: list[tuple[Reduction, ir.Local, list]] = []
        # Tiles of read-only arrays at the lanes' own elements, loaded once per block
        # (named after the BASIC reference: X(I) -> x_i, T(I - 1) -> t_i_m1).
        self.loads: dict[tuple, ir.Local] = {}
        self.load_stmts: list[ir.KStmt] = []
        self.starts_fit: list[ir.Local] = []  # computed starts that fit in a lane number
        # The statement being lowered: where its code starts in `out`, and the element
        # subscripts it has computed (element_subscripts).
        self.statement_start = 0
        self.statement_subscripts: dict[tuple, tuple] | None = None
        # A scan (LoopPlan.recurrence): one block walks the tiles of iterations in order,
        # tile number `tile_index` in place of the block's number.
        self.recurrence = plan.recurrence
        self.tile_index = self.new_name("tile", "index") if self.recurrence else None
        if self.tile_index is not None:
            self.locals[self.tile_index] = TileType("i32")
        # A scalar scan's running value, carried from tile to tile, and its start.
        self.scan_carry = ""
        self.carry_start: list[ir.KStmt] = []

    def new_name(self, *words: str) -> str:
        """A generated name (see naming.generated_name) no other value of the kernel has."""
        name = candidate = generated_name(*words)
        n = 2
        while candidate in self.generated:
            candidate = f"{name}_{n}"
            n += 1
        self.generated.add(candidate)
        return candidate

    def fresh(self, *words: str) -> str:
        """A new name numbered in the order of the BASIC code (`taken_1`, `looping_2`)."""
        self.fresh_counter += 1
        return self.new_name(*words, str(self.fresh_counter))

    def let(self, name: str, value: KExpr, origin: ir.Origin | None = None) -> ir.Local:
        self.out.append(ir.Let(name, value, origin=origin))
        self.locals[name] = value.type
        return ir.Local(name, type=value.type)

    def local(self, name: str) -> ir.Local:
        return ir.Local(name, type=self.locals[name])

    def origin(self, stmt: ast.Stmt | None) -> ir.Origin | None:
        return origin_of(stmt, self.analysis.source) if stmt is not None else None

    def scalar_param(self, name: str, dtype: ir.DType, arg: hostir.HostValue) -> ir.Param:
        # Keyed by kind: extended BASIC may have a scalar A and an array A.
        if ("scalar", name) not in self._param_names:
            self._param_names.add(("scalar", name))
            self.params.append(ir.ScalarParam(name, dtype))
            self.args.append(arg)
        return ir.Param(name, type=TileType(dtype))

    def array_param(
        self, name: str, dtype: ir.DType | None = None, rank: int | None = None, temp: bool = False
    ):
        if ("array", name) in self._param_names:
            return
        self._param_names.add(("array", name))
        if dtype is None:
            sym = self.analysis.arrays[name]
            if sym.elem_type == "dbl" and self.ndt != "f64":
                raise NotParallel("double-precision values stay on the host", None)
            if sym.elem_type not in ("num", "dbl"):
                raise NotParallel(f"array {name} is not numeric", None)
            dtype, rank = self.ndt, sym.rank
        self.params.append(ir.ArrayParam(name, dtype, rank))
        self.args.append(hostir.HostValue("temp" if temp else "array", (name,)))

    def full_mask(self) -> KExpr:
        valid = self.local(self.valid)
        return valid if self.mask is None else B.binary("and", valid, self.mask, self.ndt)

    def any_lane(self, mask: KExpr) -> KExpr:
        count = ir.Reduce("max", B.cast(mask, "i32"), None, type=TileType("i32"))
        return B.binary("gt", count, B.const(0, "i32"), self.ndt)

    def block_index(self, axis: int) -> KExpr:
        """The number of the tile of iterations along `axis` (the block's, except in a scan)."""
        if self.tile_index is not None:
            return self.local(self.tile_index)
        return ir.BlockId(axis, type=TileType("i32"))

    def tile_size(self, axis: int) -> ir.ConstRef:
        size = next(p for p in self.tile_sizes if p.value == self.tile[axis])
        return ir.ConstRef(size.name, type=TileType("i32"))

    def count_param(self, axis: int) -> ir.Param:
        count = self.counts[axis]
        return ir.Param(count.name, type=TileType("i32"))
