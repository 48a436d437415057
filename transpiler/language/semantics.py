"""Facts about BASIC's meaning that the interpreter, the passes and both back ends share.

Each engine decides the same things from these: which operators of Microsoft BASIC are
bitwise, when AND/OR/NOT of two truth values may be the logical operators, how
RANDOMIZE mixes in a seed of each type, how a single constant is written back.  Keeping
them here (and not in `interpreter/`) lets the back ends and passes use them without
importing the interpreter.
"""

from __future__ import annotations

import math

from ..ir import ast
from ..runtime.msnumbers import float32
from .msconstants import microsoft_constant

# Microsoft BASIC's bitwise operators (on 16-bit integers) and the runtime's name of
# each: `bit_and` in runtime/msnumbers.py and b2t_runtime.h, `_band` in the interpreter.
BITWISE = {"AND": "and", "OR": "or", "XOR": "xor", "EQV": "eqv", "IMP": "imp"}

# RANDOMIZE n mixes in the bytes of n as GW-BASIC stores them, by n's type.
# QuickBASIC stops with "Out of stack space" when its stack is full; here when this many
# calls of recursive procedures are nested.
STACK_DEPTH = 1000

RANDOMIZE_KINDS = {"int": "int", "num": "single", "dbl": "double", "lng": "single"}


def is_truth_value(e: ast.Expr) -> bool:
    """Is `e` always -1 or 0: a comparison, or AND, OR, XOR, EQV, IMP, NOT of truth
    values.  There bitwise and logical operators agree."""
    if isinstance(e, ast.BinOp):
        if e.op in ("=", "<>", "<", ">", "<=", ">="):
            return True
        if e.op in BITWISE:
            return is_truth_value(e.left) and is_truth_value(e.right)
    if isinstance(e, ast.UnaryOp) and e.op == "NOT":
        return is_truth_value(e.operand)
    return False


def single_as_written(e: ast.Num) -> str | None:
    """A single constant's value as the decimal it is written with (`0.1`), when that is
    not its float32 value itself: generated code shows `sng(0.1)` rather than
    0.10000000149011612.  None where the float32 value prints as written (`1.5`)."""
    written = float(microsoft_constant(e.text.upper()))
    if math.isinf(written) or float32(written) != e.value or written == e.value:
        return None
    return repr(written)


def argument_as_single(call_type: str | None, argument_type: str | None, singles: bool) -> bool:
    """Whether a function computed in double that gives a single (SQR, LOG, SIN...: the
    builtins' `single_precision`) takes its double argument rounded to a single first:
    GW-BASIC computes them in single precision whatever the argument; in QuickBASIC a
    double argument makes the call a double (the type checker's `qbasic` rule), which
    keeps its argument."""
    return singles and argument_type == "dbl" and call_type != "dbl"
