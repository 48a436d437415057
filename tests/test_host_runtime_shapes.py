"""The statements whose runtime helpers now have one shape in both runtimes (Python's
runtime/basic2tile_runtime, C++'s b2t_runtime.h), so that backends/host_statements.py
prints them once: ON's `on_choice(x, n, strict)`, INPUT and LINE INPUT's optional
flags, SWAP and MID$ on elements, MAT's generic helpers and per-array MAT PRINT.

Oracle: the reference interpreter (--check compares each target with it); the strict ON
message is the interpreter's (ECMA-55 as bas55 words it)."""

from __future__ import annotations

import pytest
from basic2tile_runtime import BasicFault
from basic2tile_runtime.flow import on_choice

from .checking import assert_checks, basic2tile, checked_run


def test_on_choice_strict_is_ecma55s_fatal_range():
    assert on_choice(2.4, 3, strict=True) == 2
    assert on_choice(0.5, 3, strict=True) == 1  # floor(x + 0.5)
    with pytest.raises(BasicFault) as raised:
        on_choice(3.5, 3, strict=True)
    assert (raised.value.what, raised.value.detail) == (
        "ON index out of range",
        "(4; 1 to 3 allowed)",
    )
    assert on_choice(4, 3) == 0  # Microsoft BASIC: goes on


STRICT_ON = """10 FOR I = 1 TO 3
20 ON I GOTO 100, 200, 300
100 PRINT "A"
110 GOTO 400
200 PRINT "B"
210 GOTO 400
300 PRINT "C"
400 NEXT I
410 ON 5 GOTO 420
420 END
"""


def test_strict_on_out_of_range_ends_both_targets(tmp_path):
    done = checked_run(tmp_path, STRICT_ON, dialect="ecma55")
    assert done.stdout == "A\nB\nC\n"
    assert "ON index out of range (5; 1 to 1 allowed)" in done.stderr


INPUTS = """10 DIM A$(3), B(3)
20 INPUT "NAME"; N$, X%
30 INPUT; Y
35 INPUT "Q", Z
40 LINE INPUT "L? "; L$
50 LINE INPUT; M$
55 LINE INPUT K$
60 I = 1: A$(1) = "HELLO": A$(2) = "WORLD"
70 SWAP I, B(I): SWAP A$(1), A$(2)
80 MID$(A$(1), 2) = "xy": MID$(N$, 1, 2) = N$
85 INPUT P, Q$
90 PRINT N$; X%; Y; Z; L$; M$; K$; I; B(1); A$(1); A$(2); P; Q$
"""


def test_input_line_input_swap_and_mid_agree_on_both_targets(tmp_path):
    stdin = "BOB,3\n4\n5\nline one\nline two\nline3\n7,seven\n"
    done = checked_run(tmp_path, INPUTS, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("BOB 3  4  5 line oneline twoline3 0  1 WxyLD"
                                "HELLO 7 seven\n")  # fmt: skip


def test_input_flags_read_as_named_arguments(tmp_path):
    """C++ passes INPUT's flags positionally, each after a comment naming it."""
    basic2tile(tmp_path, INPUTS, "--target", "cuda", "-o", "prog.cu")
    cpp = (tmp_path / "prog.cu").read_text()
    assert "con.input({b2t::NUMBER}, /*question=*/true, /*stay=*/true)" in cpp
    assert 'con.input("Q", {b2t::NUMBER}, /*question=*/false)' in cpp
    assert "con.line_input(/*stay=*/true)" in cpp
    basic2tile(tmp_path, INPUTS, "--target", "cutile", "-o", "prog.py")
    python = (tmp_path / "prog.py").read_text()
    assert "con.input(None, (NUMBER,), stay=True)" in python
    assert "con.line_input(None, stay=True)" in python


MATS = """10 DIM A(2, 2), B(2, 2), C(2, 2)
20 MAT A = CON: MAT B = IDN
30 MAT C = A + B: MAT PRINT C;
40 MAT C = A - B: MAT C = TRN(C): MAT PRINT C, A
50 MAT C = A * B: MAT B = INV(B): MAT A = ZER(1, 3)
60 MAT PRINT C; B, A
"""


def test_mat_generic_helpers_on_both_targets(tmp_path):
    assert_checks(tmp_path, MATS, dialect="dartmouth")
