"""GW-BASIC's error trapping: ON ERROR GOTO, RESUME, ERR, ERL and ERROR n.

A program that traps errors runs each statement as a block of its own (the interpreter
and the host code alike); the loop that dispatches the blocks catches a `BasicFault` and
asks `ErrorTrap.catch` where to go on.  Labels are whatever the engine dispatches on
(statement indices in the interpreter, "300:2" in generated Python, enumerators in C++).

GW-BASIC's rules (its manual; checked with PC-BASIC):

- after `ON ERROR GOTO n` an error jumps to line n, with ERR its number and ERL its line;
  Division by zero and Overflow, which only print a message otherwise, jump too;
- inside the handler (until a RESUME) another error is fatal, a Division by zero too; `ON ERROR GOTO 0` there
  makes the error being handled fatal at once, and anywhere else turns trapping off;
- `RESUME` runs the failed statement again, `RESUME NEXT` the statement after it,
  `RESUME n` line n; each sets ERR back to 0 (ERL stays); a RESUME outside a handler is
  the fatal "RESUME without error";
- a program that ends inside a handler (by running past its last line, not by END) stops
  with "No RESUME";
- `ERROR n` raises error n (1 to 255; a number GW-BASIC has no message for prints
  "Unprintable error"); 0 and numbers beyond 255 are "Illegal function call".
"""

from __future__ import annotations

from typing import Generic, TypeVar

from .faults import BasicFault, trap_notices
from .gwerrors import (
    ILLEGAL_FUNCTION_CALL,
    NO_RESUME,
    RESUME_WITHOUT_ERROR,
    UNDEFINED_LINE,
    gw_message,
)

Label = TypeVar("Label")


class ErrorTrap(Generic[Label]):
    def __init__(self) -> None:
        self.handler: Label | None = None  # ON ERROR GOTO's line; None: not trapping
        self.err = 0
        self.erl = 0
        self.fault: BasicFault | None = None  # the error being handled (None: no handler runs)
        self.failed: Label | None = None  # the statement that failed
        self.after: Label | None = None  # the statement after it
        trap_notices(False)

    def on_error(self, handler: Label | None) -> None:
        """ON ERROR GOTO handler (None: GOTO 0)."""
        if handler is None and self.fault is not None:
            raise self.fault  # fatal now, where it happened
        self.handler = handler
        trap_notices(handler is not None)

    def catch(self, fault: BasicFault, failed: Label, after: Label, line: int) -> Label:
        """Where to go on after `fault` in the statement `failed` of line `line` (`after`:
        the statement after it); raises `fault` again when no trap takes it."""
        if self.handler is None or self.fault is not None or not _trappable(fault):
            raise fault
        self.fault, self.failed, self.after = fault, failed, after
        self.err, self.erl = fault.code, fault.line if fault.line is not None else line
        return self.handler

    def resume(self) -> Label:
        """RESUME: the statement that failed."""
        self._leave()
        return self.failed

    def resume_next(self) -> Label:
        """RESUME NEXT: the statement after it."""
        self._leave()
        return self.after

    def resume_at(self, target: Label) -> Label:
        """RESUME n."""
        self._leave()
        return target

    def resume_undefined(self) -> Label:
        """RESUME n to a line the program does not have: out of the handler, then
        "Undefined line number" (trapped again, as PC-BASIC does)."""
        self._leave()
        raise BasicFault(gw_message(UNDEFINED_LINE), code=UNDEFINED_LINE)

    def _leave(self) -> None:
        if self.fault is None:
            fault = BasicFault(gw_message(RESUME_WITHOUT_ERROR), code=RESUME_WITHOUT_ERROR)
            fault.trappable = False  # PC-BASIC: fatal even with a trap armed
            raise fault
        self.fault = None
        self.err = 0
        trap_notices(self.handler is not None)

    def finish(self) -> None:
        """The program ran past its last line: "No RESUME" inside a handler."""
        if self.fault is not None:
            self.fault = None
            raise BasicFault(gw_message(NO_RESUME), code=NO_RESUME)


def raise_error(value: float) -> None:
    """ERROR n."""
    code = _rounded(value)
    if code is None:
        raise BasicFault(gw_message(6), code=6)  # Overflow: beyond 16 bits
    if not 1 <= code <= 255:
        raise BasicFault(gw_message(ILLEGAL_FUNCTION_CALL), code=ILLEGAL_FUNCTION_CALL)
    raise BasicFault(gw_message(code), code=code)


def _rounded(value: float) -> int | None:
    """CINT: half away from zero; None beyond the 16-bit integers (or NaN)."""
    if not -32768.5 < value < 32767.5:
        return None
    whole = int(abs(value) + 0.5)
    return whole if value >= 0 else -whole


def _trappable(fault: BasicFault) -> bool:
    return fault.code is not None and getattr(fault, "trappable", True)


def label_line(label: str) -> int:
    """ERL of a statement of generated code from its label ("300", "300:2"; "_7", a line
    without a number, is 0)."""
    number = label.split(":", 1)[0]
    return int(number) if number.isdigit() else 0


# The trap of the program running (ERR and ERL read it); `start_trap` makes a fresh one.
_current: ErrorTrap = ErrorTrap()


def start_trap() -> ErrorTrap:
    global _current
    _current = ErrorTrap()
    return _current


def ERR() -> float:
    return float(_current.err)


def ERL() -> float:
    return float(_current.erl)
