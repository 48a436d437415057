"""Statements for all lanes at once: assignments (under the lane mask), IFs (a mask
per arm, or a plain `if` on a condition the same in every lane), inner FORs (a range
loop, masked per lane when the bounds differ) and loops whose trip count differs per
lane (a WHILE on `any` lane still looping)."""

from __future__ import annotations

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.kernel import KExpr, TileType
from ...host.liveness import expression_reads
from ..dependence import NotParallel, unexpressible
from .builder import LoopContext

_TRIPS_LIMIT = 2.0**31 - 1  # an inner loop longer than this runs on the host


class StatementLowering:
    """The loop body's statements and control flow, lane-parallel."""

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
        self.loops.append(LoopContext(live_name))
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

    def _is_uniform(self, expr: ast.Expr) -> bool:
        for var in expression_reads(self.analysis, expr):
            if var in self.plan.lane_vars or (
                var in self.plan.privates and var not in self.uniform
            ):
                return False
        return not any(isinstance(n, ast.Index) for n in expr.walk())


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
