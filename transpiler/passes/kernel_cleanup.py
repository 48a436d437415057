"""Remove dead local values from kernels (generated code must have no dead code).

The lowerings define some values for every kernel (the lane mask, loop variables...)
and not every body uses them; a `Let` whose name is never read is dropped, repeatedly,
until nothing changes.
"""

from __future__ import annotations

from .. import ir


def remove_dead_lets(kernel: ir.Kernel) -> None:
    while True:
        used: set[str] = set()
        _reads(kernel.body, used)
        for g in kernel.grid:
            _expr_reads(g, used)
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


def _reads(stmts: list[ir.KStmt], used: set[str]) -> None:
    for s in stmts:
        for name in ir.field_names(type(s)):
            value = getattr(s, name)
            if isinstance(value, ir.KExpr):
                _expr_reads(value, used)
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, ir.KExpr):
                        _expr_reads(item, used)
                    elif isinstance(item, ir.ViewSlice):
                        _expr_reads(item.start, used)
                        _expr_reads(item.stop, used)
            elif isinstance(value, list) and value and isinstance(value[0], ir.KStmt):
                _reads(value, used)


def _expr_reads(e: ir.KExpr, used: set[str]) -> None:
    if isinstance(e, ir.Local):
        used.add(e.name)
        return
    for name in ir.field_names(type(e)):
        value = getattr(e, name)
        if isinstance(value, ir.KExpr):
            _expr_reads(value, used)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, ir.KExpr):
                    _expr_reads(item, used)
                elif isinstance(item, ir.ViewSlice):
                    _expr_reads(item.start, used)
                    _expr_reads(item.stop, used)
