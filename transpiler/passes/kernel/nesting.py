"""Turn a flat statement list into nested blocks (FOR...NEXT, WHILE...WEND, IF...ENDIF).

The parser keeps BASIC's flat line structure; code generators and the kernel lowering
want trees.  `nest` builds one for a statement sequence whose blocks are properly
nested, and reports a located error otherwise.  (Unstructured GOTO flow is the host
structuring pass's business, not this one's.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ...errors import BasicSemanticError
from ...ir import ast


@dataclass(eq=False)
class ForBlock:
    head: ast.For
    body: list["Nested"]
    tail: ast.Next


@dataclass(eq=False)
class WhileBlock:
    head: ast.While
    body: list["Nested"]
    tail: ast.Wend


@dataclass(eq=False)
class IfArm:
    condition: ast.Expr
    body: list["Nested"]
    head: ast.Stmt  # the IfBlock / ElseIf / one-line If it came from


@dataclass(eq=False)
class IfChain:
    arms: list[IfArm]
    else_body: list["Nested"] | None = None
    tail: ast.Stmt | None = None  # the EndIf (None for a one-line IF)


Nested = Union[ast.Stmt, ForBlock, WhileBlock, IfChain]


def nest(stmts: list[ast.Stmt]) -> list[Nested]:
    """Nest `stmts`; raises BasicSemanticError at the first unmatched block statement."""
    pos, out = _sequence(stmts, 0)
    if pos < len(stmts):
        stray = stmts[pos]
        raise BasicSemanticError(
            f"{_word(stray)} without a matching opening statement", stray.coord
        )
    return out


def _word(stmt: ast.Stmt) -> str:
    return {
        ast.Next: "NEXT",
        ast.Wend: "WEND",
        ast.Else: "ELSE",
        ast.ElseIf: "ELSEIF",
        ast.EndIf: "ENDIF",
    }.get(type(stmt), type(stmt).__name__.upper())


_CLOSERS = (ast.Next, ast.Wend, ast.Else, ast.ElseIf, ast.EndIf)


def _sequence(stmts: list[ast.Stmt], pos: int) -> tuple[int, list[Nested]]:
    """Statements from `pos` up to (not including) the first closing statement."""
    out: list[Nested] = []
    while pos < len(stmts):
        stmt = stmts[pos]
        if isinstance(stmt, _CLOSERS):
            return pos, out
        if isinstance(stmt, ast.For):
            pos, node = _for(stmts, pos)
        elif isinstance(stmt, ast.While):
            pos, node = _while(stmts, pos)
        elif isinstance(stmt, ast.IfBlock):
            pos, node = _if_block(stmts, pos)
        elif isinstance(stmt, ast.If):
            node, pos = _one_line_if(stmt), pos + 1
        else:
            node, pos = stmt, pos + 1
        out.append(node)
    return pos, out


def _for(stmts: list[ast.Stmt], pos: int) -> tuple[int, ForBlock]:
    head = stmts[pos]
    end, body = _sequence(stmts, pos + 1)
    tail = stmts[end] if end < len(stmts) else None
    if not isinstance(tail, ast.Next):
        raise BasicSemanticError(f"FOR {head.var.name} without NEXT", head.coord)
    if len(tail.vars) > 1:
        raise BasicSemanticError("NEXT with several variables is not supported here", tail.coord)
    if tail.vars and tail.vars[0].name != head.var.name:
        raise BasicSemanticError(
            f"NEXT {tail.vars[0].name} does not match FOR {head.var.name}", tail.coord
        )
    return end + 1, ForBlock(head, body, tail)


def _while(stmts: list[ast.Stmt], pos: int) -> tuple[int, WhileBlock]:
    head = stmts[pos]
    end, body = _sequence(stmts, pos + 1)
    tail = stmts[end] if end < len(stmts) else None
    if not isinstance(tail, ast.Wend):
        raise BasicSemanticError("WHILE without WEND", head.coord)
    return end + 1, WhileBlock(head, body, tail)


def _if_block(stmts: list[ast.Stmt], pos: int) -> tuple[int, IfChain]:
    head = stmts[pos]
    end, body = _sequence(stmts, pos + 1)
    chain = IfChain([IfArm(head.condition, body, head)])
    while end < len(stmts) and isinstance(stmts[end], ast.ElseIf):
        arm_head = stmts[end]
        end, body = _sequence(stmts, end + 1)
        chain.arms.append(IfArm(arm_head.condition, body, arm_head))
    if end < len(stmts) and isinstance(stmts[end], ast.Else):
        end, chain.else_body = _sequence(stmts, end + 1)
    if end >= len(stmts) or not isinstance(stmts[end], ast.EndIf):
        raise BasicSemanticError("IF ... THEN block without ENDIF", head.coord)
    chain.tail = stmts[end]
    return end + 1, chain


def _one_line_if(stmt: ast.If) -> IfChain:
    then_body: list[Nested] = nest(stmt.then_body)
    if stmt.then_line is not None:
        then_body.append(ast.Goto(stmt.then_line, coord=stmt.then_line.coord, label=stmt.label))
    chain = IfChain([IfArm(stmt.condition, then_body, stmt)])
    if stmt.else_body or stmt.else_line is not None:
        else_body: list[Nested] = nest(stmt.else_body)
        if stmt.else_line is not None:
            else_body.append(ast.Goto(stmt.else_line, coord=stmt.else_line.coord, label=stmt.label))
        chain.else_body = else_body
    return chain
