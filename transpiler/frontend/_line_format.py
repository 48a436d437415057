"""The line number at the start of a source line, and ECMA-55's rules on line layout.

Strict mode (`--std ecma55`) reports, without stopping the parse: lines longer than 72
characters, spaces before the line number, a missing line number, spaces inside it,
a value of 0 or more than four digits, no space after it, and characters outside the
ECMA-55 set (lower case included) anywhere but in REM text.  Extended mode accepts
all of these; `2 40 PRINT` then has line number 240, as in the BASICs that ignore
spaces.  In both modes a line number is at most MAX_LINE_NUMBER: every engine keeps it
in a 32-bit integer (the generated C++ reports errors with it).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..language.builtins import FUNCTION_NAMES
from ..language.keywords import KEYWORDS, UNSUPPORTED
from .lexer import LineContext

MAX_LINE_LENGTH = 72
MAX_LINE_NUMBER = 999_999_999  # nine digits
_PREFIX = re.compile(r"([ \t]*)(\d+(?:[ \t]+\d+)*)?")
# ECMA-55 table 1: the characters a program may use (REM text aside).
_ECMA55_CHARACTERS = frozenset(" !\"#$%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ^_")


class LineNumber(NamedTuple):
    value: int | None
    column: int  # 0-based column of the first digit (or of the first statement)
    length: int  # characters spanned by the digits, inner spaces included
    body: int  # 0-based column where the statements start


def read_line_number(text: str, ctx: LineContext) -> LineNumber:
    """The line number of `text`, if any; strict-mode layout errors go to `ctx.errors`."""
    match = _PREFIX.match(text)
    indent, digits = match.group(1), match.group(2)
    body = match.end()
    if digits is None:
        if ctx.strict:
            ctx.errors.append(ctx.error("missing line number (ECMA-55 numbers every line)", 0))
        return LineNumber(None, body, 0, body)
    column = len(indent)
    compact = "".join(digits.split())
    if ctx.strict:
        _check_strict_number(text, digits, compact, column, body, ctx)
    elif int(compact) > MAX_LINE_NUMBER:
        message = f"line number {compact.lstrip('0')} is too large (at most {MAX_LINE_NUMBER})"
        ctx.errors.append(ctx.error(message, column, len(digits)))
    return LineNumber(int(compact), column, len(digits), body)


_RESERVED_WORDS = KEYWORDS | FUNCTION_NAMES | UNSUPPORTED.keys()
_LABEL = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9.]*)[ \t]*:(?!=)")


def read_label(text: str, number: LineNumber, ctx: LineContext):
    """QuickBASIC's label at the start of a line without a number (`Start:`), as (its
    upper-cased name, the LineNumber with the statements after it), or None.  Only where
    the dialect is QuickBASIC's or not chosen (a label pins it); a reserved word is no
    label (`PRINT: PRINT`)."""
    if number.value is not None or ctx.dialect not in (None, "qbasic"):
        return None
    match = _LABEL.match(text, number.body)
    if match is None or match.group(1).upper() in _RESERVED_WORDS:
        return None
    ctx.qbasic_only("a label", ctx.coord(match.start(1), len(match.group(1))))
    return match.group(1).upper(), number._replace(body=match.end())


def _check_strict_number(
    text: str, digits: str, compact: str, column: int, body: int, ctx: LineContext
) -> None:
    if column:
        ctx.errors.append(ctx.error("spaces before the line number are not ECMA-55", 0, column))
    if len(compact) != len(digits):
        ctx.errors.append(ctx.error("spaces inside the line number", column, len(digits)))
    elif int(compact) == 0 or len(compact) > 4:
        ctx.errors.append(
            ctx.error("ECMA-55 line numbers are 1 to 9999 (at most 4 digits)", column, len(digits))
        )
    if body < len(text) and text[body] != " ":
        ctx.errors.append(ctx.error("a space must follow the line number in ECMA-55", body))


def check_strict_layout(text: str, stop: int, ctx: LineContext) -> None:
    """ECMA-55 line length and character set; characters from `stop` on are not checked."""
    if len(text) > MAX_LINE_LENGTH:
        ctx.errors.append(
            ctx.error(
                f"line is longer than {MAX_LINE_LENGTH} characters (ECMA-55 limit)",
                MAX_LINE_LENGTH,
                len(text) - MAX_LINE_LENGTH,
            )
        )
    for i, ch in enumerate(text[:stop]):
        if ch not in _ECMA55_CHARACTERS:
            if ch.islower():
                message = f"lower-case letter '{ch}': ECMA-55 programs are upper case"
            else:
                shown = ch if ch.isprintable() else f"\\x{ord(ch):02x}"
                message = f"character '{shown}' is not in the ECMA-55 character set"
            ctx.errors.append(ctx.error(message, i))
            return
