"""TRON and TROFF (Microsoft BASIC): while tracing is on, each line that starts running
prints its number in brackets, where the output stands.

A line starts when the line before it ends, or when a jump goes to its number (GOTO,
GOSUB, IF ... THEN n, ON ... GOTO); NEXT, WEND and RETURN go back into a line without
starting it.  `passes/check/flatten.py` decides it once: a program with TRON gets an
`ast.TraceLine` before the first statement of each numbered line.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) printed the texts below,
except the last line end, which our console adds at the end of a program as it does
after any `PRINT ...;`, and "Break in 70", which PC-BASIC prints on the screen too.
Every program runs through the interpreter and both generated targets (on the CPU).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, interpreted_and_checked
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

# (program, what PC-BASIC printed)
PROGRAMS = {
    "for_loop_lines": (
        '10 TRON\n20 PRINT "A"\n30 FOR I=1 TO 2\n40 NEXT\n50 TROFF\n60 PRINT "B"\n',
        "[20]A\n[30][40][40][50]B\n",
    ),
    # TRON starts with the next line; a loop within one line traces it once; RETURN
    # goes back to the end of line 40, so line 50 starts
    "statements_after_tron": (
        '10 TRON: PRINT "X";\n20 PRINT "A";: PRINT "C"\n30 FOR I=1 TO 2: NEXT\n'
        '40 GOSUB 100\n50 TROFF: PRINT "D"\n60 END\n100 PRINT "S": RETURN\n',
        "X[20]AC\n[30][40][100]S\n[50]D\n",
    ),
    # NEXT goes back into the middle of line 30, RETURN into the middle of line 50
    "returns_into_a_line": (
        '10 TRON\n30 FOR I=1 TO 2: PRINT I;\n40 NEXT\n50 GOSUB 100: PRINT "r"\n60 END\n'
        '100 PRINT "s";: RETURN\n',
        "[30] 1 [40] 2 [40][50][100]sr\n[60]",
    ),
    # WEND goes back to its WHILE without starting line 40 again; the brackets move the
    # column as text does (zones, TAB)
    "while_on_goto_and_stop": (
        '10 TRON\n20 PRINT "ABCDEFGHIJKLM", "Z"\n30 PRINT TAB(20); "T"\n'
        "40 WHILE I < 2: I = I + 1\n50 WEND\n60 ON 1 GOTO 70\n70 STOP\n",
        "[20]ABCDEFGHIJKLM           Z\n[30]               T\n[40][50][50][60][70]\nBreak in 70\n",
    ),
    "pos_counts_the_trace": (
        '10 TRON\n20 PRINT "A";\n30 PRINT POS(0)\n40 END\n',
        "[20]A[30] 10 \n[40]",
    ),
    # TROFF stops at once; a jump after TRON traces the line it goes to; IF ... THEN n
    "troff_and_jumps": (
        '10 TRON\n20 PRINT "A": TROFF: PRINT "B"\n30 PRINT "C"\n40 TRON: GOTO 60\n'
        '50 PRINT "D"\n60 PRINT "E"\n70 IF 1 THEN 90\n80 PRINT "F"\n90 TROFF\n',
        "[20]A\nB\nC\n[60]E\n[70][90]",
    ),
}


def _ours(printed: str) -> str:
    """PC-BASIC's text as our console ends it: with a line end."""
    return printed if printed.endswith("\n") else printed + "\n"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_trace_in_every_engine(tmp_path: Path, name: str) -> None:
    program, printed = PROGRAMS[name]
    assert interpreted_and_checked(tmp_path, program) == _ours(printed)


@pcbasic_oracle.requires_pcbasic
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_pcbasic_prints_the_same_trace(name: str) -> None:
    program, printed = PROGRAMS[name]
    assert pcbasic_oracle.run(program) == printed


def test_a_program_without_tron_has_no_trace() -> None:
    analysis = _analysis('10 PRINT "A"\n20 TROFF\n')
    for target in ("cutile", "cuda"):
        assert "trace_line" not in driver.generate(analysis, target)


def test_a_traced_loop_stays_on_the_host_and_says_why() -> None:
    from transpiler.reports.explain import explain

    analysis = _analysis("10 TRON\n20 FOR I=1 TO 3\n30 A(I)=I*2\n40 NEXT\n50 PRINT A(3)\n")
    assert "the line trace of TRON inside the loop runs on the host" in explain(analysis)


def test_tron_is_microsoft_basic(tmp_path: Path) -> None:
    done = basic2tile(tmp_path, "10 TRON\n20 PRINT 1\n", "--interpret", dialect="extended")
    assert done.returncode != 0
    assert "TRON is Microsoft BASIC, not extended BASIC" in done.stderr
    pinned = basic2tile(tmp_path, "10 TRON\n20 PRINT 1\n", "--interpret", dialect=None)
    assert pinned.stdout == "[20] 1 \n"
    assert "TRON: assuming --dialect ms" in pinned.stderr


def _analysis(text: str):
    return driver.front_end(SourceFile("prog.bas", text), Options(std="ms"))
