"""A plain RESTORE on a numbered line (the Ahl games' `200 RESTORE`): QuickBASIC's
`RESTORE Label` once kept its label in the field that holds every statement's line
number, so each numbered RESTORE became a RESTORE to a label named by its own number.
Expected output: what ECMA-55 and every Microsoft BASIC print (the data read again)."""

from __future__ import annotations

import pytest

from tests.checking import interpreted_and_checked

PROGRAM = """\
10 READ A: PRINT A
20 RESTORE
30 READ B: PRINT B
40 DATA 5, 6
"""


@pytest.mark.parametrize("dialect", ["ms", None])
def test_plain_restore_on_a_numbered_line(tmp_path, dialect):
    assert interpreted_and_checked(tmp_path, PROGRAM, dialect=dialect) == " 5 \n 5 \n"
