"""Helpers for the interpreter tests: run a program text and capture what it prints."""

from __future__ import annotations

import io
import textwrap

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options


def source(text: str) -> SourceFile:
    return SourceFile("prog.bas", textwrap.dedent(text).lstrip("\n"))


def run(text: str, stdin: str = "", **options) -> tuple[str, str]:
    """(stdout, stderr) of running the program; errors propagate."""
    src = source(text)
    analysis = driver.front_end(src, Options(**options))
    out, err = io.StringIO(), io.StringIO()
    status = driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    assert status == 0
    return out.getvalue(), err.getvalue()


def output(text: str, stdin: str = "", **options) -> str:
    """stdout of a program that must not warn."""
    out, err = run(text, stdin, **options)
    assert err == ""
    return out


def run_capturing(text: str, stdin: str = "", **options):
    """(stdout, stderr, the BasicError raised or None)."""
    from transpiler.errors import BasicError

    src = source(text)
    analysis = driver.front_end(src, Options(**options))
    out, err = io.StringIO(), io.StringIO()
    try:
        driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except BasicError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None
