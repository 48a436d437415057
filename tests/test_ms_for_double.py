"""GW-BASIC counts FOR loops with integers and singles only: a double-precision loop
variable (`FOR I# = ...`, or a name DEFDBL types) is `Type mismatch` when the FOR runs,
and its NEXT then closes no FOR.  Oracle: PC-BASIC 2.0 (a GW-BASIC 3.23 emulator); its
output is held here, and compared again when PC-BASIC is installed.  QuickBASIC counts
with doubles (--dialect qbasic is unchanged)."""

from __future__ import annotations

import pytest

from tests.checking import interpreted_and_checked
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic

CASES = {
    "trapped": (
        "10 ON ERROR GOTO 50\n20 FOR I#=1 TO 2: PRINT I#;: NEXT\n30 END\n"
        "50 PRINT ERR;ERL: RESUME NEXT\n",
        " 13  20 \n 0  1  20 \n",
    ),
    "DEFDBL": (
        "10 ON ERROR GOTO 50\n20 DEFDBL A-Z\n30 FOR I=1 TO 2: PRINT I;: NEXT\n40 END\n"
        "50 PRINT ERR;ERL: RESUME NEXT\n",
        " 13  30 \n 0  1  30 \n",
    ),
    "integer and single": (
        "10 FOR I%=1 TO 2: PRINT I%;: NEXT\n20 FOR X=1 TO 2: PRINT X;: NEXT\n",
        " 1  2  1  2 ",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_double_loop_variable(tmp_path, name):
    program, expected = CASES[name]
    # (a program that ends in the middle of a line ends it here; GW-BASIC's Ok does)
    ends = expected if expected.endswith("\n") else expected + "\n"
    assert interpreted_and_checked(tmp_path, program, dialect="ms") == ends


@requires_pcbasic
@pytest.mark.parametrize("name", CASES)
def test_against_pcbasic(name):
    program, expected = CASES[name]
    assert pcbasic_output(program) == expected


def test_quickbasic_counts_with_doubles(tmp_path):
    program = "FOR i# = 1 TO 2: PRINT i#;: NEXT\n"
    assert interpreted_and_checked(tmp_path, program, dialect="qbasic") == " 1  2 \n"
