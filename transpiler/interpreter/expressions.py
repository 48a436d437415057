"""BASIC expressions to Python expression text.

Numbers are Python floats and strings Python strs; every BASIC operation becomes inline
Python where that is exact, and a runtime call where ECMA-55 needs a check:
- `+`, `-` and `*` are inline with a check of the result: only an infinite or NaN
  result calls `runtime.add`, `sub` or `mul`, which decide whether to warn (a sum that
  cannot overflow, `I + 1`, is plain: `exprutil.sum_may_overflow`);
- `/` is inline unless the divisor is zero or the quotient infinite or NaN
  (`runtime.div` warns);
- `^`, MOD and the functions are runtime calls;
- comparisons give -1 (true) or 0 (false) as values, and plain Python booleans where
  only the truth is needed (IF, WHILE, AND, OR, NOT);
- AND and OR evaluate both operands (BASIC does not short-circuit: a division by zero
  on the right still warns), as Python's `&` and `|` on booleans do;
- a subscript is rounded as floor(x + 0.5) and checked against the bounds inline;
  a FOR variable that steps by an integer from an integer (its *shadow*, an exact
  Python int kept beside it) needs no rounding at all.

Operands are evaluated left to right, as in bas55.  Temporaries are walrus-bound
locals (`_t1`, `_t2`...), unique per site so that nested operations cannot clobber
each other.
"""

from __future__ import annotations

import builtins
import math

from ..ir import ast
from ..language.builtins import BUILTINS, Builtin
from ..ir.model import Analysis, ArraySymbol
from ..ir.ast import is_user_function
from ..passes.exprutil import sum_may_overflow
from . import names

_PYTHON_BUILTINS = frozenset(dir(builtins))


def builtin_callee(builtin: Builtin) -> str:
    """The name compiled code calls for a built-in function: a Python built-in (`abs`) as
    it is, a runtime function behind an underscore (machine.py binds those names)."""
    name = builtin.python
    return name if name in _PYTHON_BUILTINS else f"_{name}"


_COMPARE = {"=": "==", "<>": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}


class Code:
    """A piece of Python expression text; `atom` says it needs no parentheses as an
    operand (a name, a call, a parenthesised expression)."""

    __slots__ = ("atom", "text")

    def __init__(self, text: str, atom: bool = True):
        self.text = text
        self.atom = atom

    def operand(self) -> str:
        return self.text if self.atom else f"({self.text})"


class Temps:
    """Fresh names for walrus temporaries."""

    def __init__(self) -> None:
        self.count = 0

    def new(self) -> str:
        self.count += 1
        return f"_t{self.count}"


def number_literal(value: float) -> str:
    if math.isinf(value):
        return "_INF" if value > 0 else "(-_INF)"
    return repr(float(value))


class ExprCompiler:
    def __init__(self, analysis: Analysis, static_arrays: set[str], temps: Temps):
        self.a = analysis
        self.static_arrays = static_arrays  # arrays whose shape is fixed and known
        self.temps = temps
        self.types = analysis.expr_types
        self.params: dict[str, str] = {}  # DEF FN parameter -> Python local
        # FOR variable -> the Python local holding its exact integer value (codegen.py)
        self.shadows: dict[str, str] = {}
        self.store = StoreConversion(analysis)

    # ----------------------------------------------------------------- values

    def value(self, e: ast.Expr) -> str:
        return self.code(e).text

    def operand(self, e: ast.Expr) -> str:
        return self.code(e).operand()

    def code(self, e: ast.Expr) -> Code:
        if isinstance(e, ast.Num):
            literal = number_literal(e.value)
            return Code(literal, atom=not literal.startswith("-"))
        if isinstance(e, ast.Str):
            return Code(repr(e.value))
        if isinstance(e, ast.Var):
            return Code(self.params.get(e.name) or names.variable(e.name))
        if isinstance(e, ast.Index):
            return Code(self.element(e.name, e.indices))
        if isinstance(e, ast.Call):
            return Code(self.call(e))
        if isinstance(e, ast.UnaryOp):
            if e.op == "-":
                return Code("-" + self.operand(e.operand), atom=False)
            if e.op == "+":
                return self.code(e.operand)
            return Code(f"(0.0 if {self.cond(e.operand)} else -1.0)")  # NOT
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Bound):  # UBOUND: the bound the array has now
            return Code(f"float({names.array_object(e.name)}.upper[{e.dim - 1}])")
        raise TypeError(f"cannot interpret {type(e).__name__} here")

    def binop(self, e: ast.BinOp) -> Code:
        op = e.op
        if op == "+" and self.a.expr_types.get(e) == "str":
            # Microsoft BASIC's 255 characters ("String too long"); ECMA-55 has no `+`.
            return Code(f"_concat({self.value(e.left)}, {self.value(e.right)})")
        if op in ("+", "-"):
            if self._numeric_sum(e) and self._numeric_sum(e.left):
                return self.sum_chain(e)
            if sum_may_overflow(e, self.types):
                t, a, b = self.temps.new(), self.temps.new(), self.temps.new()
                checked = "_add" if op == "+" else "_sub"
                return Code(
                    f"({t} if ({t} := ({a} := {self.value(e.left)}) {op} ({b} := "
                    f"{self.value(e.right)})) - {t} == 0.0 else {checked}({a}, {b}))"
                )
            left = self.code(e.left)
            right = self.code(e.right)
            return Code(f"{left.text} {op} {right.operand()}", atom=False)
        if op == "*":
            t, a, b = self.temps.new(), self.temps.new(), self.temps.new()
            return Code(
                f"({t} if ({t} := ({a} := {self.value(e.left)}) * ({b} := {self.value(e.right)}))"
                f" - {t} == 0.0 else _mul({a}, {b}))"
            )
        if op == "/":
            t, a, b = self.temps.new(), self.temps.new(), self.temps.new()
            return Code(
                f"({t} if ({a} := {self.value(e.left)}) is {a} and "
                f"({b} := {self.value(e.right)}) != 0.0 and ({t} := {a} / {b}) - {t} == 0.0 "
                f"else _div({a}, {b}))"
            )
        if op == "^":
            return Code(f"_power({self.value(e.left)}, {self.value(e.right)})")
        if op == "MOD":
            return Code(f"_MOD({self.value(e.left)}, {self.value(e.right)})")
        if op in _COMPARE or op in ("AND", "OR"):
            return Code(f"(-1.0 if {self.cond(e)} else 0.0)")
        raise TypeError(f"unknown operator {op}")

    def _numeric_sum(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.BinOp) and e.op in ("+", "-") and self.types.get(e) != "str"

    def sum_chain(self, e: ast.BinOp) -> Code:
        """`A + B - C + ...` (sums nested to the left) as a flat tuple of steps updating a
        running total in BASIC's order, each checked as one sum is: nested walruses would
        pass Python's limit of 200 nested parentheses in a long chain."""
        steps = []
        while self._numeric_sum(e):
            steps.append(e)
            e = e.left
        total, t, b = self.temps.new(), self.temps.new(), self.temps.new()
        parts = [f"{total} := {self.value(e)}"]
        for step in reversed(steps):
            op = step.op
            if sum_may_overflow(step, self.types):
                checked = "_add" if op == "+" else "_sub"
                parts.append(
                    f"{total} := ({t} if ({t} := {total} {op} ({b} := {self.value(step.right)}))"
                    f" - {t} == 0.0 else {checked}({total}, {b}))"
                )
            else:
                parts.append(f"{total} := {total} {op} {self.operand(step.right)}")
        return Code(f"({', '.join(parts)})[-1]")

    # ----------------------------------------------------------------- conditions

    def cond(self, e: ast.Expr) -> str:
        """A Python expression that is true exactly when the BASIC value is nonzero
        (parenthesised, so it can be an operand of `&`, `|` and `not`)."""
        if isinstance(e, ast.BinOp) and e.op in _COMPARE:
            return f"({self.value(e.left)} {_COMPARE[e.op]} {self.value(e.right)})"
        if isinstance(e, ast.BinOp) and e.op == "AND":
            return f"({self.cond(e.left)} & {self.cond(e.right)})"
        if isinstance(e, ast.BinOp) and e.op == "OR":
            return f"({self.cond(e.left)} | {self.cond(e.right)})"
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return f"(not {self.cond(e.operand)})"
        return f"({self.value(e)} != 0.0)"

    # ----------------------------------------------------------------- calls

    def call(self, e: ast.Call) -> str:
        if is_user_function(e.name):
            fn = self.a.functions[e.name]
            args = [
                self.store.convert(self.value(arg), t) for arg, t in zip(e.args, fn.param_types)
            ]
            return f"{names.function(e.name)}({', '.join(args)})"
        callee = builtin_callee(BUILTINS[e.name])
        return f"{callee}({', '.join(self.value(arg) for arg in e.args)})"

    # ----------------------------------------------------------------- array elements

    def element(self, name: str, indices: list[ast.Expr]) -> str:
        """`data[flat index]` with the subscripts rounded and checked."""
        return f"{names.array_data(name)}[{self.flat_index(name, indices)}]"

    def flat_index(self, name: str, indices: list[ast.Expr]) -> str:
        """The flat element index, checked.  Each subscript is computed in one of three
        ways: a constant known to be in range needs no code; an integer expression of
        FOR shadows (`affine`) is checked as an int; anything else is rounded from its
        float value, floor(x + 0.5), and checked.  If a check fails, `_index` redoes the
        whole computation from the float values and raises the located fault."""
        symbol: ArraySymbol = self.a.arrays[name]
        base = symbol.base
        rank = len(indices)
        static = name in self.static_arrays
        if static:
            limits: list = [u + 1 for u in symbol.upper]
            extents = symbol.extents
            strides: list = [1] * rank
            for d in range(rank - 2, -1, -1):
                strides[d] = strides[d + 1] * extents[d + 1]
            offset: int | str = sum(base * s for s in strides)
        else:
            limits = [names.array_limit(name, d) for d in range(rank)]
            strides = [names.array_stride(name, d) for d in range(rank)]
            offset = names.array_offset(name)
        terms: list[str] = []
        constant_part = 0
        checks: list[str] = []
        fallback: list[str] = []
        checks_temps: list[str] = []  # temporaries of float checks
        for d, e in enumerate(indices):
            affine = self.affine(e)
            if isinstance(affine, int) and static and base <= affine < limits[d]:
                constant_part += affine * strides[d]
                fallback.append(f"{affine}.5")
                continue
            if affine is not None:
                text = str(affine)
                if not text.isidentifier():
                    s = self.temps.new()
                    checks.append(f"({base} <= ({s} := {text}) < {limits[d]})")
                    text = s
                else:
                    checks.append(f"({base} <= {text} < {limits[d]})")
                terms.append(_scaled(text, strides[d]))
                fallback.append(f"{self.value(e)} + 0.5")
                continue
            t = self.temps.new()
            checks_temps.append(t)
            checks.append(f"({base} <= ({t} := {self.value(e)} + 0.5) < {limits[d]})")
            terms.append(_scaled(f"int({t})", strides[d]))
            fallback.append(t)
        if static:
            shift = constant_part - offset
            index = " + ".join(terms) if terms else "0"
            if shift > 0:
                index += f" + {shift}"
            elif shift < 0:
                index += f" - {-shift}"
        else:
            index = " + ".join(terms) + f" - {offset}"
        if not checks:
            return index
        # Float checks bind the temporaries the fallback reads, so all must run (`&`);
        # integer checks have no effects and may stop at the first failure (`and`).
        joiner = " & " if any(t in fallback for t in checks_temps) else " and "
        test = joiner.join(checks) if len(checks) > 1 else checks[0][1:-1]
        return f"{index} if {test} else _index({names.array_object(name)}, {', '.join(fallback)})"

    def affine(self, e: ast.Expr) -> int | str | None:
        """An exact Python int expression for the rounded value of a subscript that is
        built from integer constants and FOR shadows with + - and * by a constant
        (its float value is then an exact integer, so rounding is the identity), or
        None.  An int result is a constant."""
        if isinstance(e, ast.Num):
            v = e.value
            return int(v) if float(v).is_integer() and abs(v) < 2**31 else None
        if isinstance(e, ast.Var):
            return self.shadows.get(e.name)
        if isinstance(e, ast.UnaryOp) and e.op in "+-":
            inner = self.affine(e.operand)
            if inner is None or e.op == "+":
                return inner
            return -inner if isinstance(inner, int) else f"(-{inner})"
        if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*"):
            left, right = self.affine(e.left), self.affine(e.right)
            if left is None or right is None:
                return None
            if isinstance(left, int) and isinstance(right, int):
                value = {"+": left + right, "-": left - right, "*": left * right}[e.op]
                return value if abs(value) < 2**31 else None
            if e.op == "*" and not (isinstance(left, int) or isinstance(right, int)):
                return None  # shadow * shadow: keep to linear expressions
            return f"({left} {e.op} {right})"
        return None


def _scaled(text: str, stride) -> str:
    return text if stride == 1 else f"{text} * {stride}"


class StoreConversion:
    """What assigning a value to a variable of some type does to it:
    `%` variables round to an integer (runtime `_interp_extras.to_integer`), numbers
    round to float32 when the program's number type is f32, and strings are checked
    against ECMA-55's length limit in strict mode.  In Microsoft BASIC a value takes the
    variable's type as GW-BASIC converts it: CINT for `%`, a single or a double within
    GW-BASIC's range (runtime/msnumbers.py)."""

    def __init__(self, analysis: Analysis):
        self.f32 = analysis.number_type == "f32"
        self.strict = analysis.options.strict
        self.microsoft = analysis.options.microsoft

    def convert(self, text: str, value_type: str) -> str:
        if self.microsoft:  # GW-BASIC's types: msnumbers.py
            if value_type == "str":
                return text
            if value_type == "int":
                return f"_cint({text})"
            if value_type == "lng":
                return f"_clng({text})"
            return f"_sng({text})" if value_type == "num" and self.f32 else f"_dbl({text})"
        if value_type == "int":
            return f"_toint({text})"
        if value_type == "str":
            return f"_chkstr({text})" if self.strict else text
        return f"_f32({text})" if self.f32 else text
