"""Host expressions are decided once (hostcode/expressions.py, hostcode/microsoft.py) and
written through one syntax table per language (hostcode/expression_syntax.py): the two
host targets print the same decisions.  Each test failed before the printers were one,
where C++ and Python decided differently."""

from __future__ import annotations

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options


def _generated(source: str, **options) -> tuple[str, str]:
    analysis = driver.front_end(SourceFile("prog.bas", source), Options(**options))
    return driver.generate(analysis, "cutile"), driver.generate(analysis, "cuda")


def test_a_condition_of_constants_is_decided_when_translating_in_both_targets():
    source = '10 PRINT 1 < 2; "B" > "AZ"\n20 IF X < 1 OR 2 < 1 THEN PRINT "NO"\n30 END\n'
    python, cpp = _generated(source)
    assert "con.print(-1.0, -1.0)" in python and "if x < 1.0 or False:" in python
    assert ".print(-1.0).print(-1.0)" in cpp and "if (x < 1.0 || false)" in cpp
    assert "? -1.0 : 0.0" not in cpp


def test_minus_minus_x_is_x_in_both_targets():
    python, cpp = _generated("10 X = 3\n20 PRINT -(-X)\n30 END\n")
    assert "con.print(x)" in python
    assert ".print(x)" in cpp and "-(-x)" not in cpp


def test_a_negative_constant_of_quickbasic_is_a_constant_in_both_targets():
    """-5 cannot overflow an INTEGER: neither target checks it (QuickBASIC)."""
    python, cpp = _generated("10 PRINT 7 \\ -2\n20 END\n", std="qbasic")
    assert "int_div(7.0, -2.0)" in python
    assert "b2t::int_div(7.0, -2.0)" in cpp


def test_a_safe_element_does_not_split_a_microsoft_print_in_python():
    """A warning must show where the PRINT items before it end, so Python prints the
    items before an item that may warn or fail first; an element whose subscript is in
    range can do neither (as the C++ printer always knew)."""
    python, _ = _generated("10 DIM A(10)\n20 PRINT A(1); A(2)\n30 END\n", std="ms")
    assert "con.print(a[1], a[2])" in python
