"""Transpiler speed: lines per second end to end, per stage and per target, the CLI's
cold start, and how each mode's time grows with the length of realistic programs.

    python bench/transpile.py [--sizes 1000,10000,100000] [--no-cold]
                              [--shape-lines 2500] [--shapes rem_run,data,...]
                              [--modes interpret,py,...] [--no-shapes]

Programs come from the random program generator used by the differential tests
(arithmetic, arrays, parallel and carried loops, IF, WHILE, GOTO, GOSUB, PRINT); a
program asked for with N lines has about 0.8 N (the size shown is the real count).
Each one is translated in-process, stage by stage, as `driver.generate` does it:

  front end      parse + analyse (driver.front_end)
  host           structure + offload (driver.host_program), once per target
  print          the backend's printer (the module text before formatting)
  format         Ruff's formatter for cuTile Python; clang-format for CUDA C++ (a long
                 file in up to one process per CPU, cut between kernels)

and the lines per second of each target are BASIC lines over the sum of its stages
(goal: 20,000 lines/s).  The cold start is a fresh `basic2tile` process each time:
`--version`, and a 100-line program to Python and to CUDA C++ (goal: under 0.5 s; best
of 3).  Every time is the wall time of one run on this machine: compare the shares and
rates of one run, not seconds across machines.

Growth: each shape of `tests/program_shapes.py` (a long run of REM lines, commented
code, DATA lines, host code, GOTOs, IF chains, GOSUB chains, string variables, one long
line, one long DATA line, the random programs) at N and 4N lines (`--shape-lines`, N =
2,500 by default), through each mode as the command line runs it in-process, formatters
and subprocesses included: `interpret`, `py` (-o x.py), `cu` (-o x.cu), `explain`,
`html` (--html, both targets) and `check` (--check --device cpu: the interpreter, the
cuTile Python and its run in a fresh Python).  Each cell is the CPU time (of this
process and of the processes it starts) at N and at 4N, and their ratio (goal: at most
5x, which linear work meets with room for noise).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.program_shapes import SHAPES
from tests.programgen import random_program
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports.explain import explain
from transpiler.reports.report import build_report

GOAL_RATE = 20_000  # BASIC lines per second, end to end
GOAL_COLD = 0.5  # seconds
GOAL_GROWTH = 5.0  # time at 4N lines over time at N


def program_of(lines: int) -> str:
    """A generated program asked for with `lines` lines (line numbers stay under 65536*10)."""
    return random_program(seed=lines, statements=max(1, lines // 5))


class Stopwatch:
    """Times the formatting stage inside the driver's generate functions (the printer's
    time is the rest)."""

    def __init__(self, module, name: str):
        self.module, self.name = module, name
        self.original = getattr(module, name)
        self.seconds = 0.0

    def __enter__(self):
        def timed(*args) -> str:
            start = time.perf_counter()
            try:
                return self.original(*args)
            finally:
                self.seconds += time.perf_counter() - start

        setattr(self.module, self.name, timed)
        return self

    def __exit__(self, *exc) -> None:
        setattr(self.module, self.name, self.original)


@contextlib.contextmanager
def gc_paused():
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def bench_size(lines: int) -> dict:
    text = program_of(lines)
    n = text.count("\n")
    source = SourceFile(f"gen{lines}.bas", text)
    analysis, t_front = timed(lambda: driver.front_end(source, Options()))
    row = {"lines": n, "front": t_front}
    for target, name in (("py", "cutile"), ("cu", "cuda")):
        host, t_host = timed(lambda: driver.host_program(analysis))
        with Stopwatch(driver, "formatted") as watch, gc_paused():  # as driver.generate
            code, t_gen = timed(lambda host=host, name=name: driver.generate_host(host, name))
        row[target] = {
            "host": t_host,
            "print": t_gen - watch.seconds,
            "format": watch.seconds,
            "out": code.count("\n"),
            "kernels": len(host.kernels),
        }
    return row


def report(row: dict) -> None:
    n, front = row["lines"], row["front"]
    print(f"{n:>7} BASIC lines: parse+analyse {front:6.2f}s ({n / front:7.0f} lines/s)")
    totals = {}
    for target, label in (("py", "cuTile Python"), ("cu", "CUDA C++")):
        t = row[target]
        total = totals[target] = front + t["host"] + t["print"] + t["format"]
        shares = "  ".join(
            f"{stage} {t[stage]:6.2f}s {100 * t[stage] / total:3.0f}%"
            for stage in ("host", "print", "format")
        )
        verdict = "meets" if n / total >= GOAL_RATE else f"{n / total / GOAL_RATE:.2f}x of"
        print(
            f"        -> {label:<13} {shares}  {t['out']:>7} lines out  "
            f"end to end {total:6.2f}s {n / total:7.0f} lines/s ({verdict} the goal)"
        )
    share = 100 * front / totals["py"]
    print(
        f"        ({row['py']['kernels']} kernels; the front end is {share:.0f}% of the Python path)"
    )


def cold_start() -> None:
    """Fresh processes, as after the first run of an installed basic2tile: compiled
    modules (pip writes them at install time; here they go to a temporary
    PYTHONPYCACHEPREFIX, also where PYTHONDONTWRITEBYTECODE is set), the parser tables
    and the compiled templates (a temporary BASIC2TILE_CACHE_DIR) are written by one
    warm-up run per target, then each command runs 3 times."""
    exe = [sys.executable, "-m", "transpiler"]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'runtime'}",
            BASIC2TILE_CACHE_DIR=f"{tmp}/cache",
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = f"{tmp}/pycache"
        prog = Path(tmp) / "p100.bas"
        prog.write_text(random_program(seed=100, statements=20))
        runs = (
            ("--version", ["--version"]),
            ("100 lines -> .py", [str(prog), "-o", str(Path(tmp) / "p.py")]),
            ("100 lines -> .cu", [str(prog), "-o", str(Path(tmp) / "p.cu")]),
        )
        lines = prog.read_text().count("\n")
        for _, args in runs[1:]:
            _run_seconds(exe + args, env)  # the warm-up
        for label, args in runs:
            best = min(_run_seconds(exe + args, env) for _ in range(3))
            verdict = "meets" if best < GOAL_COLD else "misses"
            print(
                f"cold start {label:<17} {best:5.2f}s (best of 3; {verdict} the {GOAL_COLD} s goal)"
            )
        print(f"  (the program has {lines} lines)")


def _run_seconds(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, env=env)
    return time.perf_counter() - start


def _check(analysis) -> None:
    stdin, sys.stdin = sys.stdin, io.StringIO()  # driver.check reads a piped stdin
    try:
        driver.check(
            analysis, driver.generate(analysis, "cutile"), "cutile", "cpu", out=io.StringIO()
        )
    finally:
        sys.stdin = stdin


MODES = {
    "interpret": lambda a: driver.interpret(a, stdout=io.StringIO(), stderr=io.StringIO()),
    "py": lambda a: driver.generate(a, "cutile"),
    "cu": lambda a: driver.generate(a, "cuda"),
    "explain": lambda a: explain(a),
    "html": lambda a: build_report(a),
    "check": _check,
}


def mode_seconds(shape: str, lines: int, mode: str) -> float:
    """CPU time of the front end and `mode` on `shape` at `lines` lines: this process's
    and its children's (the formatters, the generated program), less disturbed than
    wall time by other work on the machine."""
    source = SourceFile(f"{shape}.bas", SHAPES[shape](lines))
    before = os.times()
    MODES[mode](driver.front_end(source, Options()))
    after = os.times()
    return sum(after[k] - before[k] for k in range(4))


def growth_table(lines: int, shapes: list[str], modes: list[str]) -> None:
    print(
        f"\nCPU time at {lines} and {4 * lines} lines, and their ratio "
        f"(goal: at most {GOAL_GROWTH:g}x)"
    )
    print(f"{'shape':<11}" + "".join(f"{mode:>22}" for mode in modes))
    for mode in modes:
        mode_seconds("host", 50, mode)  # imports and caches, once
    worst = (0.0, "")
    for shape in shapes:
        cells = []
        for mode in modes:
            small, large = mode_seconds(shape, lines, mode), mode_seconds(shape, 4 * lines, mode)
            ratio = large / small
            worst = max(worst, (ratio, f"{shape} {mode}"))
            mark = " " if ratio <= GOAL_GROWTH else "!"
            cells.append(f"{small:6.2f}s {large:6.2f}s {ratio:4.1f}x{mark}")
        print(f"{shape:<11}" + "".join(f"{cell:>22}" for cell in cells), flush=True)
    verdict = "met" if worst[0] <= GOAL_GROWTH else "NOT met"
    print(
        f"goal (at most {GOAL_GROWTH:g}x from N to 4N lines): {verdict} (worst {worst[0]:.1f}x: {worst[1]})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-start runs")
    parser.add_argument("--shape-lines", type=int, default=2500, help="N of the growth table")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="shapes of the growth table")
    parser.add_argument("--modes", default=",".join(MODES), help="modes of the growth table")
    parser.add_argument("--no-shapes", action="store_true", help="skip the growth table")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.1f} "
        "(other processes on the CPUs lengthen every time, and the parallel clang-format most)"
    )
    if not args.no_cold:
        cold_start()
    bench_size(50)  # imports and template compiles happen here, not in the first size
    for size in (int(s) for s in args.sizes.split(",") if s):
        report(bench_size(size))
    if not args.no_shapes:
        growth_table(args.shape_lines, args.shapes.split(","), args.modes.split(","))


if __name__ == "__main__":
    main()
