"""Temporaries between `FOR K` and a triangular `FOR J` (syrk in the I-K-J order with
`T = ALPHA * A(I,K)` before `FOR J = 0 TO I`): the J loop may move outside K (lanes I,
J, K inside each lane) when isl proves that J runs in every row (`FOR J = 0 TO I` below
`FOR I = 0 TO N - 1`), so that some lane of each row sets T, which BASIC sets (and may
warn about) in every row.  A triangle with an empty row (`FOR J = I + 1 TO N - 1`) keeps
the shallower kernel (lanes I, the K and J loops inside each).

Oracle: the reference interpreter (`--check` on both targets, also with `--tile 4`; the
Overflow warnings of T included)."""

from __future__ import annotations

import pytest

from tests.checking import interpreted_and_checked
from tests.test_explain_dependence import loop_entry, _explain

SYRK = """10 N = 7: M = 5: ALPHA = 1.5: BETA = 1.2
20 DIM A(7,5), C(7,7)
30 FOR I = 0 TO N - 1: FOR J = 0 TO M - 1: A(I,J) = (I*J+1) / N: NEXT J: NEXT I
40 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: C(I,J) = (I*J+2) / M: NEXT J: NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = {first} TO {last}: C(I,J) = C(I,J) * BETA: NEXT J
140 FOR K = 0 TO M - 1
145 T = ALPHA * A(I,K)
150 FOR J = {first} TO {last}
160 C(I,J) = C(I,J) + T * A(J,K)
170 NEXT J
180 NEXT K
190 NEXT I
500 FOR I = 0 TO N - 1: FOR J = 0 TO N - 1: S = S + C(I,J) * (I + 2*J): NEXT J: NEXT I
550 PRINT "SYRK"; S
"""
LOWER = SYRK.format(first="0", last="I")
STRICT_UPPER = SYRK.format(first="I + 1", last="N - 1")
# T overflows in row 3 (ALPHA * 1.5E+38): GW-BASIC warns and goes on with the largest single.
OVERFLOWING = LOWER.replace("NEXT J: NEXT I\n40", "NEXT J: NEXT I: A(3,2) = 1.5E+38\n40")


def test_a_triangle_that_runs_in_every_row_moves_outside_k():
    entry = loop_entry(_explain(LOWER), 100)
    assert "map_100_2 (map): elementwise map over I, J (FOR lines 100, 150)" in entry, entry
    assert "K (line 140) loops inside each lane" in entry


def test_a_triangle_with_an_empty_row_keeps_the_shallower_kernel():
    entry = loop_entry(_explain(STRICT_UPPER), 100)
    assert "map_100_2 (map): elementwise map over I (FOR lines 100)" in entry, entry


@pytest.mark.parametrize("program", [LOWER, STRICT_UPPER, OVERFLOWING])
def test_the_kernels_agree_with_the_interpreter(tmp_path, program):
    printed = interpreted_and_checked(tmp_path, program)
    assert "SYRK" in printed
    printed = interpreted_and_checked(tmp_path, program, "--tile", "4")
    if program is OVERFLOWING:
        assert "Overflow" in printed
