"""The grammar of QuickBASIC's records and fixed-length strings (--dialect qbasic).

    simple_statement ::= TYPE NAME                       (a record type's fields follow)
                       | NAME AS NAME ['*' NUMBER]       (a field: x AS INTEGER,
                                                          s AS STRING * 10, p AS Point)
                       | END TYPE
    array_decl       ::= NAME AS STRING '*' NUMBER       (DIM s AS STRING * 10)
                       | NAME '(' bounds ')' AS STRING '*' NUMBER
    expr, lvalue     ::= NAME '(' expr_list ')' FIELD_NAME   (a(i).x: element a.x(i))

`passes/quickbasic/records.py` lowers a record to a variable (or an array) per field, named with
the field: `p.x` is the variable P.X, `a(i).x` the element A.X(i).
"""

from __future__ import annotations

from ...errors import BasicSyntaxError, BasicWarning
from ...ir import ast
from ...language.keywords import REASONS
from ._actions import location, through


def _qbasic(p, n: int, what: str) -> None:
    p.lexer.ctx.qbasic_only(what, location(p, n))


def p_type_begin(p):
    """simple_statement : TYPE NAME"""
    _qbasic(p, 1, "TYPE ... END TYPE")
    p[0] = ast.TypeBegin(p[2], coord=through(location(p, 1), p, 2))


def p_type_field(p):
    """simple_statement : NAME AS NAME
    | NAME AS NAME TIMES NUMBER"""
    _qbasic(p, 2, "a field of a TYPE")
    length = _length(p, 5) if len(p) == 6 else 0
    p[0] = ast.TypeField(p[1], p[3], length, coord=through(location(p, 1), p, len(p) - 1))


def p_type_end(p):
    """simple_statement : END TYPE"""
    _qbasic(p, 1, "TYPE ... END TYPE")
    p[0] = ast.TypeEnd(coord=through(location(p, 1), p, 2))


def p_scalar_decl_fixed(p):
    """array_decl : NAME AS NAME TIMES NUMBER"""
    _qbasic(p, 2, "DIM ... AS STRING * n")
    _string(p, 3)
    p[0] = ast.ScalarDecl(p[1], p[3], _length(p, 5), coord=through(location(p, 1), p, 5))


def p_array_decl_fixed(p):
    """array_decl : NAME LPAREN expr_list RPAREN AS NAME TIMES NUMBER"""
    _qbasic(p, 5, "DIM ... AS STRING * n")
    _string(p, 6)
    coord = through(location(p, 1), p, 8)
    p[0] = ast.ArrayDecl(p[1], p[3], dtype=p[6], length=_length(p, 8), coord=coord)


def p_array_decl_ranged_fixed(p):
    """array_decl : NAME LPAREN ranged_bounds RPAREN AS NAME TIMES NUMBER"""
    _qbasic(p, 5, "DIM ... AS STRING * n")
    _string(p, 6)
    lows = [low for low, _ in p[3]]
    uppers = [high for _, high in p[3]]
    coord = through(location(p, 1), p, 8)
    p[0] = ast.ArrayDecl(p[1], uppers, dtype=p[6], lows=lows, length=_length(p, 8), coord=coord)


def p_restore_label(p):
    """simple_statement : RESTORE NAME"""
    # QuickBASIC's `RESTORE Label`: the next READ reads the first DATA after the label.
    if p.lexer.ctx.dialect not in (None, "qbasic"):
        raise BasicSyntaxError(f"expected a line number, found name '{p[2]}'", location(p, 2))
    _qbasic(p, 2, "RESTORE to a label")
    p[0] = ast.Restore(to_label=p[2], coord=through(location(p, 1), p, 2))


def _gw_basic_common(p) -> None:
    """GW-BASIC's COMMON passes variables to a CHAINed program: not supported."""
    if p.lexer.ctx.dialect not in (None, "qbasic"):
        raise BasicSyntaxError(
            "unsupported statement COMMON (Microsoft BASIC)",
            location(p, 1),
            notes=(f"COMMON is not supported: {REASONS['COMMON']}",),
        )


def p_common_shared(p):
    """simple_statement : COMMON SHARED common_list"""
    _gw_basic_common(p)
    # One program, one module: COMMON SHARED shares the variables with the SUBs, as
    # DIM SHARED does (an array is DIMmed where it gets its bounds: DIM SHARED A(n)).
    _qbasic(p, 1, "COMMON SHARED")
    p[0] = ast.Dim([], p[3], shared=True, coord=location(p, 1))


def p_common(p):
    """simple_statement : COMMON common_list"""
    _gw_basic_common(p)
    _qbasic(p, 1, "COMMON")
    p.lexer.ctx.warnings.append(
        BasicWarning(
            "COMMON without SHARED shares variables with other modules and CHAINed "
            "programs: a single program has none, it does nothing",
            location(p, 1),
        )
    )
    p[0] = ast.Rem("", coord=location(p, 1))


def p_common_list(p):
    """common_list : common_item
    | common_list COMMA common_item"""
    p[0] = [p[1]] if len(p) == 2 else p[1] + [p[3]]


def p_common_item(p):
    """common_item : NAME
    | NAME AS NAME"""
    dtype = p[3] if len(p) == 4 else ""
    p[0] = ast.ScalarDecl(p[1], dtype, coord=through(location(p, 1), p, len(p) - 1))


def p_common_array(p):
    """common_item : NAME LPAREN RPAREN"""
    raise BasicSyntaxError(
        f"COMMON of an array ({p[1]}()): not supported; DIM SHARED {p[1]}(n) shares it",
        through(location(p, 1), p, 3),
    )


def p_redim(p):
    """simple_statement : REDIM array_list"""
    _qbasic(p, 1, "REDIM")
    coord = location(p, 1)
    for decl in p[2]:
        if not isinstance(decl, ast.ArrayDecl):
            raise BasicSyntaxError(f"REDIM {decl.name}: REDIM takes arrays", decl.coord)
    p[0] = ast.Redim(ast.Dim(p[2], coord=coord), coord=coord)


def p_redim_preserve(p):
    """simple_statement : REDIM NAME array_list"""
    if p[2] == "PRESERVE":
        raise BasicSyntaxError(
            "REDIM PRESERVE is QuickBASIC 7 (PDS) and VB-DOS's, not QuickBASIC 4.5's: "
            "not supported",
            through(location(p, 1), p, 2),
        )
    raise BasicSyntaxError(f"unexpected {p[2]} after REDIM", location(p, 2))


def p_expr_bound(p):
    """expr : LBOUND LPAREN NAME RPAREN
    | UBOUND LPAREN NAME RPAREN
    | LBOUND LPAREN NAME COMMA NUMBER RPAREN
    | UBOUND LPAREN NAME COMMA NUMBER RPAREN"""
    word = p.slice[1].type
    _qbasic(p, 1, word)
    dim = 1
    if len(p) == 7:
        if not p[5].isdigit() or int(p[5]) < 1:
            raise BasicSyntaxError(f"{word}'s dimension is 1, 2, ...: not {p[5]}", location(p, 5))
        dim = int(p[5])
    coord = through(location(p, 1), p, len(p) - 1)
    p[0] = ast.Bound(p[3], dim, word == "LBOUND", coord=coord)


def p_expr_field(p):
    """expr : NAME LPAREN expr_list RPAREN FIELD_NAME"""
    p[0] = ast.Index(p[1] + p[5], p[3], coord=through(location(p, 1), p, 5))


def p_lvalue_field(p):
    """lvalue : NAME LPAREN expr_list RPAREN FIELD_NAME"""
    p[0] = ast.Index(p[1] + p[5], p[3], coord=through(location(p, 1), p, 5))


def _string(p, n: int) -> None:
    if p[n] != "STRING":
        raise BasicSyntaxError(f"AS {p[n]} * n: only a STRING has a length", location(p, n))


def _length(p, n: int) -> int:
    """The n of `STRING * n`: a whole number 1..32767 (QuickBASIC's limit)."""
    text = p[n]
    if not text.isdigit() or not 1 <= int(text) <= 32767:
        raise BasicSyntaxError(
            f"the length of a fixed-length string is a whole number 1 to 32767, not {text}",
            location(p, n),
        )
    return int(text)
