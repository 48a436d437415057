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
    "SPC", "SWAP",  # Microsoft BASIC (strings)
    "AND", "OR", "NOT", "MOD",
    # Microsoft BASIC (--dialect ms; grammar/microsoft.py)
    "XOR", "EQV", "IMP", "DEFINT", "DEFSNG", "DEFDBL", "DEFSTR",
    "TILE", "OUTPUT", "BID",  # cuTile BASIC
    # Microsoft BASIC: files, PRINT USING, and the screen statements that do nothing on
    # a text stream.  (NAME, which renames a file, is the lexer's: see RENAME_WORD.)
    "USING", "LPRINT", "OPEN", "CLOSE", "WRITE", "KILL", "LINE",
    "CLS", "COLOR", "BEEP", "KEY", "OFF", "SCREEN", "WIDTH", "SOUND", "PLAY", "SYSTEM", "CLEAR",
))
# QuickBASIC / QBasic's structured statements (--dialect qbasic; grammar/structured.py).
# IS is a keyword only in a CASE statement (lexer.py): GW-BASIC programs may call a
# variable IS.
QBASIC_KEYWORDS = frozenset((
    "DO", "LOOP", "UNTIL", "EXIT", "SELECT", "CASE", "IS", "CONST",
    "SUB", "CALL", "DECLARE", "SHARED", "STATIC",  # CALL: a keyword before an unsupported word
))  # fmt: skip
KEYWORDS = KEYWORDS | QBASIC_KEYWORDS
# QuickBASIC's `AS` types and the suffix each stands for (LONG, `&`, is not supported
# yet: passes/default_types.py says so where it is written).
QBASIC_TYPES = {"INTEGER": "%", "LONG": "&", "SINGLE": "!", "DOUBLE": "#", "STRING": "$"}

# Statements whose GW-BASIC forms the grammar implements only in part: OPEN of random
# files (FOR RANDOM, "R", ACCESS, LOCK), KEY n, "text" and KEY LIST, WIDTH of a device or
# file, LPRINT's devices.  One of them that does not parse stays a compile error under
# --dialect ms, where other statements that do not parse stop with GW-BASIC's Syntax
# error when they run (parser.py): GW-BASIC may well run it.
PARTIAL_STATEMENTS = frozenset(("OPEN", "KEY", "WIDTH", "LPRINT"))

# Statements of Microsoft BASIC that are functions too (PLAY(n), SCREEN(r, c)): the lexer
# reads the word followed by `(` away from the start of a statement as the function.
STATEMENT_FUNCTIONS = frozenset(("PLAY", "SCREEN"))

# `NAME old AS new`: the word is a statement only where a statement starts (token
# NAME_FILE); anywhere else it is a reserved word, not a variable.
RENAME_WORD = "NAME"

WordKind = Literal["statement", "word"]


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A reserved word of a dialect that the grammar does not implement."""

    name: str
    kind: WordKind  # "word": part of a statement (PRINT USING, KEY OFF, DEF SEG)
    dialect: str  # as messages name it


_MICROSOFT_STATEMENTS = (
    # GW-BASIC 3.23 (its manual's statement and command list)
    "AUTO", "BLOAD", "BSAVE", "CALL", "CHAIN", "CHDIR", "CIRCLE", "COM", "COMMON", "CONT",
    "DATE$", "DELETE", "DRAW", "EDIT", "ENVIRON", "ERASE", "ERROR", "FIELD", "FILES", "GET",
    "IOCTL", "LINE", "LIST", "LLIST", "LOAD", "LOCATE", "LOCK", "LSET", "MERGE", "MKDIR",
    "MOTOR", "NEW", "OUT", "PAINT", "PALETTE", "PCOPY", "PEN", "POKE", "PRESET", "PSET",
    "PUT", "RENUM", "RESET", "RESUME", "RMDIR", "RSET", "RUN", "SAVE", "SHELL", "STRIG",
    "TIME$", "TIMER", "TROFF", "TRON", "UNLOCK", "VIEW", "WAIT", "WINDOW",
    # QBasic / QuickBASIC structured statements
    "FUNCTION", "REDIM",
)
_MICROSOFT_WORDS = ("SEG",)
_DARTMOUTH_STATEMENTS = ("CHANGE",)
# fmt: on

UNSUPPORTED: dict[str, Unsupported] = {
    **{w: Unsupported(w, "statement", "Microsoft BASIC") for w in _MICROSOFT_STATEMENTS},
    **{w: Unsupported(w, "word", "Microsoft BASIC") for w in _MICROSOFT_WORDS},
    **{w: Unsupported(w, "statement", "Dartmouth BASIC") for w in _DARTMOUTH_STATEMENTS},
}

# Statements of two words; a message names both (`ON ERROR`, `DEF SEG`).
TWO_WORD_STATEMENTS = frozenset((
    ("DEF", "SEG"), ("DEF", "USR"), ("END", "FUNCTION"),
    *(("ON", event) for event in ("ERROR", "KEY", "TIMER", "COM", "PEN", "PLAY", "STRIG")),
))  # fmt: skip

# The statements that cannot change what a program writes to a text stream, and why (a
# compile-time warning says it: passes/devices.py).
NO_EFFECT: dict[str, str] = {
    "CLS": "the output is a text stream, not a screen",
    "COLOR": "the output is plain text",
    "BEEP": "there is no sound",
    "SOUND": "there is no sound",
    "PLAY": "there is no sound",
    "KEY ON": "there is no function-key line",
    "KEY OFF": "there is no function-key line",
    "SCREEN": "text is the only mode",
    "WIDTH": "lines are 80 characters wide already",
    "CLEAR": "nothing has been assigned yet",
}

# Why a reserved statement or function is not supported, where the word alone does not
# say it (a note under the error).
_MACHINE = "it reads or writes the memory or ports of an IBM PC"
_PROGRAMS = "it loads or runs another program"
REASONS: dict[str, str] = {
    **dict.fromkeys(("POKE", "PEEK", "DEF SEG", "OUT", "INP", "WAIT", "VARPTR",
                     "VARPTR$", "BLOAD", "BSAVE"), _MACHINE),
    **dict.fromkeys(("CALL", "USR", "DEF USR"), "it calls machine code"),
    **dict.fromkeys(("RUN", "CHAIN", "MERGE", "LOAD", "NEW", "COMMON"), _PROGRAMS),
    "LOCATE": "it moves the cursor of a screen: the output here is a text stream",
    "CSRLIN": "it reads the cursor line of a screen: the output here is a text stream",
    "FRE": "it reports the free memory of an IBM PC",
}  # fmt: skip
