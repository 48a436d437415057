"""Which arrays a kernel body reads and which it writes (`ArrayParam.reads/writes`, as
--explain lists them: in, out, in/out)."""

from __future__ import annotations

from .. import ir

_READS = (ir.Load, ir.Gather)
_WRITES = (ir.Store, ir.Scatter, ir.AtomicAdd, ir.AtomicMax)
_READ_MODIFY_WRITE = (ir.AtomicAdd, ir.AtomicMax)


def array_access(body: list[ir.KStmt]) -> tuple[set[str], set[str]]:
    """(arrays read, arrays written) anywhere in `body`, nested loops and IFs included."""
    reads: set[str] = set()
    writes: set[str] = set()
    pending: list[object] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, _READS) or isinstance(node, _READ_MODIFY_WRITE):
            reads.add(node.array)
        if isinstance(node, _WRITES):
            writes.add(node.array)
        for name in ir.field_names(type(node)):
            value = getattr(node, name)
            if isinstance(value, (ir.KExpr, ir.KStmt, ir.ViewSlice)):
                pending.append(value)
            elif isinstance(value, (list, tuple)):
                pending.extend(
                    v for v in value if isinstance(v, (ir.KExpr, ir.KStmt, ir.ViewSlice))
                )
    return reads, writes
