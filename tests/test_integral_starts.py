"""Loops whose start is a variable that provably holds an integer become kernels
(passes/parallel/integrality.py): a lane computes its loop variable as start + k * step, which is
BASIC's repeated addition only when start and step are integers.  Each program is checked
against the interpreter on both targets with small tiles; each near miss (a start read by
INPUT or READ, or divided) stays on the host with the reason."""

from __future__ import annotations

import pytest

from tests.test_offload_classes import check, decisions
from transpiler.errors import SourceFile
from transpiler.frontend.parser import parse
from transpiler.options import Options
from transpiler.passes.parallel.integrality import integral_scalars

# Back substitution's shape: the inner sum starts at the outer variable plus one, and
# the outer loop starts at N, set once to an integer.
BACK_SUBSTITUTION = """10 DIM A(12,12), X(12)
20 LET N = 12
30 FOR I = 1 TO N
40 LET X(I) = I / 3
50 FOR J = 1 TO N
60 LET A(I,J) = 1 / (I + J)
70 NEXT J
80 NEXT I
90 FOR I = N TO 1 STEP -1
100 LET S = 0
110 FOR J = I + 1 TO N
120 LET S = S + A(I,J) * X(J)
130 NEXT J
140 PRINT I; S
150 NEXT I
"""


def test_a_start_from_an_outer_loop_that_starts_at_an_integer_variable(tmp_path):
    found = decisions(BACK_SUBSTITUTION)
    assert found[110].offloaded, found[110]
    assert not found[90].offloaded
    check(tmp_path, BACK_SUBSTITUTION)


@pytest.mark.parametrize(
    "setting, why",
    [
        ("20 READ N\n25 DATA 12", "READ gives N any value"),
        ("20 LET N = 25 / 2", "a quotient"),
        ("20 LET N = 12\n25 LET N = N + 0.5", "a later fraction"),
    ],
)
def test_a_start_that_may_not_be_an_integer_stays_on_the_host(setting, why):
    text = BACK_SUBSTITUTION.replace("20 LET N = 12", setting)
    found = decisions(text)
    assert not found[110].offloaded, why
    assert "not provably an integer" in found[110].reason


def _integral(text: str) -> frozenset[str]:
    return integral_scalars(parse(SourceFile("prog.bas", text), Options()))


def test_integrality_follows_every_write():
    text = """10 LET A = 3 : LET B = A * 2 - 1 : LET C = B / 2
20 FOR I = A TO 10 STEP 2 : NEXT I
30 FOR X = 0 TO 1 STEP 0.5 : NEXT X
40 INPUT D
50 LET E = INT(C) : LET F = (C > 1) : LET G = ABS(B) : LET H = ABS(C)
60 IF A > 1 THEN LET K = 1.5
70 LET M% = C : SWAP N, C
"""
    assert _integral(text) == {"A", "B", "I", "E", "F", "G", "M%"}


def test_a_quickbasic_const_holds_its_integer():
    """`CONST N = 12` sets N once, to an integer: N is a parameter of the exact
    dependence test, so lu's `FOR J = I TO N` (in QuickBASIC, N a CONST) is affine.
    Before, CONST was no write and N counted as never set, so not integral."""
    text = "CONST N = 12, H = 2.5\nDIM A(1 TO N)\nFOR I = 1 TO N: A(I) = H: NEXT I\n"
    found = integral_scalars(parse(SourceFile("prog.bas", text), Options(std="qbasic")))
    assert "N" in found and "H" not in found
