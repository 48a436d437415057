"""Lane grids of nests that set temporaries between their FORs (dependence
`_lane_space`, `_interchanged`; vectorize's all-or-nothing replay, `Replay.nonempty`).

- gemm written `FOR I : FOR K : T = ALPHA * A(I, K) : FOR J : C(I,J) = C(I,J) + T * B(K,J)`
  is a 2-D grid over (I, J) with K (and T) inside each lane, as without T;
- a 3-D stencil with `JM = J - 1 : JP = J + 1` between its J and K loops is a 3-D grid;
- `FOR J% = 0 TO I%` under `FOR I% = 0 TO N% - 1` (N% a constant) is a triangle of lanes,
  as `FOR J = 0 TO I` is.
Each lane sets the temporaries again, but BASIC sets them also where the loop below runs
zero times, and in its own order: unless every block finishes and every such inner loop
has iterations, the arrays go back and the host runs the nest as written, so that the
messages are BASIC's.  Near misses keep the shallower kernel.

Oracle: the reference interpreter (`--check`, both targets, exactly, messages included);
the GW-BASIC programs' messages are those of the interpreter's Microsoft rules."""

from __future__ import annotations

import pytest

from tests.test_offload_slices import check
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

GEMM_T = """10 N = 6 : M = 6 : ALPHA = 1.5 : BETA = 1.25
20 DIM A(7,7), B(7,7), C(7,7)
30 FOR I = 0 TO N : FOR J = 0 TO N : A(I,J) = I + J / 3 : B(I,J) = I * J - 1 : C(I,J) = I - J
40 NEXT J, I
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO M - 1 : C(I,J) = C(I,J) * BETA : NEXT J
140 FOR K = 0 TO N - 1
145 T = ALPHA * A(I,K)
150 FOR J = 0 TO M - 1
160 C(I,J) = C(I,J) + T * B(K,J)
170 NEXT J
180 NEXT K
190 NEXT I
200 FOR I = 0 TO N - 1 : PRINT C(I,0); C(I,I); C(I,N-1) : NEXT I
"""

STENCIL = """10 N = 6
20 DIM A(6,6,6), B(6,6,6)
30 FOR I = 0 TO N : FOR J = 0 TO N : FOR K = 0 TO N : A(I,J,K) = I + 2 * J - K : NEXT K, J, I
100 FOR I = 1 TO N - 1
110 IM = I - 1 : IP = I + 1
120 FOR J = 1 TO N - 1
125 JM = J - 1 : JP = J + 1
130 FOR K = 1 TO N - 1
140 B(I,J,K) = A(IM,J,K) + A(IP,J,K) + A(I,JM,K) + A(I,JP,K) + A(I,J,K-1) + A(I,J,K+1)
150 NEXT K
160 NEXT J
170 NEXT I
200 PRINT B(1,1,1); B(2,3,4); B(5,5,5); B(3,1,5)
"""


def _reasons(text: str, label: int, dialect: str | None = None) -> list[str]:
    analysis = driver.front_end(SourceFile("prog.bas", text), Options(std=dialect))
    decisions = driver.host_program(analysis).decisions
    return [d.reason for d in decisions if d.label == label]


def test_a_temporary_before_the_inner_for_still_gives_a_2d_grid_with_k_inside():
    scale, products = _reasons(GEMM_T, 100)
    assert "over I, J (FOR lines 100, 110);" in scale
    assert "over I, J (FOR lines 100, 150);" in products
    assert "K (line 140) loops inside each lane" in products


@pytest.mark.parametrize("tile", [None, "2"])
def test_the_interchanged_nest_with_a_temporary_agrees(tmp_path, tile):
    check(tmp_path, GEMM_T, tile)


def test_the_temporary_comes_out_of_an_inner_loop_that_runs_zero_times(tmp_path):
    # No J lanes: no block runs T's subscript, which is out of range at I = 0, K = 3;
    # BASIC stops there all the same.
    text = GEMM_T.replace("M = 6", "M = 0").replace("A(I,K)", "A(I,K + 5)")
    assert "(FOR lines 100, 150)" in _reasons(text, 100)[-1]
    check(tmp_path, text, None)


@pytest.mark.parametrize("tile", [None, "2"])
def test_warnings_of_the_temporary_come_in_basics_order(tmp_path, tile):
    # Division by zero at K = 2 in each row, then overflows in the products.
    text = GEMM_T.replace("ALPHA * A(I,K)", "1E37 * A(I,K) / (K - 2)")
    assert "(FOR lines 100, 150)" in _reasons(text, 100, "ms")[-1]
    check(tmp_path, text, tile, dialect="ms")


@pytest.mark.parametrize(
    "change",
    [
        # T reads J: the value BASIC's K loop saw is J's before the J loop, not a lane's.
        ("T = ALPHA * A(I,K)", "T = ALPHA * A(I,K) + J"),
        # The J loop changes T.
        ("160 C(I,J) = C(I,J) + T * B(K,J)", "160 C(I,J) = C(I,J) + T * B(K,J) : T = T / 2"),
        # A triangle of J lanes with an empty row (the last I): no lane there would run T
        # (`FOR J = 0 TO I`, a lane in every row, is interchanged: test_triangle_temporaries).
        ("150 FOR J = 0 TO M - 1", "150 FOR J = I + 1 TO M - 1"),
    ],
    ids=["reads-j", "j-sets-t", "triangle"],
)
def test_near_misses_keep_k_and_j_inside_the_lanes_of_i(change):
    products = _reasons(GEMM_T.replace(*change), 100)[-1]
    assert "over I;" in products or "over I (FOR lines 100);" in products, products


def test_temporaries_between_the_second_and_third_for_give_a_3d_grid():
    (reason,) = _reasons(STENCIL, 100)
    assert "over I, J, K;" in reason


@pytest.mark.parametrize("tile", [None, "4"])
def test_the_3d_grid_with_temporaries_agrees(tmp_path, tile):
    check(tmp_path, STENCIL, tile)


def test_temporaries_above_a_k_loop_that_runs_zero_times_still_warn(tmp_path):
    text = STENCIL.replace("FOR K = 1 TO N - 1", "FOR K = 1 TO M").replace(
        "IP = I + 1", "IP = I + 1 / (I - 2)"
    )
    text = text.replace("125 JM = J - 1", "125 JM = J - 1 / (J - 1)")
    assert "over I, J, K;" in _reasons(text, 100, "ms")[0]
    check(tmp_path, text, None, dialect="ms")


@pytest.mark.parametrize("tile", [None, "2"])
def test_a_warning_between_the_second_and_third_for_comes_in_basics_order(tmp_path, tile):
    text = STENCIL.replace("JM = J - 1", "JM = J - 1 : W = 1E37 / (J - 3)").replace(
        "+ A(I,J,K+1)", "+ W * A(I,J,K+1)"
    )
    assert "over I, J, K;" in _reasons(text, 100, "ms")[0]
    check(tmp_path, text, tile, dialect="ms")


def test_an_inner_bound_set_above_the_second_for_keeps_its_loop_inside(tmp_path):
    # K's limit X is set per I: no K lanes (their count is taken once, before the
    # launch).  This nest was an internal error (a replay of three loops by rows).
    text = STENCIL.replace("IM = I - 1", "IM = I - 1 : X = I").replace(
        "FOR K = 1 TO N - 1", "FOR K = 1 TO X"
    )
    (reason,) = _reasons(text, 100)
    assert "over I, J;" in reason
    check(tmp_path, text, "2")


def test_a_triangle_of_integer_variables_is_a_grid():
    text = """10 N% = 6
20 DIM C(6,6)
100 FOR I% = 0 TO N% - 1
110 FOR J% = 0 TO I%
120 C(I%,J%) = I% * 10 + J%
130 NEXT J%
140 NEXT I%
150 PRINT C(5,3); C(3,5)
"""
    (reason,) = _reasons(text, 100, "ms")
    assert "over I%, J%;" in reason


# Temporaries only between the first and second FOR of a 3-D nest (an internal error
# before: the replay by rows is for two loops); K = 3 divides by zero.
FIRST_LEVEL = """10 N = 5 : M = N - 1
20 DIM A(6,6,6), B(6,6,6)
30 FOR I = 0 TO N : FOR J = 0 TO N : FOR K = 0 TO N : A(I,J,K) = I + 2 * J - K : NEXT K, J, I
100 FOR I = 1 TO N - 1
110 IM = I - 1 / (I - 2)
120 FOR J = 1 TO N - 1
130 FOR K = 1 TO M
140 B(I,J,K) = A(IM,J,K) + A(I,J,K-1) / (K - 3)
150 NEXT K, J, I
200 PRINT B(1,1,1); B(2,3,4); B(4,4,4)
"""


@pytest.mark.parametrize("tile", [None, "4"])
def test_temporaries_above_the_second_for_of_a_3d_nest(tmp_path, tile):
    assert "over I, J, K;" in _reasons(FIRST_LEVEL, 100, "ms")[0]
    check(tmp_path, FIRST_LEVEL, tile, dialect="ms")


def test_temporaries_above_the_second_for_warn_when_the_third_runs_zero_times(tmp_path):
    check(tmp_path, FIRST_LEVEL.replace("M = N - 1", "M = 0"), None, dialect="ms")
