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
* at the end of the program (`finish`), an unfinished line is ended.

`print(*items)` takes all the items of a PRINT statement at once.  Python evaluates them
all before the call, so a fatal error in a later item would lose the earlier ones that
bas55 had already printed (P173 prints "111" before failing in TAB); code that must
match bas55 there prints item by item with `write_string`, `write_number`, `next_zone`,
`tab` and `newline`.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Real
from typing import NamedTuple, TextIO

from .arith import round_to_int
from .command import InputError, standard_input, standard_output
from .faults import ERROR, BasicFault, Notice, notify, warn
from .inputs import ReplyRejected, parse_reply
from .numformat import format_number, format_number_trimmed
from .using import REAL, UsingPrecision, UsingWriter

MARGIN = 80
UNLIMITED = 2**31 - 1  # the margin of a file: lines are never folded
ZONE_WIDTH = 16
INPUT_PROMPT = "? "
INVALID_TAB = "invalid TAB argument"
INPUT_EOF = "error on input stream"


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


_screen: Console | None = None  # the last screen made


def POS(x: float) -> float:
    """The column of the screen's cursor, 1 at the start of a line (Microsoft BASIC; `x`
    is a dummy)."""
    return float(_screen.column + 1) if _screen is not None else 1.0


class Console:
    """The BASIC program's terminal: output column tracking and INPUT replies.  A file
    open for output is a Console too, without a margin."""

    __slots__ = ("_column", "_in", "_margin", "_out", "_precision", "_strict")

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
        if margin != UNLIMITED:  # the screen, whose column POS reads
            global _screen
            _screen = self

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
            elif isinstance(item, Real):  # numpy scalars, other int and float types
                self.write_number(float(item))
            else:
                raise TypeError(f"not a PRINT item: {item!r}")
        if end == "\n":
            self.newline()
        elif end != "":
            raise ValueError(f'end must be "\\n" or "", not {end!r}')

    def write_string(self, text: str) -> None:
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

    def write_number(self, x: float) -> None:
        text = format_number(x)
        if self._column + len(text) > self._margin:
            self._out.write("\n" + text)
            self._column = len(text)
        else:
            self._out.write(text)
            self._column += len(text)

    def next_zone(self) -> None:
        column = self._column
        width = ZONE_WIDTH - column % ZONE_WIDTH
        if column + width >= self._margin:
            self.newline()
        else:
            self._out.write(" " * width)
            self._column = column + width

    def tab(self, x: float) -> None:
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

    def newline(self) -> None:
        self._out.write("\n")
        self._column = 0

    def write_items(self) -> ItemWriter:
        """One WRITE statement: ``con.write_items().item(a).item(b).end()``."""
        return ItemWriter(self)

    def print_using(self, fmt: str) -> UsingWriter:
        """One PRINT USING statement: ``con.print_using("##.##").item(x).item(y).end()``
        (each item is printed before the next one is evaluated)."""
        return UsingWriter(self, fmt, self._precision)

    def finish(self) -> None:
        """End of the program (normal or not): end an unfinished line and flush."""
        if self._column != 0:
            self.newline()
        self._out.flush()

    def input(self, prompt: str | None, kinds: Sequence[str]) -> list[float | str]:
        """One INPUT statement: prompt, read a reply, and ask again until it fits `kinds`.

        Prints `prompt` (if any) and ``"? "``, reads one line, and returns one value per
        entry of `kinds` (inputs.NUMBER -> float, inputs.STRING -> str).  A rejected reply
        is reported as an ERROR notice and asked for again; end of input is fatal.
        The column restarts at 0: the reply's newline ended the line on the terminal.
        """
        while True:
            self._out.write(INPUT_PROMPT if prompt is None else prompt + INPUT_PROMPT)
            self._out.flush()
            self._column = 0
            try:
                line = self._in.readline()
            except OSError as error:
                raise InputError(error.errno, error.strerror) from None
            if not line:
                raise BasicFault(INPUT_EOF)
            line = line.removesuffix("\n").removesuffix("\r")
            try:
                return parse_reply(line, kinds, self._strict)
            except ReplyRejected as rejected:
                notify(Notice(rejected.what, rejected.detail, ERROR))


class ItemWriter:
    """WRITE's items, one at a time: separated by commas, strings in quotes, numbers as
    PRINT writes them without the spaces around them; `end` ends the line."""

    __slots__ = ("_channel", "_first")

    def __init__(self, channel: Console):
        self._channel = channel
        self._first = True

    def item(self, value: float | str) -> ItemWriter:
        text = f'"{value}"' if isinstance(value, str) else format_number_trimmed(float(value))
        self._channel.write_string(text if self._first else "," + text)
        self._first = False
        return self

    def end(self, end: str = "\n") -> None:
        if end:
            self._channel.newline()
