"""The BASIC lexer: one source line at a time, built with PLY's `lex`.

`parser.py` hands the lexer the text of one line, positioned after the line number,
and pulls tokens from it.  Keywords, names and function names are case-insensitive
and come out upper-cased; strings keep their case.  Three constructs are read raw,
because their text is not made of tokens:

- `REM ...` and `' ...` comments run to the end of the line;
- `DATA ...` runs to the end of the line (extended mode: to a `:` outside quotes),
  so that `DATA ABC, D E F` works; `_data_items.py` splits it into items.

A lexical error (an illegal character, an unterminated string) raises
`BasicSyntaxError` at once: the parser recovers at the next line.  Deviations from
ECMA-55 that the lexer notices in strict mode are fatal too when the line would
otherwise be misread (`LETX=10` is a name, not LET X), and merely recorded in
`LineContext.errors` when the line can still be understood (an apostrophe comment).
"""

from __future__ import annotations

import re
import sys

from ply import lex

from .builtins import FUNCTION_NAMES
from .errors import BasicSyntaxError, Coord

# fmt: off
# Statement and operator words.  They cannot be variable names.
KEYWORDS = frozenset((
    "LET", "PRINT", "INPUT", "READ", "DATA", "RESTORE", "GOTO", "GOSUB", "RETURN", "ON",
    "IF", "THEN", "ELSE", "ELSEIF", "ENDIF", "END", "FOR", "TO", "STEP", "NEXT", "WHILE",
    "WEND", "DIM", "AS", "OPTION", "BASE", "DEF", "RANDOMIZE", "STOP", "REM", "TAB", "MAT",
    "AND", "OR", "NOT", "MOD",
    "TILE", "OUTPUT", "BID",  # cuTile BASIC
))

tokens = tuple(sorted(KEYWORDS)) + (
    "NAME",    # a variable or array name: X, A1, A$, COUNT%
    "FNNAME",  # a user function: FNA, FNSQUARE
    "FUNC",    # a built-in function name (transpiler/builtins.py)
    "NUMBER",  # the spelling of a numeric constant: 1, 1.5, .5, 1E10, 5.
    "STRING",  # the characters between the quotes
    "PLUS", "MINUS", "TIMES", "DIVIDE", "POW",
    "EQ", "NE", "LT", "GT", "LE", "GE",
    "LPAREN", "RPAREN", "COMMA", "SEMI", "COLON",
)
# fmt: on

# A name in strict ECMA-55: a letter and an optional digit, or a letter and `$`.
_ECMA55_NAME = re.compile(r"[A-Z][0-9]?|[A-Z]\$")
_ECMA55_FN_NAME = re.compile(r"FN[A-Z]")


class DataText:
    """The raw text of a DATA statement: `text` starts at 0-based column `start`."""

    __slots__ = ("start", "text")

    def __init__(self, text: str, start: int):
        self.text = text
        self.start = start


class LineContext:
    """What the lexer and the grammar actions share while one file is parsed."""

    __slots__ = ("comment", "errors", "file", "line", "rem_start", "strict")

    def __init__(self, file: str, strict: bool):
        self.file = file
        self.strict = strict
        self.line = 0
        # Errors that do not stop the line from being parsed (strict-mode findings).
        self.errors: list[BasicSyntaxError] = []
        # An apostrophe comment on the current line: (text, 0-based column of the ').
        self.comment: tuple[str, int] | None = None
        # 0-based column where REM text starts on the current line (exempt from checks).
        self.rem_start: int | None = None

    def start_line(self, line: int) -> None:
        self.line = line
        self.comment = None
        self.rem_start = None

    def coord(self, lexpos: int, length: int = 1) -> Coord:
        return Coord(self.file, self.line, lexpos + 1, length)

    def error(self, message: str, lexpos: int, length: int = 1) -> BasicSyntaxError:
        return BasicSyntaxError(message, self.coord(lexpos, length))


def token_length(tok) -> int:
    """How many source characters a token spans."""
    kind = tok.type
    if kind == "STRING":
        return len(tok.value) + 2
    if kind == "DATA":
        return 4
    if kind == "REM":
        return 3
    return len(tok.value)


# --------------------------------------------------------------------------- token rules
# PLY tries function rules in the order they are defined, then string rules longest
# first.  The master regex is compiled with re.IGNORECASE.

t_ignore = " \t"


def t_GO_SPACED(t):
    r"GO[ \t]+(TO|SUB)(?![A-Z0-9_$%])"
    # `GO TO` and `GO SUB` (ECMA-55 allows spaces between the two words).
    t.type = "GOTO" if t.value[-1] in "Oo" else "GOSUB"
    return t


def t_NAME(t):
    r"[A-Z][A-Z0-9_]*[$%]?"
    word = t.value.upper()
    t.value = word
    ctx = t.lexer.ctx
    if word in KEYWORDS:
        t.type = word
        if word == "REM":
            _read_remark(t, t.lexpos + 3)
        elif word == "DATA":
            _read_data(t, ctx)
    elif word in FUNCTION_NAMES:
        t.type = "FUNC"
    elif ctx.strict and word.startswith("REM"):
        # ECMA-55 has no reserved words: `REMARK` is REM followed by the text "ARK".
        t.type = "REM"
        t.value = "REM"
        _read_remark(t, t.lexpos + 3)
    elif word.startswith("FN") and len(word) > 2:
        t.type = "FNNAME"
        if ctx.strict and not _ECMA55_FN_NAME.fullmatch(word):
            raise ctx.error(
                f"'{word}' is not an ECMA-55 function name (FN and one letter)",
                t.lexpos,
                len(word),
            )
    elif ctx.strict and not _ECMA55_NAME.fullmatch(word):
        raise ctx.error(
            f"'{word}' is not an ECMA-55 name (a letter, then a digit or '$')",
            t.lexpos,
            len(word),
        )
    return t


def _read_remark(t, start: int) -> None:
    lexer = t.lexer
    lexer.ctx.rem_start = start
    t.value = lexer.lexdata[start:].strip()
    lexer.lexpos = len(lexer.lexdata)


def _read_data(t, ctx: LineContext) -> None:
    lexer = t.lexer
    text = lexer.lexdata
    start = t.lexpos + 4
    end = len(text)
    if not ctx.strict:
        # Extended mode: a `:` outside quotes ends the DATA statement.
        in_quotes = False
        for i in range(start, end):
            ch = text[i]
            if ch == '"':
                in_quotes = not in_quotes
            elif ch == ":" and not in_quotes:
                end = i
                break
    t.value = DataText(text[start:end], start)
    lexer.lexpos = end


def t_STRING(t):
    r'"[^"\n]*"'
    text = t.lexer.lexdata
    end = t.lexer.lexpos
    if end < len(text) and text[end] == '"':
        raise t.lexer.ctx.error(
            "'\"\"' inside a string: BASIC strings cannot contain a quote", end - 1, 2
        )
    t.value = t.value[1:-1]
    return t


def t_UNTERMINATED_STRING(t):
    r'"[^"\n]*'
    raise t.lexer.ctx.error("unterminated string", t.lexpos, len(t.value))


def t_COMMENT(t):
    r"'.*"
    ctx = t.lexer.ctx
    if ctx.strict:
        ctx.errors.append(
            ctx.error("apostrophe comments are not ECMA-55 (use REM)", t.lexpos, len(t.value))
        )
    ctx.comment = (t.value[1:].strip(), t.lexpos)
    ctx.rem_start = t.lexpos + 1
    # Not a token: the parser appends a Rem statement for it to the line.


def t_STARSTAR(t):
    r"\*\*"
    raise t.lexer.ctx.error("'**' is not a BASIC operator: use '^' for powers", t.lexpos, 2)


t_NUMBER = r"(\d+\.?\d*|\.\d+)(E[+-]?\d+)?"
t_LE = r"<="
t_GE = r">="
t_NE = r"<>"
t_LT = r"<"
t_GT = r">"
t_EQ = r"="
t_PLUS = r"\+"
t_MINUS = r"-"
t_TIMES = r"\*"
t_DIVIDE = r"/"
t_POW = r"\^"
t_LPAREN = r"\("
t_RPAREN = r"\)"
t_COMMA = r","
t_SEMI = r";"
t_COLON = r":"


def t_error(t):
    ch = t.value[0]
    shown = ch if ch.isprintable() else f"\\x{ord(ch):02x}"
    raise t.lexer.ctx.error(f"unexpected character '{shown}'", t.lexpos)


# --------------------------------------------------------------------------- construction

_PROTOTYPE: lex.Lexer | None = None


def build_lexer(ctx: LineContext) -> lex.Lexer:
    """A lexer of its own for one parse (the PLY rules are compiled once per process)."""
    global _PROTOTYPE
    if _PROTOTYPE is None:
        _PROTOTYPE = lex.lex(
            module=sys.modules[__name__],
            reflags=int(re.VERBOSE | re.IGNORECASE),
            errorlog=lex.NullLogger(),
        )
    lexer = _PROTOTYPE.clone()
    lexer.ctx = ctx
    return lexer


def start_line(lexer: lex.Lexer, text: str, line: int, start: int) -> None:
    """Point `lexer` at `text` (source line `line`) from 0-based column `start`."""
    lexer.input(text)
    lexer.lexpos = start
    lexer.ctx.start_line(line)


def tokenize(text: str, *, strict: bool = False, file: str = "<input>") -> list[lex.LexToken]:
    """All tokens of one line (a debugging and testing aid; the parser pulls lazily).

    Raises BasicSyntaxError on a lexical error; strict-mode findings that do not stop
    the lexer are left out (the parser reports them).
    """
    lexer = build_lexer(LineContext(file, strict))
    start_line(lexer, text, 1, 0)
    return list(iter(lexer.token, None))
