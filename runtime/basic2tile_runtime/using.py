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

A number's digits are GW-BASIC's: a single (7 digits) is converted from its binary
value with GW-BASIC's own decimal conversion (msformat.py: 1/3 is .3333334), then, where
the field shows fewer digits than that, converted again with that many (GW-BASIC's
"work digits": that is where it rounds, half up on the binary value).  A double of
Microsoft BASIC takes its 16 digits so and rounds them half away from zero to the
field, and an IEEE double (other dialects) its 15 correctly rounded digits: 2.675
(2.67499999999999982 as a double, 2.675000000000000 at 16 digits) prints as 2.68 with
``#.##``, as GW-BASIC, whose 56-bit double of the constant 2.675# is above the tie (ours
has 53 bits; see `UsingPrecision`).  Where the field's first digit is the one that
rounds (.05 with ``#.#``), the first digit rounds it half up: 0.1 (PC-BASIC prints 0.0),
and a rounding that carries into a new digit in E format moves the exponent (9.996 with
``##.##^^^^`` is 1.00E+01; PC-BASIC keeps the old one).  Without a sign position, a
minus sign takes the place of a leading digit; a leading 0 is printed before the point
when the field has room for it.  A number that does not fit its field
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

from . import msformat
from .faults import BasicFault
from .msformat import Double
from .msnumbers import float32

ILLEGAL_FUNCTION_CALL = "Illegal function call"
WRONG_TYPE = "Type mismatch"
MAX_DIGITS = 24  # digit positions of one numeric field


@dataclass(frozen=True, slots=True)
class UsingPrecision:
    """How numbers are turned into decimal digits: `digits` significant digits, the
    letter of the exponent, and where a field's fewer digits come from (`binary`): the
    binary value, converted again as GW-BASIC does (singles: ours have GW-BASIC's bits),
    or the `digits` digits rounded half away from zero.  Our doubles have 53 of the 56
    bits of GW-BASIC's, so a decimal constant on a tie (2.675#) may fall on the other
    side of it; its 16 digits round as GW-BASIC's value does far more often."""

    digits: int
    letter: str
    binary: bool


SINGLE = UsingPrecision(7, "E", True)  # Microsoft single precision (and --precision f32)
DOUBLE = UsingPrecision(16, "D", False)  # Microsoft double precision
REAL = UsingPrecision(15, "E", False)  # the IEEE doubles of the other dialects (DBL_DIG)


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
    if precision is SINGLE:  # a single has 7 digits whatever it was computed in
        x = float32(x)
    if math.isnan(x) or math.isinf(x):
        return "%" + ("-" if negative else "") + ("NAN" if math.isnan(x) else "INF")
    magnitude = abs(x)
    if field.exponent:
        body = _scientific(magnitude, before, decimals, field, precision)
    else:
        body = _fixed(magnitude, decimals, field.point, field.comma, precision)
    text = prefix + ("$" if field.dollar else "") + body + suffix
    if len(text) < field.width:  # room for a 0 before the point
        for start in (".", "+.", "-."):
            if text.startswith(start):
                text = start[:-1] + "0" + text[len(start) - 1 :]
                break
    if len(text) > field.width:
        return "%" + text
    return text.rjust(field.width, "*" if field.stars else " ")


def decimal_digits(x: float, digits: int, precision: UsingPrecision = REAL) -> tuple[int, int]:
    """`x` > 0 as `digits` decimal digits: (N, e10) with x ~ N * 10^e10, N of `digits`
    digits or, where the rounding carried, 10^digits with e10 a decade low; for no
    digits (0 or fewer), N is 0 or 1 and e10 the number of times x is divided by ten to
    fall below 1.  A single converts its binary value as GW-BASIC does (msformat.py: its
    bits are GW-BASIC's); other numbers take all the digits of their precision, then
    round them half away from zero to `digits` (see `UsingPrecision.binary`)."""
    if precision.binary:
        return msformat.SINGLE.decimal_digits(x, digits)
    if precision is DOUBLE:
        number, e10 = msformat.DOUBLE.decimal(x)
        full, power = str(number), e10 + precision.digits
    else:
        mantissa, _, exponent = f"{x:.{precision.digits - 1}e}".partition("e")
        full, power = mantissa.replace(".", ""), int(exponent) + 1
    # x ~ 0.FULL * 10^power
    if digits <= 0:
        return (1 if power >= 0 and full[0] >= "5" else 0), max(power, 0)
    kept, _ = _round_half_up(full, digits)
    return int(kept), power - digits


def _round_half_up(digits: str, keep: int) -> tuple[str, bool]:
    """The first `keep` (>= 1) of `digits`, rounded half away from zero on the next
    one; True when the rounding carried out of them ("99" -> "100")."""
    head = digits[:keep].ljust(keep, "0")
    if keep >= len(digits) or digits[keep] < "5":
        return head, False
    rounded = str(int(head) + 1)
    return rounded, len(rounded) > keep


def _fixed(x: float, decimals: int, point: bool, comma: bool, precision: UsingPrecision) -> str:
    """GW-BASIC's fixed-point text of x > 0: converted with all the digits of its
    precision, and again with fewer where the field shows fewer decimals (the second
    conversion rounds)."""
    if x == 0:
        return "." + "0" * decimals if point else "0"
    number, e10 = decimal_digits(x, precision.digits, precision)
    if -e10 > decimals:  # more digits after the point than the field shows
        work = precision.digits + e10 + decimals
        if work > 0:
            number, e10 = decimal_digits(x, work, precision)
        else:  # GW-BASIC (PC-BASIC) prints 0 here even for .05 with #.#: rounded instead
            first_rounds_up = work == 0 and number >= 5 * 10 ** (precision.digits - 1)
            number, e10 = int(first_rounds_up), -decimals
    digits = str(number)
    before = len(digits) + e10  # digits before the point (0 or fewer: zeros after it)
    digits = digits.ljust(before + decimals, "0")
    if before <= 0:
        return "." + "0" * -before + digits
    integer, fraction = digits[:before], digits[before:]
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
    """GW-BASIC's E-format text of x >= 0, converted with as many digits as the field
    shows (at most the precision's)."""
    letter = precision.letter
    if x == 0:
        if field.point:
            return "." + "0" * decimals + letter + "+" + "0" * field.exponent
        # GW-BASIC's own output for a zero without a point in the field
        return ("E+" if letter == "E" else "0D+") + "0" * field.exponent
    shown_digits = before + decimals
    work = min(precision.digits, shown_digits)
    number, e10 = decimal_digits(x, work, precision)
    if work > 0 and number >= 10**work:  # carried: one decade more (PC-BASIC keeps e10)
        number, e10 = number // 10, e10 + 1
    mantissa = (str(number).rjust(work, "0") if work > 0 else "").ljust(shown_digits, "0")
    text = mantissa[:before]
    if len(mantissa) > before:
        text += "." + mantissa[before:]
    elif field.point:
        text += "."
    exponent = e10 + work - before
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
