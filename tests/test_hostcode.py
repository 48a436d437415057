"""Host code lowered once (transpiler/hostcode/): the one walker lays the same nodes out
in Python and C++, and a kernel launch's finish is the same decision in both targets."""

from __future__ import annotations

import os
from pathlib import Path

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.hostcode.nodes import Block, Continue, Declare, ForEach, ForRange, If, Line, Unless
from transpiler.hostcode.syntax import CPP, PYTHON, Layout
from transpiler.options import Options


class _Code:
    def __init__(self, text, body=None):
        self.text, self.body = text, body


def _text(lines, depth=0) -> list[str]:
    out = []
    for line in lines:
        out.append("    " * depth + line.text)
        if line.body is not None:
            out += _text(line.body, depth + 1)
    return out


def _lay_out(syntax, nodes) -> list[str]:
    return _text(Layout(syntax, _Code, None, None).lines(nodes))


def test_unless_wraps_in_python_and_skips_in_cpp():
    loop = ForRange("k", None, "n", [Unless("done[k]", [Line("x = k")])])
    assert _lay_out(PYTHON, [loop]) == [
        "for k in range(n):",
        "    if not done[k]:",
        "        x = k",
    ]
    assert _lay_out(CPP, [loop]) == [
        "for (int k = 0; k < n; ++k)",
        "    if (done[k])",
        "        continue;",
        "    x = k;",
    ]


def test_a_block_is_a_scope_in_cpp_only():
    nodes = [Block([Declare("const int", "n", "3"), If("n > 0", [Continue()], [Line("f()")])])]
    assert _lay_out(PYTHON, nodes) == ["n = 3", "if n > 0:", "    continue", "else:", "    f()"]
    assert _lay_out(CPP, nodes) == [
        "",
        "    const int n = 3;",
        "    if (n > 0)",
        "        continue;",
        "    else",
        "        f();",
    ]


def test_for_each_names_the_element_where_python_does():
    loop = ForEach("b", "v", "partial", [Line(f"x = {PYTHON.item('partial', 'b', 'v')}")])
    assert _lay_out(PYTHON, [loop]) == ["for b, v in enumerate(partial.tolist()):", "    x = v"]
    loop = ForEach("b", None, "partial", [Line(f"x = {CPP.item('partial', 'b', None)}")])
    assert _lay_out(CPP, [loop]) == [
        "for (int b = 0; b < partial.size(); ++b)",
        "    x = partial[b];",
    ]


_SUM = """\
10 DIM X(100)
20 FOR I = 1 TO 100
30 X(I) = I / 3
40 NEXT I
50 S = 0
60 FOR I = 1 TO 100
70 S = S + X(I)
80 NEXT I
90 PRINT S; I
"""


def _generated(tmp_path: Path, target: str) -> str:
    source = tmp_path / "sum.bas"
    source.write_text(_SUM)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        analysis = driver.front_end(SourceFile.read("sum.bas"), Options(std="ms"))
        return driver.generate(analysis, target)
    finally:
        os.chdir(cwd)


def test_an_offloaded_sum_is_stored_as_a_single_in_both_targets(tmp_path):
    """Microsoft BASIC's S is a single: the total of the blocks' partial results, and
    the loop variable's value after the loop, are stored through its conversion (sng)
    in the generated Python as in the C++ (the Python printer used to skip it).  The
    blocks' sums combine one by one with the statement's own + (sng(s + part)), each
    rounded to a single, where all of them fit (test_ms_sum_overflow.py)."""
    python = _generated(tmp_path, "cutile")
    cpp = _generated(tmp_path, "cuda")
    assert "if done_2.all() and totals_fit(s, s_partial.tolist()):" in python
    assert "s = sng(s + value)" in python
    assert "i = sng(float(1 + max(i_count_2, 1)))" in python
    assert "if (done_2.all() && s_partial.totals_fit(s, true, false)) {" in cpp
    assert "s = b2t::sng(s + s_partial[block_2]);" in cpp
    assert "i = b2t::sng(1 + std::max(i_count_2, 1));" in cpp


def test_quickbasic_long_operators_are_chosen_for_both_targets():
    """QuickBASIC's LONG arithmetic (qbtypes) through the one operator choice both host
    printers ask: 32-bit \\, MOD and bitwise functions, long_result for + - * (Overflow
    beyond a LONG), and the 16-bit ones for INTEGER."""
    from transpiler.hostcode import microsoft
    from transpiler.ir import ast

    def binop(op, value_type):
        e = ast.BinOp(op, ast.Num(7.0), ast.Num(2.0))
        return e, {e: value_type}

    for op, long_name, int_name in (
        ("\\", "long_div", "int_div"),
        ("MOD", "long_mod", "int_mod"),
        ("AND", "long_and", "bit_and"),
        ("XOR", "long_xor", "bit_xor"),
    ):
        e, types = binop(op, "lng")
        assert microsoft.operation(e, types, singles=True) == long_name
        e, types = binop(op, "int")
        assert microsoft.operation(e, types, singles=True) == int_name
    e, types = binop("+", "lng")
    assert microsoft.operation(e, types, singles=True) is None
    assert microsoft.rounding(e, types, singles=True) == "long_result"
    e, types = binop("*", "int")
    assert microsoft.rounding(e, types, singles=True) == "int_result"
    e, types = binop("*", "num")
    assert microsoft.rounding(e, types, singles=True) == "sng"
