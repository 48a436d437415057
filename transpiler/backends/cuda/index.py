"""Which element of a tile an expression is evaluated at, as C++ index text.

A tile value is spread over the threads of a block: thread t holds elements t,
t + kThreads, t + 2 * kThreads, ... (row-major linear index) in the register array slots
0, 1, 2, ...  An `Index` names one element: its linear index and its coordinates, as C++
expressions.  `own` means it is the element the current thread holds in register `slot`
(the loops over a thread's elements), so register values can be read directly; any other
element (a broadcast operand, a reduction's input) must be read from memory.
"""

from __future__ import annotations

import re

_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+")


def is_simple(text: str) -> bool:
    """An identifier or an integer: an operand of any operator as it is."""
    return _SIMPLE.fullmatch(text) is not None


def paren(text: str) -> str:
    """`text` safe to use as an operand of * / %."""
    return text if is_simple(text) else f"({text})"


def mul(text: str, factor: int) -> str:
    if factor == 0 or text == "0":
        return "0"
    if factor == 1:
        return text
    return f"{paren(text)} * {factor}"


def add(*terms: str) -> str:
    parts = [t for t in terms if t != "0"]
    return " + ".join(parts) if parts else "0"


def axis_words(ndim: int, one: str, two: tuple[str, str], many: str) -> list[str]:
    """Names for the axes of an `ndim`-dimensional array or tile: `one` for its only axis,
    `two` for rows and columns, else `many` numbered."""
    return [one] if ndim == 1 else list(two) if ndim == 2 else [f"{many}{a}" for a in range(ndim)]


def strides(shape: tuple[int, ...]) -> list[int]:
    out, step = [], 1
    for extent in reversed(shape):
        out.append(step)
        step *= extent
    return out[::-1]


def linear_of(coords: list[str], shape: tuple[int, ...]) -> str:
    return add(*(mul(c, s) for c, s in zip(coords, strides(shape))))


def coords_of(linear: str, shape: tuple[int, ...]) -> list[str]:
    """Coordinates of linear index `linear` in a row-major tile of `shape`."""
    out = []
    for axis, (extent, stride) in enumerate(zip(shape, strides(shape))):
        if extent == 1:
            out.append("0")
            continue
        text = paren(linear)
        if axis > 0:
            text = f"{text} % {extent * stride}"
        if stride > 1:
            text = f"{paren(text)} / {stride}"
        out.append(text)
    return out


class Index:
    """Element `linear` (coordinates `coords`) of a tile of `shape`.

    `names` are the coordinate variables a loop declares on demand: reading coordinate
    `a` records it in `used`, so the loop declares only what the body reads.
    """

    def __init__(
        self,
        shape: tuple[int, ...],
        linear: str,
        coords: list[str] | None = None,
        own: bool = False,
        used: set[int] | None = None,
    ):
        self.shape = shape
        self._linear = linear
        self._coords = coords
        self.own = own
        self.used = used

    @property
    def linear(self) -> str:
        if self.used is not None:
            self.used.add(-1)
        return self._linear

    def coord(self, axis: int) -> str:
        if self.shape[axis] == 1:
            return "0"
        if self._coords is None:
            self._coords = coords_of(self.linear, self.shape)
        if self.used is not None:
            self.used.add(axis)
        return self._coords[axis]

    def reshaped(self, shape: tuple[int, ...]) -> Index:
        """The same element seen in a tile of another shape with as many elements."""
        if shape == self.shape:
            return self
        return Index(shape, self.linear, [self.linear] if len(shape) == 1 else None, self.own)

    def broadcast_from(self, shape: tuple[int, ...]) -> Index:
        """The element of a tile of `shape` that broadcasts (NumPy rules) to this one."""
        if shape == self.shape:
            return self
        offset = len(self.shape) - len(shape)
        coords = [
            "0" if extent == 1 else self.coord(axis + offset) for axis, extent in enumerate(shape)
        ]
        return Index(shape, linear_of(coords, shape), coords, own=False)
