"""Scan nodes as block-wide prefix scans in shared memory.

The tile goes to a shared array; then, in log2(n) rounds with the distance doubling
from 1 (Hillis and Steele), each element combines with the element that distance
before it, so that element k ends up combining elements 0..k.  A round reads into
registers, waits for every thread, writes, and waits again.  A "linear" scan carries
the running products of the factors in a second shared array: (a1, b1) then (a2, b2)
combine into (a1 * a2, b1 * a2 + b2).  The result is read from the shared array.
"""

from __future__ import annotations

from ... import ir
from . import element_types as T

_IDENTITY = {"sum": 0, "prod": 1, "linear": 0}


def lower(lw, e: ir.Scan) -> None:
    n = e.type.shape[0]
    acc = T.compute_type(e.type.dtype)
    word = {"sum": "sums", "prod": "products", "linear": "recurrence"}[e.op]
    values = lw.shared_buffer(f"running_{word}", acc, n)
    factors = lw.shared_buffer("running_factors", acc, n) if e.op == "linear" else None

    def fill(index) -> list[str]:
        lines = [f"{values}[{index.linear}] = {_element(lw, e.operand, index, acc)};"]
        if factors is not None:
            lines.append(f"{factors}[{index.linear}] = {_element(lw, e.factor, index, acc)};")
        return lines

    lw.before_write()
    lw.element_loop((n,), fill)
    lw.barrier()
    slots = lw.slots((n,))
    distance = lw.fresh("distance")
    seen = lw.fresh("before")
    seen_factor = lw.fresh("factor_before") if factors is not None else None
    mine = f"[{lw.slot}]" if slots > 1 else ""
    c_type = T.c_type(acc)
    lw.emit(f"for (int {distance} = 1; {distance} < {n}; {distance} *= 2) {{")
    lw.emit(f"{c_type} {seen}{f'[{slots}]' if slots > 1 else ''};")
    if seen_factor:
        lw.emit(f"{c_type} {seen_factor}{f'[{slots}]' if slots > 1 else ''};")
    identity = T.literal(_IDENTITY[e.op], acc)
    reads = [
        f"{seen}{mine} = {lw.elem} >= {distance} ? {values}[{lw.elem} - {distance}] : {identity};"
    ]
    if seen_factor:
        reads.append(
            f"{seen_factor}{mine} = {lw.elem} >= {distance} ? {factors}[{lw.elem} - {distance}] : "
            f"{T.literal(1, acc)};"
        )
    _per_element(lw, n, slots, reads)
    lw.barrier()
    if e.op == "sum":
        writes = [f"{values}[{lw.elem}] = {seen}{mine} + {values}[{lw.elem}];"]
    elif e.op == "prod":
        writes = [f"{values}[{lw.elem}] = {seen}{mine} * {values}[{lw.elem}];"]
    else:
        writes = [
            f"{values}[{lw.elem}] = {seen}{mine} * {factors}[{lw.elem}] + {values}[{lw.elem}];",
            f"{factors}[{lw.elem}] = {seen_factor}{mine} * {factors}[{lw.elem}];",
        ]
    _per_element(lw, n, slots, writes)
    lw.barrier()
    lw.emit("}")
    lw.new_temp(e, values, "shared", acc, fresh=False)
    lw.read_shared()


def _element(lw, operand: ir.KExpr, index, acc: ir.DType) -> str:
    return T.convert(lw.printer.at(operand, index), operand.type.dtype, acc)


def _per_element(lw, n: int, slots: int, lines: list[str]) -> None:
    """`lines` for each element this thread holds (`elem`, and `slot` when several)."""
    guard = n % lw.threads != 0
    if slots > 1:
        lw.emit("#pragma unroll")
        lw.emit(f"for (int {lw.slot} = 0; {lw.slot} < {slots}; ++{lw.slot}) {{")
        lw.emit(f"const int {lw.elem} = threadIdx.x + {lw.threads} * {lw.slot};")
    else:
        lw.emit("{")
        lw.emit(f"const int {lw.elem} = threadIdx.x;")
    if guard:
        lw.emit(f"if ({lw.elem} < {n}) {{")
    for line in lines:
        lw.emit(line)
    if guard:
        lw.emit("}")
    lw.emit("}")
