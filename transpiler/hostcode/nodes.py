"""The host-code IR: statements whose expressions are text in the target's syntax.

A lowering (hostcode/launch.py) makes the decisions and builds these nodes through a
syntax table (hostcode/syntax.py), so the expressions are already Python or C++; the
walker in syntax.py only lays the statements out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import hostir


@dataclass
class Line:
    """A simple statement (`x = y`, a call); the syntax adds C++'s `;`."""

    text: str


@dataclass
class Raw:
    """A line already complete in the target's syntax (C++'s `;` included)."""

    text: str


@dataclass
class Comment:
    """A comment line, without its `#` or `//`."""

    text: str


@dataclass
class Declare:
    """A new local: `const int n = v;` in C++ (`ctype` is "const int", "bool", ...),
    `n = v` in Python."""

    ctype: str
    name: str
    value: str


@dataclass
class If:
    cond: str
    body: list
    orelse: list | None = None


@dataclass
class Block:
    """A scope: `{ ... }` in C++ (its names are local to it); Python has none."""

    body: list


@dataclass
class ForRange:
    """`var` from `start` (0 when None) while below `stop`, by one."""

    var: str
    start: str | None
    stop: str
    body: list


@dataclass
class ForEach:
    """Over the elements of host array `array`: `index` their index; `item` the name of
    the element where the syntax names it (Python's enumerate), else None."""

    index: str
    item: str | None
    array: str
    body: list


@dataclass
class Continue:
    pass


@dataclass
class Unless:
    """Inside a loop: `body` runs unless `cond` (C++ says `if (cond) continue;`)."""

    cond: str
    body: list


@dataclass
class Host:
    """BASIC's host statements, printed by the target's statement printer; `lane`: as the
    body of a replayed iteration (a lane of a kernel's loop)."""

    nodes: list[hostir.HNode]
    lane: bool = False


@dataclass
class Origin:
    """The comment of the BASIC statement the next lines belong to (and, where the
    target tracks it, its line number for the messages they may report)."""

    stmt: object = field(default=None)
