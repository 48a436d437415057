"""Microsoft BASIC: a sum that an offloaded loop accumulates warns "Overflow" as often as
BASIC's sequential additions do, on both targets, with any tile.

GW-BASIC holds an overflowing result at the largest single (or double), so once a running
total reaches it every later positive term overflows again: `S = S + A(I)` over eight
6E+37 warns six times.  A kernel's block sums used to be combined on the host with
ECMA-55's IEEE `+` (no rounding to the variable's type, no GW-BASIC range): one block sum
replaced the block's several overflows with none or one, and the total was not held at
the largest single.  Now the combination is the accumulating statement's own `+`
(`sng(s + part)`), and a finished block whose sum would leave the range is run on the
host, lane by lane (msnumbers.fits, totals_fit).

Oracle: the reference interpreter (its rule is GW-BASIC's, checked against PC-BASIC in
tests/test_ms_numbers.py); `--check` compares the generated programs' output and
warnings, line by line, with it.
"""

from __future__ import annotations

import pytest

from tests.checking import TARGETS, assert_checks, basic2tile

# /tmp/g2/gs_warn.bas (a Gram-Schmidt whose norms overflow, line 120)
GRAM_SCHMIDT = """\
10 M = 5 : N = 4
20 DIM A(5,4), Q(5,4), R(4,4)
30 FOR I = 0 TO M-1 : FOR J = 0 TO N-1 : A(I,J) = (I * 3 + J * J + 1) / 7 + (I = J) : NEXT J : NEXT I
100 FOR K = 0 TO N - 1
110 NRM = 0
120 FOR I = 0 TO M - 1 : NRM = NRM + A(I,K) * A(I,K) : NEXT I
130 R(K,K) = SQR(NRM)
140 FOR I = 0 TO M - 1 : Q(I,K) = A(I,K) / R(K,K) : NEXT I
150 FOR J = K + 1 TO N - 1
160 S = 0
170 FOR I = 0 TO M - 1 : S = S + Q(I,K) * A(I,J) : NEXT I
180 R(K,J) = S
190 FOR I = 0 TO M - 1 : A(I,J) = A(I,J) - Q(I,K) * S / (I - 2) : NEXT I
200 NEXT J
210 NEXT K
220 FOR I = 0 TO N - 1 : PRINT R(I,0); R(I,I); R(0,I); A(4,I) : NEXT I
"""

# /tmp/g2/pre3_fault.bas (a warning between the FORs of a nest, between stores)
NEST_FAULT = """\
10 REM a warning in a statement between the second and third FOR, between stores
20 N = 4
30 DIM A(4,4,4)
100 FOR I = 1 TO N - 1
110 X = 10 * I
120 FOR J = 1 TO N - 1
125 W = X / (J - 2)
130 FOR K = 1 TO N - 1
140 A(I,J,K) = W * K + A(I,J,K)
150 NEXT K
160 NEXT J
170 NEXT I
200 PRINT A(1,1,1); A(3,3,3); A(2,1,2); A(3,2,1)
"""

# Totals held at the largest single and double: each block sum of two terms fits (tile
# 2), but from the third term on every addition overflows (6 warnings each).
HELD_AT_LARGEST = """\
10 DIM A(7)
20 FOR I = 0 TO 7: A(I) = 6E+37: NEXT
30 S = 0: T# = 0
40 FOR I = 0 TO 7: S = S + A(I): NEXT
50 FOR I = 0 TO 7: T# = T# - A(I): NEXT
60 PRINT S; T#
"""
HELD_AT_LARGEST_OUTPUT = "Overflow\n" * 12 + " 1.701412E+38 -1.701411834604692D+38 \n"

PROGRAMS = {"gram_schmidt": GRAM_SCHMIDT, "nest_fault": NEST_FAULT, "held": HELD_AT_LARGEST}


@pytest.mark.parametrize("tile", ["2", "4"])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_sum_warns_as_often_as_the_interpreter(tmp_path, name, target, tile):
    assert_checks(tmp_path, PROGRAMS[name], "--tile", tile, targets=[target])


def test_running_total_held_at_the_largest_single_overflows_at_every_term(tmp_path):
    done = basic2tile(tmp_path, HELD_AT_LARGEST, "--interpret")
    assert done.stdout == HELD_AT_LARGEST_OUTPUT
    assert done.stderr.count("prog.bas:4:20: warning: Overflow") == 6
    assert done.stderr.count("prog.bas:5:20: warning: Overflow") == 6
