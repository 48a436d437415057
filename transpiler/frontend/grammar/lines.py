"""The grammar of a line: its statements, separated by ':' (an extension of ECMA-55).

    statements     ::= stmt_list | stmt_list ':' tail_statement | tail_statement
    tail_statement ::= if_statement | block_if
    stmt_list      ::= statement {':' statement}
    statement      ::= simple_statement | block_statement
    simple_statement ::= SYNTAX_FAULT       (a statement that does not parse: --dialect ms)
    empty          ::=

A one-line IF takes the rest of the line (`IF X THEN A = 1 : B = 2` runs both when X
holds), so it can only come last; so can a block IF (`IF X THEN` at the end of a line).
"""

from __future__ import annotations

from ...ir import ast
from ...runtime.faults import SYNTAX_ERROR
from ._actions import extension


def p_statements_list(p):
    """statements : stmt_list"""
    # Hot rules read p.slice directly: PLY's p[n] is a Python-level __getitem__.
    s = p.slice
    s[0].value = s[1].value


def p_statements_tail(p):
    """statements : stmt_list COLON tail_statement"""
    extension(p, 2, "more than one statement on a line")
    p[1].append(p[3])
    p[0] = p[1]


def p_statements_only_tail(p):
    """statements : tail_statement"""
    p[0] = [p[1]]


def p_tail_statement(p):
    """tail_statement : if_statement
    | block_if"""
    p[0] = p[1]


def p_stmt_list_first(p):
    """stmt_list : simple_statement
    | block_statement"""
    s = p.slice
    s[0].value = [s[1].value]


def p_stmt_list_next(p):
    """stmt_list : stmt_list COLON simple_statement
    | stmt_list COLON block_statement"""
    extension(p, 2, "more than one statement on a line")
    p[1].append(p[3])
    p[0] = p[1]


def p_empty(p):
    """empty :"""
    p[0] = None


def p_syntax_fault(p):
    """simple_statement : SYNTAX_FAULT"""
    # GW-BASIC tokenises a line without checking it: a statement that does not parse
    # stops the program with "Syntax error" only when it runs (parser.py blanks it out).
    tok = p.slice[1]
    p[0] = ast.Fault(SYNTAX_ERROR, coord=p.lexer.ctx.coord(tok.lexpos, len(tok.value)))
