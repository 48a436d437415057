"""Which scalar variables only ever hold integers, program-wide.

A kernel's lane computes its loop variable as `start + k * step`, while BASIC adds the
step again and again; the two agree exactly only when start and step are integers (a sum
of doubles that are integers is an integer, rounded or not).  So a loop whose start is a
variable, such as `FOR J = I + 1 TO N` inside `FOR I = N TO 1 STEP -1`, may become a
kernel only if that variable provably holds an integer.

The fact is flow-insensitive: a variable is integral when every statement that can set
it (LET, FOR, SWAP) gives it an integral value, and nothing reads a value into it
(INPUT, READ).  Variables never set hold 0.  A fixpoint drops the variables whose
writes depend on non-integral ones.
"""

from __future__ import annotations

import math

from .. import ast
from ..builtins import lookup

# Operators that give an integer from integers (relational operators and Microsoft's
# logical ones give -1 or 0 from anything).
_CLOSED = {"+", "-", "*", "MOD"}
_ALWAYS_INTEGER = {"=", "<>", "<", ">", "<=", ">=", "AND", "OR", "XOR", "EQV", "IMP", "\\"}


def integral_scalars(program: ast.Program) -> frozenset[str]:
    """The numeric scalar variables of `program` that hold integers wherever they are
    read."""
    writes: dict[str, list[ast.Expr | None]] = {}  # None: a value from outside

    def wrote(name: str, value: ast.Expr | None) -> None:
        if not name.endswith("$"):
            writes.setdefault(name, []).append(value)

    for node in program.walk():
        if isinstance(node, ast.Let) and isinstance(node.target, ast.Var):
            wrote(node.target.name, node.value)
        elif isinstance(node, ast.For):
            wrote(node.var.name, node.start)
            if node.step is not None:
                wrote(node.var.name, node.step)
        elif isinstance(node, (ast.Input, ast.Read)):
            for target in node.targets:
                if isinstance(target, ast.Var):
                    wrote(target.name, None)
        elif isinstance(node, ast.Swap):
            first, second = node.first, node.second
            if isinstance(first, ast.Var):
                wrote(first.name, second)
            if isinstance(second, ast.Var):
                wrote(second.name, first)
    integral = set(writes)
    changed = True
    while changed:
        changed = False
        for name in list(integral):
            if not name.endswith("%") and not all(
                value is not None and is_integral(value, integral) for value in writes[name]
            ):
                integral.discard(name)
                changed = True
    return frozenset(integral)


def is_integral(expr: ast.Expr, integral: set[str] | frozenset[str]) -> bool:
    """Whether `expr` gives an integer when the variables in `integral` hold integers."""
    if isinstance(expr, ast.Num):
        return math.isfinite(expr.value) and expr.value == int(expr.value)
    if isinstance(expr, ast.Var):
        return expr.name.endswith("%") or expr.name in integral
    if isinstance(expr, ast.UnaryOp):
        return expr.op == "NOT" or is_integral(expr.operand, integral)
    if isinstance(expr, ast.BinOp):
        if expr.op in _ALWAYS_INTEGER:
            return True
        return (
            expr.op in _CLOSED
            and is_integral(expr.left, integral)
            and is_integral(expr.right, integral)
        )
    if isinstance(expr, ast.Call):
        entry = lookup(expr.name)
        if entry is not None and entry.integer_valued:
            return True
        return expr.name == "ABS" and all(is_integral(a, integral) for a in expr.args)
    return False
