"""Pass: the screen and sound statements that do nothing (`ast.NoEffect`).

Each one gets a compile-time warning (the interpreter and the generated programs print
it when they start), so that a program that clears its screen or beeps runs, and its
user knows what was left out.  CLEAR resets every variable, array and file: it is a
no-op, and allowed, only where nothing can have been assigned yet, i.e. when only REMs
and other no-ops come before it and no jump goes back to it or above it (old programs
start with `CLEAR 1000` to size their string space).  Anywhere else it is an error
under --dialect qbasic; under --dialect ms `passes/check/clear.py` lowers it.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, BasicWarning, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from ...language.keywords import NO_EFFECT


def run(analysis: Analysis, diags: Diagnostics) -> None:
    first_target = min(analysis.jump_target.values(), default=len(analysis.stmts))
    for index, stmt in enumerate(analysis.stmts):
        if not isinstance(stmt, ast.NoEffect):
            continue
        if stmt.text == "CLEAR" and not _at_start(analysis, index, first_target):
            if analysis.options.microsoft and not analysis.options.qbasic:
                continue  # passes/check/clear.py lowered it, or said why it cannot
            diags.error(
                BasicSemanticError(
                    "CLEAR after the program has started is not supported (it resets every "
                    "variable, array and file)",
                    stmt.coord,
                    notes=("only REM and statements without effect may come before CLEAR",),
                )
            )
            continue
        analysis.warnings.append(
            BasicWarning(f"{stmt.text} has no effect: {NO_EFFECT[stmt.text]}", stmt.coord)
        )


def _at_start(analysis: Analysis, index: int, first_target: int) -> bool:
    before = analysis.stmts[:index]
    return all(isinstance(s, (ast.Rem, ast.TraceLine)) for s in before) and first_target > index
