"""Element-wise operations: arithmetic, comparisons, bitwise, math functions, where, astype.

Typing follows cuda/tile/_ir/arithmetic_ops.py: operands are promoted to a common dtype
(`_dtypes.promote_operands`), shapes broadcast NumPy-style, and two Python constants fold
with Python semantics, as the compiler folds them.  Integer arithmetic wraps like the GPU.
Batched operands (`_batch.py`) broadcast by their logical shapes; the result is batched.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from cuda.tile import RoundingMode

from . import _dtypes as dt
from ._batch import align, batch_size, lead
from ._dtypes import DType
from ._errors import NotSimulatedError, TileTypeError, TileValueError
from ._tile import Tile, is_loose

# Rounding modes the simulator computes exactly: round-to-nearest, and the "full"/"approx"
# precision hints, whose GPU results differ from exact only in the last bits.
_EXACT_ROUNDING = (None, RoundingMode.RN, RoundingMode.FULL, RoundingMode.APPROX)


def make_tile(values, dtype: DType, batched: bool = False) -> Tile:
    """A tile of `dtype` from values already in (or castable to) its storage type."""
    return Tile(dt.round_to(values, dtype), dtype, batched)


def as_operand_dtype(x, what: str = "operand"):
    """The dtype of a tile, or the value itself for a Python constant (a "loose" operand)."""
    if isinstance(x, Tile):
        return x._dtype
    if is_loose(x):
        return x
    raise TileTypeError(f"Expected a tile or a Python number for {what}, got {type(x).__name__}")


def constant_values(value, dtype: DType) -> np.ndarray:
    """A Python constant as a 0-d array of `dtype`, converted the way the compiler does."""
    if dtype.is_bool:
        return np.asarray(bool(value))
    if dtype.is_integral:
        # Strictly typed constants wrap to the width of their type (core_ops.py).
        bits = dtype.bitwidth
        wrapped = int(value) & ((1 << bits) - 1)
        if dtype.signed and wrapped >> (bits - 1):
            wrapped -= 1 << bits
        return np.asarray(wrapped, dtype=dtype.storage)
    as_float = float(value)
    with np.errstate(over="ignore"):
        result = dt.round_to(np.asarray(as_float), dtype)
    if np.isinf(result) and not math.isinf(as_float):
        raise TileValueError(f"Constant {value} is out of range of {dtype}")
    return result


def convert(values: np.ndarray, source: DType, target: DType) -> np.ndarray:
    """Convert element values between dtypes as the GPU does."""
    if source is target:
        return values
    if target.is_bool:
        return values != 0
    if target.is_integral:
        if source.is_float:
            return _float_to_int(values, target)
        return values.astype(target.storage)  # wraps, like the GPU's truncation
    return dt.round_to(values, target)


def _float_to_int(values: np.ndarray, target: DType) -> np.ndarray:
    # PTX cvt.rzi semantics: truncate toward zero, saturate to the range, NaN becomes 0.
    truncated = np.trunc(values.astype(np.float64))
    low, high = dt.integer_range(target)
    nan = np.isnan(truncated)
    below = truncated < float(low)
    above = truncated >= 2.0 ** (target.bitwidth - (1 if target.signed else 0))
    inside = ~(nan | below | above)
    result = np.zeros(truncated.shape, dtype=target.storage)
    result[inside] = truncated[inside].astype(target.storage)
    result[below] = low
    result[above] = high
    return result


def values_as(x, dtype: DType) -> np.ndarray:
    """The values of a tile or constant operand, converted to `dtype`."""
    if isinstance(x, Tile):
        return convert(x._values, x._dtype, dtype)
    return constant_values(x, dtype)


def batch_values_as(x, dtype: DType, ndim: int) -> np.ndarray:
    """`values_as` for batched operands too, aligned for a result of logical rank `ndim`."""
    if isinstance(x, Tile):
        return align(convert(x._raw, x._dtype, dtype), x._batched, ndim)
    return constant_values(x, dtype)


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise TileTypeError(
            f"Shapes are not broadcastable: {', '.join(map(str, shapes))}"
        ) from None


def _shape_of(x) -> tuple[int, ...]:
    return x.shape if isinstance(x, Tile) else ()


def _check_rounding(rounding_mode, flush_to_zero: bool, dtype: DType, op: str) -> None:
    if rounding_mode not in _EXACT_ROUNDING:
        raise NotSimulatedError(f"{op}: rounding_mode={rounding_mode} is not simulated")
    if rounding_mode is not None and not (dtype.is_float and not dtype.restricted):
        raise TileTypeError(f"Rounding mode can only be used for float types, but got {dtype}")
    if flush_to_zero and dtype is not dt.float32:
        raise TileTypeError(f"Flush to zero can only be used for float32 type, but got {dtype}")


def _flush_subnormals(values: np.ndarray) -> np.ndarray:
    tiny = np.finfo(np.float32).tiny
    return np.where(np.abs(values) < tiny, np.copysign(np.float32(0), values), values)


# ----------------------------------------------------------------------------------------------
# Binary operations


def _int_floordiv(a, b):
    zero = b == 0
    # Integer division by zero has no defined result on the GPU (no trap either): give a
    # conspicuous value instead of raising, since `where(d != 0, n // d, 0)` is legitimate.
    result = np.floor_divide(a, np.where(zero, 1, b))
    return np.where(zero, _poison(a.dtype), result)


def _int_mod(a, b):
    zero = b == 0
    result = np.mod(a, np.where(zero, 1, b))
    return np.where(zero, _poison(a.dtype), result)


def _int_cdiv(a, b):
    zero = b == 0
    safe = np.where(zero, 1, b).astype(a.dtype)
    if a.dtype.kind == "i":
        result = -np.floor_divide(-a, safe)
    else:  # as cuTile lowers unsigned cdiv: 0 if a == 0 else (a - 1) // b + 1
        result = np.where(a == 0, 0, (a - 1) // safe + 1)
    return np.where(zero, _poison(a.dtype), result)


def _poison(np_dtype):
    info = np.iinfo(np_dtype)
    return info.min if info.min < 0 else info.max


def _shift(func):
    def shifted(a, b):
        bits = a.dtype.itemsize * 8
        too_far = (b < 0) | (b >= bits)
        result = func(a, np.where(too_far, 0, b).astype(a.dtype))
        if func is np.left_shift:
            overflow = np.zeros((), a.dtype)
        else:
            overflow = np.where(a < 0, -1, 0).astype(a.dtype) if a.dtype.kind == "i" else 0
        return np.where(too_far, overflow, result)

    return shifted


def _float_mod(a, b):
    # As cuTile lowers float %: C's fmod, plus b where the signs differ.  Unlike NumPy's
    # np.mod, a zero result keeps the sign of fmod's (-0.0 % 3.0 is -0.0, not 0.0).
    c = np.fmod(a, b)
    return np.where(((c < 0) != (b < 0)) & (c != 0), c + b, c)


def _float_floordiv(a, b):
    # cuTile lowers float floordiv to floor(a / b), which differs from Python's in rare cases.
    return np.floor(np.true_divide(a, b))


def _min_max(nan_ignoring, nan_propagating):
    def func(a, b, propagate_nan):
        if a.dtype.kind == "f":
            return (nan_propagating if propagate_nan else nan_ignoring)(a, b)
        return nan_propagating(a, b)

    return func


_ARITHMETIC = {
    # name: (integer implementation, float implementation, Python constant folding)
    "add": (np.add, np.add, operator.add),
    "sub": (np.subtract, np.subtract, operator.sub),
    "mul": (np.multiply, np.multiply, operator.mul),
    "truediv": (None, np.true_divide, operator.truediv),
    "floordiv": (_int_floordiv, _float_floordiv, operator.floordiv),
    "mod": (_int_mod, _float_mod, operator.mod),
    "pow": (None, np.power, operator.pow),
    "atan2": (None, np.arctan2, math.atan2),
    "cdiv": (_int_cdiv, None, lambda x, y: -((-x) // y)),
}
_MIN_MAX = {
    "min": (_min_max(np.fmin, np.minimum), min),
    "max": (_min_max(np.fmax, np.maximum), max),
}
_BITWISE = {
    "and": (np.bitwise_and, operator.and_),
    "or": (np.bitwise_or, operator.or_),
    "xor": (np.bitwise_xor, operator.xor),
}
_SHIFTS = {
    "lshift": (_shift(np.left_shift), operator.lshift),
    "rshift": (_shift(np.right_shift), operator.rshift),
}
_COMPARISONS = {
    "eq": (np.equal, operator.eq),
    "ne": (np.not_equal, operator.ne),
    "lt": (np.less, operator.lt),
    "le": (np.less_equal, operator.le),
    "gt": (np.greater, operator.gt),
    "ge": (np.greater_equal, operator.ge),
}


def _fold_constants(python_op, x, y):
    try:
        return python_op(x, y)
    except (ZeroDivisionError, OverflowError, ValueError) as e:
        raise TileValueError(f"Constant folding failed: {e}") from None


def binary(op: str, x, y, *, rounding_mode=None, flush_to_zero=False, propagate_nan=False):
    """One of cuTile's binary operations on tiles and/or Python constants."""
    xd = as_operand_dtype(x, "left operand")
    yd = as_operand_dtype(y, "right operand")
    loose = not isinstance(xd, DType) and not isinstance(yd, DType)
    if op in _COMPARISONS:
        np_op, python_op = _COMPARISONS[op]
        if loose:
            return _fold_constants(python_op, x, y)
        common = dt.promote_operands(xd, yd)
        return _apply(np_op, x, y, common, dt.bool_)
    if op in _BITWISE or op in _SHIFTS:
        np_op, python_op = _BITWISE[op] if op in _BITWISE else _SHIFTS[op]
        if loose:
            return _fold_constants(python_op, x, y)
        common = _bitwise_dtype(op, xd, yd)
        return _apply(np_op, x, y, common, common)
    if op in _MIN_MAX:
        np_op, python_op = _MIN_MAX[op]
        if loose:
            return _fold_constants(python_op, x, y)
        common = _arithmetic_dtype(op, xd, yd, False)
        _check_rounding(None, flush_to_zero, common, op)
        result = _apply(lambda a, b: np_op(a, b, propagate_nan), x, y, common, common)
        return _flush_result(result) if flush_to_zero else result
    int_op, float_op, python_op = _ARITHMETIC[op]
    if loose:
        return _fold_constants(python_op, x, y)
    common = _arithmetic_dtype(op, xd, yd, op == "truediv")
    _check_rounding(rounding_mode, flush_to_zero, common, op)
    np_op = float_op if common.is_float else int_op
    if np_op is None:
        kind = "floating-point" if common.is_float else "integer"
        raise TileTypeError(f"Operation `{op}` is not supported for {kind} dtype {common}")
    if flush_to_zero:
        result = _apply(np_op, _flush_operand(x), _flush_operand(y), common, common)
        return _flush_result(result)
    return _apply(np_op, x, y, common, common)


def _arithmetic_dtype(op: str, xd, yd, force_float: bool) -> DType:
    for side in (xd, yd):
        if isinstance(side, DType) and side.restricted:
            raise TileTypeError(f"Operation `{op}` does not support non-arithmetic dtype {side}")
    common = dt.promote_operands(xd, yd, force_float)
    if common.is_bool:
        raise TileTypeError(
            f"Binary arithmetic op `{op}` does not support bool, please cast bool to int"
        )
    return common


def _bitwise_dtype(op: str, xd, yd) -> DType:
    def kind(side):
        return side if isinstance(side, DType) else dt.dtype_of_constant(side)

    kx, ky = kind(xd), kind(yd)
    if op in _SHIFTS:
        if not (kx.is_integral and ky.is_integral):
            raise TileTypeError(f"Bitwise shift requires integers, got {kx} and {ky}")
    else:
        if not ((kx.is_integral or kx.is_bool) and (ky.is_integral or ky.is_bool)):
            raise TileTypeError(
                "Bitwise operations require integers or booleans."
                " Use an explicit cuda.tile.bitcast() for non-integer operands."
            )
        both_typed = isinstance(xd, DType) and isinstance(yd, DType)
        if both_typed and xd is not yd:
            raise TileTypeError(f"Bitwise operands must have same data type, got: {xd} and {yd}")
        if {kx, ky} == {dt.bool_, dt.int8}:
            raise TileTypeError("Bitwise op does not support bool and int8")
    return dt.promote_operands(xd, yd)


def _apply(np_op, x, y, common: DType, result_dtype: DType) -> Tile:
    shape = broadcast_shape(_shape_of(x), _shape_of(y))
    batch = batch_size(x, y)
    a = batch_values_as(x, common, len(shape))
    b = batch_values_as(y, common, len(shape))
    with np.errstate(all="ignore"):
        values = np_op(a, b)
    values = np.asarray(values)
    shape = lead(batch) + shape
    if values.shape != shape:
        values = np.broadcast_to(values, shape)
    return make_tile(values, result_dtype, bool(batch))


def _flush_operand(x):
    if isinstance(x, Tile) and x._dtype is dt.float32:
        return Tile(_flush_subnormals(x._raw), x._dtype, x._batched)
    return x


def _flush_result(t: Tile) -> Tile:
    return Tile(_flush_subnormals(t._raw), t._dtype, t._batched)


def divmod_(x, y):
    """`divmod(x, y)`: integer floor division and Python-style remainder."""
    xd = as_operand_dtype(x)
    yd = as_operand_dtype(y)
    if not isinstance(xd, DType) and not isinstance(yd, DType):
        return _fold_constants(divmod, x, y)
    common = _arithmetic_dtype("divmod", xd, yd, False)
    if common.is_float:
        raise TileTypeError("divmod() is not implemented for floating point values")
    return binary("floordiv", x, y), binary("mod", x, y)


def positive(x):
    """`+x`: bool becomes int32, anything else is unchanged."""
    xd = as_operand_dtype(x)
    if not isinstance(xd, DType):
        return +x
    if xd.is_bool:
        return astype(x, dt.int32)
    return x


# ----------------------------------------------------------------------------------------------
# Unary operations

_TO_FLOAT, _STRICT_FLOAT, _INT_FLOAT, _BOOL_INT, _ANYTHING = range(5)


def _rsqrt(v):
    return 1 / np.sqrt(v)


_UNARY = {
    # name: (operand rule, NumPy implementation, Python constant folding)
    "exp": (_TO_FLOAT, np.exp, math.exp),
    "exp2": (_TO_FLOAT, np.exp2, lambda v: 2.0**v),
    "log": (_TO_FLOAT, np.log, math.log),
    "log2": (_TO_FLOAT, np.log2, math.log2),
    "sqrt": (_TO_FLOAT, np.sqrt, math.sqrt),
    "rsqrt": (_TO_FLOAT, _rsqrt, lambda v: 1 / math.sqrt(v)),
    "sin": (_TO_FLOAT, np.sin, math.sin),
    "cos": (_TO_FLOAT, np.cos, math.cos),
    "tan": (_TO_FLOAT, np.tan, math.tan),
    "sinh": (_TO_FLOAT, np.sinh, math.sinh),
    "cosh": (_TO_FLOAT, np.cosh, math.cosh),
    "tanh": (_TO_FLOAT, np.tanh, math.tanh),
    "floor": (_STRICT_FLOAT, np.floor, math.floor),
    "ceil": (_STRICT_FLOAT, np.ceil, math.ceil),
    "negative": (_INT_FLOAT, np.negative, operator.neg),
    "abs": (_ANYTHING, np.abs, abs),
    "bitwise_not": (_BOOL_INT, np.invert, operator.invert),
}


def unary(op: str, x, *, rounding_mode=None, flush_to_zero=False):
    """One of cuTile's unary operations (see UNARY_* behaviours in arithmetic_ops.py)."""
    rule, np_op, python_op = _UNARY[op]
    xd = as_operand_dtype(x)
    if not isinstance(xd, DType):
        try:
            return python_op(x)
        except (ValueError, OverflowError) as e:
            raise TileValueError(f"Constant folding of {op}({x}) failed: {e}") from None
    if xd.restricted:
        raise TileTypeError(f"{op} does not support dtype {xd}")
    if xd.is_bool:
        if rule in (_STRICT_FLOAT,):
            raise TileTypeError(f"{op}: Boolean inputs are not supported")
        if rule == _TO_FLOAT:
            x = astype(x, dt.float32)
        elif rule == _INT_FLOAT:
            x = astype(x, dt.int32)
    elif xd.is_integral:
        if rule == _STRICT_FLOAT:
            raise TileTypeError(f"{op}: Integer inputs are not supported")
        if rule == _TO_FLOAT:
            x = astype(x, dt.float32)
    elif rule == _BOOL_INT:
        raise TileTypeError(f"{op}: Float inputs are not supported")
    dtype = x._dtype
    _check_rounding(rounding_mode, flush_to_zero, dtype, op)
    values = _flush_subnormals(x._raw) if flush_to_zero else x._raw
    with np.errstate(all="ignore"):
        result = np.asarray(np_op(values))
    if flush_to_zero:
        result = _flush_subnormals(result)
    return make_tile(result, dtype, x._batched)


def isnan(x):
    xd = as_operand_dtype(x)
    if not isinstance(xd, DType):
        return math.isnan(x)
    if not xd.is_float:
        raise TileTypeError(f"isnan: unexpected input dtype {xd}")
    return Tile(np.asarray(np.isnan(x._raw)), dt.bool_, x._batched)  # 0-d stays an array


# ----------------------------------------------------------------------------------------------
# Selection and conversion


def where(cond, x, y):
    """Elements of `x` where `cond` is true, else of `y`; shapes broadcast together."""
    cd = as_operand_dtype(cond, "condition")
    xd = as_operand_dtype(x)
    yd = as_operand_dtype(y)
    if isinstance(cd, DType) and cd.restricted:
        raise TileTypeError(f"where: condition of dtype {cd} is not numeric")
    common = dt.promote_operands(xd, yd)
    shape = broadcast_shape(_shape_of(cond), _shape_of(x), _shape_of(y))
    rank = len(shape)
    c = batch_values_as(cond, dt.bool_, rank) if isinstance(cond, Tile) else np.asarray(bool(cond))
    values = np.where(c, batch_values_as(x, common, rank), batch_values_as(y, common, rank))
    batch = batch_size(cond, x, y)
    return make_tile(np.broadcast_to(values, lead(batch) + shape), common, bool(batch))


def astype(x, dtype, /, *, rounding_mode=None) -> Tile:
    """Convert a tile (or constant) to `dtype`."""
    target = dt.as_dtype(dtype)
    source = as_operand_dtype(x)
    if not isinstance(source, DType):
        # A constant converts exactly from its Python value (arithmetic_ops.py, astype).
        if rounding_mode not in (None, RoundingMode.RN):
            raise NotSimulatedError(f"astype: rounding_mode={rounding_mode} is not simulated")
        return dtype_constructor(target, x)
    float_to_float = source.is_float and target.is_float
    if rounding_mode is not None and not float_to_float:
        raise TileTypeError("rounding_mode is only valid for float to float conversions")
    if rounding_mode not in (None, RoundingMode.RN):
        raise NotSimulatedError(f"astype: rounding_mode={rounding_mode} is not simulated")
    if source is target:
        return x
    return Tile(convert(x._raw, source, target), target, x._batched)


def dtype_constructor(dtype: DType, value) -> Tile:
    """`ct.int16(5)` and friends: a strictly typed scalar."""
    if isinstance(value, Tile):
        if value.ndim != 0:
            raise TileTypeError(f"{dtype}() expects a scalar, got a tile of shape {value.shape}")
        if value._dtype.restricted:
            raise TileTypeError(f"{dtype}() expects a numeric scalar, got {value._dtype}")
        return astype(value, dtype)
    if not is_loose(value):
        raise TileTypeError(f"Invalid argument type for {dtype}: {type(value).__name__}")
    pytype = bool if dtype.is_bool else int if dtype.is_integral else float
    return Tile(constant_values(pytype(value), dtype), dtype)


def bitcast(x, /, dtype) -> Tile:
    """Reinterpret the bits of each element as `dtype` (same bit width, no bool)."""
    target = dt.as_dtype(dtype)
    source = as_operand_dtype(x)
    if not isinstance(source, DType):
        source = dt.dtype_of_constant(x)
        x = Tile(constant_values(x, source), source)
    if source.is_bool or target.is_bool:
        raise TileTypeError(f"Cannot bitcast from {source} to {target}: bool is not supported")
    if source.bitwidth != target.bitwidth:
        raise TileTypeError(
            f"Cannot bitcast from {source} to {target}: bit width is different "
            f"({source.bitwidth} vs. {target.bitwidth})"
        )
    if dt.tfloat32 in (source, target):
        raise NotSimulatedError("bitcast to or from tfloat32 is not simulated")
    values = np.array(x._raw, order="C")  # ascontiguousarray would make 0-d 1-d
    if source is dt.bfloat16:  # stored as float32 whose low 16 bits are zero
        values = (values.view(np.uint32) >> 16).astype(np.uint16)
    if target is dt.bfloat16:
        bits = values.view(np.uint16).astype(np.uint32) << 16
        return Tile(bits.view(np.float32), target, x._batched)
    return Tile(values.view(target.storage), target, x._batched)
