"""One `# N ...` / `// N ...` comment per translated statement, in source order.

The issue found `# 90`/`# 100` twice in matmul.py's host code, newton.py's comments out
of order and four identical `# 270` comments over consecutive calls in heat.py.  Checked
on the golden code of every example: within one generated function no statement is
quoted twice, and in the straight-line examples the quotes follow the BASIC lines.  One
repeat is by design, left out of both checks: the host code that adds a kernel's partial results into a sum
(`s = add_all(s, s_partial.tolist())`) sits under its statement's comment again, because
an overflow warning there names that line (the Python module finds it from the comment
above the failing line, the C++ sets `line = N;` under it).
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


# The first code line under a comment (after C++'s `line = N;`) combines partial results.
_COMBINES = re.compile(r"^\s+(?:line = \d+;\n\s+)?\w+ = .*\b\w+_partial(?:_\d+)?\b")


def origin_runs(
    text: str, top: re.Pattern, labels: set[int], combines: bool = True
) -> list[list[tuple[int, str]]]:
    """The (line, quoted text) comments of each top-level definition of `text`; without
    `combines`, not those over a combination of a kernel's partial results."""
    runs: list[list[tuple[int, str]]] = [[]]
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if top.match(line):
            runs.append([])
        m = _ORIGIN.match(line)
        if not m or int(m.group(1)) not in labels:
            continue
        if combines or not _COMBINES.match("\n".join(lines[k + 1 : k + 3])):
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
    runs = origin_runs(text, _PY_TOP if suffix == ".py" else _TOP, _labels(case), combines=False)
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
    # only a combination of partial results may quote its statement again
    code = "def f():\n    # 90 LET S = S + A\n    s = add_all(s, s_partial.tolist())\n"
    code += "    # 90 LET S = S + A\n    s = add(s, a)\n"
    (run,) = origin_runs(code, _PY_TOP, {90}, combines=False)
    assert run == [(90, "LET S = S + A")]
    code = "void f() {\n  // 90 LET S = S + A\n  line = 90;\n  s = s_partial_2.added_to(s);\n}\n"
    assert origin_runs(code, _TOP, {90}, combines=False) == []
