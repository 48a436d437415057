"""A DEFDBL program's loops compute in f64 on the GPU, as the host does, even where
GW-BASIC's types make a few values singles that f64 computes exactly alike.

GW-BASIC (PC-BASIC agrees; passes/check/typecheck.py) gives an integer's sum, difference or
negation the type single (`N% - 1`, `I% + J%`), and a constant like `.5` is a single: one
single in a loop used to make its kernel f32, which then refused the double arrays, so
nearly every loop of a `DEFDBL A-H, O-Z: DEFINT I-N` program with `0 TO N - 1` bounds or
`A(I - 1)` subscripts stayed on the host.  Those singles are whole numbers below 2**24
or a constant's float32 value, which widen to f64 exactly; a single operation on a
fraction (`I / 3`, `.1 * 3`) is rounded to float32 and still keeps its loop on the host.
"""

from __future__ import annotations

from tests.checking import basic2tile, interpreted_and_checked

PROGRAM = """\
10 DEFDBL A-H, O-Z: DEFINT I-N
20 N = 10: DIM A(10), B(10), C(10)
30 FOR I = 0 TO N: B(I) = I / 3: NEXT I
40 FOR I = 0 TO N - 1: A(I) = B(I) * 2: NEXT I
50 FOR I = 1 TO N: A(I) = A(I) + B(I - 1) * .1: NEXT I
60 FOR I = 0 TO N: C(I) = B(I) * .5 + (I - N) - (-I + 1): NEXT I
70 FOR I = 0 TO N: A(I) = A(I) + .1 * 3: NEXT I
80 FOR I = 0 TO N: PRINT A(I); C(I): NEXT I
"""


def _explained(tmp_path) -> dict[int, str]:
    text = basic2tile(tmp_path, PROGRAM, "--explain").stdout
    decided: dict[int, str] = {}
    line = None
    for row in text.splitlines():
        if row.strip().startswith("line "):
            line = int(row.split()[1])
        elif "->" in row and line is not None:
            decided.setdefault(line, row.strip())
    return decided


def test_exact_singles_leave_the_loop_in_f64_on_the_gpu(tmp_path):
    decided = _explained(tmp_path)
    for line in (40, 50, 60):
        assert decided[line].startswith("-> GPU kernel") and decided[line].endswith("f64"), decided
    for line in (30, 70):  # I / 3 and .1 * 3 are rounded to singles
        assert decided[line] == "-> host: double-precision values stay on the host", decided


def test_the_kernels_print_what_the_interpreter_prints(tmp_path):
    printed = interpreted_and_checked(tmp_path, PROGRAM)
    # A(1) = 2 * B(1) + B(0) * .1 + (.1 * 3 in single) with B(1) = 1/3 in single:
    # .6666666865348816 + .30000001192092896; C(1) = B(1) * .5 + (1 - 10) - (-1 + 1).
    assert printed.splitlines()[1] == " .9666666984558106 -8.83333332836628 "
