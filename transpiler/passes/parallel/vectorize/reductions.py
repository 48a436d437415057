"""Reductions and histograms: sums accumulate per lane and end as one partial result
per block, which the host combines in block order; a maximum or minimum (with its
arg-max payload) likewise; histogram updates are atomic adds that a finished block
makes at the end."""

from __future__ import annotations

import math

from ....ir import ast
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import Finish, Temp
from ....ir.kernel import KExpr, TileType
from ....ir.naming import generated_name
from ...exprutil import sum_may_overflow
from ..dependence import NotParallel, Reduction


class ReductionLowering:
    """Sums, maxima/minima and histograms, and the epilogue that stores their results."""

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

    def reduction(self, r: Reduction) -> None:
        stmt = r.node.origin
        origin = self.origin(stmt)
        value = B.cast(self.watched(r.value, generated_name(r.var, "term")), self.ndt)
        mask = self.full_mask()
        if r.op in ("sum", "sub"):
            acc = self.local(self.accumulators[r.var])
            if r.op != self.sums()[r.var].op:  # S = S - e in a sum finished by +, or the reverse
                value = B.unary("neg", value, self.ndt)
            if not _masked_gather(value, mask):  # else the masked-off lanes read 0 already
                value = B.select(mask, value, B.const(0.0, self.ndt), self.ndt)
            self.let(acc.name, B.binary("add", acc, value, self.ndt), origin)
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


def _masked_gather(value: KExpr, mask: KExpr) -> bool:
    """`value` is a gather that reads only the lanes of `mask` (`ArrayAccess.gather`):
    cuTile pads the others with 0."""
    return isinstance(value, ir.Gather) and repr(value.mask) == repr(mask)
