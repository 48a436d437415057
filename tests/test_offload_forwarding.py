"""A scalar that one part of a distributed loop sets and a later part reads, read from
the element the earlier part stored it in (passes/parallel/forwarding.py): Gram-Schmidt's update
with a scalar accumulator S is a kernel over J, then a 2-D kernel over (J, I) reading
R(K,J) where the source reads S.  Near misses keep one kernel over J.

Oracle: the reference interpreter (`--check`, both targets, exactly, messages included)."""

from __future__ import annotations

import pytest

from tests.test_offload_slices import check
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

GRAM_SCHMIDT = """10 M = 5 : N = 4
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
190 FOR I = 0 TO M - 1 : A(I,J) = A(I,J) - Q(I,K) * S : NEXT I
200 NEXT J
210 NEXT K
220 FOR I = 0 TO N - 1 : PRINT R(I,0); R(I,I); R(0,I); A(4,I) : NEXT I
"""


def _reasons(text: str, dialect: str | None = None) -> list[str]:
    analysis = driver.front_end(SourceFile("prog.bas", text), Options(std=dialect))
    decisions = driver.host_program(analysis).decisions
    return [d.reason for d in decisions if d.label == 150]


def test_the_update_reads_the_stored_element_in_a_2d_kernel():
    first, second = _reasons(GRAM_SCHMIDT)
    assert "over J (FOR lines 150);" in first
    assert "over J, I (FOR lines 150, 190);" in second


@pytest.mark.parametrize("dialect", [None, "ms"])
@pytest.mark.parametrize("tile", [None, "2"])
def test_the_forwarded_scalar_agrees(tmp_path, tile, dialect):
    check(tmp_path, GRAM_SCHMIDT, tile, dialect=dialect)


@pytest.mark.parametrize("dialect", [None, "ms"])
def test_an_error_in_the_later_part_stops_where_basic_does(tmp_path, dialect):
    # Q's subscript is out of range in the update when K = 2, after two rows of R.
    text = GRAM_SCHMIDT.replace("Q(I,K) * S : NEXT I", "Q(I + INT(K / 2) * (3 - K) * 9, K) * S : NEXT I")
    assert len(_reasons(text, dialect)) == 2
    check(tmp_path, text, "2", dialect=dialect)


@pytest.mark.parametrize(
    "change",
    [
        # An integer S%: R(K,J), single precision, is not of its type.
        (("160 S = 0", "160 S% = 0"), ("S = S +", "S% = S% +"), ("= S\n", "= S%\n"), ("* S :", "* S% :")),
        # S changes after the store.
        (("180 R(K,J) = S", "180 R(K,J) = S : S = S / 2"),),
        # R(K,J) changes after the store.
        (("A(I,J) - Q(I,K) * S : NEXT I", "A(I,J) - Q(I,K) * S : NEXT I : R(K,J) = R(K,J) * 2"),),
        # The stored element is not the lane's own for every part (its subscript is set
        # in the loop).
        (("180 R(K,J) = S", "180 L = K : R(L,J) = S"),),
    ],
    ids=["integer-scalar", "s-changes", "element-changes", "subscript-set-in-loop"],
)
def test_near_misses_keep_one_kernel_over_j(change):
    text = GRAM_SCHMIDT
    for old, new in change:
        assert old in text
        text = text.replace(old, new)
    reasons = _reasons(text, "ms")
    assert len(reasons) == 1 and "over J;" in reasons[0], reasons


def test_a_store_after_the_last_for_stays_a_part_of_its_own(tmp_path):
    # Only `R(K,J) = S`, which reads S, joins the part before; W(J) = ... keeps its own.
    text = GRAM_SCHMIDT.replace("R(4,4)", "R(4,4), W(4)").replace(
        "\n200 NEXT J", "\n195 W(J) = R(K,J) * 2\n200 NEXT J"
    ).replace("PRINT R(I,0);", "PRINT W(I); R(I,0);")
    reasons = _reasons(text)
    assert len(reasons) == 3 and "over J, I (FOR lines 150, 190);" in reasons[1], reasons
    check(tmp_path, text, "2")
