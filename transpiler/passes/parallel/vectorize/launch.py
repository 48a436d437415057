"""The kernel's frame and the host's side of it: lane numbers and the valid-lane mask
(the prologue), the order of the lowering's parts (`run`), the grid, the summary
--explain prints, and the Replay of a block that met an exception."""

from __future__ import annotations

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import Finish, LoopCount
from ....ir.kernel import KExpr, TileType
from ...kernel.kernel_access import array_access
from ...kernel.kernel_cleanup import remove_dead_lets
from ..value_guards import describe as describe_guards
from .builder import DONE_FLAGS


class LaunchAssembly:
    """The prologue, the driver of the lowering and the Launch it returns."""

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
        count_checks = [
            hostir.CountCheck(count.name, dim.count_at_most)
            for dim, count in zip(plan.dims, self.counts)
            if dim.count_at_most is not None
        ]
        replay = None
        if self.events is not None or self.checks or count_checks:
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
                    origin=self.next_of(dim.stmt) if dim.count_at_most is not None else None,
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
            count_checks=count_checks,
        )

    def next_of(self, stmt: ast.For) -> ast.Stmt | None:
        """The NEXT that closes the FOR `stmt`."""
        after = self.analysis.next_of(self.analysis.index_of(stmt))
        return self.analysis.stmts[after] if after is not None else None

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
        for dim in plan.dims:
            if dim.count_at_most is not None:
                text += (
                    f"; it runs at most {dim.count_at_most} iterations of {dim.var} (its last"
                    " NEXT stays in -32768..32767): beyond, the host runs the loop"
                )
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


def remove_dead_lets_of(body: list[ir.KStmt]) -> None:
    remove_dead_lets(ir.Kernel("", "map", [], body, (), (), "f64"))
