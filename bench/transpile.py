"""Transpiler speed: lines per second end to end, and the CLI's cold start.

    python bench/transpile.py [--sizes 1000,10000,100000]

Programs come from the random program generator used by the differential tests
(arithmetic, arrays, parallel and carried loops, IF, WHILE, GOTO, GOSUB, PRINT).
Each size is translated to cuTile Python and to CUDA C++ in-process, and the time
of each stage is printed with the resulting lines per second (goal: 20,000 lines/s).
The cold start is `basic2tile --version` and a 100-line program to Python, each as a
fresh process (goal: under 0.5 s).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.programgen import random_program  # noqa: E402
from transpiler import driver  # noqa: E402
from transpiler.errors import SourceFile  # noqa: E402
from transpiler.options import Options  # noqa: E402


def program_of(lines: int) -> str:
    """A generated program of about `lines` lines (line numbers stay under 65536*10)."""
    text = random_program(seed=lines, statements=max(1, lines // 5))
    return text


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def bench_size(lines: int) -> None:
    text = program_of(lines)
    n = text.count("\n")
    source = SourceFile(f"gen{lines}.bas", text)
    analysis, t_front = timed(lambda: driver.front_end(source, Options()))
    host, t_host = timed(lambda: driver.host_program(analysis))
    _, t_py = timed(lambda: driver.generate(analysis, "cutile"))
    _, t_cu = timed(lambda: driver.generate(analysis, "cuda"))
    total_py = t_front + t_py
    print(
        f"{n:>7} lines: parse+analyse {t_front:6.2f}s  structure+offload {t_host:6.2f}s  "
        f"-> cuTile Python {t_py:6.2f}s  -> CUDA C++ {t_cu:6.2f}s  "
        f"end to end (Python) {n / total_py:8.0f} lines/s ({len(host.kernels)} kernels)"
    )


def cold_start() -> None:
    exe = [sys.executable, "-m", "transpiler"]
    with tempfile.TemporaryDirectory() as tmp:
        prog = Path(tmp) / "p100.bas"
        prog.write_text(random_program(seed=100, statements=20))
        for label, args in (("--version", ["--version"]), ("100-line program", [str(prog), "-o", str(Path(tmp) / "p.py")])):
            best = min(timed(lambda: subprocess.run(exe + args, capture_output=True, check=True))[1] for _ in range(3))
            print(f"cold start {label:<18} {best:5.2f}s (best of 3)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    cold_start()
    for size in (int(s) for s in args.sizes.split(",")):
        bench_size(size)


if __name__ == "__main__":
    main()
