"""Nests of three parallel loops become 3-D grids (`ct.bid(0..2)`, `blockIdx.xyz`): a
map, a stencil whose replay must report BASIC's warnings once each and in order, and a
reduction; with tiles that leave partial blocks on every axis.  A nest whose innermost
loop carries a dependence is still a 2-D kernel with that loop inside it, also when
that loop sweeps the lane's own line of the array in place.

Oracle: the reference interpreter (`--check`, both targets, exactly)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_offload_classes import decisions


def check(tmp_path: Path, text: str, tile: str | None) -> None:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for target in ("cutile", "cuda"):
        command = [sys.executable, "-m", "transpiler", str(path), "--check", "--device", "cpu"]
        command += ["--target", target] + (["--tile", tile] if tile else [])
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{target}: {result.stdout}{result.stderr}"
        assert "check passed" in result.stdout


# One element divides by zero (I = 4, J = 3, K = 2): its block is replayed on the host,
# which warns once, as the interpreter does; the sum then overflows.
CUBE = """10 DIM A(5,4,6), C(5,4,6)
20 FOR I = 0 TO 5
30 FOR J = 0 TO 4
40 FOR K = 0 TO 6
50 LET A(I,J,K) = I * 100 + J * 10 + K
60 NEXT K
70 NEXT J
80 NEXT I
90 FOR I = 1 TO 5
100 FOR J = 0 TO 4
110 FOR K = 0 TO 6 STEP 2
120 LET C(I,J,K) = A(I-1,J,K) / (A(I,J,K) - 432)
130 NEXT K
140 NEXT J
150 NEXT I
160 LET S = 0
170 FOR I = 0 TO 5
180 FOR J = 0 TO 4
190 FOR K = 0 TO 6
200 LET S = S + C(I,J,K) * (I + 2 * J + 3 * K)
210 NEXT K
220 NEXT J
230 NEXT I
240 PRINT S, C(4,3,2), C(5,4,6), C(3,2,4), I, J, K
"""


def test_three_parallel_loops_are_one_3d_kernel():
    found = decisions(CUBE)
    for line, kind in ((20, "map"), (90, "stencil"), (170, "reduce")):
        assert found[line].offloaded, found[line].reason
        assert found[line].kind == kind
        assert "over I, J, K;" in found[line].reason


@pytest.mark.parametrize("tile", [None, "4", "2x2x2", "1x2x4"])
def test_3d_kernels_agree_with_the_interpreter(tmp_path, tile):
    check(tmp_path, CUBE, tile)


# S(I, J) is a recurrence over K (not a sum that atomics could add in any order): the K
# loop carries it, so the kernel is (I, J) with K inside.
INNER_SUM = """10 DIM A(3,4,5), S(3,4)
20 FOR I = 0 TO 3 : FOR J = 0 TO 4 : FOR K = 0 TO 5
30 LET A(I,J,K) = (I + 1) * (J - 2) + K / 4
40 NEXT K : NEXT J : NEXT I
50 FOR I = 0 TO 3
60 FOR J = 0 TO 4
70 FOR K = 0 TO 5
80 LET S(I,J) = S(I,J) / 2 + A(I,J,K)
90 NEXT K
100 NEXT J
110 NEXT I
120 FOR I = 0 TO 3 : PRINT S(I,0); S(I,2); S(I,4) : NEXT I
"""


def test_a_nest_whose_inner_loop_carries_a_recurrence_is_a_2d_kernel(tmp_path):
    found = decisions(INNER_SUM)
    assert found[50].offloaded, found[50].reason
    assert "over I, J;" in found[50].reason
    check(tmp_path, INNER_SUM, "2")


# A(I, J, K + 1) is the next K's element, written in place: K is not parallel, but each
# (I, J) lane sweeps its own line A(I, J, *) in BASIC's order.
IN_PLACE = """10 DIM A(3,3,4)
20 FOR I = 0 TO 3 : FOR J = 0 TO 3 : FOR K = 0 TO 4
30 LET A(I,J,K) = I + J * K
40 NEXT K : NEXT J : NEXT I
50 FOR I = 0 TO 3
60 FOR J = 0 TO 3
70 FOR K = 0 TO 3
80 LET A(I,J,K) = A(I,J,K+1) + 1
90 NEXT K
100 NEXT J
110 NEXT I
120 PRINT A(1,2,0); A(3,3,3)
"""


def test_an_in_place_sweep_along_the_third_axis_is_a_2d_kernel(tmp_path):
    found = decisions(IN_PLACE)
    assert found[50].offloaded and "over I, J;" in found[50].reason, found[50].reason
    check(tmp_path, IN_PLACE, "2")


@pytest.mark.parametrize("target, emit", [("cutile", "cubin"), ("cuda", "ptx")])
def test_nvidia_compilers_build_the_3d_kernels(tmp_path, target, emit):
    nvidia_build(tmp_path, CUBE, target, emit)


def nvidia_build(tmp_path: Path, text: str, target: str, emit: str) -> None:
    """cuTile's tileiras and NVRTC (both installed with the test extras) for sm_80/90/100."""
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for arch in ("sm_80", "sm_90", "sm_100"):
        command = [sys.executable, "-m", "transpiler", str(path), "--target", target]
        command += ["--emit", emit, "--arch", arch, "-o", str(tmp_path / f"out.{emit}")]
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    assert list(tmp_path.glob(f"*.{emit}"))


# The middle loop runs zero times: the innermost loop never runs, so K keeps its 7.
ZERO_TRIP_MIDDLE = """10 DIM C(2,2,2)
20 LET K = 7
30 FOR I = 0 TO 2
40 FOR J = 1 TO 0
50 FOR K = 0 TO 2
60 LET C(I,J,K) = 1
70 NEXT K
80 NEXT J
90 NEXT I
100 PRINT I; J; K
"""


def test_an_inner_variable_keeps_its_value_when_a_middle_loop_runs_zero_times(tmp_path):
    assert decisions(ZERO_TRIP_MIDDLE)[30].offloaded
    check(tmp_path, ZERO_TRIP_MIDDLE, None)
    check(tmp_path, ZERO_TRIP_MIDDLE, "4")
