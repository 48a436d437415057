"""Facts about the values of a cuTile BASIC kernel that the lowering uses to choose ops.

BASIC's MOD (and INT of a quotient) round toward zero, cuTile's `%` and `//` toward minus
infinity; for operands that are never negative the two agree, and the lowering can use
the operators cuTile has (`BID MOD NT` stays `ct.bid(0) % nt`, `INT(BID / NT)` stays
`ct.bid(0) // nt`).  `ir.nonnegative` is a
conservative check: it says True only for values built from block ids, non-negative
constants, array sizes and variables assigned once from such values.
"""

from __future__ import annotations

from collections import Counter

from ...ir import ast
from .kernel_dialect import KernelProgram
from .nesting import ForBlock, IfChain, Nested, WhileBlock


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
