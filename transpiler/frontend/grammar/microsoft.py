"""The grammar of the declarations only Microsoft BASIC has, and its line trace.

    simple_statement ::= (DEFINT | DEFSNG | DEFDBL | DEFSTR | DEFLNG) letters {',' letters}
                       | TRON | TROFF
    letters          ::= NAME ['-' NAME]                (single letters: A-Z, I-N, X)
    simple_statement ::= ON ERROR GOTO line_ref          (0: trapping off)
                       | RESUME [NEXT | line_ref]         (RESUME 0 is RESUME)
                       | ERROR expr

Each of them pins --dialect ms (or is an error in the other dialects).
"""

from __future__ import annotations

from ...errors import BasicSyntaxError
from ...ir import ast
from ._actions import fail, location, through

# The type each statement gives (model.ValueType).
_TYPES = {"DEFINT": "int", "DEFSNG": "num", "DEFDBL": "dbl", "DEFSTR": "str", "DEFLNG": "lng"}


def p_def_type(p):
    """simple_statement : DEFINT letter_list
    | DEFSNG letter_list
    | DEFDBL letter_list
    | DEFSTR letter_list
    | DEFLNG letter_list"""
    word = p.slice[1].type
    coord = location(p, 1)
    if word == "DEFLNG":  # QuickBASIC's LONG
        p.lexer.ctx.qbasic_only(word, coord)
    else:
        p.lexer.ctx.microsoft_only(word, coord)
    p[0] = ast.DefType(_TYPES[word], p[2], coord=coord)


def p_trace(p):
    """simple_statement : TRON
    | TROFF"""
    word = p.slice[1].type
    coord = location(p, 1)
    p.lexer.ctx.microsoft_only(word, coord)
    p[0] = ast.Trace(word == "TRON", coord=coord)


def p_letter_list(p):
    """letter_list : letters
    | letter_list COMMA letters"""
    p[0] = p[1] if len(p) == 2 else p[1] + p[3]


def p_letters_one(p):
    """letters : NAME"""
    p[0] = [_letter(p, 1)]


def p_letters_range(p):
    """letters : NAME MINUS NAME"""
    first, last = _letter(p, 1), _letter(p, 3)
    if last < first:
        fail(p, 3, f"the letter range {first}-{last} is empty")
    p[0] = [chr(c) for c in range(ord(first), ord(last) + 1)]


def _letter(p, n: int) -> str:
    name = p[n]
    if len(name) != 1:
        fail(p, n, f"expected a letter, found '{name}'")
    return name


def p_on_error(p):
    """simple_statement : ON ERROR GOTO line_ref"""
    coord = through(location(p, 1), p, 2)
    p.lexer.ctx.microsoft_only("ON ERROR GOTO", coord)
    target = p[4] if p[4].number != 0 else None
    p[0] = ast.OnError(target, coord=coord)


def p_on_error_label(p):
    """simple_statement : ON ERROR GOTO NAME"""
    # QuickBASIC's `ON ERROR GOTO Handler` (passes/check/jumps.py finds the label).
    coord = through(location(p, 1), p, 2)
    _label(p, 4)
    p[0] = ast.OnError(ast.LineRef(0, p[4], coord=location(p, 4)), coord=coord)


def p_resume_label(p):
    """simple_statement : RESUME NAME"""
    _label(p, 2)
    p[0] = ast.Resume("line", ast.LineRef(0, p[2], coord=location(p, 2)), coord=location(p, 1))


def _label(p, n: int) -> None:
    if p.lexer.ctx.dialect not in (None, "qbasic"):
        raise BasicSyntaxError(f"expected a line number, found name '{p[n]}'", location(p, n))
    p.lexer.ctx.qbasic_only("a label", location(p, n))


def p_resume(p):
    """simple_statement : RESUME
    | RESUME NEXT
    | RESUME line_ref"""
    coord = location(p, 1)
    p.lexer.ctx.microsoft_only("RESUME", coord)
    if len(p) == 2 or (isinstance(p[2], ast.LineRef) and p[2].number == 0):
        p[0] = ast.Resume("retry", coord=coord)
    elif isinstance(p[2], ast.LineRef):
        p[0] = ast.Resume("line", p[2], coord=coord)
    else:
        p[0] = ast.Resume("next", coord=coord)


def p_raise_error(p):
    """simple_statement : ERROR expr"""
    coord = location(p, 1)
    p.lexer.ctx.microsoft_only("ERROR", coord)
    p[0] = ast.RaiseError(p[2], coord=coord)
