"""Exact dependences on isl (passes/parallel/polyhedral.py): loops that the test of access shapes
refuses but whose iterations touch disjoint elements become kernels; loops that carry a
dependence stay on the host, with the dependence named.

The shapes: lu's J loop (`A(I, J)` written, `A(I, K)` read with K < I <= J), and
correlation's outer loop (row I and column I of CR, disjoint from another lane's),
written afresh in several styles: loop orders, names, OPTION BASE 1, bounds N - 1 or N,
a loop counting down.  Oracle: the reference interpreter (`--check`, both targets,
exactly, also with small tiles)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_offload_classes import decisions


def check(tmp_path: Path, text: str, tile: str | None = None) -> None:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for target in ("cutile", "cuda"):
        command = [sys.executable, "-m", "transpiler", str(path), "--check", "--device", "cpu"]
        command += ["--target", target] + (["--tile", tile] if tile else [])
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{target}: {result.stdout}{result.stderr}"
        assert "check passed" in result.stdout


# lu, 0-based, bounds N - 1: the U part's J loop (line 170).
LU = """10 LET N = 7
20 DIM A(7,7)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO N - 1 : LET A(I,J) = 1 / (I + J + 1) : NEXT J
50 LET A(I,I) = A(I,I) + N
60 NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO I - 1
120 FOR K = 0 TO J - 1
130 LET A(I,J) = A(I,J) - A(I,K) * A(K,J)
140 NEXT K
150 LET A(I,J) = A(I,J) / A(J,J)
160 NEXT J
170 FOR J = I TO N - 1
180 FOR K = 0 TO I - 1
190 LET A(I,J) = A(I,J) - A(I,K) * A(K,J)
200 NEXT K
210 NEXT J
220 NEXT I
300 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : LET S = S + A(I,J) * (I + 2*J) : NEXT J : NEXT I
310 PRINT S
"""

# Doolittle's order, OPTION BASE 1, other names, bounds N (not N - 1), the sum in a
# scalar: the row of U (line 140) and the column of L (line 200) are both parallel.
DOOLITTLE = """10 OPTION BASE 1
20 LET M = 6
30 DIM G(6,6)
40 FOR R = 1 TO M : FOR C = 1 TO M : LET G(R,C) = 1 / (R + C) + (R = C) * (-3) : NEXT C : NEXT R
100 FOR P = 1 TO M
140 FOR C = P TO M
150 LET T = G(P,C)
160 FOR Q = 1 TO P - 1
170 LET T = T - G(P,Q) * G(Q,C)
180 NEXT Q
190 LET G(P,C) = T
195 NEXT C
200 FOR R = P + 1 TO M
210 LET T = G(R,P)
220 FOR Q = 1 TO P - 1
230 LET T = T - G(R,Q) * G(Q,P)
240 NEXT Q
250 LET G(R,P) = T / G(P,P)
260 NEXT R
270 NEXT P
300 FOR R = 1 TO M : FOR C = 1 TO M : PRINT USING "###.#####"; G(R,C); : NEXT C : PRINT : NEXT R
"""

# correlation's outer loop: row I (from the diagonal on) and column I of CR.
CORRELATION = """10 LET M = 6 : LET N = 5
20 DIM D(5,6), CR(6,6)
30 FOR K = 0 TO N - 1 : FOR J = 0 TO M - 1 : LET D(K,J) = (K * J) / 7 + K - J / 3 : NEXT J : NEXT K
400 FOR I = 0 TO M - 2
410 LET CR(I,I) = 1
420 FOR J = I + 1 TO M - 1
430 LET CR(I,J) = 0
440 FOR K = 0 TO N - 1
450 LET CR(I,J) = CR(I,J) + D(K,I) * D(K,J)
460 NEXT K
470 LET CR(J,I) = CR(I,J)
480 NEXT J
490 NEXT I
500 FOR I = 0 TO M - 1 : FOR J = 0 TO M - 1 : LET S = S + CR(I,J) * (I + 2*J) : NEXT J : NEXT I
510 PRINT S
"""

# The same, 1-based with the column written first and the lanes counting down.
CORRELATION_DOWN = """10 OPTION BASE 1
20 LET W = 6
30 DIM X(5,6), Q(6,6)
40 FOR K = 1 TO 5 : FOR J = 1 TO W : LET X(K,J) = (K * J) / 7 + K - J / 3 : NEXT J : NEXT K
100 FOR V = W - 1 TO 1 STEP -1
110 FOR U = V + 1 TO W
120 LET Q(U,V) = 0
130 FOR K = 1 TO 5 : LET Q(U,V) = Q(U,V) + X(K,U) * X(K,V) : NEXT K
140 LET Q(V,U) = Q(U,V)
150 NEXT U
160 LET Q(V,V) = 1
170 NEXT V
180 FOR V = 1 TO W : FOR U = 1 TO W : PRINT Q(V,U); : NEXT U : PRINT : NEXT V
"""


@pytest.mark.parametrize(
    "text, lines",
    [(LU, [170]), (DOOLITTLE, [140, 200]), (CORRELATION, [400]), (CORRELATION_DOWN, [100])],
    ids=["lu", "doolittle", "correlation", "correlation-down"],
)
def test_exactly_independent_loops_are_kernels(tmp_path: Path, text: str, lines: list[int]):
    found = decisions(text)
    for line in lines:
        assert found[line].offloaded, f"line {line}: {found[line].reason}"
        assert "in place" in found[line].reason
    check(tmp_path, text)
    check(tmp_path, text, "4")


# A recurrence along the lane loop, and a transposed write: both carried.
CARRIED = """10 LET N = 8
20 DIM A(8), B(8,8)
30 FOR I = 0 TO N : LET A(I) = I : FOR J = 0 TO N : LET B(I,J) = I - J : NEXT J : NEXT I
100 FOR I = 1 TO N
110 FOR K = 0 TO 2
120 LET A(I) = A(I-1) + A(I) * K
130 NEXT K
140 NEXT I
200 FOR I = 0 TO N
210 FOR J = 0 TO N
220 LET B(J,I) = B(I,J) + 1
230 NEXT J
240 NEXT I
300 PRINT A(N), B(2,3), B(3,2)
"""


def test_carried_dependences_stay_on_the_host_with_the_dependence_named(tmp_path: Path):
    found = decisions(CARRIED)
    assert not found[100].offloaded
    assert "isl: line 120 writes an element of A that another iteration reads at line 120" in (
        found[100].reason
    )
    assert not found[200].offloaded
    assert "isl:" in found[200].reason and "B" in found[200].reason
    check(tmp_path, CARRIED)


# A subscript that is not affine: the test of shapes decides, and says so.
NOT_AFFINE = """10 DIM A(20), P(10)
20 FOR I = 0 TO 10 : LET P(I) = 10 - I : NEXT I
30 FOR I = 0 TO 10
40 LET A(P(I)) = A(P(I) + 1) + I
50 NEXT I
60 PRINT A(0), A(5)
"""


def test_a_subscript_that_is_not_affine_is_left_to_the_test_of_shapes(tmp_path: Path):
    found = decisions(NOT_AFFINE)
    assert not found[30].offloaded
    assert "not affine: the subscript of A" in found[30].reason
    check(tmp_path, NOT_AFFINE)


# trmm's setup loop (issue 21): J's last value after the triangle `FOR J = 0 TO I - 1`
# differs per lane, then `FOR J = 0 TO N - 1` has the same bounds in every lane.  With J
# read between the two (one kernel over I), CUDA stopped with "J holds values of two
# types (f64[128] and f64)"; the second loop's values are now broadcast to the lanes.
TRMM_SETUP = """10 LET M = 5 : LET N = 7
20 DIM A(5,5), B(5,7)
30 FOR I = 0 TO M - 1
40 FOR J = 0 TO I - 1
50 LET A(I,J) = ((I + J) MOD M) / M
60 NEXT J{read}
70 LET A(I,I) = 1
80 FOR J = 0 TO N - 1
90 LET B(I,J) = ((N + I - J) MOD N) / N
100 NEXT J
110 NEXT I
120 FOR I = 0 TO M - 1 : FOR L = 0 TO N - 1 : LET S = S + B(I,L) * (L + 2) + A(I, L MOD 5) : NEXT L : NEXT I
130 PRINT S
"""


@pytest.mark.parametrize("read", ["", " : LET T = J"], ids=["as-in-trmm", "j-read-between"])
def test_trmm_setup_loop_builds_for_both_targets(tmp_path: Path, read: str):
    text = TRMM_SETUP.format(read=read)
    assert decisions(text)[30].offloaded
    check(tmp_path, text)
    check(tmp_path, text, "4")


# Ahl's One Check sets the board's middle with lanes over J and I (I = J TO J + 3): each
# lane writes A(I), an index the J axis does not vary, so the scatter spreads it over the
# lanes (cuTile's scatter wants index, mask and value of one shape; the simulator
# refused the (1, 32) index against the (32, 32) mask).
BOARD = """10 DIM A(64)
20 FOR J = 1 TO 64
30 A(J) = 1
40 NEXT J
50 FOR J = 19 TO 43 STEP 8
60 FOR I = J TO J + 3
70 A(I) = 0
80 NEXT I
90 NEXT J
100 FOR J = 1 TO 57 STEP 8
110 PRINT A(J); A(J + 1); A(J + 2); A(J + 3); A(J + 4); A(J + 5); A(J + 6); A(J + 7)
120 NEXT J
"""


@pytest.mark.parametrize("tile", [None, "4"])
def test_a_lane_box_writing_an_element_indexed_by_the_inner_variable(tmp_path: Path, tile):
    found = decisions(BOARD)[50]
    assert found.offloaded, found.reason
    check(tmp_path, BOARD, tile)
