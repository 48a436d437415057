"""Which BASIC expressions can report an ECMA-55 exception at run time.

The runtime (`runtime/arith.py`) warns for division by zero (also `MOD 0`), overflow of
`+`, `-`, `*`, `/`, `^` and EXP, EXP's underflow and TAN's overflow, and fails for LOG,
SQR, SIN, COS and TAN outside their domain and for `^` of a negative number; a subscript
out of range is fatal.  Comparisons, the other built-ins and sums that cannot overflow
(`exprutil.sum_may_overflow`) never report anything.  The offload pass asks these
questions to decide which values a kernel must watch, and which statements may be
repeated without changing what the program reports.
"""

from __future__ import annotations

import builtins

from ... import runtime
from ...ir import ast
from ...language.builtins import BUILTINS
from ...runtime import MOD, BasicFault, arith, set_warning_hook
from ..exprutil import constant_value, sum_may_overflow

# Operators and built-ins whose result can be an exception (or an infinity or NaN made
# from finite operands, which is how a kernel sees one).
REPORTING_OPERATORS = frozenset({"+", "-", "*", "/", "^", "MOD"})
REPORTING_FUNCTIONS = frozenset(b.name for b in BUILTINS.values() if b.effect in ("warns", "fails"))


def can_report(expr: ast.Expr, analysis) -> bool:
    """Can evaluating `expr` warn or fail (other than by a subscript out of range)?
    `analysis`: the program's (its DEF FN bodies count, its types say which sums are
    numbers)."""
    functions = analysis.functions
    for node in expr.walk():
        if isinstance(node, ast.BinOp) and node.op in REPORTING_OPERATORS:
            if node.op in ("+", "-") and not sum_may_overflow(node, analysis.expr_types):
                continue
            if node.op in ("/", "MOD") and _quiet_divisor(node.op, constant_value(node.right)):
                continue
            return True
        if isinstance(node, ast.Call):
            if node.name in REPORTING_FUNCTIONS:
                return True
            fn = functions.get(node.name)
            if fn is not None and can_report(fn.body, analysis):
                return True
    return False


def _quiet_divisor(op: str, divisor: float | None) -> bool:
    """x MOD c never reports for a constant c other than 0, nor x / c for |c| >= 1 (the
    quotient of a finite x is no larger than x; an infinite x gives an infinity or NaN,
    which reports nothing)."""
    if divisor is None or divisor == 0:
        return False
    return op == "MOD" or abs(divisor) >= 1


def is_quiet(expr: ast.Expr, analysis) -> bool:
    """Can evaluating `expr` never warn nor fail (no reporting operation, no subscript)?"""
    if can_report(expr, analysis):
        return False
    nodes = list(expr.walk())
    if any(isinstance(node, ast.Index) for node in nodes):
        return False
    functions = analysis.functions
    called = [functions[n.name] for n in nodes if isinstance(n, ast.Call) and n.name in functions]
    return all(is_quiet(fn.body, analysis) for fn in called)


def constant_reports(expr: ast.Expr) -> bool | None:
    """For an expression of constants only (no variable, subscript, DEF FN or RND): does
    evaluating it report something?  None for any other expression.  Evaluated with the
    runtime's own arithmetic, so the answer is the interpreter's."""
    if not _constant(expr):
        return None
    notices: list = []
    previous = set_warning_hook(notices.append)
    try:
        _evaluate(expr)
    except _NotConstant:
        return None
    except BasicFault:
        return True
    finally:
        set_warning_hook(previous)
    return bool(notices)


def constant_number(expr: ast.Expr) -> float | None:
    """The value of an expression of constants only that reports nothing, as the
    interpreter computes it (in double); None for any other expression."""
    if not _constant(expr):
        return None
    notices: list = []
    previous = set_warning_hook(notices.append)
    try:
        value = _evaluate(expr)
    except (_NotConstant, BasicFault):
        return None
    finally:
        set_warning_hook(previous)
    return None if notices else value


class _NotConstant(Exception):
    pass


_BINARY = {"+": arith.add, "-": arith.sub, "*": arith.mul, "/": arith.div, "^": arith.power}
# The numeric functions a constant expression may call, as the interpreter runs them
# (not RND, nor the ones that read files or the screen: EOF, LOF, POS).
_FUNCTIONS = {
    b.name: getattr(runtime, b.python, None) or getattr(builtins, b.python)
    for b in BUILTINS.values()
    if b.python
    and b.syntax == "call"
    and b.effect not in ("random", "io")
    and b.result == "num"
    and all(t == "num" for form in b.forms for t in form)
}


def _constant(e: ast.Expr) -> bool:
    """Only constants, operators and the functions above (checked before evaluating: a
    failing operand left of a variable must not make `LOG(-1) + I` a constant)."""
    for node in e.walk():
        if isinstance(node, ast.Call) and node.name not in _FUNCTIONS:
            return False
        if not isinstance(node, (ast.Num, ast.UnaryOp, ast.BinOp, ast.Call)):
            return False
    return True


def _evaluate(e: ast.Expr) -> float:
    if isinstance(e, ast.Num):
        return float(e.value)
    if isinstance(e, ast.UnaryOp) and e.op in "+-":
        value = _evaluate(e.operand)
        return -value if e.op == "-" else value
    if isinstance(e, ast.BinOp) and (e.op in _BINARY or e.op == "MOD"):
        left, right = _evaluate(e.left), _evaluate(e.right)
        return MOD(left, right) if e.op == "MOD" else _BINARY[e.op](left, right)
    if isinstance(e, ast.Call) and e.name in _FUNCTIONS:
        return _FUNCTIONS[e.name](*(_evaluate(arg) for arg in e.args))
    raise _NotConstant
