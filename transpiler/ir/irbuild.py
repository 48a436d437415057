"""Typed constructors for kernel IR expressions.

Both producers of kernels (the cuTile BASIC lowering and the legacy loop extraction)
build expressions through these functions, so type promotion, broadcasting and the
insertion of casts follow one set of rules:

- integer op integer stays i32, except `/` and `^`, which give the float type;
- a float with anything gives the wider float type (f16/bf16 < f32 < f64);
- constants are weakly typed (they take the other operand's type, as Python scalars
  do in cuTile), typed values of another type are cast explicitly;
- a scalar combines with a tile by broadcasting; two tiles must have equal shapes;
- a truth value in arithmetic or compared with a number is the integer 1 or 0;
- i32 arithmetic wraps around (two's complement), also where constants are folded.
"""

from __future__ import annotations

import math

from ..errors import BasicSemanticError
from ..language.builtins import FLOAT_TILE_OPS
from .kernel import (
    FLOAT_TYPES,
    Binary,
    Broadcast,
    Cast,
    Const,
    Full,
    DType,
    KExpr,
    Mma,
    Select,
    TileType,
    Unary,
)

_FLOAT_RANK = {"f16": 1, "bf16": 1, "tf32": 1, "f32": 2, "f64": 3}
ARITHMETIC = (
    "add", "sub", "mul", "div", "pow", "rem", "mod", "floordiv", "truncdiv", "min", "max", "cdiv",
)  # fmt: skip
COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")
LOGICAL = ("and", "or")
# Unary operations that always produce a float.
FLOAT_FUNCTIONS = FLOAT_TILE_OPS


def is_float(dtype: DType) -> bool:
    return dtype in FLOAT_TYPES


def wider_float(a: DType, b: DType) -> DType:
    if not is_float(a):
        return b
    if not is_float(b):
        return a
    if _FLOAT_RANK[a] == _FLOAT_RANK[b] and a != b:
        return "f32"  # f16 with bf16: meet in f32
    return a if _FLOAT_RANK[a] >= _FLOAT_RANK[b] else b


def mma(a: KExpr, b: KExpr, acc: KExpr, tf32: bool = False) -> Mma:
    """`a @ b + acc`; with `tf32`, f32 operands are rounded to TensorFloat-32 first (as
    NVIDIA's MatMul sample does to reach the tensor cores), the accumulator stays f32."""
    if tf32 and a.type.dtype == b.type.dtype == "f32":
        a, b = cast(a, "tf32"), cast(b, "tf32")
    (m, _), (_, n) = a.type.shape, b.type.shape
    return Mma(a, b, acc, type=TileType(acc.type.dtype, (m, n)))


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's broadcasting rule (cuTile follows it): (T0, 1) with (1, T1) is (T0, T1)."""
    if a == b or not b:
        return a
    if not a:
        return b
    if len(a) == len(b) and all(x == y or x == 1 or y == 1 for x, y in zip(a, b)):
        return tuple(max(x, y) for x, y in zip(a, b))
    raise BasicSemanticError(f"tile shapes {_fmt(a)} and {_fmt(b)} do not match")


def _fmt(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, shape)) + ")"


def const(value: float | int | bool, dtype: DType) -> Const:
    return Const(value, type=TileType(dtype))


def cast(expr: KExpr, dtype: DType) -> KExpr:
    """`expr` converted to `dtype` (constants are simply retyped)."""
    if expr.type.dtype == dtype:
        return expr
    if isinstance(expr, Const):
        value = expr.value
        if dtype in FLOAT_TYPES:
            value = float(value)
        elif dtype in ("i32", "i64"):
            value = _to_integer(value, dtype)
        return Const(value, type=TileType(dtype, expr.type.shape))
    return Cast(expr, type=expr.type.with_dtype(dtype))


def _to_integer(value: float, dtype: DType) -> int:
    """A constant converted as the GPU converts (cuTile's astype): truncated toward zero,
    saturated to the type's range, NaN to 0."""
    bits = 64 if dtype == "i64" else 32
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    if isinstance(value, float):
        if math.isnan(value):
            return 0
        if math.isinf(value):
            return high if value > 0 else low
        value = math.trunc(value)
    return min(max(int(value), low), high)


def broadcast(expr: KExpr, shape: tuple[int, ...]) -> KExpr:
    if expr.type.shape == shape:
        return expr
    if isinstance(expr, Const):
        return Full(expr.value, type=TileType(expr.type.dtype, shape))
    return Broadcast(expr, type=TileType(expr.type.dtype, shape))


def _operand_dtype(left: KExpr, right: KExpr) -> DType:
    """The common type of two operands, letting weak constants adapt."""
    lt, rt = left.type.dtype, right.type.dtype
    if isinstance(left, Const) and not isinstance(right, Const):
        if not (is_float(lt) and not is_float(rt)):
            return rt
    if isinstance(right, Const) and not isinstance(left, Const):
        if not (is_float(rt) and not is_float(lt)):
            return lt
    if is_float(lt) or is_float(rt):
        return wider_float(lt, rt)
    if "i64" in (lt, rt):
        return "i64"
    return lt if lt == rt else "i32"


def binary(op: str, left: KExpr, right: KExpr, float_dtype: DType) -> KExpr:
    """`left op right` with promotion; `float_dtype` is what int `/` and `^` produce."""
    shape = broadcast_shape(left.type.shape, right.type.shape)
    if op in LOGICAL:
        return Binary(op, to_bool(left), to_bool(right), type=TileType("bool", shape))
    if "bool" in (left.type.dtype, right.type.dtype) and not (
        op in COMPARISONS and left.type.dtype == right.type.dtype
    ):
        # A truth value used as a number is 1 or 0 (`1 < 2 < 3` is `1 < 3`): the number
        # must not be converted to a truth value instead.
        left, right = _as_number(left), _as_number(right)
    dtype = _operand_dtype(left, right)
    if op in ("div", "pow") and not is_float(dtype):
        dtype = float_dtype
    left, right = cast(left, dtype), cast(right, dtype)
    if op in COMPARISONS:
        return Binary(op, left, right, type=TileType("bool", shape))
    if op == "cdiv" and is_float(dtype):
        raise BasicSemanticError("CDIV needs integer operands")
    return _fold(Binary(op, left, right, type=TileType(dtype, shape)))


def _as_number(expr: KExpr) -> KExpr:
    return cast(expr, "i32") if expr.type.dtype == "bool" else expr


def _fold(e: Binary) -> KExpr:
    """Simplify integer index arithmetic the lowering creates, e.g. `(x - 1) + 1` -> `x`
    (BASIC's inclusive FOR limit meeting range()'s exclusive stop)."""
    left, right = e.left, e.right
    if e.op == "rem" and isinstance(left, Const) and isinstance(right, Const):
        value = _constant_remainder(left.value, right.value)
        return e if value is None else Const(value, type=e.type)
    if e.op == "truncdiv" and isinstance(left, Const) and isinstance(right, Const) and right.value:
        quotient = abs(left.value) // abs(right.value)
        return Const(quotient if (left.value < 0) == (right.value < 0) else -quotient, type=e.type)
    if e.type.dtype != "i32":
        return e
    if e.op == "add" and isinstance(left, Const) and left.value == 0:
        return right
    if e.op == "mul" and isinstance(left, Const) and left.value == 1:
        return right
    if not isinstance(right, Const):
        return e
    if isinstance(left, Const) and e.op in ("add", "sub", "mul"):
        value = {"add": left.value + right.value, "sub": left.value - right.value}.get(
            e.op, left.value * right.value
        )
        return Const(wrap_i32(value), type=e.type)
    if isinstance(left, Const) and e.op == "cdiv" and right.value > 0:
        return Const(-(-left.value // right.value), type=e.type)  # a grid of 64 / 64 is 1
    if e.op in ("add", "sub") and right.value == 0:
        return left
    if e.op in ("mul", "cdiv") and right.value == 1:
        return left  # one tile per element along an axis: the count itself
    if e.op == "add" and isinstance(left, Const) and left.value == 0:
        return right
    if (
        e.op in ("add", "sub")
        and isinstance(left, Binary)
        and left.op in ("add", "sub")
        and left.op != e.op
        and isinstance(left.right, Const)
        and left.right.value == right.value
    ):
        return left.left
    return e


def wrap_i32(value: int) -> int:
    """`value` wrapped around to a 32-bit integer, as the GPU's i32 arithmetic does."""
    return (value + 2**31) % 2**32 - 2**31


def _constant_remainder(a: float, b: float) -> float | None:
    """`a MOD b` of two constants (truncated toward zero, as the kernels compute it), or
    None where a kernel should compute it (a zero divisor, an infinite dividend)."""
    if b == 0 or math.isnan(a) or math.isnan(b) or math.isinf(a):
        return None
    if isinstance(a, int) and isinstance(b, int):
        r = abs(a) % abs(b)
        return -r if a < 0 else r
    return math.fmod(a, b)


def unary(op: str, operand: KExpr, float_dtype: DType) -> KExpr:
    dtype = operand.type.dtype
    if op == "not":
        operand = to_bool(operand)
        return Unary("not", operand, type=operand.type)
    if op in FLOAT_FUNCTIONS and not is_float(dtype):
        operand = cast(operand, float_dtype)
    if op == "neg" and isinstance(operand, Const) and not isinstance(operand.value, bool):
        value = -operand.value
        return Const(wrap_i32(value) if dtype == "i32" else value, type=operand.type)
    return Unary(op, operand, type=operand.type)


def isnan(expr: KExpr) -> KExpr:
    """Whether `expr` is NaN (elementwise)."""
    return Unary("isnan", expr, type=TileType("bool", expr.type.shape))


def to_bool(expr: KExpr) -> KExpr:
    """BASIC truth: nonzero is true."""
    if expr.type.dtype == "bool":
        return expr
    return Binary("ne", expr, const(0, expr.type.dtype), type=TileType("bool", expr.type.shape))


def select(cond: KExpr, if_true: KExpr, if_false: KExpr, float_dtype: DType) -> KExpr:
    shape = broadcast_shape(
        broadcast_shape(cond.type.shape, if_true.type.shape), if_false.type.shape
    )
    dtype = _operand_dtype(if_true, if_false)
    if not is_float(dtype) and (is_float(if_true.type.dtype) or is_float(if_false.type.dtype)):
        dtype = float_dtype
    return Select(
        to_bool(cond), cast(if_true, dtype), cast(if_false, dtype), type=TileType(dtype, shape)
    )
