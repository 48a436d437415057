"""DATA, READ and RESTORE (ECMA-55 section 14), as bas55 does them.

The program's DATA items, in program order, form one pool with a read pointer.  Each item
is its source text and whether it was quoted; the pool decides at READ time what it is:

* READ into a string variable takes any item as text (an unquoted ``123`` reads as the
  string "123"); more than 18 characters is fatal (P100);
* READ into a numeric variable needs an unquoted item whose whole text is a numeric
  constant (numformat.NUMBER_PATTERN), else it is fatal "reading string into numeric
  variable" (P098 unquoted, P099 quoted); a constant too large for a double gives +-inf
  and the warning "numeric constant overflow", at every READ of it (P101); one too small
  gives 0 silently (P096);
* READ past the last item is fatal "insufficient data for READ" (P097).

Microsoft BASIC (`microsoft=True`) reads a number from an unquoted item as GW-BASIC does:
any constant of its own (`&H1F`, `&17`, `1.5D3`, `12%`, blanks inside), an empty item
as 0, of the type the item would have as a constant (`stringfns.val_is_double`, as VAL
and INPUT): `1E-30` and `0.1` are singles also when READ into a double variable (PC-BASIC
reads them as 1.000000003171077D-30 and .1000000014901161), `0.1#`, `1D-30` and
`1.23456789` doubles; a single beyond its range warns "Overflow" at READ; text that is not all one number is GW-BASIC's "Syntax error" in the DATA line of
the item (`lines`: DATA line number -> its first item), which ERL names too.

RESTORE moves the pointer back to the first item (`restore()`), or to an item index that
the compiler worked out for a ``RESTORE line`` extension.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from typing import NamedTuple

from .faults import BasicFault, warn
from .numformat import parse_number
from .msnumbers import sng
from .stringfns import number_value, val_is_double
from .strings import check_string

INSUFFICIENT_DATA = "insufficient data for READ"
STRING_INTO_NUMBER = "reading string into numeric variable"
CONSTANT_OVERFLOW = "numeric constant overflow"


class DataItem(NamedTuple):
    """One datum of a DATA statement: its text without quotes, and whether it was quoted."""

    text: str
    quoted: bool = False


class DataPool:
    """The program's DATA items and the READ pointer."""

    __slots__ = ("_line_starts", "_numbers", "_position", "_singles", "_strict", "_texts")

    def __init__(
        self,
        items: Iterable[DataItem | tuple[str, bool]],
        strict: bool = True,
        microsoft: bool = False,
        lines: dict[int, int] | None = None,
    ):
        self._strict = strict  # ECMA-55's 18-character limit on string data
        # (first item, DATA line number), by item
        self._line_starts = sorted((start, line) for line, start in (lines or {}).items())
        texts: list[str] = []
        numbers: list[float | None] = []
        singles: list[bool] = []  # read as a single (Microsoft BASIC)
        for text, quoted in items:
            if not quoted:
                text = text.strip(" ")  # an unquoted datum has no surrounding spaces
            texts.append(text)
            singles.append(microsoft and not quoted and not val_is_double(text))
            # Parsed once here so that READ is a list lookup.
            if quoted:
                numbers.append(None)
            elif microsoft:  # GW-BASIC's constants: &H1F, 1.5D3, 12%, "" (0)...
                numbers.append(number_value(text, whole=True))
            else:
                numbers.append(parse_number(text))
        self._texts = texts
        self._numbers = numbers
        self._singles = singles
        self._position = 0

    def __len__(self) -> int:
        return len(self._texts)

    @property
    def position(self) -> int:
        """The index of the item the next READ takes."""
        return self._position

    def restore(self, position: int = 0) -> None:
        self._position = position

    def read_number(self) -> float:
        i = self._position
        if i >= len(self._numbers):
            raise BasicFault(INSUFFICIENT_DATA)
        value = self._numbers[i]
        if value is None:
            raise BasicFault(STRING_INTO_NUMBER, line=self._line_of(i))
        self._position = i + 1
        if self._singles[i]:
            return sng(value)
        if math.isinf(value):
            warn(CONSTANT_OVERFLOW)
        return value

    def _line_of(self, item: int) -> int | None:
        """The line number of the DATA statement holding `item` (None: not known)."""
        at = bisect.bisect_right(self._line_starts, (item, math.inf)) - 1
        return self._line_starts[at][1] if at >= 0 else None

    def read_string(self) -> str:
        i = self._position
        if i >= len(self._texts):
            raise BasicFault(INSUFFICIENT_DATA)
        text = check_string(self._texts[i]) if self._strict else self._texts[i]
        self._position = i + 1
        return text
