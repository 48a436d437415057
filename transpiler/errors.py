"""Source locations and the one error hierarchy of basic2tile.

Every AST node and every diagnostic carries a `Coord`.  Errors print as

    prog.bas:12:7: error: expected expression
       12 LET A = 5 +
                     ^

and the CLI prints them; nothing in the pipeline prints a traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SourceFile:
    """The text of one BASIC program, kept for quoting lines in diagnostics.

    The text ends at the first Ctrl-Z (0x1A), DOS's end-of-file mark, which GW-BASIC's
    LOAD stops at and DOS editors wrote after the last line (in every dialect: the byte
    is no BASIC text).  Lines end in LF, CRLF or a lone CR."""

    name: str
    text: str
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        end = self.text.find(DOS_END_OF_FILE)
        if end >= 0:
            object.__setattr__(self, "text", self.text[:end])
        object.__setattr__(self, "lines", tuple(self.text.splitlines()))

    @classmethod
    def read(cls, path: str | Path) -> "SourceFile":
        """The program in the file `path`; `-` reads it from standard input."""
        if str(path) == STDIN_PATH:
            stdin = sys.stdin
            raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
            return cls.decode(STDIN_NAME, raw)
        return cls.decode(str(path), Path(path).read_bytes())

    @classmethod
    def decode(cls, name: str, raw: bytes) -> "SourceFile":
        """BASIC sources are ASCII in practice; UTF-8 is decoded leniently (a stray byte is
        a located lexical error, not a UnicodeDecodeError) and its byte-order mark, which
        Windows editors write, is dropped.  UTF-16 and UTF-32 text is refused by name."""
        for mark, encoding in _WIDE_MARKS:
            if raw.startswith(mark):
                raise BasicError(
                    f"the file is {encoding} text: save it as UTF-8 or ASCII", Coord(name, 0, 0)
                )
        if raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        return cls(name, raw.decode("utf-8", errors="replace"))

    def line_text(self, line: int) -> str | None:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return None


DOS_END_OF_FILE = "\x1a"  # Ctrl-Z
STDIN_PATH = "-"  # the program path that means standard input
STDIN_NAME = "<stdin>"  # ... and its name in diagnostics
# Byte-order marks of the encodings that are not ASCII-compatible (UTF-32 LE first: its
# mark starts with UTF-16 LE's).
_WIDE_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


@dataclass(frozen=True, slots=True)
class Coord:
    """A position in a source file: 1-based line and column, optional span length."""

    file: str
    line: int
    column: int
    length: int = 1

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file  # a diagnostic about the whole file
        if self.column <= 0:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


UNKNOWN = Coord("<unknown>", 0, 0)


class BasicError(Exception):
    """Base of every diagnostic basic2tile reports about the user's program."""

    severity = "error"

    def __init__(self, message: str, coord: Coord | None = None, *, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.coord = coord if coord is not None else _current_coord()
        self.notes = notes

    def __str__(self) -> str:
        where = str(self.coord) if self.coord else "<unknown>"
        return f"{where}: {self.severity}: {self.message}"

    def render(self, source: SourceFile | None = None) -> str:
        """The message, the offending source line and a caret under the span."""
        out = [str(self)]
        coord = self.coord
        text = source.line_text(coord.line) if source and coord else None
        if text is not None:
            shown = text.expandtabs(8)
            out.append(f"    {_printable(shown)}")
            col = len(text[: max(coord.column - 1, 0)].expandtabs(8))
            width = max(1, min(coord.length, max(1, len(shown) - col)))
            out.append("    " + " " * col + "^" * width)
        out.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(out)


class BasicSyntaxError(BasicError):
    """The text is not a BASIC program (lexer or parser)."""


class BasicSemanticError(BasicError):
    """Well-formed but meaningless: undefined line, type clash, bad nesting..."""


class BasicUnsupportedError(BasicError):
    """Valid BASIC that a chosen target cannot express (for example a non power-of-two TILE)."""


class BasicRuntimeError(BasicError):
    """A fatal error while running the program (subscript out of range, READ past DATA...)."""


class BasicWarning(BasicError):
    """A non-fatal condition, e.g. division by zero, which ECMA-55 says to report and continue."""

    severity = "warning"


class BasicNote(BasicError):
    """Information about how the program was read (which dialect a construct pinned)."""

    severity = "note"


class InternalError(BasicError):
    """A bug in basic2tile itself; reported with the location being processed, exit status 2."""

    severity = "internal error"


class CompileErrors(Exception):
    """Several diagnostics reported together (the parser recovers per statement)."""

    def __init__(self, errors: list[BasicError]):
        self.errors = sorted(errors, key=lambda e: (e.coord.line, e.coord.column) if e.coord else (0, 0))
        # str() is the diagnostics themselves, a line each (`prog.bas:3:5: error: ...`):
        # what an API caller who prints the exception wants to see.
        super().__init__("\n".join(str(e) for e in self.errors))

    def render(self, source: SourceFile | None = None) -> str:
        return "\n".join(e.render(source) for e in self.errors)


class Diagnostics:
    """Collects errors from a pass so that all of them are reported at once."""

    def __init__(self) -> None:
        self.errors: list[BasicError] = []

    def error(self, error: BasicError) -> None:
        self.errors.append(error)

    def check(self) -> None:
        """Raise everything collected so far, if anything."""
        if self.errors:
            raise CompileErrors(list(self.errors))


# The coordinate being processed, so that errors raised deep inside a pass (or an
# internal error) still point at the user's source.  Mirrors cuTile's `Loc` context.
_CURRENT: contextvars.ContextVar[Coord | None] = contextvars.ContextVar("coord", default=None)


def _current_coord() -> Coord:
    return _CURRENT.get() or UNKNOWN


@contextlib.contextmanager
def at(coord: Coord):
    """Within this block, errors without an explicit coord are stamped with `coord`."""
    token = _CURRENT.set(coord)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current_coord() -> Coord:
    return _current_coord()


def _printable(text: str) -> str:
    """Show control characters visibly so a diagnostic cannot corrupt the terminal."""
    return "".join(ch if ch.isprintable() or ch == " " else f"\\x{ord(ch):02x}" for ch in text)
