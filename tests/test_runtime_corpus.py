"""Whole NBS programs made of PRINT and LET of constants, printed through the runtime.

These programs test PRINT itself (number formats, zones, TAB, the margin).  Each line is
either ``PRINT items``, ``LET variable = constant or variable``, REM or END, so a few lines
of this file run them without the real interpreter, and the runtime's text must equal
bas55's stdout (P###.ok) byte for byte.
"""

from __future__ import annotations

import io
import re

import pytest

from transpiler.runtime import ZONE, Console, format_number, set_warning_hook, tab

# Programs whose statements are all of the kinds handled below.
PROGRAMS = ["P001", "P002", "P006", "P009", "P010", "P011", "P012", "P013", "P014"]

_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:E[+-]?[0-9]+)?"
_VARIABLE = r"[A-Z][0-9]?\$?"
_ITEM = re.compile(
    rf'\s*(?:"(?P<string>[^"]*)"|(?P<number>{_NUMBER})|TAB\((?P<tab>{_NUMBER}|{_VARIABLE})\)'
    rf"|(?P<variable>{_VARIABLE})|(?P<separator>[,;]))"
)
_LET = re.compile(rf'LET (?P<name>{_VARIABLE})=(?:"(?P<string>[^"]*)"|(?P<value>\S+))$')


def run_print_program(source: str) -> tuple[str, list[str]]:
    """Run a program of PRINT, LET, REM and END statements; its stdout and notices."""
    out = io.StringIO()
    notices: list[str] = []
    console = Console(out)
    variables: dict[str, float | str] = {}

    def value(token: str) -> float | str:
        return (
            variables.get(token, "" if token.endswith("$") else 0.0)
            if token[0].isalpha()
            else float(token)
        )

    previous = set_warning_hook(lambda notice: notices.append(notice.message))
    try:
        for line in source.splitlines():
            number, _, statement = line.partition(" ")
            if statement.startswith("REM") or statement == "END":
                continue
            if let := _LET.match(statement):
                text = let["string"]
                variables[let["name"]] = text if text is not None else value(let["value"])
                continue
            assert statement.startswith("PRINT"), f"line {number} is not handled: {statement}"
            items: list[object] = []
            rest, pos = statement[len("PRINT") :], 0
            while rest[pos:].strip():
                m = _ITEM.match(rest, pos)
                assert m, f"line {number}: cannot read PRINT items at {rest[pos:]!r}"
                pos = m.end()
                if m["string"] is not None:
                    items.append(m["string"])
                elif m["number"] is not None:
                    items.append(float(m["number"]))
                elif m["tab"] is not None:
                    items.append(tab(value(m["tab"])))
                elif m["variable"] is not None:
                    items.append(value(m["variable"]))
                elif m["separator"] == ",":
                    items.append(ZONE)
            ends_open = statement.rstrip().endswith((",", ";"))
            console.print(*items, end="" if ends_open else "\n")
        console.finish()
    finally:
        set_warning_hook(previous)
    return out.getvalue(), notices


@pytest.mark.parametrize("program", PROGRAMS)
def test_print_program_matches_bas55(nbs_dir, program):
    source = (nbs_dir / f"{program}.BAS").read_text()
    expected = (nbs_dir / f"{program}.ok").read_text()
    output, notices = run_print_program(source)
    assert output == expected
    assert notices == []


def test_runner_would_notice_a_formatting_difference(nbs_dir, monkeypatch):
    # Guard against a vacuous comparison: a one-character change in the number format
    # must make P009 differ from bas55's output.
    import transpiler.runtime.console as console_module

    monkeypatch.setattr(console_module, "format_number", lambda x: format_number(x).rstrip())
    output, _ = run_print_program((nbs_dir / "P009.BAS").read_text())
    assert output != (nbs_dir / "P009.ok").read_text()
