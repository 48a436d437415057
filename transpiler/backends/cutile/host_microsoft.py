"""Microsoft BASIC expressions (--dialect ms) as Python text for generated host programs.

The semantics are the interpreter's (`transpiler/interpreter/microsoft.py`), through the
same runtime functions (runtime/msnumbers.py), written for a reader:

- `A + B * C` of singles is `sng(a + sng(b * c))`: each operation rounded to a single
  (float32) within GW-BASIC's range, as GW-BASIC computes; `dbl(...)` for doubles, and
  for singles with --precision f64;
- `/` is `single_div` or `double_div`, `^` `single_power_int` (an integer exponent),
  `single_power` or `double_power`; `\\` and MOD `int_div` and `int_mod`;
- AND, OR, XOR, EQV, IMP and NOT are `bit_and(a, b)`... on 16-bit integers, except between
  truth values (comparisons: -1 or 0), where they are Python's `and`, `or` and `not`;
- SQR, LOG, SIN... are `single_result(SQR(x))`: computed in double, converted to a single
  as GW-BASIC's emulator does;
- storing converts to the variable's type: `cint` for `%`, `sng` or `dbl`;
- a double in a PRINT list is `Double(x)`, so that it prints its 16 digits.
"""

from __future__ import annotations

from ... import ast
from ...builtins import BUILTINS, effect_of
from ...expr_facts import has_effects
from ...hostcode import microsoft
from ...model import type_of_name
from ...semantics import BITWISE, argument_as_single, is_truth_value, single_as_written
from ..host_expressions import MicrosoftExpressions
from .host_expr import _AND, _ATOM, _COMPARE, _OR, _SUM, _UNARY, ExprPrinter

_PRODUCT = 11  # Python's * and /


class MicrosoftExprPrinter(MicrosoftExpressions, ExprPrinter):
    int_store, long_store = "cint", "clng"

    def rounding(self, e: ast.Expr) -> str:
        """The runtime function giving the result of `e` its type: sng or dbl."""
        return self.need(microsoft.rounding(e, self.types, self.singles))

    def _value(self, e: ast.Expr) -> tuple[str, int]:
        if isinstance(e, ast.UnaryOp) and e.op == "NOT" and not is_truth_value(e.operand):
            bit_not = "long_not" if self.types.get(e) == "lng" else "bit_not"
            return f"{self.need(bit_not)}({self.value(e.operand)})", _ATOM
        if isinstance(e, ast.UnaryOp) and e.op == "-" and isinstance(e.operand, ast.Num):
            return "-" + self._wrap(e.operand, _UNARY), _UNARY
        if (
            isinstance(e, ast.UnaryOp)
            and e.op == "-"
            and self.types.get(e) in microsoft.QUICKBASIC_INTEGERS
        ):
            return f"{self.rounding(e)}(-{self._wrap(e.operand, _UNARY)})", _ATOM
        if isinstance(e, ast.Num) and self.types.get(e) == "num" and self.singles:
            written = single_as_written(e)
            if written is not None:
                return f"{self.need('sng')}({written})", _ATOM
        return super()._value(e)

    def _binop(self, e: ast.BinOp) -> tuple[str, int]:
        op = e.op
        if self.types.get(e) == "str" or op in ("=", "<>", "<", ">", "<=", ">="):
            return super()._binop(e)
        if op in ("AND", "OR") and is_truth_value(e):
            return super()._binop(e)
        function = microsoft.operation(e, self.types, self.singles)
        if function is not None:
            return self._call(function, e.left, e.right), _ATOM
        if op in ("+", "-"):
            text = f"{self._wrap(e.left, _SUM)} {op} {self._wrap(e.right, _SUM + 1)}"
        else:  # *
            text = f"{self._wrap(e.left, _PRODUCT)} * {self._wrap(e.right, _PRODUCT + 1)}"
        return f"{self.rounding(e)}({text})", _ATOM

    def _call(self, function: str, *operands: ast.Expr) -> str:
        return f"{self.need(function)}({', '.join(self.value(x) for x in operands)})"

    def _cond(self, e: ast.Expr) -> tuple[str, int]:
        if (isinstance(e, ast.BinOp) and e.op in BITWISE) or (
            isinstance(e, ast.UnaryOp) and e.op == "NOT"
        ):
            if not is_truth_value(e):
                return f"{self._wrap(e, _COMPARE + 1)} != 0.0", _COMPARE
            if isinstance(e, ast.BinOp) and e.op in ("AND", "OR") and not self.quiet(e.right):
                # both sides are evaluated, as BASIC does: the right one may warn or fail
                symbol, prec = ("&", _AND) if e.op == "AND" else ("|", _OR)
                left = self._cond_wrap(e.left, prec + 1)
                return f"{left} {symbol} {self._cond_wrap(e.right, prec + 1)}", prec
        return super()._cond(e)

    def quiet(self, e: ast.Expr) -> bool:
        """Can evaluating `e` be skipped unnoticed?  Every Microsoft operation may report
        an overflow, and RND, DEF FN and subscripts have effects of their own."""
        for node in e.walk():
            string = isinstance(node, ast.BinOp) and self.types.get(node) == "str"
            if isinstance(node, (ast.Index, ast.BinOp)) and not is_truth_value(node) and not string:
                return False
            if isinstance(node, ast.Call) and effect_of(node.name) != "none":
                return False
        return True

    def call(self, e: ast.Call) -> str:
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.single_precision:
            arg = self.value(e.args[0])
            if argument_as_single(self.types.get(e), self.types.get(e.args[0]), self.singles):
                arg = f"{self.need('sng')}({arg})"
            converted = microsoft.single_result(e, self.types, self.singles)
            return f"{self.need(converted)}({self.need(builtin.python)}({arg}))"
        if e.name == "STR$" and self.types.get(e.args[0]) in ("dbl", "lng"):  # 16 digits
            arg = f"{self.need('Double')}({self.value(e.args[0])})"
            return f"{self.need(builtin.python)}({arg})"
        return super().call(e)

    def running_total(self, name: str, op: str, part: str) -> str:
        """`sng(total + part)`: each result of + and - has its type, and beyond GW-BASIC's
        range warns "Overflow" and is the largest value."""
        return self.store(f"{self.var(name)} {op} {part}", type_of_name(name))

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        # A total held at the largest single overflows again at every later term: where
        # the block's sum leaves the range, the host runs its iterations (msnumbers.fits).
        single = "" if self._single(name) else ", single=False"
        return f"{self.need('fits')}({self.var(name)} {op} {part}{single})"

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        options = ("" if self._single(name) else ", single=False") + (
            ", subtract=True" if op == "-" else ""
        )
        return f"{self.need('totals_fit')}({self.var(name)}, {parts}{options})"

    def _single(self, name: str) -> bool:
        return type_of_name(name) == "num" and self.singles

    def print_item(self, e: ast.Expr) -> str:
        """A PRINT item: a double prints its 16 digits."""
        text = self.value(e)
        return f"{self.need('Double')}({text})" if self.types.get(e) in ("dbl", "lng") else text

    def can_fail(self, e: ast.Node) -> bool:
        # A warning (Division by zero, Overflow) shows on GW-BASIC's screen, the program's
        # output, where the items before it end (and is an error in a trapping program):
        # what may warn counts as what may fail.
        return has_effects(e, microsoft=True) or super().can_fail(e)
