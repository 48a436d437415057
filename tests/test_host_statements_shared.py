"""The host statement printer shared by both targets (backends/host_statements.py).

What the targets used to decide apart and now decide once: the error for a statement a
printer lacks, and the shape of a case of ON ... GOSUB in the dispatch loop.  The
behaviour of the programs is checked elsewhere (tests/test_ms_flow.py runs this ON
GOSUB program through the interpreter and both targets); these tests pin the printer.
"""

from __future__ import annotations

import pytest

from tests.checking import interpreted_and_checked
from transpiler import driver
from transpiler.backends.host_statements import HostStatements
from transpiler.errors import BasicUnsupportedError, SourceFile
from transpiler.options import Options


def _generated(text: str, target: str, std: str | None = "ms") -> str:
    analysis = driver.front_end(SourceFile.decode("p.bas", text.encode()), Options(std=std))
    return driver.generate(analysis, target)


@pytest.mark.parametrize(("target", "backend"), [("cutile", "cuTile Python"), ("cuda", "CUDA C++")])
def test_a_statement_a_printer_lacks_is_a_located_error(monkeypatch, target, backend):
    """Both targets say which statement, where, and which back end (the Python printer
    raised a bare NotImplementedError)."""
    monkeypatch.delattr(HostStatements, "s_RaiseError")  # (KILL is a runtime call: no s_Kill)
    with pytest.raises(BasicUnsupportedError) as caught:
        _generated('10 PRINT "A"\n20 ERROR 5\n30 END\n', target)
    message = f"RaiseError statements are not supported by the {backend} backend yet"
    assert caught.value.message == message
    assert caught.value.coord.line == 2


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_a_runtime_statement_is_printed_from_its_row(target):
    """KILL and NAME have no printer method: statement_facts names the runtime function,
    and their operands are its arguments, in order."""
    code = _generated('10 KILL "A.DAT"\n20 NAME "B" AS "C"\n', target)
    prefix = "b2t::" if target == "cuda" else ""
    assert f'{prefix}kill_file("A.DAT")' in code
    assert f'{prefix}rename_file("B", "C")' in code


ON_GOSUB = """\
10 ON 2 GOSUB 200,210
20 ON 3 GOSUB 200,210
30 ON -1 GOTO 10
200 PRINT "S200";: RETURN
210 PRINT "S210";: RETURN
"""


@pytest.mark.parametrize(
    ("target", "push", "jumps"),
    [
        ("cutile", 'returns.append("20")', ['label = "200"', 'label = "210"']),
        ("cuda", "returns.push(L20);", ["label = L200;", "label = L210;"]),
    ],
)
def test_a_case_of_on_gosub_pushes_then_jumps_as_gosub_does(target, push, jumps):
    """Each case is a GOSUB's code: the push, then the jump (C++ set the label first)."""
    lines = [line.strip() for line in _generated(ON_GOSUB, target).splitlines()]
    after_push = [lines[n + 1] for n, line in enumerate(lines) if line == push]
    assert after_push == jumps


def test_for_i_equals_i_assigns_nothing():
    """FOR I = I TO ... starts at I's value: C++ no longer writes `i = i` (Python never
    did; a `%` or single-precision I still gets its conversion)."""
    code = _generated("10 I = 2\n20 FOR I = I TO 4: PRINT I;: NEXT I\n", "cuda", None)
    assert "i = i" not in code


# PC-BASIC (GW-BASIC 3.23) printed this; the error trap's locals used to be C++'s fixed
# `trap` and `resume_next`, which hid the BASIC variables TRAP and RESUME.NEXT (the
# program did not compile).  Now both targets name them beside the BASIC variables.
TRAP_NAMES = """\
10 ON ERROR GOTO 100
20 TRAP = 5: RESUME.NEXT = 7: LABEL = 9: REPLY = 2: CHANNEL = 3
30 PRINT TRAP; RESUME.NEXT; LABEL; REPLY; CHANNEL
40 ERROR 5
50 PRINT "END"
60 END
100 PRINT "E"; ERR; ERL
110 RESUME NEXT
"""


def test_the_error_trap_s_locals_leave_basic_variables_of_their_names_alone(tmp_path):
    printed = interpreted_and_checked(tmp_path, TRAP_NAMES)
    assert printed == " 5  7  9  2  3 \nE 5  40 \nEND\n"
