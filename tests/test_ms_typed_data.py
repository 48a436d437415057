"""Microsoft BASIC: a number READ from DATA or typed at INPUT has the type its text would
have as a constant (a single unless a `D` exponent, a `#` or more than 7 significant
digits make it a double), also when the variable is a double: `DATA 1E-30` READ into
`X#` is the single 1E-30, 1.000000003171077D-30.  VAL has always read text this way
(stringfns.val_is_double); READ and INPUT read it as a full double before.

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py); the texts below are
what it printed, so the tests keep their teeth without it.  Every program also runs
through the interpreter and both generated targets (cuTile Python, CUDA C++ on the CPU).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import pcbasic_oracle
from tests.checking import TARGETS, interpreted_and_checked

READ_TYPED = """\
10 FOR I = 1 TO 9: READ X#: PRINT X#: NEXT
20 READ Y: PRINT Y
30 DATA 1E-30, 0.1, 1.23456789, 1D-30, 0.1#, 0.1!, 12345678, 0.10000000, &H10
40 DATA 1.23456789
50 READ X#: PRINT X#: DATA 1E39
"""
READ_TYPED_OUTPUT = """\
 1.000000003171077D-30 
 .1000000014901161 
 1.23456789 
 1D-30 
 .1 
 .1000000014901161 
 12345678 
 .1000000014901161 
 16 
 1.234568 
Overflow
 1.701411733192644D+38 
"""

INPUT_TYPED = """\
10 INPUT X#: PRINT X#
20 INPUT Y#: PRINT Y#
30 INPUT Z#, W#: PRINT Z#; W#
"""
INPUT_LINES = ["1E-30", "0.1", "1.23456789, 0.1#"]
# PC-BASIC echoes each reply after "? "; our console does not echo stdin.
INPUT_TYPED_OUTPUT = """\
?  1.000000003171077D-30 
?  .1000000014901161 
?  1.23456789  .1 
"""


def test_read_gives_a_datum_the_type_of_its_constant(tmp_path):
    assert interpreted_and_checked(tmp_path, READ_TYPED) == READ_TYPED_OUTPUT


@pytest.mark.parametrize("how", ["--interpret", *TARGETS])
def test_input_gives_a_reply_the_type_of_its_constant(tmp_path, how):
    (tmp_path / "prog.bas").write_text(INPUT_TYPED)
    options = [how] if how == "--interpret" else ["--run", "--device", "cpu", "--target", how]
    done = subprocess.run(
        [sys.executable, "-m", "transpiler", "prog.bas", "--dialect", "ms", *options],
        cwd=tmp_path,
        input="\n".join(INPUT_LINES) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == INPUT_TYPED_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_read_as_gw_basic_reads(tmp_path: Path):
    assert pcbasic_oracle.run(READ_TYPED) == READ_TYPED_OUTPUT


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_input_as_gw_basic_reads():
    printed = pcbasic_oracle.pcbasic_output(INPUT_TYPED, INPUT_LINES)
    # PC-BASIC echoes each reply after the prompt: without the echo, the lines are ours
    for line in INPUT_LINES:
        printed = printed.replace(f"? {line}\n", "? ")
    assert printed == INPUT_TYPED_OUTPUT
