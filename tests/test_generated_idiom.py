"""Generated cuTile Python reads like NVIDIA's samples (issue 14): grids with
`ct.cdiv`, no grid arithmetic a reader must simplify in their head, no kernel parameter
the kernel does not read, and a comment where an f64 scalar travels in an array."""

from __future__ import annotations

import re

import pytest

from tests.golden_cases import analyse, cases
from transpiler import driver
from transpiler.backends.cutile.program import BOX_COMMENT
from transpiler.ir import irbuild as B
from transpiler.ir import kernel as ir
from transpiler.ir.kernel import Const, Param, TileType
from transpiler.passes.kernel.kernel_params import params_read

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


KERNEL_CASES = [c for c in CASES if c.group == "kernels"]


@pytest.mark.parametrize("case", KERNEL_CASES, ids=[c.id for c in KERNEL_CASES])
def test_kernel_programs_take_only_the_scalars_their_kernel_reads(case):
    """vector_add(n, a, b, c) never used n: a scalar that only sizes the grid stays
    with run(), which computes the grid."""
    analysis = analyse(case)
    if analysis.kind != "kernel":
        pytest.skip("a BASIC program, not a cuTile BASIC kernel program")
    lib = driver.kernel_library(analysis)
    read = params_read(lib.kernel.body)
    taken = {p.name for p in lib.kernel.params if isinstance(p, ir.ScalarParam)}
    assert taken == read & {s.name for s in lib.scalars}
    assert [s.name for s in lib.scalars] == [
        n for n in lib.inputs if n in {s.name for s in lib.scalars}
    ]


def test_vector_add_kernel_has_no_size_parameter():
    text = next(c for c in KERNEL_CASES if c.name == "vector_add").golden(".py").read_text()
    assert "def vector_add(a, b, c):" in text
    assert "def run(n, a, b, device=None, stream=None):" in text


def test_params_read_sees_indices_and_view_bounds():
    n, m = _param("n"), _param("m")
    store = ir.Store("c", (B.binary("add", n, B.const(2, "i32"), "f32"),), B.const(1.0, "f32"))
    assert params_read([store]) == {"n"}
    assert params_read([ir.Let("t", m)]) == {"m"}
    assert params_read([]) == set()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_boxed_scalar_says_why(case):
    lines = case.golden(".py").read_text().splitlines()
    for k, line in enumerate(lines):
        if re.match(r"\s+\w+ = ct\.load\(\w+_box, ", line) and not re.match(
            r"\s+\w+ = ct\.load\(\w+_box, ", lines[k - 1]
        ):
            assert lines[k - 1].strip() == BOX_COMMENT


LEGACY_CASES = [c for c in CASES if c.group == "legacy"]


@pytest.mark.parametrize("case", LEGACY_CASES, ids=[c.id for c in LEGACY_CASES])
def test_offloaded_kernels_name_their_tile_sizes(case):
    """`512` appeared six times in saxpy.py: a tile size is a `ct.Constant[int]`
    parameter, and the shapes and block offsets name it."""
    text = case.golden(".py").read_text()
    kernels = re.findall(r"@ct\.kernel\ndef \w+\((.*?)\):\n(.*?)(?=\n\n\n)", text, re.DOTALL)
    assert kernels
    for params, body in kernels:
        assert re.search(r"\btile(_\w+)?: ct\.Constant\[int\]", params), params
        assert not re.search(r"(ct\.arange\(|shape=\(|ct\.zeros\(\(|ct\.full\(\()\d", body)
        assert not re.search(r"ct\.bid\(\d\) \* \d", body)


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_a_tile_size_name_never_takes_a_basic_variables_name(target, tmp_path, monkeypatch):
    """With a 16x32 tile the sizes are the generated names tile_i and tile_j; program
    variables TILE_I, TILE_J and VALID (read in the kernel) keep their identifiers and
    their values, and the kernel's namer numbers the sizes instead."""
    import io

    from transpiler.errors import SourceFile
    from transpiler.options import Options

    source = (
        "10 DIM X(40, 40)\n20 LET TILE_I = 3 : LET TILE_J = 5 : LET VALID = 7\n"
        "30 FOR I = 1 TO 40\n40 FOR J = 1 TO 40\n"
        "50 LET X(I, J) = TILE_I * I + TILE_J * J + VALID\n60 NEXT J\n70 NEXT I\n"
        "80 PRINT X(5, 7); X(40, 40)\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.chdir(tmp_path)
    analysis = driver.front_end(SourceFile("clash.bas", source), Options())
    code = driver.generate(analysis, target, (16, 32))
    if target == "cutile":
        assert "tile_i = ct.load(tile_i_box" in code
        assert "tile_i_2: ct.Constant[int]" in code and "tile_j_2: ct.Constant[int]" in code
    else:
        assert "constexpr int tile_i_2 = 16;" in code and "constexpr int tile_j_2 = 32;" in code
    out = io.StringIO()
    assert driver.check(analysis, code, target, "cpu", out=out) == 0, out.getvalue()
