"""basic2tile as a Unix process: closed standard streams, SIGTERM, and the generated
programs it runs for --run and --check.

- A standard stream the process started without (`basic2tile ... >&-`) is given a
  stand-in on its descriptor, so that no file opened later takes its number (a child
  would inherit that file as its stdout): /dev/null for stdin (it reads as empty) and
  stderr (messages are lost), /dev/null opened *read-only* for stdout, so every write
  to it, ours or a child's, fails with "Bad file descriptor" as on a closed one.
- SIGTERM raises `Terminated` in the main thread (as SIGINT raises KeyboardInterrupt), so
  that temporary folders are removed and children stopped on the way out.
- `run_child` runs a generated program and passes an interrupt on to it: the child gets
  the same signal, is waited for (killed if it lingers), and the exception goes on.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

# What a child gets to finish after SIGINT or SIGTERM before it is killed.
_GRACE_SECONDS = 2.0


@dataclass
class RunResult:
    """What a generated program did: its exit status and its output, decoded."""

    returncode: int
    stdout: str
    stderr: str


class Terminated(BaseException):
    """SIGTERM arrived (a BaseException, like KeyboardInterrupt: no `except Exception`
    may swallow it)."""


class ChildTimeout(Exception):
    """The child ran longer than its time limit and was stopped."""

    def __init__(self, seconds: float):
        super().__init__(f"did not finish within {seconds:g} s")
        self.seconds = seconds


def reopen_closed_standard_streams() -> None:
    """Give descriptors 0, 1 and 2, when closed, the stand-ins of the module docstring."""
    from ..runtime.command import ClosedOutput

    for fd, flags in ((0, os.O_RDONLY), (1, os.O_RDONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        opened = os.open(os.devnull, flags)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
        if fd == 0:
            sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
        elif fd == 1:
            sys.stdout = ClosedOutput()
        else:
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115


@contextlib.contextmanager
def sigterm_raises():
    """Within this block SIGTERM raises Terminated (main thread only; elsewhere a no-op)."""

    def on_sigterm(signum, frame):
        raise Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_status(returncode: int) -> int:
    """A child's status as a shell reports it: 128 + N for a child killed by signal N."""
    return 128 - returncode if returncode < 0 else returncode


def run_child(
    argv: list[str],
    *,
    input: str | None = None,
    capture: bool = True,
    env: dict | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess:
    """Run `argv` to the end (stdin: `input`, else /dev/null when capturing, else ours);
    interrupts and `timeout` stop it as the module docstring says."""
    stdin = subprocess.PIPE if input is not None else (subprocess.DEVNULL if capture else None)
    pipe = subprocess.PIPE if capture else None
    child = subprocess.Popen(argv, stdin=stdin, stdout=pipe, stderr=pipe, text=True, env=env)
    try:
        out, err = child.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(child, signal.SIGTERM)
        raise ChildTimeout(timeout) from None
    except KeyboardInterrupt:
        _stop(child, signal.SIGINT)
        raise
    except BaseException:
        _stop(child, signal.SIGTERM)
        raise
    return subprocess.CompletedProcess(argv, child.returncode, out or "", err or "")


def _stop(child: subprocess.Popen, signum: int) -> None:
    """Send `signum`, wait a little, then kill; close our ends of its pipes."""
    with contextlib.suppress(ProcessLookupError):
        child.send_signal(signum)
    try:
        child.wait(_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    for stream in (child.stdin, child.stdout, child.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
