"""BASIC expressions as BASIC text, for messages and reports ("P(I - 1)")."""

from __future__ import annotations

from ..ir import ast

_PREC = {
    "OR": 1,
    "AND": 2,
    "=": 4,
    "<>": 4,
    "<": 4,
    ">": 4,
    "<=": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "MOD": 6,
    "^": 8,
}


def show_expr(e: ast.Expr) -> str:
    return _show(e)[0]


def _show(e: ast.Expr) -> tuple[str, int]:
    if isinstance(e, ast.Num):
        text = e.text or _number(e.value)
        return text, 9
    if isinstance(e, ast.Str):
        return '"' + e.value + '"', 9
    if isinstance(e, ast.Var):
        return e.name, 9
    if isinstance(e, ast.Bid):
        return ("BID" if e.axis == 0 else f"BID({e.axis})"), 9
    if isinstance(e, (ast.Index, ast.Call)):
        args = e.indices if isinstance(e, ast.Index) else e.args
        if not args:
            return e.name, 9
        return f"{e.name}({', '.join(show_expr(a) for a in args)})", 9
    if isinstance(e, ast.UnaryOp):
        inner, prec = _show(e.operand)
        if e.op == "NOT":
            return f"NOT {inner if prec >= 3 else '(' + inner + ')'}", 3
        return f"{e.op}{inner if prec >= 7 else '(' + inner + ')'}", 7
    if isinstance(e, ast.BinOp):
        prec = _PREC.get(e.op, 5)
        left, lp = _show(e.left)
        right, rp = _show(e.right)
        if lp < prec:
            left = f"({left})"
        if rp <= prec:
            right = f"({right})"
        return f"{left} {e.op} {right}", prec
    return type(e).__name__, 9


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)
