"""Pass 3: resolve every line-number reference to a statement index.

GOTO, GOSUB, IF ... THEN n (lowered to a Goto by pass 2), ON ... GOTO/GOSUB and
RESTORE n must name an existing line (ECMA-55 10.4; RESTORE n is an extension).  Under
--dialect ms a GOTO, GOSUB, RESTORE, ON ERROR GOTO or RESUME to a missing line stops the
program only when it runs (passes/check/run_time_faults.py).
"""

from __future__ import annotations

from ...errors import BasicSemanticError, BasicWarning, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from .run_time_faults import UNDEFINED_LINE, fault_in_place


def line_refs(stmt: ast.Stmt) -> list[ast.LineRef]:
    """The jump targets written in a statement of the flat list."""
    if isinstance(stmt, (ast.Goto, ast.Gosub)):
        return [stmt.target]
    if isinstance(stmt, ast.OnGoto):
        return list(stmt.targets)
    return []


def trap_refs(stmt: ast.Stmt) -> list[ast.LineRef]:
    """The lines named by error trapping: ON ERROR GOTO n and RESUME n."""
    if isinstance(stmt, (ast.OnError, ast.Resume)) and stmt.target is not None:
        return [stmt.target]
    return []


def run(analysis: Analysis, diags: Diagnostics) -> None:
    # GW-BASIC finds a missing line when the statement runs; QuickBASIC when it compiles
    gw_basic = analysis.options.microsoft and not analysis.options.qbasic
    for index, stmt in enumerate(analysis.stmts):
        for ref in trap_refs(stmt):
            if ref.name is not None:  # QuickBASIC's `ON ERROR GOTO Handler`
                target = analysis.name_index.get(ref.name)
            else:
                target = analysis.label_index.get(ref.number)
            if target is None:
                missing = f"label {ref.name}" if ref.name is not None else f"line {ref.number}"
                why = f"jump to non-existing {missing}"
                if gw_basic:
                    _undefined_trap_line(analysis, index, why, ref.coord)
                else:
                    diags.error(BasicSemanticError(why, ref.coord))
                continue
            analysis.jump_target[ref] = target
            if isinstance(stmt, ast.OnError):
                analysis.error_handlers.add(target)
        for ref in line_refs(stmt):
            if ref in analysis.loop_exits:
                continue  # EXIT DO / FOR: passes/check/blocks.py finds its target
            if ref.name is not None:  # QuickBASIC's label
                target = analysis.name_index.get(ref.name)
            else:
                target = analysis.label_index.get(ref.number)
            if target is None:
                missing = f"label {ref.name}" if ref.name is not None else f"line {ref.number}"
                why = f"jump to non-existing {missing}"
                if gw_basic and isinstance(stmt, (ast.Goto, ast.Gosub)):
                    fault_in_place(analysis, index, UNDEFINED_LINE, why, ref.coord)
                else:
                    diags.error(BasicSemanticError(why, ref.coord))
                continue
            analysis.jump_target[ref] = target
            if isinstance(stmt, ast.Gosub) or (isinstance(stmt, ast.OnGoto) and stmt.gosub):
                analysis.gosub_targets.add(target)
        label = stmt.to_label if isinstance(stmt, ast.Restore) else None
        if label is not None and label not in analysis.name_index:
            diags.error(BasicSemanticError(f"RESTORE to non-existing label {label}", stmt.coord))
        restore = stmt.target if isinstance(stmt, ast.Restore) else None
        if restore is not None and restore not in analysis.label_index:
            why = f"RESTORE to non-existing line {restore}"
            if gw_basic:
                fault_in_place(analysis, index, UNDEFINED_LINE, why, stmt.coord)
            else:
                diags.error(BasicSemanticError(why, stmt.coord))


def _undefined_trap_line(analysis: Analysis, index: int, why: str, where) -> None:
    """GW-BASIC: ON ERROR GOTO a missing line is "Undefined line number" when it runs
    (PC-BASIC: whether or not an error comes); RESUME to one leaves the handler first, so
    that error is trapped again (mode "undefined": `ErrorTrap.resume_undefined`)."""
    stmt = analysis.stmts[index]
    if isinstance(stmt, ast.OnError):
        fault_in_place(analysis, index, UNDEFINED_LINE, why, where)
        return
    stmt.mode, stmt.target = "undefined", None
    message = f"{UNDEFINED_LINE}: {why} (Microsoft BASIC stops with it when the RESUME runs)"
    analysis.warnings.append(BasicWarning(message, where))
