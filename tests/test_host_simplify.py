"""The host passes (`hostcode/simplify.py`) optimise the host IR once, so both
printers print their result: the C++ program gets what only the Python printer did
(constant conditions decided, dead stores dropped, IF as max/min).

Each program also runs through the interpreter and both targets (`--check`), which must
agree; the expected output is the interpreter's (these are plain ECMA-55/extended
programs: no oracle beyond the reference interpreter is needed).
"""

from __future__ import annotations

from tests.checking import interpreted_and_checked
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.hostcode.simplify import simplify
from transpiler.ir import hostir
from transpiler.options import Options


def host_of(text: str, options: Options = Options()) -> hostir.HostProgram:
    analysis = driver.front_end(SourceFile("prog.bas", text), options)
    return driver.host_program(analysis, offload=False)


def both(text: str) -> tuple[str, str]:
    python = driver.generate_host(host_of(text), "cutile")
    return python, driver.generate_host(host_of(text), "cuda")


def code(text: str) -> str:
    """The lines of generated code that are not comments."""
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if not line.startswith(("#", "//")))


CONSTANT_IF = """\
10 A = 2
20 IF 1 = 2 THEN PRINT "NEVER"
30 IF "A" < "B" THEN PRINT "ALWAYS" ELSE PRINT "NOT"
40 PRINT A
"""


def test_constant_conditions_are_decided_for_both_targets():
    python, cpp = both(CONSTANT_IF)
    for text in (code(python), code(cpp)):
        assert "NEVER" not in text and '"NOT"' not in text and "'NOT'" not in text
        assert "ALWAYS" in text
    assert "// 20 IF 1 = 2" in cpp and "# 20 IF 1 = 2" in python  # the comment stays


def test_constant_conditions_run_alike(tmp_path):
    assert interpreted_and_checked(tmp_path, CONSTANT_IF, dialect=None) == "ALWAYS\n 2 \n"


DEAD_STORE = """\
10 DIM A(3)
20 X = 5
30 Y = A(5)
40 PRINT "DONE"
"""


def test_a_store_nothing_reads_keeps_only_its_effects():
    """X is never read: its assignment goes; Y's value can fail (A(5) is out of range):
    it is evaluated for that alone."""
    python, cpp = both(DEAD_STORE)
    assert "x = 5" not in code(python) and "x = 5" not in code(cpp)
    assert "_ = a[5]" in python
    assert "static_cast<void>(a(5));" in cpp


MIN_MAX = """\
10 DIM X(4)
20 FOR I = 1 TO 4: READ X(I): NEXT I
30 S = X(1): L = X(1)
40 FOR I = 2 TO 4
50 IF X(I) < S THEN S = X(I)
60 IF X(I) > L THEN L = X(I)
70 IF X(I) >= 3 THEN M = X(I)
80 NEXT I
90 PRINT S; L; M
100 DATA 3, -1, 7, 2
"""


def test_if_as_max_and_min_in_both_targets():
    python, cpp = both(MIN_MAX)
    assert "s = min(s, x[i])" in python and "l = max(l, x[i])" in python
    assert "s = std::min(s, x(i));" in cpp and "l = std::max(l, x(i));" in cpp


def test_max_and_min_run_alike(tmp_path):
    assert interpreted_and_checked(tmp_path, MIN_MAX, dialect=None) == "-1  7  7 \n"


def test_simplifying_twice_changes_nothing():
    host = host_of(MIN_MAX + "110 IF 1 = 1 THEN PRINT 1\n")
    simplify(host)
    first = [type(n).__name__ for n in hostir.walk(host.body)]
    simplify(host)
    assert [type(n).__name__ for n in hostir.walk(host.body)] == first
    assert "MinMax" in first and "Mark" in first


SUBSCRIPTS = """\
10 DIM X(10)
20 DEF FNA(Z) = X(3) + Z
30 FOR I = 1 TO 10
40 X(I) = I
50 NEXT I
60 J = 11
70 PRINT X(5); FNA(1); X(J)
"""


def test_subscripts_in_range_are_found_once_for_both_printers():
    """X(I) inside FOR I = 1 TO 10 and the constants X(5) and X(3) (in a DEF FN body too)
    are in range; X(J) is not."""
    host = host_of(SUBSCRIPTS)
    simplify(host)
    safe = {
        f"{e.name}({e.indices[0].name if hasattr(e.indices[0], 'name') else int(e.indices[0].value)})@{e.coord.line}"
        for e in host.safe_elements
    }
    assert safe == {"X(3)@2", "X(I)@4", "X(5)@7"}


NESTED_IF = """\
10 DIM X(3)
20 A = 2: B = 0: C = 0
30 IF A > 1 OR B > 2 THEN IF C > 3 THEN PRINT "WRONG"
40 IF A > 1 THEN IF X(A) > 0 THEN PRINT "NEVER"
50 PRINT "DONE"
"""


def test_nested_ifs_merge_in_both_targets_with_their_precedence():
    """`IF a OR b THEN IF c` is `(a or b) and c`: the merged Python test was
    `a > 1.0 or b > 2.0 and c > 3.0`, which printed WRONG."""
    python, cpp = both(NESTED_IF)
    assert "if (a > 1.0 or b > 2.0) and c > 3.0:" in python
    assert "if ((a > 1.0 || b > 2.0) && c > 3.0)" in cpp
    assert "if a > 1.0 and x[a] > 0.0:" in python


def test_nested_ifs_run_alike(tmp_path):
    assert interpreted_and_checked(tmp_path, NESTED_IF, dialect=None) == "DONE\n"
