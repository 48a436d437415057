"""Facts about the values of a cuTile BASIC kernel that the lowering uses to choose ops.

BASIC's MOD (and INT of a quotient) round toward zero, cuTile's `%` and `//` toward minus
infinity; for operands that are never negative the two agree, and the lowering can use
the operators cuTile has (`BID MOD NT` stays `ct.bid(0) % nt`, `INT(BID / NT)` stays
`ct.bid(0) // nt`).  `nonnegative` is a
conservative check: it says True only for values built from block ids, non-negative
constants, array sizes and variables assigned once from such values.
"""

from __future__ import annotations

from collections import Counter

from .. import ast, ir
from .kernel_dialect import KernelProgram
from .nesting import ForBlock, IfChain, Nested, WhileBlock

# Operations whose result is >= 0 when both operands are.  (Integer overflow could wrap a
# sum or product of sizes past 2**31; such a kernel indexes nothing sensible anyway.)
_CLOSED = ("add", "mul", "floordiv", "truncdiv", "cdiv", "mod", "rem", "min")


def assignment_counts(nodes: list[Nested]) -> Counter:
    """How many statements assign each plain variable (LET targets, FOR variables)."""
    counts: Counter = Counter()
    for node in nodes:
        if isinstance(node, ForBlock):
            counts[node.head.var.name] += 1
            counts.update(assignment_counts(node.body))
        elif isinstance(node, WhileBlock):
            counts.update(assignment_counts(node.body))
        elif isinstance(node, IfChain):
            for arm in node.arms:
                counts.update(assignment_counts(arm.body))
            counts.update(assignment_counts(node.else_body or []))
        elif isinstance(node, ast.Let) and isinstance(node.target, ast.Var):
            counts[node.target.name] += 1
    return counts


def size_scalars(kp: KernelProgram) -> set[str]:
    """INPUT scalars that are, by themselves, an array's extent (`DIM A(N)`): never < 0."""
    return {
        e.name
        for array in kp.arrays.values()
        for e in array.extents
        if isinstance(e, ast.Var) and e.name in kp.scalars
    }


def nonnegative(e: ir.KExpr, params: set[str], locals_: set[str]) -> bool:
    """Whether `e` is certainly >= 0 (`params`, `locals_`: names known to be)."""
    if isinstance(e, ir.BlockId):
        return True
    if isinstance(e, (ir.Const, ir.Full)):
        return not isinstance(e.value, bool) and e.value >= 0  # NaN is not
    if isinstance(e, ir.Param):
        return e.name in params
    if isinstance(e, ir.Local):
        return e.name in locals_
    if isinstance(e, ir.Cast):
        return e.type.dtype != "bool" and nonnegative(e.operand, params, locals_)
    if isinstance(e, ir.Unary) and e.op in ("floor", "ceil"):
        return nonnegative(e.operand, params, locals_)
    if isinstance(e, ir.Binary):
        left = nonnegative(e.left, params, locals_)
        if e.op == "max":
            return left or nonnegative(e.right, params, locals_)
        return e.op in _CLOSED and left and nonnegative(e.right, params, locals_)
    return False
