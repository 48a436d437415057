"""PC-BASIC (PyPI `pcbasic`, a GW-BASIC 3.23 emulator) as an oracle for Microsoft BASIC.

    from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic

    @requires_pcbasic                       # skips, with the reason, without PC-BASIC
    def test_something():
        assert our_output == pcbasic_output("10 PRINT 1/3\\n")

PC-BASIC runs headless through its Python API (its command line prints nothing without
a terminal): each program line is typed into a `Session` as at GW-BASIC's prompt, then
RUN.  It runs in a child process, so that a program waiting for input it will never get
ends with the timeout (its output so far is returned).  Output lines end in "\\r\\n" there
and "\\n" here; an error is printed as GW-BASIC prints it ("NEXT without FOR in 20"), STOP
as "Break in 20" (the byte 0xFF PC-BASIC ends those lines with is dropped).  Input is
given as lines; PC-BASIC echoes what INPUT reads, so tests that compare output should
not use INPUT (or strip the echo).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

AVAILABLE = importlib.util.find_spec("pcbasic") is not None
requires_pcbasic = pytest.mark.skipif(
    not AVAILABLE, reason="PC-BASIC (pip install pcbasic, in the test extra) is not installed"
)

_RUNNER = textwrap.dedent(
    """
    import io, sys, pcbasic
    source, typed = sys.stdin.buffer.read().split(b"\\0", 1)
    with pcbasic.Session(output_streams=sys.stdout.buffer,
                         input_streams=io.BytesIO(typed)) as session:
        for line in source.decode().splitlines():
            if line.strip():
                session.execute(line)
        session.execute("RUN")
    """
)


def pcbasic_output(program: str, input_lines: list[str] = (), timeout: float = 60.0) -> str:
    """What PC-BASIC prints running `program` (GW-BASIC text, numbered lines)."""
    typed = "".join(line + "\r" for line in input_lines)  # keys, as typed at a terminal
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RUNNER],
            input=program.encode() + b"\0" + typed.encode(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as stopped:  # waiting for input: what it printed
        return _text(stopped.stdout or b"")
    if done.returncode != 0:
        raise RuntimeError(f"PC-BASIC failed: {done.stderr.decode(errors='replace')}")
    return _text(done.stdout)


def _text(output: bytes) -> str:
    return output.decode("latin-1").replace("\r\n", "\n").replace("\xff", "")
