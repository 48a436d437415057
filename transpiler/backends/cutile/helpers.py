"""The tile functions generated cuTile kernels call (templates/cutile/helpers.py.jinja).

cuTile has no operator for a remainder with the sign of the dividend (BASIC's MOD, C's
fmod) nor for an integer division truncated toward zero (INT(a / b) of a kernel program):
its `%` and `//` follow Python; and ct.maximum/ct.minimum leave the sign of a zero tie
open, where BASIC's MAX and MIN give their first operand.  The printer calls a small function of the module instead;
the module defines only the functions its kernels call, before the kernels.
"""

from __future__ import annotations

from ... import ir
from ..render import render

def remainder_function(dtype: ir.DType) -> str:
    """The function that prints BASIC's MOD (IR `rem`) of `dtype` operands."""
    return "basic_mod" if dtype in ir.FLOAT_TYPES else "basic_mod_int"


def function_of(e: ir.Binary) -> str | None:
    """The tile function that prints `e`, or None where cuTile has an operator for it."""
    if e.op == "rem":
        return remainder_function(e.left.type.dtype)
    if e.op == "truncdiv":
        return "basic_div_int"
    if e.op in ("max", "min") and e.left.type.dtype in ir.FLOAT_TYPES:
        return f"basic_{e.op}"
    return None


def helpers_used(kernels: list[ir.Kernel]) -> set[str]:
    used: set[str] = set()
    for node in (e for kernel in kernels for e in ir.expressions(kernel.body)):
        if isinstance(node, ir.Binary) and function_of(node) is not None:
            used.add(function_of(node))
        if isinstance(node, ir.Scan) and node.op == "linear":
            used.add("linear_recurrence")
    return used


def helpers_text(used: set[str]) -> str:
    """The Python definitions of the functions in `used`, or ""."""
    return render("cutile/helpers.py.jinja", helpers=used) if used else ""
