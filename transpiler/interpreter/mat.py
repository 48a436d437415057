"""MAT statements (Dartmouth BASIC, as in ECMA-116's array statements).

Semantics we chose:
- A MAT statement acts on every element of an array from its first MAT subscript to the
  current upper bounds.  That subscript is a fact of the dialect (runtime/dialect.py,
  `mat_first_subscript`): in Dartmouth BASIC 1, whatever the OPTION BASE (row and column 0
  are left alone), so `DIM A(2, 3)` is a 2 x 3 matrix; elsewhere the OPTION BASE, as in
  ECMA-116 (0 by default, so `DIM A(2, 3)` is a 3 x 4 matrix).
- Dimensions in MAT statements are upper bounds, like DIM's: `MAT READ A(2, 3)`,
  `MAT A = ZER(N)`.  A MAT assignment gives the target the shape of its result.  The new
  shape may not hold more elements than the array had when it was created (its DIM, or
  10 per dimension), as in Dartmouth BASIC.
- `MAT C = A * B` is the matrix product; a vector on the left is a row, on the right a
  column (the result is a vector).  Each element is accumulated left to right from zero,
  exactly as the loop `S = S + A(I,K) * B(K,J)` would; operations follow IEEE arithmetic
  without ECMA-55 overflow warnings.
- `MAT B = INV(A)` uses Gauss-Jordan elimination with partial pivoting; a zero pivot is
  fatal "singular matrix".
- MAT READ fills row by row from DATA; MAT INPUT asks for one reply per row (a vector:
  one reply for all of it).
- MAT PRINT prints each row on its own line (a vector as one row), its elements in zones
  after `,` (the default) or packed after `;`, and a blank line between two arrays.
"""

from __future__ import annotations

from array import array as _array

from ..runtime import NUMBER, STRING, BasicFault, Console, DataPool
from ..runtime.arrays import print_rows
from ..runtime.extended import set_determinant
from ..runtime.stringfns import change_codes, change_text
from .arrays import BasicArray

SHAPE_MISMATCH = "MAT dimensions do not match"
SINGULAR = "singular matrix"
NOT_SQUARE = "matrix is not square"
NEEDS_MATRIX = "MAT needs a two-dimensional array"

_buffer = _array("f", [0.0])


def to_f32(x: float) -> float:
    """x rounded to the nearest float32 (overflow gives an infinity)."""
    _buffer[0] = x
    return _buffer[0]


def _shape(a: BasicArray) -> str:
    return "x".join(str(e) for e in a.mat_extents)


def _store(target: BasicArray, extents: tuple[int, ...], values: list, f32: bool) -> None:
    target.reshape(tuple(target.mat_first + e - 1 for e in extents))
    target.mat_store([to_f32(v) for v in values] if f32 else values)


def mat_read(target: BasicArray, pool: DataPool, f32: bool) -> None:
    data = target.data
    if isinstance(target.fill, str):
        for k in target.mat_cells():
            data[k] = pool.read_string()
    else:
        for k in target.mat_cells():
            value = pool.read_number()
            data[k] = to_f32(value) if f32 else value


def mat_input(target: BasicArray, console: Console, f32: bool) -> None:
    kind = STRING if isinstance(target.fill, str) else NUMBER
    cells = target.mat_cells()
    width = target.mat_extents[-1] if target.rank == 2 else len(cells)
    for start in range(0, len(cells), max(width, 1)):
        values = console.input(None, [kind] * width)
        if kind == NUMBER and f32:
            values = [to_f32(v) for v in values]
        for k, value in zip(cells[start : start + width], values):
            target.data[k] = value


def mat_print(arrays: tuple[BasicArray, ...], seps: tuple, console: Console) -> None:
    for k, source in enumerate(arrays):
        if k > 0:
            console.newline()  # a blank line between two arrays
        zoned = (seps[k] if k < len(seps) else None) != ";"
        print_rows(console, source.rows(), isinstance(source.fill, str), zoned)


def mat_fill(target: BasicArray, name: str, dims: tuple | None) -> None:
    if dims is not None:
        target.reshape(dims)
    if name == "IDN":
        if target.rank != 2:
            raise BasicFault(NEEDS_MATRIX, f"IDN ({target.name})")
        rows, cols = target.mat_extents
        if rows != cols:
            raise BasicFault(NOT_SQUARE, f"IDN ({target.name} is {_shape(target)})")
        target.mat_store([1.0 if i == j else 0.0 for i in range(rows) for j in range(cols)])
    else:
        value = 1.0 if name == "CON" else 0.0
        target.mat_store([value] * len(target.mat_cells()))


def change_to_codes(array: BasicArray, text: str) -> None:
    """CHANGE A$ TO A: the length and the character codes into A(0), A(1)..."""
    for i, value in enumerate(change_codes(text)):
        array.data[array.flat_index(i + 0.5)] = value


def change_to_string(array: BasicArray) -> str:
    """CHANGE A TO A$: the string whose length is A(0) and codes A(1)..."""
    return change_text(
        array.data[array.flat_index(0.5)], lambda i: array.data[array.flat_index(i + 0.5)]
    )


def mat_copy(target: BasicArray, source: BasicArray) -> None:
    if target is source:
        return
    _store(target, source.mat_extents, source.mat_values(), False)


def mat_scale(target: BasicArray, factor: float, source: BasicArray, f32: bool) -> None:
    _store(target, source.mat_extents, [factor * x for x in source.mat_values()], f32)


def mat_binary(target: BasicArray, op: str, left: BasicArray, right: BasicArray, f32: bool) -> None:
    if op in ("+", "-"):
        if left.mat_extents != right.mat_extents:
            raise BasicFault(
                SHAPE_MISMATCH,
                f"({left.name} is {_shape(left)}, {right.name} is {_shape(right)})",
            )
        if op == "+":
            values = [a + b for a, b in zip(left.mat_values(), right.mat_values())]
        else:
            values = [a - b for a, b in zip(left.mat_values(), right.mat_values())]
        _store(target, left.mat_extents, values, f32)
        return
    _store(target, *_product(left, right), f32)


def _product(left: BasicArray, right: BasicArray) -> tuple[tuple[int, ...], list[float]]:
    if left.rank == 1 and right.rank == 1:
        raise BasicFault(NEEDS_MATRIX, f"({left.name} * {right.name})")
    a = left.rows()  # a vector on the left: a row
    if right.rank == 2:
        b = right.rows()
    else:
        b = [[x] for x in right.mat_values()]  # a vector on the right: a column
    inner = len(a[0]) if a else 0
    if inner != len(b):
        raise BasicFault(
            SHAPE_MISMATCH, f"({left.name} is {_shape(left)}, {right.name} is {_shape(right)})"
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


def mat_function(target: BasicArray, name: str, source: BasicArray, f32: bool) -> None:
    if source.rank != 2:
        raise BasicFault(NEEDS_MATRIX, f"{name}({source.name})")
    rows, cols = source.mat_extents
    if name == "TRN":
        m = source.rows()
        _store(target, (cols, rows), [m[i][j] for j in range(cols) for i in range(rows)], f32)
        return
    if rows != cols:
        raise BasicFault(NOT_SQUARE, f"INV({source.name} is {_shape(source)})")
    _store(target, (rows, cols), _inverse(source.rows(), source.name), f32)


def _inverse(m: list[list[float]], name: str) -> list[float]:
    """The inverse of `m`, flat; its determinant (the product of the pivots, negated by
    each row swap) becomes the runtime's DET."""
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
