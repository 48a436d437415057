"""The layout of generated Python: Ruff's formatter, in Black's style.

basic2tile formats the modules it writes with `ruff format` (a hundred times faster than
black on large modules); these tests check that what it writes is exactly what black
would write, and that nothing around the user (a ruff.toml, a missing ruff) changes it
silently.
"""

from __future__ import annotations

import black
import pytest

from tests.conftest import EXAMPLES
from tests.programgen import random_program
from transpiler import driver
from transpiler.errors import BasicError, SourceFile
from transpiler.formatting import python as python_format
from transpiler.formatting.python import format_python
from transpiler.options import Options

BLACK = black.Mode(line_length=100)
PROGRAMS = sorted(EXAMPLES.glob("*.bas")) + sorted((EXAMPLES / "kernels").glob("*.bas"))


def _generated(name: str, text: str, **kwargs) -> str:
    analysis = driver.front_end(SourceFile(name, text), Options())
    return driver.generate(analysis, "cutile", **kwargs)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_ruff_output_is_what_black_writes(path):
    code = _generated(path.name, path.read_text())
    assert black.format_str(code, mode=BLACK) == code


@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_ruff_output_of_random_programs_is_what_black_writes(seed):
    text = random_program(seed=seed, statements=60)
    for offload in (True, False):
        code = _generated(f"rand{seed}.bas", text, offload=offload)
        assert black.format_str(code, mode=BLACK) == code


def test_a_ruff_configuration_where_basic2tile_runs_changes_nothing(tmp_path, monkeypatch):
    code = "def f(a, b):\n    return {'key': [a, b, 'a string that makes this line long enough']}\n"
    expected = format_python(code)
    assert expected == black.format_str(code, mode=BLACK)
    (tmp_path / "ruff.toml").write_text(
        'line-length = 20\nindent-width = 2\n[format]\nquote-style = "single"\n'
        'skip-magic-trailing-comma = true\nline-ending = "cr-lf"\n'
    )
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 30\n")
    monkeypatch.chdir(tmp_path)
    assert format_python(code) == expected


def test_output_is_lf_and_utf8_whatever_the_input():
    code = 'x = "\u00e9\u4e2d"\r\ny = 1\r\n'
    assert format_python(code) == 'x = "\u00e9\u4e2d"\ny = 1\n'


def test_invalid_generated_code_is_an_internal_error():
    with pytest.raises(RuntimeError, match="ruff format failed"):
        format_python("def f(:\n")


def test_a_missing_ruff_is_a_clear_error(monkeypatch):
    import ruff.__main__

    def missing():
        raise FileNotFoundError("ruff")

    python_format.ruff_path.cache_clear()
    monkeypatch.setattr(ruff.__main__, "find_ruff_bin", missing)
    try:
        with pytest.raises(BasicError, match="ruff package"):
            format_python("x = 1\n")
    finally:
        monkeypatch.undo()
        python_format.ruff_path.cache_clear()
    assert format_python("x  =  1\n") == "x = 1\n"
