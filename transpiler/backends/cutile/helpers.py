"""The tile functions generated cuTile kernels call (templates/cutile/helpers.py.jinja).

cuTile has no operator for a remainder with the sign of the dividend (BASIC's MOD, C's
fmod) nor for an integer division truncated toward zero (INT(a / b) of a kernel program):
its `%` and `//` follow Python; and ct.maximum/ct.minimum leave the sign of a zero tie
open, where BASIC's MAX and MIN give their first operand.  The printer calls a small function of the module instead;
the module defines only the functions its kernels call, before the kernels.
"""

from __future__ import annotations

from ...ir import kernel as ir
from ..kernel_expressions import PYTHON, binary_function
from ..render import render


def helpers_used(kernels: list[ir.Kernel]) -> set[str]:
    used: set[str] = set()
    for node in (e for kernel in kernels for e in ir.expressions(kernel.body)):
        function = binary_function(PYTHON, node) if isinstance(node, ir.Binary) else None
        if function is not None and function.startswith("basic_"):  # the module's
            used.add(function)
        if isinstance(node, ir.Scan) and node.op == "linear":
            used.add("linear_recurrence")
    return used


def helpers_text(used: set[str]) -> str:
    """The Python definitions of the functions in `used`, or ""."""
    return render("cutile/helpers.py.jinja", helpers=used) if used else ""
