"""Microsoft BASIC expressions (--dialect ms) in host code, for both host targets: which
runtime function computes an operation (runtime/msnumbers.py and its C++ port in
b2t_runtime.h use the same names; C++ puts them in `b2t::`), and the printer mixin that
writes them through the target's syntax table.  The semantics are the interpreter's
(`transpiler/interpreter/microsoft.py`):

- `A + B * C` of singles is `sng(a + sng(b * c))`: each operation computed in double and
  rounded to a single (float32) within GW-BASIC's range, as GW-BASIC computes; `dbl`
  for doubles, and for singles with --precision f64; QuickBASIC's INTEGER and LONG
  results are `int_result`, `long_result` ("Overflow" beyond their range);
- `/`, `^`, `\\`, MOD and AND, OR, XOR, EQV, IMP, NOT on integers are runtime calls, except
  AND, OR and NOT between truth values (comparisons: -1 or 0), which are the target's;
- SQR, LOG, SIN... are `single_result(SQR(x))`: computed in double, converted to a single
  as GW-BASIC's emulator does;
- storing converts to the variable's type (a `%` integer or a `&` LONG, fatal "Overflow"
  beyond; a single, warning "Overflow" beyond; a double);
- a double in a PRINT list is a `Double`, so that it prints its 16 digits.
"""

from __future__ import annotations

from ..ir import ast
from ..ir.model import type_of_name
from ..language.builtins import BUILTINS
from ..language.semantics import BITWISE, argument_as_single, is_truth_value, single_as_written
from .expressions import Code, Effects

# QuickBASIC's INTEGER and LONG results of + - * and unary minus: "Overflow" beyond them.
QUICKBASIC_INTEGERS = {"int": "int_result", "lng": "long_result"}


def rounding(e: ast.Expr, types: dict, singles: bool) -> str:
    """The function giving the result of `e` its type: `sng` (a single, rounded as
    GW-BASIC rounds) or `dbl` (QuickBASIC: `int_result` or `long_result`, "Overflow"
    beyond an INTEGER's or a LONG's range)."""
    value_type = types.get(e)
    if value_type in QUICKBASIC_INTEGERS:
        return QUICKBASIC_INTEGERS[value_type]
    return "sng" if value_type == "num" and singles else "dbl"


def operation(e: ast.BinOp, types: dict, singles: bool) -> str | None:
    """The function computing numeric operation `e` (not a comparison, not AND/OR of
    truth values), or None for + - *: the target computes them in double and rounds
    the result with `rounding`."""
    op = e.op
    long = types.get(e) == "lng"  # QuickBASIC's LONG: on 32-bit integers
    if op in BITWISE:
        return f"{'long' if long else 'bit'}_{BITWISE[op]}"  # on 16-bit integers (LONG: 32)
    if op in ("+", "-", "*"):
        return None
    if op == "/":
        return "single_div" if rounding(e, types, singles) == "sng" else "double_div"
    if op == "^":
        if not singles or types.get(e) == "dbl":  # (QuickBASIC: a double operand's ^)
            return "double_power"
        return "single_power_int" if types.get(e.right) == "int" else "single_power"
    if op == "\\":
        return "long_div" if long else "int_div"
    if op == "MOD":
        return "long_mod" if long else "int_mod"
    raise TypeError(f"operator {op} is not supported in host programs")


def single_result(e: ast.Call, types: dict, singles: bool) -> str:
    """The conversion of a built-in computed in double (SQR, LOG...) to its result type:
    to a single as GW-BASIC's emulator does, or `dbl`."""
    return "single_result" if rounding(e, types, singles) == "sng" else "dbl"


_OVERFLOW = frozenset({"Overflow"})


class MicrosoftExpressions:
    """The Microsoft BASIC printer, mixed in before a target's host expression printer.
    The target gives `int_store`, `long_store` (the runtime's integer conversions, for a
    `%` and a `&` variable), `single_literal(written)` and `double_item(text)`."""

    int_store = long_store = ""

    def __init__(self, analysis, namer, array_names):
        super().__init__(analysis, namer, array_names)
        self.types = analysis.expr_types
        self.singles = analysis.number_type == "f32"

    def single_literal(self, written: str) -> Code:
        """A single constant as written (`0.1`), where that is not its float32 value."""
        raise NotImplementedError

    def double_item(self, text: str) -> str:
        """A double to print with its 16 digits."""
        raise NotImplementedError

    def store(self, text: str, value_type: str) -> str:
        if value_type == "str":
            return text
        if value_type in ("int", "lng"):
            name = self.int_store if value_type == "int" else self.long_store
        else:
            name = "sng" if value_type == "num" and self.singles else "dbl"
        return f"{self.runtime(name)}({text})"

    def rounding(self, e: ast.Expr) -> str:
        """The runtime function giving the result of `e` its type: sng or dbl..."""
        return self.runtime(rounding(e, self.types, self.singles))

    def print_text(self, e: ast.Expr, text: str) -> str:
        return self.double_item(text) if self.types.get(e) in ("dbl", "lng") else text

    def _value(self, e: ast.Expr, pre: list[str]) -> Code:
        if isinstance(e, ast.Num) and self.types.get(e) == "num" and self.singles:
            written = single_as_written(e)
            if written is not None:
                return self.single_literal(written)
        return super()._value(e, pre)

    def _unary(self, e: ast.UnaryOp, pre: list[str]) -> Code:
        if e.op == "NOT" and not is_truth_value(e.operand):
            bit_not = "long_not" if self.types.get(e) == "lng" else "bit_not"
            return self._runtime_call(bit_not, *self._operands([e.operand], pre))
        constant = isinstance(e.operand, ast.Num)  # -32768 fits, whatever its type
        if e.op == "-" and self.types.get(e) in QUICKBASIC_INTEGERS and not constant:
            [operand] = self._operands([e.operand], pre)
            return Code(
                f"{self.rounding(e)}({self.negated_integer(operand)})", self.syntax.atom_prec
            )
        return super()._unary(e, pre)

    def _binop(self, e: ast.BinOp, pre: list[str]) -> Code:
        s, op = self.syntax, e.op
        if self.types.get(e) == "str" or op in ("=", "<>", "<", ">", "<=", ">="):
            return super()._binop(e, pre)
        if op in ("AND", "OR") and is_truth_value(e):
            return super()._binop(e, pre)
        left, right = self._operands([e.left, e.right], pre)
        function = operation(e, self.types, self.singles)
        if function is not None:
            return self._runtime_call(function, left, right)
        prec = s.sum_prec if op in ("+", "-") else s.product_prec
        text = f"{self.left_operand(left, right, prec)} {op} {right.wrap(prec + 1)}"
        return Code(f"{self.rounding(e)}({text})", s.atom_prec)

    def _cond(self, e: ast.Expr, pre: list[str]) -> Code:
        bitwise = (isinstance(e, ast.BinOp) and e.op in BITWISE) or (
            isinstance(e, ast.UnaryOp) and e.op == "NOT"
        )
        if bitwise and not is_truth_value(e):
            value = self._value(e, pre).wrap(self.syntax.equality_prec + 1)
            return Code(f"{value} != 0.0", self.syntax.equality_prec, "bool")
        return super()._cond(e, pre)

    def _call(self, e: ast.Call, pre: list[str]) -> Code:
        builtin = BUILTINS.get(e.name)
        function = getattr(builtin, self.syntax.builtin_field, None)
        if builtin is not None and builtin.single_precision:
            [arg] = self._operands(e.args, pre)
            text = arg.text
            if argument_as_single(self.types.get(e), self.types.get(e.args[0]), self.singles):
                text = f"{self.runtime('sng')}({text})"
            converted = self.runtime(single_result(e, self.types, self.singles))
            return Code(f"{converted}({self.runtime(function)}({text}))", self.syntax.atom_prec)
        if e.name == "STR$" and self.types.get(e.args[0]) in ("dbl", "lng"):  # 16 digits
            [arg] = self._operands(e.args, pre)
            text = f"{self.runtime(function)}({self.double_item(arg.text)})"
            return Code(text, self.syntax.atom_prec, "string")
        return super()._call(e, pre)

    def running_total(self, name: str, op: str, part: str) -> str:
        """`sng(total + part)`: each result of + and - has its type, and beyond GW-BASIC's
        range warns "Overflow" and is the largest value."""
        return self.store(f"{self.var(name)} {op} {part}", type_of_name(name))

    def _single(self, name: str) -> bool:
        return type_of_name(name) == "num" and self.singles

    def _compute_effects(self, e: ast.Expr) -> Effects:
        effects = super()._compute_effects(e)
        if isinstance(e, ast.BinOp) and self.types.get(e) != "str" and not is_truth_value(e):
            fails = e.op in ("\\", "MOD") or e.op in BITWISE
            return effects | Effects(warnings=_OVERFLOW, fails=fails)
        if isinstance(e, ast.UnaryOp) and e.op == "NOT" and not is_truth_value(e.operand):
            return effects | Effects(fails=True)
        builtin = BUILTINS.get(e.name) if isinstance(e, ast.Call) else None
        if builtin is not None and builtin.single_precision:
            return effects | Effects(warnings=_OVERFLOW)
        return effects
