"""Scan nodes as block-wide prefix scans in shared memory.

The tile goes to a shared array; then, in log2(n) rounds with the distance doubling
from 1 (Hillis and Steele), each element combines with the element that distance
before it, so that element k ends up combining elements 0..k.  A round reads into
registers, waits for every thread, writes, and waits again.  A "linear" scan carries
the running products of the factors in a second shared array: (a1, b1) then (a2, b2)
combine into (a1 * a2, b1 * a2 + b2).  The result is read from the shared array.
"""

from __future__ import annotations

from ...ir import kernel as ir
from . import element_types as T
from .expr import ValueInfo
from .reduce import identity

_OPERATOR = {"sum": "+", "prod": "*"}


def lower(lw, e: ir.Scan) -> None:
    n = e.type.shape[0]
    acc = T.compute_type(e.type.dtype)
    word = {"sum": "sums", "prod": "products", "linear": "recurrence"}[e.op]
    values = lw.shared_buffer(f"running_{word}", acc, n)
    factors = lw.shared_buffer("running_factors", acc, n) if e.op == "linear" else None

    def fill(index) -> list[str]:
        lines = [f"{values}[{index.linear}] = {lw.printer.at(e.operand, index, acc)};"]
        if factors is not None:
            lines.append(f"{factors}[{index.linear}] = {lw.printer.at(e.factor, index, acc)};")
        return lines

    lw.before_write()
    lw.element_loop((n,), fill)
    lw.barrier()
    distance = lw.fresh("distance")
    lw.emit(f"for (int {distance} = 1; {distance} < {n}; {distance} *= 2) {{")
    # what each element combines with in this round: the value (and factor) before it
    seen = _registers(lw, "before", acc, n)
    seen_factor = _registers(lw, "factor_before", acc, n) if factors is not None else None
    # a linear scan's values start as a sum's, its factors as a product's
    start, one = identity("sum" if e.op == "linear" else e.op, acc), identity("prod", acc)

    def reads(index) -> list[str]:
        at = index.linear
        before = f"{at} >= {distance} ? "
        lines = [f"{seen} = {before}{values}[{at} - {distance}] : {start};"]
        if seen_factor:
            lines.append(f"{seen_factor} = {before}{factors}[{at} - {distance}] : {one};")
        return lines

    def writes(index) -> list[str]:
        at = index.linear
        if e.op != "linear":
            return [f"{values}[{at}] = {seen} {_OPERATOR[e.op]} {values}[{at}];"]
        return [
            f"{values}[{at}] = {seen} * {factors}[{at}] + {values}[{at}];",
            f"{factors}[{at}] = {seen_factor} * {factors}[{at}];",
        ]

    lw.element_loop((n,), reads)
    lw.barrier()
    lw.element_loop((n,), writes)
    lw.barrier()
    lw.emit("}")
    lw.new_temp(e, values, "shared", acc, fresh=False)
    lw.read_shared()


def _registers(lw, word: str, dtype: ir.DType, n: int) -> str:
    """Declare registers for this thread's elements of an `n`-element tile; returns the
    element of the slot loop (`before[slot]`, or `before` for one slot)."""
    v = ValueInfo(lw.fresh(word), ir.TileType(dtype, (n,)), "regs", dtype)
    lw.declare(v)
    return lw.reg(v)
