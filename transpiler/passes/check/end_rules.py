"""Pass 4: ECMA-55's END rules (4.4): the program has an END statement, and it is on
the last line.

Only in strict mode.  In extended mode END is optional (running off the last line ends
the program) and may appear anywhere, any number of times: it simply stops the program,
so code after it (typically subroutines reached by GOSUB) is allowed whether or not it
is reachable.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, Coord, Diagnostics
from ...ir import ast
from ...ir.model import Analysis


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not analysis.options.strict:
        return
    lines = [line for line in analysis.program.lines if line.statements]
    end_line = None
    for position, line in enumerate(lines):
        if any(isinstance(stmt, ast.End) for stmt in line.statements):
            end_line = position
            break
    if end_line is None:
        where = lines[-1].coord if lines else Coord(analysis.source.name, 0, 0)
        diags.error(BasicSemanticError("program must have an END statement", where))
        return
    for line in lines[end_line + 1 :]:
        diags.error(
            BasicSemanticError(
                "line after the END statement (END must be the last line)", line.coord
            )
        )
