"""`--check` of a program that writes files: each run in a scratch folder of its own.

The runtime's scratch mode (`runtime/files.py`): with $BASIC2TILE_SCRATCH set, what a
program writes goes under that folder (its absolute path mirrored there), what it reads
comes from there if it wrote it, else from its real place.  `--check` runs the
interpreter and the generated program each with a fresh folder, so neither sees the
other's files and the user's files stay as they were, then compares what each wrote
(text exact, numbers within the tolerance of stdout).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..runtime.files import SCRATCH_VARIABLE
from .compare import compare_outputs, unified_diff


@contextlib.contextmanager
def scratch_folder(folder: Path):
    """Runs in this block (and their child processes) write their files under `folder`."""
    previous = os.environ.get(SCRATCH_VARIABLE)
    os.environ[SCRATCH_VARIABLE] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(SCRATCH_VARIABLE, None)
        else:
            os.environ[SCRATCH_VARIABLE] = previous


def written_files(folder: Path) -> dict[str, str]:
    """The files a run wrote: their real path -> their text."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            real = os.sep + str(path.relative_to(folder))
            found[real] = path.read_bytes().decode("utf-8", errors="replace")
    return found


def files_difference(expected: dict[str, str], actual: dict[str, str], precision: str) -> str:
    """What differs between the files the interpreter wrote and the generated program's
    ("" if nothing does)."""
    out = []
    for name in sorted(expected.keys() | actual.keys()):
        if name not in actual:
            out.append(f"file {name}: written by the interpreter only\n")
        elif name not in expected:
            out.append(f"file {name}: written by the generated program only\n")
        elif compare_outputs(expected[name], actual[name], precision):
            out.append(f"file {name} differs:\n")
            out.append(unified_diff(expected[name], actual[name], "interpreter", "generated"))
    return "".join(out)
