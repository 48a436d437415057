"""Run `basic2tile` on a program text in a scratch folder, and `--check` it on both targets.

The tests that hold a program and what it prints run it through the interpreter AND the
two generated programs (cuTile Python and CUDA C++, on the CPU): `--check` compares each
generated program's output, warnings and exit status with the interpreter's, so once it
passes on every target the interpreter's run speaks for all three.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

# The CUDA C++ runs on the CPU through g++: without it only the cuTile Python is checked.
TARGETS = ("cutile", "cuda") if shutil.which("g++") else ("cutile",)


def basic2tile(
    folder: Path, text: str | bytes, *options: str, dialect: str | None = "ms", stdin: str = ""
) -> subprocess.CompletedProcess:
    """Run `basic2tile prog.bas --dialect DIALECT OPTIONS` in `folder` (None: no
    --dialect), `text` written to prog.bas (bytes exactly as they are)."""
    program = folder / "prog.bas"
    if isinstance(text, bytes):
        program.write_bytes(text)
    else:
        program.write_text(text)
    chosen = ["--dialect", dialect] if dialect is not None else []
    return subprocess.run(
        [sys.executable, "-m", "transpiler", "prog.bas", *chosen, *options],
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def assert_checks(
    folder: Path,
    text: str | bytes,
    *options: str,
    dialect: str | None = "ms",
    stdin: str = "",
    targets=TARGETS,
) -> None:
    """`--check --device cpu` passes on each target: the generated program prints,
    warns and exits as the interpreter does."""
    for target in targets:
        check = basic2tile(
            folder, text, "--check", "--device", "cpu", "--target", target, *options,
            dialect=dialect, stdin=stdin,
        )  # fmt: skip
        assert check.returncode == 0, check.stdout + check.stderr


def checked_run(
    folder: Path, text: str | bytes, *options: str, dialect: str | None = "ms", stdin: str = ""
) -> subprocess.CompletedProcess:
    """The interpreter's run of a program that may stop with an error, after --check
    passed on both targets."""
    assert_checks(folder, text, *options, dialect=dialect, stdin=stdin)
    return basic2tile(folder, text, "--interpret", *options, dialect=dialect, stdin=stdin)


def interpreted_and_checked(
    folder: Path, text: str | bytes, *options: str, dialect: str | None = "ms", stdin: str = ""
) -> str:
    """What the interpreter prints, after --check passed on both targets."""
    done = checked_run(folder, text, *options, dialect=dialect, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def refused(
    folder: Path, text: str, message: str, dialect: str | None = "qbasic"
) -> subprocess.CompletedProcess:
    """The interpreter's run of a program it refuses, with the located error
    `prog.bas:MESSAGE` (`LINE:COLUMN: error: ...`)."""
    done = basic2tile(folder, text, "--interpret", dialect=dialect)
    assert done.returncode != 0
    assert "prog.bas:" + message in done.stderr, done.stderr
    return done
