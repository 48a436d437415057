"""Generated cuTile Python reads like NVIDIA's samples (issue 14): grids with
`ct.cdiv`, no grid arithmetic a reader must simplify in their head."""

from __future__ import annotations

import re

import pytest

from tests.golden_cases import cases
from transpiler import irbuild as B
from transpiler.ir import Const, Param, TileType

CASES = cases()


def _param(name: str) -> Param:
    return Param(name, type=TileType("i32"))


def test_grid_arithmetic_on_constants_folds():
    n = _param("n")
    assert B.binary("cdiv", n, B.const(1, "i32"), "f32") is n
    assert B.binary("mul", n, B.const(1, "i32"), "f32") is n
    assert B.binary("mul", B.const(1, "i32"), n, "f32") is n
    folded = B.binary("cdiv", B.const(64, "i32"), B.const(64, "i32"), "f32")
    assert isinstance(folded, Const) and folded.value == 1
    folded = B.binary("cdiv", B.const(65, "i32"), B.const(64, "i32"), "f32")
    assert isinstance(folded, Const) and folded.value == 2
    # a negative or zero divisor is left to the kernel (cuTile defines those results)
    assert not isinstance(B.binary("cdiv", B.const(5, "i32"), B.const(0, "i32"), "f32"), Const)
    assert not isinstance(B.binary("cdiv", B.const(5, "i32"), B.const(-2, "i32"), "f32"), Const)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_python_divides_into_tiles_with_cdiv(case):
    text = case.golden(".py").read_text()
    assert not re.search(r"-\(-\w+ // ", text), "a grid as -(-n // tile), not ct.cdiv(n, tile)"
    assert not re.search(r"ct\.cdiv\(\d+, \d+\)", text), "ct.cdiv of two constants"
    assert not re.search(r"ct\.cdiv\([^()]*(\([^()]*\))?[^()]*, 1\)", text), "ct.cdiv(x, 1)"
