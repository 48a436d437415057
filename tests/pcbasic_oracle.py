"""PC-BASIC (PyPI `pcbasic`, a GW-BASIC 3.23 emulator) as an oracle for Microsoft BASIC.

    out = run_pcbasic("10 PRINT 1/3\\n")        # " .3333334 \\n"
    @needs_pcbasic                              # skips (with the reason) without it

The program runs in a child process through PC-BASIC's Python API (its command line
prints nothing without a terminal), each line typed as at its prompt, then RUN.  What
comes back is its screen output with "\\n" line ends, an error as GW-BASIC prints it
("NEXT without FOR in 20"), and "Break in 20" for STOP.  `stdin` is typed in answer to
INPUT; PC-BASIC echoes the replies, as a terminal would.  A program that waits for more
input than `stdin` has is stopped after `timeout` seconds, with what it printed so far.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HAS_PCBASIC = importlib.util.find_spec("pcbasic") is not None
needs_pcbasic = pytest.mark.skipif(
    not HAS_PCBASIC, reason="PC-BASIC (pip install pcbasic, the test extra) is not installed"
)

_RUNNER = """
import sys, pcbasic
program, replies = sys.argv[1], sys.argv[2]
with open(replies, "rb") as stdin, pcbasic.Session(
    output_streams=sys.stdout.buffer, input_streams=stdin
) as session:
    for line in open(program, encoding="ascii").read().splitlines():
        if line.strip():
            session.execute(line)
    session.execute("RUN")
"""


def run_pcbasic(program: str, stdin: str = "", timeout: float = 30) -> str:
    """PC-BASIC's output for `program` (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="b2t-pcbasic-") as tmp:
        source = Path(tmp) / "prog.bas"
        source.write_text(program, encoding="ascii")
        replies = Path(tmp) / "stdin.txt"
        replies.write_bytes(stdin.replace("\n", "\r").encode("ascii"))  # keys, not lines
        try:
            done = subprocess.run(
                [sys.executable, "-c", _RUNNER, str(source), str(replies)],
                capture_output=True,
                timeout=timeout,
                cwd=tmp,
                check=False,
            )
            output = done.stdout
        except subprocess.TimeoutExpired as stopped:
            output = stopped.stdout or b""
    # Lines end in CR LF; an error or Break line ends with a 0xFF byte.
    return output.decode("latin-1").replace("\r\n", "\n").replace("\xff", "")
