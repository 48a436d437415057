"""clang-format of generated C++ in pieces, side by side (formatting/cpp.py).

A long .cu file is cut at the SPLIT lines the printers write between top-level pieces
(the kernels, the host part) and the runs of pieces are formatted by separate
clang-format processes at once.  That is only right if the result is, byte for byte,
what one clang-format process writes for the whole file: checked here on every example
and on random programs, cut into as many runs as possible.
"""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from tests.programgen import random_program
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.formatting import cpp as clang
from transpiler.formatting.cpp import format_cpp
from transpiler.formatting.cpp_pieces import SPLIT, join_pieces
from transpiler.options import Options

PROGRAMS = sorted(EXAMPLES.glob("*.bas"))


def _raw_and_formatted(name: str, text: str) -> tuple[str, str]:
    """The program's C++ before formatting (with its SPLIT lines), and as generated."""
    analysis = driver.front_end(SourceFile(name, text), Options())
    return driver.rendered(analysis, "cuda"), driver.generate(analysis, "cuda")


def _check(raw: str, code: str) -> None:
    assert SPLIT not in code
    whole = clang._clang_format(raw.replace(SPLIT + "\n", "\n"))
    assert code == whole
    for jobs in (2, 3, 64):
        assert format_cpp(raw, jobs=jobs, parallel_lines=1) == whole, jobs


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_examples_formatted_in_pieces_are_formatted_as_a_whole(path):
    raw, code = _raw_and_formatted(path.name, path.read_text())
    if "@ct" in raw or "__global__" in raw:
        assert raw.count(SPLIT) >= 2  # around the kernels, between them
    _check(raw, code)


@pytest.mark.parametrize("seed", [5, 11])
def test_random_programs_formatted_in_pieces_are_formatted_as_a_whole(seed):
    raw, code = _raw_and_formatted(f"rand{seed}.bas", random_program(seed=seed, statements=150))
    assert raw.count(SPLIT) > 5
    _check(raw, code)


def test_join_pieces_leaves_one_blank_line_between_pieces():
    joined = join_pieces(["int a;\n\n\n", "", "\n\nint b;", "  \n"])
    assert joined == f"int a;\n{SPLIT}\nint b;\n"
    assert format_cpp(joined) == "int a;\n\nint b;\n"
    assert format_cpp(joined, jobs=2, parallel_lines=1) == "int a;\n\nint b;\n"


def test_a_file_without_split_lines_is_formatted_in_one_piece():
    code = "int  f( ) {return 1;}\n"
    assert format_cpp(code, jobs=8, parallel_lines=1) == "int f() {\n  return 1;\n}\n"


def _data_table(items: int) -> str:
    rows = "".join(f'    {{"{k}", false}}, {{"{k + 1}", true}},\n' for k in range(0, items, 2))
    return f"// clang-format off\nconst Item DATA[] = {{\n{rows}}};\n// clang-format on\n"


def test_clang_format_does_not_read_the_lines_it_leaves_alone(monkeypatch):
    """The DATA table of 10,000 DATA lines took clang-format 11 s, to leave it as it was."""
    code = f"int  a;\n{_data_table(4000)}int  b;\n"
    expected = clang._clang_format(code)
    sent = []
    real = clang._clang_format
    monkeypatch.setattr(clang, "_clang_format", lambda text: sent.append(text) or real(text))
    assert format_cpp(code) == expected
    assert sum(text.count("\n") for text in sent) < 10


@pytest.mark.parametrize(
    "code",
    [
        f"int  a;\n{_data_table(4)}",  # at the end of the file
        f"int  a;\n{_data_table(4)}{_data_table(6)}int  b;\n",  # two regions
        "int  a;\n// clang-format off\nint   b;\n",  # off to the end of the file
        f"int  a;\n// clang-format off\nint   b;\n{SPLIT}\n// clang-format on\nint  c;\n",
        "// clang-format off\n// @@b2t: verbatim lines 0@@\n// clang-format on\nint  a;\n",
        "int  a;\n// clang-format off\n// clang-format on\nint  b;\n",  # empty
    ],
    ids=["at-end", "two", "unended", "with-split", "like-a-placeholder", "empty"],
)
def test_setting_regions_aside_changes_nothing_clang_format_writes(code):
    assert format_cpp(code) == clang._clang_format(code.replace(SPLIT + "\n", "\n"))
