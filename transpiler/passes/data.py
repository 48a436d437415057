"""Pass 10: the DATA items of the program, in order (ECMA-55 14), and where each
`RESTORE n` (an extension) puts the data pointer: at the first datum of the first DATA
line numbered n or more.  A DATA right after THEN or ELSE is not one of them
(`ast.Data.read`).
"""

from __future__ import annotations

import bisect

from .. import ast
from ..errors import Diagnostics
from ..model import Analysis


def run(analysis: Analysis, diags: Diagnostics) -> None:
    for stmt in analysis.stmts:
        if isinstance(stmt, ast.Data) and stmt.read:
            if stmt.label is not None:
                analysis.data_line_start.setdefault(stmt.label, len(analysis.data))
            analysis.data.extend(stmt.items)
    lines = sorted(analysis.data_line_start)
    for index, stmt in enumerate(analysis.stmts):
        if isinstance(stmt, ast.Restore) and stmt.target is not None:
            at = bisect.bisect_left(lines, stmt.target)
            position = (
                analysis.data_line_start[lines[at]] if at < len(lines) else len(analysis.data)
            )
            analysis.restore_position[index] = position
