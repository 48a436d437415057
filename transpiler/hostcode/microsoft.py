"""Which runtime function computes a Microsoft BASIC operation (--dialect ms), for both
host targets: runtime/msnumbers.py and its C++ port in b2t_runtime.h use the same names
(C++ puts them in `b2t::`).  The printers only write the call in their syntax."""

from __future__ import annotations

from .. import ast
from ..semantics import BITWISE

# QuickBASIC's INTEGER and LONG results of + - * and unary minus: "Overflow" beyond them.
QUICKBASIC_INTEGERS = {"int": "int_result", "lng": "long_result"}


def rounding(e: ast.Expr, types: dict, singles: bool) -> str:
    """The function giving the result of `e` its type: `sng` (a single, rounded as
    GW-BASIC rounds) or `dbl` (QuickBASIC: `int_result` or `long_result`, "Overflow"
    beyond an INTEGER's or a LONG's range)."""
    value_type = types.get(e)
    if value_type in QUICKBASIC_INTEGERS:
        return QUICKBASIC_INTEGERS[value_type]
    return "sng" if value_type == "num" and singles else "dbl"


def operation(e: ast.BinOp, types: dict, singles: bool) -> str | None:
    """The function computing numeric operation `e` (not a comparison, not AND/OR of
    truth values), or None for + - *: the target computes them in double and rounds
    the result with `rounding`."""
    op = e.op
    long = types.get(e) == "lng"  # QuickBASIC's LONG: on 32-bit integers
    if op in BITWISE:
        return f"{'long' if long else 'bit'}_{BITWISE[op]}"  # on 16-bit integers (LONG: 32)
    if op in ("+", "-", "*"):
        return None
    if op == "/":
        return "single_div" if rounding(e, types, singles) == "sng" else "double_div"
    if op == "^":
        if not singles or types.get(e) == "dbl":  # (QuickBASIC: a double operand's ^)
            return "double_power"
        return "single_power_int" if types.get(e.right) == "int" else "single_power"
    if op == "\\":
        return "long_div" if long else "int_div"
    if op == "MOD":
        return "long_mod" if long else "int_mod"
    raise TypeError(f"operator {op} is not supported in host programs")


def single_result(e: ast.Call, types: dict, singles: bool) -> str:
    """The conversion of a built-in computed in double (SQR, LOG...) to its result type:
    to a single as GW-BASIC's emulator does, or `dbl`."""
    return "single_result" if rounding(e, types, singles) == "sng" else "dbl"
