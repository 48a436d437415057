"""The grammar of QuickBASIC / QBasic's structured statements (--dialect qbasic).

    simple_statement ::= DO [(WHILE | UNTIL) expr]
                       | LOOP [(WHILE | UNTIL) expr]
                       | EXIT (DO | FOR)
                       | SELECT CASE expr | CASE case_item {',' case_item} | CASE ELSE
                       | END SELECT
                       | CONST NAME '=' expr {',' NAME '=' expr}
                       | (SUB | FUNCTION) NAME ['(' [params] ')'] [STATIC]
                       | DECLARE (SUB | FUNCTION) NAME ['(' [params] ')']
                       | END (SUB | FUNCTION) | EXIT (SUB | FUNCTION)
                       | (SHARED | STATIC) NAME ['(' ')'] {',' NAME ['(' ')']}
                       | CALL NAME ['(' expr_list ')'] | SUBNAME [expr_list]
    param            ::= NAME [AS type] | NAME '(' ')' [AS type]
    expr             ::= NAME '(' ')'     (a whole array: an argument of a procedure)
    array_decl       ::= NAME AS type | NAME '(' bound {',' bound} ')' [AS type]
    bound            ::= expr | 0 TO expr | 1 TO expr
    case_item        ::= expr | expr TO expr | IS relation expr

Each one pins --dialect qbasic when no dialect was chosen, and is a located error in
the dialects that lack it (`LineContext.qbasic_only`).  The tree stays flat, as for
WHILE/WEND: passes/check/flatten.py lowers DO and LOOP to WHILE and WEND (with an EXIT DO for
a test at the bottom), and passes/check/blocks.py finds where each EXIT goes.  SELECT CASE
becomes an IF ... ELSEIF chain (passes/check/flatten.py too).  SUB and FUNCTION procedures
become GOSUB subroutines (passes/quickbasic/procedures.py); a FUNCTION's call in an expression is
parsed as an array element `F(x)` (or a variable `F`) and recognised there.
"""

from __future__ import annotations

from ...errors import BasicSyntaxError
from ...ir import ast
from ._actions import location, through


def qbasic(p, n: int, what: str) -> None:
    """Terminal `n` starts `what`, a construct of QuickBASIC (see `qbasic_only`)."""
    p.lexer.ctx.qbasic_only(what, location(p, n))


def p_do(p):
    """simple_statement : DO"""
    qbasic(p, 1, "DO ... LOOP")
    p[0] = ast.Do(coord=location(p, 1))


def p_do_test(p):
    """simple_statement : DO WHILE expr
    | DO UNTIL expr"""
    qbasic(p, 1, "DO ... LOOP")
    until = p.slice[2].type == "UNTIL"
    p[0] = ast.Do(p[3], until, coord=location(p, 1))


def p_loop(p):
    """simple_statement : LOOP"""
    qbasic(p, 1, "DO ... LOOP")
    p[0] = ast.Loop(coord=location(p, 1))


def p_loop_test(p):
    """simple_statement : LOOP WHILE expr
    | LOOP UNTIL expr"""
    qbasic(p, 1, "DO ... LOOP")
    until = p.slice[2].type == "UNTIL"
    p[0] = ast.Loop(p[3], until, coord=location(p, 1))


def p_exit(p):
    """simple_statement : EXIT DO
    | EXIT FOR"""
    block = p.slice[2].type
    qbasic(p, 1, f"EXIT {block}")
    p[0] = ast.Exit(block, coord=through(location(p, 1), p, 2))


def p_select_case(p):
    """simple_statement : SELECT CASE expr"""
    qbasic(p, 1, "SELECT CASE")
    p[0] = ast.SelectCase(p[3], coord=through(location(p, 1), p, 2))


def p_case(p):
    """simple_statement : CASE case_list"""
    qbasic(p, 1, "SELECT CASE")
    p[0] = ast.Case(p[2], coord=location(p, 1))


def p_case_else(p):
    """simple_statement : CASE ELSE"""
    qbasic(p, 1, "SELECT CASE")
    p[0] = ast.Case([], coord=through(location(p, 1), p, 2))


def p_end_select(p):
    """simple_statement : END SELECT"""
    qbasic(p, 1, "SELECT CASE")
    p[0] = ast.EndSelect(coord=through(location(p, 1), p, 2))


def p_case_list(p):
    """case_list : case_item
    | case_list COMMA case_item"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_case_value(p):
    """case_item : expr"""
    p[0] = ast.CaseItem("=", p[1], coord=p[1].coord)


def p_case_range(p):
    """case_item : expr TO expr"""
    p[0] = ast.CaseItem("TO", p[1], p[3], coord=p[1].coord)


def p_case_is(p):
    """case_item : IS EQ expr
    | IS NE expr
    | IS LT expr
    | IS GT expr
    | IS LE expr
    | IS GE expr"""
    op = {"EQ": "=", "NE": "<>", "LT": "<", "GT": ">", "LE": "<=", "GE": ">="}[p.slice[2].type]
    p[0] = ast.CaseItem(op, p[3], coord=location(p, 1))


def p_const(p):
    """simple_statement : CONST const_list"""
    qbasic(p, 1, "CONST")
    names, values = zip(*p[2], strict=True)
    p[0] = ast.Const(list(names), list(values), coord=location(p, 1))


def p_const_list(p):
    """const_list : NAME EQ expr
    | const_list COMMA NAME EQ expr"""
    if len(p) == 4:
        p[0] = [(ast.Var(p[1], coord=location(p, 1)), p[3])]
    else:
        p[1].append((ast.Var(p[3], coord=location(p, 3)), p[5]))
        p[0] = p[1]


def p_scalar_decl(p):
    """array_decl : NAME AS NAME"""
    # `DIM X AS INTEGER`: a typed variable (the rule's name is DIM's list item).
    qbasic(p, 2, f"DIM ... AS {p[3]}")
    p[0] = ast.ScalarDecl(p[1], p[3], coord=through(location(p, 1), p, 3))


def p_array_decl_ranged(p):
    """array_decl : NAME LPAREN ranged_bounds RPAREN
    | NAME LPAREN ranged_bounds RPAREN AS NAME"""
    qbasic(p, 2, "DIM A(lower TO upper)")
    lows = [low for low, _ in p[3]]
    uppers = [high for _, high in p[3]]
    dtype = p[6] if len(p) > 5 else None
    coord = through(location(p, 1), p, len(p) - 1)
    p[0] = ast.ArrayDecl(p[1], uppers, dtype=dtype, lows=lows, coord=coord)


def p_ranged_bounds_first(p):
    """ranged_bounds : expr TO expr
    | expr_list COMMA expr TO expr"""
    if len(p) == 4:
        p[0] = [(_lower_bound(p, p[1]), p[3])]
    else:
        p[0] = [(_default_low(), e) for e in p[1]] + [(_lower_bound(p, p[3]), p[5])]


def p_ranged_bounds_next(p):
    """ranged_bounds : ranged_bounds COMMA expr
    | ranged_bounds COMMA expr TO expr"""
    if len(p) == 4:
        p[1].append((_default_low(), p[3]))
    else:
        p[1].append((_lower_bound(p, p[3]), p[5]))
    p[0] = p[1]


def _default_low() -> int:
    return -1  # no lower bound written: OPTION BASE's


def _lower_bound(p, low: ast.Expr) -> int:
    """A lower bound: an integer constant, `-3` too (passes/quickbasic/array_bounds.py shifts an
    array whose lower bound is not 0 or 1 to start at OPTION BASE), else an error."""
    sign = 1
    if isinstance(low, ast.UnaryOp) and low.op == "-":
        sign, low = -1, low.operand
    if isinstance(low, ast.Num) and low.value.is_integer() and abs(low.value) < 2**31:
        return sign * int(low.value)
    raise BasicSyntaxError(
        "a lower bound must be an integer constant here (DIM A(2 TO n), A(-3 TO 3))",
        low.coord,
    )


def p_goto_label(p):
    """simple_statement : GOTO NAME
    | GOSUB NAME"""
    # QuickBASIC's `GOTO Label` (passes/check/jumps.py finds the label).
    if p.lexer.ctx.dialect not in (None, "qbasic"):
        raise BasicSyntaxError(f"expected a line number, found name '{p[2]}'", location(p, 2))
    qbasic(p, 2, "a label")
    target = ast.LineRef(0, p[2], coord=location(p, 2))
    kind = ast.Goto if p.slice[1].type == "GOTO" else ast.Gosub
    p[0] = kind(target, coord=location(p, 1))


def p_sub(p):
    """simple_statement : SUB NAME sub_tail
    | SUB NAME LPAREN RPAREN sub_tail
    | SUB NAME LPAREN sub_params RPAREN sub_tail
    | FUNCTION NAME sub_tail
    | FUNCTION NAME LPAREN RPAREN sub_tail
    | FUNCTION NAME LPAREN sub_params RPAREN sub_tail"""
    word = p.slice[1].type
    qbasic(p, 1, word)
    params = p[4] if len(p) == 7 else []
    static = p[len(p) - 1]
    function = word == "FUNCTION"
    coord = through(location(p, 1), p, 2)
    p[0] = ast.SubDef(p[2], params, static, function=function, coord=coord)


def p_sub_tail(p):
    """sub_tail : empty
    | STATIC"""
    p[0] = p[1] is not None


def p_declare_sub(p):
    """simple_statement : DECLARE SUB NAME
    | DECLARE SUB NAME LPAREN RPAREN
    | DECLARE SUB NAME LPAREN sub_params RPAREN
    | DECLARE FUNCTION NAME
    | DECLARE FUNCTION NAME LPAREN RPAREN
    | DECLARE FUNCTION NAME LPAREN sub_params RPAREN"""
    word = p.slice[2].type
    qbasic(p, 1, f"DECLARE {word}")
    params = p[5] if len(p) == 7 else []
    function = word == "FUNCTION"
    p[0] = ast.DeclareSub(p[3], params, function=function, coord=location(p, 1))


def p_end_sub(p):
    """simple_statement : END SUB
    | END FUNCTION"""
    word = p.slice[2].type
    qbasic(p, 1, word)
    p[0] = ast.EndSub(function=word == "FUNCTION", coord=through(location(p, 1), p, 2))


def p_exit_sub(p):
    """simple_statement : EXIT SUB
    | EXIT FUNCTION"""
    word = p.slice[2].type
    qbasic(p, 1, f"EXIT {word}")
    p[0] = ast.ExitSub(function=word == "FUNCTION", coord=through(location(p, 1), p, 2))


def p_shared_list(p):
    """shared_list : shared_item
    | shared_list COMMA shared_item"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_shared_item(p):
    """shared_item : NAME
    | NAME LPAREN RPAREN"""
    p[0] = ast.Var(p[1], coord=location(p, 1))  # `A()`: the array A


def p_shared(p):
    """simple_statement : SHARED shared_list"""
    qbasic(p, 1, "SHARED")
    p[0] = ast.Shared(p[2], coord=location(p, 1))


def p_static(p):
    """simple_statement : STATIC shared_list"""
    qbasic(p, 1, "STATIC")
    p[0] = ast.Static(p[2], coord=location(p, 1))


def p_call_without_call(p):
    """simple_statement : SUBNAME
    | SUBNAME expr_list"""
    qbasic(p, 1, "SUB")
    args = p[2] if len(p) == 3 else []
    text = p.lexer.lexdata
    by_value = [text[arg.coord.column - 1 : arg.coord.column] == "(" for arg in args]
    p[0] = ast.CallSub(p[1], args, by_value, coord=location(p, 1))


def p_call(p):
    """simple_statement : CALL NAME
    | CALL NAME LPAREN expr_list RPAREN"""
    if p.lexer.ctx.dialect not in (None, "qbasic"):  # GW-BASIC's CALL of machine code
        raise BasicSyntaxError(
            "unsupported statement CALL (Microsoft BASIC)",
            location(p, 1),
            notes=("CALL is not supported: it calls machine code",),
        )
    qbasic(p, 1, "CALL")
    args = p[4] if len(p) == 6 else []
    text = p.lexer.lexdata
    # `CALL S((X))`: X in parentheses of its own (its node starts at the '(') is passed
    # by value
    by_value = [text[arg.coord.column - 1 : arg.coord.column] == "(" for arg in args]
    p[0] = ast.CallSub(p[2], args, by_value, coord=location(p, 1))


def p_dim_shared(p):
    """simple_statement : DIM SHARED array_list"""
    qbasic(p, 2, "DIM SHARED")
    arrays = [d for d in p[3] if isinstance(d, ast.ArrayDecl)]
    scalars = [d for d in p[3] if isinstance(d, ast.ScalarDecl)]
    p[0] = ast.Dim(arrays, scalars, shared=True, coord=location(p, 1))


def p_sub_params(p):
    """sub_params : sub_param
    | sub_params COMMA sub_param"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_sub_param(p):
    """sub_param : NAME
    | NAME AS NAME"""
    dtype = p[3] if len(p) == 4 else ""
    p[0] = ast.ScalarDecl(p[1], dtype, coord=through(location(p, 1), p, len(p) - 1))


def p_sub_param_array(p):
    """sub_param : NAME LPAREN RPAREN
    | NAME LPAREN RPAREN AS NAME"""
    # `A()`: an array passed by reference (passes/quickbasic/procedures.py binds it to the argument)
    dtype = p[5] if len(p) == 6 else None
    p[0] = ast.ArrayDecl(p[1], [], dtype=dtype, coord=through(location(p, 1), p, 3))


def p_on_labels(p):
    """simple_statement : ON expr GOTO label_list
    | ON expr GOSUB label_list"""
    qbasic(p, 3, "a label")
    gosub = p.slice[3].type == "GOSUB"
    p[0] = ast.OnGoto(p[2], p[4], gosub=gosub, coord=location(p, 1))


def p_label_list(p):
    """label_list : NAME
    | label_list COMMA NAME"""
    ref = ast.LineRef(0, p[len(p) - 1], coord=location(p, len(p) - 1))
    if len(p) == 2:
        p[0] = [ref]
    else:
        p[1].append(ref)
        p[0] = p[1]


def p_whole_array(p):
    """expr : NAME LPAREN RPAREN"""
    # `CALL S(A())`, `F(A())`: the whole array A, an argument of a SUB or FUNCTION
    # (passes/quickbasic/procedures.py binds the array parameter to it; anywhere else it is an error)
    qbasic(p, 1, "an array argument A()")
    p[0] = ast.Index(p[1], [], coord=through(location(p, 1), p, 3))
