"""The reserved words that are not functions (those are in `builtins.py`).

`KEYWORDS` are the statement and operator words of the grammar: each is a token type
of the lexer.  `UNSUPPORTED` are the words of the supported dialects' statements and
operators that the grammar does not implement yet.  They are reserved too: the lexer
reports each one where it stands ("unsupported statement CLS (Microsoft BASIC)"), so that
`CLS` is never read as an assignment to a variable CLS, nor `ON ERROR GOTO 100` as an
ON ... GOTO on a variable ERROR.

Reserved words are whole names, as GW-BASIC has them: `LENGTH`, `TOTAL` and `PRINTER`
are variables although they start with LEN, TO and PRINT; `LEN`, `TO` and `PRINT` are
not.  (Strict ECMA-55 names are a letter and a digit, so no name collides there.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# fmt: off
# The grammar's statement, clause and operator words.  They cannot be variable names.
KEYWORDS = frozenset((
    "LET", "PRINT", "INPUT", "READ", "DATA", "RESTORE", "GOTO", "GOSUB", "RETURN", "ON",
    "IF", "THEN", "ELSE", "ELSEIF", "ENDIF", "END", "FOR", "TO", "STEP", "NEXT", "WHILE",
    "WEND", "DIM", "AS", "OPTION", "BASE", "DEF", "RANDOMIZE", "STOP", "REM", "TAB", "MAT",
    "SPC", "LPRINT", "SWAP",  # Microsoft BASIC
    "AND", "OR", "NOT", "MOD",
    "TILE", "OUTPUT", "BID",  # cuTile BASIC
))

WordKind = Literal["statement", "operator", "word"]


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A reserved word of a dialect that the grammar does not implement."""

    name: str
    kind: WordKind  # "word": part of a statement (PRINT USING, KEY OFF, DEF SEG)
    dialect: str  # as messages name it


_MICROSOFT_STATEMENTS = (
    # GW-BASIC 3.23 (its manual's statement and command list)
    "AUTO", "BEEP", "BLOAD", "BSAVE", "CALL", "CHAIN", "CHDIR", "CIRCLE", "CLEAR",
    "CLOSE", "CLS", "COLOR", "COM", "COMMON", "CONT", "DATE$", "DEFDBL", "DEFINT",
    "DEFSNG", "DEFSTR", "DELETE", "DRAW", "EDIT", "ENVIRON", "ERASE", "ERROR", "FIELD",
    "FILES", "GET", "IOCTL", "KEY", "KILL", "LINE", "LIST", "LLIST", "LOAD", "LOCATE",
    "LOCK", "LSET", "MERGE", "MKDIR", "MOTOR", "NAME", "NEW", "OPEN", "OUT",
    "PAINT", "PALETTE", "PCOPY", "PEN", "PLAY", "POKE", "PRESET", "PSET", "PUT", "RENUM",
    "RESET", "RESUME", "RMDIR", "RSET", "RUN", "SAVE", "SCREEN", "SHELL", "SOUND", "STRIG",
    "SYSTEM", "TIME$", "TIMER", "TROFF", "TRON", "UNLOCK", "VIEW", "WAIT", "WIDTH",
    "WINDOW", "WRITE",
    # QBasic / QuickBASIC structured statements
    "CASE", "CONST", "DECLARE", "DO", "EXIT", "FUNCTION", "LOOP", "REDIM", "SELECT", "SUB",
)
_MICROSOFT_OPERATORS = ("EQV", "IMP", "XOR")
_MICROSOFT_WORDS = ("OFF", "SEG", "USING")
_DARTMOUTH_STATEMENTS = ("CHANGE",)
# fmt: on

UNSUPPORTED: dict[str, Unsupported] = {
    **{w: Unsupported(w, "statement", "Microsoft BASIC") for w in _MICROSOFT_STATEMENTS},
    **{w: Unsupported(w, "operator", "Microsoft BASIC") for w in _MICROSOFT_OPERATORS},
    **{w: Unsupported(w, "word", "Microsoft BASIC") for w in _MICROSOFT_WORDS},
    **{w: Unsupported(w, "statement", "Dartmouth BASIC") for w in _DARTMOUTH_STATEMENTS},
}

# Words that are keywords only before a given word (`LINE INPUT` is a statement; `LINE`
# alone is Microsoft's unsupported graphics statement).
KEYWORD_BEFORE = {"LINE": "INPUT"}

# Statements of two words; a message names both (`ON ERROR`, `DEF SEG`).
TWO_WORD_STATEMENTS = frozenset((
    ("DEF", "SEG"), ("DEF", "USR"), ("PRINT", "USING"),
    ("LPRINT", "USING"), ("END", "SUB"), ("END", "FUNCTION"), ("END", "SELECT"),
    *(("ON", event) for event in ("ERROR", "KEY", "TIMER", "COM", "PEN", "PLAY", "STRIG")),
))  # fmt: skip
