"""What the grammar actions of every family share: locations of terminals, and the
reports of strict ECMA-55 mode.

A production `p` carries the lexer, whose `ctx` (`lexer.LineContext`) knows the file,
the line, the language level and the errors found so far on the line.
"""

from __future__ import annotations

from ...errors import BasicSyntaxError, Coord
from ...language.keywords import MICROSOFT_EVIDENCE
from ..lexer import token_length


def location(p, n: int) -> Coord:
    """The location of terminal `n` of production `p` (not a STRING, DATA or REM)."""
    tok = p.slice[n]
    ctx = p.lexer.ctx
    return Coord(ctx.file, ctx.line, tok.lexpos + 1, len(tok.value))


def through(first: Coord, p, n: int) -> Coord:
    """From `first` to the end of terminal `n`."""
    tok = p.slice[n]
    end = tok.lexpos + 1 + token_length(tok)
    return Coord(first.file, first.line, first.column, end - first.column)


def span(first: Coord, last: Coord) -> Coord:
    return Coord(first.file, first.line, first.column, last.column + last.length - first.column)


def extension(p, n: int, what: str) -> None:
    """In strict mode, report that terminal `n` starts an extension to ECMA-55."""
    ctx = p.lexer.ctx
    if ctx.strict:
        tok = p.slice[n]
        ctx.errors.append(
            ctx.error(f"{what} is not ECMA-55 Minimal BASIC", tok.lexpos, token_length(tok))
        )


def microsoft_statement(p, n: int, word: str) -> None:
    """Statement `word` at terminal `n` marks a Microsoft BASIC program
    (keywords.MICROSOFT_EVIDENCE): it pins --dialect ms when none was chosen."""
    tok = p.slice[n]
    ctx = p.lexer.ctx
    ctx.microsoft_evidence(MICROSOFT_EVIDENCE[word], ctx.coord(tok.lexpos, token_length(tok)))


def extension_at(p, coord: Coord, what: str) -> None:
    strict_error(p, coord, f"{what} is not ECMA-55 Minimal BASIC")


def strict_error(p, coord: Coord, message: str) -> None:
    if p.lexer.ctx.strict:
        p.lexer.ctx.errors.append(BasicSyntaxError(message, coord))


def fail(p, n: int, message: str):
    tok = p.slice[n]
    raise p.lexer.ctx.error(message, tok.lexpos, token_length(tok))


def integer(p, n: int, what: str) -> int:
    """Terminal `n` (a NUMBER) as an unsigned integer, or a located error."""
    text = p[n]
    if not text.isdigit():
        fail(p, n, f"expected {what}, found '{text}'")
    return int(text)
