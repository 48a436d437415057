"""Small facts about BASIC expressions used by the dependence analysis and the printers."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..ir import ast
from ..language.builtins import BUILTINS
from ..language.semantics import is_truth_value


def same_expr(a: ast.Node, b: ast.Node) -> bool:
    """Structural equality of two expressions (coords ignored)."""
    if type(a) is not type(b):
        return False
    for f in fields(a):
        if f.name in ("coord", "text"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, ast.Node):
            if not same_expr(x, y):
                return False
        elif isinstance(x, list):
            if len(x) != len(y) or not all(
                same_expr(p, q) if isinstance(p, ast.Node) else p == q for p, q in zip(x, y)
            ):
                return False
        elif x != y:
            return False
    return True


def constant_value(expr: ast.Expr) -> float | None:
    """The value of a constant numeric expression (literals, signs, + - *), else None."""
    if isinstance(expr, ast.Num):
        return expr.value
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-":
        inner = constant_value(expr.operand)
        if inner is None:
            return None
        return inner if expr.op == "+" else -inner
    if isinstance(expr, ast.BinOp) and expr.op in ("+", "-", "*"):
        left, right = constant_value(expr.left), constant_value(expr.right)
        if left is None or right is None:
            return None
        return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    return None


@dataclass(frozen=True)
class Affine:
    """`sum(coeff * lane_var) + const + sum(symbols)`: an array subscript in terms of
    the loop's lane variables, constants and loop-invariant scalars."""

    coeffs: tuple[tuple[str, int], ...]
    const: float
    symbols: tuple[str, ...] = ()

    def coeff(self, var: str) -> int:
        return dict(self.coeffs).get(var, 0)

    @property
    def lane_vars(self) -> tuple[str, ...]:
        return tuple(v for v, c in self.coeffs if c)


def affine(expr: ast.Expr, lane_vars: set[str], invariants: set[str]) -> Affine | None:
    """The affine form of `expr`, or None if it is not one."""
    if isinstance(expr, ast.Num):
        return Affine((), expr.value)
    if isinstance(expr, ast.Var):
        if expr.name in lane_vars:
            return Affine(((expr.name, 1),), 0.0)
        if expr.name in invariants:
            return Affine((), 0.0, (expr.name,))
        return None
    if isinstance(expr, ast.UnaryOp) and expr.op == "+":
        return affine(expr.operand, lane_vars, invariants)
    if isinstance(expr, ast.BinOp) and expr.op in ("+", "-"):
        left = affine(expr.left, lane_vars, invariants)
        right = affine(expr.right, lane_vars, invariants)
        if left is None or right is None:
            return None
        if expr.op == "-":
            if right.symbols:
                return None
            right = Affine(tuple((v, -c) for v, c in right.coeffs), -right.const)
        coeffs = dict(left.coeffs)
        for v, c in right.coeffs:
            coeffs[v] = coeffs.get(v, 0) + c
        return Affine(
            tuple(sorted((v, c) for v, c in coeffs.items() if c)),
            left.const + right.const,
            tuple(sorted(left.symbols + right.symbols)),
        )
    if isinstance(expr, ast.BinOp) and expr.op == "*":
        for factor, other in ((expr.left, expr.right), (expr.right, expr.left)):
            k = constant_value(factor)
            if k is not None and k == int(k):
                inner = affine(other, lane_vars, invariants)
                if inner is None or inner.symbols:
                    return None
                return Affine(tuple((v, int(c * k)) for v, c in inner.coeffs), inner.const * k)
    return None


# A number below 2**970 in magnitude added to a finite double never overflows: the sum is
# below max + 2**970, which rounds to max (the largest double is 2**1024 - 2**971).
_NEVER_OVERFLOWS_A_SUM = 2.0**970


def sum_may_overflow(expr: ast.BinOp, types: dict) -> bool:
    """Whether `+` or `-` of two numbers can overflow (and must be checked, ECMA-55 7.5):
    not when an operand is an integer (a `%` variable, a comparison...), a built-in whose
    values are small (SIN, COS, ATN, SGN, RND: the table's `small`), or a constant below
    2**970 in magnitude.  `types`: the
    analysis' expr_types."""
    if "str" in (types.get(expr), types.get(expr.left), types.get(expr.right)):
        return False
    for operand in (expr.left, expr.right):
        if types.get(operand) == "int":
            return False
        builtin = BUILTINS.get(operand.name) if isinstance(operand, ast.Call) else None
        if builtin is not None and builtin.small:
            return False
        value = constant_value(operand)
        if value is not None and abs(value) < _NEVER_OVERFLOWS_A_SUM:
            return False
    return True


def negation(condition: ast.Expr) -> ast.Expr:
    """True exactly when `condition` is false: NOT c for a truth value (-1 or 0, where
    Microsoft's bitwise NOT agrees), else c = 0."""
    if isinstance(condition, ast.BinOp) and condition.op in ("=", "<>"):
        op = "<>" if condition.op == "=" else "="  # exact: IEEE != is not ==
        return ast.BinOp(op, condition.left, condition.right, coord=condition.coord)
    if is_truth_value(condition):
        return ast.UnaryOp("NOT", condition, coord=condition.coord)
    return ast.BinOp(
        "=", condition, ast.Num(0.0, "0", coord=condition.coord), coord=condition.coord
    )
