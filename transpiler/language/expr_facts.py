"""Facts about BASIC expressions that passes, the interpreter and both printers share.

They are read from the expression alone (no analysis), so that every engine decides them
the same way: which values are numbers written in the source, and which expressions can
be seen to run (warn, fail, draw a random number) so that their order matters.
"""

from __future__ import annotations

import math

from ..ir import ast
from ..passes.exprutil import same_expr
from .builtins import effect_of


def signed_number(expr: ast.Expr | None) -> float | None:
    """The value of a number written in the source, possibly with a sign, else None."""
    if isinstance(expr, ast.Num):
        return float(expr.value)
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-" and isinstance(expr.operand, ast.Num):
        value = float(expr.operand.value)
        return -value if expr.op == "-" else value
    return None


def has_effects(e: ast.Expr | None, microsoft: bool = False, analysis=None) -> bool:
    """Can evaluating `e` warn, fail, or draw a random number?  (If not, when it is
    evaluated relative to other expressions, or whether it is evaluated at all, does not
    matter.)  The one definition every pass and printer asks.

    Without `analysis`, a sum or difference counts as quiet outside Microsoft BASIC (the
    passes' long-standing rule); with it, the rule is exact: a concatenation can fail
    ("String too long"), and a + or - can overflow unless the analysis proved it cannot
    (`Analysis.plain_sums`)."""
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
        if analysis is not None and _unproved_effects(node, analysis):
            return True
    return False


def _microsoft_effects(node: ast.Node) -> bool:
    """Microsoft BASIC: + and - may overflow; \\ and the bitwise operators may fail."""
    if isinstance(node, ast.BinOp):
        return node.op in ("+", "-", "\\", "AND", "OR", "XOR", "EQV", "IMP")
    return isinstance(node, ast.UnaryOp) and node.op == "NOT"


def _unproved_effects(node: ast.Node, analysis) -> bool:
    """A concatenation ("String too long"), or a sum the analysis did not prove quiet."""
    if not isinstance(node, ast.BinOp):
        return False
    if analysis.expr_types.get(node) == "str":
        return True
    return node.op in ("+", "-") and node not in analysis.plain_sums


def constant_truth(e: ast.Expr) -> bool | None:
    """The truth of a condition made of constants only (comparisons of constants, AND,
    OR, NOT): decided when translating, exactly as at run time (the same floats and
    strings compared the same way, and none of these operations warns).  None if
    it depends on the run."""
    if isinstance(e, ast.BinOp) and e.op in _COMPARE:
        left, right = _literal(e.left), _literal(e.right)
        if left is None or right is None or type(left) is not type(right):
            return None
        return _COMPARE[e.op](left, right)
    if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
        left, right = constant_truth(e.left), constant_truth(e.right)
        if left is None or right is None:
            return None
        return (left and right) if e.op == "AND" else (left or right)
    if isinstance(e, ast.UnaryOp) and e.op == "NOT":
        inner = constant_truth(e.operand)
        return None if inner is None else not inner
    value = _literal(e)
    if isinstance(value, float):
        return value != 0.0
    return None


_COMPARE = {
    "=": lambda a, b: a == b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}


def _literal(e: ast.Expr):
    """The value of a numeric constant (possibly signed) or string constant, else None."""
    if isinstance(e, ast.Str):
        return e.value
    sign = 1.0
    while isinstance(e, ast.UnaryOp) and e.op in "+-":
        sign = -sign if e.op == "-" else sign
        e = e.operand
    if isinstance(e, ast.Num):
        return sign * float(e.value)
    return None


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
