"""BASIC's run-time exceptions in a kernel (hostir.Replay): a lane that meets one, or an
infinity or NaN that could hide one, marks its block; a marked block stores nothing and
sets no done flag, and the host runs its iterations in order."""

from __future__ import annotations

import math

from ....ir import ast
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import Temp
from ....ir.kernel import KExpr, TileType
from ....runtime.msnumbers import DOUBLE_MAX, SINGLE_MAX, SMALLEST
from ..dependence import NotParallel
from ..exceptions import can_report, constant_reports
from .builder import DONE_FLAGS


class ExceptionEvents:
    """The lanes that meet an exception, and the block that then leaves its work to the host."""

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
