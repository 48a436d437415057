"""Splitting the raw text of a DATA statement into `ast.Datum` items.

ECMA-55 (section 14): a datum is a quoted string, or an unquoted string of letters,
digits, spaces, `+`, `-` and `.` (spaces at either end do not count).  An unquoted
datum that spells a numeric constant, sign included, also has a `number`.  Extended
mode allows any character but `"` and `,` in an unquoted datum, and empty items.
"""

from __future__ import annotations

import re

from ..ir.ast import Datum
from .lexer import DataText, LineContext

NUMERIC_DATUM = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)(E[+-]?\d+)?", re.IGNORECASE)
_ECMA55_UNQUOTED = re.compile(r"[A-Z0-9+\-. ]*")


def split_data(data: DataText, ctx: LineContext) -> list[Datum]:
    """The items of a DATA statement; raises BasicSyntaxError at the first bad one."""
    text, base = data.text, data.start
    items: list[Datum] = []
    i, end = 0, len(text)
    while True:
        while i < end and text[i] in " \t":
            i += 1
        if i == end or text[i] == ",":
            if ctx.strict:
                what = "after DATA" if not items else "after ','"
                raise ctx.error(f"expected a datum {what}", base + i)
            # Microsoft BASIC: an empty item (`DATA 1,,3`, `DATA 1,`) reads as "" or 0.
            items.append(Datum("", coord=ctx.coord(base + i, 1)))
        elif text[i] == '"':
            close = text.find('"', i + 1)
            if close < 0:
                raise ctx.error("unterminated string", base + i, end - i)
            items.append(
                Datum(text[i + 1 : close], quoted=True, coord=ctx.coord(base + i, close + 1 - i))
            )
            i = close + 1
            if i < end and text[i] == '"':
                raise ctx.error(
                    "'\"\"' inside a string: BASIC strings cannot contain a quote", base + i - 1, 2
                )
            while i < end and text[i] in " \t":
                i += 1
        else:
            stop = text.find(",", i)
            stop = end if stop < 0 else stop
            raw = text[i:stop].rstrip()
            _check_unquoted(raw, base + i, ctx)
            number = float(raw) if NUMERIC_DATUM.fullmatch(raw) else None
            items.append(Datum(raw, number=number, coord=ctx.coord(base + i, len(raw))))
            i = stop
        if i == end:
            return items
        if text[i] != ",":
            raise ctx.error(f"expected ',' between data items, found '{text[i]}'", base + i)
        i += 1


def _check_unquoted(raw: str, column: int, ctx: LineContext) -> None:
    quote = raw.find('"')
    if quote >= 0:
        raise ctx.error("unexpected '\"' inside an unquoted datum", column + quote)
    if ctx.strict:
        match = _ECMA55_UNQUOTED.match(raw)
        if match.end() < len(raw):
            bad = match.end()
            if raw[bad].islower():
                return  # reported once per line by the case check
            raise ctx.error(
                f"'{raw[bad]}' is not allowed in an unquoted datum in ECMA-55 (quote the string)",
                column + bad,
            )
