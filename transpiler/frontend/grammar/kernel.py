"""The grammar of cuTile BASIC, NVIDIA's kernel dialect: TILE, OUTPUT, whole-array
INPUT parameters and the block index.

    simple_statement ::= TILE tile_decl {',' tile_decl}
                       | OUTPUT var_list
    tile_decl        ::= NAME '(' expr_list ')'
    input_target     ::= NAME '(' ')'
    expr             ::= BID | BID '(' expr ')'         (axis 0, 1 or 2)

A program with TILE or OUTPUT is one kernel; `passes/kernel/kernel_dialect.py` checks it.
"""

from __future__ import annotations

from ...errors import BasicSyntaxError
from ...ir import ast
from ._actions import extension, extension_at, location, through


def p_tile(p):
    """simple_statement : TILE tile_list"""
    extension(p, 1, "TILE")
    p[0] = ast.TileStmt(p[2], coord=location(p, 1))


def p_tile_list(p):
    """tile_list : tile_decl
    | tile_list COMMA tile_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_tile_decl(p):
    """tile_decl : NAME LPAREN expr_list RPAREN"""
    p[0] = ast.TileDecl(p[1], p[3], coord=through(location(p, 1), p, 4))


def p_output(p):
    """simple_statement : OUTPUT var_list"""
    extension(p, 1, "OUTPUT")
    p[0] = ast.Output([v.name for v in p[2]], coord=location(p, 1))


def p_input_target_array(p):
    """input_target : NAME LPAREN RPAREN"""
    # `INPUT A()`: a whole array passed to a cuTile BASIC kernel.
    coord = through(location(p, 1), p, 3)
    extension_at(p, coord, "an array parameter NAME()")
    p[0] = (ast.Var(p[1], coord=coord), True)


def p_expr_bid(p):
    """expr : BID"""
    extension(p, 1, "BID")
    p[0] = ast.Bid(0, coord=location(p, 1))


def p_expr_bid_axis(p):
    """expr : BID LPAREN expr RPAREN"""
    extension(p, 1, "BID")
    axis = p[3]
    if not (isinstance(axis, ast.Num) and axis.text in ("0", "1", "2")):
        raise BasicSyntaxError("the BID axis must be 0, 1 or 2", axis.coord)
    p[0] = ast.Bid(int(axis.text), coord=through(location(p, 1), p, 4))
