"""The parser on valid programs: node types, fields, coordinates, both language levels."""

from __future__ import annotations

import csv
import dataclasses
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transpiler.errors import CompileErrors, SourceFile
from transpiler.frontend.parser import parse
from transpiler.ir import ast
from transpiler.options import Options

from .conftest import NBS_DIR, ROOT


def parse_text(text: str, std: str = "extended", name: str = "t.bas") -> ast.Program:
    return parse(SourceFile(name, text), Options(std=std))


def statements(text: str, std: str = "extended") -> list[ast.Stmt]:
    [line] = parse_text(text, std).lines
    return line.statements


def one(text: str, std: str = "extended") -> ast.Stmt:
    [stmt] = statements(text, std)
    return stmt


def where(node: ast.Node) -> tuple[int, int, int]:
    return (node.coord.line, node.coord.column, node.coord.length)


def sx(node):
    """An expression as nested tuples, without locations, for compact comparisons."""
    if isinstance(node, ast.Num):
        return node.text
    if isinstance(node, ast.Str):
        return repr(node.value)
    if isinstance(node, ast.Var):
        return node.name
    if isinstance(node, ast.BinOp):
        return (node.op, sx(node.left), sx(node.right))
    if isinstance(node, ast.UnaryOp):
        return (node.op, sx(node.operand))
    if isinstance(node, ast.Call):
        return (node.name, *map(sx, node.args))
    if isinstance(node, ast.Index):
        return (node.name + "()", *map(sx, node.indices))
    if isinstance(node, ast.Bid):
        return ("BID", node.axis)
    raise TypeError(node)


def expr(text: str, std: str = "extended"):
    stmt = one(f"10 LET Z = {text}", std)
    return sx(stmt.value)


def dump(node):
    """Every field of a tree except locations, for whole-tree comparisons."""
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(
            (f.name, dump(getattr(node, f.name)))
            for f in dataclasses.fields(node)
            if f.name != "coord"
        )
    if isinstance(node, list):
        return [dump(x) for x in node]
    return node


# --------------------------------------------------------------------------- program structure


def test_program_lines_labels_and_locations():
    program = parse_text("10 PRINT\n\n   \n20 LET A = 1 : PRINT A\n", name="p.bas")
    assert program.source_name == "p.bas"
    assert [line.number for line in program.lines] == [10, 20]
    first, second = program.lines
    assert where(first) == (1, 1, 2)
    assert first.coord.file == "p.bas"
    assert where(second) == (4, 1, 2)
    assert [type(s) for s in second.statements] == [ast.Let, ast.Print]
    assert [s.label for s in second.statements] == [20, 20]
    assert where(second.statements[1]) == (4, 16, 5)


def test_unnumbered_and_mixed_lines_in_extended_mode():
    program = parse_text("PRINT 1\n100 PRINT 2\nPRINT 3\n")
    assert [line.number for line in program.lines] == [None, 100, None]
    assert [line.statements[0].label for line in program.lines] == [None, 100, None]
    assert where(program.lines[0]) == (1, 1, 5)


def test_leading_zeros_and_spaced_line_numbers():
    assert [line.number for line in parse_text("0057 END").lines] == [57]
    # Extended mode reads `2 40` as 240, like the BASICs that ignore spaces.
    [line] = parse_text("2 40 PRINT").lines
    assert line.number == 240
    assert where(line) == (1, 1, 4)
    assert where(line.statements[0]) == (1, 6, 5)


def test_lower_case_source_and_tabs():
    [stmt] = statements("10\tlet total = total + 1")
    assert sx(stmt.value) == ("+", "TOTAL", "1")
    assert stmt.target.name == "TOTAL"


def test_one_line_if_bodies_carry_the_label():
    stmt = one("30 IF X THEN PRINT 1 : GOTO 10 ELSE PRINT 2")
    assert [s.label for s in stmt.then_body + stmt.else_body] == [30, 30, 30]


# --------------------------------------------------------------------------- statements


def test_let_with_and_without_keyword():
    let = one("10 LET A(I, J+1) = 2")
    assert isinstance(let, ast.Let)
    assert isinstance(let.target, ast.Index)
    assert (let.target.name, [sx(e) for e in let.target.indices]) == ("A", ["I", ("+", "J", "1")])
    assert where(let) == (1, 4, 3)
    assert where(let.target) == (1, 8, 9)
    bare = one("10 X1 = 5")
    assert isinstance(bare, ast.Let) and bare.target.name == "X1"
    assert where(bare) == where(bare.target) == (1, 4, 2)


def test_print_items_separators_and_tab():
    stmt = one('10 PRINT "X="; X, TAB(10); Y;')
    kinds = [type(i).__name__ for i in stmt.items]
    assert kinds == ["Str", "PrintSep", "Var", "PrintSep", "Tab", "PrintSep", "Var", "PrintSep"]
    assert [i.sep for i in stmt.items if isinstance(i, ast.PrintSep)] == [";", ",", ";", ";"]
    tab = stmt.items[4]
    assert sx(tab.column) == "10"
    assert where(tab) == (1, 19, 7)
    assert where(stmt.items[0]) == (1, 10, 4)


def test_bare_print_and_leading_separators():
    assert one("10 PRINT").items == []
    stmt = one("10 PRINT ,,A")
    assert [type(i).__name__ for i in stmt.items] == ["PrintSep", "PrintSep", "Var"]


def test_input_with_prompt_and_array_parameters():
    stmt = one('10 INPUT "SIZE"; N')
    assert (stmt.prompt, [t.name for t in stmt.targets]) == ("SIZE", ["N"])
    stmt = one('10 INPUT "SIZE", N')
    assert stmt.prompt == "SIZE"
    stmt = one("20 INPUT M, N, A(), B(I)")
    assert [type(t).__name__ for t in stmt.targets] == ["Var", "Var", "Var", "Index"]
    assert stmt.array_params == ["A"]
    assert where(stmt.targets[2]) == (1, 16, 3)
    assert stmt.prompt is None


def test_read_and_restore():
    stmt = one("10 READ A, B$(2)")
    assert [type(t).__name__ for t in stmt.targets] == ["Var", "Index"]
    assert one("10 RESTORE").target is None
    assert one("10 RESTORE 200").target == 200


def test_data_items():
    stmt = one('10 DATA 1, -2.5E3, +.5, "A, B", ABC DEF, 1E, 3 4')
    got = [(d.text, d.quoted, d.number) for d in stmt.items]
    assert got == [
        ("1", False, 1.0),
        ("-2.5E3", False, -2500.0),
        ("+.5", False, 0.5),
        ("A, B", True, None),
        ("ABC DEF", False, None),
        ("1E", False, None),
        ("3 4", False, None),
    ]
    assert where(stmt) == (1, 4, 4)
    assert [d.coord.column for d in stmt.items] == [9, 12, 20, 25, 33, 42, 46]
    assert where(stmt.items[3]) == (1, 25, 6)


def test_data_then_more_statements_in_extended_mode():
    data, prnt = statements('10 DATA "A:B", 2 : PRINT')
    assert [d.text for d in data.items] == ["A:B", "2"]
    assert isinstance(prnt, ast.Print)


def test_data_keeps_the_case_of_unquoted_items():
    assert [d.text for d in one("10 data abc, Def").items] == ["abc", "Def"]


def test_jumps():
    goto = one("10 GO TO 200")
    assert isinstance(goto, ast.Goto) and goto.target.number == 200
    assert where(goto.target) == (1, 10, 3)
    assert one("10 GOSUB 300").target.number == 300
    assert isinstance(one("10 GO SUB 300"), ast.Gosub)
    assert isinstance(one("10 RETURN"), ast.Return)
    on = one("10 ON X - 1 GOTO 100, 200,300")
    assert (sx(on.selector), [t.number for t in on.targets], on.gosub) == (
        ("-", "X", "1"),
        [100, 200, 300],
        False,
    )
    assert one("10 ON I GOSUB 5").gosub is True


def test_if_then_line_number():
    stmt = one("10 IF X > 10 THEN 100")
    assert isinstance(stmt, ast.If)
    assert sx(stmt.condition) == (">", "X", "10")
    assert stmt.then_line.number == 100 and stmt.then_body == []
    assert stmt.else_line is None and stmt.else_body == []
    assert where(stmt) == (1, 4, 2)
    assert where(stmt.then_line) == (1, 19, 3)


def test_if_then_statements_else():
    stmt = one('10 IF X > 10 THEN PRINT "LARGE" : Y = 1 ELSE 300')
    assert [type(s) for s in stmt.then_body] == [ast.Print, ast.Let]
    assert stmt.then_line is None
    assert stmt.else_line.number == 300
    stmt = one("10 IF A THEN 20 ELSE PRINT 1 : PRINT 2")
    assert stmt.then_line.number == 20
    assert [type(s) for s in stmt.else_body] == [ast.Print, ast.Print]
    stmt = one("10 IF A GOTO 20")
    assert stmt.then_line.number == 20


def test_microsoft_if_forms():
    """As GW-BASIC reads them (checked with PC-BASIC): statements after `THEN 100 :`
    belong to the branch (and never run: the jump comes first), THEN may be empty, and
    a ':' before ELSE is no statement separator."""
    stmt = one('10 IF A THEN 100 : PRINT "NEVER" ELSE 200 : PRINT "NEVER"')
    assert stmt.then_line.number == 100 and [type(s) for s in stmt.then_body] == [ast.Print]
    assert stmt.else_line.number == 200 and [type(s) for s in stmt.else_body] == [ast.Print]
    stmt = one('10 IF A GOTO 100 : PRINT "NEVER"')
    assert stmt.then_line.number == 100 and len(stmt.then_body) == 1
    stmt = one('10 IF A THEN ELSE PRINT "B"')
    assert stmt.then_line is None and stmt.then_body == [] and len(stmt.else_body) == 1
    stmt = one('10 IF A THEN PRINT "A" : ELSE PRINT "B"')
    assert len(stmt.then_body) == 1 and len(stmt.else_body) == 1
    outer = one("10 IF A THEN IF B THEN PRINT 1 : ELSE PRINT 2 : ELSE PRINT 3")
    [inner] = outer.then_body
    assert len(inner.else_body) == 1 and len(outer.else_body) == 1
    assert [type(s) for s in statements('10 PRINT "A:"; : PRINT ":ELSE"')] == [ast.Print] * 2
    for text in ("10 IF A THEN 100 : PRINT", "10 IF A THEN ELSE 20", "10 IF A THEN 1 : ELSE 2"):
        with pytest.raises(CompileErrors):
            parse_text(text, std="ecma55")


def test_dangling_else_belongs_to_the_nearest_if():
    outer = one("10 IF A THEN IF B THEN 20 ELSE 30")
    assert outer.else_line is None and outer.else_body == []
    [inner] = outer.then_body
    assert (inner.then_line.number, inner.else_line.number) == (20, 30)
    outer = one("10 IF A THEN IF B THEN 20 ELSE 30 ELSE 40")
    assert outer.else_line.number == 40


def test_block_if_statements():
    program = parse_text(
        "10 IF Y > 80 THEN\n20 PRINT 1\n30 ELSEIF Y > 40 THEN\n40 ELSE\n50 ENDIF\n60 END IF\n"
    )
    kinds = [type(line.statements[0]) for line in program.lines]
    assert kinds == [ast.IfBlock, ast.Print, ast.ElseIf, ast.Else, ast.EndIf, ast.EndIf]
    assert sx(program.lines[0].statements[0].condition) == (">", "Y", "80")
    assert sx(program.lines[2].statements[0].condition) == (">", "Y", "40")
    assert where(program.lines[5].statements[0]) == (6, 4, 6)
    assert isinstance(one("10 END"), ast.End)
    # A comment after THEN does not make it a one-line IF.
    assert isinstance(statements("10 IF X THEN ' start")[0], ast.IfBlock)


def test_for_next_while_wend():
    loop = one("10 FOR I = 1 TO N STEP -2")
    assert (loop.var.name, sx(loop.start), sx(loop.limit), sx(loop.step)) == (
        "I",
        "1",
        "N",
        ("-", "2"),
    )
    assert where(loop.var) == (1, 8, 1)
    assert one("10 FOR K = A TO B").step is None
    assert [v.name for v in one("10 NEXT I, J").vars] == ["I", "J"]
    assert one("10 NEXT").vars == []
    assert sx(one("10 WHILE X < 100").condition) == ("<", "X", "100")
    assert isinstance(one("10 WEND"), ast.Wend)


def test_dim_option_def():
    dim = one("10 DIM A(10), B(3, N + 1)")
    assert [(a.name, [sx(b) for b in a.bounds], a.dtype) for a in dim.arrays] == [
        ("A", ["10"], None),
        ("B", ["3", ("+", "N", "1")], None),
    ]
    assert where(dim.arrays[1]) == (1, 15, 11)
    typed = one("10 DIM A(N) AS f16, B(4)")
    assert [a.dtype for a in typed.arrays] == ["F16", None]
    assert where(typed.arrays[0]) == (1, 8, 11)
    assert one("10 OPTION BASE 1").base == 1
    fn = one("10 DEF FNA(X) = X * X")
    assert (fn.name, fn.params, sx(fn.body)) == ("FNA", ["X"], ("*", "X", "X"))
    assert one("10 DEF FNP = 3.14").params == []
    assert one("10 DEF FNSUM(X, Y, Z) = X + Y + Z").params == ["X", "Y", "Z"]


def test_simple_keyword_statements_and_comments():
    assert [type(s) for s in statements("10 RANDOMIZE : STOP : END")] == [
        ast.Randomize,
        ast.Stop,
        ast.End,
    ]
    rem = one("10 REM   Hello: World ")
    assert rem.text == "Hello: World"
    assert where(rem) == (1, 4, 19)
    stmt, comment = statements("10 X = 1 ' set X")
    assert isinstance(stmt, ast.Let)
    assert (type(comment), comment.text, comment.label) == (ast.Rem, "set X", 10)
    assert where(comment) == (1, 10, 7)
    [line] = parse_text("' a whole-line comment").lines
    assert line.number is None and line.statements[0].text == "a whole-line comment"


def test_mat_statements():
    read, inp, prnt = statements("10 MAT READ A, B(2, 3) : MAT INPUT C : MAT PRINT A; B, C")
    assert [(a.name, [sx(b) for b in a.bounds]) for a in read.arrays] == [
        ("A", []),
        ("B", ["2", "3"]),
    ]
    assert [a.name for a in inp.arrays] == ["C"]
    assert (prnt.names, prnt.seps) == (["A", "B", "C"], [";", ",", None])
    assert one("10 MAT PRINT A,").seps == [","]

    def value(text):
        stmt = one(f"10 MAT C = {text}")
        assert isinstance(stmt, ast.MatAssign) and stmt.target == "C"
        return stmt.value

    add = value("A + B")
    assert (type(add), add.op, add.left.name, add.right.name) == (ast.MatBin, "+", "A", "B")
    assert where(add) == (1, 12, 5)
    assert value("A * B").op == "*"
    assert value("A - B").op == "-"
    scale = value("(K + 1) * A")
    assert (type(scale), sx(scale.factor), scale.matrix.name) == (
        ast.MatScale,
        ("+", "K", "1"),
        "A",
    )
    trn = value("TRN(A)")
    assert (type(trn), trn.name, trn.arg.name) == (ast.MatFunc, "TRN", "A")
    assert value("INV(B)").name == "INV"
    zer = value("ZER")
    assert (type(zer), zer.name, zer.dims) == (ast.MatFill, "ZER", [])
    assert [sx(d) for d in value("CON(3, N)").dims] == ["3", "N"]
    assert value("IDN").name == "IDN"
    copy = value("A")
    assert (type(copy), copy.name) == (ast.MatRef, "A")


def test_cutile_statements_and_bid():
    tile = one("40 TILE A(128, 32), ACC(128, 128)")
    assert [(t.name, [sx(s) for s in t.shape]) for t in tile.tiles] == [
        ("A", ["128", "32"]),
        ("ACC", ["128", "128"]),
    ]
    assert where(tile.tiles[1]) == (1, 21, 13)
    assert one("120 OUTPUT C, D").names == ["C", "D"]
    let = one("50 LET C(BID) = A(BID(1)) + BID(0)")
    assert sx(let.target) == ("C()", ("BID", 0))
    assert sx(let.value) == ("+", ("A()", ("BID", 1)), ("BID", 0))


# --------------------------------------------------------------------------- expressions


@pytest.mark.parametrize(
    "text, tree",
    [
        ("2^3^2", ("^", ("^", "2", "3"), "2")),
        ("-A^B", ("-", ("^", "A", "B"))),
        ("-2*3", ("*", ("-", "2"), "3")),
        ("A+B*C", ("+", "A", ("*", "B", "C"))),
        ("A-B-C", ("-", ("-", "A", "B"), "C")),
        ("A/B*C", ("*", ("/", "A", "B"), "C")),
        ("A MOD B+C", ("+", ("MOD", "A", "B"), "C")),
        ("A*B MOD C", ("MOD", ("*", "A", "B"), "C")),
        ("A+1<B*2", ("<", ("+", "A", "1"), ("*", "B", "2"))),
        ("NOT A=B", ("NOT", ("=", "A", "B"))),
        ("A<>B AND C>=D OR E", ("OR", ("AND", ("<>", "A", "B"), (">=", "C", "D")), "E")),
        ("A OR B AND C", ("OR", "A", ("AND", "B", "C"))),
        ("A <= B", ("<=", "A", "B")),
        ("(A+B)*C", ("*", ("+", "A", "B"), "C")),
        ("+A", ("+", "A")),
        ("2^-1", ("^", "2", ("-", "1"))),
        ("A*-B", ("*", "A", ("-", "B"))),
    ],
)
def test_operator_precedence_and_associativity(text, tree):
    assert expr(text) == tree


def test_calls_variables_and_constants():
    assert expr("SIN(X) + RND + FNA") == ("+", ("+", ("SIN", "X"), ("RND",)), ("FNA",))
    assert expr("TAN") == ("TAN",)
    assert expr("FNSQ(2, Y)") == ("FNSQ", "2", "Y")
    assert expr("MMA(A(I, K), B(K, J), ACC)") == (
        "MMA",
        ("A()", "I", "K"),
        ("B()", "K", "J"),
        "ACC",
    )
    assert expr('"ABC"') == "'ABC'"
    num = one("10 LET Z = 1.5E-3").value
    assert (num.value, num.text) == (1.5e-3, "1.5E-3")
    assert one("10 LET Z = 5.").value.value == 5.0
    assert one("10 LET Z = 1E400").value.value == float("inf")  # overflow: a runtime matter


def test_expression_coordinates_span_their_tokens():
    let = one("10 LET Z = (A + B) * SIN(X)")
    product = let.value
    assert where(product) == (1, 12, 16)
    assert where(product.left) == (1, 12, 7)  # the group covers its parentheses
    assert where(product.left.left) == (1, 13, 1)
    assert where(product.right) == (1, 22, 6)
    neg = one("10 LET Z = -COUNT").value
    assert where(neg) == (1, 12, 6)
    assert where(one('10 PRINT "AB"').items[0]) == (1, 10, 4)


_PRECEDENCE = {"OR": 1, "AND": 2, "=": 4, "<": 4, "+": 5, "-": 5, "*": 6, "/": 6, "MOD": 6, "^": 8}


def _render(tree, parent: int = 0, right: bool = False) -> str:
    """BASIC text for `tree` with only the parentheses the precedence rules need."""
    if isinstance(tree, str):
        return tree
    if tree[0] == "NOT":
        text, level = f"NOT {_render(tree[1], 3)}", 3
    elif tree[0] == "NEG":
        text, level = f"-{_render(tree[1], 7)}", 7
    else:
        op, left, right_tree = tree
        level = _PRECEDENCE[op]
        # All binary operators are left-associative, so a right operand of the same
        # level needs parentheses.
        text = f"{_render(left, level)} {op} {_render(right_tree, level, True)}"
    needs = level < parent or (level == parent and right)
    return f"({text})" if needs else text


def _to_sx(tree):
    if isinstance(tree, str):
        return tree
    if tree[0] == "NEG":
        return ("-", _to_sx(tree[1]))
    return (tree[0], *map(_to_sx, tree[1:]))


_TREES = st.recursive(
    st.sampled_from(["A", "B1", "2", "X"]),
    lambda sub: st.one_of(
        # Binary operators three times as often as the two unary ones.
        *[st.tuples(st.sampled_from(sorted(_PRECEDENCE)), sub, sub)] * 3,
        st.tuples(st.sampled_from(["NOT", "NEG"]), sub),
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_TREES)
def test_minimal_parentheses_round_trip(tree):
    assert expr(_render(tree)) == _to_sx(tree)


def test_reparsing_a_printed_program_gives_the_same_tree():
    text = (
        "10 DIM A(10), B(3, 4)\n"
        "20 FOR I = 1 TO 10 STEP 2\n"
        '30 IF A(I) >= -1 THEN PRINT "X"; A(I), TAB(5); I ELSE 50\n'
        "40 NEXT I\n"
        "50 ON INT(RND * 2) + 1 GOSUB 60, 70\n"
        "60 LET B(1, 2) = 2 ^ 3 ^ 2 - -(4 * 5)\n"
        "70 RETURN\n"
    )
    first = parse_text(text)
    second = parse_text(text.replace(" ", "  ").lower().replace('"x"', '"X"'))
    assert dump(first) == dump(second)


# --------------------------------------------------------------------------- cuTile BASIC


SAXPY_KERNEL = """\
10 REM Y = A*X + Y, one tile of 256 elements per block
20 INPUT N, A, X(), Y()
30 DIM X(N), Y(N)
40 TILE X(256), Y(256)
50 LET Y(BID) = A * X(BID) + Y(BID)
60 OUTPUT Y
70 END
"""

MATMUL_KERNEL = """\
10 REM C(M,N) = A(M,K) * B(K,N) in 64 x 64 tiles
20 INPUT M, N, K, A(), B()
30 DIM A(M, K), B(K, N), C(M, N)
40 TILE A(64, 16), B(16, 64), C(64, 64), ACC(64, 64)
50 LET ROW = INT(BID / INT(N / 64))
60 LET COL = BID MOD INT(N / 64)
70 LET ACC = 0.0
80 FOR KK = 0 TO INT(K / 16) - 1
90   LET ACC = MMA(A(ROW, KK), B(KK, COL), ACC)
100 NEXT KK
110 LET C(ROW, COL) = ACC
120 OUTPUT C
130 END
"""

HOST_PROGRAM = """\
10 REM Greeting, in mixed case
20 PRINT "Hello from BASIC!"
30 LET X = 21.0
40 IF X * 2 > 40 THEN
50   PRINT "big"
60 ELSE
70   PRINT "small"
80 ENDIF
90 WHILE X > 1
100   X = X / 2
110 WEND
120 END
"""


def test_cutile_vector_kernel():
    program = parse_text(SAXPY_KERNEL)
    kinds = [type(line.statements[0]).__name__ for line in program.lines]
    assert kinds == ["Rem", "Input", "Dim", "TileStmt", "Let", "Output", "End"]
    inp = program.lines[1].statements[0]
    assert inp.array_params == ["X", "Y"]
    let = program.lines[4].statements[0]
    assert sx(let.value) == ("+", ("*", "A", ("X()", ("BID", 0))), ("Y()", ("BID", 0)))


def test_cutile_matmul_kernel():
    program = parse_text(MATMUL_KERNEL)
    assert program.lines[3].statements[0].tiles[3].name == "ACC"
    assert sx(program.lines[5].statements[0].value) == (
        "MOD",
        ("BID", 0),
        ("INT", ("/", "N", "64")),
    )
    loop = program.lines[8].statements[0]
    assert sx(loop.value)[0] == "MMA"
    assert where(loop) == (9, 6, 3)


def test_cutile_host_program_with_block_if_and_while():
    program = parse_text(HOST_PROGRAM)
    kinds = [type(line.statements[0]).__name__ for line in program.lines]
    assert kinds == [
        "Rem",
        "Print",
        "Let",
        "IfBlock",
        "Print",
        "Else",
        "Print",
        "EndIf",
        "While",
        "Let",
        "Wend",
        "End",
    ]
    assert program.lines[1].statements[0].items[0].value == "Hello from BASIC!"


def test_every_node_has_a_location_on_its_own_line():
    text = SAXPY_KERNEL + (
        '80 IF A THEN PRINT "X", TAB(3); FNA ELSE 10\n'
        "90 MAT READ A(2), B : MAT C = (2) * A : MAT C = TRN(A) : MAT PRINT C;\n"
        "100 DIM Q(3) AS F16 : DATA 1, A : ON A GOSUB 10, 20 ' note\n"
        "110 DEF FNA(X, Y) = -X ^ 2 : NEXT I, J : OPTION BASE 0\n"
    )
    program = parse_text(text)
    for line in program.lines:
        for stmt in line.statements:
            for node in stmt.walk():
                assert node.coord.line == line.coord.line, node
                assert node.coord.column >= 1 and node.coord.length >= 1, node
                assert node.coord.file == "t.bas"


# --------------------------------------------------------------------------- strict mode


def test_strict_mode_accepts_minimal_basic():
    text = (
        "10 REM lower case is fine in remarks\n"
        "20 OPTION BASE 1\n"
        "30 DIM A(10), B$(2)\n"
        "40 DEF FNA(X) = X ^ 2 + 1\n"
        "50 READ A(1), B$\n"
        '60 DATA -1.5E2, "HI THERE", PLAIN TEXT\n'
        "70 FOR I = 1 TO 10 STEP 2\n"
        "80 IF -A(1) <= -5 THEN 100\n"
        "90 NEXT I\n"
        '100 PRINT "A="; A(1), TAB(20); FNA(2); RND; SIN(1)\n'
        "110 ON 1 GO TO 120, 130\n"
        "120 GO SUB 150\n"
        "130 LET X = -(-1) * 2\n"
        "140 STOP\n"
        "150 RETURN\n"
        "160 RESTORE\n"
        "170 RANDOMIZE\n"
        "180 END\n"
    )
    strict = parse_text(text, "ecma55")
    assert dump(strict) == dump(parse_text(text, "extended"))


# --------------------------------------------------------------------------- NBS corpus

# The NBS ERROR programs whose fault is syntactic, rejected in strict mode (the rest
# are semantic: the passes reject them, the parser must accept them).
STRICT_SYNTAX_ERRORS = frozenset(
    [
        "036",
        "037",
        "038",
        "102",
        "103",
        "104",
        "105",
        "106",
        "113",
        "143",
        "144",
        "145",
        "147",
        "149",
        "155",
        "156",
        "157",
        "159",
        "185",
        "187",
        "188",
        "189",
        "190",
        "191",
        "192",
        "193",
        "194",
        "195",
        "197",
        "198",
        "199",
        "200",
        "201",
        "202",
        "204",
        "205",
    ]
)
# Of those, the ones that are errors in extended mode as well (P105's null datum is not:
# extended BASIC reads it as Microsoft BASIC does, "" or 0).
ALWAYS_SYNTAX_ERRORS = frozenset(
    [
        "036",
        "037",
        "103",
        "104",
        "106",
        "113",
        "147",
        "149",
        "155",
        "189",
        "191",
        "192",
        "193",
        "194",
        "195",
        "197",
        "198",
    ]
)


def _manifest() -> list[dict[str, str]]:
    path = NBS_DIR / "MANIFEST.tsv"
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _nbs_cases():
    rows = _manifest()
    if not rows:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="no NBS corpus"))]
    return [(row["prog"], row["kind"]) for row in rows]


@pytest.mark.parametrize("std", ["ecma55", "extended"])
@pytest.mark.parametrize("prog, kind", _nbs_cases())
def test_nbs_program(nbs_dir, prog, kind, std):
    source = SourceFile.read(nbs_dir / f"P{prog}.BAS")
    rejected = STRICT_SYNTAX_ERRORS if std == "ecma55" else ALWAYS_SYNTAX_ERRORS
    if prog in rejected:
        with pytest.raises(CompileErrors) as info:
            parse(source, Options(std=std))
        assert all(e.coord.file == source.name and e.coord.line > 0 for e in info.value.errors)
    else:
        program = parse(source, Options(std=std))
        assert program.lines


def test_nbs_error_lists_match_the_manifest(nbs_dir):
    kinds = {row["prog"]: row["kind"] for row in _manifest()}
    assert all(kinds[p] == "error" for p in STRICT_SYNTAX_ERRORS)
    assert ALWAYS_SYNTAX_ERRORS <= STRICT_SYNTAX_ERRORS


# --------------------------------------------------------------------------- grammar and tables


def test_grammar_has_no_conflicts(tmp_path):
    from ply import yacc

    from transpiler.frontend import grammar

    log_path = tmp_path / "parser.out"
    with open(log_path, "w") as log:
        yacc.yacc(
            module=grammar,
            write_tables=False,
            debug=True,
            debuglog=yacc.PlyLogger(log),
            errorlog=yacc.PlyLogger(log),
            outputdir=str(tmp_path),
        )
    report = log_path.read_text()
    assert "conflict" not in report
    assert "WARNING" not in report


def test_tables_are_cached_per_user_and_nothing_is_written_beside_the_program(tmp_path):
    program = tmp_path / "prog.bas"
    program.write_text("10 PRINT 1\n20 END\n")
    cache = tmp_path / "cache"
    script = (
        "import sys; from transpiler.frontend.parser import parse; from transpiler.errors import "
        "SourceFile; from transpiler.options import Options; "
        "print(len(parse(SourceFile.read(sys.argv[1]), Options()).lines))"
    )
    env = {**os.environ, "BASIC2TILE_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    for _ in range(2):  # the first run writes the cache, the second reads it
        done = subprocess.run(
            [sys.executable, "-c", script, str(program)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.strip() == "2"
    assert [p.name.startswith("lalr-") for p in cache.iterdir()] == [True]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "prog.bas"]
    ply_files = {"parsetab.py", "parser.out", "lextab.py"}
    assert not ply_files & {p.name for p in (ROOT / "transpiler").iterdir()}
    # A damaged cache file is regenerated, not trusted.
    [table] = cache.iterdir()
    table.write_text("{not json")
    subprocess.run([sys.executable, "-c", script, str(program)], env=env, check=True)
    assert table.read_text().startswith("{")


# --------------------------------------------------------------------------- GW-BASIC's loading
# (tests/test_ms_loading.py runs these programs; PC-BASIC is the oracle there.)


def test_ms_puts_lines_in_order_and_a_repeated_number_replaces_the_line():
    program = parse_text("30 END\n10 PRINT 1\n20 PRINT 2\n10 PRINT 3\n", "ms")
    assert [(line.number, line.coord.line) for line in program.lines] == [
        (10, 4), (20, 3), (30, 1)
    ]  # fmt: skip
    assert [(w.coord.line, w.message.split(":")[0]) for w in program.warnings] == [
        (2, "line number 10 is out of order"),
        (3, "line number 20 is out of order"),
        (4, "line number 10 again"),
    ]


def test_ms_reads_the_line_number_of_gosub_without_the_name_glued_to_it():
    [gosub] = statements("10 GOSUB 100MEDIAN\n", "ms")
    assert isinstance(gosub, ast.Gosub) and gosub.target.number == 100
    program = parse_text("10 IF X THEN GOSUB 100 XYZ ELSE 20\n", "ms")
    [branch] = program.lines[0].statements
    assert isinstance(branch.then_body[0], ast.Gosub) and branch.else_line.number == 20
    [warning] = program.warnings
    assert (where(warning), warning.message) == (
        (1, 24, 3),
        "'XYZ' after the line number is ignored, as GW-BASIC ignores it",
    )


def test_ms_fn_may_stand_apart_from_the_function_s_name():
    define = one("10 DEF FN ST(A#) = A# * 2\n", "ms")
    assert isinstance(define, ast.DefFn) and define.name == "FNST"


def test_dim_of_a_plain_name_declares_nothing_and_pins_ms():
    [rem] = statements("10 DIM S1$\n", "ms")
    assert isinstance(rem, ast.Rem)
    [dim] = statements("10 DIM N, A(3)\n", "ms")
    assert [decl.name for decl in dim.arrays] == ["A"]
    program = parse_text("10 DIM S1$\n", None)
    assert [what for what, _ in program.microsoft_pins] == ["DIM of a name without subscripts"]
    with pytest.raises(CompileErrors):
        parse_text("10 DIM S1$\n", "extended")


def test_a_statement_that_does_not_parse_is_a_fault_only_under_ms():
    _, fault, last = statements("10 PRINT 1: X = = 2: PRINT 3\n", "ms")
    assert isinstance(fault, ast.Fault) and fault.message == "Syntax error"
    assert where(fault) == (1, 13, 7)
    assert isinstance(last, ast.Print)
    with pytest.raises(CompileErrors):
        parse_text("10 PRINT 1: X = = 2\n", "extended")


def test_the_syntax_error_of_a_replaced_or_deleted_line_is_no_warning():
    for text in ("10 X = = 1\n20 END\n10 PRINT 1\n", "10 X = = 1\n20 END\n10\n"):
        program = parse_text(text, "ms")
        assert [w.coord.line for w in program.warnings] == [3]
        assert not any(isinstance(s, ast.Fault) for s in program.statements())
