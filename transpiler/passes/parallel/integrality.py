"""Which scalar variables only ever hold integers, program-wide.

A kernel's lane computes its loop variable as `start + k * step`, while BASIC adds the
step again and again; the two agree exactly only when start and step are integers (a sum
of doubles that are integers is an integer, rounded or not).  So a loop whose start is a
variable, such as `FOR J = I + 1 TO N` inside `FOR I = N TO 1 STEP -1`, may become a
kernel only if that variable provably holds an integer.

The fact is flow-insensitive: a variable is integral when every statement that can set
it (LET, CONST, FOR, SWAP) gives it an integral value, and nothing reads a value into it
(INPUT, READ).  Variables never set hold 0.  A fixpoint drops the variables whose
writes depend on non-integral ones.
"""

from __future__ import annotations

import math

from ...ir import ast
from ...language.builtins import lookup

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
        elif isinstance(node, ast.Const):  # QuickBASIC's CONST N = 12: a LET of each
            for var, value in zip(node.names, node.values):
                wrote(var.name, value)
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


# Statements that only read the variables they mention (IF's own statements are walked
# on their own); any other statement that mentions a variable may set it.
_READ_ONLY = (
    ast.Print,
    ast.Write,
    ast.Goto,
    ast.Gosub,
    ast.Return,
    ast.OnGoto,
    ast.If,
    ast.IfBlock,
    ast.ElseIf,
    ast.Else,
    ast.EndIf,
    ast.Next,
    ast.While,
    ast.Wend,
    ast.Dim,
    ast.Rem,
    ast.End,
    ast.Stop,
    ast.Data,
    ast.Restore,
    ast.OptionBase,
    ast.DefType,
)


def constant_ranges(program: ast.Program) -> dict[str, tuple[float, float]]:
    """The numeric variables that only LETs of constants and FORs with such bounds set:
    the range of their values, 0 (a variable's value before it is set) included, and for
    a FOR the value its last NEXT leaves (limit + step).  `N% = 40` (or `N = 40` under
    DEFINT N, or a single-precision `N = 40`) makes `FOR I% = 0 TO N% - 1` a loop whose
    last NEXT cannot overflow."""
    writes: dict[str, list] = {}
    unknown: set[str] = set()
    for node in program.walk():
        written: set[str] = set()
        if isinstance(node, ast.Let) and isinstance(node.target, ast.Var):
            written = {node.target.name}
            writes.setdefault(node.target.name, []).append(("let", node.value))
        elif isinstance(node, ast.For):
            written = {node.var.name}
            writes.setdefault(node.var.name, []).append(("for", node))
        elif isinstance(node, ast.Const):  # QuickBASIC's CONST N = 10: a LET of each
            written = {var.name for var in node.names}
            for var, value in zip(node.names, node.values):
                writes.setdefault(var.name, []).append(("let", value))
        if isinstance(node, ast.Stmt) and not isinstance(
            node, (ast.Let, ast.For, ast.Const, *_READ_ONLY)
        ):
            unknown |= {n.name for n in node.walk() if isinstance(n, ast.Var)} - written
    candidates = {n for n in writes if not n.endswith("$") and n not in unknown}
    known: dict[str, tuple[float, float]] = {}
    needs = {name: _mentioned(writes[name]) & candidates - {name} for name in candidates}
    for _ in range(len(candidates) + 1):  # each round may resolve one more variable
        for name in sorted(candidates - set(known)):
            if not needs[name] <= set(known):
                continue  # (a variable in a cycle keeps the 16-bit range)
            found = [_write_range(w, known) for w in writes[name]]
            if all(r is not None for r in found):
                known[name] = (min(0.0, *(r[0] for r in found)), max(0.0, *(r[1] for r in found)))
    return known


def _mentioned(writes) -> set[str]:
    return {n.name for _, what in writes for n in what.walk() if isinstance(n, ast.Var)}


def _write_range(write, known) -> tuple[float, float] | None:
    kind, what = write
    if kind == "let":
        return value_range(what, known)
    step = value_range(what.step, known) if what.step is not None else (1.0, 1.0)
    start, limit = value_range(what.start, known), value_range(what.limit, known)
    if step is None or start is None or limit is None:
        return None
    # The values the loop runs through, and the one after its last NEXT (or, run
    # zero times, start + step).
    low = min(start[0], limit[0]) + min(step[0], 0.0)
    high = max(start[1], limit[1]) + max(step[1], 0.0)
    return low, high


def value_range(expr: ast.Expr, known: dict[str, tuple[float, float]]):
    """Bounds (low, high) of `expr`: numbers, `%` variables (their 16-bit range, or the
    `known` one), the `known` variables, + - and products; None for anything else."""
    if isinstance(expr, ast.Num):
        return expr.value, expr.value
    if isinstance(expr, ast.Var):
        if expr.name in known:
            return known[expr.name]
        return INTEGER_RANGE if expr.name.endswith("%") else None
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-":
        inner = value_range(expr.operand, known)
        if inner is None:
            return None
        return inner if expr.op == "+" else (-inner[1], -inner[0])
    if isinstance(expr, ast.BinOp) and expr.op in ("+", "-", "*"):
        left, right = value_range(expr.left, known), value_range(expr.right, known)
        if left is None or right is None:
            return None
        if expr.op == "+":
            return left[0] + right[0], left[1] + right[1]
        if expr.op == "-":
            return left[0] - right[1], left[1] - right[0]
        products = [a * b for a in left for b in right]
        return min(products), max(products)
    return None


INTEGER_RANGE = (-32768.0, 32767.0)  # a `%` variable's values (GW-BASIC's 16 bits)
