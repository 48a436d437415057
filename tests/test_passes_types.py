"""Passes 9 and 10: expression types and their checks; DATA and RESTORE."""

from __future__ import annotations

import pytest

from transpiler.errors import CompileErrors, Coord, SourceFile
from transpiler.ir import ast
from transpiler.options import Options
from transpiler.passes import analyze

from .passes_helpers import analysis_of, errors_of

# --------------------------------------------------------------------------- types


def _types_of(a, stmt_index: int) -> dict[str, str]:
    """The type of every expression node of a statement, by its class and name."""
    found = {}
    for node in a.stmts[stmt_index].walk():
        if isinstance(node, ast.Expr):
            key = type(node).__name__ + ":" + getattr(node, "name", getattr(node, "op", ""))
            found[key] = a.expr_types[node]
    return found


def test_expression_types():
    a = analysis_of('10 LET X = I% + J% * 2 < 3 AND A$ = "Q"\n20 LET Y = I% + J%\n30 END\n')
    types = _types_of(a, 0)
    assert types["BinOp:AND"] == "int"
    assert types["BinOp:<"] == "int"
    assert types["BinOp:*"] == "num"  # J% * 2.0: a number constant is "num"
    assert types["Var:A$"] == "str"
    assert _types_of(a, 1)["BinOp:+"] == "int"


def test_def_fn_bodies_are_typed_with_parameter_types():
    a = analysis_of('10 DEF FNA$(S$) = S$ + "!"\n20 PRINT FNA$("HI")\n30 END\n')
    assert a.expr_types[a.stmts[0].body] == "str"
    assert a.functions["FNA$"].result_type == "str"


def test_assignment_type_errors():
    errs = errors_of('10 LET X = A$\n20 LET A$ = X\n30 LET A$ = "OK"\n40 END\n', std="ecma55")
    assert errs == [
        (1, 12, "numeric expression expected, not a string"),
        (2, 13, "string expression expected, not a number"),
    ]


def test_comparison_type_errors():
    errs = errors_of("10 IF A$ = X THEN 20\n20 IF X = A$ THEN 30\n30 END\n", std="ecma55")
    assert errs == [
        (1, 12, "string expression expected, not a number"),
        (2, 11, "numeric expression expected, not a string"),
    ]


def test_string_ordering_is_an_extension():
    text = '10 IF A$ < "B" THEN 20\n20 END\n'
    errs = errors_of(text, std="ecma55")
    assert len(errs) == 1 and errs[0][2] == "strings can only be compared with = and <>"
    assert errs[0][0] == 1
    analysis_of(text)


def test_string_concatenation_is_an_extension():
    a = analysis_of('10 A$ = "X" + "Y"\n')
    assert a.expr_types[a.stmts[0].value] == "str"
    assert errors_of('10 A$ = "X" + 1\n') == [(1, 15, "string expression expected, not a number")]
    assert errors_of('10 A = 1 + "X"\n') == [(1, 12, "numeric expression expected, not a string")]


def test_builtin_arity_and_argument_types():
    errs = errors_of("10 LET A = RND(0)\n20 LET B = TAN\n30 LET C = ATN(X$)\n40 END\n", "ecma55")
    assert errs == [
        (1, 12, "function RND takes 0 arguments, 1 given"),
        (2, 12, "function TAN takes 1 argument, 0 given"),
        (3, 16, "numeric expression expected, not a string"),
    ]
    assert errors_of("10 A = MAX(1)\n") == [(1, 8, "function MAX takes 2 arguments, 1 given")]


def test_extended_builtins_are_not_ecma55():
    # The parser already rejects MAX in strict mode; an AST built by hand reaches the pass.
    at = Coord("prog.bas", 1, 12)
    call = ast.Call("MAX", [ast.Num(1.0), ast.Num(2.0)], coord=at)
    program = ast.Program(
        [
            ast.Line(10, [ast.Let(ast.Var("A"), call, label=10)]),
            ast.Line(20, [ast.End(label=20)]),
        ]
    )
    source = SourceFile("prog.bas", "10 LET A = MAX(1, 2)\n20 END\n")
    with pytest.raises(CompileErrors) as caught:
        analyze(program, source, Options(std="ecma55"))
    assert [(e.coord, e.message) for e in caught.value.errors] == [(at, "unknown function MAX")]


def test_user_function_argument_types():
    errs = errors_of("10 DEF FND(X) = X\n20 LET A = FND(X$)\n30 END\n", std="ecma55")
    assert errs == [(2, 16, "numeric expression expected, not a string")]


def test_conditions_subscripts_and_for_need_numbers():
    errs = errors_of('10 WHILE A$\n20 WEND\n30 X = B(A$)\n40 FOR I = 1 TO "Z"\n50 NEXT I\n')
    assert [e[:2] for e in errs] == [(1, 10), (3, 10), (4, 17)]
    assert all(e[2] == "numeric expression expected, not a string" for e in errs)


def test_numeric_constant_overflow_is_a_warning():
    a = analysis_of("10 LET A = 3E99999\n20 END\n")
    assert [(w.coord.line, w.coord.column, w.message) for w in a.warnings] == [
        (1, 12, "numeric constant overflow")
    ]


# --------------------------------------------------------------------------- DATA


def test_data_items_and_restore_positions():
    a = analysis_of(
        '10 DATA 1, "A B"\n20 READ X\n30 RESTORE 45\n40 DATA 2\n45 REM\n50 DATA 3, 4\n'
        "60 RESTORE 10\n70 RESTORE 99\n80 RESTORE\n99 END\n"
    )
    assert [(d.text, d.quoted) for d in a.data] == [
        ("1", False), ("A B", True), ("2", False), ("3", False), ("4", False)
    ]  # fmt: skip
    assert a.data_line_start == {10: 0, 40: 2, 50: 3}
    restores = {a.stmts[i].target: pos for i, pos in a.restore_position.items()}
    assert restores == {45: 3, 10: 0, 99: 5}
