"""Ahl's *BASIC Computer Games* (1978): real Microsoft BASIC that nobody here wrote.

The 105 programs of `../shared/corpus/ahl/programs/` (read there, never copied; skipped
with the reason when the corpus is absent), each with its scripted input from `inputs/`,
go through `basic2tile PROG --dialect ms --check --device cpu` for both targets (they are
Microsoft BASIC: single precision, GW-BASIC's number printing, errors found when a
statement runs, as their users' interpreters did): the reference
interpreter against the generated cuTile Python and the generated CUDA C++ (run on the
CPU), which must agree exactly: standard output byte for byte (RND included: every engine
has GW-BASIC's generator), exit status, warnings and the fatal error.

Oracle: the engines against each other.  Most games use RND and none has a recorded
output; the Microsoft semantics themselves are checked against PC-BASIC in the dialect
tests.  Games loop on INPUT, so most runs end when the scripted input is used up ("input
exhausted" in every engine); that is their normal end.

`NOT_YET` lists the programs that do not pass, each with the reason (strict xfail: a
program that starts to pass must leave the list); `TOO_SLOW` those not run because their
generated cuTile Python outlasts the time limit on the CPU simulator.  `ENDLESS` programs
never stop (Life runs generation after generation, Poetry writes verse forever): the
first `ENDLESS_LINES` lines of each engine's output must be the same.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "ahl"
PROGRAMS = sorted(p.stem for p in (CORPUS / "programs").glob("*.bas")) if CORPUS.is_dir() else []
TIMEOUT = 120  # seconds for one --check run (the generated program's limit is half of it)

# program -> why it does not pass yet
NOT_YET: dict[str, str] = {
    "23_checkers.annotated": "a modern annotated rewrite with # comments, not period BASIC",
}
# programs whose generated cuTile Python runs longer than the time limit on the CPU
# simulator (not run: they would only spend the limit)
TOO_SLOW: dict[str, str] = {
    "56_lifefortwo": "the cuTile program runs past 60 s in the CPU tile simulator",
}
# programs that never end: compared on the start of their output
ENDLESS = ("55_life", "70_poetry")
ENDLESS_LINES = 3000


def _params():
    if not PROGRAMS:
        return [pytest.param("-", marks=pytest.mark.skip(reason=f"no Ahl corpus at {CORPUS}"))]
    params = []
    for name in PROGRAMS:
        marks = []
        if name in ENDLESS:
            continue
        if name in NOT_YET:
            marks.append(pytest.mark.xfail(reason=NOT_YET[name], strict=True))
        elif name in TOO_SLOW:
            marks.append(pytest.mark.xfail(reason=TOO_SLOW[name], run=False))
        params.append(pytest.param(name, marks=marks))
    return params


def _check(name: str, target: str) -> subprocess.CompletedProcess:
    script = CORPUS / "inputs" / f"{name}.in"
    return subprocess.run(
        [
            sys.executable, "-m", "transpiler", str(CORPUS / "programs" / f"{name}.bas"),
            "--dialect", "ms", "--check", "--device", "cpu", "--target", target, "--timeout", str(TIMEOUT // 2),
        ],
        input=script.read_bytes() if script.exists() else b"",
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", _params())
def test_ahl_game_runs_alike_in_every_engine(name):
    for target in ("cutile", "cuda"):
        done = _check(name, target)
        report = (done.stdout + done.stderr).decode("utf-8", "replace")
        assert done.returncode == 0, f"{target}:\n{report[-3000:]}"
        assert "check passed" in report, report[-3000:]


def _kill(group: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def _first_lines(name: str, engine: list[str], count: int) -> list[bytes]:
    """The first `count` lines an endless program prints in one engine (then it is
    stopped, with the processes it started)."""
    script = CORPUS / "inputs" / f"{name}.in"
    with tempfile.TemporaryFile() as stdin:
        stdin.write(script.read_bytes() if script.exists() else b"")
        stdin.seek(0)
        process = subprocess.Popen(
            [sys.executable, "-m", "transpiler", str(CORPUS / "programs" / f"{name}.bas"),
             "--dialect", "ms", *engine],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        # A program that stops printing is stopped at the limit (readline then ends).
        limit = threading.Timer(TIMEOUT, _kill, (process.pid,))
        limit.start()
        lines = []
        try:
            while len(lines) < count and (line := process.stdout.readline()):
                lines.append(line)
        finally:
            limit.cancel()
            _kill(process.pid)
            process.wait()
            process.stdout.close()
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in ENDLESS if n in PROGRAMS] or ["-"])
def test_endless_game_starts_alike_in_every_engine(name):
    if not PROGRAMS:
        pytest.skip(f"no Ahl corpus at {CORPUS}")
    expected = _first_lines(name, ["--interpret"], ENDLESS_LINES)
    assert len(expected) == ENDLESS_LINES
    for engine in (["--run", "--device", "cpu"], ["--run", "--target", "cuda", "--device", "cpu"]):
        assert _first_lines(name, engine, ENDLESS_LINES) == expected, engine


def test_the_corpus_is_all_there():
    if not PROGRAMS:
        pytest.skip(f"no Ahl corpus at {CORPUS}")
    assert len(PROGRAMS) == 105
    assert set(NOT_YET) | set(TOO_SLOW) | set(ENDLESS) <= set(PROGRAMS)
