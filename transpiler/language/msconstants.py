"""Numeric constants as Microsoft BASIC reads them: their value and their type.

GW-BASIC's tokenizer gives every constant one of three types (its manual, "Numeric
Constants"; PC-BASIC agrees):

- an integer (`%`): `&H1F`, `&O17`, `&17` (16 bits: `&HFFFF` is -1), a constant with the
  suffix `%`, or a whole number of at most 5 digits, 0..32767, written without a point or
  an exponent (`-5` is the single -5: unary minus of the integer 5);
- a double (`#`): a `D` exponent (`1.5D3`), the suffix `#`, or more than 7 digits
  (`12345678`, `3.14159265`; leading zeros and zeros that end it after the point do not
  count) without the suffix `!`;
- a single (`!`): every other constant (`1.5`, `1E10`, `40000`, `1!`).

QuickBASIC (--dialect qbasic) adds LONG (`&`), 32-bit integers (QuickBASIC 4.5's
reference, "Numeric constants"): the suffix `&` (`123&`, `&HFFFF&`, which is 65535), a
hexadecimal or octal constant beyond 16 bits (`&H10000`; 32 bits at most, `&HFFFFFFFF`
is -1), a whole number 32768..2147483647 written without a point or an exponent.

This module imports nothing of the package: the grammar and the type checker use it.
"""

from __future__ import annotations

from typing import Literal

ConstantType = Literal["int", "num", "dbl", "lng"]
LONG_MAX = 2147483647


def microsoft_constant(text: str, qbasic: bool = False) -> float:
    """The value of a constant in Microsoft's notation (upper case).  ValueError with the
    reason for one that does not fit its type.  `qbasic`: QuickBASIC's constants, whose
    `&H` and `&O` may have 32 bits."""
    if text.startswith("&"):
        long = text.endswith("&")
        bits = _bits(text)
        if bits > 0xFFFF and not long and not qbasic:
            raise ValueError("a hexadecimal or octal constant has at most 16 bits")
        if long or bits > 0xFFFF:
            if bits > 0xFFFFFFFF:
                raise ValueError("a hexadecimal or octal constant has at most 32 bits")
            return float(bits - 0x100000000 if bits & 0x80000000 else bits)
        return float(bits - 0x10000 if bits & 0x8000 else bits)
    suffix = text[-1] if text[-1] in "!#%&" else ""
    body = text[:-1] if suffix else text
    value = float(body.replace("D", "E"))
    if suffix == "%" and (not body.isdigit() or value > 32767):
        raise ValueError("an integer constant is a whole number from 0 to 32767")
    if suffix == "&" and (not body.isdigit() or value > LONG_MAX):
        raise ValueError("a LONG constant is a whole number from 0 to 2147483647")
    return value


def _bits(text: str) -> int:
    """The bits a `&H`, `&O` or `&` constant spells (a `&` suffix aside)."""
    digits = text.rstrip("&") if len(text.rstrip("&")) > 1 else text
    if digits.startswith("&H"):
        return int(digits[2:], 16)  # noqa: FURB166 - the digits without their prefix
    return int(digits[2:] if digits.startswith("&O") else digits[1:], 8)


def constant_type(text: str, qbasic: bool = False) -> ConstantType:
    """The Microsoft BASIC type of a constant spelled `text` (as written, any case);
    `qbasic`: QuickBASIC's types, LONG among them."""
    text = text.upper()
    if qbasic and text.endswith("&"):
        return "lng"
    if qbasic and text.startswith("&") and _bits(text) > 0xFFFF:
        return "lng"
    if qbasic and text.isdigit() and 32767 < int(text) <= LONG_MAX:
        return "lng"
    if text.startswith("&") or text.endswith("%"):
        return "int"
    if text.endswith("#") or "D" in text:
        return "dbl"
    if text.endswith("!"):
        return "num"
    if text.isdigit() and int(text) <= 32767:
        return "int"
    return "dbl" if _precision_digits(text.split("E")[0]) > 7 else "num"


def _precision_digits(mantissa: str) -> int:
    """The digits that count for the precision of a constant's mantissa: from the first
    nonzero digit on, less the zeros that end it after the point (`0012.500` has 3)."""
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return 0
    trailing = len(fraction) - len(fraction.rstrip("0"))
    return len(digits) - min(trailing, len(digits))
