"""Debian's bwbasic as an independent oracle: run a program, compare printed numbers.

bwbasic 2.20 prints a 4-line banner (each line starting with CR) and, with an empty
stdin, ends with a `bwBASIC: ` prompt; `run_bwbasic` strips both.  Its numbers are
fixed point with about 7 decimals (ECMA-55 uses 8 significant digits and E notation),
so outputs are compared number by number with a tolerance, and word by word.
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:E[-+]?\d+)?", re.IGNORECASE)
BANNER_LINES = 4


def run_bwbasic(path: Path, timeout: float = 120) -> str:
    result = subprocess.run(
        ["bwbasic", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=True,
    )
    # Bytes, not text mode: universal newlines would turn the banner's CRs into lines.
    lines = result.stdout.decode("utf-8", "replace").split("\n")[BANNER_LINES:]
    if lines and lines[-1].strip() in ("bwBASIC:", ""):
        lines = lines[:-1]
    return "\n".join(lines) + "\n"


def tokens(text: str) -> tuple[list[float], list[str]]:
    """The numbers of `text`, in order, and its other words."""
    numbers = [float(m) for m in NUMBER.findall(text)]
    words = NUMBER.sub(" ", text).split()
    return numbers, words


def disagreements(ours: str, theirs: str, rel: float = 1e-6, abs_: float = 1e-6) -> list[str]:
    """Why two outputs differ beyond printing precision (empty when they agree)."""
    a_numbers, a_words = tokens(ours)
    b_numbers, b_words = tokens(theirs)
    problems = []
    if a_words != b_words:
        problems.append(f"words differ: {a_words[:20]} vs {b_words[:20]}")
    if len(a_numbers) != len(b_numbers):
        problems.append(f"{len(a_numbers)} numbers vs {len(b_numbers)}")
    for i, (x, y) in enumerate(zip(a_numbers, b_numbers)):
        if not math.isclose(x, y, rel_tol=rel, abs_tol=abs_):
            problems.append(f"number {i + 1}: {x!r} vs {y!r}")
    return problems
