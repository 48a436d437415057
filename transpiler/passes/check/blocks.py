"""Pass 5: pair the block statements and check that blocks nest.

FOR/NEXT (ECMA-55 11), WHILE/WEND and IF/ELSEIF/ELSE/ENDIF are paired by their text,
not by the control flow: a FOR block is the text from the FOR to its NEXT, whatever
the GOTOs do.  All three kinds share one stack, so they must nest properly inside each
other; `NEXT` names the variable of the innermost open FOR (or none at all, outside
strict mode), and a FOR may not reuse the variable of a FOR that encloses it.

Those are the rules of strict mode and of kernel programs.  Outside them FOR and NEXT
are Microsoft BASIC's (`for_loops.py`): this pass pairs the WHILE and IF blocks only,
and that one the FOR loops.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis, IfParts
from ...runtime.gwerrors import gw_message
from . import for_loops
from .run_time_faults import fault_in_place

WHILE_WITHOUT_WEND = gw_message(29)
WEND_WITHOUT_WHILE = gw_message(30)

_NAMES = {ast.For: "FOR", ast.While: "WHILE", ast.IfBlock: "IF"}


@dataclass
class _Open:
    index: int
    stmt: ast.Stmt
    elseifs: list[int] = field(default_factory=list)
    else_index: int | None = None
    do: bool = False  # a While lowered from QuickBASIC's DO
    case: bool = False  # an IfBlock lowered from the first CASE of a SELECT CASE

    @property
    def what(self) -> str:
        if isinstance(self.stmt, ast.For):
            return f"FOR {self.stmt.var.name}"
        if self.case:
            return "SELECT CASE"
        return "DO" if self.do else _NAMES[type(self.stmt)]


def _line(stmt: ast.Stmt) -> str:
    return f"line {stmt.label}" if stmt.label is not None else f"source line {stmt.coord.line}"


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if analysis.options.strict or analysis.kind == "kernel":
        _pair(analysis, diags, fors=True)
    else:
        if analysis.options.microsoft and not analysis.options.qbasic:
            _lone_while_wend(analysis)
        _pair(analysis, diags, fors=False)
        for_loops.run(analysis, diags)
    if analysis.loop_exits:
        _resolve_exits(analysis, diags)


def _lone_while_wend(analysis: Analysis) -> None:
    """GW-BASIC pairs WHILE and WEND when they run, by the text as we do: a WEND with no
    WHILE before it and a WHILE that no WEND closes are errors only then ("WEND without
    WHILE", "WHILE without WEND", which a trap catches): each becomes a Fault."""
    open_whiles: list[int] = []
    lone: list[tuple[int, str, str]] = []
    for index, stmt in enumerate(analysis.stmts):
        if isinstance(stmt, ast.While):
            open_whiles.append(index)
        elif isinstance(stmt, ast.Wend):
            if open_whiles:
                open_whiles.pop()
            else:
                lone.append((index, WEND_WITHOUT_WHILE, "no WHILE before it"))
    lone += [(index, WHILE_WITHOUT_WEND, "no WEND closes it") for index in open_whiles]
    for index, message, why in lone:
        fault_in_place(analysis, index, message, why, analysis.stmts[index].coord)


def _resolve_exits(analysis: Analysis, diags: Diagnostics) -> None:
    """QuickBASIC's EXIT DO / EXIT FOR (lowered to a Goto by flatten.py) goes to the
    statement after the LOOP / NEXT of the innermost DO / FOR around it."""
    for index, stmt in enumerate(analysis.stmts):
        if not isinstance(stmt, ast.Goto) or stmt.target not in analysis.loop_exits:
            continue
        exit = analysis.loop_exits[stmt.target]
        closer = _closer_around(analysis, index, exit.block)
        if closer is None:
            diags.error(
                BasicSemanticError(f"EXIT {exit.block} outside a {exit.block} loop", exit.coord)
            )
        else:
            analysis.jump_target[stmt.target] = closer + 1


def _closer_around(analysis: Analysis, index: int, block: str) -> int | None:
    """The LOOP (its Wend) or NEXT closing the innermost DO or FOR whose text holds
    statement `index`, or None."""
    for opener in range(index - 1, -1, -1):
        if block == "DO":
            closer = analysis.while_wend.get(opener)
            if not isinstance(analysis.lowered_from.get(opener), ast.Do):
                continue
        else:
            if not isinstance(analysis.stmts[opener], ast.For):
                continue
            closer = analysis.next_of(opener)
        if closer is not None and closer > index:
            return closer
    return None


def _pair(analysis: Analysis, diags: Diagnostics, fors: bool) -> None:
    """Pair the blocks (without `fors`, FOR and NEXT are left to for_loops.py)."""
    stack: list[_Open] = []
    enclosing = analysis.enclosing
    lowered = analysis.lowered_from

    def error(message: str, coord) -> None:
        diags.error(BasicSemanticError(message, coord))

    def unclosed_inside(top: _Open, closer: str, coord) -> None:
        error(f"{closer} inside the unfinished {top.what} block of {_line(top.stmt)}", coord)

    for index, stmt in enumerate(analysis.stmts):
        enclosing.append(stack[-1].index if stack else None)
        if not fors and isinstance(stmt, (ast.For, ast.Next)):
            continue
        if isinstance(stmt, ast.For):
            for outer in stack:
                if isinstance(outer.stmt, ast.For) and outer.stmt.var.name == stmt.var.name:
                    error(
                        f"FOR {stmt.var.name} inside a FOR block with the same variable "
                        f"({_line(outer.stmt)})",
                        stmt.var.coord,
                    )
                    break
            stack.append(_Open(index, stmt))
        elif isinstance(stmt, (ast.While, ast.IfBlock)):
            source = lowered.get(index)
            do, case = isinstance(source, ast.Do), isinstance(source, ast.Case)
            stack.append(_Open(index, stmt, do=do, case=case))
        elif isinstance(stmt, ast.Next):
            _close_for(analysis, stack, index, stmt, error, unclosed_inside)
        elif isinstance(stmt, ast.Wend):
            loop = isinstance(lowered.get(index), ast.Loop)
            word, opener = ("LOOP", "DO") if loop else ("WEND", "WHILE")
            if not stack or not isinstance(stack[-1].stmt, ast.While) or stack[-1].do != loop:
                if any(isinstance(o.stmt, ast.While) and o.do == loop for o in stack):
                    unclosed_inside(stack[-1], word, stmt.coord)
                else:
                    error(f"{word} without {opener}", stmt.coord)
                continue
            top = stack.pop()
            analysis.while_wend[top.index] = index
            analysis.wend_while[index] = top.index
        elif isinstance(stmt, (ast.ElseIf, ast.Else, ast.EndIf)):
            word = {ast.ElseIf: "ELSEIF", ast.Else: "ELSE", ast.EndIf: "END IF"}[type(stmt)]
            case = isinstance(lowered.get(index), (ast.Case, ast.EndSelect))
            if case:
                word = "END SELECT" if isinstance(stmt, ast.EndIf) else "CASE"
            if not stack or not isinstance(stack[-1].stmt, ast.IfBlock) or stack[-1].case != case:
                if any(isinstance(o.stmt, ast.IfBlock) and o.case == case for o in stack):
                    unclosed_inside(stack[-1], word, stmt.coord)
                else:
                    error(f"{word} without IF", stmt.coord)
                continue
            top = stack[-1]
            analysis.block_if_of[index] = top.index
            if isinstance(stmt, ast.EndIf):
                stack.pop()
                analysis.if_parts[top.index] = IfParts(
                    top.index, tuple(top.elseifs), top.else_index, index
                )
            elif top.else_index is not None:
                error(f"{word} after the ELSE of the IF of {_line(top.stmt)}", stmt.coord)
            elif isinstance(stmt, ast.ElseIf):
                top.elseifs.append(index)
            else:
                top.else_index = index
    for still_open in stack:
        if still_open.case:
            continue  # passes/check/flatten.py reported its SELECT CASE
        closer = {ast.For: "NEXT", ast.While: "WEND", ast.IfBlock: "END IF"}[type(still_open.stmt)]
        closer = "LOOP" if still_open.do else "END SELECT" if still_open.case else closer
        error(f"{still_open.what} without {closer}", still_open.stmt.coord)


def _close_for(analysis: Analysis, stack, index, stmt: ast.Next, error, unclosed_inside) -> None:
    name = stmt.vars[0].name if stmt.vars else None
    shown = f"NEXT {name}" if name else "NEXT"
    if not stack or not isinstance(stack[-1].stmt, ast.For):
        if stack and any(isinstance(o.stmt, ast.For) for o in stack):
            unclosed_inside(stack[-1], shown, stmt.coord)
        else:
            error(f"{shown} without FOR", stmt.coord)
        return
    top = stack[-1]
    if name is not None and top.stmt.var.name != name:
        if any(isinstance(o.stmt, ast.For) and o.stmt.var.name == name for o in stack):
            error(
                f"{shown} closes an outer loop before the inner {top.what} of "
                f"{_line(top.stmt)} (interleaved FOR blocks)",
                stmt.coord,
            )
        else:
            error(
                f"{shown} without FOR (the open FOR is {top.what} of {_line(top.stmt)})", stmt.coord
            )
        return
    stack.pop()
    analysis.for_next[top.index] = index
    analysis.next_for[index] = top.index
