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

This module imports nothing of the package: the grammar and the type checker use it.
"""

from __future__ import annotations

from typing import Literal

ConstantType = Literal["int", "num", "dbl"]


def microsoft_constant(text: str) -> float:
    """The value of a constant in Microsoft's notation (upper case).  ValueError with the
    reason for one that does not fit its type."""
    if text.startswith("&"):
        if text.startswith("&H"):
            bits = int(text[2:], 16)  # noqa: FURB166 - the digits without their prefix
        else:
            bits = int(text[2:] if text.startswith("&O") else text[1:], 8)
        if bits > 0xFFFF:
            raise ValueError("a hexadecimal or octal constant has at most 16 bits")
        return float(bits - 0x10000 if bits & 0x8000 else bits)
    suffix = text[-1] if text[-1] in "!#%" else ""
    body = text[:-1] if suffix else text
    value = float(body.replace("D", "E"))
    if suffix == "%" and (not body.isdigit() or value > 32767):
        raise ValueError("an integer constant is a whole number from 0 to 32767")
    return value


def constant_type(text: str) -> ConstantType:
    """The Microsoft BASIC type of a constant spelled `text` (as written, any case)."""
    text = text.upper()
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
