"""`--explain` names the dependence that keeps a loop on the host (issue 21): the kind
(flow, anti, output), the array, the pair of BASIC lines and accesses, the distance (or
direction) over the loops that would be the kernel's lanes, and the change to the BASIC
that removes it when one exists.  Each shape's suggested rewrite is checked too: the
rewritten loop becomes a kernel and agrees with the interpreter on both targets.

Oracle: the distances follow from the subscripts by hand (a read of `A(I, J - 1)` under
a write of `A(I, J)` is the flow distance (0, 1) over (I, J)); the rewrites by the
reference interpreter (`--check`)."""

from __future__ import annotations

import pytest

from tests.checking import interpreted_and_checked
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports.explain import explain


def _explain(program: str) -> str:
    analysis = driver.front_end(SourceFile("prog.bas", program), Options(std="ms"))
    return explain(analysis)


def loop_entry(explained: str, line: int) -> str:
    """The lines --explain prints for the FOR at BASIC line `line`."""
    out, taking = [], False
    for text in explained.splitlines()[1:]:
        if text.startswith("  line "):
            taking = text.split()[1] == str(line)
        if taking:
            out.append(text.strip())
    return "\n".join(out)


ANTI = """10 DIM A(20)
20 FOR I = 0 TO 20 : A(I) = I : NEXT I
30 FOR I = 0 TO 9
40 A(I) = A(I + 1) * 2
50 NEXT I
60 PRINT A(0); A(9); A(10)
"""

ANTI_REWRITTEN = """10 DIM A(20), A2(20)
20 FOR I = 0 TO 20 : A(I) = I : NEXT I
30 FOR I = 0 TO 9
40 A2(I) = A(I + 1) * 2
50 NEXT I
55 FOR I = 0 TO 9 : A(I) = A2(I) : NEXT I
60 PRINT A(0); A(9); A(10)
"""


def test_an_anti_dependence_suggests_a_second_array():
    entry = loop_entry(_explain(ANTI), 30)
    assert "-> host:" in entry
    assert (
        "anti dependence on A: line 40 reads A(I + 1), line 40 writes A(I) in another "
        "iteration; distance (I) = (1)" in entry
    ), entry
    assert "to run it on the GPU: write the new values into a second array (not A)" in entry


def test_the_second_array_runs_on_the_gpu(tmp_path):
    assert "-> GPU kernel" in loop_entry(_explain(ANTI_REWRITTEN), 30)
    rewritten = interpreted_and_checked(tmp_path, ANTI_REWRITTEN)
    assert rewritten == interpreted_and_checked(tmp_path, ANTI)


WAVEFRONT = """10 DIM B(12, 12)
20 FOR I = 0 TO 12 : FOR J = 0 TO 12 : B(I, J) = I + J : NEXT J : NEXT I
30 FOR I = 1 TO 10
40 FOR J = 1 TO 10
50 B(I, J) = B(I - 1, J + 1) * 0.5
60 NEXT J
70 NEXT I
80 PRINT B(5, 5); B(10, 1)
"""


def test_a_flow_dependence_names_its_distance_vector():
    entry = loop_entry(_explain(WAVEFRONT), 30)
    assert (
        "flow dependence on B: line 50 writes B(I, J), line 50 reads B(I - 1, J + 1) in "
        "another iteration; distance (I, J) = (1, -1)" in entry
    ), entry
    # No rewrite keeps the results: no advice (the J loop alone is a kernel).
    assert "to run it on the GPU" not in entry
    assert "-> GPU kernel" in loop_entry(_explain(WAVEFRONT), 40)


COLUMNS = """10 DIM A(12, 12)
20 FOR J = 2 TO 10
30 FOR I = 1 TO 10
40 A(I, J) = A(I, J - 1) * 0.5 + 1
50 NEXT I
60 NEXT J
70 PRINT A(3, 3); A(10, 10)
"""

COLUMNS_INTERCHANGED = """10 DIM A(12, 12)
20 FOR I = 1 TO 10
30 FOR J = 2 TO 10
40 A(I, J) = A(I, J - 1) * 0.5 + 1
50 NEXT J
60 NEXT I
70 PRINT A(3, 3); A(10, 10)
"""


def test_a_dependence_carried_by_the_outer_loop_suggests_an_interchange():
    entry = loop_entry(_explain(COLUMNS), 20)
    assert "distance (J, I) = (1, 0)" in entry, entry
    assert (
        "to run it on the GPU: interchange: no dependence on A crosses the iterations over I"
        in entry
    )
    assert "with FOR I outside FOR J" in entry


def test_the_interchanged_nest_is_a_kernel_over_the_outer_loop(tmp_path):
    assert "-> GPU kernel" in loop_entry(_explain(COLUMNS_INTERCHANGED), 20)
    rewritten = interpreted_and_checked(tmp_path, COLUMNS_INTERCHANGED)
    assert rewritten == interpreted_and_checked(tmp_path, COLUMNS)


OUTPUT = """10 DIM A(12, 12), V(12)
20 FOR I = 0 TO 12 : FOR J = 0 TO 12 : A(I, J) = I - J : NEXT J : NEXT I
30 FOR I = 1 TO 10
40 FOR J = 1 TO 10
50 V(J) = A(I, J) + 1
60 NEXT J
70 NEXT I
80 PRINT V(1); V(10)
"""


def test_an_output_dependence_names_the_loop_its_element_ignores():
    entry = loop_entry(_explain(OUTPUT), 30)
    assert (
        "output dependence on V: line 50 writes V(J), line 50 writes V(J) in another "
        "iteration; direction (I, J) = (+, 0)" in entry
    ), entry
    assert "give the element written a subscript in I" in entry


CARRIED_SCALAR = """10 DIM V(10), B(10)
20 FOR I = 1 TO 10 : V(I) = I : NEXT I
30 FOR I = 1 TO 10
40 B(I) = T
50 T = V(I) * 2
60 NEXT I
70 PRINT B(1); B(10)
"""


def test_a_carried_scalar_names_its_lines_and_suggests_an_array():
    entry = loop_entry(_explain(CARRIED_SCALAR), 30)
    assert (
        "flow dependence on the scalar T: line 40 reads T before any line sets it in the "
        "iteration, so it reads the value line 50 set in the iteration before" in entry
    ), entry
    assert (
        "the scalar T is carried: if each iteration needs its own value, make it an array element (T(I)"
        in entry
    )


FLOYD = """10 N = 6 : DIM D(6, 6)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : D(I, J) = ((I * 3 + J * 5) MOD 7) + 1 : NEXT J : NEXT I
30 FOR K = 0 TO N - 1
40 FOR I = 0 TO N - 1
50 FOR J = 0 TO N - 1
60 IF D(I, K) + D(K, J) < D(I, J) THEN D(I, J) = D(I, K) + D(K, J)
70 NEXT J
80 NEXT I
90 NEXT K
100 PRINT D(0, 5); D(5, 0)
"""


def test_floyd_warshall_names_the_read_of_column_k_across_steps():
    """Over (K, I, J) step K + 1 reads what step K wrote: the K loop stays on the host
    and names the dependence."""
    entry = loop_entry(_explain(FLOYD), 30)
    assert "flow dependence on D: line 60 writes D(I, J), line 60 reads D(I, K)" in entry, entry
    assert "direction (K, I, J) = (>= 0, 0, any)" in entry


def test_floyd_warshall_for_a_fixed_k_is_a_kernel_guarded_by_the_diagonal():
    """For a fixed K, column K (`D(I, K)`) could change only if D(I, K) + D(K, K) <
    D(I, K): never while D(K, K) >= 0, the test the kernel makes (passes/parallel/value_guards.py)."""
    entry = loop_entry(_explain(FLOYD), 40)
    assert "-> GPU kernel map_40 (map): elementwise map over I, J;" in entry, entry
    assert "the lanes are independent only while D(K, K) >= 0" in entry
    assert "dependence on" not in entry


@pytest.mark.parametrize(
    ("line", "vector"), [(40, "direction (I, J) = (0, +)"), (50, "direction (J) = (+)")]
)
def test_floyd_warshall_with_a_weak_comparison_names_the_read_of_column_k(line, vector):
    """With `<=`, iteration (I, K) writes D(I, K) + D(K, K) where it equals D(I, K) (D(K, K)
    = 0): no guard makes the write impossible, BASIC's order decides which value
    iteration (I, J) reads, and --explain names the dependence."""
    entry = loop_entry(_explain(FLOYD.replace(") < D(", ") <= D(")), line)
    assert "flow dependence on D: line 60 writes D(I, J), line 60 reads D(I, K)" in entry, entry
    assert vector in entry


def test_a_parallel_loop_has_no_dependence_line():
    explained = _explain(COLUMNS_INTERCHANGED)
    assert "dependence on" not in explained
