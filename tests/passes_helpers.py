"""Helpers for the semantic-pass tests: analyse a program text, or collect its errors."""

from __future__ import annotations

import textwrap

import pytest

from transpiler.errors import CompileErrors, SourceFile
from transpiler.frontend.parser import parse
from transpiler.ir.model import Analysis
from transpiler.options import Options
from transpiler.passes import analyze


def source(text: str) -> SourceFile:
    return SourceFile("prog.bas", textwrap.dedent(text).lstrip("\n"))


def analysis_of(text: str, std: str = "extended") -> Analysis:
    src = source(text)
    options = Options(std=std)
    return analyze(parse(src, options), src, options)


def errors_of(text: str, std: str = "extended") -> list[tuple[int, int, str]]:
    """(source line, column, message) of every error, in order."""
    src = source(text)
    options = Options(std=std)
    program = parse(src, options)  # a syntax error here is a mistake in the test
    with pytest.raises(CompileErrors) as caught:
        analyze(program, src, options)
    return [(e.coord.line, e.coord.column, e.message) for e in caught.value.errors]


def kinds(analysis: Analysis) -> list[str]:
    return [type(s).__name__ for s in analysis.stmts]
