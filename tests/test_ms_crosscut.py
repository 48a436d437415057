"""Microsoft BASIC where the dialect's parts meet: numbers of --dialect ms (singles and
doubles) in PRINT USING, WRITE, files and string functions; RND in loops; the FOR stack.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py) runs each program when it
is installed; the texts below are what it printed (checked the same way), so the tests
keep their teeth without it.  Every program also runs through the generated cuTile
Python and CUDA C++ (on the CPU) in a scratch folder, which must agree with the
interpreter exactly.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.test_ms_numbers import TARGETS


def basic2tile(folder: Path, text: str, *options: str) -> subprocess.CompletedProcess:
    """Run `basic2tile prog.bas --dialect ms OPTIONS` in `folder`."""
    (folder / "prog.bas").write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "transpiler", "prog.bas", "--dialect", "ms", *options],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def interpreted_and_checked(folder: Path, text: str, *options: str) -> str:
    """What the interpreter prints, after --check passed on both targets."""
    for target in TARGETS:
        check = basic2tile(folder, text, "--check", "--device", "cpu", "--target", target, *options)
        assert check.returncode == 0, check.stdout + check.stderr
    done = basic2tile(folder, text, "--interpret", *options)
    assert done.returncode == 0, done.stderr
    return done.stdout


# PRINT USING, WRITE and PRINT # of a double have its 16 digits and `D`; a single 7.
DOUBLES = """\
10 A# = 1/3#: B = .625: C% = 7
20 PRINT USING "#.#########"; A#; B; C%
30 PRINT USING "##.##^^^^"; A#; B
40 WRITE A#, B, C%, 12345678#
50 OPEN "T.TXT" FOR OUTPUT AS #1
60 WRITE #1, A#, B: PRINT #1, USING "#.##########"; A#; B: PRINT #1, A#; B
70 CLOSE #1
80 OPEN "T.TXT" FOR INPUT AS #1
90 WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT L$: WEND
100 CLOSE #1: KILL "T.TXT"
"""
DOUBLES_OUTPUT = """\
0.3333333330.6250000007.000000000
 3.33D-01 6.25E-01
.3333333333333333,.625,7,12345678
.3333333333333333,.625
0.33333333330.6250000000
 .3333333333333333  .625 
"""


@pytest.mark.parametrize("precision", [(), ("--precision", "f64")], ids=["f32", "f64"])
def test_print_using_and_write_give_doubles_their_digits(tmp_path, precision):
    """A single prints 7 digits in PRINT USING even when computed in double (--precision
    f64); a double 16, with `D` in E format (was: every number formatted as a single)."""
    assert interpreted_and_checked(tmp_path, DOUBLES, *precision) == DOUBLES_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_doubles_as_gw_basic_prints_them(tmp_path):
    assert pcbasic_oracle.run(DOUBLES, folder=tmp_path) == DOUBLES_OUTPUT
