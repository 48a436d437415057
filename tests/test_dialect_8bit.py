"""--dialect applesoft, commodore and msx: the 8-bit machines' Microsoft BASICs, each
--dialect ms with its own numbers (runtime machines.py, transpiler/options.py).

No emulator of these machines is installed, so the expected texts are reasoned from the
manuals, named in each test: the Commodore 64 User's Guide (p. 26: "when a number is
printed, only nine digits are displayed"; 12123123.45 + 345.78 + 7895.687 prints
12131364.9; 123000000000000000 prints 1.23E+17; "numbers between 0.01 and 999,999,999
are printed using standard notation"), the VIC-20 Programmer's Reference Guide (p. 56:
?.009 prints 9E-03, ?.01 prints .01, ?999999998.9 prints 999999999, ?999999999.6
prints 1E+09), the Applesoft BASIC Programming Reference Manual (numbers printed
without spaces around them, tab fields of 16 columns, integers -32767..32767 INTed) and
the MSX-BASIC reference (numbers without a suffix are doubles of 14 digits, printed as
GW-BASIC prints them).  Every program runs through the interpreter and both generated
targets (cuTile Python and CUDA C++ on the CPU), which must agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from transpiler.runtime.machines import MACHINE_NUMBERS, machine_number_text

from tests.checking import checked_run, interpreted_and_checked
from transpiler.options import Options

COMMODORE = """\
10 PRINT .009: PRINT .01: PRINT 999999998.9: PRINT 999999999.6
20 PRINT 12123123.45 + 345.78 + 7895.687
30 PRINT 123000000000000000
40 PRINT 1/3; -5; 0
50 PRINT "A", "B"; 1
60 A$ = STR$(5): PRINT "[" A$ "]"
70 COUNT = 7: PRINT CO
80 A% = 7.9: B% = -7.9: PRINT A%; B%
90 PRINT TAB(5);"X";POS(0)
100 DIM X(3): L = 1: H = 2: X((L + H) / 2) = 5: X(2.9) = 6: PRINT X(1); X(2); X(3)
"""


def test_commodore_numbers(tmp_path: Path) -> None:
    """Commodore 64 User's Guide p. 26 and VIC-20 Programmer's Reference Guide p. 56 (the
    numbers of lines 10-30, 9 digits); a space before a number that is not negative and a
    cursor-right after every number (line 40); zones of 10 columns (line 50); STR$ keeps
    the leading space (line 60); two characters of a name count (line 70); a % variable
    stores INT of the value (line 80); TAB and POS number the screen's columns from 0
    (Commodore 64 Programmer's Reference Guide, TAB and POS: line 90 writes 5 spaces, X,
    and the column after it, 6); a subscript is INT of its value as a % variable's is
    (line 100: X(1.5) is X(1), X(2.9) is X(2))."""
    assert interpreted_and_checked(tmp_path, COMMODORE, dialect="commodore") == (
        " 9E-03 \n .01 \n 999999999 \n 1E+09 \n"
        " 12131364.9 \n 1.23E+17 \n"
        " .333333333 -5  0 \n"
        "A         B 1 \n"
        "[ 5]\n"
        " 7 \n"
        " 7 -8 \n"
        "     X 6 \n"
        " 5  6  0 \n"
    )


APPLESOFT = """\
10 PRINT 1/3; -5; 0
20 PRINT "A", "B"
30 PRINT "[" STR$(2.5) "]"
40 PRINT 1E9; " "; .001
50 HITS = 4: PRINT HI
60 A% = -2.5: PRINT A%
"""


def test_applesoft_numbers(tmp_path: Path) -> None:
    """Applesoft BASIC Programming Reference Manual: numbers are printed with no space
    before or after them (line 40 prints .333333333, -5 and 0 run together), 9 digits and
    the same scientific notation as Commodore's (the two are Microsoft's 6502 BASIC), tab
    fields of 16 columns, STR$ without a space, two characters of a name, a real stored
    into an integer variable INTed."""
    assert interpreted_and_checked(tmp_path, APPLESOFT, dialect="applesoft") == (
        ".333333333-50\nA               B\n[2.5]\n1E+09 1E-03\n4\n-3\n"
    )


MSX = """\
10 PRINT 1/3
20 PRINT 2/3; -5
30 A = 12123123.45 + 345.78 + 7895.687: PRINT A
"""


def test_msx_doubles(tmp_path: Path) -> None:
    """MSX-BASIC: a variable without a suffix is a double of 14 digits, printed as
    GW-BASIC prints numbers (a space or sign before, a space after)."""
    assert interpreted_and_checked(tmp_path, MSX, dialect="msx") == (
        " .33333333333333 \n .66666666666667 -5 \n 12131364.917 \n"
    )


@pytest.mark.parametrize(
    ("x", "commodore", "applesoft"),
    [
        (0.009, " 9E-03", "9E-03"),
        (0.01, " .01", ".01"),
        (-0.0123456789, "-.0123456789", "-.0123456789"),
        (999999998.9, " 999999999", "999999999"),
        (999999999.6, " 1E+09", "1E+09"),
        (1.5e-10, " 1.5E-10", "1.5E-10"),
        (-1.23e17, "-1.23E+17", "-1.23E+17"),
        (0.0, " 0", "0"),
        (2.0 / 3.0, " .666666667", ".666666667"),
    ],
)
def test_machine_number_text(x: float, commodore: str, applesoft: str) -> None:
    """The VIC-20 Programmer's Reference Guide p. 56 (.01 to 999,999,999 unscaled, 9E-03,
    1E+09) and the Commodore 64 User's Guide p. 26 (1.23E+17): STR$'s text."""
    assert machine_number_text(x, MACHINE_NUMBERS["commodore"]) == commodore
    assert machine_number_text(x, MACHINE_NUMBERS["applesoft"]) == applesoft


def test_machine_dialect_is_ms_with_its_defaults() -> None:
    """--dialect applesoft is --dialect ms with two-character names and numbers computed
    in double; an explicit --name-chars or --precision wins."""
    options = Options(std="applesoft")
    assert (options.std, options.machine, options.name_chars, options.precision) == (
        "ms", "applesoft", 2, "f64",
    )  # fmt: skip
    assert options.microsoft
    assert Options(std="commodore", name_chars=3).name_chars == 3
    assert Options(std="ms").machine is None


INPUTS = """\
10 INPUT A
20 INPUT "AGE";B
30 PRINT A+B
"""


def test_applesoft_input_prompts(tmp_path: Path) -> None:
    """Applesoft BASIC Programming Reference Manual, INPUT: without a prompt string INPUT
    writes "?" (no space); with one it writes the string alone, no "?".  A Commodore
    writes "? " after both, as GW-BASIC does (Commodore 64 User's Guide, INPUT)."""
    assert interpreted_and_checked(tmp_path, INPUTS, dialect="applesoft", stdin="1\n2\n") == (
        "?AGE3\n"
    )
    assert interpreted_and_checked(tmp_path, INPUTS, dialect="commodore", stdin="1\n2\n") == (
        "? AGE?  3 \n"
    )


def test_division_by_zero_stops_a_commodore_program(tmp_path: Path) -> None:
    """Commodore 64 Programmer's Reference Guide, error messages: DIVISION BY ZERO and
    OVERFLOW stop the program (GW-BASIC writes "Division by zero" and goes on).  The
    message stays GW-BASIC's."""
    text = '10 PRINT "A"\n20 X = 1/0\n30 PRINT "B"\n'
    done = checked_run(tmp_path, text, dialect="commodore")
    assert (done.returncode, done.stdout) == (1, "A\nDivision by zero in 20\n")
