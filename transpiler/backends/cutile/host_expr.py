"""BASIC expressions as Python source text for generated host programs.

The semantics are the reference interpreter's (`transpiler/interpreter/expressions.py`),
written for a human reader:

- numbers are Python floats (or ints, for the variable of a `for ... in range` loop);
  `*`, `/` and `^` are the runtime's `mul`, `div` and `power`, which report ECMA-55's
  overflow and division-by-zero exceptions, and so are `+` and `-` (`add`, `sub`) unless
  they cannot overflow (`I + 1`: the analysis' `plain_sums`); MOD, MAX, MIN and the
  built-in functions are the runtime's (ABS is Python's `abs`);
- a comparison is a Python bool where only its truth matters (IF, WHILE, AND, OR,
  NOT) and -1 / 0 as a value; AND and OR are `&` and `|` on bools, which evaluate both
  operands as BASIC does;
- operands are evaluated left to right, as Python does;
- storing converts: `to_integer` for `%` variables, `to_f32` with --precision f32,
  `check_string` for strings in strict ECMA-55 mode.

Parentheses appear only where Python's precedence needs them.
"""

from __future__ import annotations

import math

from ... import ast
from ...ast import is_user_function
from ...builtins import BUILTINS
from ...expr_facts import constant_truth, has_effects, integral_constant, positive_constant
from ...hostcode.operators import COMPARISONS as _COMPARISONS
from ...hostcode.operators import RUNTIME_OPERATORS
from ...model import Analysis
from ...naming import Namer
from ..host_expressions import HostExpressions

# A run of this many checked sums `A + B + ...` is not printed as nested add calls (a
# nest of 1000 passes Python's limit of 200 nested parentheses).
_LONG_RUN = 8

# Python precedence, low to high
_COND_EXPR = 1
_BOOL_OR = 2
_BOOL_AND = 3
_NOT = 4
_COMPARE = 5
_OR = 6
_AND = 8
_SUM = 10
_UNARY = 12
_ATOM = 20


def number_literal(value: float) -> str:
    if math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    return repr(float(value))


class ExprPrinter(HostExpressions):
    """Prints expressions of one program; records the runtime names it uses."""

    def __init__(self, analysis: Analysis, namer: Namer, array_names: dict[str, str]):
        self.a = analysis
        self.namer = namer
        self.array_names = array_names
        self.uses: set[str] = set()  # runtime names the printed code needs
        self.functions_called: set[str] = set()
        self.f32 = analysis.number_type == "f32"
        self.strict = analysis.options.strict
        self.safe_elements: frozenset = frozenset()  # set by the module printer

    def need(self, name: str) -> str:
        self.uses.add(name)
        return name

    runtime = need

    # ----------------------------------------------------------------- values

    def value(self, e: ast.Expr) -> str:
        return self._value(e)[0]

    def _wrap(self, e: ast.Expr, min_prec: int) -> str:
        text, prec = self._value(e)
        return f"({text})" if prec < min_prec else text

    def _value(self, e: ast.Expr) -> tuple[str, int]:
        if isinstance(e, ast.Num):
            text = number_literal(e.value)
            if text.endswith("math.inf"):
                self.need("math")
            return text, (_UNARY if text.startswith("-") else _ATOM)
        if isinstance(e, ast.Str):
            return repr(e.value), _ATOM
        if isinstance(e, ast.Var):
            return self.var(e.name), _ATOM
        if isinstance(e, ast.Index):
            return self.element(e), _ATOM
        if isinstance(e, ast.Call):
            return self.call(e), _ATOM
        if isinstance(e, ast.UnaryOp):
            if e.op == "-":
                inner = e.operand
                if isinstance(inner, ast.UnaryOp) and inner.op == "-":
                    return self._value(inner.operand)  # -(-X) is X, exactly
                if isinstance(inner, ast.Num):
                    return number_literal(-inner.value), _UNARY
                return "-" + self._wrap(inner, _UNARY), _UNARY
            if e.op == "+":
                return self._value(e.operand)
            known = constant_truth(e)  # NOT
            if known is not None:
                return ("-1.0" if known else "0.0"), (_UNARY if known else _ATOM)
            return f"0.0 if {self.cond(e.operand)} else -1.0", _COND_EXPR
        if isinstance(e, ast.BinOp):
            return self._binop(e)
        if isinstance(e, ast.Bound):  # UBOUND: the bound the array has now
            return f"float({self.array(e.name)}.upper[{e.dim - 1}])", _ATOM
        raise TypeError(f"cannot print {type(e).__name__} in a host program")

    def _binop(self, e: ast.BinOp) -> tuple[str, int]:
        op = e.op
        if op == "+" and self.a.expr_types.get(e) == "str" and not self.strict:
            # Microsoft's 255-character limit ("String too long"), as the interpreter.
            return f"{self.need('concat')}({self.value(e.left)}, {self.value(e.right)})", _ATOM
        if op in ("+", "-"):
            run = self._checked_run(e)
            if len(run) >= _LONG_RUN:  # A + B + C + ...: not a nest of calls
                return self._long_sum(run), _ATOM
            if e not in self.a.plain_sums:
                fn = self.need("add" if op == "+" else "sub")
                return f"{fn}({self.value(e.left)}, {self.value(e.right)})", _ATOM
            left = self._wrap(e.left, _SUM)
            right = self._wrap(e.right, _SUM + 1)
            return f"{left} {op} {right}", _SUM
        if op in RUNTIME_OPERATORS:
            fn = self.need(RUNTIME_OPERATORS[op])
            return f"{fn}({self.value(e.left)}, {self.value(e.right)})", _ATOM
        if op in _COMPARISONS or op in ("AND", "OR"):
            known = constant_truth(e)
            if known is not None:
                return ("-1.0" if known else "0.0"), (_UNARY if known else _ATOM)
            return f"-1.0 if {self.cond(e)} else 0.0", _COND_EXPR
        raise TypeError(f"operator {op} is not supported in host programs")

    def _checked_run(self, e: ast.BinOp) -> list[ast.BinOp]:
        """The checked sums and differences nested to the left from `e` (outermost first)."""
        run, node = [], e
        while (
            isinstance(node, ast.BinOp) and node.op in ("+", "-") and node not in self.a.plain_sums
        ):
            run.append(node)
            node = node.left
        return run

    def _long_sum(self, run: list[ast.BinOp]) -> str:
        """`A + B + C + ...` as one add_all (sub_all) call when the terms are quiet and
        the operators the same (evaluating the terms first is unobservable), else as a
        running total updated term by term."""
        first = self.value(run[-1].left)
        quiet = not any(has_effects(n.right, analysis=self.a) for n in run)
        if quiet and all(n.op == run[0].op for n in run):
            fn = "add_all" if run[0].op == "+" else "sub_all"
            terms = ", ".join(self.value(n.right) for n in reversed(run))
            return f"{self.need(fn)}({first}, ({terms}))"
        total = self.namer.fresh("total")
        steps = [f"{total} := {first}"]
        for n in reversed(run):
            fn = self.need("add" if n.op == "+" else "sub")
            steps.append(f"{total} := {fn}({total}, {self.value(n.right)})")
        return f"({', '.join(steps)})[-1]"

    # ----------------------------------------------------------------- truth

    def cond(self, e: ast.Expr) -> str:
        """A Python expression true exactly when the BASIC value is nonzero."""
        return self._cond(e)[0]

    def all_of(self, conditions: list[ast.Expr]) -> str:
        """`a and b`: true when each condition holds, tested in turn (`and` skips the
        rest after a false one)."""
        if len(conditions) == 1:
            return self.cond(conditions[0])
        return " and ".join(self._cond_wrap(c, _BOOL_AND) for c in conditions)

    def _cond_wrap(self, e: ast.Expr, min_prec: int) -> str:
        text, prec = self._cond(e)
        return f"({text})" if prec < min_prec else text

    def _cond(self, e: ast.Expr) -> tuple[str, int]:
        known = constant_truth(e)
        if known is not None:
            return str(known), _ATOM  # decided now, exactly as at run time
        if isinstance(e, ast.BinOp) and e.op in _COMPARISONS:
            left = self._wrap(e.left, _COMPARE + 1)
            right = self._wrap(e.right, _COMPARE + 1)
            return f"{left} {_COMPARISONS[e.op]} {right}", _COMPARE
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            if not has_effects(e.right, analysis=self.a):
                # Python's `and` / `or` may skip the right operand; BASIC evaluates it,
                # which nobody can notice when it cannot warn, fail or draw RND.
                symbol, prec = ("and", _BOOL_AND) if e.op == "AND" else ("or", _BOOL_OR)
            else:
                symbol, prec = ("&", _AND) if e.op == "AND" else ("|", _OR)
            left = self._cond_wrap(
                e.left,
                (
                    prec
                    if e.left.__class__ is e.__class__ and getattr(e.left, "op", None) == e.op
                    else prec + 1
                ),
            )
            right = self._cond_wrap(e.right, prec + 1)
            return f"{left} {symbol} {right}", prec
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return "not " + self._cond_wrap(e.operand, _NOT), _NOT
        return f"{self._wrap(e, _COMPARE + 1)} != 0.0", _COMPARE

    # ----------------------------------------------------------------- calls and elements

    def call(self, e: ast.Call) -> str:
        if is_user_function(e.name):
            self.functions_called.add(e.name)
            fn = self.a.functions[e.name]
            args = [self.store(self.value(a), t) for a, t in zip(e.args, fn.param_types)]
            return f"{self.namer.name(e.name, 'function')}({', '.join(args)})"
        callee = BUILTINS[e.name].python
        if callee != "abs":
            self.need(callee)
        return f"{callee}({', '.join(self.value(a) for a in e.args)})"

    def element(self, e: ast.Index) -> str:
        return f"{self.array(e.name)}[{', '.join(self.subscript(i) for i in e.indices)}]"

    def subscript(self, e: ast.Expr) -> str:
        """A subscript: integral constants print as ints (the array rounds anyway)."""
        if isinstance(e, ast.Num) and math.isfinite(e.value) and e.value == int(e.value):
            return str(int(e.value))
        return self.value(e)

    def print_item(self, e: ast.Expr) -> str:
        """An expression printed by PRINT."""
        return self.value(e)

    # ----------------------------------------------------------------- stores

    int_store = "to_integer"

    def single(self, text: str) -> str:
        return f"{self.need('to_f32')}({text})"

    # ----------------------------------------------------------------- failures

    def can_fail(self, e: ast.Node) -> bool:
        """Can evaluating `e` end the program with a fatal error?  (Warnings do not
        count.)  An element in `safe_elements` (hostcode/simplify.py) is in range."""
        for node in e.walk():
            if isinstance(node, ast.Index) and node not in self.safe_elements:
                return True
            if isinstance(node, ast.Call):
                builtin = BUILTINS.get(node.name)
                effect = builtin.effect if builtin is not None else None
                if effect == "fails" and not (
                    builtin.numeric_domain and positive_constant(node.args[0])
                ):
                    return True
                if effect == "io":  # a file number that is not open
                    return True
                if is_user_function(node.name):
                    fn = self.a.functions[node.name]
                    if fn.result_type == "int" or self.can_fail(fn.body):
                        return True
            if isinstance(node, ast.BinOp) and node.op == "^" and not integral_constant(node.right):
                return True
            if isinstance(node, ast.BinOp) and self.a.expr_types.get(node) == "str":
                return True  # "String too long"
        return False
