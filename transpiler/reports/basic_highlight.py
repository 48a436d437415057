"""A Pygments lexer for the BASIC pane of the --html report.

Pygments' own QBasic lexer takes time quadratic in the length of text without double
quotes (a rule for apostrophe comments looks ahead to the next quote each time it is
tried): one 80 KB DATA line took 41 s.  This one follows basic2tile's lexer (its
keywords and built-in functions, REM and ' comments, `FN` names, `$` and `%` names)
with rules that never look past the token they match, so it takes time linear in the
text.  It only colours text: the parser, not this, decides what a program means.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from ..language.builtins import BUILTINS
from ..language.keywords import KEYWORDS, UNSUPPORTED

_NAME_END = r"(?![A-Za-z0-9_$%])"


class BasicLexer(RegexLexer):
    name = "basic2tile BASIC"
    flags = re.IGNORECASE | re.MULTILINE

    tokens: ClassVar[dict] = {
        "root": [
            (r"\n", Whitespace),
            (r"^([ \t]*)(\d+)", bygroups(Whitespace, Name.Label)),  # the line number
            (r"[ \t]+", Whitespace),
            (r"(REM)" + _NAME_END + r"(.*)$", bygroups(Keyword, Comment.Single)),
            (r"'.*$", Comment.Single),
            (r'"[^"\n]*"?', String.Double),
            (r"(GO[ \t]+(?:TO|SUB))" + _NAME_END, Keyword),
            (words(sorted((KEYWORDS | UNSUPPORTED.keys()) - {"REM"}), suffix=_NAME_END), Keyword),
            (words(sorted(BUILTINS), suffix=_NAME_END), Name.Builtin),
            (r"FN[A-Z][A-Z0-9_]*[$%]?", Name.Function),
            (r"[A-Z][A-Z0-9_]*[$%]?", Name.Variable),
            (r"(\d+\.?\d*|\.\d+)(E[+-]?\d+)?", Number),
            (r"<=|>=|<>|\*\*|[-+*/^=<>]", Operator),
            (r"[(),;:]", Punctuation),
            (r".", Text),
        ],
    }
