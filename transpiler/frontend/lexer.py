"""The BASIC lexer: one source line at a time, built with PLY's `lex`.

`parser.py` hands the lexer the text of one line, positioned after the line number,
and pulls tokens from it.  Keywords, names and function names are case-insensitive
and come out upper-cased; strings keep their case.  Three constructs are read raw,
because their text is not made of tokens:

- `REM ...` and `' ...` comments run to the end of the line;
- `DATA ...` runs to the end of the line (extended mode: to a `:` outside quotes),
  so that `DATA ABC, D E F` works; `_data_items.py` splits it into items.

Reserved words come from two tables: `keywords.py` (the grammar's keywords, and the
statement and operator words of the dialects that are not implemented) and
`builtins.py` (every built-in function, token FUNC).  A reserved word that is not
implemented (`CLS`, `STR$`, `ON ERROR`) is a located error here, in every mode, so it
can never become a variable or an implicit array.

A lexical error (an illegal character, an unterminated string, an unsupported word)
raises `BasicSyntaxError` at once: the parser recovers at the next line.  Deviations from
ECMA-55 that the lexer notices in strict mode are fatal too when the line would
otherwise be misread (`LETX=10` is a name, not LET X), and merely recorded in
`LineContext.errors` when the line can still be understood (an apostrophe comment).
"""

from __future__ import annotations

import re
import sys

from ply import lex

from ..errors import BasicSyntaxError, BasicWarning, Coord
from ..language.builtins import BUILTINS, DIALECT_NAMES, FUNCTION_NAMES
from ..language.keywords import (
    APPLESOFT_SCREEN,
    KEYWORDS,
    MS_CONTEXT_WORDS,
    REASONS,
    RENAME_WORD,
    STATEMENT_FUNCTIONS,
    TWO_WORD_STATEMENTS,
    UNSUPPORTED,
)
from ..options import MICROSOFT_DIALECTS, Dialect

# fmt: off
tokens = tuple(sorted(KEYWORDS)) + (
    "NAME",    # a variable or array name: X, A1, A$, COUNT%
    "FNNAME",  # a user function: FNA, FNSQUARE
    "FUNC",    # a built-in function name (transpiler/language/builtins.py)
    "NUMBER",  # the spelling of a numeric constant: 1, 1.5, .5, 1E10, 5.
    "STRING",  # the characters between the quotes
    "PLUS", "MINUS", "TIMES", "DIVIDE", "POW", "INTDIV",
    "EQ", "NE", "LT", "GT", "LE", "GE",
    "LPAREN", "RPAREN", "COMMA", "SEMI", "COLON",
    "MOD_TIMES",  # MOD outside Microsoft BASIC, which binds as * and / do
    "HASH",       # the '#' before a file number: PRINT #1, ...
    "NAME_FILE",  # the statement NAME old AS new (renames a file)
    "SUBNAME",    # QuickBASIC: a SUB's name starting a statement (a call without CALL)
    "SYNTAX_FAULT",  # a statement that does not parse, blanked out (parser.py, --dialect ms)
    "FIELD_NAME",  # QuickBASIC: `.x` of a record element, a(i).x (grammar/records.py)
)
# fmt: on

# A name in strict ECMA-55: a letter and an optional digit, or a letter and `$`.
_ECMA55_NAME = re.compile(r"[A-Z][0-9]?|[A-Z]\$")
_ECMA55_FN_NAME = re.compile(r"FN[A-Z]")


class DataText:
    """The raw text of a DATA statement: `text` starts at 0-based column `start`;
    `after_branch_word`: the DATA comes right after THEN or ELSE (see `ast.Data.read`)."""

    __slots__ = ("after_branch_word", "start", "text")

    def __init__(self, text: str, start: int, after_branch_word: bool = False):
        self.text = text
        self.start = start
        self.after_branch_word = after_branch_word


class LineContext:
    """What the lexer and the grammar actions share while one file is parsed."""

    __slots__ = (
        "body", "comment", "crunch", "cut_at", "dialect", "errors", "file", "keep_whole",
        "line", "pins", "qbasic_pins", "rem_start", "splits", "strict", "sub_names",
        "syntax_faults", "warnings",
    )  # fmt: skip

    def __init__(self, file: str, strict: bool, dialect: Dialect | None = None):
        self.file = file
        self.strict = strict
        # The dialect the user chose (None: not chosen; see `microsoft_only`).
        self.dialect: Dialect | None = "ecma55" if strict else dialect
        # Constructs that only Microsoft BASIC has, in text order, while the dialect is
        # not chosen: (what, where).  The first one pins the program to --dialect ms.
        self.pins: list[tuple[str, Coord]] = []
        # Likewise the constructs that only QuickBASIC has: they pin --dialect qbasic.
        self.qbasic_pins: list[tuple[str, Coord]] = []
        # QuickBASIC: the names of the program's SUBs (`MySub a, b` calls one).
        self.sub_names: frozenset[str] = frozenset()
        self.line = 0
        # Errors that do not stop the line from being parsed (strict-mode findings).
        self.errors: list[BasicSyntaxError] = []
        # What --dialect ms accepts only because GW-BASIC does (lines out of order, a
        # line that runs into a Syntax error): located warnings.
        self.warnings: list[BasicWarning] = []
        # An apostrophe comment on the current line: (text, 0-based column of the ').
        self.comment: tuple[str, int] | None = None
        # 0-based column where REM text starts on the current line (exempt from checks).
        self.rem_start: int | None = None
        # 0-based column where the statements of the current line start.
        self.body = 0
        # The line is read as a crunched one: reserved words anywhere (`_crunched`).
        self.crunch = False
        # While crunched: the reserved words found inside longer words, as (0-based
        # column, length); the column of one to leave inside its word (parser.py's
        # ambiguity check); the column where the last word was cut.
        self.splits: list[tuple[int, int]] = []
        self.keep_whole = -1
        self.cut_at = -1
        # Statements of the current line that do not parse, blanked out with NUL bytes by
        # the parser to be read as SYNTAX_FAULT: 0-based start column -> the error.
        self.syntax_faults: dict[int, BasicSyntaxError] = {}

    def start_line(self, line: int) -> None:
        self.line = line
        self.comment = None
        self.rem_start = None

    def microsoft_evidence(self, what: str, coord: Coord) -> None:
        """`what`, at `coord`, is a construct that extended BASIC accepts too but that
        marks a Microsoft BASIC program (docs/dialects.md, "Which dialect a program gets"): a pin
        towards --dialect ms when no dialect was chosen, nothing otherwise."""
        if self.dialect is None:
            self.pins.append((what, coord))

    def dialect_name(self) -> str:
        return DIALECT_NAMES[self.dialect or "extended"]

    def coord(self, lexpos: int, length: int = 1) -> Coord:
        return Coord(self.file, self.line, lexpos + 1, length)

    def error(self, message: str, lexpos: int, length: int = 1) -> BasicSyntaxError:
        return BasicSyntaxError(message, self.coord(lexpos, length))

    def qbasic_only(self, what: str, coord: Coord) -> None:
        """`what`, at `coord`, is a construct of QuickBASIC / QBasic (DO ... LOOP...): fine
        in --dialect qbasic, a pin towards it when no dialect was chosen, an error recorded
        for the line in the other dialects (the line is still parsed)."""
        if self.dialect == "qbasic":
            return
        if self.dialect is None:
            self.qbasic_pins.append((what, coord))
        elif self.dialect == "ecma55":
            self.errors.append(BasicSyntaxError(f"{what} is not ECMA-55 Minimal BASIC", coord))
        else:
            self.errors.append(
                BasicSyntaxError(
                    f"{what} is QuickBASIC, not {DIALECT_NAMES[self.dialect]}",
                    coord,
                    notes=("--dialect qbasic accepts it",),
                )
            )

    def microsoft_only(self, what: str, coord: Coord) -> None:
        """`what`, at `coord`, is a construct that only Microsoft BASIC has: fine in
        --dialect ms, a pin towards it when no dialect was chosen, an error recorded for
        the line in the other dialects (the line is still parsed)."""
        if self.dialect in MICROSOFT_DIALECTS:
            return
        if self.dialect is None:
            self.pins.append((what, coord))
        elif self.dialect == "ecma55":
            self.errors.append(BasicSyntaxError(f"{what} is not ECMA-55 Minimal BASIC", coord))
        else:
            self.errors.append(
                BasicSyntaxError(
                    f"{what} is Microsoft BASIC, not {DIALECT_NAMES[self.dialect]}",
                    coord,
                    notes=("--dialect ms accepts it",),
                )
            )


def token_length(tok) -> int:
    """How many source characters a token spans."""
    kind = tok.type
    if kind == "STRING":
        return len(tok.value) + (1 if getattr(tok, "open", False) else 2)
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
    r"[A-Z][A-Z0-9_.]*([$%!\#]|&(?!H[0-9A-F]|O?[0-7]))?"
    word = t.value.upper()
    ctx = t.lexer.ctx
    if "." in word:
        word = _dotted(t, word)
    if word[-1] == "&":  # QuickBASIC's LONG suffix (`&H1F` and `&17` stay constants)
        ctx.qbasic_only(f"the LONG suffix '&' ({word})", ctx.coord(t.lexpos, len(word)))
    if word == "ONERR" and _applesoft_onerr(t):
        raise _onerr_unsupported(t)
    if word in APPLESOFT_SCREEN and _alone_as_statement(t, word):
        t.type = "CLS"  # a statement without effect, as CLS (grammar/devices.py)
        t.value = word
        return t
    if ctx.crunch:
        word = _crunched(t, word)
    if word in STATEMENT_FUNCTIONS and _function_call(t):
        raise _unsupported(t, word)  # PLAY(n), SCREEN(r, c): functions as well as statements
    if word[-1] in "!#":
        if reserved_word(
            word[:-1], ctx.dialect
        ):  # `PRINT#1`: the `#` of a file number, not a suffix
            word = word[:-1]
            t.lexer.lexpos -= 1
        else:
            precision = "double" if word[-1] == "#" else "single"
            ctx.microsoft_only(
                f"the {precision}-precision suffix '{word[-1]}'", ctx.coord(t.lexpos, len(word))
            )
    t.value = word
    if word == "FN" and ctx.dialect in MICROSOFT_DIALECTS:
        if ctx.dialect == "ms":
            _spaced_function_name(t)
        if t.type == "FNNAME":
            return t
        raise ctx.error(
            "FN is a reserved word of Microsoft BASIC (a DEF FN function's name follows it), "
            "not a name",
            t.lexpos,
            len(word),
        )
    if word in ctx.sub_names and _starts_statement(ctx, t.lexer.lexdata, t.lexpos):
        t.type = "SUBNAME"  # QuickBASIC's call of a SUB without CALL
    elif word == "IS" and not _in_case(ctx, t.lexer.lexdata, t.lexpos):
        pass  # a name: IS is QuickBASIC's keyword only in `CASE IS < 3`
    elif word in KEYWORDS and _keyword_here(t, word):
        t.type = word
        if word == "MOD" and ctx.dialect not in MICROSOFT_DIALECTS:
            # GW-BASIC's MOD binds less tightly than * and / (`7 MOD 2 * 3` is 1); the
            # other dialects' as tightly (3): two tokens, two precedences.
            t.type = "MOD_TIMES"
        if word == "REM":
            _read_remark(t, t.lexpos + 3)
        elif word == "DATA":
            _read_data(t, ctx)
        elif word == "LINE" and not _LINE_INPUT.match(t.lexer.lexdata, t.lexer.lexpos):
            raise _unsupported(t, word)  # LINE graphics; LINE INPUT [#] is a statement
    elif word == RENAME_WORD:
        if not _starts_statement(ctx, t.lexer.lexdata, t.lexpos):
            raise ctx.error(
                f"{word} is a reserved word of Microsoft BASIC, not a name", t.lexpos, len(word)
            )
        t.type = "NAME_FILE"
    elif word in FUNCTION_NAMES and BUILTINS[word].reserved_in(ctx.dialect):
        t.type = "FUNC"
        if (not BUILTINS[word].implemented and not _len_clause(t, word)) or _unsupported_statement(
            t, word
        ):
            raise _unsupported(t, word)
    elif word in UNSUPPORTED and UNSUPPORTED[word].reserved_in(ctx.dialect):
        raise _unsupported(t, word)
    elif word in UNSUPPORTED and _second_of_two_words(t, word):
        raise _unsupported(t, word)  # DEF SEG, END SUB under --dialect ms
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


_GOTO_AFTER = re.compile(r"[ \t]*GO[ \t]*TO", re.IGNORECASE)


def _applesoft_onerr(t) -> bool:
    """Whether the word ONERR starts a statement `ONERR GOTO n`: Applesoft's error trap,
    which Microsoft's other tokenizers would read as `ON ERR GOTO n`, a jump on the value
    of ERR (0 before any error: no jump)."""
    text = t.lexer.lexdata
    return _starts_statement(t.lexer.ctx, text, t.lexpos) and bool(
        _GOTO_AFTER.match(text, t.lexpos + len("ONERR"))
    )


_STATEMENT_END = re.compile(r"[ \t]*(?:[:'\r\n]|$|ELSE\b)", re.IGNORECASE)


def _alone_as_statement(t, word: str) -> bool:
    """Whether `word` is a whole statement: it starts one, and `:`, the line's end, a
    comment or ELSE follows it (`HOME`, not `HOME = 3`)."""
    text = t.lexer.lexdata
    return _starts_statement(t.lexer.ctx, text, t.lexpos) and bool(
        _STATEMENT_END.match(text, t.lexpos + len(word))
    )


def _onerr_unsupported(t) -> BasicSyntaxError:
    return BasicSyntaxError(
        "unsupported statement ONERR GOTO (Applesoft BASIC)",
        t.lexer.ctx.coord(t.lexpos, len("ONERR")),
        notes=(
            (
                "its trap stays set after the handler jumps away, and the handler reads the "
                "error's code with PEEK(222): Microsoft BASIC's ON ERROR GOTO and ERR differ"
            ),
        ),
    )


def _dotted(t, word: str) -> str:
    """A name with `.` in it (`PLAYER.X`): an ordinary name in GW-BASIC and QuickBASIC
    (without TYPE records), even after a reserved word (`PRINT.5` is a name, and a
    Syntax error as a statement, in PC-BASIC)."""
    ctx = t.lexer.ctx
    ctx.microsoft_only(f"the '.' in the name {word}", ctx.coord(t.lexpos, len(word)))
    return word


_LINE_INPUT = re.compile(r"[ \t]*INPUT", re.IGNORECASE)
_NAME_AFTER_SPACE = re.compile(r"[ \t]+([A-Z][A-Z0-9_]*[$%!\#]?)", re.IGNORECASE)


def _spaced_function_name(t) -> None:
    """`FN ST(A#)`: GW-BASIC's FN is a token of its own, so the name of a user function
    may follow it after spaces (the function is FNST)."""
    following = _NAME_AFTER_SPACE.match(t.lexer.lexdata, t.lexer.lexpos)
    if following is not None:
        t.type = "FNNAME"
        t.value = "FN" + following.group(1).upper()
        t.lexer.lexpos = following.end()


def reserved_word(word: str, dialect: Dialect | None) -> bool:
    """Whether `word` is a reserved word of `dialect` (None: not chosen yet)."""
    if word == RENAME_WORD:
        return True
    if word in KEYWORDS:
        return dialect != "ms" or word not in MS_CONTEXT_WORDS
    if word in BUILTINS:
        return BUILTINS[word].reserved_in(dialect)
    return word in UNSUPPORTED and UNSUPPORTED[word].reserved_in(dialect)


# The words that Microsoft BASIC reads otherwise than extended BASIC: names there
# (`SUM`, `BASE`...), and MOD, which binds less tightly.
_READ_OTHERWISE_UNDER_MS = (
    frozenset(
        word
        for word in KEYWORDS | BUILTINS.keys() | UNSUPPORTED.keys()
        if reserved_word(word, None) and not reserved_word(word, "ms")
    )
    | MS_CONTEXT_WORDS.keys()
    | {"MOD"}
)
_WORD = re.compile(r"[A-Z][A-Z0-9_]*\$?", re.IGNORECASE)


def reads_differently_under_ms(text: str) -> bool:
    """Whether a program may read otherwise under --dialect ms than as extended BASIC:
    it has a word of `_READ_OTHERWISE_UNDER_MS` (a word inside a string counts too)."""
    return any(word.upper() in _READ_OTHERWISE_UNDER_MS for word in _WORD.findall(text))


def _keyword_here(t, word: str) -> bool:
    """Whether a keyword of the grammar is the keyword here: always, except under
    --dialect ms for the words GW-BASIC does not reserve (keywords.MS_CONTEXT_WORDS),
    which are keywords only in their place in their statement, names elsewhere."""
    ctx = t.lexer.ctx
    contexts = MS_CONTEXT_WORDS.get(word)
    if ctx.dialect != "ms" or contexts is None:
        return True
    text = t.lexer.lexdata
    following = text[t.lexer.lexpos :].lstrip(" \t")[:1]
    previous = _WORD_AT_END.search(text[ctx.body : t.lexpos].rstrip())
    previous_word = previous.group(1).upper() if previous else ""
    for context in contexts:
        if context == "call" and following == "(":
            return True
        if context in ("after OPTION", "after FOR") and previous_word == context[6:]:
            return True
        if (
            context == "statement"
            and following not in ("=", "(")
            and _starts_statement(ctx, text, t.lexpos)
        ):
            return True
        if context == "file statement" and statement_word(ctx, text, t.lexpos) in _AS_STATEMENTS:
            return True
    return False


# The statements with an AS clause: OPEN ... AS #n, NAME old AS new, DIM A(N) AS F16,
# FIELD #n, 20 AS N$.
_AS_STATEMENTS = frozenset(("OPEN", "NAME", "DIM", "FIELD"))
_STRING_OR_WORD = re.compile(r'"[^"]*"?|[A-Z][A-Z0-9_]*[$%!#]?|:', re.IGNORECASE)


def statement_word(ctx: LineContext, text: str, pos: int) -> str:
    """The first word of the statement that column `pos` is in."""
    first = ""
    starts = True
    for found in _STRING_OR_WORD.finditer(text, ctx.body, pos):
        item = found.group(0).upper()
        if item == ":" or item in ("THEN", "ELSE"):
            starts = True
        elif starts:
            first, starts = item, False
    return first


def _second_of_two_words(t, word: str) -> bool:
    """Whether a word that is not reserved here ends a two-word statement that is
    (`DEF SEG` under --dialect ms, where SEG alone is a name)."""
    ctx = t.lexer.ctx
    previous = _WORD_AT_END.search(t.lexer.lexdata[ctx.body : t.lexpos].rstrip())
    return previous is not None and (previous.group(1).upper(), word) in TWO_WORD_STATEMENTS


_EQUALS = re.compile(r"[ \t]*=")


def _function_call(t) -> bool:
    """Is the word at `t` followed by `(` away from the start of a statement?"""
    text = t.lexer.lexdata
    return text[t.lexer.lexpos :].lstrip(" \t").startswith("(") and not _starts_statement(
        t.lexer.ctx, text, t.lexpos
    )


def _len_clause(t, word: str) -> bool:
    """`LEN = 128` in OPEN (the record length), which is not a call of LEN."""
    text = t.lexer.lexdata
    return (
        word == "LEN"
        and _EQUALS.match(text, t.lexer.lexpos) is not None
        and not _starts_statement(t.lexer.ctx, text, t.lexpos)
    )


# The reserved words of any dialect.
_RESERVED = KEYWORDS | FUNCTION_NAMES | UNSUPPORTED.keys()
# The reserved words a crunched line is read with, longest first (INPUT before INP):
# Microsoft BASIC's; the words of QBasic, Dartmouth, cuTile BASIC and our extensions
# stay inside names there (`DONE`, `SUBTOTAL`, `TILES`).
_NOT_CRUNCHED = frozenset((
    "CASE", "CONST", "DECLARE", "DO", "EXIT", "FUNCTION", "LOOP", "REDIM", "SELECT", "SUB",
    "CHANGE", "MAT", "ELSEIF", "ENDIF", "TILE", "OUTPUT", "BID",
))  # fmt: skip
_CRUNCH_WORDS = re.compile(
    "|".join(
        re.escape(word)
        for word in sorted(_RESERVED - _NOT_CRUNCHED, key=len, reverse=True)
        if word not in BUILTINS or "ms" in BUILTINS[word].dialects
    )
)


def _crunched(t, word: str) -> str:
    """A word as Microsoft's tokenizer of the 1970s (Altair BASIC, MBASIC) read it,
    finding reserved words anywhere in it: `FORI` is FOR, `BTHEN100` is B; the lexer goes
    on after what is returned (`_statements` in parser.py tries this reading for a line
    that does not parse with whole-word keywords).  A reserved word that is not a whole
    word of the text is recorded in `ctx.splits`, unless it is the one that
    `ctx.keep_whole` leaves in a name."""
    ctx = t.lexer.ctx
    found = _CRUNCH_WORDS.search(word)
    kept = found is not None and t.lexpos + found.start() == ctx.keep_whole
    if kept and (found.start() > 0 or found.end() < len(word)):
        # It stays in a name with a letter after it at least (THENPRINT is no THEN then);
        # `ctx.keep_whole` says it was kept (a word of its own cannot be).
        ctx.keep_whole = -1
        found = _CRUNCH_WORDS.search(word, found.end() + 1)
    if found is None:
        return word
    if found.start() > 0:
        cut = found.start()
    else:
        cut = found.end()
        if cut < len(word) or t.lexpos == ctx.cut_at:
            ctx.splits.append((t.lexpos, cut))
    if cut < len(word):
        t.lexer.lexpos = ctx.cut_at = t.lexpos + cut
    return word[:cut]


# A word as the lexer reads names (to find the words around a reserved one).
_WORD_AT_END = re.compile(r"([A-Z][A-Z0-9_]*[$%]?)$", re.IGNORECASE)
_WORD_AT_START = re.compile(r"[ \t]*([A-Z][A-Z0-9_]*[$%]?)", re.IGNORECASE)


def _unsupported(t, word: str) -> BasicSyntaxError:
    """The error for a reserved word of a dialect that is not implemented: a statement
    (of one or two words), a function, an operator, or a reserved word used as a name."""
    ctx = t.lexer.ctx
    text = t.lexer.lexdata
    start, end = t.lexpos, t.lexpos + len(word)
    previous = _WORD_AT_END.search(text[ctx.body : start].rstrip())
    if previous and (previous.group(1).upper(), word) in TWO_WORD_STATEMENTS:
        first = ctx.body + previous.start(1)
        words = f"{previous.group(1).upper()} {word}"
        return _with_reason(ctx.error(_statement_message(words), first, end - first), words)
    following = _WORD_AT_START.match(text, end)
    if following and (word, following.group(1).upper()) in TWO_WORD_STATEMENTS:
        words = f"{word} {following.group(1).upper()}"
        error = ctx.error(_statement_message(words), start, following.end() - start)
        return _with_reason(error, words)
    statement_start = _starts_statement(ctx, text, start)
    reserved = UNSUPPORTED.get(word)
    if reserved is not None and reserved.kind == "statement" and statement_start:
        return _with_reason(ctx.error(_statement_message(word), start, len(word)), word)
    function = BUILTINS.get(word)
    if function is not None:
        message = f"unsupported function {word} ({function.dialect_name()})"
        # At the start of a statement it was probably meant as a variable (`LEN = 3`).
        notes = (f"{word} is a reserved word: a variable needs another name",)
        error = BasicSyntaxError(
            message, ctx.coord(start, len(word)), notes=notes if statement_start else ()
        )
        return _with_reason(error, word)
    return ctx.error(
        f"{word} is a reserved word of {reserved.dialect}, not a name", start, len(word)
    )


def _with_reason(error: BasicSyntaxError, words: str) -> BasicSyntaxError:
    """The error with a note saying why the words are not supported (keywords.REASONS)."""
    reason = REASONS.get(words)
    if reason is not None:
        error.notes = (*error.notes, f"{words} is not supported: {reason}")
    return error


def _unsupported_statement(t, word: str) -> bool:
    """Whether a function's name stands for an unsupported statement of the same name
    (`TIMER ON`, `ON TIMER(60) GOSUB 100`: GW-BASIC's event trapping)."""
    if word not in UNSUPPORTED:
        return False
    ctx = t.lexer.ctx
    text = t.lexer.lexdata
    previous = _WORD_AT_END.search(text[ctx.body : t.lexpos].rstrip())
    if previous and (previous.group(1).upper(), word) in TWO_WORD_STATEMENTS:
        return True
    following = _WORD_AT_START.match(text, t.lexpos + len(word))
    switch = following is not None and following.group(1).upper() in ("ON", "OFF", "STOP")
    return switch and _starts_statement(ctx, text, t.lexpos)


_CASE_WORD = re.compile(r"[ \t]*CASE\b", re.IGNORECASE)


_SUB_DEFINITION = re.compile(
    r"^[ \t]*(?:DECLARE[ \t]+)?SUB[ \t]+([A-Z][A-Z0-9_.]*)", re.IGNORECASE | re.MULTILINE
)


def sub_names(text: str) -> frozenset[str]:
    """The names of the SUBs a QuickBASIC program defines or declares."""
    return frozenset(name.upper() for name in _SUB_DEFINITION.findall(text))


def _in_case(ctx: LineContext, text: str, pos: int) -> bool:
    """Whether column `pos` is inside a CASE statement (where IS is a keyword): the
    statement it is in, after the last ':', starts with CASE."""
    return _CASE_WORD.match(text[ctx.body : pos].rsplit(":", 1)[-1]) is not None


def _starts_statement(ctx: LineContext, text: str, pos: int) -> bool:
    """Whether a statement starts at column `pos`: the first on the line, or after ':',
    THEN or ELSE."""
    before = text[ctx.body : pos].rstrip()
    if not before or before.endswith(":"):
        return True
    previous = _WORD_AT_END.search(before)
    return previous is not None and previous.group(1).upper() in ("THEN", "ELSE")


def _statement_message(words: str) -> str:
    for word in reversed(words.split()):
        if word in UNSUPPORTED:
            return f"unsupported statement {words} ({UNSUPPORTED[word].dialect})"
        if word in BUILTINS and not BUILTINS[word].implemented:
            return f"unsupported statement {words} ({BUILTINS[word].dialect_name()})"
    raise AssertionError(words)


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
    before = text[ctx.body : t.lexpos].rstrip(" \t").upper()
    t.value = DataText(text[start:end], start, before.endswith(("THEN", "ELSE")))
    lexer.lexpos = end


def t_SYNTAX_FAULT(t):
    r"\x00+"
    # Only where the parser blanked a statement out; a NUL in the file is no BASIC.
    if t.lexpos not in t.lexer.ctx.syntax_faults:
        t_error(t)
    return t


def t_HASH(t):
    r"\#"
    # `PRINT #1`, `CLOSE #1, #2`, `OPEN "I", #1, F$` (a type suffix, `X#` or `1#`, is
    # part of its name or number).
    return t


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
    # Microsoft BASIC (GW-BASIC, Applesoft, Commodore) ends a string left open at the end
    # of the line; ECMA-55 does not.
    ctx = t.lexer.ctx
    if ctx.strict:
        raise ctx.error("unterminated string", t.lexpos, len(t.value))
    t.type = "STRING"
    t.value = t.value[1:]
    t.open = True
    return t


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


def t_NUMBER(t):
    r"&H[0-9A-F]+&?|&O?[0-7]+&?|(\d+\.?\d*|\.\d+)([ED][+-]?\d+)?[!\#%&]?|\.(?![A-Z0-9_])"
    # The value is the grammar's (grammar/expressions.py); what only Microsoft BASIC
    # writes pins the dialect here: &H/&O constants, a D exponent, a type suffix.
    # A `.` alone is 0 in Microsoft BASIC (`PRINT .` prints 0).
    text = t.value
    if text == ".":
        t.value = "0"
        t.lexer.ctx.microsoft_only("'.' alone for 0", t.lexer.ctx.coord(t.lexpos))
        return t
    if t.lexer.ctx.dialect == "ms" and text.isdigit():
        _ignore_after_line_number(t)
    if text.endswith("&"):
        ctx = t.lexer.ctx
        ctx.qbasic_only(f"the LONG constant {text}", ctx.coord(t.lexpos, len(text)))
    microsoft = _MICROSOFT_NUMBER.search(text)
    if microsoft:
        ctx = t.lexer.ctx
        ctx.microsoft_only(
            _MICROSOFT_NUMBER_WHAT[microsoft.group(0)[0].upper()], ctx.coord(t.lexpos, len(text))
        )
    return t


def t_FIELD_NAME(t):
    r"\.[A-Z][A-Z0-9_]*(\.[A-Z][A-Z0-9_]*)*"
    # `.x` after `a(i)`: a field of a record element (a name with `.` is one NAME).
    ctx = t.lexer.ctx
    ctx.qbasic_only("a field of a record element", ctx.coord(t.lexpos, len(t.value)))
    t.value = t.value.upper()
    return t


# After GOTO n, GOSUB n, THEN n and ELSE n, GW-BASIC never reads the rest of the
# statement (RETURN skips it as DATA is skipped): `GOSUB 100MEDIAN` is GOSUB 100.
_JUMP_WORD = re.compile(r"(?<![A-Z0-9_$%])(GO[ \t]*(TO|SUB)|THEN|ELSE)[ \t]*$", re.IGNORECASE)
_IGNORED_TAIL = re.compile(
    r"[ \t]*(?!ELSE(?![A-Z0-9_]))[A-Z][^:]*?(?=:|(?<![A-Z0-9_])ELSE(?![A-Z0-9_])|$)", re.IGNORECASE
)


def _ignore_after_line_number(t) -> None:
    """Skip a name written after the line number of GOTO, GOSUB, THEN or ELSE (and the
    first of ON ... GOSUB), up to the end of the statement (`:`, ELSE or the end of the
    line), with a warning."""
    lexer = t.lexer
    text = lexer.lexdata
    ctx = lexer.ctx
    if _JUMP_WORD.search(text, ctx.body, t.lexpos) is None:
        return
    tail = _IGNORED_TAIL.match(text, lexer.lexpos)
    if tail is None:
        return
    start = lexer.lexpos + len(tail.group(0)) - len(tail.group(0).lstrip(" \t"))
    ignored = text[start : tail.end()].rstrip()
    ctx.warnings.append(
        BasicWarning(
            f"'{ignored}' after the line number is ignored, as GW-BASIC ignores it",
            ctx.coord(start, len(ignored)),
        )
    )
    lexer.lexpos = tail.end()


_MICROSOFT_NUMBER = re.compile(r"^&|D|[!#%]$", re.IGNORECASE)
_MICROSOFT_NUMBER_WHAT = {
    "&": "a hexadecimal or octal constant",
    "D": "a double-precision exponent 'D'",
    "!": "a single-precision constant '!'",
    "#": "a double-precision constant '#'",
    "%": "an integer constant '%'",
}


def t_QUESTION(t):
    r"\?"
    # `?` is PRINT in Microsoft BASIC (its tokenizer stores the same token for both),
    # where a statement starts; anywhere else it is no token.
    ctx = t.lexer.ctx
    if not _starts_statement(ctx, t.lexer.lexdata, t.lexpos):
        raise ctx.error("unexpected character '?'", t.lexpos)
    ctx.microsoft_only("'?' for PRINT", ctx.coord(t.lexpos))
    t.type = "PRINT"
    t.value = "PRINT"
    return t


def t_INTDIV(t):
    r"\\"
    ctx = t.lexer.ctx
    ctx.microsoft_only("integer division '\\'", ctx.coord(t.lexpos))
    return t


def t_NE(t):
    r"<[ \t]*>|>[ \t]*<"
    return _relation(t, "<>")


def t_LE(t):
    r"<[ \t]*=|=[ \t]*<"
    return _relation(t, "<=")


def t_GE(t):
    r">[ \t]*=|=[ \t]*>"
    return _relation(t, ">=")


def t_BRACKET(t):
    r"\[|\]"
    # GW-BASIC reads brackets as parentheses: A[1] is A(1) (even A[1)); not ECMA-55.
    ctx = t.lexer.ctx
    if ctx.strict:
        ctx.errors.append(ctx.error(f"'{t.value}' is not ECMA-55 (write '(' and ')')", t.lexpos))
    t.type = "LPAREN" if t.value == "[" else "RPAREN"
    t.value = "(" if t.value == "[" else ")"
    return t


def _relation(t, spelling: str):
    """GW-BASIC's expression reader combines `<`, `=` and `>` however they are written:
    `=>`, `=<`, `><` and spaces between them (`> =`) are `>=`, `<=` and `<>` too
    (not in ECMA-55)."""
    ctx = t.lexer.ctx
    if t.value != spelling and ctx.strict:
        ctx.errors.append(
            ctx.error(f"'{t.value}' is not ECMA-55 (write '{spelling}')", t.lexpos, len(t.value))
        )
    t.value = spelling
    return t


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


def t_COLON(t):
    r":"
    # An empty statement (`::`, a `:` first, last, after THEN or ELSE or before an
    # apostrophe comment) is nothing, as in Microsoft BASIC; strict ECMA-55 has no `:` (the grammar says so).
    ctx = t.lexer.ctx
    if ctx.strict:
        return t
    text = t.lexer.lexdata
    after = text[t.lexer.lexpos :].lstrip(" \t")
    before = text[ctx.body : t.lexpos].strip(" \t:")
    if not after or after[0] in ":'" or not before:
        return None
    previous = _WORD_AT_END.search(before)
    if previous is not None and previous.group(1).upper() in ("THEN", "ELSE"):
        if _ends_statement_word(before[: previous.start(1)]):
            return t  # `ELSE: PRINT` first on its line (a block ELSE), `CASE ELSE: PRINT`
        return None  # `IF X THEN :PRINT`
    return t


def _ends_statement_word(head: str) -> bool:
    """Whether the text before an ELSE makes it a statement of its own: nothing (a block
    ELSE first on its line) or QuickBASIC's CASE."""
    head = head.rstrip(" \t")
    return not head or (head.upper().endswith("CASE") and not head[-5:-4].isalnum())


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
    lexer.ctx.body = start


def tokenize(
    text: str, *, strict: bool = False, dialect: Dialect | None = None, file: str = "<input>"
) -> list[lex.LexToken]:
    """All tokens of one line (a debugging and testing aid; the parser pulls lazily).

    Raises BasicSyntaxError on a lexical error; strict-mode findings that do not stop
    the lexer are left out (the parser reports them).
    """
    lexer = build_lexer(LineContext(file, strict, dialect))
    start_line(lexer, text, 1, 0)
    return list(iter(lexer.token, None))
