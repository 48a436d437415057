"""cuTile data types for the simulator: NumPy storage, rounding and promotion.

The simulator's dtype objects wrap cuTile's own `DType` objects (so `x.dtype == ct.float32`
holds whichever namespace the kernel used) and add what NumPy needs: a storage dtype and,
for the formats NumPy lacks (bfloat16, tfloat32), a rounding step applied after every
operation that produces them.  Promotion asks cuTile's own table, so the simulator cannot
drift from the compiler's rules.
"""

from __future__ import annotations

import cuda.tile as ct
import numpy as np
from cuda.tile import _datatype as ct_datatype

from ._errors import TileTypeError, TileValueError

_CATEGORY_BOOL, _CATEGORY_INT, _CATEGORY_FLOAT = 0, 1, 2


class DType:
    """A simulated cuTile dtype.  Calling it builds a strictly typed scalar, like `ct.int16(5)`."""

    __slots__ = ("_hash", "bitwidth", "category", "ct", "name", "restricted", "signed", "storage")

    def __init__(self, ct_dtype, storage: type, category: int, *, restricted: bool = False):
        self.ct = ct_dtype
        self.name = ct_dtype.name
        self.bitwidth = ct_dtype.bitwidth
        self.storage = np.dtype(storage)
        self.category = category
        self.signed = bool(ct_datatype.is_signed(ct_dtype))
        self.restricted = restricted
        self._hash = hash(ct_dtype)  # equal to the cuTile dtype, so hash alike

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        if isinstance(other, ct.DType):
            return self.ct == other
        return NotImplemented

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"<DType '{self.name}'>"

    def __str__(self):
        return self.name

    def __call__(self, value, /):
        from ._elementwise import dtype_constructor

        return dtype_constructor(self, value)

    @property
    def is_bool(self) -> bool:
        return self.category == _CATEGORY_BOOL

    @property
    def is_integral(self) -> bool:
        return self.category == _CATEGORY_INT

    @property
    def is_float(self) -> bool:
        return self.category == _CATEGORY_FLOAT


bool_ = DType(ct.bool_, np.bool_, _CATEGORY_BOOL)
int8 = DType(ct.int8, np.int8, _CATEGORY_INT)
int16 = DType(ct.int16, np.int16, _CATEGORY_INT)
int32 = DType(ct.int32, np.int32, _CATEGORY_INT)
int64 = DType(ct.int64, np.int64, _CATEGORY_INT)
uint8 = DType(ct.uint8, np.uint8, _CATEGORY_INT)
uint16 = DType(ct.uint16, np.uint16, _CATEGORY_INT)
uint32 = DType(ct.uint32, np.uint32, _CATEGORY_INT)
uint64 = DType(ct.uint64, np.uint64, _CATEGORY_INT)
float16 = DType(ct.float16, np.float16, _CATEGORY_FLOAT)
# NumPy has no bfloat16 or tfloat32: keep them in float32, rounded after every operation.
bfloat16 = DType(ct.bfloat16, np.float32, _CATEGORY_FLOAT)
float32 = DType(ct.float32, np.float32, _CATEGORY_FLOAT)
float64 = DType(ct.float64, np.float64, _CATEGORY_FLOAT)
tfloat32 = DType(ct.tfloat32, np.float32, _CATEGORY_FLOAT, restricted=True)

ALL_DTYPES = (
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    bfloat16,
    float32,
    float64,
    tfloat32,
)
_BY_CT = {d.ct: d for d in ALL_DTYPES}
_BY_NUMPY = {d.storage: d for d in ALL_DTYPES if d not in (bfloat16, tfloat32)}
_MANTISSA_DROP = {bfloat16: 16, tfloat32: 13}  # float32 mantissa bits each format discards


def as_dtype(spec) -> DType:
    """The simulated dtype for a simulator or real cuTile dtype; anything else is an error."""
    if isinstance(spec, DType):
        return spec
    if isinstance(spec, ct.DType):
        try:
            return _BY_CT[spec]
        except KeyError:
            raise TileTypeError(f"dtype {spec} is not supported by the simulator") from None
    raise TileTypeError(f"Expected a dtype, got {spec!r}")


def dtype_of_numpy(np_dtype: np.dtype) -> DType:
    """The cuTile dtype of a host array; NumPy types cuTile lacks are rejected."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"Arrays of NumPy dtype {np_dtype} cannot be kernel arguments") from None


def round_to(values, dtype: DType) -> np.ndarray:
    """Values in `dtype`'s storage, rounded to nearest-even for formats NumPy lacks."""
    drop = _MANTISSA_DROP.get(dtype)
    if drop is None:
        return np.asarray(values, dtype=dtype.storage)
    values = np.asarray(values)
    if values.dtype.kind == "f" and values.itemsize <= 4:
        wide, uint, drop_bits = values.astype(np.float32), np.uint32, drop
    else:
        # Round once from float64 (exact for every other source), not via float32 twice.
        wide, uint, drop_bits = values.astype(np.float64), np.uint64, drop + 29
    bits = np.array(wide, order="C").view(uint)  # (ascontiguousarray makes 0-d 1-d)
    one = uint(1)
    half = uint((1 << (drop_bits - 1)) - 1)
    odd = (bits >> uint(drop_bits)) & one
    with np.errstate(over="ignore"):
        rounded = ((bits + half + odd) >> uint(drop_bits)) << uint(drop_bits)
        rounded = rounded.view(wide.dtype).astype(np.float32)
    # NaN must stay NaN (the carry could turn a NaN payload into infinity).
    return np.where(np.isnan(wide), np.float32(np.nan), rounded).reshape(values.shape)


# ----------------------------------------------------------------------------------------------
# Promotion.  Python numbers in kernels are "loosely typed" constants: they take the type of the
# other operand when the kinds agree (see cuda/tile/_ir/ops_utils.py, promote_dtypes).


def dtype_of_constant(value) -> DType:
    """The dtype cuTile gives a Python constant when it must have one."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        if -(2**31) <= value < 2**31:
            return int32
        if -(2**63) <= value < 2**63:
            return int64
        if 0 <= value < 2**64:
            return uint64
        raise TileValueError(f"Constant {value} is out of range of any supported integer type")
    if isinstance(value, float):
        return float32
    raise TileTypeError(f"Python value {value!r} of type {type(value).__name__} is not supported")


def integer_range(dtype: DType) -> tuple[int, int]:
    if dtype.signed:
        return -(1 << (dtype.bitwidth - 1)), (1 << (dtype.bitwidth - 1)) - 1
    return 0, (1 << dtype.bitwidth) - 1


_promotion_cache: dict[tuple[DType, DType, bool], DType] = {}


def promote(a: DType, b: DType, force_float: bool = False) -> DType:
    """cuTile's promotion of two strictly typed operands (cached: it sits on every operation)."""
    key = (a, b, force_float)
    cached = _promotion_cache.get(key)
    if cached is None:
        cached = _BY_CT[ct_datatype.promote_dtypes(a.ct, b.ct, force_float)]
        _promotion_cache[key] = cached
    return cached


def promote_with_constant(dtype: DType, value, force_float: bool = False) -> DType:
    """cuTile's promotion of a typed operand with a loosely typed Python constant."""
    loose = dtype_of_constant(value)
    category = _CATEGORY_FLOAT if dtype.restricted else dtype.category
    if loose.category == category:
        result = dtype
        if category == _CATEGORY_INT and not force_float:
            low, high = integer_range(dtype)
            if not low <= value <= high:
                raise TileValueError(f"Integer constant {value} is out of range of {dtype}")
    else:
        result = loose if loose.category > category else dtype
    if force_float and not result.is_float:
        return float32
    return result


def promote_operands(a, b, force_float: bool = False) -> DType:
    """Promote two operands, each a DType (typed) or a Python constant (loose)."""
    if isinstance(a, DType):
        if isinstance(b, DType):
            return promote(a, b, force_float)
        return promote_with_constant(a, b, force_float)
    if isinstance(b, DType):
        return promote_with_constant(b, a, force_float)
    return promote(dtype_of_constant(a), dtype_of_constant(b), force_float)


def check_implicit_cast(source, target: DType, context: str) -> None:
    """cuTile's rule for storing a value into an array of another dtype (cast_ops.py)."""
    if isinstance(source, DType):
        try:
            ok = promote(source, target) == target
        except TileTypeError:
            ok = False
        if not ok:
            raise TileTypeError(f"{context}: cannot implicitly cast {source} to {target}")
        return
    loose = dtype_of_constant(source)
    if target.is_bool:
        if loose.category not in (_CATEGORY_BOOL, _CATEGORY_INT) or source not in (0, 1):
            raise TileTypeError(f"{context}: cannot implicitly cast {source} to {target}")
    elif loose.category > (_CATEGORY_FLOAT if target.restricted else target.category):
        raise TileTypeError(f"{context}: cannot implicitly cast {source} to {target}")
    elif loose.category == target.category == _CATEGORY_INT:
        low, high = integer_range(target)
        if not low <= source <= high:
            raise TileValueError(f"{context}: {source} is out of range of {target}")
