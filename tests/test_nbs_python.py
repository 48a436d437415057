"""The NBS Minimal BASIC programs (kind normal or exception), translated to Python.

Every program is translated (`Options(std="ecma55")`), the module is run as a script in
a subprocess, and graded exactly as tests/test_nbs.py grades the interpreter: its graders
run here with `run_nbs` replaced by `_GeneratedRun`, which

1. runs the interpreter as test_nbs does (the scripted user of an INPUT program types
   its replies; they are recorded);
2. runs the generated script with the same stdin (the recorded replies) and the same
   RANDOMIZE seed ($BASIC2TILE_SEED, new for every run so that P131's two runs differ);
3. requires the same stdout as the interpreter, byte for byte (the runtime's RND is the
   same generator, so the RND programs print the same numbers), the same exit status,
   and the same warnings and fatal error on stderr, with their BASIC lines
   (transpiler.run.compare.program_diagnostics);
4. hands the generated program's run to test_nbs's grader: stdout equal to bas55's
   P###.ok, the PASSED lines of the RND and INPUT programs...

The programs whose .ok bas55's own math library decides (test_nbs.MATH_LIBRARY) are
graded as test_nbs grades them: the interpreter's output and their own verdicts.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from transpiler import driver
from transpiler.errors import BasicRuntimeError, Coord, SourceFile
from transpiler.passes.host.structure import build_host_program
from transpiler.run.compare import interpreter_diagnostics, program_diagnostics

from . import test_nbs
from .test_python_host import run_script

PROGRAMS = sorted(
    p for p, row in test_nbs.MANIFEST.items() if row["kind"] in ("normal", "exception")
)
_interpreter_run = test_nbs.run_nbs  # the graders' run_nbs is replaced during each test


class _GeneratedRun:
    """Stands in for test_nbs.run_nbs: see the module docstring."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch):
        self.folder = folder
        self.monkeypatch = monkeypatch
        self.runs = 0

    def __call__(self, nbs_dir: Path, prog: str, stdin=None, respond=None) -> test_nbs.Run:
        self.runs += 1
        seed = str(12345 + self.runs)
        self.monkeypatch.setenv("BASIC2TILE_SEED", seed)
        replies: list[str] = []
        if respond is not None:
            user = respond

            def respond(new: str, printed: str) -> str:  # records the replies
                reply = user(new, printed)
                replies.append(reply)
                return reply

            stdin_text = None
        else:
            stdin_text = stdin.getvalue() if stdin is not None else ""
            stdin = io.StringIO(stdin_text)
        expected = _interpreter_run(nbs_dir, prog, stdin=stdin, respond=respond)
        if stdin_text is None:
            stdin_text = "".join(reply + "\n" for reply in replies)

        script = self.folder / f"P{prog}_{self.runs}.py"
        source = SourceFile.read(nbs_dir / f"P{prog}.BAS")
        analysis = driver.front_end(source, test_nbs.STRICT)
        script.write_text(driver.generate_host(build_host_program(analysis), "cutile"))
        stdout, stderr, status = run_script(script, stdin_text, env={"BASIC2TILE_SEED": seed})

        assert stdout == expected.stdout
        assert status == (1 if expected.error is not None else 0), stderr
        assert program_diagnostics(analysis, stderr) == interpreter_diagnostics(
            analysis, expected.stderr, expected.error
        ), stderr
        error = None
        if status == 1:
            error = BasicRuntimeError(stderr.strip(), Coord(source.name, 1, 0))
        return test_nbs.Run(stdout, stderr, error)


@pytest.fixture
def generated_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _GeneratedRun:
    runner = _GeneratedRun(tmp_path, monkeypatch)
    monkeypatch.setattr(test_nbs, "run_nbs", runner)
    return runner


@pytest.mark.parametrize("prog", PROGRAMS, ids=[f"P{p}" for p in PROGRAMS])
def test_nbs_program_translated_to_python(nbs_dir: Path, prog: str, generated_runs) -> None:
    row = test_nbs.MANIFEST[prog]
    if row["uses_input"] == "y":
        test_nbs.INPUT_PROGRAMS[prog](nbs_dir)
    elif row["uses_rnd"] == "y":
        test_nbs._check_rnd_program(nbs_dir, prog, informative=row["informative"] == "y")
    elif prog in test_nbs.MATH_LIBRARY:
        test_nbs.test_nbs_accuracy_programs_grade_themselves(nbs_dir, prog)
    else:
        test_nbs._check_against_bas55(nbs_dir, prog)
    assert generated_runs.runs >= 1
