"""INPUT replies as Microsoft BASIC reads them (GW-BASIC's rules, checked against PC-BASIC).

A reply holds one item per variable, separated by commas:

* blanks (space, line feed, NUL) before an item are skipped;
* a string item that starts with a quote runs to the next quote (commas and blanks
  inside are kept); blanks after the closing quote are skipped;
* any other item runs to the next comma or the end of the reply.  For a string its
  trailing blanks are dropped (blanks inside are kept); for a number every blank is
  dropped (`1 2` is 12), and what is left is read as VAL reads it
  (`stringfns.number_value`), but all of it must belong to the number: `12ABC` does
  not fit.  An empty item is 0 or the empty string.  No case is changed.

The reply does not fit, and Microsoft BASIC prints "?Redo from start" and asks again
(`Console.input`), when a number item is not a number, the reply has fewer items than
variables, or anything follows the last item (a comma, another item, text after a
closing quote).  A number too large for a double is "Overflow" (a warning) and the
largest double of its sign, as GW-BASIC gives the largest number it has.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from .faults import warn
from .inputs import NUMBER, STRING, ReplyRejected
from .msnumbers import sng
from .stringfns import MAX_LENGTH, OVERFLOW, number_value, val_is_double

REDO = "?Redo from start"
_BLANKS = " \0\n"


class _Reader:
    """The characters of one reply, read one at a time ("" past the end)."""

    __slots__ = ("pos", "text")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def read(self) -> str:
        c = self.text[self.pos : self.pos + 1]
        self.pos += len(c)
        return c

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip(self, blanks: str) -> None:
        while self.peek() and self.peek() in blanks:
            self.pos += 1


def _item(reader: _Reader, kind: str) -> tuple[str, str]:
    """One item and the character that ended it ("," or "" when the reply ends there;
    anything else when something unexpected follows)."""
    reader.skip(_BLANKS)
    c = reader.read()
    quoted = c == '"' and kind == STRING
    if quoted:
        c = reader.read()
    word, blanks = "", ""
    while c and not (c in ",\r" and not quoted):
        if quoted and c == '"':
            break
        if c == "\0":
            pass  # NUL is dropped, even inside quotes
        elif c in _BLANKS and not quoted:
            if kind == STRING:
                blanks += c
        else:
            word += blanks + c
            blanks = ""
        if len(word) + len(blanks) >= MAX_LENGTH:
            break
        c = reader.read()
    if (c and c in _BLANKS) or (quoted and c == '"'):
        reader.skip(" ")
        if reader.peek() in (",", "\r") and reader.peek():
            c = reader.read()
    return word, c


def parse_ms_reply(reply: str, kinds: Sequence[str]) -> list[float | str]:
    """The values of a reply (without its newline) for variables of the given kinds
    (inputs.NUMBER or inputs.STRING); ReplyRejected(REDO) if it does not fit."""
    reader = _Reader(reply)
    values: list[float | str] = []
    singles: list[bool] = []  # a number typed as a single constant (val_is_double)
    ends: list[str] = []
    for kind in kinds:
        word, end = _item(reader, kind)
        ends.append(end)
        if kind == STRING:
            values.append(word)
            continue
        if kind != NUMBER:
            raise ValueError(f"unknown INPUT variable kind {kind!r}")
        value = number_value(word, whole=True)
        if value is None:
            raise ReplyRejected(REDO)
        values.append(value)
        singles.append(not val_is_double(word))
    if ends[-1] or "" in ends[:-1]:
        raise ReplyRejected(REDO)
    numbers = [n for n, value in enumerate(values) if not isinstance(value, str)]
    for n, single in zip(numbers, singles):
        if single:  # GW-BASIC reads `0.1` as a single, also into a double variable
            values[n] = sng(values[n])
    for n, value in enumerate(values):
        if isinstance(value, float) and math.isinf(value):
            warn(OVERFLOW)
            values[n] = math.copysign(sys.float_info.max, value)
    return values
