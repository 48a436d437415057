"""The named element-wise functions of `cuda.tile` (`ct.add`, `ct.exp`, ...) and small utilities.

Each is a thin, signature-compatible wrapper over `_elementwise`; defaults mirror `_stub.py`.
"""

from __future__ import annotations

import builtins

import numpy as np
from cuda.tile import TileStaticAssertionError

from . import _batch
from ._elementwise import binary, divmod_, unary
from ._errors import NotBatchable, TileTypeError, UndefinedBehaviorError
from ._tile import Tile


def add(x, y, /, *, rounding_mode=None, flush_to_zero=False):
    return binary("add", x, y, rounding_mode=rounding_mode, flush_to_zero=flush_to_zero)


def sub(x, y, /, *, rounding_mode=None, flush_to_zero=False):
    return binary("sub", x, y, rounding_mode=rounding_mode, flush_to_zero=flush_to_zero)


def mul(x, y, /, *, rounding_mode=None, flush_to_zero=False):
    return binary("mul", x, y, rounding_mode=rounding_mode, flush_to_zero=flush_to_zero)


def truediv(x, y, /, *, rounding_mode=None, flush_to_zero=False):
    return binary("truediv", x, y, rounding_mode=rounding_mode, flush_to_zero=flush_to_zero)


def floordiv(x, y, /):
    return binary("floordiv", x, y)


def mod(x, y, /):
    return binary("mod", x, y)


def pow(x, y, /):
    return binary("pow", x, y)


def atan2(x1, x2, /):
    return binary("atan2", x1, x2)


def cdiv(x, y, /):
    """ceil(x / y) for integers; usable on the host with Python ints, as in cuTile."""
    return binary("cdiv", x, y)


def minimum(x, y, /, *, flush_to_zero=False, propagate_nan=False):
    return binary("min", x, y, flush_to_zero=flush_to_zero, propagate_nan=propagate_nan)


def maximum(x, y, /, *, flush_to_zero=False, propagate_nan=False):
    return binary("max", x, y, flush_to_zero=flush_to_zero, propagate_nan=propagate_nan)


def bitwise_and(x, y, /):
    return binary("and", x, y)


def bitwise_or(x, y, /):
    return binary("or", x, y)


def bitwise_xor(x, y, /):
    return binary("xor", x, y)


def bitwise_lshift(x, y, /):
    return binary("lshift", x, y)


def bitwise_rshift(x, y, /):
    return binary("rshift", x, y)


def bitwise_not(x, /):
    return unary("bitwise_not", x)


def equal(x, y, /):
    return binary("eq", x, y)


def not_equal(x, y, /):
    return binary("ne", x, y)


def less(x, y, /):
    return binary("lt", x, y)


def less_equal(x, y, /):
    return binary("le", x, y)


def greater(x, y, /):
    return binary("gt", x, y)


def greater_equal(x, y, /):
    return binary("ge", x, y)


def divmod(x, y, /):
    return divmod_(x, y)


def exp(x, /, *, rounding_mode=None):
    return unary("exp", x, rounding_mode=rounding_mode)


def exp2(x, /, *, flush_to_zero=False):
    return unary("exp2", x, flush_to_zero=flush_to_zero)


def log(x, /):
    return unary("log", x)


def log2(x, /):
    return unary("log2", x)


def sqrt(x, /, *, rounding_mode=None, flush_to_zero=False):
    return unary("sqrt", x, rounding_mode=rounding_mode, flush_to_zero=flush_to_zero)


def rsqrt(x, /, *, flush_to_zero=False):
    return unary("rsqrt", x, flush_to_zero=flush_to_zero)


def sin(x, /):
    return unary("sin", x)


def cos(x, /):
    return unary("cos", x)


def tan(x, /):
    return unary("tan", x)


def sinh(x, /):
    return unary("sinh", x)


def cosh(x, /):
    return unary("cosh", x)


def tanh(x, /, *, rounding_mode=None):
    return unary("tanh", x, rounding_mode=rounding_mode)


def floor(x, /):
    return unary("floor", x)


def ceil(x, /):
    return unary("ceil", x)


def abs(x, /):
    return unary("abs", x)


def negative(x, /):
    return unary("negative", x)


# ----------------------------------------------------------------------------------------------
# Utilities


def assume_divisible_by(x, divisor):
    """A promise to the compiler; the simulator checks it instead of trusting it."""
    if type(divisor) is not int or divisor <= 0:
        raise TileTypeError(f"divisor must be a positive constant integer, got {divisor!r}")
    if isinstance(x, Tile) and x._batched:
        if np.any(x._raw % divisor):
            raise NotBatchable("assume_divisible_by fails for some block")
        return x
    value = int(x._values) if isinstance(x, Tile) else x
    if value % divisor:
        raise UndefinedBehaviorError(f"assume_divisible_by({value}, {divisor}) is false")
    return x


def assert_(cond, /, message=None):
    if not isinstance(cond, Tile) or not cond.dtype.is_bool:
        raise TileTypeError(f"Type of condition must be bool, got {cond!r}")
    if not cond._raw.all():
        raise AssertionError(message or "ct.assert_ failed")


def static_assert(condition, message=None, /):
    if type(condition) is not bool:
        raise TileTypeError("static_assert condition must be a compile-time constant bool")
    if not condition:
        raise TileStaticAssertionError("" if message is None else str(message))


def static_eval(expr, /):
    return expr


def static_iter(iterable):
    """Compile-time iteration: `range` here means Python's range of plain ints."""
    from ._launch import TileRange

    if isinstance(iterable, TileRange):
        return iterable.python_range
    return iterable


def ensure_constant(value, /):
    if isinstance(value, Tile):
        raise TileStaticAssertionError(
            "Argument of ensure_constant() is not a compile-time constant"
        )
    return value


def _require_block_by_block() -> None:
    if _batch.current() is not None:
        raise NotBatchable("each block prints in turn")


def print(*args, sep=" ", end="\n"):
    _require_block_by_block()
    builtins.print(*args, sep=sep, end=end)


def printf(format, *args):
    _require_block_by_block()
    values = []
    for arg in args:
        if not isinstance(arg, Tile):
            raise TileTypeError("printf: only tile arguments are supported")
        values.append(arg._values.item() if arg.ndim == 0 else arg._values.tolist())
    builtins.print(format % tuple(values), end="")
