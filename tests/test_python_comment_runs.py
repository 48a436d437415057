"""Long runs of comment lines are folded while Ruff's formatter runs (its time is
quadratic in them), and the formatted module is exactly what the formatter alone
writes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import program_shapes
from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.formatting import python as python_format
from transpiler.formatting.comment_runs import LONG_RUN, fold, unfold
from transpiler.formatting.python import RUFF_FORMAT, format_python, ruff_path
from transpiler.options import Options

TRICKY = '''\
def f():
    """A docstring:
    # not a comment
    # nor this
    """
    x = 1
    # a run at the end of a block   \n\
    #
    #no space after the hash
    # basic2tile-folded
y = [
    # inside brackets
    # the formatter's business
    1,
]
# fmt: off
# after a pragma
z = [1,
  2]
# fmt: on
def g():
    x = 1
# less indented than the next statement
# (the formatter indents them as the statement)
    return x
s = "# a string"  # a trailing comment
# one
# two
'''


def _ruff_alone(code: str) -> str:
    done = subprocess.run(
        [ruff_path(), *RUFF_FORMAT], input=code.encode(), capture_output=True, check=True
    )
    return done.stdout.decode()


def _folded_and_formatted(code: str, shortest: int) -> str:
    folded = fold(code, shortest)
    return unfold(_ruff_alone(folded.code), folded.runs)


def _unformatted_module(name: str, text: str) -> str:
    analysis = driver.front_end(SourceFile(name, text), Options())
    return driver.rendered(analysis, "cutile")


def test_folding_every_run_changes_nothing_the_formatter_writes():
    folded = fold(TRICKY, shortest=2)
    assert len(folded.runs) == 3  # the end of f, before g's return, the end of the module
    assert _folded_and_formatted(TRICKY, shortest=2) == _ruff_alone(TRICKY)


@pytest.mark.parametrize("name", ["heat", "histogram", "horner", "newton", "prefix", "commented"])
def test_folding_every_run_of_a_generated_module_changes_nothing(name):
    if name == "commented":
        text = program_shapes.commented(80)
    else:
        text = (EXAMPLES / f"{name}.bas").read_text()
    code = _unformatted_module(f"{name}.bas", text)
    assert fold(code, shortest=2).runs
    assert _folded_and_formatted(code, shortest=2) == _ruff_alone(code)


def test_a_long_run_of_comments_reaches_the_formatter_as_one_line(monkeypatch):
    comments = "".join(f"    # 10{k} REM NOTE {k}  \n" for k in range(5000))
    code = f"def f():\n    x = 1\n{comments}    return x\n"
    sent = []
    run = subprocess.run

    def spy(command, input, **kwargs):
        sent.append(input.decode())
        return run(command, input=input, **kwargs)

    monkeypatch.setattr(python_format.subprocess, "run", spy)
    formatted = format_python(code)
    assert sent[0].count("#") == 1
    assert formatted == code.replace("  \n", "\n")


def test_a_comment_like_the_marker_turns_folding_off():
    comments = "".join(f"# basic2tile-folded-comments {k}\n" for k in range(LONG_RUN))
    code = f"x = 1\n{comments}y = 2\n"
    assert fold(code).runs == []
    assert format_python(code) == _ruff_alone(code)


def test_short_runs_are_left_to_the_formatter():
    code = "x = 1\n" + "# c\n" * (LONG_RUN - 1) + "y = 2\n"
    assert fold(code).code == code


def test_an_error_in_a_dispatch_loop_is_located_at_its_own_line(tmp_path):
    """Ahl's blackjack: a subroutine entered at a REM, whose body is a dispatch loop (a
    GOTO back to its first statement); the INPUT that runs out of input is line 1420 in
    every engine, not the REM above it (its comment was printed above the loop)."""
    source = tmp_path / "prog.bas"
    source.write_text(
        "10 H1=3\n20 GOSUB 1410: PRINT H\n30 GOSUB 1410: PRINT H\n40 END\n1400 REM\n"
        "1410 REM X\n1420 INPUT X: X=INT(X)\n1430 FOR H=1 TO H1 STEP 2\n"
        "1440 IF X=H THEN 1480\n1450 NEXT H\n1460 PRINT \"TYPE \";H1;\" PLEASE\";\n"
        "1470 GOTO 1420\n1480 H=(H+1)/2\n1490 RETURN\n"
    )
    for target in ("cutile", "cuda"):
        done = subprocess.run(
            [sys.executable, "-m", "transpiler", str(source), "--check", "--device", "cpu",
             "--target", target],
            input="1\n", capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        ran = subprocess.run(
            [sys.executable, "-m", "transpiler", str(source), "--run", "--device", "cpu",
             "--target", target],
            input="1\n", capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert "line 1420: error on input stream" in ran.stderr, ran.stderr
