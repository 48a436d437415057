"""What a reviewer flagged in the generated code (issue 23, point 9), checked on every
golden file: the launch helpers are in a shipped header, not repeated in every .cu;
no parentheses around a single negated operand; no `grid.y > 0` for a literal 1; one
`covers()` test per array, axis and count in a launch condition; the host code names the
kernels' tile sizes instead of repeating the literal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transpiler.backends.cuda.build import grid_nonempty
from transpiler.ir import ast, hostir

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_CU = sorted((ROOT / "golden").rglob("*.cu"))
GOLDEN_PY = sorted((ROOT / "golden").rglob("*.py"))
GOLDEN = GOLDEN_CU + GOLDEN_PY


@pytest.mark.parametrize("path", GOLDEN_CU, ids=lambda p: p.stem)
def test_the_launch_helpers_come_from_a_header(path):
    text = path.read_text()
    assert "class DeviceArray" not in text and "class DeviceTemp" not in text
    assert "inline int loop_count(" not in text
    uses = "b2t::DeviceArray<" in text or "b2t::DeviceTemp<" in text
    assert uses == ('#include "b2t_launch.h"' in text)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_single_negated_call_has_no_parentheses(path):
    text = path.read_text()
    assert not re.search(r"if not \(\w+\.all\(\)\):", text)
    assert not re.search(r"if \(!\(\w+\.all\(\)\)\)", text)


@pytest.mark.parametrize("path", GOLDEN_CU, ids=lambda p: p.stem)
def test_a_literal_grid_axis_is_not_tested(path):
    text = path.read_text()
    launches = re.findall(r"const dim3 grid\(([^;]*)\);\s*if \((.*)\)", text)
    assert len(launches) == text.count("const dim3 grid(")
    for sizes, test in launches:
        sizes = " ".join(sizes.split())
        if sizes.endswith(", 1, 1"):
            assert test == "grid.x > 0", sizes
        elif sizes.endswith(", 1"):
            assert test == "grid.x > 0 && grid.y > 0", sizes


def test_grid_nonempty_tests_only_what_may_be_zero():
    assert grid_nonempty(["b2t_cdiv(n, 512)", "1", "1"]) == "grid.x > 0"
    assert grid_nonempty(["a", "b", "1"]) == "grid.x > 0 && grid.y > 0"
    assert grid_nonempty(["4", "1", "1"]) == "grid.x > 0"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_one_covers_test_per_array_axis_and_count(path):
    """heat's stencil tested T three times (T(I - 1), T(I), T(I + 1)) in one condition."""
    text = path.read_text()
    for condition in re.findall(r"if \(?(.*\.covers\([^\n]*(?:\n[^\n]*covers[^\n]*)*)", text):
        keys = re.findall(r"(\w+)\.covers\((\d+), [^,]+, (\w+)", condition)
        assert len(keys) == len(set(keys)), condition


def _check(array: str, offset: float, count: str = "n") -> hostir.RangeCheck:
    return hostir.RangeCheck(array, 0, 1, offset, count, ast.Num(0.0))


def test_neighbour_reads_make_one_test_of_their_span():
    checks = [_check("T", 1.0), _check("T", 0.0), _check("T", 2.0), _check("U", 1.0)]
    checks.append(_check("T", 0.0, "m"))
    assert hostir.cover_tests(checks) == [
        hostir.CoverTest("T", 0, 1.0, "n", 2.0),
        hostir.CoverTest("U", 0, 2.0, "n", 0.0),
        hostir.CoverTest("T", 0, 1.0, "m", 0.0),
    ]


def _code_lines(text: str) -> list[str]:
    """The lines that are code: no comments, no docstrings or kernel descriptions."""
    lines, in_doc = [], False
    for line in text.splitlines():
        stripped = line.strip()
        quotes = stripped.count('"""')
        if in_doc or quotes:
            in_doc = in_doc != (quotes % 2 == 1)
            continue
        if not stripped.startswith(("#", "//")):
            lines.append(line)
    return lines


@pytest.mark.parametrize("suffix", [".py", ".cu"])
def test_heat_names_its_tile_size_once(suffix):
    """The literal 512 was repeated 25 times in heat.py's host code and 34 times in heat.cu,
    whose kernels declare `constexpr int tile = 512;` and then wrote `bid * 512`."""
    lines = _code_lines((ROOT / "golden" / "legacy" / f"heat{suffix}").read_text())
    with_literal = [line for line in lines if re.search(r"\b512\b", line)]
    if suffix == ".py":
        assert with_literal == ["TILE = 512"]
    else:
        assert with_literal == ["  constexpr int tile = 512;"] * 5 + ["constexpr int TILE = 512;"]
    assert sum(line.count("TILE") for line in lines) > 20


@pytest.mark.parametrize("path", GOLDEN_CU, ids=lambda p: p.stem)
def test_a_kernel_with_a_tile_constant_uses_it(path):
    text = path.read_text()
    for value in re.findall(r"constexpr int tile = (\d+);", text):
        assert f"bid * {value} " not in text


@pytest.mark.parametrize("path", GOLDEN_CU, ids=lambda p: p.stem)
def test_exception_flags_say_whose_they_are(path):
    text = path.read_text()
    assert "_max_any" not in text
    for block, thread in re.findall(r"int (\w+) = b2t_block_any\((\w+)\)", text):
        assert block.startswith("block_") and thread.startswith("thread_")


@pytest.mark.parametrize("path", GOLDEN_CU, ids=lambda p: p.stem)
def test_element_coordinates_have_no_numbered_names(path):
    """`at_2`, `at_row_3`: each element loop declares its coordinates in a block of its own,
    so every loop can call them `at` (`at_row`, `at_col`); outside such a block the name
    says whose element it is (`done_at`)."""
    text = path.read_text()
    assert not re.findall(r"const int (\w*at(?:_row|_col)?_\d+) =", text)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_negated_test_is_not_negated_again(path):
    """`if (!(!(x < e))) break;` where a loop's test needed lines before it (newton.cu)."""
    text = path.read_text()
    assert "!(!(" not in text and "not (not " not in text


@pytest.mark.parametrize(
    "test, negated",
    [
        ("!(a < b)", "a < b"),
        ("!done", "done"),
        ("a < b", "!(a < b)"),
        ("!(a) && !(b)", "!(!(a) && !(b))"),
        ('!(s == ")") && t', '!(!(s == ")") && t)'),
        ('!(s == "\\")") && t', '!(!(s == "\\")") && t)'),
    ],
)
def test_negating_a_cpp_test(test, negated):
    from transpiler.hostcode.syntax import CPP

    assert CPP.negated(test) == negated
