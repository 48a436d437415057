"""The grammar of QuickBASIC / QBasic's structured statements (--dialect qbasic).

    simple_statement ::= DO [(WHILE | UNTIL) expr]
                       | LOOP [(WHILE | UNTIL) expr]
                       | EXIT (DO | FOR)
                       | SELECT CASE expr | CASE case_item {',' case_item} | CASE ELSE
                       | END SELECT
    case_item        ::= expr | expr TO expr | IS relation expr

Each one pins --dialect qbasic when no dialect was chosen, and is a located error in
the dialects that lack it (`LineContext.qbasic_only`).  The tree stays flat, as for
WHILE/WEND: passes/flatten.py lowers DO and LOOP to WHILE and WEND (with an EXIT DO for
a test at the bottom), and passes/blocks.py finds where each EXIT goes.  SELECT CASE
becomes an IF ... ELSEIF chain (passes/flatten.py too).
"""

from __future__ import annotations

from .. import ast
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
