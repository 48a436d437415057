"""PRINT and INPUT on a text stream: columns, zones, TAB and the margin, as bas55 does them.

The console keeps the column (0-based) of the output line.  bas55's rules (ECMA-55 12.4):

* margin 80: a number whose text (sign, digits and trailing space) would pass column 80
  starts a new line first; so does a string, which is then printed whole (strings longer
  than the margin, which Minimal BASIC cannot make, are cut into lines of 80);
* ``,`` (ZONE) moves to the next multiple of 16; if that is 80 or more, it ends the line
  instead (so a line has 5 zones, and ``,`` in the last one starts a new line);
* ``TAB(x)``: n = floor(x + 0.5) as a C int (`arith.round_to_int`); n < 1 warns "invalid
  TAB argument (n)" and uses 1; n > 80 is reduced modulo 80 after making it 0-based
  (column n-1 becomes (n-1) % 80); if the line is already past that column a new line is
  started; then spaces up to it;
* ``;`` prints nothing between items; a PRINT that does not end with ``,`` or ``;`` ends
  the line;
* Microsoft BASIC (the runtime's dialect `ms`, runtime/dialect.py): GW-BASIC's layout
  (see `_write_microsoft`); TAB's argument is a 16-bit integer as HEX$ takes it
  (`stringfns.to_word`: -1 is 65535), column ((n - 1) mod 80) for n >= 1 and the
  first column for 0, without a warning, as GW-BASIC (PC-BASIC) does;
* ``SPC(n)`` (Microsoft BASIC): n spaces, n taken as TAB takes it and reduced modulo 80;
  spaces that pass the margin continue on a new line;
* Microsoft BASIC's screen moves its column for control characters as GW-BASIC's does
  (`_screen_column`): `PRINT CHR$(13)` starts a new line (written as a line end), so a
  later item is wrapped from column 0;
* at the end of the program (`finish`), an unfinished line is ended.

A file open for output is a Console without a margin (`UNLIMITED`).  Under Microsoft
BASIC it has GW-BASIC's rules for files instead (`_write_file`): a line width, 255 by
default (`WIDTH #n, w` sets it; 255 never breaks a line), a column that is a byte (it
goes back to 0 after 255), control characters that take no column (CR goes back to 0).

INPUT asks again when a reply does not fit: with ECMA-55's rules (inputs.py) after an
error notice on stderr, with Microsoft's (ms_inputs.py) after printing
"?Redo from start".  Microsoft BASIC also has `LINE INPUT` (a whole line) and `INKEY$`
(one character, see `inkey`).

`print(*items)` takes all the items of a PRINT statement at once.  Python evaluates them
all before the call, so a fatal error in a later item would lose the earlier ones that
bas55 had already printed (P173 prints "111" before failing in TAB); code that must
match bas55 there prints item by item with `write_string`, `write_number`, `next_zone`,
`tab` and `newline`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from numbers import Real
from typing import NamedTuple, TextIO

from .arith import round_to_int
from .command import InputError, standard_input, standard_output
from .dialect import machine, microsoft
from .faults import ERROR, BasicFault, Notice, notify, show_warnings_on, warn
from .inputs import ReplyRejected, parse_reply
from .machines import MACHINE_NUMBERS, first_column, input_question
from .ms_inputs import REDO, parse_ms_reply
from .msformat import Double, format_double
from .msnumbers import ILLEGAL_FUNCTION_CALL, cint
from .numformat import format_number, format_number_trimmed, match_number
from .stringfns import MAX_LENGTH, to_word
from .using import REAL, UsingPrecision, UsingWriter

MARGIN = 80
UNLIMITED = 2**31 - 1  # the margin of a file: lines are never folded
FILE_WIDTH = 255  # a Microsoft BASIC file's default WIDTH: its lines are never broken
FILE_COLUMNS = 256  # a file's column is a byte
_CONTROL = re.compile(r"[\x00-\x1f]")
ZONE_WIDTH = 16
MS_ZONE_WIDTH = 14  # Microsoft BASIC
INPUT_PROMPT = "? "
INVALID_TAB = "invalid TAB argument"
INPUT_EOF = "error on input stream"
SEED_PROMPT = "Random number seed (-32768 to 32767)? "  # GW-BASIC's plain RANDOMIZE


class _Zone:
    """The ``,`` print separator."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ZONE"


ZONE = _Zone()


class Tab(NamedTuple):
    """A ``TAB(x)`` print item."""

    argument: float


def tab(x: float) -> Tab:
    return Tab(x)


class Spc(NamedTuple):
    """A ``SPC(n)`` print item."""

    count: float


def spc(x: float) -> Spc:
    return Spc(x)


_screen: Console | None = None  # the last screen made: POS and INKEY$ read it


def POS(x: float) -> float:
    """The column of the screen's cursor, 1 at the start of a line and after a full line
    of 80 (the cursor waits there for the next line; Microsoft BASIC; `x` is a dummy)."""
    origin = first_column(machine())  # 0 on a Commodore
    return float(_screen.column % MARGIN + origin) if _screen is not None else float(origin)


# What FRE(x) returns: the bytes of memory a GW-BASIC program has free, as PC-BASIC 2.0.8
# prints it for the one-line program `10 PRINT FRE(0)` (60287 for FRE("")).  It cannot be
# exact here: GW-BASIC's value shrinks with the program's text and variables.
FREE_MEMORY = 60288.0


def FRE(x: float | str) -> float:
    """The free memory (Microsoft BASIC; `x` is a dummy): FREE_MEMORY."""
    return FREE_MEMORY


class Console:
    """The BASIC program's terminal: output column tracking and INPUT replies.  A file
    open for output is a Console too, without a margin."""

    __slots__ = (
        "_column", "_file_width", "_in", "_line_end", "_margin", "_microsoft", "_out",
        "_precision", "_strict", "_tracing", "_zone_width",
    )  # fmt: skip

    def __init__(
        self,
        out: TextIO | None = None,
        inp: TextIO | None = None,
        strict: bool = True,
        precision: UsingPrecision = REAL,
        margin: int = MARGIN,
    ):
        self._strict = strict  # ECMA-55's limits on INPUT replies (inputs.parse_reply)
        self._out = out if out is not None else standard_output()
        self._in = inp if inp is not None else standard_input()
        self._column = 0
        self._precision = precision  # of PRINT USING's numbers (using.py)
        self._margin = margin  # files have none: UNLIMITED
        # GW-BASIC's layout, TAB, SPC and INPUT replies (see `_write_microsoft`): the
        # dialect the program runs in.
        self._microsoft = microsoft()
        # Microsoft BASIC's zones: GW-BASIC's 14 columns, or an 8-bit machine's (machines.py).
        self._zone_width = MACHINE_NUMBERS[machine()].zone_width if machine() else MS_ZONE_WIDTH
        if margin != UNLIMITED:  # the screen, whose column POS reads
            global _screen
            _screen = self
            # GW-BASIC writes Division by zero and Overflow where the cursor is, then
            # ends the line, and the program goes on.
            show_warnings_on(self._show_line if self._microsoft else None)
        # A Microsoft BASIC file's line width (see `_write_file`); None elsewhere.
        self._file_width = FILE_WIDTH if margin == UNLIMITED and self._microsoft else None
        # GW-BASIC ends a file's lines with CR LF (a CHR$(10) printed stays a lone LF).
        self._line_end = "\r\n" if self._file_width is not None else "\n"
        self._tracing = False  # TRON ... TROFF

    def set_width(self, width: int) -> None:
        """`WIDTH #n, width` of a file (Microsoft BASIC)."""
        self._file_width = width

    def trace(self, on: bool) -> None:
        """TRON (True) and TROFF (False)."""
        self._tracing = on

    def trace_line(self, number: int) -> None:
        """A numbered line starts running: `[number]` while tracing is on (GW-BASIC writes
        it on the screen, where it moves the column as text does)."""
        if self._tracing:
            self.write_string(f"[{number}]")

    @property
    def column(self) -> int:
        """The 0-based column where the next character goes."""
        return self._column

    def print(self, *items: object, end: str = "\n") -> None:
        """One PRINT statement: strings, numbers, `ZONE` and `tab(x)` items in order.

        Adjacent items are printed with nothing between them (the ``;`` separator).
        `end` is "\\n" to end the line, or "" when the statement ends with ``;`` or ``,``.
        """
        for item in items:
            kind = type(item)
            if kind is str:
                self.write_string(item)
            elif kind is float or kind is int:
                self.write_number(item)
            elif item is ZONE:
                self.next_zone()
            elif kind is Tab:
                self.tab(item.argument)
            elif kind is Double:
                self.write_double(item)
            elif kind is Spc:
                self.spc(item.count)
            elif isinstance(item, Real):  # numpy scalars, other int and float types
                self.write_number(float(item))
            else:
                raise TypeError(f"not a PRINT item: {item!r}")
        if end == "\n":
            self.newline()
        elif end != "":
            raise ValueError(f'end must be "\\n" or "", not {end!r}')

    def write_string(self, text: str) -> None:
        if self._microsoft:
            self._write_microsoft(text)
            return
        column, margin = self._column, self._margin
        if column + len(text) > margin:
            if column > 0:
                self._out.write("\n")
            while len(text) > margin:
                self._out.write(text[:margin] + "\n")
                text = text[margin:]
            column = 0
        self._out.write(text)
        self._column = column + len(text)

    def write_unbroken(self, text: str) -> None:
        """Part of a WRITE line: GW-BASIC writes the line whole, so a file's WIDTH does not
        break it (elsewhere as `write_string`)."""
        if self._file_width is None:
            self.write_string(text)
            return
        self._out.write(text)
        self._column = _column_after(self._column, text)

    def write_number(self, x: float) -> None:
        text = format_number(x)
        if self._microsoft:
            self._write_microsoft(text)
            return
        if self._column + len(text) > self._margin:
            self._out.write("\n" + text)
            self._column = len(text)
        else:
            self._out.write(text)
            self._column += len(text)

    def write_double(self, x: float) -> None:
        """A double-precision number (Microsoft BASIC): 16 digits."""
        if machine() is not None:  # an 8-bit machine prints every number its one way
            self._write_microsoft(format_number(x))
            return
        self._write_microsoft(format_double(x) + " ")

    def next_zone(self) -> None:
        column = self._column
        if self._file_width is not None:
            self._zone_file()
            return
        if self._microsoft:
            zone_width = self._zone_width
            zone = column // zone_width + 1
            if zone >= self._margin // zone_width:
                self._line_feed()
            else:
                self._out.write(" " * (zone_width * zone - column))
                self._column = zone_width * zone
            return
        width = ZONE_WIDTH - column % ZONE_WIDTH
        if column + width >= self._margin:
            self.newline()
        else:
            self._out.write(" " * width)
            self._column = column + width

    def tab(self, x: float) -> None:
        if self._microsoft:
            self._tab_microsoft(x)
            return
        n = round_to_int(x)
        if n < 1:
            warn(INVALID_TAB, f"({format_number_trimmed(n)})")
            n = 1
        target = (n - 1) % self._margin
        if self._column > target:
            self._out.write("\n")
            self._column = 0
        if target > self._column:
            self._out.write(" " * (target - self._column))
            self._column = target

    def spc(self, x: float) -> None:
        if self._file_width is not None:
            self._write_spaces(to_word(x) % self._nonzero_width())
            return
        count = to_word(x) % self._margin
        room = self._margin - self._column
        if count > room:
            self._out.write(" " * room + "\n")
            self._column, count = 0, count - room
        self._out.write(" " * count)
        self._column += count

    def _show_line(self, text: str) -> None:
        self.write_string(text)
        self.newline()

    def newline(self) -> None:
        if self._microsoft and self._column == self._margin:
            self._out.write("\n")  # GW-BASIC's screen: a full line leaves the cursor after it
        self._line_feed()

    def _line_feed(self) -> None:
        self._out.write(self._line_end)
        self._column = 0

    def write_items(self) -> ItemWriter:
        """One WRITE statement: ``con.write_items().item(a).item(b).end()``."""
        return ItemWriter(self)

    def print_using(self, fmt: str) -> UsingWriter:
        """One PRINT USING statement: ``con.print_using("##.##").item(x).item(y).end()``
        (each item is printed before the next one is evaluated)."""
        return UsingWriter(self, fmt, self._precision)

    # GW-BASIC's layout (--dialect ms), as PC-BASIC shows it: an item (a string, or a
    # number with its trailing space) that would pass column 80 starts a new line unless
    # the line is empty; a longer one wraps on the screen (the column goes on from 0)
    # without a newline in the output; zones are 14 columns, and `,` in the fifth (from
    # column 56) ends the line; TAB(n) goes to column (n - 1) mod 80, on a new line if
    # the line is past it, n read as a 16-bit word (TAB(-1) is TAB(65535), TAB(0) the
    # first column) without a warning; a PRINT that ends a line exactly at column 80
    # prints an empty line after it.  A file has no
    # margin: its lines are never ended for it.

    def _write_microsoft(self, text: str) -> None:
        if self._file_width is not None:
            self._write_file(text)
            return
        margin = self._margin
        if not _CONTROL.search(text):
            if self._column > 0 and self._column + len(text) > margin:
                self._line_feed()
            self._out.write(text)
            column = self._column + len(text)
            while column > margin:
                column -= margin
            self._column = column
            return
        if self._column > 0 and self._column + _screen_width(text) > margin:
            self._line_feed()
        for c in text:
            self._out.write("\n" if c == "\r" else c)
            self._column = _screen_column(self._column, c, margin)

    def _tab_microsoft(self, x: float) -> None:
        width = self._margin if self._file_width is None else self._nonzero_width()
        target = max(to_word(x) - first_column(machine()), 0) % width
        if target < self._column:
            self._line_feed()
        self._out.write(" " * (target - self._column))
        self._column = target

    # GW-BASIC's files (PC-BASIC's TextFileBase.write): an item that would pass the
    # width (up to its first line end) starts a new line unless the line is empty or the
    # width is 255; characters below CHR$(32) take no column, CR goes back to column 0,
    # and the column wraps from 255 to 0.  `,` goes to the next 14-column zone, or ends
    # the line from the last zone of a width other than 255.

    def _write_file(self, text: str) -> None:
        width, column = self._file_width, self._column
        if width != FILE_WIDTH and column > 0:
            first = re.split(r"[\r\n]", text, maxsplit=1)
            if len(first) == 1 and column + len(_CONTROL.sub("", text)) > width:
                self._line_feed()
        self._out.write(text)
        self._column = _column_after(self._column, text)

    def _nonzero_width(self) -> int:
        """The width TAB and SPC reduce by: WIDTH #n, 0 gives them none (PC-BASIC fails
        inside)."""
        if self._file_width == 0:
            raise BasicFault(ILLEGAL_FUNCTION_CALL, "(TAB or SPC in a file of WIDTH 0)")
        return self._file_width

    def _zone_file(self) -> None:
        width, column = self._file_width, self._column
        zone = column // MS_ZONE_WIDTH + 1
        if zone >= max(1, width // MS_ZONE_WIDTH) and MS_ZONE_WIDTH <= width != FILE_WIDTH:
            self._line_feed()
        else:
            self._write_spaces(MS_ZONE_WIDTH * zone - column)

    def _write_spaces(self, count: int) -> None:
        self._out.write(" " * count)
        self._column = (self._column + count) % FILE_COLUMNS

    def finish(self) -> None:
        """End of the program (normal or not): end an unfinished line and flush."""
        if self._column != 0:
            self.newline()
        self._out.flush()

    def ask_seed(self) -> float:
        """GW-BASIC's RANDOMIZE without a seed: asks for one until the reply is a number
        (an empty one is 0), which is rounded to an integer (beyond 16 bits, the fatal
        "Overflow")."""
        while True:
            reply = self._ask(SEED_PROMPT, False).strip(" ")
            if not reply:
                return 0.0
            match = match_number(reply)
            if match is not None and match.end() == len(reply):
                return cint(float(match.group(0)))

    def input(
        self,
        prompt: str | None,
        kinds: Sequence[str],
        question: bool = True,
        stay: bool = False,
    ) -> list[float | str]:
        """One INPUT statement: prompt, read a reply, and ask again until it fits `kinds`.

        Prints `prompt` (if any) and ``"? "`` (not after a prompt when `question` is
        false: Microsoft's `INPUT "prompt", A`), reads one line, and returns one value
        per entry of `kinds` (inputs.NUMBER -> float, inputs.STRING -> str).  A reply
        that does not fit is reported and asked for again (see the module docstring);
        end of input is fatal.  The column restarts at 0: the reply's newline ended the
        line on the terminal; `stay` (Microsoft's `INPUT;`) keeps the line going after
        the prompt instead.
        """
        text = (prompt or "") + input_question(machine(), prompt, question)
        while True:
            line = self._ask(text, stay)
            try:
                if self._microsoft:
                    return parse_ms_reply(line, kinds)
                return parse_reply(line, kinds, self._strict)
            except ReplyRejected as rejected:
                if not self._microsoft:
                    notify(Notice(rejected.what, rejected.detail, ERROR))
                    continue
                self.write_string(REDO)
                self.newline()

    def line_input(self, prompt: str | None, stay: bool = False) -> str:
        """LINE INPUT: prints `prompt` (no "? ") and returns the next line of input
        whole, without its newline, up to 255 characters (GW-BASIC's line length: the
        rest of a longer line is dropped); end of input is fatal."""
        return self._ask(prompt or "", stay)[:MAX_LENGTH]

    def inkey(self) -> str:
        """INKEY$: the next character of standard input, "" at its end.  A line break is
        CHR$(13), as the Enter key gives it.  Input that is not a terminal is read as
        keys typed in advance; a terminal hands over a line at a time, so INKEY$ waits
        for Enter there (GW-BASIC would return "" at once when no key was pressed)."""
        try:
            c = self._in.read(1)
        except OSError as error:
            raise InputError(error.errno, error.strerror) from None
        return "\r" if c == "\n" else c

    def _ask(self, prompt: str, stay: bool) -> str:
        """Print `prompt` and read one line (without its line break)."""
        self._out.write(prompt)
        self._out.flush()
        self._column = self._column + len(prompt) if stay else 0
        try:
            line = self._in.readline()
        except OSError as error:
            raise InputError(error.errno, error.strerror) from None
        if not line:
            raise BasicFault(INPUT_EOF)
        return line.removesuffix("\n").removesuffix("\r")


def _screen_width(text: str) -> int:
    """The columns GW-BASIC's screen gives `text` when it decides whether it fits the
    line: those of the characters from CHR$(32) on, less one per CHR$(8); 0 when the text
    has a line end (it never starts a new line)."""
    width = 0
    for c in text:
        if c in "\r\n":
            return 0
        if c == "\b":
            width -= 1
        elif c >= " ":
            width += 1
    return width


def _screen_column(column: int, c: str, margin: int) -> int:
    """The screen's column after printing `c` (PC-BASIC's console): CR and LF start a
    new line (CR is written as a line end), TAB goes to the next multiple of 8,
    CHR$(11) (home) and CHR$(12) (clear) to column 0, CHR$(28) and CHR$(29) one column
    right and left, BEL and CHR$(30), CHR$(31) (up, down) leave it; any other character
    takes a column."""
    if c in "\r\n\x0b\x0c":
        return 0
    if c == "\t":
        column = (column // 8 + 1) * 8
        return column - margin if column >= margin else column
    if c == "\x1c":
        return 0 if column + 1 >= margin else column + 1
    if c == "\x1d":
        return max(column - 1, 0)
    if c in "\x07\x1e\x1f":
        return column
    column += 1
    return column - margin if column > margin else column


def _column_after(column: int, text: str) -> int:
    """A file's column after `text` (see `Console._write_file`)."""
    if not _CONTROL.search(text):
        return (column + len(text)) % FILE_COLUMNS
    for c in text:
        if c == "\r":
            column = 0
        elif c >= " ":
            column = (column + 1) % FILE_COLUMNS
    return column


class ItemWriter:
    """WRITE's items, one at a time: separated by commas, strings in quotes, numbers as
    PRINT writes them without the spaces around them; `end` ends the line."""

    __slots__ = ("_channel", "_first")

    def __init__(self, channel: Console):
        self._channel = channel
        self._first = True

    def item(self, value: float | str) -> ItemWriter:
        if isinstance(value, str):
            text = f'"{value}"'
        else:  # a Double (Microsoft BASIC) keeps its type: 16 digits
            text = format_number_trimmed(value if isinstance(value, Double) else float(value))
        self._channel.write_unbroken(text if self._first else "," + text)
        self._first = False
        return self

    def end(self, end: str = "\n") -> None:
        if end:
            self._channel.newline()


def INKEYS() -> str:
    """INKEY$, read from the program's screen (`Console.inkey`)."""
    return _screen.inkey() if _screen is not None else ""
