"""Loops that become kernels since the offload classes of PolyBench-style code (row
writes, triangular nests...), each with a near miss that must stay on the host, and each
program checked against the interpreter on both targets with small tiles."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options


def decisions(text: str) -> dict[int, object]:
    analysis = driver.front_end(SourceFile("prog.bas", text), Options())
    out = {}
    for d in driver.host_program(analysis).decisions:
        out.setdefault(d.label, d)
    return out


def check(tmp_path: Path, text: str) -> None:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for target in ("cutile", "cuda"):
        command = [sys.executable, "-m", "transpiler", str(path), "--check", "--device", "cpu"]
        command += ["--target", target, "--tile", "4"]
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{target}: {result.stdout}{result.stderr}"


ROWS = """10 DIM C(5,6), E(3,7)
20 FOR I = 0 TO 5
30 FOR J = 0 TO 6
40 LET C(I,J) = I + J / 7
50 NEXT J
60 NEXT I
70 FOR I = 0 TO 5
80 FOR J = 0 TO 6 STEP 2
90 LET C(I,J) = C(I,J) * 1.5 + I
100 NEXT J
110 FOR J = 1 TO 6
120 LET E(0,J) = C(I,J-1) + E(0,J)
130 NEXT J
140 NEXT I
150 FOR I = 0 TO 5
160 FOR J = 0 TO 6
170 PRINT C(I,J);
180 NEXT J
190 PRINT
200 NEXT I
210 PRINT E(0,3)
"""


def test_a_row_of_a_matrix_and_a_constant_row_are_the_lanes_own_elements(tmp_path):
    found = decisions(ROWS)
    assert found[80].offloaded and found[110].offloaded, (found[80].reason, found[110].reason)
    check(tmp_path, ROWS)


@pytest.mark.parametrize(
    "body, line, why",
    [
        # Every I writes the same row (the J loop alone is parallel, the nest is not).
        (
            "FOR I = 0 TO 3 : FOR J = 0 TO 3 : LET E(0,J) = I + J : NEXT J : NEXT I",
            20,
            "not the loop's own",
        ),
        # E(J, J) does not hold I: iterations of the nest write the same element.
        (
            "FOR I = 0 TO 3 : FOR J = 0 TO 3 : LET E(J,J) = I * J : NEXT J : NEXT I",
            20,
            "not the loop's own",
        ),
    ],
)
def test_near_misses_of_row_writes_stay_on_the_host(body, line, why):
    lines = body.split(" : ")
    text = (
        "10 DIM E(5,5)\n"
        + "".join(f"{20 + 10 * k} {s}\n" for k, s in enumerate(lines))
        + "900 PRINT E(1,1)\n"
    )
    found = decisions(text)[line]
    assert not found.offloaded and why in found.reason, found.reason


TRIANGLE = """10 DIM C(6,6)
20 FOR I = 0 TO 6
30 FOR J = I + 1 TO 6
40 LET C(I,J) = I * 10 + J
50 NEXT J
60 FOR J = 0 TO I
70 LET C(I,J) = C(I,J) - I
80 NEXT J
90 NEXT I
100 FOR I = 0 TO 6
110 FOR J = 0 TO 6
120 PRINT C(I,J);
130 NEXT J
140 PRINT
150 NEXT I
"""


def test_a_triangular_inner_loop_is_a_kernel_per_outer_iteration(tmp_path):
    # Distributed: a triangle of (I, J) lanes for each inner loop (lanes outside it masked).
    found = decisions(TRIANGLE)
    assert "over I, J (FOR lines 20, 30);" in found[20].reason, found[20].reason
    check(tmp_path, TRIANGLE)
    # A PRINT keeps the outer loop on the host: a kernel per triangle and outer iteration.
    printed = TRIANGLE.replace("90 NEXT I", "85 PRINT I;\n90 NEXT I")
    found = decisions(printed)
    assert not found[20].offloaded
    assert found[30].offloaded and found[60].offloaded, (found[30].reason, found[60].reason)
    check(tmp_path, printed)


@pytest.mark.parametrize(
    "outer, start",
    [
        ("FOR I = 0 TO 6", "S"),  # S may hold any number: lanes need integers
        ("FOR I = 0 TO 6", "I + 0.5"),
        ("FOR I = 0.5 TO 6", "I"),  # the outer variable is not an integer
        ("FOR I = 0 TO 6 STEP 0.5", "I"),
    ],
)
def test_starts_that_are_not_integers_of_enclosing_loops_stay_on_the_host(outer, start):
    # (The PRINT keeps the outer loop on the host, whose lanes would own rows of C.)
    text = f"10 DIM C(6,6)\n15 LET S = 1.5\n20 {outer}\n30 FOR J = {start} TO 6\n40 LET C(I,J) = J\n50 NEXT J\n55 PRINT I\n60 NEXT I\n70 PRINT C(1,2)\n"
    found = decisions(text)
    assert not found[30].offloaded and "start" in found[30].reason, found[30].reason


def test_an_outer_variable_the_body_changes_is_not_a_start():
    text = (
        "10 DIM C(6,6)\n20 FOR I = 0 TO 6\n30 FOR J = I TO 6\n40 LET C(I,J) = J\n50 NEXT J\n"
        "55 LET I = I + 0.5\n60 NEXT I\n70 PRINT C(1,2)\n"
    )
    found = decisions(text)
    assert not found[30].offloaded and "start" in found[30].reason, found[30].reason


SUMS = """10 DIM X(20), Y(20)
20 FOR I = 1 TO 20
30 LET X(I) = I / 3
40 LET Y(I) = 1 / I
50 NEXT I
60 FOR I = 1 TO 20
70 LET C = C + X(I) + Y(I)
80 LET E = X(I) - Y(I) + E
90 NEXT I
100 PRINT C, E
"""


def test_a_sum_of_several_terms_is_a_reduction(tmp_path):
    found = decisions(SUMS)
    assert found[60].offloaded and found[60].kind == "reduce", found[60].reason
    check(tmp_path, SUMS)


def test_a_subtracted_accumulator_is_not_a_sum():
    # D = X(I) - D - Y(I) flips D's sign each iteration: not a reduction.
    text = SUMS.replace("80 LET E = X(I) - Y(I) + E", "80 LET E = X(I) - E - Y(I)")
    found = decisions(text)
    assert not found[60].offloaded and "E keeps its value" in found[60].reason, found[60].reason


def test_explain_names_the_goto_not_an_internal_node():
    text = (
        "10 DIM A(10)\n20 FOR I = 1 TO 10\n30 LET K = 0\n40 IF K > 3 THEN 90\n50 LET K = K + 1\n"
        "60 IF K = 2 THEN 40\n70 LET A(I) = A(I) + K\n80 GOTO 50\n90 NEXT I\n100 PRINT A(1)\n"
    )
    found = decisions(text)[20]
    assert not found.offloaded
    assert found.reason == "GOTOs inside the loop that form neither an IF nor a loop, line 40"


# trmm's shape: the loop over J writes B(I, J) and reads B(K, J), its own column, which
# no other lane writes.  K runs over I too (line 60): there the lane reads the element it
# is updating, which the kernel holds until the end.
OWN_COLUMN = """10 DIM A(5,5), B(5,7)
20 FOR I = 0 TO 5 : FOR J = 0 TO 5 : LET A(I,J) = (I + 2 * J) / 9 : NEXT J : NEXT I
30 FOR I = 0 TO 5 : FOR J = 0 TO 7 : LET B(I,J) = I - J / 4 : NEXT J : NEXT I
40 FOR I = 0 TO 5
50 FOR J = 0 TO 7
60 FOR K = 0 TO 5
70 LET B(I,J) = B(I,J) + A(K,I) * B(K,J)
80 NEXT K
90 LET B(I,J) = B(I,J) / (B(I,J) - 1)
100 NEXT J
110 NEXT I
120 FOR I = 0 TO 5 : PRINT B(I,0); B(I,3); B(I,7) : NEXT I
"""


def test_reads_of_the_lanes_own_column_are_not_a_dependence(tmp_path):
    found = decisions(OWN_COLUMN)
    assert not found[40].offloaded
    assert found[50].offloaded, found[50].reason
    check(tmp_path, OWN_COLUMN)


def test_reads_outside_the_lanes_own_column_stay_on_the_host():
    text = OWN_COLUMN.replace("A(K,I) * B(K,J)", "A(K,I) * B(K,J+1)")  # the next lane's column
    found = decisions(text)
    assert not found[50].offloaded and "reads an element of B" in found[50].reason, found[50].reason


def test_reads_of_row_i_make_the_outer_loop_the_kernel(tmp_path):
    # B(I, K): other J lanes' elements, but only the I loop's own row: lanes of I.
    text = OWN_COLUMN.replace("A(K,I) * B(K,J)", "A(K,I) * B(I,K)")
    found = decisions(text)
    assert found[40].offloaded and "over I;" in found[40].reason, found[40].reason
    check(tmp_path, text)


# An inner FOR whose bounds depend on the lane (FOR J = I TO 6, FOR K = J TO I + 2):
# a loop as long as the longest lane's, under a mask.  Some lanes run it zero times (J
# keeps its start: ECMA-55; Microsoft adds the step once), some divide by zero at K = 5
# (their blocks are replayed on the host, which warns in order).
LANE_BOUNDS = """10 DIM B(12), D(12)
20 FOR I = 1 TO 12
30 LET S = 0
40 FOR J = I TO 6
50 FOR K = J TO I + 2
60 LET S = S + 1 / (K - 5) + J
70 NEXT K
80 NEXT J
90 LET B(I) = S
100 LET D(I) = J * 100
110 NEXT I
120 FOR I = 1 TO 12 : PRINT B(I); D(I) : NEXT I
"""


@pytest.mark.parametrize("dialect", [[], ["--dialect", "ms"]])
def test_inner_loops_with_the_lanes_own_bounds_are_masked(tmp_path, dialect):
    found = decisions(LANE_BOUNDS)
    assert found[20].offloaded, found[20].reason
    path = tmp_path / "prog.bas"
    path.write_text(LANE_BOUNDS)
    for target in ("cutile", "cuda"):
        command = [sys.executable, "-m", "transpiler", str(path), "--check", "--device", "cpu"]
        command += ["--target", target, "--tile", "4", *dialect]
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0 and "check passed" in result.stdout, (
            result.stdout + result.stderr
        )


def test_an_inner_step_that_differs_between_lanes_stays_on_the_host():
    text = LANE_BOUNDS.replace("50 FOR K = J TO I + 2", "50 FOR K = J TO 9 STEP I")
    found = decisions(text)
    assert not found[20].offloaded and "STEP differs" in found[20].reason, found[20].reason


@pytest.mark.parametrize("start", ["3000000000", "2147483640", "-1073741824"])
def test_starts_beyond_the_lanes_32_bit_numbers_stay_on_the_host(tmp_path, start):
    text = (
        f"10 DIM B(10)\n20 FOR J = {start} TO {start} + 10\n30 LET B(J - ({start})) = J / 3\n"
        "40 NEXT J\n50 PRINT B(0); B(7); B(10); J\n"
    )
    found = decisions(text)[20]
    assert not found.offloaded and "too large" in found.reason, found.reason
    check(tmp_path, text)
