"""Python constants in f64 kernels keep double precision.

cuTile gives a Python float the type float32 wherever it has to make a tile of it
alone: ct.broadcast_to(5.3, ...), ct.atan2(44.82, 1.0), ct.where(m, 0.7, 1/3),
ct.minimum(1/3, 0.7).  In an f64 kernel such a value would be rounded to float32
(5.6333333 printed as 5.6333332), a difference that --check's tolerance would hide,
so these programs compare stdout exactly with the interpreter.
"""

from __future__ import annotations

import io

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

PROGRAMS = {
    "broadcast": (
        "10 DIM Y(100)\n20 FOR I = 1 TO 100\n30 LET Y(I) = 5.3 + 1/3\n40 NEXT I\n"
        "50 PRINT Y(5)\n60 END\n",
        "map_20",
        " 5.6333333 \n",
    ),
    "atn": (
        "10 DIM Y(100)\n20 FOR I = 1 TO 100\n30 LET Y(I) = ATN(5.4 * 8.3) * 10\n40 NEXT I\n"
        "50 PRINT Y(5)\n60 END\n",
        "map_20",
        " 15.484886 \n",
    ),
    "select": (
        "10 DIM X(100), Y(100)\n20 FOR I = 1 TO 100\n30 LET X(I) = I - 50\n40 NEXT I\n"
        "50 FOR I = 1 TO 100\n60 IF X(I) > 0 THEN Y(I) = 0.7 ELSE Y(I) = 1/3\n70 NEXT I\n"
        "80 PRINT Y(5); Y(90)\n90 END\n",
        "map_50",
        " .33333333  .7 \n",
    ),
    "min": (
        "10 DIM Y(100)\n20 FOR I = 1 TO 100\n30 LET Y(I) = MIN(1/3, 0.7) + MAX(0.1, 1/7)\n"
        "40 NEXT I\n50 PRINT Y(5)\n60 END\n",
        "map_20",
        " .47619048 \n",
    ),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_constants_in_f64_kernels_print_the_interpreters_digits(name):
    text, kernel, expected = PROGRAMS[name]
    analysis = driver.front_end(SourceFile(f"{name}.bas", text), Options())
    out = io.StringIO()
    assert driver.interpret(analysis, stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == expected
    code = driver.generate(analysis, "cutile")
    assert f"def {kernel}(" in code  # the loop really is a kernel
    got = driver.run(analysis, code, "cutile", "cpu")
    assert (got.returncode, got.stdout) == (0, expected), got.stderr
