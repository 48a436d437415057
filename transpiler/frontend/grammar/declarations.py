"""The grammar of assignments and declarations: LET, DIM, ERASE, OPTION BASE, DEF FN,
RANDOMIZE and REM.

    simple_statement ::= [LET] lvalue '=' expr
                       | SWAP lvalue ',' lvalue
                       | MID$ '(' lvalue ',' expr [',' expr] ')' '=' expr
                       | DIM array_decl {',' array_decl}
                       | ERASE NAME {',' NAME}         (Microsoft BASIC)
                       | OPTION BASE NUMBER
                       | DEF FNNAME ['(' var_list ')'] '=' expr
                       | RANDOMIZE [expr]
                       | REM                           (the rest of the line)
    array_decl       ::= NAME '(' expr_list ')' [AS NAME]
                       | NAME                      (Microsoft BASIC: a variable, no array)

SWAP and the MID$ statement are Microsoft BASIC's.  ECMA-55 wants LET, integer constants as DIM bounds and at most one numeric parameter;
`AS type` is cuTile BASIC's element type.
"""

from __future__ import annotations

from ...errors import BasicSyntaxError
from ...ir import ast
from ...language.builtins import BUILTINS
from ...language.keywords import QBASIC_TYPES
from ._actions import (
    extension,
    extension_at,
    fail,
    location,
    microsoft_statement,
    strict_error,
    through,
)


def p_let(p):
    """simple_statement : LET lvalue EQ expr"""
    s = p.slice
    s[0].value = ast.Let(s[2].value, s[4].value, coord=location(p, 1))


def p_let_implicit(p):
    """simple_statement : lvalue EQ expr"""
    target = p[1]
    extension_at(p, target.coord, "an assignment without LET")
    p[0] = ast.Let(target, p[3], coord=target.coord)


def p_swap(p):
    """simple_statement : SWAP lvalue COMMA lvalue"""
    extension(p, 1, "SWAP")
    microsoft_statement(p, 1, "SWAP")
    p[0] = ast.Swap(p[2], p[4], coord=location(p, 1))


def p_mid_assign(p):
    """simple_statement : FUNC LPAREN expr_list RPAREN EQ expr"""
    # Microsoft's MID$ statement: `MID$(A$, 2[, 3]) = "XYZ"`.
    name, args = p[1], p[3]
    if name != "MID$":
        fail(p, 1, f"{name} is a function: only MID$ can be assigned to")
    extension(p, 1, "the MID$ statement")
    microsoft_statement(p, 1, "MID$")
    target = args[0]
    if not isinstance(target, (ast.Var, ast.Index)) or len(args) not in (2, 3):
        raise BasicSyntaxError("expected MID$(variable$, start[, count]) = ...", target.coord)
    count = args[2] if len(args) == 3 else None
    p[0] = ast.MidAssign(target, args[1], count, p[6], coord=location(p, 1))


def p_assign_function(p):
    """simple_statement : FUNC EQ expr"""
    # `LEN = 3`: a reserved word as a variable (GW-BASIC says "Syntax error").
    name, ctx = p[1], p.lexer.ctx
    error = ctx.error(
        f"{name} is a built-in function: a variable needs another name", p.lexpos(1), len(name)
    )
    if ctx.dialect is None and not BUILTINS[name].reserved_in("ms"):
        error.notes = (f"--dialect ms reads {name} as a variable, as GW-BASIC does",)
    raise error


def p_dim(p):
    """simple_statement : DIM array_list"""
    arrays = [d for d in p[2] if isinstance(d, ast.ArrayDecl)]
    # QuickBASIC's typed scalars, and names without subscripts (GW-BASIC's `DIM S1$`,
    # QuickBASIC's `DIM X`, `DIM SHARED X`): declarations without code (flatten.py)
    scalars = [d for d in p[2] if isinstance(d, ast.ScalarDecl)]
    if arrays or any(d.dtype for d in scalars):
        p[0] = ast.Dim(arrays, scalars, coord=location(p, 1))
    else:  # only names without subscripts or types: nothing to do
        p[0] = ast.Rem("", coord=location(p, 1))


def p_array_decl_scalar(p):
    """array_decl : NAME"""
    # GW-BASIC's DIM takes a plain variable too (`DIM S1$`), which it then has already:
    # nothing to declare.
    p.lexer.ctx.microsoft_only("DIM of a name without subscripts", location(p, 1))
    p[0] = ast.ScalarDecl(p[1], "", coord=location(p, 1))


def p_erase(p):
    """simple_statement : ERASE name_list"""
    coord = location(p, 1)
    p.lexer.ctx.microsoft_only("ERASE", coord)
    p[0] = ast.Erase(p[2], coord=coord)


def p_name_list(p):
    """name_list : NAME
    | name_list COMMA NAME"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_array_list(p):
    """array_list : array_decl
    | array_list COMMA array_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_array_decl(p):
    """array_decl : NAME LPAREN expr_list RPAREN"""
    bounds = p[3]
    if p.lexer.ctx.strict:
        for bound in bounds:
            if not (isinstance(bound, ast.Num) and bound.text.isdigit()):
                extension_at(p, bound.coord, "a DIM bound that is not an integer constant")
    p[0] = ast.ArrayDecl(p[1], bounds, coord=through(location(p, 1), p, 4))


def p_array_decl_typed(p):
    """array_decl : NAME LPAREN expr_list RPAREN AS NAME"""
    # `DIM A(N) AS F16`: the element type, checked by the kernel-dialect pass.
    extension(p, 5, "DIM ... AS type")
    coord = through(location(p, 1), p, 6)
    if p[6] in QBASIC_TYPES:
        p.lexer.ctx.qbasic_only(f"DIM ... AS {p[6]}", location(p, 6))
    p[0] = ast.ArrayDecl(p[1], p[3], dtype=p[6], coord=coord)


def p_option(p):
    """simple_statement : OPTION BASE NUMBER"""
    if p[3] not in ("0", "1"):
        fail(p, 3, "OPTION BASE must be 0 or 1")
    p[0] = ast.OptionBase(int(p[3]), coord=location(p, 1))


def p_def(p):
    """simple_statement : DEF FNNAME EQ expr"""
    p[0] = ast.DefFn(p[2], [], p[4], coord=location(p, 1))


def p_def_params(p):
    """simple_statement : DEF FNNAME LPAREN var_list RPAREN EQ expr"""
    params = p[4]
    if p.lexer.ctx.strict:
        for param in params:
            if param.name.endswith("$"):
                strict_error(p, param.coord, "numeric variable expected (ECMA-55 parameter)")
        if len(params) > 1:
            strict_error(p, params[1].coord, "ECMA-55 functions have at most one parameter")
    p[0] = ast.DefFn(p[2], [v.name for v in params], p[7], coord=location(p, 1))


def p_randomize(p):
    """simple_statement : RANDOMIZE"""
    p[0] = ast.Randomize(coord=location(p, 1))


def p_randomize_seed(p):
    """simple_statement : RANDOMIZE expr"""
    extension(p, 1, "RANDOMIZE with a seed")
    p[0] = ast.Randomize(p[2], coord=location(p, 1))


def p_rem(p):
    """simple_statement : REM"""
    tok = p.slice[1]
    ctx = p.lexer.ctx
    length = len(p.lexer.lexdata) - tok.lexpos
    p[0] = ast.Rem(p[1], coord=ctx.coord(tok.lexpos, length))
