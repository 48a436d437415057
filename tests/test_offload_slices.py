"""Lanes that work in place in their own slice of an array (dependence `sliced`).

A loop over I whose inner loops sweep the row `C(I, J)` (recurrences along J),
a column `V(J, I)` filled backwards (adi), or, in a loop over J with I fixed, both
`CV(I, J)` and `CV(J, I)` (covariance: two lanes never meet at one element).  Each lane
reads and writes its slice in place; when a block meets an exception the host puts the
arrays back as they were before the launch and replays the whole loop, so BASIC's
warnings and errors come out in BASIC's order.  Near misses stay on the host.

Oracle: the reference interpreter (`--check`, both targets, exactly), with tiles that
leave many blocks and partial ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_offload_3d import nvidia_build
from tests.test_offload_classes import decisions

GEMM_ROWS = """10 N = 7
20 DIM A(N,N), B(N,N), C(N,N)
30 FOR I = 0 TO N-1 : FOR J = 0 TO N-1
40 LET A(I,J) = I + J / 3 : LET B(I,J) = I * J - 1 : LET C(I,J) = I - J
50 NEXT J : NEXT I
60 LET ALPHA = 1.5 : LET BETA = 1.25
100 FOR I = 0 TO N - 1
110 FOR J = 1 TO I
120 LET C(I,J) = C(I,J) * BETA + C(I,J-1) / 4
130 NEXT J
140 FOR K = 0 TO N - 1
150 FOR J = 1 TO I
160 LET C(I,J) = C(I,J) + ALPHA * A(I,K) * B(K,J) - C(I,J-1) / 8
170 NEXT J
180 NEXT K
190 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,I); C(I,N-1) : NEXT I
"""

# adi's sweep: each lane I fills P(I, *) forwards, then V(*, I) backwards from it.
COLUMNS = """10 N = 9
20 DIM U(N,N), V(N,N), P(N,N), Q(N,N)
30 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : LET U(I,J) = (I + 1) / (J + 2) : NEXT J : NEXT I
100 FOR I = 1 TO N - 2
110 LET V(0,I) = 1 : LET P(I,0) = 0 : LET Q(I,0) = V(0,I)
120 FOR J = 1 TO N - 2
130 LET P(I,J) = -0.5 / (0.25 * P(I,J-1) + 2)
140 LET Q(I,J) = (U(J,I-1) + U(J,I) - U(J,I+1) - 0.25 * Q(I,J-1)) / (0.25 * P(I,J-1) + 2)
150 NEXT J
160 LET V(N-1,I) = 1
170 FOR J = N - 2 TO 1 STEP -1
180 LET V(J,I) = P(I,J) * V(J+1,I) + Q(I,J)
190 NEXT J
200 NEXT I
210 FOR I = 0 TO N-1 : PRINT V(I,1); V(I,4); V(I,N-2) : NEXT I
"""

# covariance's symmetric fill: in a loop over J (I fixed), CV(I, J) and CV(J, I) (the
# PRINT keeps the loop over I on the host; test_offload_triangles has the whole nest).
SYMMETRIC = """10 M = 6 : N = 5
20 DIM D(N,M), CV(M,M)
30 FOR I = 0 TO N-1 : FOR J = 0 TO M-1 : LET D(I,J) = SIN(I * 7 + J) : NEXT J : NEXT I
100 FOR I = 0 TO M - 1
110 FOR J = I TO M - 1
120 LET CV(I,J) = 0
130 FOR K = 0 TO N - 1
140 LET CV(I,J) = CV(I,J) + D(K,I) * D(K,J)
150 NEXT K
160 LET CV(I,J) = CV(I,J) / (N - 1)
170 LET CV(J,I) = CV(I,J)
180 NEXT J
185 PRINT I;
190 NEXT I
200 FOR I = 0 TO M-1 : PRINT CV(I,0); CV(I,I); CV(0,I) : NEXT I
"""

# Lane I = 4 overflows GW-BASIC's single range at J = 3 after it has scaled C(4, 0..2)
# in place: the host must undo the launch before replaying (else C(4, 0) is 411).
OVERFLOW_MIDWAY = """10 N = 6
20 DIM C(N,N)
30 FOR I = 0 TO N-1 : FOR J = 0 TO N-1 : LET C(I,J) = I + J : NEXT J : NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 LET C(I,J) = C(I,J) * 10 + 1
130 IF J = 3 AND I = 4 THEN LET C(I,J) = C(I,J) * 1E38
140 IF J = 4 AND I = 4 THEN LET C(I,J) = C(I,J-1) * 1E38
150 NEXT J
160 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,3); C(I,N-1) : NEXT I
"""

# Lane I = 3 reads past its row at J = 3 (a fatal error) after writing C(3, 0..2).
ERROR_MIDWAY = """10 N = 6
20 DIM C(N,N), X(N)
30 FOR I = 0 TO N-1 : LET X(I) = I : FOR J = 0 TO N-1 : LET C(I,J) = I+J : NEXT J : NEXT I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 LET C(I,J) = C(I,J) * 10 + 1
130 IF J = 3 THEN LET C(I,J) = C(I,J) + C(I, J + X(I))
140 NEXT J
150 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,3); C(I,N-1) : NEXT I
"""


def check(tmp_path: Path, text: str, tile: str | None, dialect: str | None = None) -> None:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for target in ("cutile", "cuda"):
        command = [sys.executable, "-m", "transpiler", str(path), "--check", "--device", "cpu"]
        command += ["--target", target] + (["--tile", tile] if tile else [])
        command += ["--dialect", dialect] if dialect else []
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{target}: {result.stdout}{result.stderr}"
        assert "check passed" in result.stdout


@pytest.mark.parametrize(
    ("text", "line", "over"),
    [(GEMM_ROWS, 100, "I"), (COLUMNS, 100, "I"), (SYMMETRIC, 110, "J")],
    ids=["rows", "columns", "symmetric"],
)
def test_slices_written_by_inner_loops_are_kernels(text, line, over):
    found = decisions(text)
    assert found[line].offloaded, found[line].reason
    assert f"over {over};" in found[line].reason


@pytest.mark.parametrize("tile", [None, "2", "4"])
@pytest.mark.parametrize(
    "text", [GEMM_ROWS, COLUMNS, SYMMETRIC], ids=["rows", "columns", "symmetric"]
)
def test_slice_kernels_agree_with_the_interpreter(tmp_path, text, tile):
    check(tmp_path, text, tile)


def test_a_row_read_ahead_keeps_its_loop_inside_the_lane():
    # E(I, J + 1) is the next J's element: J is not parallel, but I is (each lane
    # sweeps its own row in BASIC's order).
    text = """10 DIM E(5,5)
20 FOR I = 0 TO 3
30 FOR J = 0 TO 3
40 LET E(I,J) = E(I,J + 1) + 1
50 NEXT J
60 NEXT I
70 PRINT E(1,1)
"""
    found = decisions(text)
    assert found[20].offloaded
    assert "over I;" in found[20].reason


@pytest.mark.parametrize("tile", [None, "2"])
def test_a_block_that_fails_midway_is_undone_before_the_replay(tmp_path, tile):
    assert decisions(OVERFLOW_MIDWAY)[100].offloaded
    check(tmp_path, OVERFLOW_MIDWAY, tile, dialect="ms")
    assert decisions(ERROR_MIDWAY)[100].offloaded
    check(tmp_path, ERROR_MIDWAY, tile)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        # The next lane's row.
        ("LET C(I,J) = C(I+1,J) + 1", "may read an element of C in another iteration's slice"),
        # A transpose in place: row I written, column I read.
        ("LET C(I,J) = C(J,I) * 2", "may read an element of C in another iteration's slice"),
        # Row and column of one lane meet other lanes' (I varies, not fixed).
        ("LET C(I,J) = 1 : LET C(J,I) = 2", "may write an element of C in another iteration's"),
    ],
    ids=["next-row", "transpose", "row-and-column"],
)
def test_slices_that_meet_stay_on_the_host(body, why):
    text = f"""10 DIM C(6,6)
20 FOR I = 0 TO 5
30 FOR J = 0 TO 5
40 {body}
50 NEXT J
60 LET C(I,0) = C(I,0) + 1
70 NEXT I
80 PRINT C(2,3)
"""
    found = decisions(text)
    assert not found[20].offloaded
    assert why in found[20].reason


def test_swapped_subscripts_that_can_meet_stay_on_the_host():
    # CV(I, x) = CV(y + 1, I) holds for x = I, y = I - 1: two lanes, one element.
    text = """10 DIM CV(6,6)
20 LET I = 2
30 FOR J = 0 TO 4
40 LET CV(I,J) = J
50 LET CV(J+1,I) = -J
60 NEXT J
70 PRINT CV(2,2), CV(3,2)
"""
    found = decisions(text)
    assert not found[30].offloaded
    assert "may write an element of CV in another iteration's slice" in found[30].reason


@pytest.mark.parametrize("target, emit", [("cutile", "cubin"), ("cuda", "ptx")])
def test_nvidia_compilers_build_the_slice_kernels(tmp_path, target, emit):
    """Gathers after scatters to one array inside loops, for sm_80/90/100."""
    nvidia_build(tmp_path, COLUMNS, target, emit)
