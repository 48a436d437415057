"""The notice hook and the bas55 wording of faults and notices."""

from __future__ import annotations

import pytest

from transpiler.runtime import ERROR, BasicFault, Notice, div, set_warning_hook, warn
from transpiler.runtime.faults import print_notice


def test_default_hook_prints_to_stderr(capsys):
    previous = set_warning_hook(None)
    try:
        div(1.0, 0.0)
    finally:
        set_warning_hook(previous)
    assert capsys.readouterr().err == "warning: division by zero\n"


def test_set_warning_hook_returns_the_previous_hook():
    seen = []
    first = set_warning_hook(seen.append)
    assert set_warning_hook(first) == seen.append
    warn("operation overflow", "(*)")  # goes to `first` again, not to `seen`
    assert seen == []


def test_none_restores_the_default():
    previous = set_warning_hook(lambda notice: None)
    assert set_warning_hook(None) is not print_notice
    assert set_warning_hook(previous) is print_notice


@pytest.mark.parametrize(
    "notice, line, text",
    [
        # bas55 prints a space after the message even without detail (P028.eok).
        (Notice("division by zero"), 220, "220: warning: division by zero "),
        (Notice("invalid TAB argument", "(0)"), 190, "190: warning: invalid TAB argument (0)"),
        # INPUT errors carry no line number in bas55.
        (Notice("too much input data", severity=ERROR), None, "error: too much input data "),
    ],
)
def test_notice_texts(notice, line, text):
    assert notice.bas55_text(line) == text


def test_fault_texts():
    fault = BasicFault("function domain error", "SQR(-3)")
    assert str(fault) == fault.message == "function domain error SQR(-3)"
    assert fault.bas55_text(240) == "240: error: function domain error SQR(-3)"  # P118.eok
    assert BasicFault("insufficient data for READ").bas55_text(230) == (
        "230: error: insufficient data for READ "  # P097.eok
    )
