"""Facts about BASIC expressions that passes, the interpreter and both printers share.

They are read from the expression alone (no analysis), so that every engine decides them
the same way: which values are numbers written in the source, and which expressions can
be seen to run (warn, fail, draw a random number) so that their order matters.
"""

from __future__ import annotations

import math

from . import ast
from .builtins import effect_of
from .passes.exprutil import same_expr


def signed_number(expr: ast.Expr | None) -> float | None:
    """The value of a number written in the source, possibly with a sign, else None."""
    if isinstance(expr, ast.Num):
        return float(expr.value)
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-" and isinstance(expr.operand, ast.Num):
        value = float(expr.operand.value)
        return -value if expr.op == "-" else value
    return None


def has_effects(e: ast.Expr | None, microsoft: bool = False) -> bool:
    """Can evaluating `e` warn, fail, or draw a random number?  (If not, when it is
    evaluated relative to other expressions does not matter.)"""
    if e is None:
        return False
    for node in e.walk():
        if isinstance(node, ast.Index):
            return True
        if isinstance(node, ast.Call) and effect_of(node.name) != "none":
            return True
        if isinstance(node, ast.BinOp) and node.op in ("*", "/", "^", "MOD"):
            return True
        if microsoft and _microsoft_effects(node):
            return True
    return False


def _microsoft_effects(node: ast.Node) -> bool:
    """Microsoft BASIC: + and - may overflow; \\ and the bitwise operators may fail."""
    if isinstance(node, ast.BinOp):
        return node.op in ("+", "-", "\\", "AND", "OR", "XOR", "EQV", "IMP")
    return isinstance(node, ast.UnaryOp) and node.op == "NOT"


def copies_itself(stmt: ast.MidAssign) -> bool:
    """Is `MID$(A$, n) = A$` copying the string it changes?  GW-BASIC then copies
    character by character from the string being changed (`A$ = "12345678":
    MID$(A$, 4) = A$` makes "12312312"), so the engines call `mid_assign_itself`.  An
    element is the same when its subscripts are written alike and draw nothing."""
    target, value = stmt.target, stmt.value
    if isinstance(target, ast.Var):
        return isinstance(value, ast.Var) and value.name == target.name
    drawn = any(
        isinstance(node, ast.Call) and effect_of(node.name) != "none"
        for index in target.indices
        for node in index.walk()
    )
    return not drawn and same_expr(target, value)


def positive_constant(e: ast.Expr) -> bool:
    """A finite number above 0 written as such (SQR, LOG and ^ cannot fail on it)."""
    return isinstance(e, ast.Num) and 0.0 < e.value < math.inf


def integral_constant(e: ast.Expr) -> bool:
    """A whole number written as such, signed or not (a power's exponent that cannot
    make a negative base fail)."""
    if isinstance(e, ast.UnaryOp) and e.op in "+-":
        e = e.operand
    return isinstance(e, ast.Num) and math.isfinite(e.value) and e.value == int(e.value)


def print_operand(item: ast.Node) -> ast.Expr:
    """The expression of a PRINT item: a value, or the argument of TAB or SPC."""
    if isinstance(item, ast.Tab):
        return item.column
    if isinstance(item, ast.Spc):
        return item.count
    return item
