"""Applesoft's and Commodore BASIC's subscripts: INT of the value, not GW-BASIC's rounding.

On those machines a subscript is converted to an integer as a `%` variable is (INT: the
largest integer not above it), so `X(1.9)` is X(1) and a binary search's `A((L + H) / 2)`
reads the element below the middle; GW-BASIC (and the other dialects here) round it to
the nearest, X(2).  This pass writes `INT(...)` around every subscript of an array element
that is not an integral constant, under the dialects whose table row says so
(`options.MACHINE_DIALECTS`), so the interpreter and both generated programs agree
without a rule of their own.  It runs after the names are typed and cut (passes 1b, 1b').
"""

from __future__ import annotations

from ...errors import Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from ...options import MACHINE_DIALECTS


def _take_int(e: ast.Expr) -> ast.Expr:
    if isinstance(e, ast.Num) and float(e.value).is_integer():
        return e
    return ast.Call("INT", [e], coord=e.coord)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    machine = analysis.options.machine
    if analysis.kind != "legacy" or machine is None:
        return
    if not MACHINE_DIALECTS[machine].subscripts_take_int:
        return
    for node in analysis.program.walk():
        if isinstance(node, ast.Index):
            node.indices = [_take_int(e) for e in node.indices]
