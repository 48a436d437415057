"""PRINT USING: Microsoft BASIC's format language, as GW-BASIC 3.23 prints it.

A format string is read left to right into fields and literal text:

* string fields: ``!`` (the first character of the string), ``\\  \\`` (n spaces between
  two backslashes: the first n + 2 characters, padded with spaces), ``&`` (all of it);
* a numeric field: an optional leading ``+``; then ``**`` (fill with asterisks), ``$$``
  (a floating dollar sign) or ``**$``; then digit positions ``#``, at most one ``.``, and
  before the point ``,`` (group the integer digits by thousands; the comma counts as a
  position); ``**`` gives two positions, ``$$`` one (the other holds the dollar sign);
  then optionally ``^^^^`` (exponent E+nn) or ``^^^^^`` (E+nnn); then, without a
  leading ``+``, a trailing ``+`` or ``-`` (the sign, or for ``-`` a space for >= 0,
  after the number).  A field needs at least one digit position;
* ``_`` prints the next character as it is; any other character prints itself.

Each item takes the next field, the format starting again from its beginning when the
fields run out (the literal text before the first field is printed when an item
follows).  After the last item, the literal text up to the next field or the end of the
format is printed.  A format without any field prints its text and stops with "Illegal
function call" (so does an empty format); a number for a string field or a string for a
numeric one is "Type mismatch"; more than 24 digit positions is "Illegal function call".

A number is formatted from its decimal value at the precision of its type (7
significant digits for single precision, 16 for double, correctly rounded), rounded
half away from zero to the digits the field shows: 2.675 (2.67499999999999982 as a
double, 2.675000000000000 at 16 digits) prints as 2.68 with ``#.##``.  Without a sign
position, a minus sign takes the place of a leading digit; a leading 0 is printed
before the point when the field has room for it.  A number that does not fit its field
is printed whole after a ``%``.  The exponent of ``^^^^`` has two digits, or more when
it needs them (then the number does not fit: ``%``); double precision writes ``D``
instead of ``E`` (Microsoft's double precision only: `UsingPrecision`).  An infinity
or NaN (which a Microsoft BASIC never holds) prints as ``%INF``, ``%-INF``, ``%NAN``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Protocol

from .faults import BasicFault
from .msformat import Double

ILLEGAL_FUNCTION_CALL = "Illegal function call"
WRONG_TYPE = "Type mismatch"
MAX_DIGITS = 24  # digit positions of one numeric field


@dataclass(frozen=True, slots=True)
class UsingPrecision:
    """How numbers are turned into decimal digits: `digits` significant digits, and the
    letter of the exponent."""

    digits: int
    letter: str


SINGLE = UsingPrecision(7, "E")  # Microsoft single precision (and --precision f32)
DOUBLE = UsingPrecision(16, "D")  # Microsoft double precision
REAL = UsingPrecision(15, "E")  # the IEEE doubles of the other dialects (DBL_DIG digits)


@dataclass(frozen=True, slots=True)
class StringField:
    kind: str  # "!", "&" or "\\"
    width: int  # characters printed ("\\" fields)


@dataclass(frozen=True, slots=True)
class NumberField:
    width: int  # characters of the field in the format
    before: int  # digit positions before the point (comma, ** and $$ included)
    decimals: int  # digit positions after the point
    point: bool
    comma: bool
    dollar: bool
    stars: bool
    leading_sign: bool  # a leading +
    trailing: str  # "+", "-" or ""
    exponent: int  # digits of the exponent (2 for ^^^^, 3 for ^^^^^), 0: none


Piece = str | StringField | NumberField


# --------------------------------------------------------------------------- the format


@functools.lru_cache(maxsize=256)
def parse_format(fmt: str) -> tuple[Piece, ...]:
    """The fields and literal texts of a format, in order (adjacent literals joined)."""
    pieces: list[Piece] = []
    literal: list[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "_":  # the next character as it is (a final "_" prints itself)
            literal.append(fmt[i + 1] if i + 1 < len(fmt) else "_")
            i += 2
            continue
        field, end = _string_field(fmt, i)
        if field is None:
            field, end = _number_field(fmt, i)
        if field is None:
            literal.append(fmt[i])
            i += 1
            continue
        if literal:
            pieces.append("".join(literal))
            literal = []
        pieces.append(field)
        i = end
    if literal:
        pieces.append("".join(literal))
    return tuple(pieces)


def _string_field(fmt: str, i: int) -> tuple[StringField | None, int]:
    c = fmt[i]
    if c in "!&":
        return StringField(c, 1), i + 1
    if c == "\\":
        j = i + 1
        while j < len(fmt) and fmt[j] == " ":
            j += 1
        if j < len(fmt) and fmt[j] == "\\":
            return StringField(c, j - i + 1), j + 1
    return None, i


def _number_field(fmt: str, start: int) -> tuple[NumberField | None, int]:
    def at(k: int, text: str) -> bool:
        return fmt.startswith(text, k)

    i = start
    leading_sign = at(i, "+")
    i += leading_sign
    before = decimals = 0
    stars = dollar = point = comma = False
    if at(i, "**"):
        stars, before, i = True, 2, i + 2
        if at(i, "$"):
            dollar, i = True, i + 1
    elif at(i, "$$"):
        dollar, before, i = True, 1, i + 2
    elif fmt[i : i + 1] in ("$", "*"):
        return None, start
    if fmt[i : i + 1] in ("#", "."):  # digit positions; commas count before the point
        while i < len(fmt):
            c = fmt[i]
            if c == "#":
                if point:
                    decimals += 1
                else:
                    before += 1
            elif c == "." and not point:
                point = True
            elif c == "," and not point:
                before += 1
                comma = True
            else:
                break
            i += 1
    if before + decimals == 0:
        return None, start
    exponent = 0
    if at(i, "^^^^"):
        exponent = 3 if at(i, "^^^^^") else 2
        i += exponent + 2
    trailing = ""
    if not leading_sign and fmt[i : i + 1] in ("+", "-"):
        trailing, i = fmt[i], i + 1
    field = NumberField(
        i - start, before, decimals, point, comma, dollar, stars, leading_sign, trailing, exponent
    )
    return field, i


# --------------------------------------------------------------------------- formatting


def format_string_field(field: StringField, value: str) -> str:
    if field.kind == "&":
        return value
    return value.ljust(field.width)[: field.width]


def format_number_field(field: NumberField, x: float, precision: UsingPrecision = REAL) -> str:
    before, decimals = field.before, field.decimals
    if before + decimals > MAX_DIGITS:
        raise BasicFault(ILLEGAL_FUNCTION_CALL, "(more than 24 digits in a PRINT USING field)")
    negative = x < 0
    sign = "-" if negative else "+"
    prefix = suffix = ""
    if field.leading_sign:
        prefix = sign
    elif field.trailing == "+":
        suffix = sign
    elif field.trailing == "-":
        suffix = "-" if negative else " "
    else:
        prefix = "-" if negative else ""
        if not field.dollar:
            before = max(before - 1, 0)  # a minus sign may take the first position
    if math.isnan(x) or math.isinf(x):
        return "%" + ("-" if negative else "") + ("NAN" if math.isnan(x) else "INF")
    magnitude = abs(x)
    if field.exponent:
        body = _scientific(magnitude, before, decimals, field, precision)
    else:
        body = _fixed(magnitude, decimals, field.point, field.comma, precision.digits)
    text = prefix + ("$" if field.dollar else "") + body + suffix
    if len(text) < field.width:  # room for a 0 before the point
        for start in (".", "+.", "-."):
            if text.startswith(start):
                text = start[:-1] + "0" + text[len(start) - 1 :]
                break
    if len(text) > field.width:
        return "%" + text
    return text.rjust(field.width, "*" if field.stars else " ")


def decimal_digits(x: float, digits: int) -> tuple[str, int]:
    """`x` > 0 rounded to `digits` significant decimal digits (correctly, from its
    binary value): (the digits, e) with x ~ 0.DIGITS * 10**e."""
    mantissa, _, exponent = f"{x:.{digits - 1}e}".partition("e")
    return mantissa.replace(".", ""), int(exponent) + 1


def _round_half_up(digits: str, keep: int) -> tuple[str, bool]:
    """The first `keep` (>= 1) of `digits`, rounded half away from zero on the next
    one; True when the rounding carried out of them ("99" -> "100")."""
    head = digits[:keep].ljust(keep, "0")
    if keep >= len(digits) or digits[keep] < "5":
        return head, False
    rounded = str(int(head) + 1)
    return rounded, len(rounded) > keep


def _fixed(x: float, decimals: int, point: bool, comma: bool, precision: int) -> str:
    if x == 0:
        return "." + "0" * decimals if point else "0"
    digits, e = decimal_digits(x, precision)
    keep = e + decimals  # digits of the decimal value that the field shows
    if keep <= 0:
        shown = "1" if keep == 0 and digits[0] >= "5" else "0"
    else:
        shown, _ = _round_half_up(digits, keep)
    integer_digits = len(shown) - decimals
    if integer_digits > 0:
        integer, fraction = shown[:integer_digits], shown[integer_digits:]
    else:
        integer, fraction = "", "0" * -integer_digits + shown
    if comma:
        integer = _group_thousands(integer)
    return integer + ("." + fraction if point else "")


def _group_thousands(integer: str) -> str:
    head = len(integer) % 3 or 3
    groups = [integer[:head]] + [integer[k : k + 3] for k in range(head, len(integer), 3)]
    return ",".join(group for group in groups if group)


def _scientific(
    x: float, before: int, decimals: int, field: NumberField, precision: UsingPrecision
) -> str:
    letter = precision.letter
    if x == 0:
        if field.point:
            return "." + "0" * decimals + letter + "+" + "0" * field.exponent
        # GW-BASIC's own output for a zero without a point in the field
        return ("E+" if letter == "E" else "0D+") + "0" * field.exponent
    shown_digits = before + decimals
    digits, e = decimal_digits(x, precision.digits)
    work = min(precision.digits, shown_digits)
    if work == 0:
        mantissa, e = "", max(e, 0)
    else:
        mantissa, carried = _round_half_up(digits, work)
        if carried:
            mantissa, e = mantissa[:work], e + 1
    mantissa = mantissa.ljust(shown_digits, "0")
    text = mantissa[:before]
    if len(mantissa) > before:
        text += "." + mantissa[before:]
    elif field.point:
        text += "."
    exponent = e - before
    return f"{text}{letter}{'-' if exponent < 0 else '+'}{abs(exponent):0{field.exponent}d}"


# --------------------------------------------------------------------------- one statement


class Channel(Protocol):
    """Where PRINT USING writes: the console, or a file opened for output."""

    def write_string(self, text: str) -> None: ...

    def newline(self) -> None: ...


class UsingWriter:
    """One PRINT USING statement: `item` formats each value into the next field as it is
    evaluated, `end` prints the literal text that follows and ends the line."""

    __slots__ = ("_channel", "_next", "_pieces", "_precision")

    def __init__(self, channel: Channel, fmt: str, precision: UsingPrecision):
        pieces = parse_format(fmt)
        if not any(not isinstance(piece, str) for piece in pieces):
            channel.write_string("".join(pieces))
            raise BasicFault(ILLEGAL_FUNCTION_CALL, "(a PRINT USING format without a field)")
        self._channel = channel
        self._pieces = pieces
        self._precision = precision
        self._next = 0  # the piece to print next

    def item(self, value: float | str) -> UsingWriter:
        pieces, write = self._pieces, self._channel.write_string
        while True:
            if self._next == len(pieces):
                self._next = 0
            piece = pieces[self._next]
            self._next += 1
            if isinstance(piece, str):
                write(piece)
                continue
            if isinstance(piece, StringField):
                if not isinstance(value, str):
                    raise BasicFault(WRONG_TYPE, "(a number for a PRINT USING string field)")
                write(format_string_field(piece, value))
            else:
                if isinstance(value, str):
                    raise BasicFault(WRONG_TYPE, "(a string for a PRINT USING number field)")
                # A double of Microsoft BASIC (generated code marks it) has its 16 digits.
                precision = DOUBLE if isinstance(value, Double) else self._precision
                write(format_number_field(piece, float(value), precision))
            return self

    def end(self, end: str = "\n") -> None:
        """After the last item: the literal text up to the next field or the end of the
        format, then the newline (`end` "") when the statement ends with ; or ,)."""
        for piece in self._pieces[self._next :]:
            if not isinstance(piece, str):
                break
            self._channel.write_string(piece)
        if end:
            self._channel.newline()
