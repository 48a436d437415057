"""The signatures of the built-in functions (a table the type checker reads, not a pass).

ECMA-55 (7.4) has ABS ATN COS EXP INT LOG RND SGN SIN SQR TAN: one numeric argument,
except RND, which takes none.  Extended mode adds MAX and MIN of two numbers.  (In kernel
programs MAX, MIN and SUM also reduce tiles; that is the kernel dialect pass's business.)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import ValueType


@dataclass(frozen=True, slots=True)
class Signature:
    params: tuple[ValueType, ...]
    result: ValueType
    strict: bool = True  # part of ECMA-55 Minimal BASIC


_NUM1 = Signature(("num",), "num")

BUILTINS: dict[str, Signature] = {
    **{
        name: _NUM1
        for name in ("ABS", "ATN", "COS", "EXP", "INT", "LOG", "SGN", "SIN", "SQR", "TAN")
    },
    "RND": Signature((), "num"),
    "MAX": Signature(("num", "num"), "num", strict=False),
    "MIN": Signature(("num", "num"), "num", strict=False),
}
