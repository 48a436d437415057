"""BASIC arrays at run time: a flat row-major element list and its current shape.

The element list is created once and only ever changed in place, so compiled code can
hold on to it.  Its shape changes when a DIM with run-time bounds runs (extended mode) or
when a MAT statement redimensions the array (never beyond the number of elements it had
first, as in Dartmouth BASIC).  Subscripts of dimension d run from `base` to
`upper[d]`.
"""

from __future__ import annotations

import itertools
import math

from ..runtime import BasicFault, format_number_trimmed
from ..runtime.dialect import mat_first_subscript
from ..runtime.limits import IMPLICIT_UPPER_BOUND, TOO_MANY_ELEMENTS
from ..runtime.stringfns import ILLEGAL_FUNCTION_CALL

SUBSCRIPT_OUT_OF_RANGE = "subscript out of range"
NOT_DIMENSIONED = "array used before its DIM statement ran"
BAD_BOUND = "invalid DIM bound"
TOO_LARGE = "MAT result larger than the array's DIM"


class BasicArray:
    __slots__ = ("allocated", "base", "capacity", "data", "erased", "fill", "name", "upper")

    def __init__(self, name: str, base: int, rank: int, fill: float | str):
        self.name = name
        self.base = base
        self.upper: tuple[int, ...] = (base - 1,) * rank  # empty until allocated
        self.data: list = []
        self.capacity = 0
        self.fill = fill
        self.allocated = False
        self.erased = False  # by ERASE: a use makes it again with the implicit bounds

    @property
    def rank(self) -> int:
        return len(self.upper)

    @property
    def extents(self) -> tuple[int, ...]:
        return tuple(u - self.base + 1 for u in self.upper)

    def allocate(self, upper: tuple[float, ...] | tuple[int, ...]) -> None:
        """DIM: give the array its bounds and zero (or empty) elements."""
        bounds = self._check_bounds(upper)
        size = math.prod(u - self.base + 1 for u in bounds)
        self.upper = bounds
        self.data[:] = [self.fill] * size
        self.capacity = size
        self.allocated = True
        self.erased = False

    def erase(self, redim: bool = False) -> None:
        """ERASE (Microsoft BASIC): the array ceases to exist, until a DIM or a use.
        `redim`: QuickBASIC's REDIM, which may make an array that did not exist."""
        if not self.allocated and redim:
            return
        if not self.allocated:
            raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(ERASE {self.name}: no such array)")
        self.upper = (self.base - 1,) * self.rank
        self.data[:] = []
        self.capacity = 0
        self.allocated = False
        self.erased = True

    def reshape(self, upper: tuple[float, ...] | tuple[int, ...]) -> None:
        """MAT redimensioning: new bounds within the original number of elements.
        The elements are left as they are; every MAT statement then writes them all."""
        bounds = self._check_bounds(upper)
        size = math.prod(u - self.base + 1 for u in bounds)
        if not self.allocated:
            raise BasicFault(NOT_DIMENSIONED, self.name)
        if size > self.capacity:
            raise BasicFault(TOO_LARGE, f"{self.name}({self._text(bounds)})")
        self.upper = bounds
        if len(self.data) != size:
            self.data[:] = [self.fill] * size

    def _check_bounds(self, upper) -> tuple[int, ...]:
        bounds = []
        for u in upper:
            value = math.floor(u + 0.5) if isinstance(u, float) and math.isfinite(u) else u
            if not isinstance(value, int) or value < self.base:
                raise BasicFault(BAD_BOUND, f"{self.name}({format_number_trimmed(float(u))})")
            bounds.append(value)
        if math.prod(b - self.base + 1 for b in bounds) > TOO_MANY_ELEMENTS:
            raise BasicFault(BAD_BOUND, f"{self.name}({self._text(bounds)}): too many elements")
        return tuple(bounds)

    @staticmethod
    def _text(bounds) -> str:
        return ",".join(str(b) for b in bounds)

    def index_cells(self) -> tuple[int, ...]:
        """What compiled code keeps for an array whose shape can change: upper + 1 per
        dimension, the stride per dimension, and the offset of element (base, base...)."""
        extents = self.extents
        strides = [1] * len(extents)
        for d in range(len(extents) - 2, -1, -1):
            strides[d] = strides[d + 1] * extents[d + 1]
        offset = sum(self.base * s for s in strides)
        return (*(u + 1 for u in self.upper), *strides, offset)

    def flat_index(self, *shifted: float) -> int:
        """The flat index of the element at subscripts x (given as x + 0.5), or the
        located fault; the slow path of compiled element accesses."""
        if self.erased:  # used after ERASE: made again as if used without DIM
            self.allocate((IMPLICIT_UPPER_BOUND,) * self.rank)
        index = 0
        base = self.base
        for t, u, extent in zip(shifted, self.upper, self.extents):
            if not base <= t < u + 1:
                raise self.out_of_range(*shifted)
            index = index * extent + (int(t) - base)
        return index

    def out_of_range(self, *shifted: float) -> BasicFault:
        """The fault for a subscript outside the bounds (`shifted` are subscripts + 0.5,
        as compiled code computes them)."""
        if not self.allocated:
            return BasicFault(NOT_DIMENSIONED, self.name)
        shown = []
        for t in shifted:
            r = math.floor(t) if math.isfinite(t) else t
            shown.append(format_number_trimmed(float(r)))
        bounds = ", ".join(f"{self.base} to {u}" for u in self.upper)
        return BasicFault(SUBSCRIPT_OUT_OF_RANGE, f"{self.name}({','.join(shown)}) [{bounds}]")

    # MAT statements work on the elements from subscript `mat_first` up in every
    # dimension (runtime/dialect.py: Dartmouth BASIC leaves row and column 0 alone).

    @property
    def mat_first(self) -> int:
        return max(self.base, mat_first_subscript())

    @property
    def mat_extents(self) -> tuple[int, ...]:
        return tuple(max(u - self.mat_first + 1, 0) for u in self.upper)

    def mat_cells(self) -> range | list[int]:
        """The flat positions of the elements MAT statements work on, row by row."""
        skip = self.mat_first - self.base
        if skip == 0:
            return range(len(self.data))
        extents = self.extents
        strides = [math.prod(extents[d + 1 :]) for d in range(len(extents))]
        return [
            sum(i * s for i, s in zip(index, strides))
            for index in itertools.product(*(range(skip, e) for e in extents))
        ]

    def mat_values(self) -> list:
        data = self.data
        return [data[k] for k in self.mat_cells()]

    def mat_store(self, values) -> None:
        """Write `values` (row by row) into the elements MAT statements work on."""
        data = self.data
        for k, value in zip(self.mat_cells(), values):
            data[k] = value

    def rows(self) -> list[list]:
        """The MAT elements as rows (rank 2) or one row (rank 1), for MAT statements."""
        values = self.mat_values()
        if self.rank == 1:
            return [values]
        n = self.mat_extents[1]  # (a higher rank: rows of its last-but-one extent too)
        count = len(values) // n if n else (self.mat_extents[0] if self.rank == 2 else 0)
        return [values[i * n : (i + 1) * n] for i in range(count)]
