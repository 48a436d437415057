"""Kernel IR expressions grouped and spelled once for both kernel printers (cuda/expr.py's
C++ at one element, cutile/expr.py's cuTile Python on whole tiles).

A `KernelSyntax` table says how a language writes an IR operation: an operator (symbol,
precedence) or a function, by the kind of its operands ("int" or "float").
`KernelExpressions` makes the decisions both printers share: dispatch on the node,
parentheses only where the precedence needs them (comparisons never chain, a
right-associative power takes a signed exponent, C++'s `&&` inside `||` gets them for
GCC's -Wparentheses), prefix operators, a negative constant binding as a unary minus.  A
printer gives the hooks about its types: `name_of`, `literal`, `unary_call`,
`binary_call` (the functions) and `operand`, `result` (C++ computes half precision in
float).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BasicUnsupportedError
from ..ir import kernel as ir
from ..ir.irbuild import COMPARISONS, FLOAT_FUNCTIONS


@dataclass(frozen=True)
class KernelSyntax:
    atom: int  # precedence of names, literals and calls
    unary: int  # of prefix operators
    infix: dict  # IR op -> (operator, precedence)
    prefix: dict  # IR op -> prefix operator
    functions: dict  # (IR op, "int" | "float") -> the function computing it
    math: dict  # IR math op on floats -> the function computing it
    or_operand: int = 0  # the least precedence of an operand of `or`
    right_assoc: frozenset = frozenset()  # operators grouping right to left
    target: str = ""  # in messages


CPP = KernelSyntax(
    atom=16, unary=15, or_operand=6, target="CUDA",
    infix={
        "add": ("+", 12), "sub": ("-", 12), "mul": ("*", 13), "div": ("/", 13),
        "lt": ("<", 10), "le": ("<=", 10), "gt": (">", 10), "ge": (">=", 10),
        "eq": ("==", 9), "ne": ("!=", 9), "and": ("&&", 5), "or": ("||", 4),
    },
    prefix={"neg": "-", "not": "!"},
    # <cmath> on double (on float with an `f` appended); BASIC's MOD (IR `rem`) is fmod,
    # which keeps the sign of the dividend.
    math={op: op for op in (*FLOAT_FUNCTIONS, "floor", "ceil", "pow")}
    | {"abs": "fabs", "rem": "fmod"},
    # Integer divisions rounded as cuTile rounds them, Python's remainder (IR `mod`) and C's
    # % defined for every divisor (IR `rem`, BASIC's MOD): cuda/helpers.py's b2t_ functions;
    # a float floordiv is floor of the quotient (cuda/expr.py).
    functions={
        ("floordiv", "int"): "b2t_floordiv", ("truncdiv", "int"): "b2t_truncdiv",
        ("mod", "int"): "b2t_mod", ("mod", "float"): "b2t_mod", ("rem", "int"): "b2t_rem",
        ("cdiv", "int"): "b2t_cdiv", ("min", "int"): "min", ("max", "int"): "max",
        ("min", "float"): "b2t_min", ("max", "float"): "b2t_max",
        ("pow", "float"): "pow", ("rem", "float"): "fmod", ("floordiv", "float"): "floor",
    },
)  # fmt: skip

PYTHON = KernelSyntax(
    atom=20, unary=12, right_assoc=frozenset({"pow"}), target="cuTile",
    infix={
        "or": ("|", 6), "and": ("&", 8), "lt": ("<", 5), "le": ("<=", 5), "gt": (">", 5),
        "ge": (">=", 5), "eq": ("==", 5), "ne": ("!=", 5),
        "add": ("+", 10), "sub": ("-", 10), "mul": ("*", 11), "div": ("/", 11),
        "floordiv": ("//", 11), "mod": ("%", 11), "pow": ("**", 13),
    },
    prefix={"neg": "-", "not": "~"},
    # cuTile functions of the same name (atan is ct.atan2's, cutile/expr.py)
    math={
        op: f"ct.{op}" for op in ("abs", "floor", "ceil", "isnan", *FLOAT_FUNCTIONS) if op != "atan"
    },
    # cuTile's `%` and `//` follow Python: BASIC's MOD and a division truncated toward zero
    # are the module's basic_ functions (cutile/helpers.py), and so are float MAX and MIN
    # (a tie gives the first operand).
    functions={
        ("rem", "float"): "basic_mod", ("rem", "int"): "basic_mod_int",
        ("truncdiv", "int"): "basic_div_int", ("truncdiv", "float"): "basic_div_int",
        ("max", "float"): "basic_max", ("min", "float"): "basic_min",
        ("max", "int"): "ct.maximum", ("min", "int"): "ct.minimum",
        ("cdiv", "int"): "ct.cdiv", ("cdiv", "float"): "ct.cdiv",
    },
)  # fmt: skip


def binary_function(syntax: KernelSyntax, e: ir.Binary) -> str | None:
    """The function `syntax` computes `e` with (None: an operator)."""
    kind = "float" if e.left.type.dtype in ir.FLOAT_TYPES else "int"
    return syntax.functions.get((e.op, kind))


class KernelExpressions:
    """Prints kernel IR expressions; `index` is the element a CUDA expression is evaluated
    at (None for scalars, and for cuTile's whole tiles)."""

    syntax: KernelSyntax

    def operand(self, e: ir.KExpr, index, min_prec: int) -> str:
        """An operand of an operator (a printer may convert it to the type it computes in)."""
        return self.wrap(e, index, min_prec)

    def result(self, e: ir.KExpr, text: str, prec: int) -> tuple[str, int]:
        """An operation's text as a value of `e`'s type."""
        return text, prec

    def expr(self, e: ir.KExpr, index=None) -> tuple[str, int]:
        """(text, precedence) of `e`."""
        return getattr(self, "_" + type(e).__name__)(e, index)

    def wrap(self, e: ir.KExpr, index, min_prec: int) -> str:
        text, prec = self.expr(e, index)
        return f"({text})" if prec < min_prec else text

    def _Param(self, e: ir.Param | ir.ConstRef, index):
        return self.name_of(e), self.syntax.atom

    _ConstRef = _Param  # a constant parameter's name (its constexpr)

    def _Const(self, e: ir.Const, index):
        text = self.literal(e.value, e.type.dtype)
        return text, self.syntax.unary if text.startswith("-") else self.syntax.atom

    def _Unary(self, e: ir.Unary, index):
        s = self.syntax
        if e.op not in s.prefix:
            return self.unary_call(e, index)
        return self.result(e, s.prefix[e.op] + self.operand(e.operand, index, s.unary), s.unary)

    def _Binary(self, e: ir.Binary, index):
        s, op = self.syntax, e.op
        function = binary_function(s, e)
        if function is not None:
            return self.binary_call(function, e, index)
        if op not in s.infix:
            raise BasicUnsupportedError(
                f"operation {op} on {e.left.type.dtype} values has no {s.target} translation"
            )
        symbol, prec = s.infix[op]
        left_min, right_min = prec, prec + 1
        if op in COMPARISONS:  # never chained
            left_min = prec + 1
        elif op in s.right_assoc:  # `a ** -b`
            left_min, right_min = prec + 1, s.unary
        if op == "or":
            left_min, right_min = max(left_min, s.or_operand), max(right_min, s.or_operand)
        left = self.operand(e.left, index, left_min)
        right = self.operand(e.right, index, right_min)
        return self.result(e, f"{left} {symbol} {right}", prec)
