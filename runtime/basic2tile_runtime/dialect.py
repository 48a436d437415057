"""The dialect a program runs in, for the runtime functions whose behaviour depends on it.

Most of the runtime is the same in every dialect.  Microsoft BASIC (--dialect ms) differs in
a few places that do not show in a function's name: PRINT's number text and zones, the
messages of exceptions ("Illegal function call" for SQR(-1)), and the RND generator.  A
program sets its dialect once, before it runs (`use_dialect`: the interpreter for every
run, a generated program at the start of `main`), and those functions read it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Literal

RuntimeDialect = Literal[
    "ecma55", "extended", "ms", "qbasic", "dartmouth", "applesoft", "commodore", "msx"
]
# The 8-bit machines' Microsoft BASICs: GW-BASIC's rules with their own numbers
# (machines.py).
MACHINES = frozenset(("applesoft", "commodore", "msx"))

_current: list[RuntimeDialect] = ["extended"]
# What restarts when the dialect is set (rnd.py registers RND's sequence): a hook, so that
# this module imports none of those that read it.
_restarts: list[Callable[[], None]] = []


def on_use_dialect(restart: Callable[[], None]) -> None:
    """Call `restart` whenever a dialect is set (`use_dialect`)."""
    _restarts.append(restart)


def use_dialect(name: RuntimeDialect) -> None:
    """Run what follows in dialect `name`; also restarts RND's sequence (rnd.py)."""
    _current[0] = name
    for restart in _restarts:
        restart()


def current_dialect() -> RuntimeDialect:
    return _current[0]


def microsoft() -> bool:
    """Microsoft BASIC's rules: GW-BASIC's (ms), QuickBASIC's (qbasic) and the 8-bit
    machines' (MACHINES), which share PRINT's layout, INPUT's replies and the messages
    of errors (the machines' numbers: machines.py)."""
    return _current[0] in ("ms", "qbasic") or _current[0] in MACHINES


def quickbasic() -> bool:
    """QuickBASIC's numbers where they differ from GW-BASIC's (IEEE singles printed to 7
    digits, .5 rounded to even, division by zero and overflow fatal): msnumbers.py."""
    return _current[0] == "qbasic"


def machine() -> str | None:
    """The 8-bit machine whose numbers the program prints (machines.py), or None."""
    return _current[0] if _current[0] in MACHINES else None


# The first row and column MAT statements work on (rows and columns below it are left
# alone), or the array's OPTION BASE where that is higher.  Dartmouth BASIC's matrices start
# at 1 whatever the base (Kemeny and Kurtz, "BASIC", 4th edition: MAT ignores row and column
# 0); the other dialects follow ECMA-116, whose MAT statements take the whole array.
MAT_FIRST_SUBSCRIPT: dict[RuntimeDialect, int] = {
    "ecma55": 0,
    "extended": 0,
    "ms": 0,
    "qbasic": 0,
    "dartmouth": 1,
    "applesoft": 0,
    "commodore": 0,
    "msx": 0,
}


def mat_first_subscript(dialect: RuntimeDialect | None = None) -> int:
    """The lowest subscript MAT statements touch in `dialect` (the current one by
    default): see MAT_FIRST_SUBSCRIPT."""
    return MAT_FIRST_SUBSCRIPT[dialect or _current[0]]


@contextlib.contextmanager
def running_dialect(name: RuntimeDialect) -> Iterator[None]:
    """Within this block the runtime works in dialect `name` (the interpreter runs a
    program so); the previous dialect is back afterwards."""
    previous = _current[0]
    use_dialect(name)
    try:
        yield
    finally:
        _current[0] = previous
