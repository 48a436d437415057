"""The reserved words that are not functions (those are in `builtins.py`).

`KEYWORDS` are the statement and operator words of the grammar: each is a token type
of the lexer.  `UNSUPPORTED` are the words of the supported dialects' statements and
operators that the grammar does not implement yet.  They are reserved too: the lexer
reports each one where it stands ("unsupported statement CLS (Microsoft BASIC)"), so that
`CLS` is never read as an assignment to a variable CLS, nor `ON COM(1) GOSUB 100` as an
ON ... GOSUB on an array COM.

Reserved words are whole names, as GW-BASIC has them: `LENGTH`, `TOTAL` and `PRINTER`
are variables although they start with LEN, TO and PRINT; `LEN`, `TO` and `PRINT` are
not.  (Strict ECMA-55 names are a letter and a digit, so no name collides there.)

Which words are reserved depends on the dialect.  Microsoft BASIC (--dialect ms) reserves
GW-BASIC's words, no others (PC-BASIC's token list is the oracle: `tests/test_dialects.py`):
the words of QBasic, Dartmouth and cuTile BASIC are names there, and the words of our
grammar that GW-BASIC lacks or reads only inside their statement are keywords only where
they stand in it (`MS_CONTEXT_WORDS`).  The other dialects reserve every word we know, so
that a program of another dialect gets a located error, not a variable it did not mean.
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
    "ERROR", "RESUME",  # ON ERROR GOTO, RESUME, ERROR n
    "TILE", "OUTPUT", "BID",  # cuTile BASIC
    "CHANGE",  # Dartmouth BASIC: a string to its character codes and back
    # Microsoft BASIC: files, PRINT USING, and the screen statements that do nothing on
    # a text stream.  (NAME, which renames a file, is the lexer's: see RENAME_WORD.)
    "USING", "LPRINT", "OPEN", "CLOSE", "WRITE", "KILL", "LINE",
    "MKDIR", "RMDIR", "CHDIR",  # Microsoft BASIC (GW-BASIC 3): folders
    "CLS", "COLOR", "BEEP", "KEY", "OFF", "SCREEN", "WIDTH", "SOUND", "PLAY", "SYSTEM", "CLEAR",
    "TRON", "TROFF",  # Microsoft BASIC's line trace
    "RESET",  # Microsoft BASIC: closes every file
    "ERASE",  # Microsoft BASIC: removes arrays
    "FIELD", "GET", "PUT", "LSET", "RSET",  # Microsoft BASIC's random-access files
))
# QuickBASIC / QBasic's structured statements (--dialect qbasic; grammar/structured.py).
# IS is a keyword only in a CASE statement (lexer.py): GW-BASIC programs may call a
# variable IS.
QBASIC_KEYWORDS = frozenset((
    "DO", "LOOP", "UNTIL", "EXIT", "SELECT", "CASE", "IS", "CONST",
    "SUB", "CALL", "DECLARE", "SHARED", "STATIC",  # CALL: a keyword before an unsupported word
    "FUNCTION",
    "DEFLNG",  # LONG (grammar/microsoft.py)
    "TYPE",  # records (grammar/records.py)
    "REDIM", "COMMON", "LBOUND", "UBOUND",  # grammar/records.py
))  # fmt: skip
KEYWORDS = KEYWORDS | QBASIC_KEYWORDS
# QuickBASIC's `AS` types and the suffix each stands for.
QBASIC_TYPES = {"INTEGER": "%", "LONG": "&", "SINGLE": "!", "DOUBLE": "#", "STRING": "$"}

# Statements whose GW-BASIC forms the grammar implements only in part: OPEN (ACCESS,
# LOCK), GET and PUT of graphics, KEY n, "text" and KEY LIST, WIDTH of a device or
# file, LPRINT's devices.  One of them that does not parse stays a compile error under
# --dialect ms, where other statements that do not parse stop with GW-BASIC's Syntax
# error when they run (parser.py): GW-BASIC may well run it.
PARTIAL_STATEMENTS = frozenset(("OPEN", "KEY", "WIDTH", "LPRINT", "GET", "PUT"))

# Microsoft BASIC's statements that extended BASIC accepts too, but that only programs
# written for Microsoft BASIC use: each pins --dialect ms when no dialect was chosen
# (docs/dialects.md, "Which dialect a program gets").  Files (OPEN ... FOR ... AS, PRINT #, INPUT #,
# LINE INPUT #, WRITE #, KILL, NAME) and PRINT USING do not: extended BASIC's programs
# use them.
# Each with what the note names.
MICROSOFT_EVIDENCE: dict[str, str] = {
    **{word: f"the statement {word}" for word in (
        "CLS", "COLOR", "BEEP", "SOUND", "PLAY", "CLEAR", "KEY", "SCREEN", "WIDTH", "SYSTEM",
        "LPRINT", "LINE INPUT", "SWAP", "WRITE")},
    "OPEN": "OPEN with a mode letter",
    "MID$": "the MID$ statement",
}  # fmt: skip

# Applesoft BASIC's screen statements that cannot change the text a program writes: a
# statement only where one stands alone (`HOME`, `HOME : PRINT`), a name anywhere else, as
# in GW-BASIC.  Each is read as a statement without effect (a warning says why), and pins
# --dialect ms as CLS does (Applesoft is a Microsoft BASIC).
APPLESOFT_SCREEN: dict[str, str] = {
    "HOME": "the output is a text stream, not a screen",
    "TEXT": "text is the only mode",
    "NORMAL": "the output is plain text",
    "INVERSE": "the output is plain text",
    "FLASH": "the output is plain text",
}
MICROSOFT_EVIDENCE.update(
    {word: f"Applesoft's statement {word}" for word in APPLESOFT_SCREEN}
)

# Statements of Microsoft BASIC that are functions too (PLAY(n), SCREEN(r, c)): the lexer
# reads the word followed by `(` away from the start of a statement as the function.
STATEMENT_FUNCTIONS = frozenset(("PLAY", "SCREEN"))

# `NAME old AS new`: the word is a statement only where a statement starts (token
# NAME_FILE); anywhere else it is a reserved word, not a variable.
RENAME_WORD = "NAME"

WordKind = Literal["statement", "word"]

# Where a word of the grammar that GW-BASIC does not reserve is the keyword under
# --dialect ms (anywhere else it is a name, as in GW-BASIC: `BASE = 3`, `TAB = 8`):
# "after OPTION"/"after FOR": right after that word; "file statement": in OPEN, NAME or
# DIM (`AS`); "statement": where a statement starts, not followed by `=` or `(` (`MAT A =
# B`, `ENDIF`, `OUTPUT C`); "call": followed by `(` (GW-BASIC's tokens are `TAB(` and
# `SPC(`); "never": a name (BID, cuTile BASIC's block index).
MsContext = Literal["after OPTION", "after FOR", "file statement", "statement", "call", "never"]
MS_CONTEXT_WORDS: dict[str, tuple[MsContext, ...]] = {
    "BASE": ("after OPTION",),
    "AS": ("file statement",),
    "OUTPUT": ("after FOR", "statement"),
    "MAT": ("statement",),
    "ELSEIF": ("statement",),
    "ENDIF": ("statement",),
    "TILE": ("statement",),
    "TAB": ("call",),
    "SPC": ("call",),
    "BID": ("never",),
    "CHANGE": ("never",),
    # QuickBASIC's statements are names in GW-BASIC (CALL and COMMON are GW-BASIC's too).
    **{word: ("never",) for word in sorted(QBASIC_KEYWORDS - {"CALL", "COMMON"})},
}


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A reserved word of a dialect that the grammar does not implement."""

    name: str
    kind: WordKind  # "word": part of a statement (PRINT USING, KEY OFF, DEF SEG)
    dialect: str  # as messages name it

    def reserved_in(self, dialect: str | None) -> bool:
        """Whether the word is reserved in `dialect` (None: not chosen yet): Microsoft
        BASIC reserves GW-BASIC's statements only; a word that is only part of one (SEG
        of DEF SEG) is a name there, as AS and BASE are."""
        return dialect != "ms" or (self.dialect == MICROSOFT and self.kind == "statement")


_MICROSOFT_STATEMENTS = (
    # GW-BASIC 3.23 (its manual's statement and command list)
    "AUTO", "BLOAD", "BSAVE", "CALL", "CHAIN", "CIRCLE", "COM", "COMMON", "CONT",
    "DATE$", "DELETE", "DRAW", "EDIT", "ENVIRON", "FILES",
    "IOCTL", "LINE", "LIST", "LLIST", "LOAD", "LOCATE", "LOCK", "MERGE",
    "MOTOR", "NEW", "OUT", "PAINT", "PALETTE", "PCOPY", "PEN", "POKE", "PRESET", "PSET",
    "RENUM", "RUN", "SAVE", "SHELL", "STRIG",
    "TIME$", "TIMER", "UNLOCK", "VIEW", "WAIT", "WINDOW",
    # GW-BASIC reserves these too (PC-BASIC's tokens)
    "CALLS", "LCOPY",
)
# QBasic / QuickBASIC structured statements (names in GW-BASIC)
_QBASIC_STATEMENTS: tuple[str, ...] = ()  # none left: every one is implemented
_MICROSOFT_WORDS = ("SEG",)
_DARTMOUTH_STATEMENTS: tuple[str, ...] = ()  # none left: CHANGE is implemented
# fmt: on

MICROSOFT = "Microsoft BASIC"
UNSUPPORTED: dict[str, Unsupported] = {
    **{w: Unsupported(w, "statement", MICROSOFT) for w in _MICROSOFT_STATEMENTS},
    **{w: Unsupported(w, "statement", "QBasic") for w in _QBASIC_STATEMENTS},
    **{w: Unsupported(w, "word", MICROSOFT) for w in _MICROSOFT_WORDS},
    **{w: Unsupported(w, "statement", "Dartmouth BASIC") for w in _DARTMOUTH_STATEMENTS},
}

# Statements of two words; a message names both (`ON ERROR`, `DEF SEG`).
TWO_WORD_STATEMENTS = frozenset((
    ("DEF", "SEG"), ("DEF", "USR"),
    *(("ON", event) for event in ("KEY", "TIMER", "COM", "PEN", "PLAY", "STRIG")),
))  # fmt: skip

# The statements that cannot change what a program writes to a text stream, and why (a
# compile-time warning says it: passes/check/devices.py).
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
    **APPLESOFT_SCREEN,
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
}  # fmt: skip
