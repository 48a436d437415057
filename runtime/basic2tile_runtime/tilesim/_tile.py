"""The simulated `Tile`: an immutable NumPy array with a cuTile dtype.

Scalars are 0-d tiles, as in cuTile.  Python numbers stay Python numbers (cuTile's
"loosely typed" constants) until they meet a tile.

A *batched* tile (see `_batch.py`) holds one value per block of a batch: its storage `_raw`
has a leading batch axis, while `shape` and `dtype` stay the per-block ones, so every type
check reads the same in both modes.  `_values` is the per-block storage of an unbatched
tile; on a batched tile it raises `NotBatchable`, so code that was not written for batches
falls back to block-by-block execution instead of misreading the batch axis.

Operators follow `cuda.tile.Tile` in `_stub.py`: each one calls the matching module-level
operation.
"""

from __future__ import annotations

import numpy as np

from ._dtypes import DType
from ._errors import NotBatchable, TileTypeError

# cuTile lowers every tile to Tile IR, whose shapes are powers of two; tileiras also refuses
# tiles of more than 2**24 elements.
MAX_TILE_ELEMENTS = 1 << 24

LOOSE_TYPES = (bool, int, float)


def is_loose(value) -> bool:
    """A Python constant (not NumPy scalars: cuTile kernels cannot receive those)."""
    return type(value) in LOOSE_TYPES


def check_tile_shape(shape: tuple[int, ...], what: str = "Tile shape") -> tuple[int, ...]:
    numel = 1
    for i, dim in enumerate(shape):
        if type(dim) is not int:
            raise TileTypeError(f"{what} {shape}: dimension #{i} is not a constant integer")
        if dim <= 0 or dim & (dim - 1):
            raise TileTypeError(f"{what} {shape}: dimension #{i} is not a power of two")
        numel *= dim
    if numel > MAX_TILE_ELEMENTS:
        raise TileTypeError(f"{what} {shape} has {numel} elements, more than 2**24")
    return shape


class Tile:
    """An immutable tile.  Build tiles with the `tilesim` operations, not this constructor."""

    __slots__ = ("_batched", "_dtype", "_raw")
    # Let our reflected operators win over NumPy's broadcasting of unknown objects.
    __array_ufunc__ = None
    # The largest batched storage made since the launcher last reset it (sizes batches).
    peak_batched_bytes = 0

    def __init__(self, values: np.ndarray, dtype: DType, batched: bool = False):
        values.flags.writeable = False
        self._raw = values
        self._dtype = dtype
        self._batched = batched
        if batched and values.nbytes > Tile.peak_batched_bytes:
            Tile.peak_batched_bytes = values.nbytes

    # -- attributes ------------------------------------------------------------------------
    @property
    def _values(self) -> np.ndarray:
        if self._batched:
            raise NotBatchable("a per-block value is needed as one Python value")
        return self._raw

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self._raw.shape[1:] if self._batched else self._raw.shape

    @property
    def ndim(self) -> int:
        return self._raw.ndim - self._batched

    def to_numpy(self) -> np.ndarray:
        """Simulator only: a writable copy of the values (bfloat16/tfloat32 as float32)."""
        return self._values.copy()

    # -- methods of cuda.tile.Tile ---------------------------------------------------------
    def item(self) -> Tile:
        from ._shape_ops import reshape

        return reshape(self, ())

    def reshape(self, shape) -> Tile:
        from ._shape_ops import reshape

        return reshape(self, shape)

    def permute(self, axes) -> Tile:
        from ._shape_ops import permute

        return permute(self, axes)

    def transpose(self, axis0=None, axis1=None) -> Tile:
        from ._shape_ops import transpose

        return transpose(self, axis0, axis1)

    def astype(self, dtype, *, rounding_mode=None) -> Tile:
        from ._elementwise import astype

        return astype(self, dtype, rounding_mode=rounding_mode)

    def extract(self, index, shape) -> Tile:
        from ._shape_ops import extract

        return extract(self, index, shape)

    def insert(self, index, value) -> Tile:
        from ._shape_ops import insert

        return insert(self, index, value)

    def __getitem__(self, index) -> Tile:
        from ._shape_ops import getitem_expand_dims

        return getitem_expand_dims(self, index)

    # -- Python protocols cuTile gives a meaning (or refuses) ------------------------------
    def __bool__(self) -> bool:
        # cuTile converts a condition with `ct.bool_(x)`, which needs a numeric scalar.
        if self.ndim != 0:
            raise TileTypeError(f"Expected a scalar condition, got a tile of shape {self.shape}")
        if self._batched:
            # A batch branches as one when its blocks agree (as they would one by one).
            truth = self._raw.astype(bool)
            if truth.all() or not truth.any():
                return bool(truth[0])
            raise NotBatchable("the blocks of a batch take different branches")
        return bool(self._values)

    def __int__(self):
        raise TileTypeError("int() expects a constant argument, got a tile")

    def __float__(self):
        raise TileTypeError("float() expects a constant argument, got a tile")

    def __index__(self):
        raise TileTypeError("A tile cannot be used as a Python index; use ct.extract or ct.item")

    def __len__(self):
        raise TileTypeError("len() of a tile is not supported; use .shape")

    def __iter__(self):
        raise TileTypeError("Tiles are not iterable")

    def __setitem__(self, key, value):
        raise TileTypeError("Tiles are immutable: item assignment is not supported")

    __hash__ = None

    # -- printing --------------------------------------------------------------------------
    def __format__(self, spec: str) -> str:
        return _format_values(self._values, self._dtype, spec)

    def __str__(self) -> str:
        return _format_values(self._values, self._dtype, "")

    # cuTile prints a tuple of tiles as "([0, 1], [2, 3])": repr must be the values too.
    __repr__ = __str__

    # -- operators -------------------------------------------------------------------------
    def __add__(self, other):
        return _binop("add", self, other)

    def __radd__(self, other):
        return _binop("add", other, self)

    def __sub__(self, other):
        return _binop("sub", self, other)

    def __rsub__(self, other):
        return _binop("sub", other, self)

    def __mul__(self, other):
        return _binop("mul", self, other)

    def __rmul__(self, other):
        return _binop("mul", other, self)

    def __truediv__(self, other):
        return _binop("truediv", self, other)

    def __rtruediv__(self, other):
        return _binop("truediv", other, self)

    def __floordiv__(self, other):
        return _binop("floordiv", self, other)

    def __rfloordiv__(self, other):
        return _binop("floordiv", other, self)

    def __mod__(self, other):
        return _binop("mod", self, other)

    def __rmod__(self, other):
        return _binop("mod", other, self)

    def __pow__(self, other):
        return _binop("pow", self, other)

    def __rpow__(self, other):
        return _binop("pow", other, self)

    def __and__(self, other):
        return _binop("and", self, other)

    def __rand__(self, other):
        return _binop("and", other, self)

    def __or__(self, other):
        return _binop("or", self, other)

    def __ror__(self, other):
        return _binop("or", other, self)

    def __xor__(self, other):
        return _binop("xor", self, other)

    def __rxor__(self, other):
        return _binop("xor", other, self)

    def __lshift__(self, other):
        return _binop("lshift", self, other)

    def __rlshift__(self, other):
        return _binop("lshift", other, self)

    def __rshift__(self, other):
        return _binop("rshift", self, other)

    def __rrshift__(self, other):
        return _binop("rshift", other, self)

    def __divmod__(self, other):
        if not _tile_like(other):
            return NotImplemented
        from ._elementwise import divmod_

        return divmod_(self, other)

    def __rdivmod__(self, other):
        if not _tile_like(other):
            return NotImplemented
        from ._elementwise import divmod_

        return divmod_(other, self)

    def __matmul__(self, other):
        if not isinstance(other, Tile):
            return NotImplemented
        from ._matmul import matmul

        return matmul(self, other)

    def __eq__(self, other):
        return _binop("eq", self, other)

    def __ne__(self, other):
        return _binop("ne", self, other)

    def __lt__(self, other):
        return _binop("lt", self, other)

    def __le__(self, other):
        return _binop("le", self, other)

    def __gt__(self, other):
        return _binop("gt", self, other)

    def __ge__(self, other):
        return _binop("ge", self, other)

    def __neg__(self):
        from ._elementwise import unary

        return unary("negative", self)

    def __pos__(self):
        from ._elementwise import positive

        return positive(self)

    def __invert__(self):
        from ._elementwise import unary

        return unary("bitwise_not", self)

    def __abs__(self):
        from ._elementwise import unary

        return unary("abs", self)


def _tile_like(value) -> bool:
    return isinstance(value, Tile) or is_loose(value)


def _binop(op: str, lhs, rhs):
    if not (_tile_like(lhs) and _tile_like(rhs)):
        return NotImplemented
    from ._elementwise import binary

    return binary(op, lhs, rhs)


def _format_values(values: np.ndarray, dtype: DType, spec: str) -> str:
    def one(x) -> str:
        if dtype.is_bool:
            x = int(x)
        return format(x.item() if hasattr(x, "item") else x, spec)

    def nested(a) -> str:
        if a.ndim == 0:
            return one(a[()])
        return "[" + ", ".join(nested(row) for row in a) + "]"

    return nested(values)
