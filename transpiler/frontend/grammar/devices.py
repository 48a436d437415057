"""The grammar of Microsoft BASIC's screen, sound and machine statements that a program
writing to a text stream can keep.

    simple_statement ::= CLS [args] | COLOR [args] | BEEP | KEY (ON | OFF)
                       | SCREEN [args] | WIDTH [args] | SOUND [args] | PLAY [args]
                       | WIDTH '#' expr ',' expr    (a file's line width: `ast.FileWidth`)
                       | CLEAR [args] | SYSTEM
    args             ::= [expr] {',' [expr]}

They cannot change the text the program writes, so they become `ast.NoEffect` (no code,
a compile-time warning; their arguments are not evaluated) where that is so: SCREEN 0
(text mode) and WIDTH 80 (the width there is) only; other modes and widths are located
errors.  CLEAR is a no-op at the start of the program; elsewhere `passes/check/clear.py`
lowers it.  SYSTEM ends the program, as END.  The machine statements (POKE, OUT, CALL, DEF
SEG, LOCATE, RUN, CHAIN...) stay reserved words: located errors, with a note saying why.
"""

from __future__ import annotations

from ...ir import ast
from ._actions import extension, location, microsoft_statement


def p_device_statement(p):
    """simple_statement : CLS device_args
    | COLOR device_args
    | BEEP
    | SOUND device_args
    | PLAY device_args"""
    extension(p, 1, p[1])
    microsoft_statement(p, 1, p[1])
    p[0] = ast.NoEffect(p[1], coord=location(p, 1))


def p_clear(p):
    """simple_statement : CLEAR device_args"""
    extension(p, 1, "CLEAR")
    microsoft_statement(p, 1, "CLEAR")
    sized = any(arg is not None for arg in p[2])
    p[0] = ast.Clear("CLEAR", sized=sized, coord=location(p, 1))


def p_key(p):
    """simple_statement : KEY ON
    | KEY OFF"""
    extension(p, 1, "KEY")
    microsoft_statement(p, 1, "KEY")
    coord = location(p, 1)
    p[0] = ast.NoEffect(f"KEY {p[2]}", coord=coord)


def p_key_other(p):
    """simple_statement : KEY device_args"""
    raise p.lexer.ctx.error(
        "KEY defines a function key or traps one: only KEY ON and KEY OFF are supported",
        p.slice[1].lexpos,
        3,
    )


def p_screen(p):
    """simple_statement : SCREEN device_args"""
    extension(p, 1, "SCREEN")
    microsoft_statement(p, 1, "SCREEN")
    _only(p, "SCREEN", 0, "graphics modes are not supported: the output is a text stream")
    p[0] = ast.NoEffect("SCREEN", coord=location(p, 1))


def p_width(p):
    """simple_statement : WIDTH device_args"""
    extension(p, 1, "WIDTH")
    microsoft_statement(p, 1, "WIDTH")
    _only(p, "WIDTH", 80, "lines are 80 characters wide: other widths are not supported")
    p[0] = ast.NoEffect("WIDTH", coord=location(p, 1))


def p_width_file(p):
    """simple_statement : WIDTH HASH expr COMMA expr"""
    extension(p, 1, "WIDTH #")
    p[0] = ast.FileWidth(p[3], p[5], coord=location(p, 1))


def _only(p, word: str, value: int, why: str) -> None:
    """A located error unless the first argument is the constant `value` (or absent)."""
    args = p[2]
    first = args[0] if args else None
    if first is None or (isinstance(first, ast.Num) and first.value == value):
        return
    start, length = first.coord.column - 1, first.coord.length
    written = p.lexer.lexdata[start : start + length]
    raise p.lexer.ctx.error(f"{word} {written}: {why}", start, length)


def p_system(p):
    """simple_statement : SYSTEM"""
    extension(p, 1, "SYSTEM")
    microsoft_statement(p, 1, "SYSTEM")
    p[0] = ast.End(coord=location(p, 1))


def p_device_args(p):
    """device_args : device_arg
    | device_args COMMA device_arg"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_device_arg(p):
    """device_arg : expr
    | empty"""
    p[0] = p[1]
