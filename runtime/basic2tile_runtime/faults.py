"""Fatal faults and non-fatal notices raised by the BASIC runtime.

The runtime knows no source locations.  It reports two kinds of conditions:

* a **fault** ends the program: the runtime raises `BasicFault`; the reference
  interpreter turns it into a located `transpiler.errors.BasicRuntimeError`, the generated
  program prints it and exits;
* a **notice** does not: an ECMA-55 exception for which the standard says "report and
  continue" (division by zero, overflow, TAB argument below one...), or a rejected INPUT
  reply that is asked for again.  The runtime calls the current notice hook and goes on.

Both carry bas55's wording: `what` is the fixed text of the condition ("division by
zero") and `detail` the optional operands that bas55 prints after it ("(0 ^ -6)",
"EXP(1140.5695)"), so a caller can print either our own format or bas55's exact line:
bas55 writes ``f"{line}: {severity}: {what} {detail}\\n"``, the line number omitted for
INPUT replies, and the space after `what` printed even when `detail` is empty.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from .dialect import machine
from .gwerrors import gw_code, gw_message
from .machines import stops_on

# GW-BASIC's error 2, for a statement that does not parse: found when it runs
# (--dialect ms: parser.py turns the statement into an `ast.Fault` with it).
SYNTAX_ERROR = "Syntax error"

WARNING = "warning"
ERROR = "error"


def bas55_text(severity: str, what: str, detail: str, line: int | None = None) -> str:
    """The diagnostic line bas55 writes to stderr (without the newline)."""
    where = f"{line}: " if line is not None else ""
    return f"{where}{severity}: {what} {detail}"


@dataclass(frozen=True, slots=True)
class Notice:
    """A non-fatal condition: `severity` is WARNING, or ERROR for a rejected INPUT reply."""

    what: str
    detail: str = ""
    severity: str = WARNING

    @property
    def message(self) -> str:
        return f"{self.what} {self.detail}" if self.detail else self.what

    def __str__(self) -> str:
        return self.message

    def bas55_text(self, line: int | None = None) -> str:
        return bas55_text(self.severity, self.what, self.detail, line)


class BasicFault(Exception):
    """A fatal runtime condition (READ past the data, LOG of zero...).  Ends the program,
    unless an error trap (trap.py) catches it: `code` is its GW-BASIC error number
    (gwerrors.py; None: it has none, and no trap catches it).  `line`: the line GW-BASIC
    names (ERL, "... in 50") when it is not the failed statement's: the NEXT a FOR found
    naming another variable, the DATA line of an item READ could not read."""

    def __init__(
        self, what: str, detail: str = "", code: int | None = None, line: int | None = None
    ):
        self.what = what
        self.detail = detail
        self.code = code if code is not None else gw_code(what)
        self.line = line
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return f"{self.what} {self.detail}" if self.detail else self.what

    def bas55_text(self, line: int | None = None) -> str:
        return bas55_text(ERROR, self.what, self.detail, line)


NoticeHook = Callable[[Notice], None]


def print_notice(notice: Notice) -> None:
    """The default hook: ``warning: division by zero`` on stderr."""
    sys.stderr.write(f"{notice.severity}: {notice.message}\n")


_hook: NoticeHook = print_notice


def set_warning_hook(hook: NoticeHook | None) -> NoticeHook:
    """Route notices to `hook` (None restores `print_notice`); returns the previous hook."""
    global _hook
    previous = _hook
    _hook = hook if hook is not None else print_notice
    return previous


# While an error trap is armed (trap.py), the warnings that are GW-BASIC errors (Division
# by zero, Overflow) are errors: they jump to the handler instead of going on.
_notices_trapped = False


def trap_notices(armed: bool) -> None:
    global _notices_trapped
    _notices_trapped = armed


# Microsoft BASIC shows those warnings on its screen, which is the program's output
# ("Division by zero", then the program goes on): the screen console of a program
# running as Microsoft BASIC registers how to write a line there (console.py).
_screen_line: Callable[[str], None] | None = None


def show_warnings_on(write_line: Callable[[str], None] | None) -> None:
    global _screen_line
    _screen_line = write_line


def notify(notice: Notice) -> None:
    code = gw_code(notice.what) if notice.severity == WARNING else None
    if _notices_trapped and code is not None:
        raise BasicFault(notice.what, notice.detail)
    if _screen_line is not None and code is not None:
        _screen_line(gw_message(code))
    _hook(notice)


def warn(what: str, detail: str = "") -> None:
    """Report a non-fatal ECMA-55 exception; the caller goes on with its IEEE value.  (On
    the 8-bit machines GW-BASIC's Overflow and Division by zero stop the program.)"""
    if stops_on(machine(), what):
        raise BasicFault(what, detail)
    notify(Notice(what, detail))
