"""Microsoft BASIC's run-time control flow: the FOR stack, and ON ... GOTO's choice.

`ForStack` holds the FOR loops that the front end could not make blocks
(`passes/check/for_loops.py`): a FOR enters its loop, its NEXT finds it (dropping the loops
entered after it and left by a jump) or fails with "NEXT without FOR", and the loop
leaves the stack when it ends.  Loops are named by an integer (their FOR's statement
index); the limit and step stay with the loop's other variables.

`report_break` is STOP in Microsoft BASIC: "Break in 100" on a line of its own;
`report_error` an error that ends the program: "Out of DATA in 20".

`on_choice` is ON ... GOTO / GOSUB outside strict mode, as GW-BASIC does it: the
selector rounded half away from zero; 0 or more than the number of targets goes on
with the next statement; below 0 or above 255 is "Illegal function call", outside the
16-bit integers "Overflow".  Strict mode (`strict=True`) keeps ECMA-55's rule: the
selector rounded as floor(x + 0.5), out of range fatal.
"""

from __future__ import annotations

import math

from .arith import round_to_int
from .faults import BasicFault
from .gwerrors import gw_message
from .numformat import format_number_trimmed

NEXT_WITHOUT_FOR = "NEXT without FOR"
FOR_WITHOUT_NEXT = "FOR without NEXT"
ILLEGAL_FUNCTION_CALL = "Illegal function call"
OVERFLOW = "Overflow"


class ForStack:
    """The loops running on the FOR stack, innermost last."""

    __slots__ = ("loops",)

    def __init__(self) -> None:
        self.loops: list[int] = []

    def enter(self, loop: int) -> None:
        """A FOR: the loop goes on top (a FOR that runs again drops its older entry)."""
        loops = self.loops
        if loop in loops:
            loops.remove(loop)
        loops.append(loop)

    def find(self, loop: int) -> None:
        """A NEXT: drop the loops above this one; fatal if the loop is not running."""
        loops = self.loops
        for depth in range(len(loops) - 1, -1, -1):
            if loops[depth] == loop:
                del loops[depth + 1 :]
                return
        raise BasicFault(NEXT_WITHOUT_FOR)

    def leave(self) -> None:
        """The loop on top has ended (or runs zero times)."""
        self.loops.pop()


ON_OUT_OF_RANGE = "ON index out of range"


def on_choice(value: float, count: int, strict: bool = False) -> int:
    """The 1-based target of ON `value` GOTO with `count` targets, or 0: go on."""
    if strict:
        index = round_to_int(value)
        if not 1 <= index <= count:
            raise BasicFault(ON_OUT_OF_RANGE, f"({index}; 1 to {count} allowed)")
        return index
    if math.isnan(value):
        raise BasicFault(ILLEGAL_FUNCTION_CALL, "(ON index NaN)")
    if not -32768.5 < value < 32767.5:  # what rounds to a 16-bit integer
        raise BasicFault(OVERFLOW, f"(ON index {format_number_trimmed(value)})")
    rounded = math.floor(abs(value) + 0.5)
    index = -rounded if value < 0 else rounded
    if not 0 <= index <= 255:
        raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(ON index {index})")
    return index if index <= count else 0


def report_error(console, fault: BasicFault, line: int | None) -> None:
    """Microsoft BASIC: an error that ends the program shows on the screen as GW-BASIC
    shows it: the line being printed ends, then "Out of DATA in 20" (no "in" for a line
    without a number).  A condition with no GW-BASIC number (--max-steps) shows nothing;
    the located message on stderr says it."""
    if fault.code is None:
        return
    message = gw_message(fault.code)
    line = fault.line if fault.line is not None else line
    console.finish()
    console.write_string(f"{message} in {line}" if line else message)
    console.newline()


def report_load_overflows(console, count: int) -> None:
    """Microsoft BASIC: the "Overflow" GW-BASIC shows for each numeric constant beyond
    its range as it loads the program (it goes on with the largest number), before the
    program's own output."""
    for _ in range(count):
        console.write_string(OVERFLOW)
        console.newline()


def report_break(console, line: str) -> None:
    """Microsoft BASIC's STOP: end the line being printed, then "Break in 100" (or
    "Break" for a line without a number)."""
    console.finish()
    console.write_string(f"Break in {line}" if line else "Break")
    console.newline()
