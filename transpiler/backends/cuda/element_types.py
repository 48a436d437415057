"""Element types of the kernel IR as CUDA C++: type names, literals and conversions.

Half-precision values (`__half`, `__nv_bfloat16`) are stored as such but computed in
float: every operation converts its operands with `__half2float`/`__bfloat162float` and
rounds the result back once, which gives the correctly rounded result of the operation
(a float holds more than twice the bits of either format), as cuTile's f16 arithmetic does.
"""

from __future__ import annotations

import math

from ...ir import kernel as ir

C_TYPES = {
    "f16": "__half",
    "bf16": "__nv_bfloat16",
    "tf32": "float",  # an f32 rounded to TensorFloat-32 (b2t_tf32), a WMMA operand
    "f32": "float",
    "f64": "double",
    "i32": "int",
    "i64": "long long",
    "bool": "bool",
}
LOW_PRECISION = ("f16", "bf16")
INTEGERS = ("i32", "i64")
_TO_FLOAT = {"f16": "__half2float", "bf16": "__bfloat162float"}
_FROM_FLOAT = {"f16": "__float2half", "bf16": "__float2bfloat16"}
_FROM_DOUBLE = {"f16": "__double2half", "bf16": "__double2bfloat16"}
_TO_INT_RZ = {
    ("f32", "i32"): "__float2int_rz",
    ("f64", "i32"): "__double2int_rz",
    ("f16", "i32"): "__half2int_rz",
    ("bf16", "i32"): "__bfloat162int_rz",
}


def c_type(dtype: ir.DType) -> str:
    return C_TYPES[dtype]


def compute_type(dtype: ir.DType) -> ir.DType:
    """The type arithmetic on `dtype` happens in (f32 for the half-precision types)."""
    return "f32" if dtype in LOW_PRECISION else dtype


def literal(value: float | bool, dtype: ir.DType) -> str:
    """`value` as a C++ literal of `dtype` (1.0 for double, 1.0f for float)."""
    if dtype == "bool":
        return "true" if value else "false"
    if dtype in INTEGERS:
        number = int(value)
        suffix = "LL" if dtype == "i64" else ""
        if number == -(2 ** (63 if dtype == "i64" else 31)):  # no literal has this value
            return f"({number + 1}{suffix} - 1)"
        return f"{number}{suffix}"
    number = float(value)
    if dtype in LOW_PRECISION:
        return f"{_FROM_FLOAT[dtype]}({literal(number, 'f32')})"
    if math.isnan(number):
        return "NAN"
    if math.isinf(number):
        return "INFINITY" if number > 0 else "-INFINITY"
    text = repr(number)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + ("f" if dtype == "f32" else "")


def to_compute(text: str, dtype: ir.DType) -> str:
    """A value of `dtype` as its compute type (floats for half precision)."""
    return f"{_TO_FLOAT[dtype]}({text})" if dtype in LOW_PRECISION else text


def from_compute(text: str, dtype: ir.DType) -> str:
    """A value of `compute_type(dtype)` rounded back to `dtype`."""
    return f"{_FROM_FLOAT[dtype]}({text})" if dtype in LOW_PRECISION else text


def convert(text: str, source: ir.DType, target: ir.DType) -> str:
    """Convert a value between element types as cuTile's astype does (float to integer
    truncates toward zero and saturates, anything to bool is `!= 0`)."""
    if source == target:
        return text
    if target == "bool":
        return f"{to_compute(text, source)} != {literal(0, compute_type(source))}"
    if (source, target) in _TO_INT_RZ:
        return f"{_TO_INT_RZ[source, target]}({text})"
    if target == "tf32":
        return f"b2t_tf32({convert(text, source, 'f32')})"
    if source == "tf32":
        return convert(text, "f32", target)
    if target in LOW_PRECISION:
        if source == "f64":
            return f"{_FROM_DOUBLE[target]}({text})"
        if source == "f32":
            return f"{_FROM_FLOAT[target]}({text})"
        return f"{_FROM_FLOAT[target]}({convert(text, source, 'f32')})"
    if source in LOW_PRECISION:
        as_float = to_compute(text, source)
        return as_float if target == "f32" else f"static_cast<{c_type(target)}>({as_float})"
    return f"static_cast<{c_type(target)}>({text})"
