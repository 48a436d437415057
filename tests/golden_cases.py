"""The golden programs: every example, its generated cuTile Python and CUDA C++, its
expected output and its offload decisions, as files under golden/.

`make golden` (python -m tests.regenerate_golden) rewrites them; tests/test_golden.py
checks that the transpiler still produces exactly these files.  A change to generated
code therefore shows up as a reviewable diff of golden/ in the commit.
"""

from __future__ import annotations

import io
import os
import re
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports.explain import explain

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


@dataclass(frozen=True)
class GoldenCase:
    source: Path  # relative to ROOT, as users type it
    group: str  # "legacy" or "kernels"

    @property
    def name(self) -> str:
        return self.source.stem

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"

    def golden(self, suffix: str) -> Path:
        return GOLDEN / self.group / f"{self.name}{suffix}"


def cases() -> list[GoldenCase]:
    legacy = sorted((ROOT / "examples").glob("*.bas"))
    kernels = sorted((ROOT / "examples" / "kernels").glob("*.bas"))
    return [GoldenCase(p.relative_to(ROOT), "legacy") for p in legacy] + [
        GoldenCase(p.relative_to(ROOT), "kernels") for p in kernels
    ]


def analyse(case: GoldenCase):
    # Relative names keep the generated headers free of this machine's paths.
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return driver.front_end(SourceFile.read(case.source), Options())
    finally:
        os.chdir(cwd)


def generated(case: GoldenCase) -> dict[str, str]:
    """Suffix -> the text golden/ should hold for `case`."""
    analysis = analyse(case)
    out = {
        ".py": driver.generate(analysis, "cutile"),
        ".cu": driver.generate(analysis, "cuda"),
        ".out": interpreter_output(analysis),
    }
    if case.group == "legacy":
        out[".explain"] = explain(analysis) + "\n"
    return out


def interpreter_output(analysis) -> str:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        status = driver.interpret(analysis)
    if status != 0:
        raise RuntimeError(f"{analysis.source.name}: the interpreter exited with {status}")
    return buffer.getvalue()


def uses_mat(path: Path) -> bool:
    """Whether a program has MAT statements (which Debian's bwbasic lacks)."""
    return re.search(r"^\s*\d*\s*MAT\b", path.read_text(), re.IGNORECASE | re.MULTILINE) is not None
