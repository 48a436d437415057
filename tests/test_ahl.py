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
generated cuTile Python outlasts the time limit on the CPU simulator.
"""

from __future__ import annotations

import subprocess
import sys
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
    "55_life": "the cuTile program runs past 120 s in the CPU tile simulator",
    "56_lifefortwo": "the cuTile program runs past 60 s in the CPU tile simulator",
    "70_poetry": "the cuTile program runs past 120 s in the CPU tile simulator",
}


def _params():
    if not PROGRAMS:
        return [pytest.param("-", marks=pytest.mark.skip(reason=f"no Ahl corpus at {CORPUS}"))]
    params = []
    for name in PROGRAMS:
        marks = []
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


def test_the_corpus_is_all_there():
    if not PROGRAMS:
        pytest.skip(f"no Ahl corpus at {CORPUS}")
    assert len(PROGRAMS) == 105
    assert set(NOT_YET) | set(TOO_SLOW) <= set(PROGRAMS)
