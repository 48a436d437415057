"""BASIC expressions as Python source text for generated host programs: the Python side
of hostcode/expressions.py (which decides everything, see its docstring).  Numbers are
Python floats (or ints, for the variable of a `for ... in range` loop); operands are
evaluated left to right, as Python does; the printer records the runtime names the code
uses.  A long run of checked sums is not a nest of calls (Python's parser allows 200
nested parentheses)."""

from __future__ import annotations

import math

from ...hostcode.expression_syntax import PYTHON
from ...hostcode.expressions import Code, HostExpressions
from ...ir import ast

# A run of this many checked sums `A + B + ...` is not printed as nested add calls (a
# nest of 1000 passes Python's limit of 200 nested parentheses).
_LONG_RUN = 8


def number_literal(value: float) -> str:
    if math.isinf(value):
        return "math.inf" if value > 0 else "-math.inf"
    return repr(float(value))


class ExprPrinter(HostExpressions):
    """Prints expressions of one program; records the runtime names it uses."""

    syntax = PYTHON
    int_store = "to_integer"

    def __init__(self, analysis, namer, array_names: dict[str, str]):
        super().__init__(analysis, namer, array_names)
        self.uses: set[str] = set()  # runtime names the printed code needs

    def need(self, name: str) -> str:
        self.uses.add(name)
        return name

    runtime = need

    def number_text(self, value: float) -> str:
        text = number_literal(value)
        if text.endswith("math.inf"):
            self.need("math")
        return text

    def string_code(self, value: str) -> Code:
        return Code(repr(value), PYTHON.atom_prec, "literal")

    def single(self, text: str) -> str:
        return f"{self.need('to_f32')}({text})"

    # ----------------------------------------------------------------- statement level

    def value(self, e: ast.Expr) -> str:
        return self._value(e, []).text

    double_value = value  # a number as it is (C++ converts an integer's)

    def cond(self, e: ast.Expr) -> str:
        """A Python expression true exactly when the BASIC value is nonzero."""
        return self._cond(e, []).text

    def all_of(self, conditions: list[ast.Expr], pre=None, line_of=None) -> str:
        """`a and b`: true when each condition holds, tested in turn (`and` skips the
        rest after a false one; no condition needs lines first, `pre` and `line_of`)."""
        if len(conditions) == 1:
            return self.cond(conditions[0])
        return " and ".join(self._cond(c, []).wrap(PYTHON.lazy_and_prec) for c in conditions)

    def element(self, e: ast.Index) -> str:
        return self._element(e, []).text

    def subscript(self, e: ast.Expr) -> str:
        """A subscript: integral constants print as ints (the array rounds anyway)."""
        return self._subscript(self._value(e, []))

    def print_item(self, e: ast.Expr) -> str:
        """An expression printed by PRINT."""
        return self.print_text(e, self.value(e))

    def can_fail(self, e: ast.Node) -> bool:
        """Can evaluating `e` end the program with a fatal error?  (Warnings do not
        count, outside Microsoft BASIC: there a warning (Division by zero, Overflow)
        shows on GW-BASIC's screen, the program's output, where the items before it end,
        and is an error in a trapping program.)"""
        effects = self.effects(e)
        return effects.fails or (self.a.options.microsoft and effects.any)

    # ----------------------------------------------------------------- long sums

    def _binop(self, e: ast.BinOp, pre: list[str]) -> Code:
        run = self._checked_run(e)
        if len(run) >= _LONG_RUN:  # A + B + C + ...: not a nest of calls
            return Code(self._long_sum(run), PYTHON.atom_prec)
        return super()._binop(e, pre)

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
        quiet = not any(self.effects(n.right).any for n in run)
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
