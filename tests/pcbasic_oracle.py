"""PC-BASIC (PyPI `pcbasic`, a GW-BASIC 3.23 emulator) as an independent oracle.

    from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic

    @requires_pcbasic                       # skips, with the reason, without PC-BASIC
    def test_something():
        assert our_output == pcbasic_output("10 PRINT 1/3\\n")

`run(source, stdin, folder)` runs a GW-BASIC program in a child process through PC-BASIC's
Python API (its command line prints nothing without a terminal) and returns what it
printed, with "\\n" line ends.  The program's files live in `folder` (drive C:, the
current drive), so a test can give it input files and read back what it wrote.
`pcbasic_output(program, input_lines)` is the same run with typed lines; a program still
waiting for input when the timeout comes returns what it printed so far.  Tests skip with
`SKIP_REASON` (or `requires_pcbasic`) where `pcbasic` is not installed (it is in the
`test` extra).

Good to know when writing oracle programs:
- a run ends at the program's end; an error prints "<message> in <line>" and ends it,
  STOP prints "Break in <line>" (the byte 0xFF PC-BASIC ends those lines with is
  dropped); use `ON ERROR GOTO` to go on (`errors_resumed` does that for a table of cases);
- PC-BASIC echoes what INPUT reads, as a terminal would, so compare programs without
  INPUT, or strip the echo;
- numbers are GW-BASIC's: single precision unless a name or constant says `#`.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

AVAILABLE = importlib.util.find_spec("pcbasic") is not None
SKIP_REASON = (
    "PC-BASIC (pip install pcbasic, in the test extra) is not installed: no GW-BASIC oracle"
)
requires_pcbasic = pytest.mark.skipif(not AVAILABLE, reason=SKIP_REASON)

# Runs in the child: the program is typed in line by line, then RUN.  Input lines end in
# "\r" (PC-BASIC's keyboard); the session's output goes to stdout as bytes.
_DRIVER = r"""
import io, sys, pcbasic
source, folder, stdin, soft = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
text = open(source, encoding="latin-1").read()
keys = open(stdin, "rb").read().replace(b"\r\n", b"\r").replace(b"\n", b"\r")
with pcbasic.Session(output_streams=sys.stdout.buffer, input_streams=io.BytesIO(keys),
                     devices={"C:": folder}, current_device="C:",
                     soft_linefeed=soft) as session:
    for line in text.splitlines():
        if line.strip():
            session.execute(line)
    session.execute("RUN")
"""


class OracleError(RuntimeError):
    pass


def run(
    source: str,
    stdin: str = "",
    folder: Path | None = None,
    timeout: float = 60,
    partial_on_timeout: bool = False,
    soft_linefeed: bool = False,
) -> str:
    """What GW-BASIC (as PC-BASIC emulates it) prints for `source`, "\\n"-terminated lines.

    `folder`: the program's current directory (a fresh temporary one if None).
    `partial_on_timeout`: a run still going at `timeout` returns what it printed so far
    (a program waiting for input it will never get) instead of raising.
    `soft_linefeed`: PC-BASIC's option that reads a lone LF in a text file as a character,
    as GW-BASIC does (by default it ends a line there, as CR does)."""
    with tempfile.TemporaryDirectory(prefix="b2t-pcbasic-") as tmp:
        work = Path(tmp)
        (work / "prog.bas").write_text(source, encoding="latin-1")
        (work / "stdin.txt").write_text(stdin, encoding="latin-1")
        where = folder if folder is not None else work / "files"
        where.mkdir(exist_ok=True)
        command = [sys.executable, "-c", _DRIVER]
        command += [str(work / "prog.bas"), str(where), str(work / "stdin.txt")]
        command.append("1" if soft_linefeed else "0")
        try:
            proc = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as stopped:
            if not partial_on_timeout:
                raise
            return _text(stopped.stdout or b"")
    if proc.returncode != 0:
        raise OracleError(f"PC-BASIC failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    return _text(proc.stdout)


def pcbasic_output(program: str, input_lines: list[str] = (), timeout: float = 60.0) -> str:
    """What PC-BASIC prints running `program` (GW-BASIC text, numbered lines), typing
    `input_lines`; a program left waiting for input returns what it printed."""
    typed = "".join(line + "\r" for line in input_lines)  # keys, as typed at a terminal
    return run(program, typed, timeout=timeout, partial_on_timeout=True)


def _text(output: bytes) -> str:
    return output.decode("latin-1").replace("\r\n", "\n").replace("\xff", "")


ERROR_MARK = "<ERROR "


def errors_resumed(lines: list[str]) -> str:
    """Numbered lines 1..n from `lines`, after an ON ERROR GOTO that prints
    "<ERROR n>" (GW-BASIC's error code) on a line of its own and resumes with the next
    statement: a table of cases, some of which fail, in one run."""
    body = [f"{n} {text}" for n, text in enumerate(lines, start=2)]
    handler = f'60000 PRINT : PRINT "{ERROR_MARK}"; ERR; ">" : RESUME NEXT'
    return "\n".join(["1 ON ERROR GOTO 60000", *body, "59999 END", handler]) + "\n"
