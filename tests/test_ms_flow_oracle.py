"""The programs of test_ms_flow.py against PC-BASIC 2.0.8 (a GW-BASIC emulator, the
oracle for Microsoft BASIC's control flow): the interpreter prints what PC-BASIC prints,
and stops with the error PC-BASIC stops with, on the same line.

Skipped when PC-BASIC is not installed (it is in the test extra).  Where we knowingly
differ from PC-BASIC (docs/microsoft-basic.md, "Control flow"), no program here tests it.
"""

from __future__ import annotations

import re

import pytest

from .interpreter_helpers import run_capturing
from .pcbasic_oracle import pcbasic_output, requires_pcbasic
from .test_ms_flow import MICROSOFT_OUTPUT, MICROSOFT_PROGRAM, PROGRAMS, _program


def ours(program: str) -> str:
    """Our interpreter's output, an error written the way GW-BASIC writes it."""
    out, _, error = run_capturing(program)
    if error is None:
        return out
    line = program.splitlines()[error.coord.line - 1].split()[0]
    message = re.sub(r" \(.*\)$", "", error.message)  # GW-BASIC prints no operands
    return f"{out}{message} in {line}\n"


def theirs(program: str) -> str:
    """PC-BASIC's output (an error line without the 0xFF byte PC-BASIC ends it with)."""
    return pcbasic_output(program).replace("\xff", "")


@requires_pcbasic
@pytest.mark.parametrize("name, text", [p[:2] for p in PROGRAMS], ids=[p[0] for p in PROGRAMS])
def test_interpreter_agrees_with_pc_basic(name, text):
    program = _program(text)
    assert ours(program) == theirs(program)


@requires_pcbasic
def test_zero_trip_for_leaves_the_start_value_in_extended_mode():
    """Where the dialects differ: PC-BASIC leaves start + step, extended BASIC (as
    ECMA-55) the start value."""
    program = "10 FOR I = 5 TO 1\n20 PRINT I\n30 NEXT I\n40 PRINT I\n"
    assert theirs(program) == " 6 \n"
    assert ours(program) == " 5 \n"


@requires_pcbasic
def test_microsoft_zero_trip_and_stop_as_pc_basic():
    assert theirs(MICROSOFT_PROGRAM) == MICROSOFT_OUTPUT
