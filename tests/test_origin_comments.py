"""One `# N ...` / `// N ...` comment per translated statement, in source order.

The issue found `# 90`/`# 100` twice in matmul.py's host code, newton.py's comments out
of order and four identical `# 270` comments over consecutive calls in heat.py.  Checked
on the golden code of every example: within one generated function no statement is
quoted twice, and in the straight-line examples the quotes follow the BASIC lines.
"""

from __future__ import annotations

import re

import pytest

from tests.golden_cases import ROOT, cases

_ORIGIN = re.compile(r"^\s+(?:#|//) (\d+) (.*)$")
# A line at column 0 that is code (not a comment, brace, directive or blank) starts a
# new generated function or definition.
_TOP = re.compile(r"^(?!//|#|}|\s|$)")
_PY_TOP = re.compile(r"^(?!#|\s|$|\)|\])")

# Examples without GOSUB bodies inlined into kernels or GOTOs turned into branches:
# every function quotes its lines in increasing order.
IN_ORDER = {"saxpy", "matmul", "newton", "heat", "dot", "prefix", "stats"}


def origin_runs(text: str, top: re.Pattern, labels: set[int]) -> list[list[tuple[int, str]]]:
    """The (line, quoted text) comments of each top-level definition of `text`."""
    runs: list[list[tuple[int, str]]] = [[]]
    for line in text.splitlines():
        if top.match(line):
            runs.append([])
        m = _ORIGIN.match(line)
        if m and int(m.group(1)) in labels:
            runs[-1].append((int(m.group(1)), m.group(2)))
    return [run for run in runs if run]


def _labels(case) -> set[int]:
    text = (ROOT / case.source).read_text()
    return {int(m.group(1)) for m in re.finditer(r"^\s*(\d+)", text, re.MULTILINE)}


CASES = [c for c in cases() if c.group == "legacy"]


@pytest.mark.parametrize("suffix", [".py", ".cu"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_statement_is_quoted_once_per_function_in_order(case, suffix):
    text = case.golden(suffix).read_text()
    runs = origin_runs(text, _PY_TOP if suffix == ".py" else _TOP, _labels(case))
    assert runs, "no origin comments found"
    for run in runs:
        repeated = sorted({c for c in run if run.count(c) > 1})
        assert not repeated, f"quoted more than once in one function: {repeated}"
        if case.name in IN_ORDER:
            numbers = [n for n, _ in run]
            assert numbers == sorted(numbers), f"out of order: {numbers}"


def test_the_check_can_fail():
    code = "def f():\n    # 90 LET A = 1\n    a = 1\n    # 90 LET A = 1\n    a = 1\n"
    (run,) = origin_runs(code, _PY_TOP, {90})
    assert run == [(90, "LET A = 1"), (90, "LET A = 1")]
    code = "def f():\n    # 240 PRINT\n    # 230 PRINT\n"
    (run,) = origin_runs(code, _PY_TOP, {230, 240})
    assert [n for n, _ in run] == [240, 230]
