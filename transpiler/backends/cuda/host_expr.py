"""BASIC expressions as C++ source text for generated host programs: the C++ side of
hostcode/expressions.py (which decides everything, see its docstring), with what C++'s
types need on top:

- Numbers are `double` (`float` for variables and arrays with --precision f32), `%`
  variables and arrays are `std::int32_t`, strings `std::string`, string constants
  `const char*` (type "literal").  Arithmetic is done in double, as the interpreter
  does it: when neither operand of a binary operation is a double, the left one is
  converted (`double(a_int) + b_int`), so two floats or two int32s never meet in float
  or int arithmetic (which would round, or overflow).
- Lines a statement needs first (temporaries of operands hoisted for their order) go to
  `pre`, or where no statement can go first (an ELSE IF condition) into an immediately
  invoked lambda.
"""

from __future__ import annotations

from ...hostcode.expression_syntax import CPP
from ...hostcode.expressions import Code, HostExpressions
from ...hostcode.syntax import CPP as CPP_STATEMENTS
from ...ir import ast
from .host_text import cpp_number, cpp_std_string, cpp_string

# C++ types of values: "double", "float", "int32", "string", "literal" (a string literal,
# a `const char*`).
CTYPES = {"double": "double", "float": "float", "int32": "std::int32_t", "string": "std::string"}


class ExprPrinter(HostExpressions):
    """Prints expressions of one program; `pre` lists collect the lines a statement
    needs first."""

    syntax = CPP
    int_store = "to_int32"
    number_text = staticmethod(cpp_number)
    element = HostExpressions._element
    subscript = staticmethod(HostExpressions._subscript)

    def cpp_type(self, value_type: str) -> str:
        return CTYPES[self.ctype_of(value_type)]

    def string_code(self, value: str) -> Code:
        if "\0" in value:  # a `const char*` would end at the NUL
            return Code(cpp_std_string(value), CPP.atom_prec, "string")
        return Code(cpp_string(value), CPP.atom_prec, "literal")

    def single(self, text: str) -> str:
        return f"static_cast<float>({text})"

    def negated_integer(self, operand: Code) -> str:
        return f"-double({operand.text})"

    def left_operand(self, left: Code, right: Code, min_prec: int) -> str:
        """The left operand, converted to double when neither operand is one (or to a
        std::string when both are string constants)."""
        if left.ctype == right.ctype == "literal":
            return f"std::string({left.text})"
        numeric = ("double", "float", "int32")
        if (
            left.ctype in numeric
            and right.ctype in numeric
            and "double" not in (left.ctype, right.ctype)
        ):
            return f"double({left.text})"
        return left.wrap(min_prec)

    # ----------------------------------------------------------------- statement level

    def value(self, e: ast.Expr, pre: list[str] | None) -> str:
        """The text of `e`; lines it needs first go to `pre` (None: nowhere, then a
        lambda evaluates them in place)."""
        return self.value_code(e, pre).text

    def value_code(self, e: ast.Expr, pre: list[str] | None) -> Code:
        return self._in_place(self._value, e, pre)

    def double_value(self, e: ast.Expr, pre: list[str] | None) -> str:
        """The value of a numeric `e` as a double (for braced lists of doubles)."""
        code = self.value_code(e, pre)
        return code.text if code.ctype == "double" else f"double({code.text})"

    def print_item(self, e: ast.Expr, pre: list[str] | None) -> str:
        """An expression printed by PRINT."""
        return self.print_text(e, self.value(e, pre))

    def cond(self, e: ast.Expr, pre: list[str] | None) -> str:
        """A C++ condition true exactly when the BASIC value is nonzero."""
        return self._in_place(self._cond, e, pre).text

    @staticmethod
    def _in_place(evaluate, e: ast.Expr, pre: list[str] | None) -> Code:
        if pre is not None:
            return evaluate(e, pre)
        lines: list[str] = []
        code = evaluate(e, lines)
        if not lines:
            return code
        return Code(CPP_STATEMENTS.in_place(lines, code.text), CPP.atom_prec, code.ctype)

    def all_of(self, conditions: list[ast.Expr], pre: list[str], line_of) -> str:
        """`a && b`: true when each condition holds, tested in turn.  `pre` gets the lines
        the first needs; a later one's lines (with `line_of(e)`, the line it names if it
        can fail) go in a lambda, which runs only when the conditions before it hold."""
        first = self._cond(conditions[0], pre)
        if len(conditions) == 1:
            return first.text
        parts = [first.wrap(CPP.lazy_and_prec)]
        for e in conditions[1:]:
            local: list[str] = []
            code = self._cond(e, local)
            lines = line_of(e) + local
            if lines:
                parts.append(CPP_STATEMENTS.in_place(lines, code.text))
            else:
                parts.append(code.wrap(CPP.lazy_and_prec + 1))
        return " && ".join(parts)
