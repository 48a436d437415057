"""Microsoft BASIC expressions (--dialect ms) as C++ text for generated host programs.

The C++ twin of `cutile/host_microsoft.py`, through b2t_runtime.h's port of
runtime/msnumbers.py: a single is a `float` variable, a double a `double`; an operation
is computed in double and given its type by `b2t::sng(a + b)` (which rounds exactly as
float arithmetic would, within GW-BASIC's range) or `b2t::dbl`; `/`, `^`, `\\`, MOD and
AND, OR, XOR, EQV, IMP, NOT on integers are runtime calls; a single constant written
`0.1` is the float literal `0.1f`.
"""

from __future__ import annotations

from ... import ast
from ...builtins import BUILTINS
from ...hostcode import microsoft
from ...model import type_of_name
from ...semantics import BITWISE, argument_as_single, is_truth_value, single_as_written
from ..host_expressions import MicrosoftExpressions
from .host_expr import _EQUALITY, _PRIMARY, _SUM, _UNARY, Code, Effects, ExprPrinter, _as_double

_OVERFLOW = frozenset({"Overflow"})
_FAILING = frozenset({"\\", "MOD"})


class MicrosoftExprPrinter(MicrosoftExpressions, ExprPrinter):
    int_store, long_store = "to_int16", "to_int32_long"

    def ctype_of(self, value_type: str) -> str:
        if value_type == "dbl":
            return "double"
        if value_type == "lng":
            return "int32"  # QuickBASIC's LONG
        return super().ctype_of(value_type)

    def rounding(self, e: ast.Expr) -> str:
        return f"b2t::{microsoft.rounding(e, self.types, self.singles)}"

    def _value(self, e: ast.Expr, pre: list[str]) -> Code:
        if isinstance(e, ast.Num) and self.types.get(e) == "num" and self.singles:
            written = single_as_written(e)
            if written is not None:
                return Code(f"{written}f", _PRIMARY, "float")
        return super()._value(e, pre)

    def _unary(self, e: ast.UnaryOp, pre: list[str]) -> Code:
        if e.op == "NOT" and not is_truth_value(e.operand):
            [operand] = self._operands([e.operand], pre)
            bit_not = "b2t::long_not" if self.types.get(e) == "lng" else "b2t::bit_not"
            return Code(f"{bit_not}({operand.text})", _PRIMARY, "double")
        if e.op == "-" and self.types.get(e) in microsoft.QUICKBASIC_INTEGERS:
            [operand] = self._operands([e.operand], pre)
            return Code(f"{self.rounding(e)}(-double({operand.text}))", _PRIMARY, "double")
        return super()._unary(e, pre)

    def _binop(self, e: ast.BinOp, pre: list[str]) -> Code:
        op = e.op
        if self.types.get(e) == "str" or op in ("=", "<>", "<", ">", "<=", ">="):
            return super()._binop(e, pre)
        if op in ("AND", "OR") and is_truth_value(e):
            return super()._binop(e, pre)
        left, right = self._operands([e.left, e.right], pre)
        function = microsoft.operation(e, self.types, self.singles)
        if function is not None:
            return self._call(f"b2t::{function}", left, right)
        if op in ("+", "-"):
            text = f"{_as_double(left, right, _SUM)} {op} {right.wrap(_SUM + 1)}"
        else:  # *
            text = f"{_as_double(left, right, _UNARY)} * {right.wrap(_UNARY)}"
        return Code(f"{self.rounding(e)}({text})", _PRIMARY, "double")

    @staticmethod
    def _call(function: str, *operands: Code) -> Code:
        return Code(f"{function}({', '.join(x.text for x in operands)})", _PRIMARY, "double")

    def _cond(self, e: ast.Expr, pre: list[str]) -> Code:
        bitwise = (isinstance(e, ast.BinOp) and e.op in BITWISE) or (
            isinstance(e, ast.UnaryOp) and e.op == "NOT"
        )
        if bitwise and not is_truth_value(e):
            value = self._value(e, pre)
            return Code(f"{value.text} != 0.0", _EQUALITY, "bool")
        return super()._cond(e, pre)

    def call(self, e: ast.Call, pre: list[str]) -> Code:
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.single_precision:
            [arg] = self._operands(e.args, pre)
            text = arg.text
            if argument_as_single(self.types.get(e), self.types.get(e.args[0]), self.singles):
                text = f"b2t::sng({text})"
            converted = microsoft.single_result(e, self.types, self.singles)
            return Code(f"b2t::{converted}(b2t::{builtin.cpp}({text}))", _PRIMARY, "double")
        if e.name == "STR$" and self.types.get(e.args[0]) in ("dbl", "lng"):  # 16 digits
            [arg] = self._operands(e.args, pre)
            return Code(f"b2t::{builtin.cpp}(b2t::Double{{{arg.text}}})", _PRIMARY, "string")
        return super().call(e, pre)

    def running_total(self, name: str, op: str, part: str) -> str:
        """`b2t::sng(total + part)`: each result of + and - has its type, and beyond
        GW-BASIC's range warns "Overflow" and is the largest value."""
        return self.store(f"{self.var(name)} {op} {part}", type_of_name(name))

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        # A total held at the largest single overflows again at every later term: where
        # the block's sum leaves the range, the host runs its iterations (b2t::fits).
        single = "true" if self._single(name) else "false"
        return f"b2t::fits({self.var(name)} {op} {part}, {single})"

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        single = "true" if self._single(name) else "false"
        subtract = "true" if op == "-" else "false"
        return f"{parts}.totals_fit({self.var(name)}, {single}, {subtract})"

    def _single(self, name: str) -> bool:
        return type_of_name(name) == "num" and self.singles

    def print_item(self, e: ast.Expr, pre: list[str]) -> str:
        text = self.value(e, pre)
        return f"b2t::Double{{{text}}}" if self.types.get(e) in ("dbl", "lng") else text

    def _compute_effects(self, e: ast.Expr) -> Effects:
        effects = super()._compute_effects(e)
        if isinstance(e, ast.BinOp) and self.types.get(e) != "str" and not is_truth_value(e):
            fails = e.op in _FAILING or e.op in BITWISE
            return effects | Effects(warnings=_OVERFLOW, fails=fails)
        if isinstance(e, ast.UnaryOp) and e.op == "NOT" and not is_truth_value(e.operand):
            return effects | Effects(fails=True)
        builtin = BUILTINS.get(e.name) if isinstance(e, ast.Call) else None
        if builtin is not None and builtin.single_precision:
            return effects | Effects(warnings=_OVERFLOW)
        return effects
