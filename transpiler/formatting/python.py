"""cuTile Python formatted by Ruff's formatter, in Black's style.

Ruff's formatter writes Black's style (tests check the output against black itself)
about a hundred times faster: 0.06 s instead of 4.8 s for a 5,000-line module.  Long
runs of comment lines are folded while it runs (`comment_runs`).
"""

from __future__ import annotations

import functools
import subprocess

from ..errors import BasicError, Coord
from .comment_runs import fold, unfold

# `--isolated` with every setting on the command line: a ruff.toml or pyproject.toml
# where basic2tile runs cannot change the generated code.
RUFF_FORMAT = (
    "format", "--isolated", "--no-cache", "--line-length=100", "--target-version=py310",
    "--config=format.quote-style='double'", "--config=format.indent-style='space'",
    "--config=format.line-ending='lf'", "--config=format.skip-magic-trailing-comma=false",
    "--config=format.docstring-code-format=false", "--no-preview", "-",
)  # fmt: skip


@functools.cache
def ruff_path() -> str:
    """The ruff executable of the `ruff` package (a dependency of basic2tile).  Its
    absence is a broken installation, reported as an error (exit status 1), not a bug."""
    try:
        from ruff.__main__ import find_ruff_bin

        return find_ruff_bin()
    except (ImportError, FileNotFoundError):
        raise BasicError(
            "cannot format the generated Python: the ruff package (Ruff's formatter) is "
            "not installed or has no ruff executable; reinstall basic2tile (it depends "
            "on ruff) or run `pip install ruff`",
            Coord("basic2tile", 0, 0),
        ) from None


def format_python(code: str) -> str:
    """`code` in Black's style at line length 100, formatted by Ruff's formatter (runs
    of comment lines folded, as the formatter is slow on them)."""
    folded = fold(code)
    done = subprocess.run(
        [ruff_path(), *RUFF_FORMAT],
        input=folded.code.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise RuntimeError(f"ruff format failed on the generated module: {message}")
    return unfold(done.stdout.decode("utf-8"), folded.runs)
