"""Triangles of lanes (dependence `_inner_dim`): `FOR I : FOR J = I + 1 TO N` and `FOR J =
0 TO I` as one 2-D kernel whose lanes span the box of the triangle, those outside it
masked (never stored: the kernel scatters); the host's replay skips them too.  syrk's
loop nest is two such kernels (distributed), the second with K inside each lane.  Near
misses: a triangle whose side is not the outer variable plus a constant keeps J inside
the lanes of I; one whose J is used after the loop is a kernel per row.

Oracle: the reference interpreter (`--check`, both targets, exactly, messages included)."""

from __future__ import annotations

import pytest

from tests.checking import basic2tile
from tests.test_offload_classes import decisions
from tests.test_offload_slices import SYMMETRIC as SLICES_SYMMETRIC
from tests.test_offload_slices import check

# Division by zero at J = 4 in the rows I <= 3: warnings (Microsoft) or the error, from
# the host's replay of the triangle's lanes only.
UPPER = """10 N = 7
20 DIM C(N,N)
30 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : LET C(I,J) = I - J + 0.5 : NEXT J : NEXT I
100 FOR I = 1 TO N - 1
110 FOR J = I + 1 TO N
120 LET C(I,J) = C(I,J) / (J - 4)
130 NEXT J
140 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,I); C(I,N-1); C(I,N) : NEXT I
"""

SYRK = """10 N = 7 : M = 5
20 DIM A(N,M), C(N,N)
30 FOR I = 0 TO N-1 : FOR J = 0 TO M-1 : LET A(I,J) = I + J / 3 : NEXT J : NEXT I
35 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : LET C(I,J) = I - J : NEXT J : NEXT I
60 LET ALPHA = 1.5 : LET BETA = 1.25
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO I
120 LET C(I,J) = C(I,J) * BETA
130 NEXT J
140 FOR K = 0 TO M - 1
150 FOR J = 0 TO I
160 LET C(I,J) = C(I,J) + ALPHA * A(I,K) * A(J,K)
170 NEXT J
180 NEXT K
190 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,I); C(I,N-1) : NEXT I
"""


def test_a_triangular_nest_is_one_2d_kernel():
    found = decisions(UPPER)
    assert found[100].offloaded and "over I, J;" in found[100].reason, found[100].reason


@pytest.mark.parametrize("dialect", [None, "ms"])
@pytest.mark.parametrize("tile", [None, "2", "4"])
def test_triangles_agree_with_the_interpreter(tmp_path, tile, dialect):
    check(tmp_path, UPPER, tile, dialect)


@pytest.mark.parametrize("tile", [None, "2"])
def test_syrk_is_two_triangles_of_lanes(tmp_path, tile):
    from tests.test_offload_distribution import _kernels

    first, second = _kernels(SYRK)
    assert "over I, J (FOR lines 100, 110);" in first
    assert "over I, J (FOR lines 100, 150);" in second and "K (line 140)" in second
    check(tmp_path, SYRK, tile)


def test_a_side_that_is_not_the_outer_variable_plus_a_constant_keeps_j_inside(tmp_path):
    text = UPPER.replace("110 FOR J = I + 1 TO N", "110 FOR J = 2 * I TO N")
    found = decisions(text)
    assert found[100].offloaded and "over I;" in found[100].reason, found[100].reason
    check(tmp_path, text, "2")


def test_a_j_used_after_the_loop_keeps_the_triangle_a_kernel_per_row(tmp_path):
    # J's last value would be a lane's: I stays on the host, each row is a kernel.
    text = UPPER.replace("200 FOR I", "190 PRINT J\n200 FOR I")
    found = decisions(text)
    assert not found[100].offloaded and found[110].offloaded, found[110].reason
    check(tmp_path, text, "2")


# covariance's nest: CV(I, J) and CV(J, I) in the triangle J >= I meet only within a lane
# (i = j' >= i' = j >= i).  The box's lanes below the diagonal must not even read: their
# elements are written by lanes above it (the simulator reports such a race).
# (The same program as the slices test without the PRINT that kept I on the host.)
SYMMETRIC = SLICES_SYMMETRIC.replace("185 PRINT I;\n", "")


@pytest.mark.parametrize("tile", [None, "2", "4"])
def test_a_symmetric_fill_is_one_triangle_of_lanes(tmp_path, tile):
    found = decisions(SYMMETRIC)
    assert found[100].offloaded and "over I, J;" in found[100].reason, found[100].reason
    check(tmp_path, SYMMETRIC, tile)


def test_a_swap_outside_a_triangle_stays_on_the_host():
    # Over the whole square, CV(i, j) and CV(j, i) are two lanes' elements.
    found = decisions(SYMMETRIC.replace("110 FOR J = I TO M - 1", "110 FOR J = 0 TO M - 1"))
    assert "over I, J" not in found[100].reason, found[100].reason


# A row of a triangle (bench/fuzz.py --nests, seeds 30105 and 30129): I stays on the host
# (A(J - 2, 3) is another row's element), each row J = 3 TO I is a kernel.  With tiles of
# 4, the last block's lanes past I are no iterations; unmasked, lane J = 10 of row 8 read
# A(8, 3), which block 0 writes (the simulator reported the race).
ROW_OF_A_TRIANGLE = """10 DIM A(19, 19)
20 FOR I = 0 TO 19 : FOR J = 0 TO 19 : LET A(I, J) = I + J / 4 : NEXT J : NEXT I
100 FOR I = 8 TO 3 STEP -1
110 FOR J = 3 TO I
120 LET A(I, J) = A(I, J) * 0.5 + A(J - 2, 3) / 4
130 NEXT J
140 NEXT I
150 FOR I = 0 TO 9 : PRINT A(I, 3); A(8, I) : NEXT I
"""


def test_lanes_past_the_end_of_a_row_do_not_read(tmp_path):
    found = decisions(ROW_OF_A_TRIANGLE)
    assert not found[100].offloaded and found[110].offloaded, found[110].reason
    done = basic2tile(tmp_path, ROW_OF_A_TRIANGLE, "-o", "prog.py", dialect=None)
    assert done.returncode == 0, done.stderr
    kernel = (tmp_path / "prog.py").read_text()
    assert "ct.gather(a, (a_j_m2_3_at0, a_j_m2_3_at1), mask=valid)" in kernel
    check(tmp_path, ROW_OF_A_TRIANGLE, "4")
