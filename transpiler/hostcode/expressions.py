"""BASIC expressions in host code, decided once for both host targets and written through
a syntax table (hostcode/expression_syntax.py).  The semantics are the reference
interpreter's:

- Numbers.  `*`, `/`, `^` and MOD are the runtime's (`mul`, `div`, `power`, `MOD`:
  runtime/arith.py and its C++ port), which report ECMA-55's exceptions, and so are `+`
  and `-` (`add`, `sub`) unless they cannot overflow (`I + 1`: the analysis'
  `plain_sums`); the built-in functions are the runtime's.  Storing converts: the
  target's integer conversion for `%` variables, a float32 with --precision f32,
  `check_string` for strings in strict ECMA-55 mode.
- Truth.  A comparison is a boolean where only its truth matters and -1 / 0 as a value;
  one of constants only is decided now (`constant_truth`), exactly as at run time.  AND
  and OR evaluate both operands (`&`, `|`) where the right one could warn, fail or draw
  a random number, and may skip it (`and`/`&&`, `or`/`||`) where nobody can notice.
- Order of evaluation.  BASIC evaluates operands left to right.  A target that leaves
  the order open (C++: `+`, `<`, `&` and function arguments) gets the earlier operands
  hoisted into temporaries (lines in `pre`, before the statement) where the order
  changes what the program prints: when two operands draw random numbers, or both may
  report something other than one same warning (`Effects`, `conflict`).

A target printer gives the syntax table and the few hooks that are about its types
(`number_text`, `string_code`, `left_operand`, `negated_integer`, `single`...).
Parentheses appear only where the target's precedence needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BasicUnsupportedError
from ..ir import ast
from ..ir.ast import is_user_function
from ..ir.model import type_of_name
from ..language.builtins import BUILTINS
from ..language.expr_facts import constant_truth, integral_constant, positive_constant
from .expression_syntax import ExpressionSyntax
from .operators import COMPARISONS, RUNTIME_OPERATORS

STRINGS = ("string", "literal")  # the types of string values (`literal`: C++'s const char*)


@dataclass
class Code:
    """Expression text, its precedence and its type ("double", "float", "int32",
    "string", "literal", "bool")."""

    text: str
    prec: int
    ctype: str = "double"

    def wrap(self, min_prec: int) -> str:
        return f"({self.text})" if self.prec < min_prec else self.text


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


def _warns(*messages: str) -> Effects:
    return Effects(warnings=frozenset(messages))


class HostExpressions:
    """Prints the expressions of one program; `pre` lists collect the lines a statement
    needs first (only a target without `in_order` gets any)."""

    syntax: ExpressionSyntax
    int_store = ""  # the runtime's conversion of a value stored into a `%` variable

    def __init__(self, analysis, namer, array_names: dict[str, str]):
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
        self._effects: dict = {}

    # ----------------------------------------------------------------- target hooks

    def runtime(self, name: str) -> str:
        """A function of the runtime, by its name there."""
        return self.syntax.runtime_prefix + name

    def number_text(self, value: float) -> str:
        raise NotImplementedError

    def string_code(self, value: str) -> Code:
        raise NotImplementedError

    def single(self, text: str) -> str:
        """A value rounded to the float32 a variable of an f32 program holds."""
        raise NotImplementedError

    def left_operand(self, left: Code, right: Code, min_prec: int) -> str:
        """The left operand of a binary operator (a target may convert it)."""
        return left.wrap(min_prec)

    def negated_integer(self, operand: Code) -> str:
        """`-operand` of an integer type (C++: in double, which always holds it)."""
        return "-" + operand.wrap(self.syntax.unary_prec)

    # ----------------------------------------------------------------- names and types

    def var(self, name: str) -> str:
        return self.namer.name(name)

    def array(self, name: str) -> str:
        return self.array_names[name]

    def var_type(self, name: str) -> str:
        return self.params.get(name) or type_of_name(name)

    def ctype_of(self, value_type: str) -> str:
        """The type of the target storing a BASIC value type."""
        types = {"num": self.number, "int": "int32", "str": "string", "dbl": "double"}
        return types.get(value_type, "int32")  # "lng": QuickBASIC's LONG

    def store(self, text: str, value_type: str) -> str:
        """`text` converted for storing in a variable or element of `value_type`."""
        if value_type == "int":
            return f"{self.runtime(self.int_store)}({text})"
        if value_type == "str":
            return f"{self.runtime('check_string')}({text})" if self.strict else text
        return self.single(text) if self.f32 else text

    def _runtime_call(self, name: str, *operands: Code, ctype: str = "double") -> Code:
        args = ", ".join(x.text for x in operands)
        return Code(f"{self.runtime(name)}({args})", self.syntax.atom_prec, ctype)

    def _number(self, value: float) -> Code:
        text = self.number_text(value)
        return Code(text, self.syntax.unary_prec if text.startswith("-") else self.syntax.atom_prec)

    def _truth_value(self, known: bool) -> Code:
        return Code("-1.0", self.syntax.unary_prec) if known else Code("0.0", self.syntax.atom_prec)

    def print_text(self, e: ast.Expr, text: str) -> str:
        """The value `text` of `e` as a PRINT item."""
        return text

    # ----------------------------------------------------------------- values

    def _value(self, e: ast.Expr, pre: list[str]) -> Code:
        s = self.syntax
        if isinstance(e, ast.Num):
            return self._number(e.value)
        if isinstance(e, ast.Str):
            return self.string_code(e.value)
        if isinstance(e, ast.Var):
            return Code(self.var(e.name), s.atom_prec, self.ctype_of(self.var_type(e.name)))
        if isinstance(e, ast.Index):
            return self._element(e, pre)
        if isinstance(e, ast.Call):
            return self._call(e, pre)
        if isinstance(e, ast.UnaryOp):
            return self._unary(e, pre)
        if isinstance(e, ast.BinOp):
            return self._binop(e, pre)
        if isinstance(e, ast.Bound):  # UBOUND: the bound the array has now
            return Code(s.bound.format(array=self.array(e.name), dim=e.dim - 1), s.atom_prec)
        raise TypeError(f"cannot print {type(e).__name__} in a host program")

    def _unary(self, e: ast.UnaryOp, pre: list[str]) -> Code:
        s = self.syntax
        if e.op == "+":
            return self._value(e.operand, pre)
        if e.op == "NOT":
            known = constant_truth(e)
            if known is not None:
                return self._truth_value(known)
            test = self._cond(e.operand, pre).wrap(s.choice_prec + 1)
            return Code(s.choice.format(test=test, yes="0.0", no="-1.0"), s.choice_prec)
        inner = e.operand
        if isinstance(inner, ast.UnaryOp) and inner.op == "-":
            return self._value(inner.operand, pre)  # -(-X) is X, exactly
        operand = self._value(inner, pre)
        if isinstance(inner, ast.Num) and operand.text.startswith("-"):
            return self._number(-inner.value)
        if operand.ctype == "int32":  # -(-2147483648) does not fit an int32
            return Code(self.negated_integer(operand), s.unary_prec)
        text = operand.wrap(s.unary_prec)
        return Code(
            "-" + (f"({text})" if text.startswith("-") else text), s.unary_prec, operand.ctype
        )

    def _binop(self, e: ast.BinOp, pre: list[str]) -> Code:
        s, op = self.syntax, e.op
        if op in COMPARISONS or op in ("AND", "OR"):
            known = constant_truth(e)
            if known is not None:
                return self._truth_value(known)
            test = self._cond(e, pre).wrap(s.choice_prec + 1)
            return Code(s.choice.format(test=test, yes="-1.0", no="0.0"), s.choice_prec)
        left, right = self._operands([e.left, e.right], pre)
        if op in ("+", "-"):
            string = left.ctype in STRINGS
            if string and not self.strict:  # Microsoft's 255 characters ("String too long")
                return self._runtime_call("concat", left, right, ctype="string")
            if e not in self.a.plain_sums:
                return self._runtime_call("add" if op == "+" else "sub", left, right)
            text = f"{self.left_operand(left, right, s.sum_prec)} {op} {right.wrap(s.sum_prec + 1)}"
            return Code(text, s.sum_prec, "string" if string else "double")
        if op in RUNTIME_OPERATORS:
            return self._runtime_call(RUNTIME_OPERATORS[op], left, right)
        raise BasicUnsupportedError(
            f"the operator {op} is not supported by {s.target} yet", e.coord
        )

    def _operands(self, exprs: list[ast.Expr], pre: list[str], truth: bool = False) -> list[Code]:
        """The values (`truth`: the conditions) of the operands of one operation, evaluated
        so that the order the target picks cannot be seen: the earlier effectful operands
        go to temporaries when they conflict."""
        evaluate = self._cond if truth else self._value
        if self.syntax.in_order:
            return [evaluate(x, pre) for x in exprs]
        effects = [self.effects(x) for x in exprs]
        ordered = any(
            conflict(effects[i], effects[j])
            for i in range(len(exprs))
            for j in range(i + 1, len(exprs))
        )
        last = max((i for i, fx in enumerate(effects) if fx.any), default=-1)
        codes = []
        for i, x in enumerate(exprs):
            code = evaluate(x, pre)
            if ordered and i < last and effects[i].any:
                temp = self.namer.fresh("tmp")
                ctype = "bool" if truth else "auto"
                pre.append(self.syntax.temporary.format(ctype=ctype, name=temp, text=code.text))
                code = Code(temp, self.syntax.atom_prec, code.ctype)
            codes.append(code)
        return codes

    # ----------------------------------------------------------------- conditions

    def _cond(self, e: ast.Expr, pre: list[str]) -> Code:
        """A condition true exactly when the BASIC value is nonzero."""
        s = self.syntax
        known = constant_truth(e)
        if known is not None:  # decided now, exactly as at run time
            return Code(s.true if known else s.false, s.atom_prec, "bool")
        if isinstance(e, ast.BinOp) and e.op in COMPARISONS:
            left, right = self._operands([e.left, e.right], pre)
            prec = s.equality_prec if e.op in ("=", "<>") else s.relational_prec
            left_text = self.left_operand(left, right, prec + 1)
            return Code(f"{left_text} {COMPARISONS[e.op]} {right.wrap(prec + 1)}", prec, "bool")
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            return self._logical(e, pre)
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            test = self._cond(e.operand, pre).wrap(s.not_prec)
            return Code(s.not_ + test, s.not_prec, "bool")
        value = self._value(e, pre).wrap(s.equality_prec + 1)
        return Code(f"{value} != 0.0", s.equality_prec, "bool")

    def _logical(self, e: ast.BinOp, pre: list[str]) -> Code:
        """AND, OR of truths: `&`, `|` where BASIC's evaluating both sides shows (the right
        one could warn, fail or draw RND), else the target's `and`, `or`."""
        s, conjunction = self.syntax, e.op == "AND"
        if self.effects(e.right).any:
            left, right = self._operands([e.left, e.right], pre, truth=True)
            symbol, prec = ("&", s.eager_and_prec) if conjunction else ("|", s.eager_or_prec)
            left_min = max(prec if left.prec == prec else prec + 1, s.eager_operand)
            right_min = max(prec + 1, s.eager_operand)
        else:
            left, right = self._cond(e.left, pre), self._cond(e.right, pre)
            symbol, prec = (
                (s.lazy_and, s.lazy_and_prec) if conjunction else (s.lazy_or, s.lazy_or_prec)
            )
            left_min = prec if left.prec == prec else max(prec + 1, s.lazy_operand)
            right_min = max(prec + 1, s.lazy_operand)
        return Code(f"{left.wrap(left_min)} {symbol} {right.wrap(right_min)}", prec, "bool")

    # ----------------------------------------------------------------- calls and elements

    def _call(self, e: ast.Call, pre: list[str]) -> Code:
        if is_user_function(e.name):
            self.functions_called.add(e.name)
            fn = self.a.functions[e.name]
            codes = self._operands(e.args, pre)
            args = ", ".join(self.store(c.text, t) for c, t in zip(codes, fn.param_types))
            name = self.namer.name(e.name, "function")
            return Code(f"{name}({args})", self.syntax.atom_prec, self.ctype_of(fn.result_type))
        builtin = BUILTINS.get(e.name)
        function = getattr(builtin, self.syntax.builtin_field) if builtin is not None else None
        if function is None:
            raise BasicUnsupportedError(
                f"the function {e.name} is not supported by {self.syntax.target} yet", e.coord
            )
        args = ", ".join(c.text for c in self._operands(e.args, pre))
        if function not in self.syntax.native:
            function = self.runtime(function)
        ctype = "string" if builtin.result == "str" else "double"
        return Code(f"{function}({args})", self.syntax.atom_prec, ctype)

    def _element(self, e: ast.Index, pre: list[str]) -> Code:
        subscripts = ", ".join(self._subscript(c) for c in self._operands(e.indices, pre))
        text = self.syntax.element.format(array=self.array(e.name), subscripts=subscripts)
        return Code(text, self.syntax.atom_prec, self.ctype_of(self.a.arrays[e.name].elem_type))

    @staticmethod
    def _subscript(code: Code) -> str:
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
            return inner | Effects(fails=e not in self.safe_elements)
        if isinstance(e, ast.Call):
            return inner | self._call_effects(e)
        if isinstance(e, ast.BinOp) and self.a.expr_types.get(e) == "str":
            return inner | Effects(fails=True)  # "String too long"
        if isinstance(e, ast.BinOp):
            return inner | self._operation_effects(e)
        return inner

    def _call_effects(self, e: ast.Call) -> Effects:
        if is_user_function(e.name):
            return self.function_effects(e.name)
        builtin = BUILTINS[e.name]
        if builtin.effect in ("random", "input"):  # draws a number, reads a key
            return Effects(rnd=True)
        if builtin.effect == "warns":  # its message names the argument: one per call
            return _warns(f"{e.name}@{id(e)}")
        if builtin.effect == "fails":
            return Effects(fails=not (builtin.numeric_domain and positive_constant(e.args[0])))
        if builtin.effect == "io":  # a file number that is not open
            return Effects(fails=True)
        return NONE

    def _operation_effects(self, e: ast.BinOp) -> Effects:
        if e.op in ("+", "-") and e not in self.a.plain_sums:
            return _warns(f"operation overflow ({e.op})")
        if e.op == "*":
            return _warns("operation overflow (*)")
        if e.op == "/":
            return _warns("division by zero", "operation overflow (/)")
        if e.op == "MOD":
            return _warns("division by zero")
        if e.op == "^":
            warnings = {"operation overflow"}
            if not positive_constant(e.right):
                warnings.add(f"zero raised to negative value@{id(e)}")
            return Effects(warnings=frozenset(warnings), fails=not integral_constant(e.right))
        return NONE

    def function_effects(self, name: str) -> Effects:
        """What a call of a DEF FN function can do (its body, and the conversions of its
        arguments and result)."""
        key = ("function", name)
        if key not in self._effects:
            fn = self.a.functions[name]
            converts = fn.result_type == "int" or "int" in fn.param_types
            checks = self.strict and "str" in (fn.result_type, *fn.param_types)
            self._effects[key] = self.effects(fn.body) | Effects(fails=converts or checks)
        return self._effects[key]

    # ----------------------------------------------------------------- block sums

    def running_total(self, name: str, op: str, part: str) -> str:
        """BASIC's `name op part` (op "+" or "-"): a kernel block's sum combined into
        the variable that accumulates, as the accumulating statement computes it (ECMA-55:
        an overflow to +-inf warns once; later additions to an infinity stay quiet)."""
        total = f"{self.runtime('add' if op == '+' else 'sub')}({self.var(name)}, {part})"
        return self.store(total, "num")

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        """A test that `name op part` meets no exception, where a block's sum could meet
        one that the block's own additions would meet more than once (None: none can)."""
        return None

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        """The same test for the sums `parts` combined one by one."""
        return None


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
