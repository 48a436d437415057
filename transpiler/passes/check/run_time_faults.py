"""Errors that Microsoft BASIC finds only when a statement runs (--dialect ms).

GW-BASIC and MBASIC check a statement when they execute it: a `GOTO` to a line the
program does not have, or a string where a number goes, stops the program with
"Undefined line number in 610" or "Type mismatch in 658" only if that statement runs.
Games that never reach such a line ran fine for their users, so under --dialect ms the
statement becomes an `ast.Fault` that stops the program with Microsoft's message when it
runs, and a located warning says so when the program is compiled.  Other dialects
compile the whole program first and reject it.
"""

from __future__ import annotations

from ...errors import BasicWarning, Coord
from ...ir import ast
from ...ir.model import Analysis

TYPE_MISMATCH = "Type mismatch"
UNDEFINED_LINE = "Undefined line number"


def fault_in_place(analysis: Analysis, index: int, message: str, why: str, where: Coord) -> None:
    """Statement `index` stops the program with `message` when it runs."""
    stmt = analysis.stmts[index]
    fault = ast.Fault(message, coord=stmt.coord, label=stmt.label)
    analysis.stmts[index] = fault
    for line in analysis.program.lines:  # a statement of its own (not inside an IF)
        for k, s in enumerate(line.statements):
            if s is stmt:
                line.statements[k] = fault
    analysis.warnings.append(
        BasicWarning(
            f"{message}: {why} (Microsoft BASIC stops with it when the statement runs)", where
        )
    )
