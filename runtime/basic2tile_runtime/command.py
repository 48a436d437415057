"""A generated Python program run as a command: how it ends, as Unix tools end.

- Ctrl-C (SIGINT) and a reader that goes away (SIGPIPE, `prog.py | head -1`) end the
  process by the signal, silently, as they end a C program: the shell sees status 130 or
  141.  (Python would print a KeyboardInterrupt or BrokenPipeError traceback.)
- A standard output that cannot be written (closed: `prog.py >&-`; full: `> /dev/full`)
  or a device that cannot run the kernels (`BASIC2TILE_DEVICE=gpu` without a GPU) is one
  line on stderr and exit status 1.
- A closed standard input reads as empty (INPUT then reports the end of input).
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from collections.abc import Callable


class DeviceError(RuntimeError):
    """The device asked for cannot run the kernels (no usable GPU, no CuPy...)."""


class InputError(OSError):
    """Reading standard input failed (it is a folder, an I/O error...)."""


class ClosedOutput(io.TextIOBase):
    """Standard output when the process started with it closed: writing fails as it
    fails on a closed descriptor."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return 0


def stream_error_text(error: OSError) -> str:
    """What failed, for an OSError of the standard streams (no file name, an errno)."""
    what = "read standard input" if isinstance(error, InputError) else "write standard output"
    return f"cannot {what}: {error.strerror}"


def standard_output():
    return sys.stdout if sys.stdout is not None else ClosedOutput()


def standard_input():
    return sys.stdin if sys.stdin is not None else io.StringIO("")


def die_by_interrupts() -> None:
    """Let SIGINT and SIGPIPE end the process as they end a C program."""
    for name in ("SIGINT", "SIGPIPE"):
        signum = getattr(signal, name, None)  # Windows has no SIGPIPE
        if signum is not None:
            signal.signal(signum, signal.SIG_DFL)


def run_command(main: Callable[..., int], name: str, *args) -> int:
    """`main(*args)`'s exit status, with the behaviour of the module docstring; `name`
    starts the error lines (the BASIC source's name)."""
    die_by_interrupts()
    try:
        status = main(*args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk must fail here, not at interpreter exit
        return status
    except DeviceError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{name}: error: {stream_error_text(error)}", file=sys.stderr)
        return 1
