"""The costs that line counts cannot see, timed: each measured at N and 4N, as a ratio.

    python bench/linear_time.py          # every check (about a minute on 2 cores)
    python bench/linear_time.py html cu  # only these

The tests count the lines of basic2tile's code a step runs (tests/test_scaling.py), the
same on every machine.  Work done in C is not counted there: a search of a list with `in`,
a string extended by `+`, CPython's compiler, the formatters, NumPy in the tile simulator.
These checks time that work instead.  Each was a quadratic cost once (the docstrings
say how slow); a linear cost gives a ratio of about 4, a quadratic one about 16.  A ratio
above 8 is reported as NOT LINEAR and the script exits with status 1.

Times are CPU seconds (this process and the processes it waited for), the best of two
runs; machines are noisy, so compare ratios of one run, never seconds across machines.
The tile simulator's two launches are timed alone (seconds, no ratio).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import program_shapes
from tests.scaling import LINEAR_TIME_RATIO, cpu_seconds, time_ratio
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options


def _front_end(name: str, text: str):
    return driver.front_end(SourceFile(name, text), Options())


def _interpret(analysis) -> None:
    quiet = io.StringIO
    driver.interpret(analysis, stdin=quiet(), stdout=quiet(), stderr=quiet())


def _check(analysis) -> None:
    code = driver.generate(analysis, "cutile")
    stdin, sys.stdin = sys.stdin, io.StringIO()  # driver.check reads a piped stdin
    try:
        assert driver.check(analysis, code, "cutile", "cpu", out=io.StringIO()) == 0
    finally:
        sys.stdin = stdin


def _mode(run):
    """2,500 REM lines took 1.2 s, 10,000 took 13 s, in every mode (the formatters and
    the generated program's run included)."""

    def seconds(lines: int) -> float:
        source = SourceFile("rem.bas", program_shapes.rem_run(lines))
        return cpu_seconds(lambda: run(driver.front_end(source, Options())))

    seconds(50)  # imports and caches, once
    return seconds, 2500


def _string_append():
    """`A$ = A$ + "X"` copied the whole string each time (a million times: 187 s)."""

    def seconds(count: int) -> float:
        text = (
            f'10 LET A$ = ""\n20 FOR I = 1 TO {count}\n30 LET A$ = A$ + "X"\n'
            '35 IF LEN(A$) = 250 THEN A$ = ""\n40 NEXT I\n50 PRINT LEN(A$)\n'
        )
        analysis = _front_end("append.bas", text)
        return cpu_seconds(lambda: _interpret(analysis))

    return seconds, 250_000


def _many_blocks():
    """Each GOSUB target is a block function; nested in `_program`, each one cost
    CPython's compiler a copy of all of `_program`'s names (25,000 blocks: 20 s)."""
    from transpiler.collector import collector_paused
    from transpiler.interpreter import compile_program

    @collector_paused()  # as run_program and Machine compile
    def compiled(analysis):
        return compile(compile_program(analysis).text, "g", "exec")

    def seconds(lines: int) -> float:
        analysis = _front_end("g.bas", program_shapes.gosubs(lines))
        return cpu_seconds(lambda: compiled(analysis))

    return seconds, 10_000


def _dispatch_labels():
    """The labels of a dispatch loop were a list searched at every use (100,000 lines
    of an IF chain entered by a GOTO: 12.6 s of the 20 s of printing)."""
    from transpiler.backends.cuda import host as cuda_host

    made = []
    real = cuda_host.StatementPrinter
    module = cuda_host._ModulePrinter
    original = module.__dict__.get("statement_printer")
    module.statement_printer = staticmethod(lambda *args: made.append(real(*args)) or made[-1])
    try:
        driver.generate(_front_end("p.bas", "10 GOTO 10\n"), "cuda")
    finally:
        if original is None:
            del module.statement_printer
        else:
            module.statement_printer = original
    printer = made[0]

    def seconds(count: int) -> float:
        return cpu_seconds(lambda: [printer.label_text(f"{count}:{k}") for k in range(count)])

    return seconds, 25_000


def _highlighting():
    """One 80 KB DATA line took 41 s to highlight (--html): each token was added to the
    line's string."""
    from transpiler.reports.report import _basic_lexer as basic_lexer
    from transpiler.reports.report import highlight_lines

    def seconds(items: int) -> float:
        line = "10 DATA " + ", ".join(str(k % 1000) for k in range(items))
        return cpu_seconds(lambda: highlight_lines([line], basic_lexer()))

    return seconds, 10_000


def _modes():
    from transpiler.reports import report
    from transpiler.reports.explain import explain

    return {
        "interpret": _interpret,
        "py": lambda analysis: driver.generate(analysis, "cutile"),
        "cu": lambda analysis: driver.generate(analysis, "cuda"),
        "explain": explain,
        "html": report.build_report,
        "check": _check,
    }


def _checks() -> dict:
    checks = {
        f"{name} on REM lines": (lambda run=run: _mode(run)) for name, run in _modes().items()
    }
    checks["string append"] = _string_append
    checks["interpreter blocks"] = _many_blocks
    checks["dispatch labels"] = _dispatch_labels
    checks["highlighting"] = _highlighting
    return checks


def _tile_simulator() -> None:
    """The tile simulator's SAXPY of 10^6 elements and 256x256 f64 matrix product (both
    took well under a second of CPU when last measured)."""
    import cuda.tile as ct
    import numpy as np

    from tests import test_tilesim_kernels as K
    from transpiler import tilesim as ts

    rng = np.random.default_rng(7)
    n = 1_000_000
    x, y = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    grid = (ct.cdiv(n, 1024),)
    saxpy = cpu_seconds(lambda: ts.launch(None, grid, K.saxpy_slice, (x, y, 2.0, 0, n, 1024)))
    a, b, c = rng.random((256, 256)), rng.random((256, 256)), np.zeros((256, 256))
    matmul = cpu_seconds(lambda: ts.launch(None, (4, 4), K.matmul_k_loop, (a, b, c, 64, 64, 64)))
    print(f"{'tile simulator SAXPY 10^6':<28} {saxpy:8.2f} s")
    print(f"{'tile simulator matmul 256':<28} {matmul:8.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="words of the checks to run (default: all)")
    args = parser.parse_args()
    failed = 0
    print(f"{'check':<28} {'ratio 4N/N':>10}   (linear: about 4; at most {LINEAR_TIME_RATIO})")
    for name, make in _checks().items():
        if args.only and not any(word in name for word in args.only):
            continue
        seconds, size = make()
        ratio = time_ratio(seconds, size)
        verdict = "linear" if ratio <= LINEAR_TIME_RATIO else "NOT LINEAR"
        failed += ratio > LINEAR_TIME_RATIO
        print(f"{name:<28} {ratio:10.1f}   {verdict}")
    if not args.only or any(word in "tile simulator" for word in args.only):
        _tile_simulator()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
