"""Which scalar parameters a kernel body reads.

A cuTile BASIC program's INPUT scalars are all parameters of its `run()`, but the
kernel takes only those its body reads: `vector_add(n, a, b, c)` with `n` unused only
sizes the grid, which the host computes (NVIDIA's samples pass no unused argument).
"""

from __future__ import annotations

from ...ir import kernel as ir


def params_read(body: list[ir.KStmt]) -> set[str]:
    """The names of the `ir.Param`s anywhere in `body` (expressions, indices, bounds)."""
    return {node.name for node in ir.expressions(body) if isinstance(node, ir.Param)}
