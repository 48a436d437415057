"""The grammar of Dartmouth BASIC's MAT statements and CHANGE.

    simple_statement ::= MAT READ mat_list | MAT INPUT mat_list
                       | MAT PRINT mat_print_list
                       | MAT NAME '=' mat_expr
                       | CHANGE expr TO NAME | CHANGE NAME TO lvalue
    mat_list         ::= mat_decl {',' mat_decl}
    mat_decl         ::= NAME ['(' expr_list ')']
    mat_print_list   ::= NAME [(',' | ';') [mat_print_list]]
    mat_expr         ::= NAME | NAME ('+' | '-' | '*') NAME | '(' expr ')' '*' NAME
                       | NAME '(' expr_list ')'     (ZER, CON, IDN, TRN, INV)

ZER, CON, IDN, TRN and INV are words of the MAT assignment only (`builtins.py` lists
them), names everywhere else.
"""

from __future__ import annotations

from ...errors import BasicSyntaxError
from ...ir import ast
from ._actions import extension, fail, location, span, through


def p_mat_read(p):
    """simple_statement : MAT READ mat_list"""
    extension(p, 1, "MAT")
    p[0] = ast.MatRead(p[3], coord=location(p, 1))


def p_mat_input(p):
    """simple_statement : MAT INPUT mat_list"""
    extension(p, 1, "MAT")
    p[0] = ast.MatInput(p[3], coord=location(p, 1))


def p_mat_print(p):
    """simple_statement : MAT PRINT mat_print_list"""
    extension(p, 1, "MAT")
    names, seps = p[3]
    p[0] = ast.MatPrint(names, seps, coord=location(p, 1))


def p_mat_assign(p):
    """simple_statement : MAT NAME EQ mat_expr"""
    extension(p, 1, "MAT")
    p[0] = ast.MatAssign(p[2], p[4], coord=location(p, 1))


def p_mat_list(p):
    """mat_list : mat_decl
    | mat_list COMMA mat_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_mat_decl(p):
    """mat_decl : NAME
    | NAME LPAREN expr_list RPAREN"""
    if len(p) == 2:
        p[0] = ast.ArrayDecl(p[1], [], coord=location(p, 1))
    else:
        p[0] = ast.ArrayDecl(p[1], p[3], coord=through(location(p, 1), p, 4))


def p_mat_print_list(p):
    """mat_print_list : NAME
    | NAME COMMA
    | NAME SEMI
    | NAME COMMA mat_print_list
    | NAME SEMI mat_print_list"""
    if len(p) == 4:
        names, seps = p[3]
    else:
        names, seps = [], []
    names.insert(0, p[1])
    seps.insert(0, p[2] if len(p) > 2 else None)
    p[0] = (names, seps)


def _mat_ref(p, n: int) -> ast.MatRef:
    return ast.MatRef(p[n], coord=location(p, n))


_MAT_FILLS = frozenset(("ZER", "CON", "IDN"))


_MAT_FUNCS = frozenset(("TRN", "INV"))


def p_mat_expr_name(p):
    """mat_expr : NAME"""
    if p[1] in _MAT_FILLS:
        p[0] = ast.MatFill(p[1], coord=location(p, 1))
    else:
        p[0] = _mat_ref(p, 1)


def p_mat_expr_binary(p):
    """mat_expr : NAME PLUS NAME
    | NAME MINUS NAME
    | NAME TIMES NAME"""
    left, right = _mat_ref(p, 1), _mat_ref(p, 3)
    p[0] = ast.MatBin(p[2], left, right, coord=span(left.coord, right.coord))


def p_mat_expr_scale(p):
    """mat_expr : LPAREN expr RPAREN TIMES NAME"""
    p[0] = ast.MatScale(p[2], _mat_ref(p, 5), coord=through(location(p, 1), p, 5))


def p_mat_expr_call(p):
    """mat_expr : NAME LPAREN expr_list RPAREN"""
    name, args = p[1], p[3]
    coord = through(location(p, 1), p, 4)
    if name in _MAT_FILLS:
        p[0] = ast.MatFill(name, args, coord=coord)
    elif name in _MAT_FUNCS:
        if len(args) != 1 or not isinstance(args[0], ast.Var):
            raise BasicSyntaxError(f"{name} takes one matrix name", coord)
        arg = ast.MatRef(args[0].name, coord=args[0].coord)
        p[0] = ast.MatFunc(name, arg, coord=coord)
    else:
        fail(p, 1, f"expected ZER, CON, IDN, TRN or INV, found '{name}'")


def p_change(p):
    """simple_statement : CHANGE expr TO lvalue"""
    # One rule for both directions (`CHANGE A$ TO A`, `CHANGE A TO A$`): the names' `$`
    # say which; the type check confirms it.
    extension(p, 1, "CHANGE")
    source, target, where = p[2], p[4], location(p, 1)
    if isinstance(target, ast.Var) and not target.name.endswith("$"):
        array = ast.MatRef(target.name, coord=target.coord)
        p[0] = ast.ChangeToCodes(source, array, coord=where)
    elif isinstance(source, ast.Var) and not source.name.endswith("$"):
        array = ast.MatRef(source.name, coord=source.coord)
        p[0] = ast.ChangeToString(array, target, coord=where)
    else:
        fail(p, 1, "CHANGE converts a string to an array or back: CHANGE A$ TO A, CHANGE A TO A$")
