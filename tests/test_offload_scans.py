"""Scans (passes/parallel/recurrence.py): a loop whose only dependence is each iteration reading
the element the previous one wrote, `P(I) = P(I - 1) + X(I)`, `P(I) = A * P(I - 1) +
X(I)`, `P(I) = P(I - 1) * C(I)`, forwards or backwards, becomes one block that walks the
tiles of iterations in order (ct.cumsum / ct.cumprod / ct.scan; a shared-memory block
scan in CUDA).  A tile that meets an exception leaves the loop to the host, after the
arrays are put back.  Near misses (second-order, nonlinear, conditional recurrences,
another read of the array) stay on the host with the dependence named.

Oracle: the reference interpreter (`--check`, both targets, several tiles so that many
tiles chain, messages included); NVIDIA's tileiras and NVRTC build the kernels."""

from __future__ import annotations

import pytest

from tests.test_offload_3d import nvidia_build
from tests.test_offload_classes import decisions
from tests.test_offload_slices import check

SCANS = """10 N = 37
20 DIM X(N), P(N), Q(N), R(N), C(N), S(N)
30 FOR I = 0 TO N : X(I) = SIN(I) + 1 : C(I) = 0.9 + 0.01 * COS(I) : NEXT I
40 P(0) = 1 : Q(0) = 2 : R(0) = 1 : S(N) = 0
50 A = 0.5
60 FOR I = 1 TO N
70 P(I) = A * P(I - 1) + X(I)
80 NEXT I
90 FOR I = 1 TO N
100 Q(I) = Q(I - 1) * C(I) - X(I) + 1
110 NEXT I
120 FOR I = 1 TO N
130 R(I) = R(I - 1) * C(I)
140 NEXT I
150 FOR I = N - 1 TO 0 STEP -1
160 S(I) = S(I + 1) + X(I) * 2
170 NEXT I
180 FOR I = 0 TO N STEP 6 : PRINT I; P(I); Q(I); R(I); S(I) : NEXT I
190 PRINT I
"""

# A private scalar before the recurrence and a map of its result after it; a division
# by zero at I = 7 (a warning, then NaN in every later element); an overflow in the
# running products from I = 10 on; then P(-1), out of range: the error.
EXCEPTIONS = """10 N = 30
20 DIM X(N), P(N), Y(N), Q(N)
30 FOR I = 0 TO N : X(I) = I - 7 : NEXT I
40 P(0) = 1
50 FOR I = 1 TO N
60 T = X(I) * 2
70 P(I) = P(I - 1) + T / X(I)
75 Y(I) = P(I) / 2
80 NEXT I
90 FOR I = 0 TO N STEP 7 : PRINT P(I); Y(I) : NEXT I
100 Q(0) = 1
110 FOR I = 1 TO N : Q(I) = Q(I - 1) * 1E30 : NEXT I
120 PRINT Q(5); Q(N)
130 FOR I = 0 TO N : Q(I) = Q(I - 1) + 1 : NEXT I
140 PRINT "NOT HERE"
"""


def test_recurrences_are_scans():
    found = decisions(SCANS)
    for line, what in [
        (60, "a first-order linear recurrence"),
        (90, "a first-order linear recurrence"),
        (120, "running products"),
        (150, "running sums"),
    ]:
        assert found[line].offloaded and found[line].reason.startswith(f"scan ({what})"), found[
            line
        ]


@pytest.mark.parametrize("dialect", [None, "ms"])
@pytest.mark.parametrize("tile", [None, "4"])
def test_scans_agree_with_the_interpreter(tmp_path, tile, dialect):
    check(tmp_path, SCANS, tile, dialect)


@pytest.mark.parametrize("dialect", [None, "ms"])
@pytest.mark.parametrize("tile", [None, "4"])
def test_a_scan_that_meets_an_exception_is_run_by_the_host(tmp_path, tile, dialect):
    found = decisions(EXCEPTIONS)
    assert all(found[line].offloaded for line in (50, 110, 130))
    check(tmp_path, EXCEPTIONS, tile, dialect)


# Running values kept in scalars, read by the statements after the update; the host
# gets the last value.  Backwards, zero times, and with a division by zero at I = 9
# (a warning, then the host runs the loop).
SCALARS = """10 N = 45
20 DIM X(N), P(N), M(N), Q(N)
30 FOR I = 0 TO N : X(I) = SIN(I) * 3 + 1 : NEXT I
40 S = 0.5 : T = 1 : U = 2
50 FOR I = 1 TO N
60 S = S + X(I)
70 P(I) = S
75 M(I) = S / I
80 NEXT I
90 PRINT S; P(N); M(7); I
100 FOR I = N TO 1 STEP -1
110 T = T * 0.9 + X(I)
120 Q(I) = T * 2
130 NEXT I
140 PRINT T; Q(1); Q(N)
150 FOR I = 1 TO 0
160 U = U + 1 : Q(I) = U
170 NEXT I
180 PRINT U
190 FOR I = 1 TO N : V = V + 1 / (X(I) - X(9)) - 1 : Q(I) = V : NEXT I
200 PRINT V; Q(3)
"""


def test_running_values_of_scalars_are_scans():
    found = decisions(SCALARS)
    for line, what in [(50, "running sums) of S"), (100, "a first-order linear recurrence) of T")]:
        assert found[line].reason.startswith(f"scan ({what} over I"), found[line]
    assert all(found[line].offloaded for line in (150, 190))


@pytest.mark.parametrize("dialect", [None, "ms"])
@pytest.mark.parametrize("tile", [None, "4"])
def test_scalar_scans_agree_with_the_interpreter(tmp_path, tile, dialect):
    check(tmp_path, SCALARS, tile, dialect)


@pytest.mark.parametrize(
    "body",
    [
        "P(I) = S : S = S + X(I)",  # read before the update: the previous value
        "S = S + X(I) : S = S * 2 : P(I) = S",  # set twice
        "IF X(I) > 0 THEN S = S + X(I)\n65 P(I) = S",  # conditional
        "S = S + X(I) : P(I) = S : T = T + X(I) : Q(I) = T",  # two scans
    ],
)
def test_near_misses_of_a_scalar_scan_stay_on_the_host(body):
    text = f"""10 N = 20
20 DIM X(N), P(N), Q(N)
30 FOR I = 0 TO N : X(I) = I / 3 : NEXT I
50 FOR I = 1 TO N
60 {body}
70 NEXT I
80 PRINT S; T; P(N); Q(N)
"""
    found = decisions(text)
    assert not found[50].offloaded and "keeps its value" in found[50].reason, found[50].reason


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("P(I) = P(I - 1) * P(I - 1) / 2 + X(I)", "P(I - 1) reads"),  # not linear
        ("P(I) = P(I - 2) + X(I)", "P(I - 2) reads"),  # two iterations back
        ("P(I) = P(I - 1) + P(I)", "P(I - 1) reads"),  # reads its own old element too
        ("P(I) = X(I) - P(I - 1)", "P(I - 1) reads"),  # a factor of -1 by subtraction
        ("IF X(I) > 3 THEN P(I) = P(I - 1) + 1", "P(I - 1) reads"),  # conditional
        ("P(I) = P(I - 1) + 1 : X(I) = P(I + 1)", "reads an element of P"),  # another read
        ("P(I) = P(I - 1) + 1 : Q(I) = Q(I - 1) + 1", "reads an element of"),  # two scans
        ("P%(I) = P%(I - 1) + X(I)", "reads an element of P%"),  # rounds each element
    ],
)
def test_near_misses_of_a_scan_stay_on_the_host(body, why):
    text = f"""10 N = 20
20 DIM X(N), P(N), Q(N), P%(N)
30 FOR I = 0 TO N : X(I) = I / 3 : P(I) = 1 : Q(I) = 2 : P%(I) = 1 : NEXT I
50 FOR I = 2 TO N - 1
60 {body}
70 NEXT I
80 FOR I = 0 TO N STEP 5 : PRINT P(I); Q(I); P%(I); X(I) : NEXT I
"""
    found = decisions(text)
    assert not found[50].offloaded and why in found[50].reason, found[50].reason


@pytest.mark.parametrize("target, emit", [("cutile", "cubin"), ("cuda", "ptx")])
def test_nvidia_compilers_build_the_scan_kernels(tmp_path, target, emit):
    """ct.cumsum, ct.cumprod and ct.scan over tuples; the CUDA block scan; sm_80/90/100."""
    nvidia_build(tmp_path, SCANS, target, emit)
