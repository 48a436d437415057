"""Floyd-Warshall's I and J loops for a fixed K are a kernel guarded by D(K, K) >= 0
(passes/parallel/value_guards.py): row and column K do not change in step K while the guard holds
(iteration (I, K) would need D(I, K) + D(K, K) < D(I, K)); each block of the kernel tests
it before its first store, and a step where it fails (a negative cycle, a NaN on the
diagonal) runs on the host as BASIC runs it.

Each program, written in its own style, is checked on both targets (the cuTile host on
the CPU, the CUDA C++ through g++), with the default tile and with `--tile 4` (many blocks,
partial tiles), and --explain must show the I, J nest as a kernel with the guard.

Oracle: PC-BASIC (GW-BASIC 3.23, tests/pcbasic_oracle.py) printed the expected text of the
Microsoft BASIC programs (RND's sequence included); the NaN program is in the extended
dialect (GW-BASIC has no NaN), its text is the reference interpreter's, whose shortest
paths can be checked by hand (a NaN compares false: no path goes through D(3, 3), and no
D(I, 3) + D(3, J) is NaN)."""

from __future__ import annotations

import re

import pytest

from tests.test_explain_dependence import loop_entry
from tests.test_ms_crosscut import basic2tile, interpreted_and_checked
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports.explain import explain

# Every program's steps K (0-based): the nest of the kernel, as PolyBench writes it.
SHORTEST_PATHS = """\
100 FOR K = 0 TO N - 1
110 FOR I = 0 TO N - 1
120 FOR J = 0 TO N - 1
130 IF D(I, K) + D(K, J) < D(I, J) THEN D(I, J) = D(I, K) + D(K, J)
140 NEXT J
150 NEXT I
160 NEXT K
"""
PRINT_D = "200 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : PRINT D(I, J); : NEXT J : PRINT : NEXT I\n"

# IF ... THEN D(I, J) = ..., 0-based.
IF_THEN = """\
10 N = 9 : DIM D(8, 8)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
30 D(I, J) = 99 : IF (J - I + N) MOD N = 1 OR (I * 4 + J) MOD N = 0 THEN D(I, J) = ((I + 2 * J) MOD 7) + 1
40 NEXT J : D(I, I) = 0 : NEXT I
""" + SHORTEST_PATHS + PRINT_D
IF_THEN_OUTPUT = """\
 0  3  9  11  16  8  12  14  17 
 16  0  6  8  13  5  9  11  14 
 16  5  0  2  7  8  4  11  14 
 14  12  7  0  5  6  2  9  12 
 12  7  2  4  0  1  5  7  10 
 11  14  14  10  12  0  4  6  9 
 12  15  13  6  11  12  0  7  10 
 5  8  8  10  6  7  11  0  3 
 2  5  5  7  3  4  8  10  0 
"""

# The sum in a temporary, compared the other way round (`D(I, J) > T`).
TEMPORARY = """\
10 N = 8 : DIM D(7, 7)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
30 D(I, J) = 1000 : IF J = (I + 1) MOD N OR J = (I * 3) MOD N THEN D(I, J) = (I * J) MOD 5 + 2
40 NEXT J : D(I, I) = 0 : NEXT I
100 FOR K = 0 TO N - 1
110 FOR I = 0 TO N - 1
120 FOR J = 0 TO N - 1
130 T = D(I, K) + D(K, J)
140 IF D(I, J) > T THEN D(I, J) = T
150 NEXT J
160 NEXT I
170 NEXT K
200 S = 0 : FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : S = S + D(I, J) * (I + 2 * J) : NEXT J : NEXT I
210 PRINT "SUM"; S; D(0, 7); D(7, 0)
"""
TEMPORARY_OUTPUT = """\
SUM 4073  14  2 
"""

# OPTION BASE 1, FOR K = 1 TO N.
BASE_1 = """\
10 OPTION BASE 1
20 N = 7 : DIM D(7, 7)
30 FOR I = 1 TO N : FOR J = 1 TO N : D(I, J) = 500 : NEXT J : NEXT I
40 FOR I = 1 TO N : D(I, I) = 0 : D(I, (I MOD N) + 1) = I + 1 : D((I MOD N) + 1, I) = 2 * I : NEXT I
100 FOR K = 1 TO N
110 FOR I = 1 TO N
120 FOR J = 1 TO N
130 IF D(I, K) + D(K, J) < D(I, J) THEN D(I, J) = D(I, K) + D(K, J)
140 NEXT J
150 NEXT I
160 NEXT K
200 FOR I = 1 TO N : FOR J = 1 TO N : PRINT D(I, J); : NEXT J : PRINT : NEXT I
"""
BASE_1_OUTPUT = """\
 0  2  5  9  14  20  14 
 2  0  3  7  12  18  16 
 6  4  0  4  9  15  20 
 12  10  6  0  5  11  18 
 20  18  14  8  0  6  13 
 15  17  20  18  10  0  7 
 8  10  13  17  22  12  0 
"""

# DEFINT I-N: integer loop variables (K% is the guard's subscript).
DEFINT = """\
10 DEFINT I-N
20 N = 8 : DIM D(7, 7)
30 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : D(I, J) = 9999 : NEXT J : NEXT I
40 FOR I = 0 TO N - 1 : D(I, I) = 0 : D(I, (I + 3) MOD N) = 4 + I MOD 3 : D(I, (I + 1) MOD N) = 7 : NEXT I
""" + SHORTEST_PATHS + PRINT_D
DEFINT_OUTPUT = """\
 0  7  14  4  11  18  8  15 
 17  0  7  14  5  12  18  10 
 12  15  0  7  14  6  11  18 
 18  8  15  0  7  14  4  11 
 12  18  10  16  0  7  14  5 
 6  11  18  10  16  0  7  14 
 14  4  11  18  9  16  0  7 
 7  14  5  11  18  11  15  0 
"""

# A negative cycle (0 -> 1 -> 2 -> 0 weighs -1): once a D(K, K) < 0 the steps
# run on the host, as BASIC runs them.
NEGATIVE_CYCLE = """\
10 N = 6 : DIM D(5, 5)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : D(I, J) = 100 : NEXT J : D(I, I) = 0 : NEXT I
30 D(0, 1) = 3 : D(1, 2) = -4 : D(2, 0) = 0 : D(2, 3) = 2 : D(3, 4) = 1 : D(4, 5) = -2 : D(5, 3) = 5
""" + SHORTEST_PATHS + PRINT_D
NEGATIVE_CYCLE_OUTPUT = """\
-1  2 -2  0  1 -1 
-4 -1 -5 -3 -2 -4 
-1  2 -2  0  1 -1 
 94  97  93  0  1 -1 
 93  96  92  3  0 -2 
 95  98  94  5  6  0 
"""

# A random graph (RND's sequence), NaN-free.
RANDOM_GRAPH = """\
10 N = 12 : DIM D(11, 11)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
30 D(I, J) = 1E+06 : IF RND(1) < .5 THEN D(I, J) = INT(RND(1) * 50) + 1
40 NEXT J : D(I, I) = 0 : NEXT I
""" + SHORTEST_PATHS + """\
200 S = 0 : FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : S = S + D(I, J) : NEXT J : NEXT I
210 PRINT "TOTAL"; S : PRINT D(0, 11); D(11, 0); D(5, 6)
"""
RANDOM_GRAPH_OUTPUT = """\
TOTAL 3380 
 24  40  27 
"""

# The extended dialect: INF - INF is a NaN, which lands on the diagonal.
NAN_DIAGONAL = """\
10 N = 6 : DIM D(5, 5)
20 FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1 : D(I, J) = ABS(I - J) * 2 + 1 : NEXT J : D(I, I) = 0 : NEXT I
30 X = 1E300 * 1E300 : D(3, 3) = X - X
40 D(0, 5) = 1 : D(5, 2) = 1
""" + SHORTEST_PATHS + PRINT_D
NAN_DIAGONAL_OUTPUT = """\
 0  3  2  5  4  1 
 3  0  3  5  7  4 
 5  3  0  3  5  6 
 7  5  3  NAN  3  5 
 9  7  4  3  0  3 
 6  4  1  4  3  0 
"""
# The J loop outside the I loop: lanes (J, I), the same shortest paths.
COLUMNS_FIRST = (
    IF_THEN.replace("110 FOR I", "110 FOR J")
    .replace("120 FOR J", "120 FOR I")
    .replace("140 NEXT J", "140 NEXT I")
    .replace("150 NEXT I", "150 NEXT J")
)
MICROSOFT = {
    "if_then": (IF_THEN, IF_THEN_OUTPUT),
    "columns_first": (COLUMNS_FIRST, IF_THEN_OUTPUT),
    "temporary": (TEMPORARY, TEMPORARY_OUTPUT),
    "base_1": (BASE_1, BASE_1_OUTPUT),
    "defint": (DEFINT, DEFINT_OUTPUT),
    "negative_cycle": (NEGATIVE_CYCLE, NEGATIVE_CYCLE_OUTPUT),
    "random_graph": (RANDOM_GRAPH, RANDOM_GRAPH_OUTPUT),
}
PROGRAMS = {
    **{name: (text, output, "ms") for name, (text, output) in MICROSOFT.items()},
    "nan_diagonal": (NAN_DIAGONAL, NAN_DIAGONAL_OUTPUT, None),
}


def _explain(program: str, std: str | None) -> str:
    options = Options(std=std) if std else Options()
    return explain(driver.front_end(SourceFile("prog.bas", program), options))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_i_and_j_loops_are_a_kernel_guarded_by_the_diagonal(name):
    text, _, std = PROGRAMS[name]
    explained = _explain(text, std)
    entry = loop_entry(explained, 110)
    lanes = "J, I" if name == "columns_first" else "I%?, J%?"
    assert re.search(rf"-> GPU kernel map_110 \(map\): elementwise map over {lanes};", entry), entry
    assert re.search(r"the lanes are independent only while D\(K%?, K%?\) >= 0", entry), entry
    # Over (K, I, J) step K + 1 reads what step K wrote: the K loop stays on the host.
    assert "flow dependence on D" in loop_entry(explained, 100)


@pytest.mark.slow
@pytest.mark.parametrize("tile", [(), ("--tile", "4")], ids=["default", "tile4"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_both_targets_agree_with_the_interpreter(tmp_path, name, tile):
    text, output, std = PROGRAMS[name]
    assert interpreted_and_checked(tmp_path, text, *tile, dialect=std) == output


def test_the_kernel_tests_the_guard_before_it_stores(tmp_path):
    """A block where D(K, K) >= 0 fails must not write D: its lanes would race (the
    tile simulator reports it) and the host's replay starts from the saved array."""
    done = basic2tile(tmp_path, IF_THEN, "--target", "cutile", "-o", "prog.py", dialect="ms")
    assert done.returncode == 0, done.stderr
    kernel = (tmp_path / "prog.py").read_text()
    kernel = kernel[kernel.index("def map_110") :]
    guard = kernel.index("independent = ")
    assert "ct.gather(d, (d_k_k_at0, d_k_k_at1))" in kernel[:guard]
    assert "valid = valid & independent" in kernel[guard : kernel.index("ct.scatter(")]


def test_the_self_comparison_may_be_one_side_of_an_and():
    """`IF I <> J AND D(I, K) + D(K, J) < D(I, J)`: false where its second side is."""
    text = IF_THEN.replace("130 IF D(I, K)", "130 IF I <> J AND D(I, K)")
    entry = loop_entry(_explain(text, "ms"), 110)
    assert "the lanes are independent only while D(K, K) >= 0" in entry, entry


# Near misses: the write's condition is no self-comparison that a guard makes false.
NEAR_MISSES = {
    # `<=`: D(I, K) + 0 <= D(I, K) holds; BASIC's order decides what (I, J) reads.
    "weak": "130 IF D(I, K) + D(K, J) <= D(I, J) THEN D(I, J) = D(I, K) + D(K, J)",
    # Iteration (J, J)'s guard would be D(J, K) >= 0: not one test for the launch.
    "lane_guard": "130 IF D(I, K) + D(J, J) < D(I, J) THEN D(I, J) = D(I, K) + D(K, J)",
    # T% rounds: T% = D(I, K) + 0 may be below D(I, K).
    "rounding": "130 T% = D(I, K) + D(K, J) : IF T% < D(I, J) THEN D(I, J) = T%",
    "product": "130 IF D(I, K) * D(K, J) < D(I, J) THEN D(I, J) = D(I, K) * D(K, J)",
    # E(I, K) + D(K, K) < E(I, K) compares two values of E(I, K): the lane changes it
    # between the reads, and the comparison holds where D(K, K) < 5.
    "changed_between": "130 T = E(I, J) + D(K, K) : E(I, J) = E(I, J) + 5 : "
    "IF T < E(I, J) THEN D(I, J) = D(I, K) + D(K, J)",
}


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_a_condition_no_guard_falsifies_stays_on_the_host(name):
    text = re.sub(r"^130 .*$", NEAR_MISSES[name], IF_THEN, flags=re.MULTILINE)
    entry = loop_entry(_explain(text, "ms"), 110)
    assert re.search(r"-> host: loop-carried dependence: D\(.*\) reads an element of D", entry), (
        entry
    )
    assert "flow dependence on D: line 130 writes D(I, J)" in entry
