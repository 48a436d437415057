"""Lower a parallel loop (`LoopPlan`) to a tile kernel: one lane per iteration.

A block handles one tile of the lane space (`I = start + k*step` for the tile's k).
The loop body runs for all lanes of the tile at once:
- values are tiles of the lane shape (loop-invariant scalars stay scalars);
- an IF whose condition differs between lanes does not branch: both sides are
  lowered under a lane mask, and assignments become `ct.where(mask, new, old)`;
- an inner loop whose trip count differs between lanes (a WHILE, or a loop formed
  with GOTO) runs while any lane is still looping, with a mask of the looping lanes;
  an inner FOR whose bounds are the same for every lane is an ordinary `range` loop,
  one whose start or limit differs runs as long as the longest lane's, masked per lane;
- `Y(I)` on an array the loop writes is a tile held in a local until the end of the
  kernel, where it is stored once; reads of arrays the loop does not write are tile
  loads through a slice of the array (lanes' own element at a constant offset: a
  contiguous, zero-padded, bounds-exact load) or gathers (any other subscript);
- reductions accumulate per lane and end as one partial result per block, which the
  host combines in block order; histograms use atomic adds.

BASIC's run-time exceptions stay exact (see `hostir.Replay`): a lane that meets one (a
subscript out of range, a division by zero, an overflow, a domain error), or an
infinity or NaN that could hide one, marks its block; a marked block stores nothing
and the host runs its iterations with BASIC's semantics, in order.  Subscripts the
kernel's tile loads and stores use are checked before the launch instead: when one is
out of range the loop runs on the host.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import ast, hostir, ir
from .. import irbuild as B
from ..builtins import BUILTINS
from ..hostir import Finish, LoopCount, RangeCheck, Temp
from ..semantics import is_truth_value
from ..ir import KExpr, TileType
from ..model import Analysis
from ..naming import generated_name
from ..runtime.msnumbers import DOUBLE_MAX, SINGLE_MAX, SMALLEST
from .dependence import LoopPlan, NotParallel, Reduction, unexpressible
from .exceptions import can_report, constant_number, constant_reports
from .exprutil import Affine, affine, constant_value, same_expr, sum_may_overflow
from .kernel_access import array_access
from .kernel_cleanup import remove_dead_lets
from .kernel_lowering import origin_of
from .liveness import expression_reads
from .show import show_expr
from .value_guards import describe as describe_guards

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "MOD": "rem"}
_COMPARE = {"=": "eq", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
# One flag per block: 1 when the block finished without a BASIC exception (hostir.Replay).
# Invented names are lower case, so no BASIC name (upper case in the IR) is one.
DONE_FLAGS = "done"
# |x| below this for EXP(x): neither overflow nor underflow to zero.
_EXP_SAFE = {"f64": 700.0, "f32": 80.0}
_TRIPS_LIMIT = 2.0**31 - 1  # an inner loop longer than this runs on the host
# From this magnitude on, a number rounds to infinity in float32 (the largest float32
# plus half an ulp).
_F32_OVERFLOW = (2.0 - 2.0**-24) * 2.0**127


def choose_tile(
    plan: LoopPlan, dtype: ir.DType, override: tuple[int, ...] | None
) -> tuple[int, ...]:
    """Tile shape of the lane space: big 1-D tiles for cheap bodies, smaller ones when
    lanes loop (more blocks keep the GPU busy), squarish 2-D tiles for nests."""
    rank = len(plan.dims)
    if override:
        if len(override) == rank:
            return override
        if len(override) < rank:
            # The same number of lanes, spread over the axes (the last ones get more).
            bits = int(math.log2(math.prod(override)))
            return tuple(1 << (bits * (a + 1) // rank - bits * a // rank) for a in range(rank))
    if rank == 3:
        return (4, 8, 8) if plan.kind == "iterate" or _has_inner_for(plan) else (8, 8, 16)
    if rank == 2:
        return (16, 16) if plan.kind == "iterate" or _has_inner_for(plan) else (32, 32)
    if plan.kind == "iterate" or _has_inner_for(plan):
        return (128,)
    return (1024,) if dtype != "f64" else (512,)


def _has_inner_for(plan: LoopPlan) -> bool:
    return any(isinstance(n, hostir.ForLoop) for n in hostir.walk(plan.body))


def vectorize(
    plan: LoopPlan, analysis: Analysis, name: str, tile: tuple[int, ...]
) -> hostir.Launch:
    """The Launch that replaces `plan.loop` (raises NotParallel for what it cannot express)."""
    return _Vectorizer(plan, analysis, name, tile).run()


@dataclass(eq=False)
class _LoopContext:
    live: str  # name of the local holding the mask of lanes still looping


def tile_size_names(axes: list[str], tile: tuple[int, ...]) -> list[tuple[str, int]]:
    """The generated name of the constant parameter giving each distinct tile size, with
    the size: `tile` when every axis has the same size, else `tile_<loop variables of the
    axes of that size>` (so a printed shape names its axes; the printers find a
    dimension's parameter by its value)."""
    if len(set(tile)) == 1:
        return [(generated_name("tile"), tile[0])]
    return [
        (generated_name("tile", *(a for a, t in zip(axes, tile) if t == size)), size)
        for size in dict.fromkeys(tile)
    ]


def kernel_number_type(plan: LoopPlan, analysis: Analysis) -> ir.DType:
    """The kernel's number type: the program's, except that a Microsoft BASIC loop of a
    single-precision program whose values are all doubles and integers (a DEFDBL
    program's) computes in f64, as the host does; one single among them keeps f32 (and
    its doubles then keep the loop on the host)."""
    number_type = analysis.number_type
    if number_type != "f32" or not analysis.options.microsoft:
        return number_type
    types: set = set()
    parts = list(_loop_parts(plan, analysis))
    seen: set[str] = set()
    while parts:
        for node in parts.pop().walk():
            if not isinstance(node, ast.Expr):
                continue
            types.add(analysis.expr_types.get(node))
            function = analysis.functions.get(node.name) if isinstance(node, ast.Call) else None
            if function is not None and function.name not in seen:
                seen.add(function.name)  # a DEF FN's body is computed in the loop too
                parts.append(function.body)
    return "f64" if "dbl" in types and "num" not in types else number_type


def _loop_parts(plan: LoopPlan, analysis: Analysis):
    """The statements and expressions of the loop: its text, and the lane body (with the
    subroutines its GOSUBs inlined)."""
    loop = plan.loop
    yield from analysis.stmts[loop.for_index : loop.next_index + 1]
    for node in hostir.walk(plan.body):
        if isinstance(node, hostir.Simple):
            yield node.stmt
        elif isinstance(node, hostir.ForLoop):
            yield node.stmt
        elif isinstance(node, hostir.WhileLoop) and node.condition is not None:
            yield node.condition
        elif isinstance(node, hostir.If):
            yield from (condition for condition, _ in node.arms)


class _Vectorizer:
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
        self.loops: list[_LoopContext] = []
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

    # ------------------------------------------------------------------ helpers

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

    # ------------------------------------------------------------------ exceptions

    def event(self, cond: KExpr, negated: bool = False) -> None:
        """The active lanes where `cond` holds (with `negated`: does not hold) meet an
        exception: their block is left to the host."""
        if self.events is None:
            self.events = self.new_name("exceptions")
            lanes = TileType("bool", self.lane_type.shape)
            self.top.insert(self.events_at, ir.Let(self.events, ir.Full(False, type=lanes)))
            if self.out is self.top and self.events_at <= self.statement_start:
                self.statement_start += 1  # the statement being lowered starts a line later
            self.locals[self.events] = lanes
        # A tile before `~`: a scalar condition may be a plain Python bool in the kernel.
        cond = B.broadcast(B.to_bool(cond), self.lane_type.shape)
        if negated:
            cond = B.unary("not", cond, self.ndt)
        hit = B.binary("and", self.full_mask(), cond, self.ndt)
        self.let(self.events, B.binary("or", self.local(self.events), hit, self.ndt))

    def event_unless(self, ok: KExpr) -> None:
        self.event(ok, negated=True)

    def finite(self, x: KExpr) -> KExpr:
        """Neither an infinity nor NaN (`|x| < inf`).  In Microsoft BASIC: within
        GW-BASIC's range, where the interpreter neither warns "Overflow" nor flushes an
        underflow to 0 (runtime/msnumbers.py): 0, or a magnitude from 2^-128 to the
        largest single (or double)."""
        dtype = x.type.dtype
        if not self.microsoft:
            return B.binary("lt", B.unary("abs", x, self.ndt), B.const(math.inf, dtype), self.ndt)
        magnitude = B.unary("abs", x, self.ndt)
        largest = SINGLE_MAX if dtype == "f32" else DOUBLE_MAX
        in_range = B.binary("le", magnitude, B.const(largest, dtype), self.ndt)
        zero = B.binary("eq", x, B.const(0.0, dtype), self.ndt)
        normal = B.binary("ge", magnitude, B.const(SMALLEST, dtype), self.ndt)
        return B.binary("and", in_range, B.binary("or", zero, normal, self.ndt), self.ndt)

    def reports(self, e: ast.Expr) -> bool:
        """Can evaluating `e` in the kernel report an exception?  A constant expression
        cannot: it was evaluated when compiling (one that reports keeps the loop on the
        host, BASIC reports it in every iteration)."""
        if self.constant:
            return False
        if not (self.microsoft or can_report(e, self.analysis)):
            return False
        constant = constant_reports(e)
        if constant:
            raise NotParallel("a constant expression warns or fails in every iteration", e)
        return constant is None

    def watched(self, e: ast.Expr, stem: str = "value") -> KExpr:
        """`e` as an operand that could hide an exception of its own (the divisor of `/`,
        a comparison's side, ATN's argument...: 1 / (A * X(I)) is 0 for an overflowed
        product): an infinity or NaN there is an exception."""
        value = self.value(e)
        if not self.reports(e):
            return value
        if not isinstance(value, (ir.Local, ir.Param, ir.Const)):
            value = self.let(self.fresh(stem), value)
        self.event_unless(self.finite(value))
        return value

    def watch_result(self, e: ast.Expr, value: KExpr) -> None:
        """A value a statement stores: an infinity or NaN made by `e` is an exception."""
        if self.reports(e):
            self.event_unless(self.finite(value))

    # ------------------------------------------------------------------ driver

    def run(self) -> hostir.Launch:
        plan = self.plan
        first = plan.loop.stmt
        self.prologue()
        loads_at = self.events_at = len(self.out)
        if self.recurrence is not None:
            self.events_at = 0  # the exceptions of every tile: before the loop over them
        for fits in self.starts_fit:
            self.event_unless(fits)
        for guard in plan.guards:  # before any store: where one fails, no lane stores
            holds = B.broadcast(B.to_bool(self.value_or_cond(guard)), self.lane_type.shape)
            holds = self.let(self.new_name("independent"), holds)
            self.event_unless(holds)
            self.let(self.valid, B.binary("and", self.local(self.valid), holds, self.ndt))
        self.array_tile_prologue()
        self.reduction_prologue()
        self.block(plan.body)
        if self.events is not None:
            loads_at += 1  # after the events tile: the prologue's last line
        self.out[loads_at:loads_at] = self.load_stmts
        if self.recurrence is not None:
            self.tile_loop()
        else:
            self.epilogue()
        remove_dead_lets_of(self.out)
        grid = self.grid()
        reads, writes = array_access(self.out)
        for p in self.params:
            if isinstance(p, ir.ArrayParam):
                p.reads, p.writes = p.name in reads, p.name in writes or p.name in self.writes
        for size in self.tile_sizes:  # last, as in NVIDIA's samples; the host passes the value
            self.params.append(size)
            self.args.append(hostir.HostValue("num", (size.value,)))
        kernel = ir.Kernel(
            name=self.name,
            kind=plan.kind,
            params=self.params,
            body=self.out,
            grid=tuple(self._grid_exprs()),
            tile=self.tile,
            dtype=self.ndt,
            origin=self.origin(first),
            summary=self.summary(),
        )
        writes = sorted(self.writes)
        replay = None
        if self.events is not None or self.checks:
            loops = [
                hostir.ReplayLoop(
                    dim.var, dim.start, dim.step, count.name, t, axis, dim.first, dim.last
                )
                for axis, (dim, count, t) in enumerate(zip(plan.dims, self.counts, self.tile))
            ]
            done = DONE_FLAGS if self.events is not None else None
            depth = self.rank if plan.inside is None else self.rank - 1
            # An interchanged nest is replayed as written: the lane loops above the FOR
            # that went inside, with their whole bodies.  So is a 3-D nest with
            # statements between its FORs (all or nothing: the outermost loop; the
            # replay by rows is for two loops).
            prefixed = _prefixed_levels(plan.loop, depth)
            whole = bool(prefixed) and depth > 2
            if whole:
                depth = 1
            prefix, body = replay_body(plan.loop, depth)
            replay = hostir.Replay(done, loops[:depth], body, prefix)
            in_place = plan.sliced or plan.inside is not None or self.recurrence is not None
            if done is not None and (in_place or whole):
                replay.restore = writes
            if whole:
                # Those statements run also where a loop below them runs zero times,
                # and then no lane does.
                below = self.counts[min(prefixed) + 1 : len(plan.dims)]
                replay.nonempty = [count.name for count in below]
            if plan.inside is not None and _sets_before_inner_for(plan.inside):
                replay.nonempty.append(self.counts[-1].name)
        for axis, (dim, count) in enumerate(zip(plan.dims, self.counts)):
            # An inner loop of the nest runs only if every outer one does.
            when = tuple(c.name for c in self.counts[:axis])
            self.finish.append(
                Finish(
                    "loop_var",
                    var=dim.var,
                    start=dim.start,
                    step=dim.step,
                    count=count.name,
                    when=when,
                    zero_trip_step=self.analysis.options.microsoft,
                )
            )
        decision = ir.LoopDecision(
            first.label, first.coord, True, kernel.kind, kernel.summary, kernel.name
        )
        return hostir.Launch(
            kernel,
            decision,
            self.counts,
            self.temps,
            self.args,
            grid,
            self.checks,
            self.finish,
            writes,
            replay=replay,
            origin=first,
        )

    def summary(self) -> str:
        if self.recurrence is not None:
            return self.scan_summary()
        plan = self.plan
        loops = ", ".join(f"{d.var}" for d in plan.dims)
        if plan.part or plan.inside is not None:  # not simply the first loops of the nest
            loops += f" (FOR lines {', '.join(_line_of(d.stmt) for d in plan.dims)})"
        shape = "x".join(str(t) for t in self.tile)
        what = {
            "map": "elementwise map",
            "stencil": "stencil (neighbour reads)",
            "reduce": "reduction",
            "histogram": "histogram (atomic adds)",
            "iterate": "per-element iteration (masked inner loop)",
        }.get(plan.kind, plan.kind)
        text = f"{what} over {loops}; one {shape} tile of iterations per block, {self.ndt}"
        if plan.inside is not None:
            k = plan.inside.stmt
            text += f"; {k.var.name} (line {_line_of(k)}) loops inside each lane"
        if plan.sliced:
            text += f"; in place: each lane reads and writes its own part of {', '.join(sorted(plan.sliced))}"
        if plan.guards:
            text += f"; {describe_guards(plan.guards)}"
        return text

    def scan_summary(self) -> str:
        r = self.recurrence
        what = {
            "sum": "running sums",
            "prod": "running products",
            "linear": "a first-order linear recurrence",
        }[r.op]
        start = "the last value of" if r.scalar else "the element stored by"
        return (
            f"scan ({what}) of {r.name} over {self.plan.dims[0].var}: one block walks the "
            f"tiles of {self.tile[0]} iterations in order, each tile starting from {start} "
            f"the one before it, {self.ndt}"
        )

    def _grid_exprs(self) -> list[KExpr]:
        if self.recurrence is not None:
            return [B.const(1, "i32")]
        return [
            B.binary("cdiv", self.count_param(i), B.const(t, "i32"), self.ndt)
            for i, t in enumerate(self.tile)
        ]

    def tile_size(self, axis: int) -> ir.ConstRef:
        size = next(p for p in self.tile_sizes if p.value == self.tile[axis])
        return ir.ConstRef(size.name, type=TileType("i32"))

    def count_param(self, axis: int) -> ir.Param:
        count = self.counts[axis]
        return ir.Param(count.name, type=TileType("i32"))

    # ------------------------------------------------------------------ prologue

    def prologue(self) -> None:
        """Lane numbers, the valid-lane mask and the loop variables of this block."""
        origin = self.origin(self.plan.loop.stmt)
        valid = None
        for axis, (dim, t) in enumerate(zip(self.plan.dims, self.tile)):
            count_name = self.new_name(dim.var, "count")
            self.counts.append(
                LoopCount(count_name, dim.var, dim.start, dim.limit, dim.step, dim.limit_offset)
            )
            count = self.scalar_param(count_name, "i32", hostir.HostValue("count", (count_name,)))
            lanes: KExpr = ir.Arange(type=TileType("i32", (t,)))
            if self.rank > 1:
                shape = tuple(t if a == axis else 1 for a in range(self.rank))
                lanes = ir.Reshape(lanes, type=TileType("i32", shape))
            offset = B.binary("mul", self.block_index(axis), self.tile_size(axis), self.ndt)
            self.lanes.append(self.new_name(dim.var, "lane"))
            lane = self.let(self.lanes[axis], B.binary("add", offset, lanes, self.ndt), origin)
            origin = None
            ok = B.binary("lt", lane, count, self.ndt)
            valid = ok if valid is None else B.binary("and", valid, ok, self.ndt)
            value = (
                B.binary("mul", lane, B.const(dim.step, "i32"), self.ndt) if dim.step != 1 else lane
            )
            var = self.let(dim.var, B.binary("add", self.lane_start(dim), value, self.ndt))
            # A triangle: the lanes of the box outside it are not iterations.
            for bound, op in ((dim.first, "ge"), (dim.last, "le")):
                if bound is not None:
                    side = B.binary(op, B.cast(var, self.ndt), self.value(bound), self.ndt)
                    valid = B.binary("and", valid, side, self.ndt)
        if self.rank > 1:
            valid = B.broadcast(valid, self.tile)
        self.let(self.valid, valid)

    def block_index(self, axis: int) -> KExpr:
        """The number of the tile of iterations along `axis` (the block's, except in a scan)."""
        if self.tile_index is not None:
            return self.local(self.tile_index)
        return ir.BlockId(axis, type=TileType("i32"))

    def lane_start(self, dim) -> KExpr:
        """The first value of a lane variable: a constant, or an integer expression of
        enclosing loops' variables (a triangular nest).  A start too large for the
        kernel's 32-bit lane numbers leaves every block to the host."""
        if isinstance(dim.start, int):
            return B.const(dim.start, "i32")
        start = self.let(dim.var + "_FIRST", B.cast(self.value(dim.start), self.ndt))
        fits = self.let(
            dim.var + "_FITS",
            B.binary("lt", B.unary("abs", start, self.ndt), B.const(2.0**30, self.ndt), self.ndt),
        )
        self.starts_fit.append(fits)
        safe = B.select(fits, start, B.const(0.0, self.ndt), self.ndt)
        return B.cast(safe, "i32")

    def array_tile_prologue(self) -> None:
        """Arrays the loop writes: their lane tile lives in a local until the end."""
        for name in sorted(self.plan.written):
            self.array_param(name)
            local = self.new_name(name, "tile")
            self.array_tiles[name] = local
            form = self.plan.written[name]
            if self._aligned(name, form):
                if self._needs_initial_load(name):
                    self.let(local, self.aligned_load(name, form, None, cache=False))
                else:
                    # No load checks the subscripts, so the store's range is checked here.
                    self.add_range_checks(name, form, self._first_write(name))
            else:
                # Every write uses the same subscripts (the dependence pass made sure):
                # their elements, from the first write (rounded, with loop-invariant
                # scalars: Y(I + K)), and the lanes where one is out of range.
                indices, ok = self.subscripts(name, self._first_write(name).indices)
                self.event_unless(ok)
                self.scatter_at[name] = indices
                if self._needs_initial_load(name):
                    self.let(local, self.gather(name, indices, self.lane_type.shape))
            self.writes.add(name)

    def _first_write(self, name: str) -> ast.Node | None:
        for node in hostir.walk(self.plan.body):
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                if isinstance(target, ast.Index) and target.name == name:
                    return target
        return None

    def _needs_initial_load(self, name: str) -> bool:
        """False when the body's first use of the array is an unconditional write that
        does not read it: then every lane's value comes from that write."""
        for node in self.plan.body:
            if not any(
                _mentions_array(n, name) for h in hostir.walk([node]) for n in _node_exprs(h)
            ):
                continue
            if self.recurrence is not None and node.stmt is self.recurrence.node.stmt:
                return False  # it reads only the element before the tile (scan_statement)
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                writes_it = isinstance(target, ast.Index) and target.name == name
                return not writes_it or _mentions_array(node.stmt.value, name)
            return True
        return True

    def sums(self) -> dict[str, Reduction]:
        """The variables summed by the loop, each with its first update (`S = S + e` or
        `S = S - e`), whose operation the host finishes the partial sums with; one
        variable may be updated by several statements."""
        found: dict[str, Reduction] = {}
        for r in self.plan.reductions:
            if r.op in ("sum", "sub"):
                found.setdefault(r.var, r)
        return found

    def reduction_prologue(self) -> None:
        for var in self.sums():
            self.accumulators[var] = self.new_name(var, "acc")
            self.let(self.accumulators[var], ir.Full(0.0, type=self.lane_type))

    # ------------------------------------------------------------------ statements

    def block(self, nodes: list[hostir.HNode]) -> None:
        for node in nodes:
            self.node(node)

    def node(self, node: hostir.HNode) -> None:
        reduction = self.plan.reduction_for(node)
        if reduction is not None:
            self.reduction(reduction)
            return
        if isinstance(node, hostir.Simple):
            stmt = node.stmt
            if isinstance(stmt, ast.Rem):
                return
            if self.recurrence is not None and stmt is self.recurrence.node.stmt:
                self.scan_statement(stmt)
                return
            self.assign(stmt)
        elif isinstance(node, hostir.If):
            self.if_node(node)
        elif isinstance(node, hostir.ForLoop):
            self.inner_for(node)
        elif isinstance(node, hostir.WhileLoop):
            self.lane_loop(node)
        elif isinstance(node, hostir.Break):
            if not self.loops:
                raise NotParallel("the loop is left early (a jump out of it)", node.origin)
            ctx = self.loops[-1]
            leaving = self.mask if self.mask is not None else self.local(ctx.live)
            live = self.local(ctx.live)
            self.let(ctx.live, B.binary("and", live, B.unary("not", leaving, self.ndt), self.ndt))
        else:
            raise NotParallel(*unexpressible(node))

    def assign(self, stmt: ast.Let) -> None:
        origin = self.origin(stmt)
        self.statement_start = len(self.out)
        self.statement_subscripts = {}
        try:
            self.assign_in_place(stmt, origin)
        finally:
            self.statement_subscripts = None

    def assign_in_place(self, stmt: ast.Let, origin) -> None:
        target = stmt.target
        if isinstance(target, ast.Index) and target.name in self.plan.histograms:
            self.histogram(stmt, origin)
            return
        value = self.value(stmt.value)
        if isinstance(target, ast.Var):
            name = target.name
            value = B.broadcast(B.cast(value, self.ndt), self.lane_type.shape)
            if self.mask is not None:
                if name not in self.locals:
                    self.predefine([name])
                value = B.select(self.mask, value, self.local(name), self.ndt)
            self.watch_result(stmt.value, self.let(name, value, origin))
            return
        if target.name in self.plan.sliced:
            self.slice_write(target, value, stmt.value, origin)
            return
        local = self.array_tiles[target.name]
        value = B.broadcast(B.cast(value, self.ndt), self.lane_type.shape)
        if self.mask is not None:
            value = B.select(self.mask, value, self.local(local), self.ndt)
        self.watch_result(stmt.value, self.let(local, value, origin))

    def slice_write(self, target: ast.Index, value: KExpr, e: ast.Expr, origin) -> None:
        """`X(...) = e` where X is written in place (LoopPlan.sliced): each lane stores
        into its own slice now, and reads it back later in the kernel (cuTile orders a
        block's loads after its stores to the same array; the CUDA lowering puts a
        barrier after such a store).  A block that then meets an exception has changed
        the array: the host restores it before replaying the loop (hostir.Replay.restore)."""
        name = target.name
        self.array_param(name)
        self.writes.add(name)
        value = self.let(
            self.new_name(name, "new"), B.broadcast(B.cast(value, self.ndt), self.lane_type.shape)
        )
        self.watch_result(e, value)
        indices, ok = self.element_subscripts(name, target.indices)
        where = B.binary("and", self.full_mask(), ok, self.ndt)
        # Every lane scatters (masked): an index that one lane axis does not vary (A(I)
        # in lanes over J and I) is spread over the lanes, as cuTile's scatter requires.
        indices = tuple(B.broadcast(index, self.lane_type.shape) for index in indices)
        self.out.append(ir.Scatter(name, indices, value, where))
        self.out[self.statement_start].origin = origin  # the comment before its first line

    def element_subscripts(self, name: str, indices: list[ast.Expr]):
        """`subscripts` of an element the statement being lowered reads or writes, each
        computed (and checked) once per statement: `C(I, J) = C(I, J) * BETA` gathers and
        scatters at the same indices."""
        if self.statement_subscripts is None:  # not in an assignment
            found = self.subscripts(name, indices)
            self.event_unless(found[1])
            return found
        key = (name, tuple(show_expr(i) for i in indices))
        if key not in self.statement_subscripts:
            found = self.subscripts(name, indices)
            self.event_unless(found[1])
            self.statement_subscripts[key] = found
        return self.statement_subscripts[key]

    def predefine(self, names) -> None:
        """Give private variables a value before the first branch or loop that sets
        them, so they are defined on every path (cuTile needs that; lanes that read the
        placeholder do not exist: the dependence pass proved privates are set first)."""
        for name in sorted(names):
            if name not in self.locals and name in self.plan.privates and name not in self.uniform:
                self.out.append(ir.Let(name, ir.Full(0.0, type=self.lane_type)))
                self.locals[name] = self.lane_type

    def if_node(self, node: hostir.If) -> None:
        origin = self.origin(node.origin)
        saved = self.mask
        rest = saved  # lanes that took no arm so far
        else_mask_needed = node.else_body is not None or len(node.arms) > 1
        self.predefine(_assigned_in(node))
        for i, (cond_expr, body) in enumerate(node.arms):
            cond = B.to_bool(self.value_or_cond(cond_expr))
            if cond.type.is_scalar and saved is None and not else_mask_needed:
                self.guards += 1
                self.scalar_ifs += 1
                then_out = self._capture(lambda b=body: self.block(b))
                self.scalar_ifs -= 1
                self.guards -= 1
                self.out.append(ir.IfScalar(cond, then_out, [], origin=origin))
                return
            cond = B.broadcast(cond, self.lane_type.shape)
            arm_mask = cond if rest is None else B.binary("and", rest, cond, self.ndt)
            arm = self.let(self.fresh("taken"), arm_mask, origin if i == 0 else None)
            origin = None
            if else_mask_needed:
                not_cond = B.unary("not", cond, self.ndt)
                rest_expr = not_cond if rest is None else B.binary("and", rest, not_cond, self.ndt)
                rest = self.let(self.fresh("others"), rest_expr)
            self.mask = arm
            self.guards += 1
            self.block(body)
            self.guards -= 1
            self.mask = saved
        if node.else_body:
            self.mask = rest
            self.guards += 1
            self.block(node.else_body)
            self.guards -= 1
            self.mask = saved

    def _capture(self, fn) -> list[ir.KStmt]:
        saved = self.out
        self.out = []
        try:
            fn()
            return self.out
        finally:
            self.out = saved

    def trip_count(self, var: str, start, limit, step, origin):
        """The start, step and count (i32) of an inner FOR, as locals (tiles when the
        bounds differ between lanes).  ECMA-55: the body runs max(0, floor((limit -
        start) / step) + 1) times; a count that is not a number, or too large (STEP 0
        runs for ever), is the host's."""
        start_l = self.let(self.new_name(var, "start"), start, origin)
        step_l = self.let(self.new_name(var, "step"), step)
        span = B.binary("div", B.binary("sub", limit, start_l, self.ndt), step_l, self.ndt)
        trips = self.let(
            self.new_name(var, "span"),
            B.binary("add", B.unary("floor", span, self.ndt), B.const(1.0, self.ndt), self.ndt),
        )
        ends = B.binary("lt", trips, B.const(_TRIPS_LIMIT, self.ndt), self.ndt)  # not NaN
        ends = B.binary(
            "and", ends, B.binary("ne", step_l, B.const(0.0, self.ndt), self.ndt), self.ndt
        )
        ends = self.let(self.new_name(var, "ends"), ends)
        self.event_unless(ends)
        safe = B.select(
            ends,
            B.binary("max", trips, B.const(0.0, self.ndt), self.ndt),
            B.const(0.0, self.ndt),
            self.ndt,
        )
        return start_l, step_l, self.let(self.new_name(var, "trips"), B.cast(safe, "i32"))

    def inner_for(self, node: hostir.ForLoop) -> None:
        """An inner FOR: a plain range loop when its bounds are the same in every lane;
        when its start or limit differs between lanes (`FOR J = 1 TO I`), a range loop
        as long as the longest lane's, each lane running the body for its own count only
        (a mask, like an IF's)."""
        stmt = node.stmt
        if stmt.step is not None and not self._is_uniform(stmt.step):
            raise NotParallel("an inner FOR's STEP differs between iterations", stmt.step)
        per_lane = not (self._is_uniform(stmt.start) and self._is_uniform(stmt.limit))
        var = stmt.var.name
        origin = self.origin(stmt)
        start = B.cast(self.value(stmt.start), self.ndt)
        limit = B.cast(self.value(stmt.limit), self.ndt)
        if per_lane:
            start = B.broadcast(start, self.lane_type.shape)
            limit = B.broadcast(limit, self.lane_type.shape)
        step = (
            B.cast(self.value(stmt.step), self.ndt)
            if stmt.step is not None
            else B.const(1.0, self.ndt)
        )
        # The variable already holds a value per lane (the last value of a loop with the
        # lane's bounds, trmm's `FOR J = 0 TO I - 1 ... FOR J = 0 TO N - 1`): this
        # loop's values are broadcast to every lane, so that it keeps one type (a CUDA
        # variable has one).
        widened = not per_lane and var in self.locals and not self.locals[var].is_scalar
        if per_lane or widened:
            self.uniform.pop(var, None)
            self.predefine(_assigned_in_list(node.body) | {var})
        else:
            self.predefine(_assigned_in_list(node.body))
        start_l, step_l, count = self.trip_count(var, start, limit, step, origin)
        trips = count
        if per_lane:
            # Lanes that are not iterations (or not on this path) do not lengthen the loop.
            counted = B.select(self.full_mask(), count, B.const(0, "i32"), self.ndt)
            trips = self.let(
                self.new_name(var, "longest"),
                ir.Reduce("max", counted, None, type=TileType("i32")),
            )
        counter = self.new_name(var, "k")
        saved_out, saved_mask = self.out, self.mask
        self.out = []
        self.locals[counter] = TileType("i32")
        k = ir.Local(counter, type=TileType("i32"))
        value = B.binary(
            "add", start_l, B.binary("mul", B.cast(k, self.ndt), step_l, self.ndt), self.ndt
        )
        self.let(var, B.broadcast(value, self.lane_type.shape) if widened else value)
        if per_lane:
            running = B.binary("lt", B.broadcast(k, self.lane_type.shape), count, self.ndt)
            if saved_mask is not None:
                running = B.binary("and", saved_mask, running, self.ndt)
            self.mask = self.let(self.fresh("running"), running)
            self.guards += 1
        elif not widened:
            self.uniform[var] = var
        self.inner_depth += 1
        self.block(node.body)
        self.inner_depth -= 1
        if per_lane:
            self.guards -= 1
        body = self.out
        self.out, self.mask = saved_out, saved_mask
        self.out.append(ir.ForRange(counter, B.const(0, "i32"), trips, body, origin=None))
        # The variable's value after the loop (per lane), as BASIC defines it (Microsoft
        # BASIC adds the step once even to a loop that runs zero times).
        steps = B.cast(count, self.ndt)
        if self.analysis.options.microsoft:
            steps = B.binary("max", steps, B.const(1.0, self.ndt), self.ndt)
        last = B.binary("add", start_l, B.binary("mul", steps, step_l, self.ndt), self.ndt)
        self.let(var, B.broadcast(last, self.lane_type.shape) if widened else last)

    def lane_loop(self, node: hostir.WhileLoop) -> None:
        """A loop whose trip count differs per lane: loop while any lane still loops."""
        origin = self.origin(node.origin)
        cond_expr = getattr(node.stmt, "condition", None) if node.stmt is not None else None
        live_name = self.fresh("looping")
        entry = self.full_mask()
        if cond_expr is not None:
            entry = B.binary(
                "and",
                entry,
                B.broadcast(B.to_bool(self.value_or_cond(cond_expr)), self.lane_type.shape),
                self.ndt,
            )
        self.let(live_name, entry, origin)
        self.predefine(_assigned_in_list(node.body))
        saved_mask, saved_out = self.mask, self.out
        self.out = []
        self.loops.append(_LoopContext(live_name))
        self.mask = self.local(live_name)
        self.inner_depth += 1
        self.block(node.body)
        self.inner_depth -= 1
        if cond_expr is not None:
            again = B.broadcast(B.to_bool(self.value_or_cond(cond_expr)), self.lane_type.shape)
            self.let(live_name, B.binary("and", self.local(live_name), again, self.ndt))
        self.loops.pop()
        body = self.out
        self.out, self.mask = saved_out, saved_mask
        self.out.append(ir.WhileLoop(self.any_lane(self.local(live_name)), body))

    # ------------------------------------------------------------------ reductions

    def reduction(self, r: Reduction) -> None:
        stmt = r.node.origin
        origin = self.origin(stmt)
        value = B.cast(self.watched(r.value, generated_name(r.var, "term")), self.ndt)
        mask = self.full_mask()
        if r.op in ("sum", "sub"):
            acc = self.local(self.accumulators[r.var])
            if r.op != self.sums()[r.var].op:  # S = S - e in a sum finished by +, or the reverse
                value = B.unary("neg", value, self.ndt)
            term = B.select(mask, value, B.const(0.0, self.ndt), self.ndt)
            self.let(acc.name, B.binary("add", acc, term, self.ndt), origin)
            return
        if self.loops:
            raise NotParallel("a maximum/minimum is updated inside an inner loop", stmt)
        worst = -math.inf if r.op == "max" else math.inf
        cand = self.let(
            self.new_name(r.var, "cand"),
            B.select(mask, value, B.const(worst, self.ndt), self.ndt),
            origin,
        )
        payloads = []
        for var, expr in r.payload:
            candidate = self.let(
                self.new_name(var, "cand"),
                B.broadcast(B.cast(self.value(expr), self.ndt), self.lane_type.shape),
            )
            self.watch_result(expr, candidate)
            payloads.append((var, candidate))
        self.extremes.append((r, cand, payloads))

    def histogram(self, stmt: ast.Let, origin) -> None:
        """`H(B) = H(B) + e`: an atomic add, made at the end of the kernel by a block that
        finished (a block left to the host must not have counted)."""
        target = stmt.target
        if self.inner_depth or self.scalar_ifs:
            raise NotParallel(
                "a histogram updated in an inner loop or a uniform IF stays on the host", stmt
            )
        increment = self.value(stmt.value.right)
        if stmt.value.op == "-":
            increment = B.unary("neg", increment, self.ndt)
        increment = B.cast(increment, self.ndt)
        if not isinstance(increment, ir.Const):  # its value now, added at the end
            increment = B.broadcast(increment, self.lane_type.shape)
            increment = self.let(self.new_name(target.name, "add"), increment, origin)
            self.watch_result(stmt.value.right, increment)
        indices, ok = self.subscripts(target.name, target.indices)
        active = B.binary("and", self.full_mask(), ok, self.ndt)
        self.event_unless(ok)
        # Lanes that must not count get index -1, which atomic_add skips.
        safe = []
        for axis, index in enumerate(indices):
            bin_index = B.select(
                active, B.broadcast(index, self.lane_type.shape), B.const(-1, "i32"), self.ndt
            )
            word = "bin" if len(indices) == 1 else f"bin{axis}"
            safe.append(self.let(self.new_name(target.name, word), bin_index))
        self.array_param(target.name)
        self.writes.add(target.name)
        self.deferred.append(ir.AtomicAdd(target.name, tuple(safe), increment, origin=origin))

    # ------------------------------------------------------------------ epilogue

    def epilogue(self) -> None:
        stores = self.array_stores() + self.deferred
        block_id = self.block_linear()
        totals = {var: (first, self.block_total(var)) for var, first in self.sums().items()}
        if self.events is not None:
            self.finish_or_leave(stores, block_id)
        else:
            self.out += stores
        for var, (first, total) in totals.items():
            temp = self.partial_temp(var)
            self.out.append(ir.Store(temp, (block_id,), total))
            self.finish.append(Finish(first.op, var=var, temp=temp, origin=first.node.origin))
        for r, cand, payloads in self.extremes:
            self.extreme_epilogue(r, cand, payloads, block_id)

    def array_stores(self) -> list[ir.KStmt]:
        """Store the lane tiles of the arrays the loop writes."""
        stores: list[ir.KStmt] = []
        for name in sorted(self.plan.written):
            local = self.array_tiles[name]
            if local not in self.locals:
                continue  # never actually written
            form = self.plan.written[name]
            if self._aligned(name, form):
                view = self.view(name, form)
                index = tuple(self.block_index(a) for a in range(self.rank))
                stores.append(ir.Store(name, index, self.local(local), view))
            else:
                indices = self.scatter_at[name]
                stores.append(ir.Scatter(name, indices, self.local(local), self.local(self.valid)))
        return stores

    def tile_loop(self) -> None:
        """A scan's kernel: the body so far, then the stores, run for each tile of
        iterations in order by the one block.  Every tile stores its results: the next
        one starts from its last element.  A tile that meets an exception does too; the
        host then puts the arrays back and runs the loop (hostir.Replay.restore)."""
        before = 1 if self.events is not None else 0  # the exceptions tile, all False
        body = self.out[before:] + self.array_stores()
        origin, body[0].origin = body[0].origin, None  # the FOR's comment goes on the loop
        stop = B.binary("cdiv", self.count_param(0), self.tile_size(0), self.ndt)
        loop = ir.ForRange(self.tile_index, B.const(0, "i32"), stop, body, origin=origin)
        self.out[before:] = [*self.carry_start, loop]
        self.finish_or_leave([], self.block_linear())
        r = self.recurrence
        if r.scalar:  # its last value, for the host
            temp = self.new_name(r.name, "last")
            self.temps.append(Temp(temp, self.ndt, self.block_count()))
            self.array_param(temp, self.ndt, 1, temp=True)
            self.out.append(ir.Store(temp, (self.block_linear(),), self.local(self.scan_carry)))
            self.finish.append(Finish("set", var=r.name, temp=temp))

    def scan_statement(self, stmt: ast.Let) -> None:
        """`P(f) = [a *] P(f') + e` or `S = [a *] S + e` (LoopPlan.recurrence): the
        tile's values from the terms and factors of its iterations and the value before
        the tile's first iteration (element_before_tile, scalar_carry)."""
        r = self.recurrence
        origin = self.origin(stmt)
        self.statement_start = len(self.out)
        self.statement_subscripts = {}
        try:
            for node in stmt.value.walk():
                self.microsoft_check(node)
            carry = self.scalar_carry(r) if r.scalar else self.element_before_tile(r)
            value = B.broadcast(B.cast(self.scanned(r, carry), self.ndt), self.lane_type.shape)
            value = self.let(r.name if r.scalar else self.array_tiles[r.name], value)
            self.event_unless(self.finite(value))
            if r.scalar:
                self.carry_last(value)
            self.out[self.statement_start].origin = origin  # the comment before its first line
        finally:
            self.statement_subscripts = None

    def element_before_tile(self, r) -> KExpr:
        """The element the iteration before the tile's first wrote: the tile before
        stored it (before the first tile, it is the loop's starting value)."""
        lane = self.local(self.lanes[0])
        offset = B.binary("mul", self.block_index(0), self.tile_size(0), self.ndt)
        first = B.binary("and", self.full_mask(), B.binary("eq", lane, offset, self.ndt), self.ndt)
        indices, _ = self.element_subscripts(r.name, r.previous.indices)
        before = ir.Gather(r.name, indices, first, type=self.lane_type)
        return self.let(
            self.new_name(r.name, "carry"), ir.Reduce("sum", before, None, type=TileType(self.ndt))
        )

    def scalar_carry(self, r) -> KExpr:
        """A scalar's value before the tile, which the loop over the tiles carries: the
        host's value before the first tile, then the value of the tile's last iteration
        (carry_last)."""
        start = self.scalar_param(
            self.new_name(r.name, "start"), self.ndt, hostir.HostValue("var", (r.name,))
        )
        self.scan_carry = self.new_name(r.name, "carry")
        self.locals[self.scan_carry] = TileType(self.ndt)
        self.carry_start = [ir.Let(self.scan_carry, B.cast(start, self.ndt))]
        return self.local(self.scan_carry)

    def carry_last(self, value: KExpr) -> None:
        """The scalar's value in the tile's last iteration, for the next tile."""
        lane = self.local(self.lanes[0])
        end = B.binary(
            "add", B.binary("mul", self.block_index(0), self.tile_size(0), self.ndt),
            self.tile_size(0), self.ndt,
        )  # fmt: skip
        last = B.binary(
            "sub", B.binary("min", end, self.count_param(0), self.ndt), B.const(1, "i32"), self.ndt
        )
        at_last = B.binary("eq", lane, last, self.ndt)
        picked = B.select(at_last, value, B.const(0.0, self.ndt), self.ndt)
        self.let(self.scan_carry, ir.Reduce("sum", picked, None, type=TileType(self.ndt)))

    def scanned(self, r, carry: KExpr) -> KExpr:
        """The tile's elements: `carry` (the element before the tile's first) plus the
        running sums of the terms (op "sum"), times the running products of the factors
        ("prod"), or both ("linear": the products times `carry` plus the recurrence's
        values from 0)."""
        mask = self.full_mask()
        shape = self.lane_type.shape
        terms = None
        for sign, term in r.terms:
            value = B.cast(self.value(term), self.ndt)
            if terms is None:
                terms = value if sign > 0 else B.unary("neg", value, self.ndt)
            else:
                terms = B.binary("add" if sign > 0 else "sub", terms, value, self.ndt)
        if terms is not None:  # the lanes that are no iterations add nothing
            terms = B.select(mask, B.broadcast(terms, shape), B.const(0.0, self.ndt), self.ndt)
            terms = self.let(self.new_name(r.name, "terms"), terms)
        factors = None
        if r.factor is not None:  # ... and multiply by 1
            factors = B.broadcast(B.cast(self.value(r.factor), self.ndt), shape)
            factors = B.select(mask, factors, B.const(1.0, self.ndt), self.ndt)
            factors = self.let(self.new_name(r.name, "factors"), factors)
        if r.op == "sum":
            return B.binary("add", carry, ir.Scan("sum", terms, type=self.lane_type), self.ndt)
        products = ir.Scan("prod", factors, type=self.lane_type)
        if r.op == "prod":
            return B.binary("mul", carry, products, self.ndt)
        linear = ir.Scan("linear", terms, factors, type=self.lane_type)
        return B.binary("add", B.binary("mul", products, carry, self.ndt), linear, self.ndt)

    def block_total(self, var: str) -> KExpr:
        """The block's sum of a sum variable's terms.  Where one of BASIC's `S + E` could
        overflow, a total that is not finite is an exception: the interpreter warns at
        the addition that overflows, so the host runs the block's iterations."""
        total: KExpr = ir.Reduce(
            "sum", self.local(self.accumulators[var]), None, type=TileType(self.ndt)
        )
        updates = [r for r in self.plan.reductions if r.var == var and r.op in ("sum", "sub")]
        if not any(sum_may_overflow(r.node.stmt.value, self.analysis.expr_types) for r in updates):
            return total
        total = self.let(self.new_name(var, "total"), total)
        self.event_unless(self.finite(total))
        return total

    def finish_or_leave(self, stores: list[ir.KStmt], block_id: KExpr) -> None:
        """A block whose lanes met no exception stores its results and sets its flag;
        another stores nothing: the host runs its iterations (its partial results, if
        any, are not used)."""
        met = ir.Reduce("max", B.cast(self.local(self.events), "i32"), None, type=TileType("i32"))
        finished = self.let(
            self.new_name("finished"), B.binary("eq", met, B.const(0, "i32"), self.ndt)
        )
        if stores:
            self.out.append(ir.IfScalar(finished, stores))
        self.array_param(DONE_FLAGS, "i32", 1, temp=True)
        self.temps.append(Temp(DONE_FLAGS, "i32", self.block_count()))
        self.out.append(ir.Store(DONE_FLAGS, (block_id,), B.cast(finished, "i32")))

    def extreme_epilogue(self, r: Reduction, cand: ir.Local, payloads, block_id) -> None:
        if payloads and self.rank != 1:
            raise NotParallel("an arg-max/arg-min over a nest is kept on the host", r.node.origin)
        temp = self.partial_temp(r.var)
        best = self.let(
            self.new_name(r.var, "block"), ir.Reduce(r.op, cand, None, type=TileType(self.ndt))
        )
        self.out.append(ir.Store(temp, (block_id,), best))
        finish = Finish(r.op, var=r.var, temp=temp, strict=r.strict)
        if payloads:
            lane = self.local(self.lanes[0])
            hits = B.binary("eq", cand, best, self.ndt)
            # Strict comparison keeps the first extreme, `>=`/`<=` the last.
            if r.strict:
                pick = ir.Reduce(
                    "min",
                    B.select(hits, lane, B.const(2**31 - 1, "i32"), self.ndt),
                    None,
                    type=TileType("i32"),
                )
            else:
                pick = ir.Reduce(
                    "max",
                    B.select(hits, lane, B.const(-1, "i32"), self.ndt),
                    None,
                    type=TileType("i32"),
                )
            chosen = self.let(self.new_name(r.var, "lane_pick"), pick)
            at_pick = B.binary("eq", lane, chosen, self.ndt)
            for var, value in payloads:
                ptemp = self.partial_temp(var)
                picked = ir.Reduce(
                    "max",
                    B.select(at_pick, value, B.const(-math.inf, self.ndt), self.ndt),
                    None,
                    type=TileType(self.ndt),
                )
                self.out.append(ir.Store(ptemp, (block_id,), picked))
                finish.payload.append((var, ptemp))
        self.finish.append(finish)

    def partial_temp(self, var: str) -> str:
        name = self.new_name(var, "partial")
        self.temps.append(Temp(name, self.ndt, self.block_count()))
        self.array_param(name, self.ndt, 1, temp=True)
        return name

    def grid(self) -> list[hostir.HostValue]:
        """The number of blocks along each axis of the launch (a scan: one block)."""
        if self.recurrence is not None:
            return [hostir.HostValue("num", (1,))]
        return [
            hostir.HostValue(
                "cdiv", (hostir.HostValue("count", (c.name,)), hostir.HostValue("num", (t,)))
            )
            for c, t in zip(self.counts, self.tile)
        ]

    def block_count(self) -> hostir.HostValue:
        """The number of blocks of the launch (the product over the grid's axes)."""
        per_axis = self.grid()
        return per_axis[0] if len(per_axis) == 1 else hostir.HostValue("mul", tuple(per_axis))

    def block_linear(self) -> KExpr:
        """The block's number in row-major order of the grid (the host's replay agrees)."""
        linear: KExpr = ir.BlockId(0, type=TileType("i32"))
        for axis in range(1, self.rank):
            blocks = B.binary("cdiv", self.count_param(axis), self.tile_size(axis), self.ndt)
            row = B.binary("mul", linear, blocks, self.ndt)
            linear = B.binary("add", row, ir.BlockId(axis, type=TileType("i32")), self.ndt)
        return linear

    # ------------------------------------------------------------------ expressions

    def _is_uniform(self, expr: ast.Expr) -> bool:
        for var in expression_reads(self.analysis, expr):
            if var in self.plan.lane_vars or (
                var in self.plan.privates and var not in self.uniform
            ):
                return False
        return not any(isinstance(n, ast.Index) for n in expr.walk())

    def value_or_cond(self, e: ast.Expr) -> KExpr:
        """An expression used as a condition: comparisons and logic stay boolean."""
        self.microsoft_check(e)
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            op = "and" if e.op == "AND" else "or"
            return B.binary(
                op,
                B.to_bool(self.value_or_cond(e.left)),
                B.to_bool(self.value_or_cond(e.right)),
                self.ndt,
            )
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return B.unary("not", B.to_bool(self.value_or_cond(e.operand)), self.ndt)
        if isinstance(e, ast.BinOp) and e.op in _COMPARE:
            return B.binary(_COMPARE[e.op], self.watched(e.left), self.watched(e.right), self.ndt)
        return self.value(e)

    def microsoft_check(self, e: ast.Expr) -> None:
        """What a kernel cannot compute as Microsoft BASIC does stays on the host: its
        bitwise AND, OR and NOT (of numbers that are not truth values), MOD of integers,
        and doubles in a single-precision kernel."""
        if not self.microsoft:
            return
        if self.analysis.expr_types.get(e) == "dbl" and self.ndt == "f32":
            raise NotParallel("double-precision values stay on the host", e)
        bitwise = isinstance(e, ast.BinOp) and e.op in ("AND", "OR")
        bitwise = bitwise or isinstance(e, ast.UnaryOp) and e.op == "NOT"
        if bitwise and not is_truth_value(e):
            raise NotParallel("Microsoft BASIC's bitwise AND, OR, NOT stay on the host", e)
        if isinstance(e, ast.BinOp) and e.op == "MOD":
            raise NotParallel("Microsoft BASIC's MOD (of integers) stays on the host", e)

    def value(self, e: ast.Expr) -> KExpr:
        self.microsoft_check(e)
        if isinstance(e, ast.Num):
            if not self.constant:
                self.representable(float(e.value), e)
            return B.const(float(e.value), self.ndt)
        if isinstance(e, ast.Var):
            return self.variable(e)
        if isinstance(e, ast.Index):
            return self.array_read(e)
        if isinstance(e, ast.UnaryOp):
            if e.op == "+":
                return self.value(e.operand)
            if e.op == "-":
                return B.unary("neg", self.value(e.operand), self.ndt)
            raise NotParallel("NOT used as a number stays on the host", e)
        if (
            isinstance(e, (ast.BinOp, ast.Call))
            and not self.constant
            and not self.reports(e)
            and constant_reports(e) is not None  # the same value in every iteration
        ):
            self.representable(constant_number(e), e)
            self.constant = True
            try:
                return self.value(e)
            finally:
                self.constant = False
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        raise NotParallel(f"{type(e).__name__} cannot be computed in a kernel", e)

    def representable(self, value: float | None, e: ast.Expr) -> None:
        """A constant meets the kernel's tiles in their element type: one beyond the range
        of float32 (1E300, EXP(100)) is no f32 value (cuTile rejects it; the interpreter
        computes with it in double), so its loop stays on the host."""
        if value is None or self.ndt != "f32" or not math.isfinite(value):
            return
        if abs(value) >= _F32_OVERFLOW:
            raise NotParallel(f"the constant {value:.8G} is beyond the range of f32", e)

    def variable(self, e: ast.Var) -> KExpr:
        name = e.name
        if name in self.plan.lane_vars:
            return B.cast(self.local(name), self.ndt)
        if name in self.locals and (name in self.plan.privates or name in self.uniform):
            return self.local(name)
        if name in self.plan.privates:
            raise NotParallel(f"{name} may be read before it is set in an iteration", e)
        # A `%` variable the loop only reads holds an integer of 16 bits, exact in f32.
        return self.scalar_param(name, self.ndt, hostir.HostValue("var", (name,)))

    def binop(self, e: ast.BinOp) -> KExpr:
        if e.op in _COMPARE or e.op in ("AND", "OR"):
            raise NotParallel("a comparison used as a number stays on the host", e)
        op = _BINARY.get(e.op)
        if op is None and e.op != "^":
            raise NotParallel(f"operator {e.op} stays on the host", e)
        if e.op == "^":
            exponent = constant_value(e.right)
            if exponent is not None and exponent == int(exponent) and 0 <= exponent <= 4:
                return _integer_power(self.value(e.left), int(exponent), self.ndt)
            return self.power(e)
        if op == "mod":  # x MOD inf is x
            return B.binary(op, self.watched(e.left), self.watched(e.right), self.ndt)
        left = self.value(e.left)
        right = self.watched(e.right) if op == "div" else self.value(e.right)  # x / inf is 0
        return B.binary(op, left, right, self.ndt)

    def power(self, e: ast.BinOp) -> KExpr:
        """`a ^ b` as the interpreter computes it (runtime/arith.power): 0 ^ y is +inf for
        y < 0 and +0 for y > 0 (also for a base of -0).  An underflow to 0 warns; an
        overflow (an infinity) or a negative base to a fractional power (NaN) is seen
        where the value is stored or used; infinite operands can give a finite result
        (1 ^ inf), so they are watched."""
        ndt = self.ndt
        exponent = constant_value(e.right)
        base = self.watched(e.left, "base")
        exp = self.watched(e.right, "exponent")
        if self.constant:
            return B.binary("pow", base, exp, ndt)
        zero = B.const(0.0, ndt)
        result = self.let(self.fresh("power"), B.binary("pow", base, exp, ndt))
        self.event(
            B.binary("and", B.binary("eq", result, zero, ndt), B.binary("ne", base, zero, ndt), ndt)
        )
        if exponent == 0:
            return result
        base = self.operand(B.cast(base, ndt), "base")
        at_zero = B.binary("eq", base, zero, ndt)
        if exponent is None or exponent > 0:
            positive = (
                at_zero
                if exponent is not None
                else B.binary("and", at_zero, B.binary("gt", exp, zero, ndt), ndt)
            )
            result = B.select(positive, zero, result, ndt)
        if exponent is None or exponent < 0:
            negative = (
                at_zero
                if exponent is not None
                else B.binary("and", at_zero, B.binary("lt", exp, zero, ndt), ndt)
            )
            result = B.select(negative, B.const(math.inf, ndt), result, ndt)
        return result

    def operand(self, value: KExpr, word: str) -> KExpr:
        """`value`, bound to a local first if it is an expression that would otherwise be
        printed (and computed) more than once."""
        if isinstance(value, (ir.Local, ir.Param, ir.Const, ir.Load, ir.Full)):
            return value
        return self.let(self.fresh(word), value)

    def call(self, e: ast.Call) -> KExpr:
        fn = self.analysis.functions.get(e.name)
        if fn is not None:
            return self.inline_function(fn, e)
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.kernel and len(e.args) == 1:
            if e.name == "EXP":
                return self.exp(e.args[0])
            # ATN and SGN make a finite value of an infinite one.
            arg = self.watched(e.args[0]) if builtin.bounded else self.value(e.args[0])
            arg = B.cast(arg, self.ndt)
            if e.name == "SGN":
                return self.sign(self.operand(arg, "sgn_arg"))
            return B.unary(builtin.tile_op, arg, self.ndt)
        if builtin is not None and builtin.kernel and len(e.args) == 2:
            left, right = self.watched(e.args[0]), self.watched(e.args[1])
            return B.binary(builtin.tile_op, left, right, self.ndt)
        raise NotParallel(f"{e.name} cannot be computed in a kernel", e)

    def sign(self, x: KExpr) -> KExpr:
        """SGN as the interpreter computes it: 1, 0, or -1 (also for NaN, as bas55)."""
        ndt = self.ndt
        zero = B.const(0.0, ndt)
        rest = B.select(B.binary("eq", x, zero, ndt), zero, B.const(-1.0, ndt), ndt)
        return B.select(B.binary("gt", x, zero, ndt), B.const(1.0, ndt), rest, ndt)

    def exp(self, arg_expr: ast.Expr) -> KExpr:
        """EXP warns when it overflows or underflows to 0: for an argument this large."""
        arg = B.cast(self.value(arg_expr), self.ndt)
        if self.constant:
            return B.unary("exp", arg, self.ndt)
        if not isinstance(arg, (ir.Local, ir.Param, ir.Const)):
            arg = self.let(self.fresh("exp_arg"), arg)
        size = B.unary("abs", arg, self.ndt)
        self.event_unless(B.binary("lt", size, B.const(_EXP_SAFE[self.ndt], self.ndt), self.ndt))
        return B.unary("exp", arg, self.ndt)

    def inline_function(self, fn, call: ast.Call) -> KExpr:
        bindings = {
            param: self.let(self.fresh(fn.name, param), self.value(arg))
            for param, arg in zip(fn.params, call.args)
        }
        return self._inline(fn.body, bindings)

    def _inline(self, body: ast.Expr, bindings: dict[str, KExpr]) -> KExpr:
        # Evaluate the body with parameters bound (they shadow variables of the program).
        original = self.variable

        def variable(e: ast.Var) -> KExpr:
            return bindings[e.name] if e.name in bindings else original(e)

        self.variable = variable  # type: ignore[method-assign]
        try:
            return self.value(body)
        finally:
            self.variable = original  # type: ignore[method-assign]

    # ------------------------------------------------------------------ arrays

    def array_read(self, e: ast.Index) -> KExpr:
        name = e.name
        if name in self.array_tiles:
            local = self.array_tiles[name]
            if local not in self.locals:
                raise NotParallel(f"{name} is read before the loop writes it", e)
            written = self._first_write(name).indices
            if len(e.indices) != len(written) or not all(
                same_expr(a, b) for a, b in zip(e.indices, written)
            ):
                return self.own_slice_read(e, self.local(local))
            return self.local(local)
        self.array_param(name)
        self.reads.add(name)
        lane_vars = self.plan.lane_vars
        form = tuple(affine(i, lane_vars, set()) for i in e.indices)
        # A tile load is hoisted to the start of the block: not for an array the lanes
        # write in place.
        aligned = name not in self.plan.sliced and all(f is not None for f in form)
        if aligned and self._aligned(name, form):
            key = (name, tuple(f.const for f in form))
            # A tile load's range is a condition of the launch; under an IF, BASIC reads
            # the element only where the condition holds (IF I < N THEN ... T(I + 1)):
            # a gather, whose lanes check their own subscripts.
            if not self.guards or key in self.loads:
                return self.aligned_load(name, form, e)
        indices, _ = self.element_subscripts(name, e.indices)
        shape = indices[0].type.shape
        for index in indices[1:]:  # a rank-3 array has three subscripts
            shape = B.broadcast_shape(shape, index.type.shape)
        return self.gather(name, indices, shape)

    def gather(self, name: str, indices, shape) -> ir.Gather:
        """The elements at `indices`.  In a triangle of lanes, the lanes of its box that
        are not iterations do not read: their elements may be other lanes' to write."""
        mask = None
        if any(dim.triangular for dim in self.plan.dims):
            mask = self.full_mask()
            shape = B.broadcast_shape(shape, self.lane_type.shape)
            # cuTile broadcasts the mask to the indices' shape, not the other way round.
            indices = tuple(B.broadcast(index, shape) for index in indices)
        return ir.Gather(name, indices, mask, type=TileType(self.ndt, shape))

    def own_slice_read(self, e: ast.Index, own: KExpr) -> KExpr:
        """A read of the lane's own slice of an array the loop writes (dependence
        `_in_own_slice`): the lane's own element, held in `own` until the end of the
        kernel, where the subscripts are the write's; elsewhere the array's element,
        which no lane of this launch writes."""
        name = e.name
        indices, ok = self.subscripts(name, e.indices)
        self.event_unless(ok)
        mine = self.scatter_at.get(name)  # computed before the body, or here
        if mine is None:
            mine, _ = self.subscripts(name, self._first_write(name).indices)
        same: KExpr | None = None
        for index, own_index in zip(indices, mine):
            equal = B.binary("eq", index, own_index, self.ndt)
            same = equal if same is None else B.binary("and", same, equal, self.ndt)
        shape = self.lane_type.shape
        for index in indices:
            shape = B.broadcast_shape(shape, index.type.shape)
        other = self.gather(name, indices, shape)
        return B.select(same, own, other, self.ndt)

    def _aligned(self, name: str, form: tuple[Affine | None, ...]) -> bool:
        """Each lane variable indexes its own axis with a constant offset (step 1)."""
        if len(form) != self.rank or any(f is None for f in form):
            return False
        if any(dim.triangular for dim in self.plan.dims):
            return False  # a tile would store the box's lanes outside the triangle too
        for f, dim in zip(form, self.plan.dims):
            if f.coeffs != ((dim.var, 1),) or f.symbols or f.const != int(f.const) or dim.step != 1:
                return False
            if not isinstance(dim.start, int):
                return False  # a view needs a constant first element
        return True

    def view(self, name: str, form) -> tuple[ir.ViewSlice, ...]:
        view = []
        for axis, (f, dim) in enumerate(zip(form, self.plan.dims)):
            first = dim.start + int(f.const) - self.base
            start = B.const(first, "i32")
            stop = B.binary("add", B.const(first, "i32"), self.count_param(axis), self.ndt)
            view.append(ir.ViewSlice(axis, start, stop))
        return tuple(view)

    def aligned_load(self, name: str, form, node, cache: bool = True) -> KExpr:
        key = (name, tuple(f.const for f in form))
        if cache and key in self.loads:
            return self.loads[key]
        self.add_range_checks(name, form, node)
        index = tuple(self.block_index(a) for a in range(self.rank))
        load = ir.Load(name, index, self.view(name, form), type=self.lane_type)
        if not cache:
            return load
        local = self.new_name(*_load_words(name, form, self.plan.dims))
        self.load_stmts.append(ir.Let(local, load))
        self.locals[local] = load.type
        self.loads[key] = ir.Local(local, type=load.type)
        return self.loads[key]

    def add_range_checks(self, name: str, form, node) -> None:
        for axis, (f, dim) in enumerate(zip(form, self.plan.dims)):
            count = self.counts[axis].name
            self.checks.append(
                RangeCheck(name, axis, dim.start, f.const, count, node or self.plan.loop.stmt)
            )

    def affine_index(self, f: Affine) -> KExpr:
        """A storage index tile from an affine subscript (integer arithmetic)."""
        expr: KExpr = B.const(int(f.const) - self.base, "i32")
        for var, c in f.coeffs:
            term = self.local(var)
            if c != 1:
                term = B.binary("mul", term, B.const(c, "i32"), self.ndt)
            expr = B.binary("add", term, expr, self.ndt)
        return expr

    def subscripts(self, name: str, indices: list[ast.Expr]) -> tuple[tuple[KExpr, ...], KExpr]:
        """Storage index tiles for `name(indices)` and the in-bounds mask."""
        sym = self.analysis.arrays[name]
        if len(indices) != sym.rank:
            raise NotParallel(f"{name} is used with {len(indices)} subscripts", None)
        out = []
        ok: KExpr | None = None
        stem = [name, *(_index_word(i) for i in indices)]
        for axis, index in enumerate(indices):
            f = affine(index, self.plan.lane_vars, set())
            suffix = "" if len(indices) == 1 else str(axis)
            word = self.new_name(*stem, f"at{suffix}")
            extent = ir.Extent(name, axis, type=TileType("i32"))
            if f is not None and not f.symbols and f.const == int(f.const):
                # Name it: it is used for the access, the mask and the error check.
                idx = self.let(word, self.affine_index(f))
                inside = B.binary(
                    "and",
                    B.binary("ge", idx, B.const(0, "i32"), self.ndt),
                    B.binary("lt", idx, extent, self.ndt),
                    self.ndt,
                )
            else:
                # ECMA-55: a subscript is rounded to the nearest integer.  The range is
                # checked before the conversion to an integer, so that NaN is outside.
                x = B.cast(self.value(index), self.ndt)
                element = B.unary(
                    "floor", B.binary("add", x, B.const(0.5, self.ndt), self.ndt), self.ndt
                )
                if self.base:
                    element = B.binary(
                        "sub", element, B.const(float(self.base), self.ndt), self.ndt
                    )
                element = self.let(self.new_name(*stem, f"subscript{suffix}"), element)
                inside = B.binary(
                    "and",
                    B.binary("ge", element, B.const(0.0, self.ndt), self.ndt),
                    B.binary("lt", element, B.cast(extent, self.ndt), self.ndt),
                    self.ndt,
                )
                inside = self.let(self.new_name(*stem, f"in{suffix}" if suffix else "ok"), inside)
                safe = B.select(inside, element, B.const(-1.0, self.ndt), self.ndt)
                idx = self.let(word, B.cast(safe, "i32"))
            ok = inside if ok is None else B.binary("and", ok, inside, self.ndt)
            out.append(idx)
        if not isinstance(ok, ir.Local):  # else the one subscript's `ok` already
            ok = self.let(self.new_name(*stem, "ok"), ok)
        return tuple(out), ok


def replay_body(loop: hostir.ForLoop, rank: int) -> tuple[list[hostir.HNode], list[hostir.HNode]]:
    """The statements of the offloaded nest before its inner FOR (none for one loop), and
    the body of the innermost loop."""
    if rank == 1:
        return [], list(loop.body)
    inner = [n for n in loop.body if isinstance(n, hostir.ForLoop)][-1]
    prefix = [n for n in loop.body if n is not inner]
    for _ in range(rank - 2):
        # Deeper levels have no statements between their FORs (dependence._lane_space).
        inner = [n for n in inner.body if isinstance(n, hostir.ForLoop)][-1]
    return prefix, list(inner.body)


def _prefixed_levels(loop: hostir.ForLoop, rank: int) -> list[int]:
    """The levels (0: the outermost FOR) of the first `rank` FORs of the nest whose
    bodies set temporaries before the next FOR (dependence._lane_space)."""
    out = []
    for level in range(rank - 1):
        if _sets_before_inner_for(loop):
            out.append(level)
        loop = [n for n in loop.body if isinstance(n, hostir.ForLoop)][-1]
    return out


def _sets_before_inner_for(loop: hostir.ForLoop) -> bool:
    """Whether `loop` (the FOR an interchange moved inside the lanes) runs statements
    before its inner FOR."""
    return any(
        not (isinstance(n, hostir.Simple) and isinstance(n.stmt, ast.Rem))
        for n in loop.body[: [isinstance(n, hostir.ForLoop) for n in loop.body].index(True)]
    )


def _line_of(stmt: ast.Stmt) -> str:
    return str(stmt.label) if stmt.label is not None else f"source line {stmt.coord.line}"


def _index_word(expr: ast.Expr) -> str:
    """A short identifier-friendly spelling of a subscript (B -> B, I + 1 -> I_P1: the
    words of a generated name, naming.generated_name)."""
    from .show import show_expr

    text = show_expr(expr).replace(" + ", "_P").replace(" - ", "_M").replace(" ", "")
    word = "".join(ch if ch.isalnum() else "_" for ch in text).strip("_")
    return word[:16] or "X"


def _load_words(array: str, form, dims) -> list[str]:
    """The name of a lane tile of a read array: X(I) -> x_i, T(I - 1) -> t_i_m1."""
    words = [array]
    for f, dim in zip(form, dims):
        offset = int(f.const)
        words.append(dim.var)
        if offset:
            words.append(f"p{offset}" if offset > 0 else f"m{-offset}")
    return words


def remove_dead_lets_of(body: list[ir.KStmt]) -> None:
    remove_dead_lets(ir.Kernel("", "map", [], body, (), (), "f64"))


def _integer_power(x: KExpr, n: int, ndt) -> KExpr:
    """x ^ n for n = 0..4 by multiplication.  An odd power of -0 is -0 by multiplication
    but +0 in BASIC (runtime/arith.power): a zero base gives 0."""
    if n == 0:
        return B.const(1.0, ndt)
    result = x
    for _ in range(n - 1):
        result = B.binary("mul", result, x, ndt)
    if n % 2:
        zero = B.const(0.0, ndt)
        result = B.select(B.binary("eq", x, zero, ndt), zero, result, ndt)
    return result


def _below_zero(x: KExpr, ndt) -> KExpr:
    return B.binary("lt", x, B.const(0.0, ndt), ndt)


def _not_positive(x: KExpr, ndt) -> KExpr:
    return B.binary("le", x, B.const(0.0, ndt), ndt)


def _infinite(x: KExpr, ndt) -> KExpr:
    return B.binary("eq", B.unary("abs", x, ndt), B.const(math.inf, ndt), ndt)


# The arguments for which the interpreter stops with "function domain error"
# (runtime/arith.py), by the table's domain of the function; a kernel flags them for the
# host to report.
_OUTSIDE_DOMAIN = {
    "any": None,
    "nonnegative": _below_zero,
    "positive": _not_positive,
    "finite": _infinite,
    "int16": None,  # CINT (Microsoft BASIC): no kernel evaluates it
}


def _mentions_array(node: ast.Node, name: str) -> bool:
    return any(isinstance(n, ast.Index) and n.name == name for n in node.walk())


def _node_exprs(node: hostir.HNode):
    if isinstance(node, hostir.Simple):
        yield from node.stmt.walk()
    elif isinstance(node, hostir.If):
        for cond, _ in node.arms:
            yield from cond.walk()
    elif isinstance(node, hostir.ForLoop):
        yield from node.stmt.walk()
    elif isinstance(node, hostir.WhileLoop) and node.stmt is not None:
        yield from node.stmt.walk()


def _assigned_in(node: hostir.If) -> set[str]:
    out: set[str] = set()
    for _, body in node.arms:
        out |= _assigned_in_list(body)
    if node.else_body:
        out |= _assigned_in_list(node.else_body)
    return out


def _assigned_in_list(nodes) -> set[str]:
    out: set[str] = set()
    for n in hostir.walk(nodes):
        if (
            isinstance(n, hostir.Simple)
            and isinstance(n.stmt, ast.Let)
            and isinstance(n.stmt.target, ast.Var)
        ):
            out.add(n.stmt.target.name)
    return out
