"""How Python and C++ write a host expression: the one table per language that
hostcode/expressions.py prints through.  A table says how a construct is written (its
precedence, its words), never whether to write it; the one fact about evaluation it
declares is `in_order`: Python evaluates operands left to right, C++ in an order of its
choosing (so the printer hoists conflicting operands into temporaries)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpressionSyntax:
    # Precedence, low to high.  `eager_operand`, `lazy_operand`: the least precedence of
    # an operand of `&`/`|` and of `&&`/`||` mixing other operators (C++: GCC's
    # -Wparentheses asks for parentheses; Python: none).
    choice_prec: int
    lazy_or_prec: int
    lazy_and_prec: int
    not_prec: int
    equality_prec: int
    relational_prec: int
    eager_or_prec: int
    eager_and_prec: int
    sum_prec: int
    product_prec: int
    unary_prec: int
    atom_prec: int
    eager_operand: int
    lazy_operand: int
    true: str
    false: str
    lazy_and: str
    lazy_or: str
    not_: str  # prefix
    choice: str  # `{test}` chooses `{yes}` or `{no}`
    element: str  # `{array}` subscripted by `{subscripts}`
    bound: str  # the upper bound `{dim}` of `{array}`, a number
    temporary: str  # a line holding `{text}` in `{name}` of `{ctype}` (ordered operands)
    runtime_prefix: str  # what names a runtime function
    builtin_field: str  # the field of builtins.Builtin naming the function
    native: frozenset  # built-ins that are the language's own (not the runtime's)
    in_order: bool  # operands are evaluated left to right
    target: str  # in messages


PYTHON = ExpressionSyntax(
    *(1, 2, 3, 4, 5, 5, 6, 8, 10, 11, 12, 20, 0, 0),
    true="True", false="False", lazy_and="and", lazy_or="or", not_="not ",
    choice="{yes} if {test} else {no}", element="{array}[{subscripts}]",
    bound="float({array}.upper[{dim}])", temporary="", runtime_prefix="",
    builtin_field="python", native=frozenset({"abs"}), in_order=True,
    target="Python host programs",
)  # fmt: skip

CPP = ExpressionSyntax(
    *(2, 4, 5, 15, 9, 10, 7, 7, 12, 13, 15, 17, 15, 6),
    true="true", false="false", lazy_and="&&", lazy_or="||", not_="!",
    choice="{test} ? {yes} : {no}", element="{array}({subscripts})",
    bound="double({array}.upper({dim}))", temporary="const {ctype} {name} = {text};",
    runtime_prefix="b2t::", builtin_field="cpp", native=frozenset(), in_order=False,
    target="the CUDA C++ backend",
)  # fmt: skip
