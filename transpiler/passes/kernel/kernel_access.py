"""Which arrays a kernel body reads and which it writes (`ArrayParam.reads/writes`, as
--explain lists them: in, out, in/out)."""

from __future__ import annotations

from ...ir import kernel as ir

_READS = (ir.Load, ir.Gather)
_WRITES = (ir.Store, ir.Scatter, ir.AtomicAdd, ir.AtomicMax)
_READ_MODIFY_WRITE = (ir.AtomicAdd, ir.AtomicMax)


def array_access(body: list[ir.KStmt]) -> tuple[set[str], set[str]]:
    """(arrays read, arrays written) anywhere in `body`, nested loops and IFs included."""
    reads = {e.array for e in ir.expressions(body) if isinstance(e, _READS)}
    reads |= {s.array for s in ir.statements(body) if isinstance(s, _READ_MODIFY_WRITE)}
    writes = {s.array for s in ir.statements(body) if isinstance(s, _WRITES)}
    return reads, writes
