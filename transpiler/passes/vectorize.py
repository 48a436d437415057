"""Lower a parallel loop (`LoopPlan`) to a tile kernel: one lane per iteration.

A block handles one tile of the lane space (`I = start + k*step` for the tile's k).
The loop body runs for all lanes of the tile at once:
- values are tiles of the lane shape (loop-invariant scalars stay scalars);
- an IF whose condition differs between lanes does not branch: both sides are
  lowered under a lane mask, and assignments become `ct.where(mask, new, old)`;
- an inner loop whose trip count differs between lanes (a WHILE, or a loop formed
  with GOTO) runs while any lane is still looping, with a mask of the looping lanes;
  an inner FOR whose bounds are the same for every lane is an ordinary `range` loop;
- `Y(I)` on an array the loop writes is a tile held in a local until the end of the
  kernel, where it is stored once; reads of arrays the loop does not write are tile
  loads through a slice of the array (lanes' own element at a constant offset: a
  contiguous, zero-padded, bounds-exact load) or gathers (any other subscript);
- reductions accumulate per lane and end as one partial result per block, which the
  host combines in block order; histograms use atomic adds.

Subscripts that the host cannot check before the launch (gathers, histogram bins) are
checked in the kernel: an out-of-range lane records the failing statement in an
error flag that the host turns into BASIC's "subscript out of range" error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import ast, hostir
from ..builtins import BUILTINS
from ..hostir import Finish, LoopCount, RangeCheck, Temp
from .. import irbuild as B
from .. import ir
from ..ir import KExpr, TileType
from ..model import Analysis
from .dependence import LoopPlan, NotParallel, Reduction
from .exprutil import Affine, affine, constant_value
from .kernel_access import array_access
from .kernel_lowering import origin_of
from .kernel_cleanup import remove_dead_lets
from .liveness import expression_reads

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "MOD": "rem"}
_COMPARE = {"=": "eq", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
# The one-element array in which a kernel reports the site of a fatal BASIC error.
ERROR_FLAG = "BASIC_ERROR"


def choose_tile(plan: LoopPlan, dtype: ir.DType, override: tuple[int, ...] | None) -> tuple[int, ...]:
    """Tile shape of the lane space: big 1-D tiles for cheap bodies, smaller ones when
    lanes loop (more blocks keep the GPU busy), squarish 2-D tiles for nests."""
    rank = len(plan.dims)
    if override:
        if len(override) == rank:
            return override
        if len(override) == 1 and rank == 2:
            side = 1 << (int(math.log2(override[0])) // 2)
            return (side, override[0] // side)
    if rank == 2:
        return (16, 16) if plan.kind == "iterate" or _has_inner_for(plan) else (32, 32)
    if plan.kind == "iterate" or _has_inner_for(plan):
        return (128,)
    return (1024,) if dtype != "f64" else (512,)


def _has_inner_for(plan: LoopPlan) -> bool:
    return any(isinstance(n, hostir.ForLoop) for n in hostir.walk(plan.body))


def vectorize(plan: LoopPlan, analysis: Analysis, name: str, tile: tuple[int, ...]) -> hostir.Launch:
    """The Launch that replaces `plan.loop` (raises NotParallel for what it cannot express)."""
    return _Vectorizer(plan, analysis, name, tile).run()


@dataclass(eq=False)
class _LoopContext:
    live: str  # name of the local holding the mask of lanes still looping


class _Vectorizer:
    def __init__(self, plan: LoopPlan, analysis: Analysis, name: str, tile: tuple[int, ...]):
        self.plan = plan
        self.analysis = analysis
        self.name = name
        self.tile = tile
        self.ndt: ir.DType = analysis.number_type
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
        self.uniform: dict[str, str] = {}  # inner uniform FOR variable -> its float local
        self.array_tiles: dict[str, str] = {}  # written array -> local holding its lane tile
        self.error_sites: dict[int, hostir.ErrorSite] = {}
        self.current_stmt: ast.Stmt | None = None
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        # max/min reductions, finished at the end of the kernel: (reduction, lane
        # candidates, [(payload variable, lane values)]).
        self.extremes: list[tuple[Reduction, ir.Local, list]] = []
        # Tiles of read-only arrays at the lanes' own elements, loaded once per block
        # (named after the BASIC reference: X(I) -> X_I, T(I - 1) -> T_I_M1).
        self.loads: dict[tuple, ir.Local] = {}
        self.load_stmts: list[ir.KStmt] = []

    # ------------------------------------------------------------------ helpers

    def fresh(self, base: str) -> str:
        self.fresh_counter += 1
        name = f"{base}_{self.fresh_counter}"
        return name

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

    def array_param(self, name: str, dtype: ir.DType | None = None, rank: int | None = None, temp: bool = False):
        if ("array", name) in self._param_names:
            return
        self._param_names.add(("array", name))
        if dtype is None:
            sym = self.analysis.arrays[name]
            if sym.elem_type != "num":
                raise NotParallel(f"array {name} is not numeric", None)
            dtype, rank = self.ndt, sym.rank
        self.params.append(ir.ArrayParam(name, dtype, rank))
        self.args.append(hostir.HostValue("temp" if temp else "array", (name,)))

    def full_mask(self) -> KExpr:
        valid = self.local("VALID")
        return valid if self.mask is None else B.binary("and", valid, self.mask, self.ndt)

    def any_lane(self, mask: KExpr) -> KExpr:
        count = ir.Reduce("max", B.cast(mask, "i32"), None, type=TileType("i32"))
        return B.binary("gt", count, B.const(0, "i32"), self.ndt)

    # ------------------------------------------------------------------ driver

    def run(self) -> hostir.Launch:
        plan = self.plan
        first = plan.loop.stmt
        self.prologue()
        self.current_stmt = first
        loads_at = len(self.out)
        self.array_tile_prologue()
        self.reduction_prologue()
        self.block(plan.body)
        self.out[loads_at:loads_at] = self.load_stmts
        self.epilogue()
        remove_dead_lets_of(self.out)
        grid = [
            hostir.HostValue("cdiv", (hostir.HostValue("count", (c.name,)), hostir.HostValue("num", (t,))))
            for c, t in zip(self.counts, self.tile)
        ]
        reads, writes = array_access(self.out)
        for p in self.params:
            if isinstance(p, ir.ArrayParam):
                p.reads, p.writes = p.name in reads, p.name in writes or p.name in self.writes
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
        if self.error_sites:
            self.finish.append(Finish("errors", temp=ERROR_FLAG, sites=dict(self.error_sites)))
        for axis, (dim, count) in enumerate(zip(plan.dims, self.counts)):
            when = self.counts[0].name if axis else ""
            self.finish.append(
                Finish("loop_var", var=dim.var, start=dim.start, step=dim.step, count=count.name, when=when)
            )
        decision = ir.LoopDecision(first.label, first.coord, True, kernel.kind, kernel.summary, kernel.name)
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
            origin=first,
        )

    def summary(self) -> str:
        plan = self.plan
        loops = ", ".join(f"{d.var}" for d in plan.dims)
        shape = "x".join(str(t) for t in self.tile)
        what = {
            "map": "elementwise map",
            "stencil": "stencil (neighbour reads)",
            "reduce": "reduction",
            "histogram": "histogram (atomic adds)",
            "iterate": "per-element iteration (masked inner loop)",
        }.get(plan.kind, plan.kind)
        return f"{what} over {loops}; one {shape} tile of iterations per block, {self.ndt}"

    def _grid_exprs(self) -> list[KExpr]:
        return [
            B.binary("cdiv", self.count_param(i), B.const(t, "i32"), self.ndt)
            for i, t in enumerate(self.tile)
        ]

    def count_param(self, axis: int) -> ir.Param:
        count = self.counts[axis]
        return ir.Param(count.name, type=TileType("i32"))

    # ------------------------------------------------------------------ prologue

    def prologue(self) -> None:
        """Lane numbers, the valid-lane mask and the loop variables of this block."""
        origin = self.origin(self.plan.loop.stmt)
        valid = None
        for axis, (dim, t) in enumerate(zip(self.plan.dims, self.tile)):
            count_name = f"{dim.var}_COUNT"
            self.counts.append(LoopCount(count_name, dim.var, dim.start, dim.limit, dim.step))
            count = self.scalar_param(count_name, "i32", hostir.HostValue("count", (count_name,)))
            lanes: KExpr = ir.Arange(type=TileType("i32", (t,)))
            if self.rank == 2:
                shape = (t, 1) if axis == 0 else (1, t)
                lanes = ir.Reshape(lanes, type=TileType("i32", shape))
            offset = B.binary("mul", ir.BlockId(axis, type=TileType("i32")), B.const(t, "i32"), self.ndt)
            lane = self.let(f"{dim.var}_LANE", B.binary("add", offset, lanes, self.ndt), origin)
            origin = None
            ok = B.binary("lt", lane, count, self.ndt)
            valid = ok if valid is None else B.binary("and", valid, ok, self.ndt)
            value = B.binary("mul", lane, B.const(dim.step, "i32"), self.ndt) if dim.step != 1 else lane
            self.let(dim.var, B.binary("add", B.const(dim.start, "i32"), value, self.ndt))
        if self.rank == 2:
            valid = B.broadcast(valid, self.tile)
        self.let("VALID", valid)

    def array_tile_prologue(self) -> None:
        """Arrays the loop writes: their lane tile lives in a local until the end."""
        for name in sorted(self.plan.written):
            self.array_param(name)
            local = name + "_TILE"
            self.array_tiles[name] = local
            form = self.plan.written[name]
            if self._needs_initial_load(name):
                self.let(local, self.aligned_or_gather(name, form, None))
            elif self._aligned(name, form):
                # No load checks the subscripts, so the store's range is checked here.
                self.add_range_checks(name, form, self._first_write(name))
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
            if not any(_mentions_array(n, name) for h in hostir.walk([node]) for n in _node_exprs(h)):
                continue
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                writes_it = isinstance(target, ast.Index) and target.name == name
                return not writes_it or _mentions_array(node.stmt.value, name)
            return True
        return True

    def reduction_prologue(self) -> None:
        for r in self.plan.reductions:
            if r.op in ("sum", "sub", "prod"):
                identity = 1.0 if r.op == "prod" else 0.0
                self.let(r.var + "_ACC", ir.Full(identity, type=self.lane_type))

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
            self.current_stmt = stmt
            self.assign(stmt)
        elif isinstance(node, hostir.If):
            self.if_node(node)
        elif isinstance(node, hostir.ForLoop):
            self.uniform_for(node)
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
            raise NotParallel(f"{type(node).__name__} cannot be expressed in a kernel", node.origin)

    def assign(self, stmt: ast.Let) -> None:
        origin = self.origin(stmt)
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
            self.let(name, value, origin)
            return
        local = self.array_tiles[target.name]
        value = B.broadcast(B.cast(value, self.ndt), self.lane_type.shape)
        if self.mask is not None:
            value = B.select(self.mask, value, self.local(local), self.ndt)
        self.let(local, value, origin)

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
                then_out = self._capture(lambda b=body: self.block(b))
                self.out.append(ir.IfScalar(cond, then_out, [], origin=origin))
                return
            cond = B.broadcast(cond, self.lane_type.shape)
            arm_mask = cond if rest is None else B.binary("and", rest, cond, self.ndt)
            arm = self.let(self.fresh("TAKEN"), arm_mask, origin if i == 0 else None)
            origin = None
            if else_mask_needed:
                not_cond = B.unary("not", cond, self.ndt)
                rest_expr = not_cond if rest is None else B.binary("and", rest, not_cond, self.ndt)
                rest = self.let(self.fresh("OTHERS"), rest_expr)
            self.mask = arm
            self.block(body)
            self.mask = saved
        if node.else_body:
            self.mask = rest
            self.block(node.else_body)
            self.mask = saved

    def _capture(self, fn) -> list[ir.KStmt]:
        saved = self.out
        self.out = []
        try:
            fn()
            return self.out
        finally:
            self.out = saved

    def uniform_for(self, node: hostir.ForLoop) -> None:
        """An inner FOR with the same bounds in every lane: a plain range loop."""
        stmt = node.stmt
        for e in (stmt.start, stmt.limit, stmt.step):
            if e is not None and not self._is_uniform(e):
                raise NotParallel("an inner FOR's bounds differ between iterations", e)
        origin = self.origin(stmt)
        start = B.cast(self.value(stmt.start), self.ndt)
        limit = B.cast(self.value(stmt.limit), self.ndt)
        step = B.cast(self.value(stmt.step), self.ndt) if stmt.step is not None else B.const(1.0, self.ndt)
        var = stmt.var.name
        self.predefine(_assigned_in_list(node.body))
        start_l = self.let(var + "_START", start, origin)
        step_l = self.let(var + "_STEP", step)
        # ECMA-55: the body runs max(0, floor((limit - start) / step) + 1) times.
        trips = B.binary("div", B.binary("sub", limit, start_l, self.ndt), step_l, self.ndt)
        trips = B.binary("add", B.cast(B.unary("floor", trips, self.ndt), "i32"), B.const(1, "i32"), self.ndt)
        count = self.let(var + "_TRIPS", B.binary("max", trips, B.const(0, "i32"), self.ndt))
        counter = var + "_K"
        saved_out = self.out
        self.out = []
        self.locals[counter] = TileType("i32")
        value = B.binary("add", start_l, B.binary("mul", B.cast(ir.Local(counter, type=TileType("i32")), self.ndt), step_l, self.ndt), self.ndt)
        self.let(var, value)
        self.uniform[var] = var
        self.block(node.body)
        body = self.out
        self.out = saved_out
        self.out.append(ir.ForRange(counter, B.const(0, "i32"), count, body, origin=None))
        # The variable's value after the loop, as BASIC defines it.
        self.let(var, B.binary("add", start_l, B.binary("mul", B.cast(count, self.ndt), step_l, self.ndt), self.ndt))

    def lane_loop(self, node: hostir.WhileLoop) -> None:
        """A loop whose trip count differs per lane: loop while any lane still loops."""
        origin = self.origin(node.origin)
        cond_expr = getattr(node.stmt, "condition", None) if node.stmt is not None else None
        live_name = self.fresh("LOOPING")
        entry = self.full_mask()
        if cond_expr is not None:
            entry = B.binary("and", entry, B.broadcast(B.to_bool(self.value_or_cond(cond_expr)), self.lane_type.shape), self.ndt)
        self.let(live_name, entry, origin)
        self.predefine(_assigned_in_list(node.body))
        saved_mask, saved_out = self.mask, self.out
        self.out = []
        self.loops.append(_LoopContext(live_name))
        self.mask = self.local(live_name)
        self.block(node.body)
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
        self.current_stmt = stmt
        origin = self.origin(stmt)
        value = B.cast(self.value(r.value), self.ndt)
        mask = self.full_mask()
        if r.op in ("sum", "sub", "prod"):
            identity = B.const(1.0 if r.op == "prod" else 0.0, self.ndt)
            acc = self.local(r.var + "_ACC")
            op = "mul" if r.op == "prod" else "add"
            self.let(r.var + "_ACC", B.binary(op, acc, B.select(mask, value, identity, self.ndt), self.ndt), origin)
            return
        if self.loops:
            raise NotParallel("a maximum/minimum is updated inside an inner loop", stmt)
        worst = -math.inf if r.op == "max" else math.inf
        cand = self.let(r.var + "_CAND", B.select(mask, value, B.const(worst, self.ndt), self.ndt), origin)
        payloads = []
        for var, expr in r.payload:
            payloads.append((var, self.let(var + "_CAND", B.broadcast(B.cast(self.value(expr), self.ndt), self.lane_type.shape))))
        self.extremes.append((r, cand, payloads))

    def histogram(self, stmt: ast.Let, origin) -> None:
        target = stmt.target
        increment = self.value(stmt.value.right)
        if stmt.value.op == "-":
            increment = B.unary("neg", increment, self.ndt)
        increment = B.cast(increment, self.ndt)
        indices, ok = self.subscripts(target.name, target.indices)
        active = B.binary("and", self.full_mask(), ok, self.ndt)
        self.flag_errors(B.binary("and", self.full_mask(), B.unary("not", ok, self.ndt), self.ndt))
        # Lanes that must not count get index -1, which atomic_add skips.
        safe = tuple(B.select(active, B.broadcast(i, self.lane_type.shape), B.const(-1, "i32"), self.ndt) for i in indices)
        self.array_param(target.name)
        self.writes.add(target.name)
        self.out.append(ir.AtomicAdd(target.name, safe, increment, origin=origin))

    # ------------------------------------------------------------------ epilogue

    def epilogue(self) -> None:
        for name in sorted(self.plan.written):
            local = self.array_tiles[name]
            if local not in self.locals:
                continue  # never actually written
            form = self.plan.written[name]
            if self._aligned(name, form):
                view = self.view(name, form)
                index = tuple(ir.BlockId(a, type=TileType("i32")) for a in range(self.rank))
                self.out.append(ir.Store(name, index, self.local(local), view))
            else:
                indices = tuple(self.affine_index(f) for f in form)
                self.out.append(ir.Scatter(name, indices, self.local(local), self.local("VALID")))
        block_id = self.block_linear()
        for r in self.plan.reductions:
            if r.op in ("sum", "sub", "prod"):
                temp = self.partial_temp(r.var)
                total = ir.Reduce("prod" if r.op == "prod" else "sum", self.local(r.var + "_ACC"), None, type=TileType(self.ndt))
                self.out.append(ir.Store(temp, (block_id,), total))
                self.finish.append(Finish(r.op, var=r.var, temp=temp))
        for r, cand, payloads in self.extremes:
            self.extreme_epilogue(r, cand, payloads, block_id)
        if self.error_sites:
            self.array_param(ERROR_FLAG, "i32", 1, temp=True)
            self.temps.append(Temp(ERROR_FLAG, "i32", hostir.HostValue("num", (1,))))
            self.out.append(ir.AtomicMax(ERROR_FLAG, (B.const(0, "i32"),), self.local("BAD_SITE")))

    def extreme_epilogue(self, r: Reduction, cand: ir.Local, payloads, block_id) -> None:
        if payloads and self.rank != 1:
            raise NotParallel("an arg-max/arg-min over a nest is kept on the host", r.node.origin)
        temp = self.partial_temp(r.var)
        best = self.let(r.var + "_BLOCK", ir.Reduce(r.op, cand, None, type=TileType(self.ndt)))
        self.out.append(ir.Store(temp, (block_id,), best))
        finish = Finish(r.op, var=r.var, temp=temp, strict=r.strict)
        if payloads:
            lane = self.local(self.plan.dims[0].var + "_LANE")
            hits = B.binary("eq", cand, best, self.ndt)
            # Strict comparison keeps the first extreme, `>=`/`<=` the last.
            if r.strict:
                pick = ir.Reduce("min", B.select(hits, lane, B.const(2**31 - 1, "i32"), self.ndt), None, type=TileType("i32"))
            else:
                pick = ir.Reduce("max", B.select(hits, lane, B.const(-1, "i32"), self.ndt), None, type=TileType("i32"))
            chosen = self.let(r.var + "_LANE_PICK", pick)
            at_pick = B.binary("eq", lane, chosen, self.ndt)
            for var, value in payloads:
                ptemp = self.partial_temp(var)
                picked = ir.Reduce("max", B.select(at_pick, value, B.const(-math.inf, self.ndt), self.ndt), None, type=TileType(self.ndt))
                self.out.append(ir.Store(ptemp, (block_id,), picked))
                finish.payload.append((var, ptemp))
        self.finish.append(finish)

    def partial_temp(self, var: str) -> str:
        name = f"{var}_PARTIAL"
        per_axis = [
            hostir.HostValue("cdiv", (hostir.HostValue("count", (c.name,)), hostir.HostValue("num", (t,))))
            for c, t in zip(self.counts, self.tile)
        ]
        blocks = per_axis[0] if len(per_axis) == 1 else hostir.HostValue("mul", tuple(per_axis))
        self.temps.append(Temp(name, self.ndt, blocks))
        self.array_param(name, self.ndt, 1, temp=True)
        return name

    def block_linear(self) -> KExpr:
        bid0 = ir.BlockId(0, type=TileType("i32"))
        if self.rank == 1:
            return bid0
        blocks1 = B.binary("cdiv", self.count_param(1), B.const(self.tile[1], "i32"), self.ndt)
        return B.binary("add", B.binary("mul", bid0, blocks1, self.ndt), ir.BlockId(1, type=TileType("i32")), self.ndt)

    # ------------------------------------------------------------------ expressions

    def _is_uniform(self, expr: ast.Expr) -> bool:
        for var in expression_reads(self.analysis, expr):
            if var in self.plan.lane_vars or (var in self.plan.privates and var not in self.uniform):
                return False
        return not any(isinstance(n, ast.Index) for n in expr.walk())

    def value_or_cond(self, e: ast.Expr) -> KExpr:
        """An expression used as a condition: comparisons and logic stay boolean."""
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            op = "and" if e.op == "AND" else "or"
            return B.binary(op, B.to_bool(self.value_or_cond(e.left)), B.to_bool(self.value_or_cond(e.right)), self.ndt)
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return B.unary("not", B.to_bool(self.value_or_cond(e.operand)), self.ndt)
        if isinstance(e, ast.BinOp) and e.op in _COMPARE:
            return B.binary(_COMPARE[e.op], self.value(e.left), self.value(e.right), self.ndt)
        return self.value(e)

    def value(self, e: ast.Expr) -> KExpr:
        if isinstance(e, ast.Num):
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
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        raise NotParallel(f"{type(e).__name__} cannot be computed in a kernel", e)

    def variable(self, e: ast.Var) -> KExpr:
        name = e.name
        if name in self.plan.lane_vars:
            return B.cast(self.local(name), self.ndt)
        if name in self.locals and (name in self.plan.privates or name in self.uniform):
            return self.local(name)
        if name in self.plan.privates:
            raise NotParallel(f"{name} may be read before it is set in an iteration", e)
        if name.endswith("%"):
            raise NotParallel(f"integer variable {name} stays on the host", e)
        return self.scalar_param(name, self.ndt, hostir.HostValue("var", (name,)))

    def binop(self, e: ast.BinOp) -> KExpr:
        if e.op in _COMPARE or e.op in ("AND", "OR"):
            raise NotParallel("a comparison used as a number stays on the host", e)
        left = self.value(e.left)
        if e.op == "^":
            return self.power(left, e.right)
        op = _BINARY.get(e.op)
        if op is None:
            raise NotParallel(f"operator {e.op} stays on the host", e)
        return B.binary(op, left, self.value(e.right), self.ndt)

    def power(self, left: KExpr, right: ast.Expr) -> KExpr:
        """`left ^ right` as the interpreter computes it (runtime/arith.power): a negative
        base needs an integral exponent (else a fatal error), 0 ^ y is +inf for y < 0 and
        +0 for y > 0 (also for a base of -0)."""
        ndt = self.ndt
        exponent = constant_value(right)
        if exponent is not None and exponent == int(exponent) and 0 <= exponent <= 4:
            return _integer_power(self.operand(left, "BASE"), int(exponent), ndt)
        base = self.operand(B.cast(left, ndt), "BASE")
        exp = self.operand(B.cast(self.value(right), ndt), "EXPONENT")
        zero = B.const(0.0, ndt)
        integral = exponent is not None and exponent == int(exponent)
        if not integral:
            bad = B.binary("lt", base, zero, ndt)
            if exponent is None:  # NaN is not integral either: floor(NaN) != NaN
                fraction = B.binary("ne", B.unary("floor", exp, ndt), exp, ndt)
                bad = B.binary("and", bad, fraction, ndt)
            self.flag_errors(B.binary("and", self.full_mask(), bad, ndt), "power")
        result = B.binary("pow", base, exp, ndt)
        if exponent == 0:
            return result
        at_zero = B.binary("eq", base, zero, ndt)
        if exponent is None or exponent > 0:
            positive = at_zero if exponent is not None else B.binary("and", at_zero, B.binary("gt", exp, zero, ndt), ndt)
            result = B.select(positive, zero, result, ndt)
        if exponent is None or exponent < 0:
            negative = at_zero if exponent is not None else B.binary("and", at_zero, B.binary("lt", exp, zero, ndt), ndt)
            result = B.select(negative, B.const(math.inf, ndt), result, ndt)
        return result

    def operand(self, value: KExpr, word: str) -> KExpr:
        """`value`, bound to a local first if it is an expression that would otherwise be
        printed (and computed) more than once."""
        if isinstance(value, (ir.Local, ir.Param, ir.Const, ir.Load, ir.Full)):
            return value
        return self.let(self.fresh(word), value, self.origin(self.current_stmt))

    def call(self, e: ast.Call) -> KExpr:
        fn = self.analysis.functions.get(e.name)
        if fn is not None:
            return self.inline_function(fn, e)
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.kernel and len(e.args) == 1:
            x = B.cast(self.value(e.args[0]), self.ndt)
            if e.name == "SGN":
                return self.sign(self.operand(x, "SGN_ARG"))
            outside = _OUTSIDE_DOMAIN[builtin.domain]
            if outside is _infinite and isinstance(x, ir.Cast) and not B.is_float(x.operand.type.dtype):
                outside = None  # an integer (a loop variable) is never infinite
            if outside is not None:
                x = self.operand(x, f"{e.name}_ARG")
                bad = B.binary("and", self.full_mask(), outside(x, self.ndt), self.ndt)
                self.flag_errors(bad, "domain", e.name)
            return B.unary(builtin.tile_op, x, self.ndt)
        if builtin is not None and builtin.kernel and len(e.args) == 2:
            left, right = self.value(e.args[0]), self.value(e.args[1])
            return B.binary(builtin.tile_op, left, right, self.ndt)
        raise NotParallel(f"{e.name} cannot be computed in a kernel", e)

    def sign(self, x: KExpr) -> KExpr:
        """SGN as the interpreter computes it: 1, 0, or -1 (also for NaN, as bas55)."""
        ndt = self.ndt
        zero = B.const(0.0, ndt)
        rest = B.select(B.binary("eq", x, zero, ndt), zero, B.const(-1.0, ndt), ndt)
        return B.select(B.binary("gt", x, zero, ndt), B.const(1.0, ndt), rest, ndt)

    def inline_function(self, fn, call: ast.Call) -> KExpr:
        bindings = {
            param: self.let(self.fresh(f"{fn.name}_{param}"), self.value(arg))
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
            return self.local(local)
        self.array_param(name)
        self.reads.add(name)
        lane_vars = self.plan.lane_vars
        form = tuple(affine(i, lane_vars, set()) for i in e.indices)
        if all(f is not None for f in form) and self._aligned(name, form):
            return self.aligned_load(name, form, e)
        indices, ok = self.subscripts(name, e.indices)
        self.flag_errors(B.binary("and", self.full_mask(), B.unary("not", ok, self.ndt), self.ndt))
        shape = B.broadcast_shape(*(i.type.shape for i in indices)) if len(indices) > 1 else indices[0].type.shape
        return ir.Gather(name, indices, None, type=TileType(self.ndt, shape))

    def _aligned(self, name: str, form: tuple[Affine | None, ...]) -> bool:
        """Each lane variable indexes its own axis with a constant offset (step 1)."""
        if len(form) != self.rank or any(f is None for f in form):
            return False
        for f, dim in zip(form, self.plan.dims):
            if f.coeffs != ((dim.var, 1),) or f.symbols or f.const != int(f.const) or dim.step != 1:
                return False
        return True

    def aligned_or_gather(self, name: str, form, node) -> KExpr:
        if self._aligned(name, form):
            return self.aligned_load(name, form, node, cache=False)
        indices = tuple(self.affine_index(f) for f in form)
        return ir.Gather(name, indices, None, type=self.lane_type)

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
        index = tuple(ir.BlockId(a, type=TileType("i32")) for a in range(self.rank))
        load = ir.Load(name, index, self.view(name, form), type=self.lane_type)
        if not cache:
            return load
        local = _load_name(name, form, self.plan.dims)
        self.load_stmts.append(ir.Let(local, load))
        self.locals[local] = load.type
        self.loads[key] = ir.Local(local, type=load.type)
        return self.loads[key]

    def add_range_checks(self, name: str, form, node) -> None:
        for axis, (f, dim) in enumerate(zip(form, self.plan.dims)):
            count = self.counts[axis].name
            self.checks.append(RangeCheck(name, axis, dim.start, f.const, count, node or self.plan.loop.stmt))

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
        stem = f"{name}_" + "_".join(_index_word(i) for i in indices)
        for axis, index in enumerate(indices):
            f = affine(index, self.plan.lane_vars, set())
            suffix = "" if len(indices) == 1 else str(axis)
            rounded = None
            if f is not None and not f.symbols and f.const == int(f.const):
                idx = self.affine_index(f)
            else:
                # ECMA-55: a subscript is rounded to the nearest integer.
                x = B.cast(self.value(index), self.ndt)
                rounded = B.unary("floor", B.binary("add", x, B.const(0.5, self.ndt), self.ndt), self.ndt)
                rounded = self.let(f"{stem}_ROUNDED{suffix}", rounded)
                idx = B.binary("sub", B.cast(rounded, "i32"), B.const(self.base, "i32"), self.ndt)
            # Name it: it is used for the access, the mask and the error check.
            idx = self.let(f"{stem}_AT{suffix}", idx)
            inside = B.binary(
                "and",
                B.binary("ge", idx, B.const(0, "i32"), self.ndt),
                B.binary("lt", idx, ir.Extent(name, axis, type=TileType("i32")), self.ndt),
                self.ndt,
            )
            if rounded is not None:
                # A NaN subscript is out of range (the conversion to an integer makes it 0).
                inside = B.binary("and", inside, B.unary("not", B.isnan(rounded), self.ndt), self.ndt)
            ok = inside if ok is None else B.binary("and", ok, inside, self.ndt)
            out.append(idx)
        ok = self.let(f"{stem}_OK", ok)
        return tuple(out), ok

    def flag_errors(self, bad: KExpr, kind: str = "subscript", detail: str = "") -> None:
        """Record (for the host) that lanes in `bad` met a fatal BASIC error here: an
        invalid subscript, or a function or power outside its domain (hostir.ErrorSite)."""
        site = len(self.error_sites) + 1
        self.error_sites[site] = hostir.ErrorSite(self.current_stmt, kind, detail)
        if "BAD_SITE" not in self.locals:
            self.out.insert(0, ir.Let("BAD_SITE", B.const(0, "i32")))
            self.locals["BAD_SITE"] = TileType("i32")
        bad = B.broadcast(bad, self.lane_type.shape)
        here = ir.Reduce("max", B.select(bad, B.const(site, "i32"), B.const(0, "i32"), self.ndt), None, type=TileType("i32"))
        self.let("BAD_SITE", B.binary("max", self.local("BAD_SITE"), here, self.ndt), self.origin(self.current_stmt))


def _index_word(expr: ast.Expr) -> str:
    """A short identifier-friendly spelling of a subscript (B -> B, I + 1 -> I_P1)."""
    from .show import show_expr

    text = show_expr(expr).replace(" + ", "_P").replace(" - ", "_M").replace(" ", "")
    word = "".join(ch if ch.isalnum() else "_" for ch in text).strip("_")
    return word[:16] or "X"


def _load_name(array: str, form, dims) -> str:
    parts = [array]
    for f, dim in zip(form, dims):
        offset = int(f.const)
        parts.append(dim.var + ("" if offset == 0 else f"_P{offset}" if offset > 0 else f"_M{-offset}"))
    return "_".join(parts)


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
        if isinstance(n, hostir.Simple) and isinstance(n.stmt, ast.Let) and isinstance(n.stmt.target, ast.Var):
            out.add(n.stmt.target.name)
    return out
