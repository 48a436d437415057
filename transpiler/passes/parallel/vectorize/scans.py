"""Scans (LoopPlan.recurrence): one block walks the tiles of iterations in order, each
tile starting from the value the tile before it ended with."""

from __future__ import annotations

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import Finish, Temp
from ....ir.kernel import KExpr, TileType


class ScanLowering:
    """A running sum, product or first-order linear recurrence, tile by tile."""

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
