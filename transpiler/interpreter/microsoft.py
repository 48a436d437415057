"""Microsoft BASIC expressions (--dialect ms) to Python text for the interpreter.

The operations take GW-BASIC's types (passes/check/typecheck.py) and the runtime's Microsoft
arithmetic (runtime/msnumbers.py): every + - * of singles is rounded to a single
(`_sng(a + b)`: float32 arithmetic, and GW-BASIC's range), of doubles checked against
that range (`_dbl`); / is `_sdiv` or `_ddiv` (division by zero warns), ^ `_spowi` for an
integer exponent and `_spow` otherwise, \\ and MOD `_idiv` and `_imod`; AND, OR, XOR, EQV,
IMP and NOT are bitwise on 16-bit integers, except where both operands are truth values
(comparisons and logic of them: -1 or 0), where bitwise and logical agree and Python's
boolean operators say it more directly.  The functions that GW-BASIC computes in single
precision (SQR, LOG, SIN...) get a single argument and give a single.  With --precision
f64, singles are computed as doubles (`_dbl`, `_ddiv`, `_dpow`).
"""

from __future__ import annotations

from ..ir import ast
from ..ir.model import Analysis
from ..language.builtins import BUILTINS
from ..language.semantics import BITWISE, argument_as_single, is_truth_value
from .expressions import Code, ExprCompiler, Temps, builtin_callee

# QuickBASIC's INTEGER and LONG results of + - * and unary minus: "Overflow" beyond them.
_QUICKBASIC_INTEGERS = {"int": "_iresult", "lng": "_lresult"}


class MicrosoftExprCompiler(ExprCompiler):
    def __init__(self, analysis: Analysis, static_arrays: set[str], temps: Temps):
        super().__init__(analysis, static_arrays, temps)
        self.types = analysis.expr_types
        self.singles = analysis.number_type == "f32"

    def rounding(self, e: ast.Expr) -> str:
        """The runtime function that gives the result of `e` its type (QuickBASIC's
        INTEGER and LONG results are checked against their ranges)."""
        value_type = self.types.get(e)
        if value_type in _QUICKBASIC_INTEGERS:
            return _QUICKBASIC_INTEGERS[value_type]
        return "_sng" if value_type == "num" and self.singles else "_dbl"

    def code(self, e: ast.Expr) -> Code:
        if isinstance(e, ast.UnaryOp) and e.op == "NOT" and not is_truth_value(e.operand):
            prefix = "_l" if self.types.get(e) == "lng" else "_b"
            return Code(f"{prefix}not({self.value(e.operand)})")
        if isinstance(e, ast.UnaryOp) and e.op == "-" and self.types.get(e) in _QUICKBASIC_INTEGERS:
            return Code(f"{self.rounding(e)}(-{self.code(e.operand).operand()})")
        return super().code(e)

    def binop(self, e: ast.BinOp) -> Code:
        op = e.op
        if self.types.get(e) == "str" or op in ("=", "<>", "<", ">", "<=", ">="):
            return super().binop(e)
        left, right = self.value(e.left), self.value(e.right)
        if op in BITWISE:
            if op in ("AND", "OR") and is_truth_value(e):
                return super().binop(e)
            prefix = "_l" if self.types.get(e) == "lng" else "_b"
            return Code(f"{prefix}{BITWISE[op]}({left}, {right})")
        if op in ("+", "-", "*"):
            return Code(f"{self.rounding(e)}({left} {op} {self.code(e.right).operand()})")
        if op == "/":
            divide = "_sdiv" if self.rounding(e) == "_sng" else "_ddiv"
            return Code(f"{divide}({left}, {right})")
        if op == "^":
            if not self.singles or self.types.get(e) == "dbl":  # (QuickBASIC: a double's ^)
                return Code(f"_dpow({left}, {right})")
            power = "_spowi" if self.types.get(e.right) == "int" else "_spow"
            return Code(f"{power}({left}, {right})")
        long = "_l" if self.types.get(e) == "lng" else "_i"
        if op == "\\":
            return Code(f"{long}div({left}, {right})")
        if op == "MOD":
            return Code(f"{long}mod({left}, {right})")
        raise TypeError(f"unknown operator {op}")

    def cond(self, e: ast.Expr) -> str:
        if isinstance(e, ast.BinOp) and e.op in BITWISE and not is_truth_value(e):
            return f"({self.value(e)} != 0.0)"
        if isinstance(e, ast.UnaryOp) and e.op == "NOT" and not is_truth_value(e.operand):
            return f"({self.value(e)} != 0.0)"
        return super().cond(e)

    def call(self, e: ast.Call) -> str:
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.single_precision:
            arg = self.value(e.args[0])
            if argument_as_single(self.types.get(e), self.types.get(e.args[0]), self.singles):
                arg = f"_sng({arg})"
            result = "_sfn" if self.rounding(e) == "_sng" else "_dbl"
            return f"{result}({builtin_callee(builtin)}({arg}))"
        if e.name == "STR$" and self.types.get(e.args[0]) in ("dbl", "lng"):  # 16 digits
            return f"{builtin_callee(builtin)}(_Double({self.value(e.args[0])}))"
        return super().call(e)
