"""Microsoft BASIC's memory and file-housekeeping statements: FRE, RESET (and ERASE).

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py); the texts below are
what it printed, checked live when it is installed.  Every program runs through the
interpreter and both generated targets on the CPU (`interpreted_and_checked`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import basic2tile, checked_run, interpreted_and_checked

# FRE(x) is a constant: what PC-BASIC prints for this one-line program (GW-BASIC's value
# shrinks as the program and its variables grow: 60287 for FRE(""), 60181 with a REM of
# 100 characters more).
FRE_PROGRAM = "10 PRINT FRE(0)\n"
FRE_PRINTED = " 60288 \n"


def test_fre_is_pc_basics_free_memory_of_a_small_program(tmp_path: Path) -> None:
    assert interpreted_and_checked(tmp_path, FRE_PROGRAM) == FRE_PRINTED


@pcbasic_oracle.requires_pcbasic
def test_pcbasic_prints_that_free_memory() -> None:
    assert pcbasic_oracle.run(FRE_PROGRAM) == FRE_PRINTED


def test_fre_takes_a_number_or_a_string_and_evaluates_it(tmp_path: Path) -> None:
    program = '10 DEF FNA(X) = X + 1\n20 A$ = "X": PRINT FRE(A$); FRE(FNA(-1)); FRE("")\n'
    assert interpreted_and_checked(tmp_path, program) == " 60288  60288  60288 \n"


def test_fre_is_microsoft_basic(tmp_path: Path) -> None:
    done = basic2tile(tmp_path, FRE_PROGRAM, "--interpret", dialect="extended")
    assert "the function FRE is Microsoft BASIC, not extended BASIC" in done.stderr
    pinned = basic2tile(tmp_path, FRE_PROGRAM, "--interpret", dialect=None)
    assert pinned.stdout == FRE_PRINTED


# RESET closes every file: the file written is complete, then #1 is not open.
RESET_PROGRAM = (
    '10 OPEN "T.TXT" FOR OUTPUT AS #1\n20 PRINT #1, "hi"\n30 RESET\n'
    '40 OPEN "T.TXT" FOR INPUT AS #1\n50 INPUT #1, A$: PRINT A$\n60 RESET\n'
    '70 OPEN "T.TXT" FOR OUTPUT AS #1\n80 RESET\n90 PRINT #1, "z"\n'
)
RESET_PRINTED = "hi\nBad file number in 90\n"


def test_reset_closes_every_file(tmp_path: Path) -> None:
    done = checked_run(tmp_path, RESET_PROGRAM)
    assert done.stdout == RESET_PRINTED  # GW-BASIC's line on the screen too
    assert "error: Bad file number (#1 is not open)" in done.stderr
    assert "90 PRINT #1" in done.stderr


@pcbasic_oracle.requires_pcbasic
def test_pcbasic_closes_them_too(tmp_path: Path) -> None:
    assert pcbasic_oracle.run(RESET_PROGRAM, folder=tmp_path) == RESET_PRINTED


@pytest.mark.parametrize("word", ["RESET", "TRON"])
def test_the_words_are_no_longer_variables(tmp_path: Path, word: str) -> None:
    done = basic2tile(tmp_path, f"10 {word} = 1\n", "--interpret")
    assert done.returncode != 0


# ERASE: the arrays cease to exist; a use makes them again with the implicit bounds (10)
# and zero (empty) elements, a DIM with new bounds; ERASE of an array that does not
# exist is "Illegal function call".  Loops over them run as kernels where they can (the
# kernel's range check sends an erased array to the host, which makes it again).
ERASE_PROGRAM = """\
10 DIM M(3,4), S$(2)
20 FOR I=0 TO 3: FOR J=0 TO 4: M(I,J)=I*10+J: NEXT J, I
30 S$(1)="a": ERASE M, S$
40 PRINT M(2,3); "["; S$(1); "]"
50 FOR I=0 TO 10: M(I,I)=I: NEXT I
60 S=0: FOR I=0 TO 10: S=S+M(I,I)+M(I,0): NEXT I: PRINT S
70 Z(3)=5: ERASE Z: PRINT Z(3)
80 ERASE M: DIM M(2,2): M(2,2)=9: PRINT M(2,2)
90 FOR I=1 TO 100: A(I MOD 10)=I: NEXT I: PRINT A(9)
100 ERASE A: DIM A(200)
110 FOR I=0 TO 200: A(I)=I*2: NEXT I
120 T=0: FOR I=0 TO 200: T=T+A(I): NEXT: PRINT T
130 ERASE Z: ERASE Z
"""
ERASE_PRINTED = " 0 []\n 55 \n 0 \n 9 \n 99 \n 40200 \nIllegal function call in 130\n"


def test_erase_in_every_engine(tmp_path: Path) -> None:
    done = checked_run(tmp_path, ERASE_PROGRAM)
    assert done.stdout == ERASE_PRINTED
    assert "prog.bas:13:14: error: Illegal function call (ERASE Z: no such array)" in done.stderr


@pcbasic_oracle.requires_pcbasic
def test_pcbasic_erases_the_same_way() -> None:
    assert pcbasic_oracle.run(ERASE_PROGRAM) == ERASE_PRINTED


def test_erase_needs_an_array_of_the_program(tmp_path: Path) -> None:
    done = basic2tile(tmp_path, "10 X = 1: ERASE X\n", "--interpret")
    assert "error: ERASE X: the program has no array X" in done.stderr


def test_an_erased_array_is_not_a_fixed_shape() -> None:
    from transpiler import driver
    from transpiler.errors import SourceFile
    from transpiler.options import Options

    text = "10 DIM A(5), B(5)\n20 ERASE A\n30 DIM A(7)\n"
    analysis = driver.front_end(SourceFile("prog.bas", text), Options(std="ms"))
    assert analysis.arrays["A"].redimensioned and not analysis.arrays["B"].redimensioned
