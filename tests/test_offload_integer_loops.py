"""Integer loop variables (`%`, or `DEFINT I-N`) become lanes (issue 21): a lane's value
is an integer anyway.  What BASIC adds is the 16-bit range: the last NEXT leaves
limit + step in the variable, an Overflow beyond 32767, so a loop is offloaded only when
its bounds (constants, `%` variables that only constants and such loops set, enclosing
lane variables) keep that in range; otherwise it stays on the host, which reports the
Overflow, and --explain says why.

Oracle: the reference interpreter (`--check`, both targets, exactly, also with small
tiles), in the Microsoft dialect."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options


def decisions(text: str) -> dict[int, object]:
    analysis = driver.front_end(SourceFile("prog.bas", text), Options(std="ms"))
    out = {}
    for d in driver.host_program(analysis).decisions:
        out.setdefault(d.label, d)
    return out


def check(tmp_path: Path, text: str, tile: str | None = None, targets=("cutile", "cuda")) -> str:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    for target in targets:
        command = [sys.executable, "-m", "transpiler", str(path), "--dialect", "ms", "--check"]
        command += ["--device", "cpu", "--target", target] + (["--tile", tile] if tile else [])
        result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{target}: {result.stdout}{result.stderr}"
        assert "check passed" in result.stdout
    return result.stdout


# DEFINT I-N: a 2-D map whose limit is an integer variable minus 1, a triangle of lanes,
# a stencil counting down by 2; the loop variables' last values are printed.
DEFINT = """10 DEFINT I-N
20 DIM A(40, 40), B(40), C(40, 40)
30 N = 40 : M = 30
40 FOR I = 0 TO N
50 FOR J = 0 TO M - 1
60 A(I, J) = I * 3 - J
70 NEXT J
80 NEXT I
90 FOR I = 0 TO N
100 FOR J = 0 TO I
110 C(I, J) = A(I, J) / 7 + I
120 NEXT J
130 NEXT I
140 FOR K = N TO 1 STEP -2
150 B(K) = A(K, 3) + C(K, K - 1)
160 NEXT K
170 PRINT A(40, 29), C(40, 39), B(40), B(2), I, J, K
"""

# `%` suffixes, a limit that is a `%` variable set by a loop, a loop over a host `%`
# variable's row.
SUFFIXED = """10 DIM X(20, 20), Y(20)
20 FOR R% = 1 TO 20
30 FOR C% = 1 TO 20
40 X(R%, C%) = R% / C%
50 NEXT C%
60 NEXT R%
70 FOR T% = 1 TO 3
80 FOR C% = 1 TO 20
90 X(T%, C%) = X(T%, C%) * T% + C%
100 NEXT C%
110 NEXT T%
120 FOR P% = 0 TO R% - 1
130 Y(P%) = X(P% + 1, 2) + P%
140 NEXT P%
150 PRINT X(2, 20), Y(19), R%, C%, T%, P%
"""


@pytest.mark.parametrize(
    "text, lines",
    [(DEFINT, [40, 100, 140]), (SUFFIXED, [20, 70, 120])],
    ids=["defint", "suffixed"],
)
def test_integer_loop_variables_are_lanes(tmp_path: Path, text: str, lines: list[int]):
    found = decisions(text)
    for line in lines:
        assert found[line].offloaded, f"line {line}: {found[line].reason}"
    check(tmp_path, text)
    check(tmp_path, text, "4")


# The last NEXT leaves 32768 in L%: GW-BASIC stops with Overflow there (PC-BASIC:
# "Overflow in 220"), which only the host reports.
OVERFLOWS = """10 DIM B(10)
200 FOR L% = 32760 TO 32767
210 B(L% - 32760) = L%
220 NEXT L%
230 PRINT B(7)
"""

# A limit that is any `%` variable may be 32767: READ from DATA, known only at run time.
UNKNOWN_LIMIT = """10 DIM B(100)
20 READ N%
30 FOR L% = 0 TO N%
40 B(L%) = L% * 2
50 NEXT L%
60 PRINT B(3); L%
70 DATA 90
"""


def test_constant_bounds_that_overflow_keep_the_loop_on_the_host(tmp_path: Path):
    found = decisions(OVERFLOWS)
    assert not found[200].offloaded
    assert "the integer variable L% may overflow at the loop's last NEXT" in found[200].reason
    check(tmp_path, OVERFLOWS)


def test_a_limit_known_at_run_time_is_tested_before_the_launch(tmp_path: Path):
    """The kernel runs when the count keeps L%'s last NEXT in range (L% = 0 TO N% may
    run 32767 times: N% <= 32766); with N% = 32767 the host runs the loop and reports
    GW-BASIC's Overflow at the NEXT (line 50), after the loop's stores."""
    found = decisions(UNKNOWN_LIMIT)
    assert found[30].offloaded, found[30].reason
    assert "it runs at most 32767 iterations of L%" in found[30].reason
    overflowing = UNKNOWN_LIMIT.replace("B(100)", "B(32767)").replace("DATA 90", "DATA 32767")
    for text, printed in ((UNKNOWN_LIMIT, " 6  91 \n"), (overflowing, "Overflow in 50\n")):
        check(tmp_path, text)
        command = [sys.executable, "-m", "transpiler", "prog.bas", "--dialect", "ms", "--interpret"]
        result = subprocess.run(
            command, check=False, capture_output=True, text=True, timeout=300, cwd=tmp_path
        )
        assert result.stdout == printed, result.stdout


# What PC-BASIC (GW-BASIC 3.23) printed for these programs (tests/pcbasic_oracle.py).
PCBASIC = {
    "defint": (
        DEFINT,
        " 91            40            157           5.714286      41 \n 41            0 \n",
    ),
    "overflows": (OVERFLOWS, "Overflow in 220\n"),
}


@pytest.mark.parametrize("name", sorted(PCBASIC))
def test_the_interpreter_prints_what_pcbasic_printed(tmp_path: Path, name: str):
    text, expected = PCBASIC[name]
    path = tmp_path / "prog.bas"
    path.write_text(text)
    command = [sys.executable, "-m", "transpiler", str(path), "--dialect", "ms", "--interpret"]
    result = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
    if name == "overflows":
        assert "error: Overflow (32768)" in result.stderr and "220 NEXT L%" in result.stderr
    else:
        assert result.stdout == expected


# DEFINT I-K with a single-precision N that only constants set: its range is known too.
SINGLE_LIMIT = """10 DEFINT I-K
20 N = 12 : DIM A(12, 12)
30 FOR I = 0 TO N - 1
40 FOR J = 0 TO I
50 A(I, J) = I * 2 + J
60 NEXT J
70 NEXT I
80 PRINT A(11, 4), A(3, 3), I
"""


def test_a_limit_that_only_constants_set_may_be_single_precision(tmp_path: Path):
    found = decisions(SINGLE_LIMIT)
    assert "over I%, J%;" in found[30].reason, found[30].reason
    check(tmp_path, SINGLE_LIMIT, "4")
    # N = 32767: the last NEXT of I% overflows; the launch's test of the count sends the
    # loop to the host, which reports it.
    text = SINGLE_LIMIT.replace("N = 12", "N = 32767").replace("N - 1", "N")
    assert "it runs at most 32767 iterations of I%" in decisions(text)[30].reason
