"""Remove dead local values from kernels (generated code must have no dead code).

The lowerings define some values for every kernel (the lane mask, loop variables...)
and not every body uses them; a `Let` whose name is never read is dropped, repeatedly,
until nothing changes.
"""

from __future__ import annotations

from ...ir import kernel as ir


def remove_dead_lets(kernel: ir.Kernel) -> None:
    while True:
        read = [*ir.expressions(kernel.body), *(n for g in kernel.grid for n in ir.walk(g))]
        used = {e.name for e in read if isinstance(e, ir.Local)}
        if not _prune(kernel.body, used):
            return


def _prune(stmts: list[ir.KStmt], used: set[str]) -> bool:
    changed = False
    keep = []
    orphan = None  # the origin comment of a removed statement moves to the next one kept
    for s in stmts:
        if isinstance(s, ir.Let) and s.name not in used:
            changed = True
            orphan = orphan or s.origin
            continue
        if orphan is not None and s.origin is None:
            s.origin = orphan
        orphan = None
        for attr in ("body", "then_body", "else_body"):
            inner = getattr(s, attr, None)
            if inner is not None and _prune(inner, used):
                changed = True
        keep.append(s)
    stmts[:] = keep
    return changed
