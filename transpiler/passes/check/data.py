"""Pass 10: the DATA items of the program, in order (ECMA-55 14), and where each
`RESTORE n` (an extension) puts the data pointer: at the first datum of the first DATA
line numbered n or more.  A DATA right after THEN or ELSE is not one of them
(`ast.Data.read`).
"""

from __future__ import annotations

import bisect

from ...errors import Diagnostics
from ...ir import ast
from ...ir.model import Analysis


def _restore_labels(analysis: Analysis) -> None:
    """QuickBASIC's `RESTORE Label`: the data pointer at the first datum of the DATA
    statements after the label's statement (the data of those before it are skipped)."""
    restores = [
        (index, stmt.to_label)
        for index, stmt in enumerate(analysis.stmts)
        if isinstance(stmt, ast.Restore) and stmt.to_label is not None
    ]
    if not restores:
        return
    before = [0]  # data items in the statements before each index
    for stmt in analysis.stmts:
        count = len(stmt.items) if isinstance(stmt, ast.Data) and stmt.read else 0
        before.append(before[-1] + count)
    for index, label in restores:
        at = analysis.name_index.get(label)
        if at is not None:
            analysis.restore_position[index] = before[at]


def run(analysis: Analysis, diags: Diagnostics) -> None:
    for stmt in analysis.stmts:
        if isinstance(stmt, ast.Data) and stmt.read:
            if stmt.label is not None:
                analysis.data_line_start.setdefault(stmt.label, len(analysis.data))
            analysis.data.extend(stmt.items)
    _restore_labels(analysis)
    lines = sorted(analysis.data_line_start)
    for index, stmt in enumerate(analysis.stmts):
        if isinstance(stmt, ast.Restore) and stmt.target is not None:
            at = bisect.bisect_left(lines, stmt.target)
            position = (
                analysis.data_line_start[lines[at]] if at < len(lines) else len(analysis.data)
            )
            analysis.restore_position[index] = position
