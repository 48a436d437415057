"""BASIC expressions as C++ source text for generated host programs.

The semantics are the reference interpreter's, as in `cutile/host_expr.py`, with what C++
needs on top:

- Types.  Numbers are `double` (`float` for variables and arrays with --precision f32),
  `%` variables and arrays are `std::int32_t`, strings `std::string`.  Arithmetic is done
  in double, as the interpreter does it: when neither operand of a binary operation is a
  double, the left one is converted (`double(a_int) + b_int`), so two floats or two
  int32s never meet in float or int arithmetic (which would round, or overflow).
- Operations.  `*`, `/`, `^`, MOD, the functions and the stores are the runtime's
  (`b2t::mul`, `b2t::div`, `b2t::power`...), which report ECMA-55's exceptions, and so
  are `+` and `-` (`b2t::add`, `b2t::sub`) unless they cannot overflow (`I + 1`:
  the analysis' `plain_sums`); string `+` is std::string's.  A comparison is a `bool`
  where only its truth matters and -1 / 0 as a value; AND and OR are `&&` and `||`, or
  `&` and `|` (which evaluate both sides, as BASIC does) when the right side could warn,
  fail or draw a random number.
- Order of evaluation.  BASIC evaluates operands left to right; C++ leaves the order of
  the operands of `+`, `<`, `&` and of function arguments unspecified.  Where the order
  changes what the program prints, i.e. when two operands draw random numbers (RND, or
  a DEF FN that does), or both may report something other than one same warning (an
  overflow on the left and a subscript out of range on the right: the interpreter
  prints the warning, then the error), the earlier ones are evaluated first into
  `const auto tmp = ...;` lines (`pre`) before the statement, or inside an immediately
  invoked lambda where no statement can go first (an ELSE IF condition).  `Effects`
  and `conflict` say which operands are hoisted.

Parentheses appear only where C++'s precedence (or GCC's -Wparentheses) needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ast
from ...ast import is_user_function
from ...builtins import BUILTINS
from ...errors import BasicUnsupportedError
from ...expr_facts import integral_constant, positive_constant
from ...hostcode.operators import COMPARISONS as _COMPARISONS
from ...hostcode.operators import RUNTIME_OPERATORS
from ...model import Analysis, type_of_name
from ...naming import Namer
from ..host_expressions import HostExpressions
from .host_text import cpp_number, cpp_std_string, cpp_string

# C++ precedence, low to high
_COND = 2
_OR = 4
_AND = 5
_BIT = 7  # & and | (kept apart from comparisons by parentheses)
_EQUALITY = 9
_RELATIONAL = 10
_SUM = 12
_UNARY = 15
_PRIMARY = 17

_OPERATORS = {op: f"b2t::{function}" for op, function in RUNTIME_OPERATORS.items()}

# C++ types of values: "double", "float", "int32", "string", "literal" (a string literal,
# a `const char*`).
CTYPES = {"double": "double", "float": "float", "int32": "std::int32_t", "string": "std::string"}


@dataclass(frozen=True)
class Effects:
    """What evaluating an expression can do besides giving its value: draw random
    numbers or read a key (`rnd`: their order shows), report warnings (identified by
    their message where it is fixed), fail."""

    rnd: bool = False
    warnings: frozenset = frozenset()
    fails: bool = False

    def __or__(self, other: Effects) -> Effects:
        return Effects(
            self.rnd or other.rnd, self.warnings | other.warnings, self.fails or other.fails
        )

    @property
    def any(self) -> bool:
        return self.rnd or bool(self.warnings) or self.fails


NONE = Effects()


def conflict(first: Effects, second: Effects) -> bool:
    """Could evaluating `second` before `first` change what the program prints?  Two
    random draws would swap, and so would two messages, unless both can only be one
    same warning."""
    if first.rnd and second.rnd:
        return True
    if not (first.warnings or first.fails) or not (second.warnings or second.fails):
        return False
    one_warning = not (first.fails or second.fails) and len(first.warnings | second.warnings) == 1
    return not one_warning


@dataclass
class Code:
    """C++ expression text, its precedence and its C++ type."""

    text: str
    prec: int
    ctype: str

    def wrap(self, min_prec: int) -> str:
        return f"({self.text})" if self.prec < min_prec else self.text


class ExprPrinter(HostExpressions):
    """Prints expressions of one program; `pre` lists collect the lines a statement
    needs first (see the module docstring)."""

    def __init__(self, analysis: Analysis, namer: Namer, array_names: dict[str, str]):
        self.a = analysis
        self.namer = namer
        self.array_names = array_names
        self.f32 = analysis.number_type == "f32"
        self.strict = analysis.options.strict
        self.number = "float" if self.f32 else "double"
        self.functions_called: set[str] = set()
        self.params: dict[str, str] = {}  # DEF FN parameter -> its type, in a body
        # The elements whose subscripts are in range for sure (hostcode/simplify.py).
        self.safe_elements: frozenset = frozenset()  # set by the module printer
        self._effects: dict[int, Effects] = {}

    # ----------------------------------------------------------------- names and types

    def runtime(self, name: str) -> str:
        return f"b2t::{name}"

    def ctype_of(self, value_type: str) -> str:
        """The C++ type storing a BASIC value type ("num", "int", "str")."""
        return {"num": self.number, "int": "int32", "str": "string"}[value_type]

    def cpp_type(self, value_type: str) -> str:
        return CTYPES[self.ctype_of(value_type)]

    def var_type(self, name: str) -> str:
        if name in self.params:
            return self.params[name]
        return _type_of(name)

    # ----------------------------------------------------------------- statement level

    def value(self, e: ast.Expr, pre: list[str] | None) -> str:
        """The text of `e`; lines it needs first go to `pre` (None: nowhere, then a
        lambda evaluates them in place)."""
        return self.value_code(e, pre).text

    def value_code(self, e: ast.Expr, pre: list[str] | None) -> Code:
        if pre is not None:
            return self._value(e, pre)
        local: list[str] = []
        code = self._value(e, local)
        return self._in_lambda(local, code)

    def double_value(self, e: ast.Expr, pre: list[str] | None) -> str:
        """The value of a numeric `e` as a double (for braced lists of doubles)."""
        code = self.value_code(e, pre)
        if code.ctype == "double":
            return code.text
        return f"double({code.text})"

    def cond(self, e: ast.Expr, pre: list[str] | None) -> str:
        """A C++ condition true exactly when the BASIC value is nonzero."""
        if pre is not None:
            return self._cond(e, pre).text
        local: list[str] = []
        code = self._cond(e, local)
        return self._in_lambda(local, code).text

    @staticmethod
    def _in_lambda(lines: list[str], code: Code) -> Code:
        if not lines:
            return code
        return Code(f"[&] {{ {' '.join(lines)} return {code.text}; }}()", _PRIMARY, code.ctype)

    def all_of(self, conditions: list[ast.Expr], pre: list[str], line_of) -> str:
        """`a && b`: true when each condition holds, tested in turn.  `pre` gets the lines
        the first needs; a later one's lines (with `line_of(e)`, the line it names if it
        can fail) go in a lambda, which runs only when the conditions before it hold."""
        first = self._cond(conditions[0], pre)
        if len(conditions) == 1:
            return first.text
        parts = [first.wrap(_AND)]
        for e in conditions[1:]:
            local: list[str] = []
            code = self._cond(e, local)
            lines = line_of(e) + local
            if lines:
                parts.append(f"[&] {{ {' '.join(lines)} return {code.text}; }}()")
            else:
                parts.append(code.wrap(_AND + 1))
        return " && ".join(parts)

    def print_item(self, e: ast.Expr, pre: list[str]) -> str:
        """An expression printed by PRINT."""
        return self.value(e, pre)

    int_store = "to_int32"

    def single(self, text: str) -> str:
        return f"static_cast<float>({text})"

    # ----------------------------------------------------------------- values

    def _value(self, e: ast.Expr, pre: list[str]) -> Code:
        if isinstance(e, ast.Num):
            text = cpp_number(e.value)
            return Code(text, _UNARY if text.startswith("-") else _PRIMARY, "double")
        if isinstance(e, ast.Str):
            if "\0" in e.value:  # a `const char*` would end at the NUL
                return Code(cpp_std_string(e.value), _PRIMARY, "string")
            return Code(cpp_string(e.value), _PRIMARY, "literal")
        if isinstance(e, ast.Var):
            return Code(self.var(e.name), _PRIMARY, self.ctype_of(self.var_type(e.name)))
        if isinstance(e, ast.Index):
            return self.element(e, pre)
        if isinstance(e, ast.Call):
            return self.call(e, pre)
        if isinstance(e, ast.UnaryOp):
            return self._unary(e, pre)
        if isinstance(e, ast.BinOp):
            return self._binop(e, pre)
        if isinstance(e, ast.Bound):  # UBOUND: the bound the array has now
            return Code(f"double({self.array(e.name)}.upper({e.dim - 1}))", _PRIMARY, "double")
        raise TypeError(f"cannot print {type(e).__name__} in a host program")

    def _unary(self, e: ast.UnaryOp, pre: list[str]) -> Code:
        if e.op == "+":
            return self._value(e.operand, pre)
        if e.op == "-":
            operand = self._value(e.operand, pre)
            if operand.ctype == "int32":  # -(-2147483648) does not fit an int32
                return Code(f"-double({operand.text})", _UNARY, "double")
            text = operand.wrap(_UNARY)
            if text.startswith("-"):
                text = f"({text})"  # not `--x`
            return Code("-" + text, _UNARY, operand.ctype)
        condition = self._cond(e.operand, pre)  # NOT
        return Code(f"{condition.wrap(_COND + 1)} ? 0.0 : -1.0", _COND, "double")

    def _binop(self, e: ast.BinOp, pre: list[str]) -> Code:
        op = e.op
        if op in _COMPARISONS or op in ("AND", "OR"):
            condition = self._cond(e, pre)
            return Code(f"{condition.wrap(_COND + 1)} ? -1.0 : 0.0", _COND, "double")
        left, right = self._operands([e.left, e.right], pre)
        if op in ("+", "-"):
            if left.ctype in ("string", "literal"):  # string concatenation
                if not self.strict:  # Microsoft's 255 characters ("String too long")
                    return Code(f"b2t::concat({left.text}, {right.text})", _PRIMARY, "string")
                text = left.text
                if left.ctype == "literal" and right.ctype == "literal":
                    text = f"std::string({text})"
                return Code(f"{text} + {right.wrap(_SUM + 1)}", _SUM, "string")
            if e not in self.a.plain_sums:
                fn = "b2t::add" if op == "+" else "b2t::sub"
                return Code(f"{fn}({left.text}, {right.text})", _PRIMARY, "double")
            left_text = _as_double(left, right, _SUM)
            return Code(f"{left_text} {op} {right.wrap(_SUM + 1)}", _SUM, "double")
        if op in _OPERATORS:
            return Code(f"{_OPERATORS[op]}({left.text}, {right.text})", _PRIMARY, "double")
        raise BasicUnsupportedError(
            f"the operator {op} is not supported by the CUDA C++ backend yet", e.coord
        )

    def _operands(self, exprs: list[ast.Expr], pre: list[str]) -> list[Code]:
        """The operands of one operation, evaluated so that the order C++ picks cannot
        be seen: the earlier effectful operands go to temporaries when they conflict."""
        effects = [self.effects(x) for x in exprs]
        ordered = any(
            conflict(effects[i], effects[j])
            for i in range(len(exprs))
            for j in range(i + 1, len(exprs))
        )
        last = max((i for i, fx in enumerate(effects) if fx.any), default=-1)
        codes = []
        for i, x in enumerate(exprs):
            code = self._value(x, pre)
            if ordered and i < last and effects[i].any:
                temp = self.namer.fresh("tmp")
                pre.append(f"const auto {temp} = {code.text};")
                code = Code(temp, _PRIMARY, code.ctype)
            codes.append(code)
        return codes

    # ----------------------------------------------------------------- conditions

    def _cond(self, e: ast.Expr, pre: list[str]) -> Code:
        if isinstance(e, ast.BinOp) and e.op in _COMPARISONS:
            left, right = self._operands([e.left, e.right], pre)
            prec = _EQUALITY if e.op in ("=", "<>") else _RELATIONAL
            if left.ctype == "literal" and right.ctype == "literal":
                left = Code(f"std::string({left.text})", _PRIMARY, "string")
            left_text = _as_double(left, right, prec + 1)
            return Code(f"{left_text} {_COMPARISONS[e.op]} {right.wrap(prec + 1)}", prec, "bool")
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            both = self.effects(e.right).any  # BASIC evaluates both sides
            if both:
                left, right = self._cond_operands([e.left, e.right], pre)
                symbol = "&" if e.op == "AND" else "|"
                return Code(f"{left.wrap(_UNARY)} {symbol} {right.wrap(_UNARY)}", _BIT, "bool")
            left = self._cond(e.left, pre)
            right = self._cond(e.right, pre)
            if e.op == "AND":  # a && b && c; || inside && needs parentheses
                return Code(f"{left.wrap(_AND)} && {right.wrap(_AND + 1)}", _AND, "bool")
            # a || b || c; && inside || gets them too (GCC's -Wparentheses asks for them)
            left_text = left.text if left.prec == _OR or left.prec > _AND else f"({left.text})"
            return Code(f"{left_text} || {right.wrap(_AND + 1)}", _OR, "bool")
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return Code("!" + self._cond(e.operand, pre).wrap(_UNARY), _UNARY, "bool")
        value = self._value(e, pre)
        return Code(f"{value.wrap(_EQUALITY + 1)} != 0.0", _EQUALITY, "bool")

    def _cond_operands(self, exprs: list[ast.Expr], pre: list[str]) -> list[Code]:
        effects = [self.effects(x) for x in exprs]
        ordered = conflict(effects[0], effects[1])
        codes = []
        for i, x in enumerate(exprs):
            code = self._cond(x, pre)
            if ordered and i == 0 and effects[0].any:
                temp = self.namer.fresh("tmp")
                pre.append(f"const bool {temp} = {code.text};")
                code = Code(temp, _PRIMARY, "bool")
            codes.append(code)
        return codes

    # ----------------------------------------------------------------- calls and elements

    def call(self, e: ast.Call, pre: list[str]) -> Code:
        if is_user_function(e.name):
            self.functions_called.add(e.name)
            fn = self.a.functions[e.name]
            codes = self._operands(e.args, pre)
            args = [self.store(c.text, t) for c, t in zip(codes, fn.param_types)]
            name = self.namer.name(e.name, "function")
            return Code(f"{name}({', '.join(args)})", _PRIMARY, self.ctype_of(fn.result_type))
        builtin = BUILTINS.get(e.name)
        if builtin is None or builtin.cpp is None:
            raise BasicUnsupportedError(
                f"the function {e.name} is not supported by the CUDA C++ backend yet", e.coord
            )
        args = ", ".join(c.text for c in self._operands(e.args, pre))
        ctype = "string" if builtin.result == "str" else "double"
        return Code(f"b2t::{builtin.cpp}({args})", _PRIMARY, ctype)

    def element(self, e: ast.Index, pre: list[str]) -> Code:
        subscripts = ", ".join(self.subscript(c) for c in self._operands(e.indices, pre))
        symbol = self.a.arrays[e.name]
        return Code(
            f"{self.array(e.name)}({subscripts})", _PRIMARY, self.ctype_of(symbol.elem_type)
        )

    @staticmethod
    def subscript(code: Code) -> str:
        """Integral constants print as ints (the array rounds anyway)."""
        text = code.text
        if text.endswith(".0") and text[:-2].isdigit():
            return text[:-2]
        return text

    # ----------------------------------------------------------------- effects

    def effects(self, e: ast.Expr) -> Effects:
        """What evaluating `e` can do besides giving its value (cached per node)."""
        key = id(e)
        if key not in self._effects:
            self._effects[key] = self._compute_effects(e)
        return self._effects[key]

    def _compute_effects(self, e: ast.Expr) -> Effects:
        inner = NONE
        for child in _children(e):
            inner = inner | self.effects(child)
        if isinstance(e, ast.Index):
            return inner | Effects(fails=not self._safe_element(e))
        if isinstance(e, ast.Call):
            if is_user_function(e.name):
                return inner | self.function_effects(e.name)
            builtin = BUILTINS[e.name]
            if builtin.effect in ("random", "input"):  # draws a number, reads a key
                return inner | Effects(rnd=True)
            if builtin.effect == "warns":  # its message names the argument: one per call
                return inner | Effects(warnings=frozenset({f"{e.name}@{id(e)}"}))
            if builtin.effect == "fails":
                safe = builtin.numeric_domain and positive_constant(e.args[0])
                return inner | Effects(fails=not safe)
            if builtin.effect == "io":  # a file number that is not open
                return inner | Effects(fails=True)
            return inner
        if isinstance(e, ast.BinOp) and self.a.expr_types.get(e) == "str":
            return inner | Effects(fails=True)  # "String too long"
        if isinstance(e, ast.BinOp):
            if e.op in ("+", "-") and e not in self.a.plain_sums:
                return inner | Effects(warnings=frozenset({f"operation overflow ({e.op})"}))
            if e.op == "*":
                return inner | Effects(warnings=frozenset({"operation overflow (*)"}))
            if e.op == "/":
                warnings = {"division by zero", "operation overflow (/)"}
                return inner | Effects(warnings=frozenset(warnings))
            if e.op == "MOD":
                return inner | Effects(warnings=frozenset({"division by zero"}))
            if e.op == "^":
                warnings = {"operation overflow"}
                if not positive_constant(e.right):
                    warnings.add(f"zero raised to negative value@{id(e)}")
                return inner | Effects(
                    warnings=frozenset(warnings), fails=not integral_constant(e.right)
                )
        return inner

    def function_effects(self, name: str) -> Effects:
        """What a call of a DEF FN function can do (its body, and the conversions of its
        arguments and result)."""
        key = ("function", name)
        if key not in self._effects:
            fn = self.a.functions[name]
            body = self.effects(fn.body)
            converts = fn.result_type == "int" or "int" in fn.param_types
            checks = self.strict and "str" in (fn.result_type, *fn.param_types)
            self._effects[key] = body | Effects(fails=converts or checks)
        return self._effects[key]

    def _safe_element(self, e: ast.Index) -> bool:
        """Are the subscripts in range for sure (hostcode/simplify.safe_elements)?"""
        return e in self.safe_elements


def _as_double(left: Code, right: Code, min_prec: int) -> str:
    """The left operand's text, converted to double when neither operand is one."""
    numeric = ("double", "float", "int32")
    if (
        left.ctype in numeric
        and right.ctype in numeric
        and "double" not in (left.ctype, right.ctype)
    ):
        return f"double({left.text})"
    return left.wrap(min_prec)


def _children(e: ast.Expr) -> list[ast.Expr]:
    if isinstance(e, ast.Index):
        return list(e.indices)
    if isinstance(e, ast.Call):
        return list(e.args)
    if isinstance(e, ast.UnaryOp):
        return [e.operand]
    if isinstance(e, ast.BinOp):
        return [e.left, e.right]
    return []


def _type_of(name: str) -> str:
    return type_of_name(name)
