"""Parsing an INPUT reply (ECMA-55 section 13), as bas55 does it.

A reply is one line holding one datum per variable, separated by commas.  It is checked
whole before any variable is assigned; an inconsistent reply is rejected with a message
and asked for again (`Console.input` does the asking).  The rules, in order:

1. More than 72 characters: "line too long".
2. Lower-case ASCII letters are folded to upper case (also inside quotes: ECMA-55 strings
   have no lower case).  Any character other than ``' '..'?'``, ``A-Z``, ``^`` and ``_``:
   "invalid characters found (c)" with the first such character.
3. For each variable, spaces are skipped, then:

   * nothing left: "insuficient input data" (bas55's spelling);
   * numeric variable: the longest numeric constant (numformat.NUMBER_PATTERN) at this
     place is taken; if there is none, a quoted string or an unquoted string
     (a character of ``A-Z 0-9 space + - .``) is "type mismatch for variable", anything
     else "syntax error".  A constant too large for a double is "numeric constant
     overflow (text)", the text with the spaces before it; one too small gives 0
     silently (ECMA-55 5.6, P111);
   * string variable: a quoted string runs to the next ``"`` (none: "string not
     terminated"); an unquoted string is the run of unquoted-string characters, trailing
     spaces dropped, so ``12`` is the string "12"; anything else is "syntax error".  More
     than 18 characters: "string datum contains too many characters";
   * then, after spaces, the reply must end or have a comma, else "syntax error".

4. After the last variable, anything but the end of the line (including a final comma) is
   "too much input data".
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

from .numformat import match_number
from .strings import STRING_MAX_LENGTH, STRING_TOO_LONG

NUMBER = "number"
STRING = "string"
MAX_REPLY_LENGTH = 72  # bas55's line length, as for program lines

LINE_TOO_LONG = "line too long"
INVALID_CHARACTERS = "invalid characters found"
TOO_FEW = "insuficient input data"
TOO_MANY = "too much input data"
TYPE_MISMATCH = "type mismatch for variable"
SYNTAX_ERROR = "syntax error"
UNTERMINATED_STRING = "string not terminated"
CONSTANT_OVERFLOW = "numeric constant overflow"

_TO_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_INVALID_CHARACTER = re.compile(r"[^ -?A-Z^_]")
_UNQUOTED_RUN = re.compile(r"[A-Z0-9 +\-.]*")
_UNQUOTED_CHARACTERS = frozenset(string.ascii_uppercase + string.digits + " +-.")


class ReplyRejected(Exception):
    """The reply does not fit the variable list; `what` and `detail` say why, as bas55."""

    def __init__(self, what: str, detail: str = ""):
        super().__init__(f"{what} {detail}" if detail else what)
        self.what = what
        self.detail = detail


def parse_reply(reply: str, kinds: Sequence[str], strict: bool = True) -> list[float | str]:
    """The values of a reply (without its newline) for variables of the given kinds.

    `kinds` holds NUMBER or STRING per variable.  Raises `ReplyRejected`.  `strict`:
    ECMA-55's limits (72-character replies, 18-character strings); extended BASIC
    has neither.
    """
    if strict and len(reply) > MAX_REPLY_LENGTH:
        raise ReplyRejected(LINE_TOO_LONG)
    reply = reply.translate(_TO_UPPER)
    bad = _INVALID_CHARACTER.search(reply)
    if bad:
        raise ReplyRejected(INVALID_CHARACTERS, f"({bad.group()})")
    end = len(reply)
    pos = 0
    after_comma = False
    values: list[float | str] = []
    for kind in kinds:
        start = pos  # bas55 quotes an overflowing number with the spaces before it
        while pos < end and reply[pos] == " ":
            pos += 1
        if pos == end:
            raise ReplyRejected(TOO_FEW)
        if kind == NUMBER:
            value, pos = _number(reply, pos, start)
        elif kind == STRING:
            value, pos = _string(reply, pos)
            if strict and len(value) > STRING_MAX_LENGTH:
                raise ReplyRejected(STRING_TOO_LONG)
        else:
            raise ValueError(f"unknown INPUT variable kind {kind!r}")
        values.append(value)
        while pos < end and reply[pos] == " ":
            pos += 1
        after_comma = pos < end and reply[pos] == ","
        if after_comma:
            pos += 1
        elif pos < end:
            raise ReplyRejected(SYNTAX_ERROR)
    while pos < end and reply[pos] == " ":
        pos += 1
    if pos < end or after_comma:
        raise ReplyRejected(TOO_MANY)
    return values


def _number(reply: str, pos: int, start: int) -> tuple[float, int]:
    match = match_number(reply, pos)
    if match is None:
        first = reply[pos]
        if first == '"' or first in _UNQUOTED_CHARACTERS:
            raise ReplyRejected(TYPE_MISMATCH)
        raise ReplyRejected(SYNTAX_ERROR)
    value = float(match.group())
    if value in (float("inf"), float("-inf")):
        raise ReplyRejected(CONSTANT_OVERFLOW, f"({reply[start:match.end()]})")
    return value, match.end()


def _string(reply: str, pos: int) -> tuple[str, int]:
    if reply[pos] == '"':
        close = reply.find('"', pos + 1)
        if close < 0:
            raise ReplyRejected(UNTERMINATED_STRING)
        text, pos = reply[pos + 1 : close], close + 1
    elif reply[pos] in _UNQUOTED_CHARACTERS:
        run = _UNQUOTED_RUN.match(reply, pos)
        text, pos = run.group().rstrip(" "), run.end()
    else:
        raise ReplyRejected(SYNTAX_ERROR)
    return text, pos
