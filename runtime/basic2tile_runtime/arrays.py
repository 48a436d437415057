"""BASIC arrays for generated host programs: NumPy storage, BASIC subscripts.

Generated code writes `a[i] = a[i - 1] + x[i]` and `m[i, j]`.  A subscript is any number:
it is rounded to the nearest integer as floor(x + 0.5) (ECMA-55 8.4; the interpreter's
rule) and checked against the bounds `base..upper` of its dimension.  A subscript outside
them is the fatal "subscript out of range" (never Python's negative-index wrap-around),
an array whose DIM has not run yet is "array used before its DIM statement ran", both with
the interpreter's wording.  Reading an element gives a Python float (a str for a string
array), whatever the storage type.

`a.data` is the storage GPU kernels use directly: a C-contiguous ndarray with the current
extents (upper - base + 1 per dimension), whose element [k1, k2] is BASIC's
(base + k1, base + k2).  Its type is float64 (float32 with --precision f32) for numbers,
int32 for `%` arrays and object (Python str) for strings.  Generated code converts values
before storing them (`to_integer`, `to_f32`, `check_string`), as the interpreter does, so
a store is a plain NumPy assignment.

Element access is the hot path of host loops, so every array gets its own tiny class
whose `__getitem__` / `__setitem__` are closures over the storage and the bounds (a closure
cell is cheaper than an attribute lookup), with a fast path for int subscripts: the
variables of `for i in range(...)` loops.

MAT statements (`mat_read`, `mat_print`, `mat_binary`...) follow the interpreter's
`transpiler/interpreter/mat.py` exactly: same shapes, same order of floating-point
operations, same messages.  A MAT statement may give an array a new shape of at most as
many elements as it had when it was created; `a.data` is then a new view of the same
buffer.
"""

from __future__ import annotations

import math
from array import array as _c_floats

import numpy as np

from .console import Console
from .data import DataPool
from .dialect import mat_first_subscript
from .extended import set_determinant
from .faults import BasicFault
from .inputs import NUMBER, STRING
from .limits import IMPLICIT_UPPER_BOUND, TOO_MANY_ELEMENTS
from .stringfns import ILLEGAL_FUNCTION_CALL, change_codes, change_text
from .numformat import format_number_trimmed

SUBSCRIPT_OUT_OF_RANGE = "subscript out of range"
NOT_DIMENSIONED = "array used before its DIM statement ran"
BAD_BOUND = "invalid DIM bound"
TOO_LARGE = "MAT result larger than the array's DIM"
SHAPE_MISMATCH = "MAT dimensions do not match"
SINGULAR = "singular matrix"
NOT_SQUARE = "matrix is not square"
NEEDS_MATRIX = "MAT needs a two-dimensional array"

# Storage type per element kind: "f64" and "f32" numbers, "i32" for `%`, "str".
DTYPES = {"f64": np.float64, "f32": np.float32, "i32": np.int32, "str": object}

_f32_cell = _c_floats("f", [0.0])


def to_f32(x: float) -> float:
    """x rounded to the nearest float32, as a Python float (overflow gives an infinity)."""
    _f32_cell[0] = x
    return _f32_cell[0]


class BasicArray:
    """A BASIC array.  `BasicArray("A", 10, 20, base=1)` is DIM A(10, 20) under OPTION BASE
    1; `BasicArray("A", rank=1)` is an array whose DIM has run-time bounds and has not run
    yet (`allocate` is that DIM)."""

    __slots__ = ("_buffer", "base", "data", "dtype", "erased", "name", "upper")

    def __new__(cls, name: str, *upper: float, rank: int | None = None, base: int = 0, dtype="f64"):
        own = cls
        if cls is BasicArray:  # each array gets its own class: see the module docstring
            own = type("BasicArray_" + _identifier(name), (BasicArray,), {"__slots__": ()})
        return object.__new__(own)

    def __init__(
        self, name: str, *upper: float, rank: int | None = None, base: int = 0, dtype="f64"
    ):
        self.name = name  # the BASIC name, for messages
        self.base = base
        self.dtype = dtype
        self._buffer = None
        self.erased = False  # by ERASE: a use makes it again with the implicit bounds
        rank = len(upper) if upper else rank
        if rank is None:
            raise ValueError("an array needs its bounds or its rank")
        self.upper: tuple[int, ...] = (base - 1,) * rank
        self.data = np.empty((0,) * rank, dtype=DTYPES[dtype])
        self._bind()
        if upper:
            self.allocate(*upper)

    @property
    def rank(self) -> int:
        return len(self.upper)

    @property
    def extents(self) -> tuple[int, ...]:
        return tuple(u - self.base + 1 for u in self.upper)

    @property
    def allocated(self) -> bool:
        return self._buffer is not None

    def __len__(self) -> int:
        return self.data.size

    def __repr__(self) -> str:
        bounds = ", ".join(f"{self.base} to {u}" for u in self.upper)
        return f"<BASIC array {self.name}({bounds})>"

    # ----------------------------------------------------------------- shape

    def allocate(self, *upper: float) -> None:
        """DIM: give the array its bounds and zero (or empty) elements."""
        bounds = self._check_bounds(upper)
        size = math.prod(u - self.base + 1 for u in bounds)
        buffer = np.zeros(size, dtype=DTYPES[self.dtype])
        if self.dtype == "str":
            buffer[:] = ""
        self._buffer = buffer
        self.erased = False
        self._set_shape(bounds)

    def erase(self, redim: bool = False) -> None:
        """ERASE (Microsoft BASIC): the array ceases to exist, until a DIM or a use.
        `redim`: QuickBASIC's REDIM, which may make an array that did not exist."""
        if self._buffer is None and redim:
            return
        if self._buffer is None:
            raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(ERASE {self.name}: no such array)")
        self._buffer = None
        self.upper = (self.base - 1,) * self.rank
        self.data = np.empty((0,) * self.rank, dtype=DTYPES[self.dtype])
        self._bind()
        self.erased = True

    def recreate(self) -> bool:
        """An element used after ERASE: the array is made again with the implicit bounds
        (True), as GW-BASIC does; False for any other array."""
        if not self.erased:
            return False
        self.allocate(*(IMPLICIT_UPPER_BOUND,) * self.rank)
        return True

    def reshape(self, *upper: float) -> None:
        """A MAT statement's new dimensions: at most the elements the array was created
        with.  The elements are left as they are, or zero (empty) when their number
        changes (as the interpreter's); the MAT statement then writes those it works on."""
        bounds = self._check_bounds(upper)
        size = math.prod(u - self.base + 1 for u in bounds)
        if self._buffer is None:
            raise BasicFault(NOT_DIMENSIONED, self.name)
        if size > self._buffer.size:
            raise BasicFault(TOO_LARGE, f"{self.name}({','.join(str(b) for b in bounds)})")
        if size != self.data.size:
            self._buffer[:size] = "" if self.dtype == "str" else 0
        self._set_shape(bounds)

    def _set_shape(self, bounds: tuple[int, ...]) -> None:
        self.upper = bounds
        size = math.prod(self.extents)
        self.data = self._buffer[:size].reshape(self.extents)
        self._bind()

    def _check_bounds(self, upper) -> tuple[int, ...]:
        if len(upper) != self.rank:
            raise ValueError(f"{self.name} has {self.rank} dimensions, not {len(upper)}")
        bounds = []
        for u in upper:
            value = math.floor(u + 0.5) if isinstance(u, float) and math.isfinite(u) else u
            if not isinstance(value, int) or value < self.base:
                raise BasicFault(BAD_BOUND, f"{self.name}({format_number_trimmed(float(u))})")
            bounds.append(value)
        if math.prod(b - self.base + 1 for b in bounds) > TOO_MANY_ELEMENTS:
            text = ",".join(str(b) for b in bounds)
            raise BasicFault(BAD_BOUND, f"{self.name}({text}): too many elements")
        return tuple(bounds)

    # ----------------------------------------------------------------- elements

    def out_of_range(self, *subscripts: float) -> BasicFault:
        """The fault for subscripts outside the bounds (or for an array not DIMmed yet)."""
        if self._buffer is None:
            return BasicFault(NOT_DIMENSIONED, self.name)
        shown = []
        for x in subscripts:
            t = x + 0.5
            r = math.floor(t) if math.isfinite(t) else t
            shown.append(format_number_trimmed(float(r)))
        bounds = ", ".join(f"{self.base} to {u}" for u in self.upper)
        return BasicFault(SUBSCRIPT_OUT_OF_RANGE, f"{self.name}({','.join(shown)}) [{bounds}]")

    def covers(self, axis: int, first: float, count: int) -> bool:
        """Whether subscripts first, first + 1, ..., first + count - 1 along `axis` (a loop
        a kernel runs) are all valid (none for count 0)."""
        if count <= 0:
            return True
        lo = math.floor(first + 0.5)
        hi = math.floor(first + count - 1 + 0.5)
        return self.base <= lo and hi <= self.upper[axis]

    def _bind(self) -> None:
        """(Re)build this array's element accessors for its current shape."""
        cls = type(self)
        if self.rank == 1:
            get, put = _accessors_1(self)
        elif self.rank == 2:
            get, put = _accessors_2(self)
        else:
            get, put = _accessors_n(self)
        cls.__getitem__ = get
        cls.__setitem__ = put

    # MAT statements work on the elements from subscript `mat_first` up in every
    # dimension (dialect.py: Dartmouth BASIC leaves row and column 0 alone).

    @property
    def mat_first(self) -> int:
        return max(self.base, mat_first_subscript())

    def mat_block(self) -> np.ndarray:
        """The elements MAT statements work on: `data` itself, or a view without the rows
        and columns below `mat_first`."""
        skip = self.mat_first - self.base
        return self.data[(slice(skip, None),) * self.rank] if skip else self.data

    @property
    def mat_extents(self) -> tuple[int, ...]:
        return self.mat_block().shape

    def values(self) -> list:
        """Every MAT element, row by row, as Python values."""
        flat = self.mat_block().reshape(-1).tolist()
        return [float(v) for v in flat] if self.dtype == "i32" else flat

    def rows(self) -> list[list]:
        """The MAT elements as rows (rank 2) or one row (rank 1), for MAT statements."""
        values = self.values()
        if self.rank == 1:
            return [values]
        n = self.mat_extents[1]  # (a higher rank: rows of its last-but-one extent too)
        count = len(values) // n if n else (self.mat_extents[0] if self.rank == 2 else 0)
        return [values[i * n : (i + 1) * n] for i in range(count)]

    def mat_store(self, values: list) -> None:
        """Write `values` (row by row) into the MAT elements."""
        block = self.mat_block()
        if values:
            kind = object if self.dtype == "str" else None
            block[...] = np.array(values, dtype=kind).reshape(block.shape)

    def _store_values(self, extents: tuple[int, ...], values: list) -> None:
        self.reshape(*(self.mat_first + e - 1 for e in extents))
        self.mat_store(values)


def _identifier(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def _accessors_1(array: BasicArray):
    data = array.data
    item = data.item
    lo = array.base
    hi = array.upper[0] + 1  # subscripts lo <= i < hi
    as_float = array.dtype == "i32"

    def __getitem__(self, i):
        if i.__class__ is int:
            if lo <= i < hi:
                value = item(i - lo)
                return float(value) if as_float else value
        elif lo <= (t := i + 0.5) < hi:
            value = item(int(t) - lo)
            return float(value) if as_float else value
        if self.recreate():
            return self[i]
        raise self.out_of_range(i)

    def __setitem__(self, i, value):
        if i.__class__ is int:
            if lo <= i < hi:
                data[i - lo] = value
                return
        elif lo <= (t := i + 0.5) < hi:
            data[int(t) - lo] = value
            return
        if self.recreate():
            self[i] = value
            return
        raise self.out_of_range(i)

    return __getitem__, __setitem__


def _accessors_2(array: BasicArray):
    data = array.data
    item = data.item
    lo = array.base
    hi0 = array.upper[0] + 1
    hi1 = array.upper[1] + 1
    as_float = array.dtype == "i32"

    def place(i, j):
        """The storage position of (i, j), or None if out of range."""
        if i.__class__ is int:
            if not lo <= i < hi0:
                return None
            k0 = i - lo
        elif lo <= (t := i + 0.5) < hi0:
            k0 = int(t) - lo
        else:
            return None
        if j.__class__ is int:
            if not lo <= j < hi1:
                return None
            return k0, j - lo
        if lo <= (t := j + 0.5) < hi1:
            return k0, int(t) - lo
        return None

    def __getitem__(self, key):
        where = place(*key)
        if where is None:
            if self.recreate():
                return self[key]
            raise self.out_of_range(*key)
        value = item(where)
        return float(value) if as_float else value

    def __setitem__(self, key, value):
        where = place(*key)
        if where is None:
            if self.recreate():
                self[key] = value
                return
            raise self.out_of_range(*key)
        data[where] = value

    return __getitem__, __setitem__


def _accessors_n(array: BasicArray):
    data = array.data
    lo = array.base
    limits = tuple(u + 1 for u in array.upper)
    as_float = array.dtype == "i32"

    def place(key):
        where = []
        for x, hi in zip(key, limits):
            t = x + 0.5
            if not lo <= t < hi:
                return None
            where.append(int(t) - lo)
        return tuple(where)

    def __getitem__(self, key):
        where = place(key) if len(key) == len(limits) else None
        if where is None:
            if self.recreate():
                return self[key]
            raise self.out_of_range(*key)
        value = data.item(where)
        return float(value) if as_float else value

    def __setitem__(self, key, value):
        where = place(key) if len(key) == len(limits) else None
        if where is None:
            if self.recreate():
                self[key] = value
                return
            raise self.out_of_range(*key)
        data[where] = value

    return __getitem__, __setitem__


# --------------------------------------------------------------------------- MAT statements


def _shape_text(a: BasicArray) -> str:
    return "x".join(str(e) for e in a.mat_extents)


def _rounded(values: list, f32: bool) -> list:
    return [to_f32(v) for v in values] if f32 else values


def mat_read(target: BasicArray, pool: DataPool, f32: bool = False) -> None:
    """MAT READ: every element, row by row, from DATA."""
    block = target.mat_block()
    if target.dtype == "str":
        for where in np.ndindex(block.shape):
            block[where] = pool.read_string()
    else:
        for where in np.ndindex(block.shape):
            value = pool.read_number()
            block[where] = to_f32(value) if f32 else value


def mat_input(target: BasicArray, console: Console, f32: bool = False) -> None:
    """MAT INPUT: one reply per row (a vector: one reply for all of it)."""
    kind = STRING if target.dtype == "str" else NUMBER
    block = target.mat_block()
    cells = list(np.ndindex(block.shape))
    width = block.shape[-1] if target.rank == 2 else len(cells)
    for start in range(0, len(cells), max(width, 1)):
        values = console.input(None, [kind] * width)
        if kind == NUMBER and f32:
            values = [to_f32(v) for v in values]
        for where, value in zip(cells[start : start + width], values):
            block[where] = value


def mat_print(console: Console, source: BasicArray, zoned: bool) -> None:
    """MAT PRINT of one array: each row on its own line, zoned after `,` (the default) or
    packed after `;`.  A blank line goes between two arrays (console.newline() before)."""
    print_rows(console, source.rows(), source.dtype == "str", zoned)


def print_rows(console: Console, rows, text: bool, zoned: bool) -> None:
    """The rows of a MAT PRINT (the interpreter's arrays too), from a new line."""
    if console.column != 0:
        console.newline()
    for row in rows:
        for j, value in enumerate(row):
            if j and zoned:
                console.next_zone()
            if text:
                console.write_string(value)
            else:
                console.write_number(value)
        console.newline()


def mat_fill(target: BasicArray, name: str, dims: tuple | None = None) -> None:
    """MAT A = ZER, CON or IDN, optionally with new dimensions."""
    if dims is not None:
        target.reshape(*dims)
    if name == "IDN":
        if target.rank != 2:
            raise BasicFault(NEEDS_MATRIX, f"IDN ({target.name})")
        rows, cols = target.mat_extents
        if rows != cols:
            raise BasicFault(NOT_SQUARE, f"IDN ({target.name} is {_shape_text(target)})")
        block = target.mat_block()
        block[...] = 0.0
        np.fill_diagonal(block, 1.0)
    else:
        target.mat_block()[...] = 1.0 if name == "CON" else 0.0


def change_to_codes(array: BasicArray, text: str) -> None:
    """CHANGE A$ TO A: the length and the character codes into A(0), A(1)..."""
    for i, value in enumerate(change_codes(text)):
        array[i] = value


def change_to_string(array: BasicArray) -> str:
    """CHANGE A TO A$: the string whose length is A(0) and codes A(1)..."""
    return change_text(array[0], array.__getitem__)


def mat_copy(target: BasicArray, source: BasicArray) -> None:
    """MAT A = B."""
    if target is source:
        return
    target._store_values(source.mat_extents, source.values())


def mat_scale(target: BasicArray, factor: float, source: BasicArray, f32: bool = False) -> None:
    """MAT A = (k) * B."""
    target._store_values(source.mat_extents, _rounded([factor * x for x in source.values()], f32))


def mat_binary(
    target: BasicArray, op: str, left: BasicArray, right: BasicArray, f32: bool = False
) -> None:
    """MAT A = B + C, B - C, or the product B * C."""
    if op in ("+", "-"):
        if left.mat_extents != right.mat_extents:
            raise BasicFault(
                SHAPE_MISMATCH,
                f"({left.name} is {_shape_text(left)}, {right.name} is {_shape_text(right)})",
            )
        pairs = zip(left.values(), right.values())
        values = [a + b for a, b in pairs] if op == "+" else [a - b for a, b in pairs]
        target._store_values(left.mat_extents, _rounded(values, f32))
        return
    extents, values = _product(left, right)
    target._store_values(extents, _rounded(values, f32))


def _product(left: BasicArray, right: BasicArray) -> tuple[tuple[int, ...], list[float]]:
    """The matrix product, each element summed left to right from zero (as the loop
    `S = S + A(I, K) * B(K, J)` would), without overflow warnings."""
    if left.rank == 1 and right.rank == 1:
        raise BasicFault(NEEDS_MATRIX, f"({left.name} * {right.name})")
    a = left.rows()  # a vector on the left is a row
    b = (
        right.rows() if right.rank == 2 else [[x] for x in right.values()]
    )  # ... on the right a column
    inner = len(a[0]) if a else 0
    if inner != len(b):
        raise BasicFault(
            SHAPE_MISMATCH,
            f"({left.name} is {_shape_text(left)}, {right.name} is {_shape_text(right)})",
        )
    columns = list(zip(*b)) if b else []
    values = []
    for row in a:
        for column in columns:
            s = 0.0
            for x, y in zip(row, column):
                s = s + x * y
            values.append(s)
    if left.rank == 1:
        extents: tuple[int, ...] = (len(columns),)
    elif right.rank == 1:
        extents = (len(a),)
    else:
        extents = (len(a), len(columns))
    return extents, values


def mat_product_shape(target: BasicArray, left: BasicArray, right: BasicArray) -> None:
    """MAT target = left * right of two matrices whose product a GPU kernel computes: the
    checks `mat_binary` makes, then the target's new shape rows(left) x cols(right)."""
    rows = left.extents[0] if left.data.size else 0  # as len(left.rows())
    inner = left.extents[1] if rows else 0
    right_rows = right.extents[0] if right.data.size else 0
    cols = right.extents[1] if right_rows else 0
    if inner != right_rows:
        raise BasicFault(
            SHAPE_MISMATCH,
            f"({left.name} is {_shape_text(left)}, {right.name} is {_shape_text(right)})",
        )
    if target.allocated and target.extents == (rows, cols):
        return  # keep `target.data` itself: the GPU keeps its device copy
    target.reshape(target.base + rows - 1, target.base + cols - 1)


def mat_function(target: BasicArray, name: str, source: BasicArray, f32: bool = False) -> None:
    """MAT A = TRN(B) or INV(B) (Gauss-Jordan with partial pivoting)."""
    if source.rank != 2:
        raise BasicFault(NEEDS_MATRIX, f"{name}({source.name})")
    rows, cols = source.mat_extents
    if name == "TRN":
        m = source.rows()
        values = [m[i][j] for j in range(cols) for i in range(rows)]
        target._store_values((cols, rows), _rounded(values, f32))
        return
    if rows != cols:
        raise BasicFault(NOT_SQUARE, f"INV({source.name} is {_shape_text(source)})")
    target._store_values((rows, cols), _rounded(_inverse(source.rows(), source.name), f32))


def _inverse(m: list[list[float]], name: str) -> list[float]:
    """The inverse of `m` as a flat row-major list; its determinant (the product of the
    pivots, negated by each row swap) for DET."""
    n = len(m)
    a = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    determinant = 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if a[pivot][col] == 0.0:
            set_determinant(0.0)
            raise BasicFault(SINGULAR, f"INV({name})")
        if pivot != col:
            determinant = -determinant
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        determinant *= p
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    set_determinant(determinant)
    return [x for row in a for x in row[n:]]


__all__ = [
    "BasicArray",
    "mat_binary",
    "mat_copy",
    "mat_fill",
    "mat_function",
    "mat_input",
    "mat_print",
    "print_rows",
    "mat_product_shape",
    "mat_read",
    "mat_scale",
    "to_f32",
]
