"""Loop distribution and interchange (hostir.Distributed, dependence `_interchanged`).

gemm's `FOR I : (FOR J : scale) : (FOR K : FOR J : accumulate)` becomes two 2-D
kernels: the scaling over (I, J), then the products over (I, J) with K inside each lane
(interchanged: each C(I, J) is summed in BASIC's order, in a register, without atomics).
All of the first kernel runs before the second, which is BASIC's result because the I
loop is parallel; when a block meets an exception the order of BASIC's messages would
differ, so the host puts the arrays back and runs the loop as written.  Near misses:
a J loop whose bounds depend on K, a J used after the loop, a scalar that one part sets
and a later part reads.

Oracle: the reference interpreter (`--check`, both targets, exactly, messages included)."""

from __future__ import annotations

import pytest

from tests.test_offload_slices import check

GEMM = """10 N = 7
20 DIM A(N,N), B(N,N), C(N,N), X(N)
30 FOR I = 0 TO N-1 : LET X(I) = 0 : FOR J = 0 TO N-1
40 LET A(I,J) = I + J / 3 : LET B(I,J) = I * J - 1 : LET C(I,J) = I - J
50 NEXT J : NEXT I
60 LET ALPHA = 1.5 : LET BETA = 1.25
100 FOR I = 0 TO N - 1
110 FOR J = 0 TO N - 1
120 LET C(I,J) = C(I,J) * BETA
130 NEXT J
140 FOR K = 0 TO N - 1
150 FOR J = 0 TO N - 1
160 LET C(I,J) = C(I,J) + ALPHA * A(I,K) * B(K,J)
170 NEXT J
180 NEXT K
190 NEXT I
200 FOR I = 0 TO N-1 : PRINT C(I,0); C(I,I); C(I,N-1) : NEXT I
210 PRINT I
"""

# The first kernel divides by zero at I = 4 (a warning, the loop goes on), the second
# reads out of range at I = 1, before: BASIC stops there and never warns.
ERROR_IN_THE_SECOND_PART = GEMM.replace("C(I,J) * BETA", "C(I,J) * BETA / (I - 4)").replace(
    "B(K,J)", "B(K,J + X(I))"
).replace("\n60 LET", "\n55 LET X(1) = 9\n60 LET")

# Only the warnings: Division by zero five times in the first part's statement, at I = 4,
# then overflows of GW-BASIC's single range in the second part.
WARNINGS = GEMM.replace("C(I,J) * BETA", "C(I,J) * BETA / (I - 4)").replace(
    "ALPHA * A(I,K)", "1E37 * A(I,K)"
)


def _kernels(text: str) -> list[str]:
    from transpiler import driver
    from transpiler.errors import SourceFile
    from transpiler.options import Options

    analysis = driver.front_end(SourceFile("prog.bas", text), Options())
    host = driver.host_program(analysis)
    return [d.reason for d in host.decisions if d.label == 100 and d.offloaded]


def test_gemm_is_two_2d_kernels_with_k_inside_the_second():
    first, second = _kernels(GEMM)
    assert "over I, J (FOR lines 100, 110);" in first
    assert "over I, J (FOR lines 100, 150);" in second
    assert "K (line 140) loops inside each lane" in second
    assert "atomic" not in second


@pytest.mark.parametrize("tile", [None, "2", "4"])
def test_distributed_gemm_agrees_with_the_interpreter(tmp_path, tile):
    check(tmp_path, GEMM, tile)


@pytest.mark.parametrize("tile", [None, "2"])
def test_an_exception_runs_the_loop_as_written(tmp_path, tile):
    assert len(_kernels(ERROR_IN_THE_SECOND_PART)) == 2
    check(tmp_path, ERROR_IN_THE_SECOND_PART, tile)
    check(tmp_path, WARNINGS, tile, dialect="ms")


def test_an_interchanged_nest_alone_is_one_2d_kernel(tmp_path):
    text = GEMM.replace("110 FOR J = 0 TO N - 1\n120 LET C(I,J) = C(I,J) * BETA\n130 NEXT J\n", "")
    (reason,) = _kernels(text)
    assert "over I, J (FOR lines 100, 150);" in reason and "elementwise map" in reason
    check(tmp_path, text, "2")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        # J's limit changes with K: no (I, J) lanes with K inside (the nest as written
        # is a triangle of (I, K, J) lanes adding with atomics).
        (("150 FOR J = 0 TO N - 1", "150 FOR J = 0 TO K"), "over I, K, J;"),
        # J is printed after the loop: its last value depends on K's loop running
        # (the nest stays as written: lanes (I, K, J) adding with atomics).
        (("210 PRINT I", "210 PRINT I; J"), "over I, K, J;"),
    ],
    ids=["j-bounds-depend-on-k", "j-used-after"],
)
def test_near_misses_of_interchange_keep_k_and_j_inside_the_lanes(change, why):
    text = GEMM.replace("110 FOR J = 0 TO N - 1\n120 LET C(I,J) = C(I,J) * BETA\n130 NEXT J\n", "")
    text = text.replace(*change)
    (reason,) = _kernels(text)
    assert why in reason, reason


def test_a_scalar_set_in_one_part_and_read_in_a_later_one_keeps_the_loop_whole(tmp_path):
    # The second part reads J as the first part's loop left it: a value per I.
    text = GEMM.replace(
        "150 FOR J = 0 TO N - 1\n160 LET C(I,J) = C(I,J) + ALPHA * A(I,K) * B(K,J)\n170 NEXT J\n",
        "160 LET C(I,K) = C(I,K) + J * A(I,K)\n",
    )
    (reason,) = _kernels(text)
    assert "over I;" in reason and "in place" in reason
    check(tmp_path, text, "2")
