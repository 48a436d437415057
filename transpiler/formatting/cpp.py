"""CUDA C++ formatted by clang-format, in the one style of generated C++.

`format_cpp` sets aside the `// clang-format off` regions (`clang_verbatim`), cuts a long
file at its SPLIT lines (`cpp_pieces`) into runs formatted side by side, and turns the
SPLIT lines into blank lines.
"""

from __future__ import annotations

import functools
import os
import subprocess

from .clang_verbatim import put_back, set_aside
from .cpp_pieces import SPLIT, SPLIT_LINE

# The one clang-format style of generated C++ (kernels and host code alike).
CLANG_FORMAT_STYLE = (
    "{BasedOnStyle: Google, ColumnLimit: 100, SortIncludes: Never, ReflowComments: false, "
    "BreakStringLiterals: false, AllowShortFunctionsOnASingleLine: Empty, "
    "AllowShortIfStatementsOnASingleLine: Never, AllowShortLoopsOnASingleLine: false, "
    "AllowShortBlocksOnASingleLine: Never, AllowShortCaseLabelsOnASingleLine: false, "
    "MaxEmptyLinesToKeep: 1}"
)
# Below this many lines one clang-format process is quicker than several.
_PARALLEL_LINES = 4000


@functools.cache
def clang_format_path() -> str:
    import clang_format

    return clang_format.get_executable("clang-format")


def format_cpp(code: str, jobs: int | None = None, parallel_lines: int = _PARALLEL_LINES) -> str:
    """`code` formatted by clang-format in the generated code's style; SPLIT lines become
    blank lines.  A long file is formatted in up to `jobs` (default: the CPUs) processes
    at once, cut at SPLIT lines into runs of about equal length.  What clang-format must
    leave alone (the DATA table) does not go through it (clang_verbatim.py)."""
    code, verbatim = set_aside(code, keep_with=SPLIT)
    return put_back(_format_pieces(code, jobs, parallel_lines), verbatim)


def _format_pieces(code: str, jobs: int | None, parallel_lines: int) -> str:
    pieces = [p.strip("\n") + "\n" for p in code.split(SPLIT_LINE) if p.strip()]
    if len(pieces) <= 1:
        return _clang_format(code.replace(SPLIT_LINE, "\n"))
    lines = [p.count("\n") for p in pieces]
    jobs = min(jobs or _cpus(), len(pieces), max(1, sum(lines) // max(parallel_lines, 1)))
    if jobs <= 1:
        return _clang_format("\n".join(pieces))
    share = sum(lines) / jobs
    runs: list[list[str]] = [[]]
    done = 0  # lines in the runs so far
    for piece, count in zip(pieces, lines):
        # a new run once this piece would lie mostly beyond the current run's share
        if runs[-1] and len(runs) < jobs and done + count / 2 > share * len(runs):
            runs.append([])
        runs[-1].append(piece)
        done += count
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(runs)) as pool:
        formatted = list(pool.map(_clang_format, ["\n".join(run) for run in runs]))
    return "\n".join(formatted)


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _clang_format(code: str) -> str:
    done = subprocess.run(
        [clang_format_path(), f"--style={CLANG_FORMAT_STYLE}", "--assume-filename=program.cu"],
        input=code,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"clang-format failed: {done.stderr}")
    return done.stdout
