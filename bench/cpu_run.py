"""CPU speed of the generated programs against the reference interpreter and bwBASIC.

    python bench/cpu_run.py            # matmul N=256, SAXPY N=10^6 (a few minutes on 2 cores)
    python bench/cpu_run.py --quick    # matmul N=64, SAXPY N=10^5 (well under a minute)

Two BASIC programs (bench/programs/): a 256x256 matrix product by three nested FOR loops
with a scalar accumulator, and a 10^6-element SAXPY.  Each runs with

  interpreter   `basic2tile P --interpret` (the reference semantics)
  cuTile/sim    the generated cuTile Python, kernels in the NumPy tile simulator:
                `basic2tile P --run --device cpu`, end to end; and apart, the translation
                (`basic2tile P -o P.py`) and the run of the generated file
  CUDA/emu      the generated CUDA C++ through g++ and the emulation header:
                `basic2tile P --run --target cuda --device cpu`, end to end; and apart, the
                translation (`basic2tile P -o P.cu`), the g++ build
                (transpiler.verify.cpu_cuda.build_cpu, not cached) and the run of the
                executable.  Builds go to this run's temporary folder, where the emulator's
                precompiled header is built once before anything is timed (a one-off per
                machine for users too), so no build of an earlier run is reused
  bwbasic       Debian's bwBASIC 2.20 (`bwbasic P </dev/null`), when installed

Every time is the wall time of one run (machines are noisy: compare the ratios of one
run, never these seconds across machines).  Every output is checked against the
interpreter's (numbers within 1e-6 relative, as --check); bwBASIC's output is checked
number by number (it prints numbers in its own format).

bwBASIC needs about 16 us per inner iteration, so the 256^3 matrix product would take
minutes: by default it runs the same program at N=128 and its time is scaled by
(256/128)^3 per inner iteration (an estimate that slightly over-counts bwBASIC, whose
O(N^2) fill and checksum loops are scaled as if they were O(N^3)); the table says so.
`--bwbasic-full` runs it at the full size instead.  Ratios are speed-ups: how many times
faster than the interpreter (or bwBASIC) each engine is.  The goal from the issue: the
generated program at least 50x faster than bwBASIC.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "bench" / "programs"
sys.path.insert(0, str(ROOT))

from transpiler.run.compare import compare_outputs
from transpiler.verify.cpu_cuda import build_cpu, run_cpu

BWBASIC = shutil.which("bwbasic")

# name -> (file, size in the file, full size, quick size, work per run as a function of N)
BENCHMARKS = {
    "matmul": ("matmul.bas", 256, 256, 64, lambda n: n**3, "inner iteration (N^3)"),
    "saxpy": ("saxpy.bas", 1000000, 1000000, 100000, lambda n: n, "element (N)"),
}
# bwBASIC runs at most this size (its time is scaled to the full size per unit of work).
BWBASIC_SIZE = {"matmul": 128, "saxpy": 1000000}


@dataclass
class Measure:
    engine: str
    translate: float | None = None
    build: float | None = None
    run: float | None = None
    total: float | None = None
    checked: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)


def sized_program(name: str, n: int, folder: Path) -> Path:
    """The benchmark program with its size (in the DIM and `LET N =` lines) set to n."""
    file, base, *_ = BENCHMARKS[name]
    text = (PROGRAMS / file).read_text()
    out = []
    for line in text.splitlines():
        if re.match(r"\d+ (DIM|LET N =)", line):
            line = re.sub(rf"\b{base}\b", str(n), line)
        out.append(line)
    path = folder / f"{name}_{n}.bas"
    path.write_text("\n".join(out) + "\n")
    return path


def timed_run(cmd: list[str], env: dict | None = None, stdin=subprocess.DEVNULL, timeout=3600):
    start = time.perf_counter()
    proc = subprocess.run(
        cmd, stdin=stdin, capture_output=True, text=True, env=env, timeout=timeout, check=False
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(
            f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    return proc.stdout, elapsed


def cli(*args) -> list[str]:
    return [sys.executable, "-m", "transpiler", *map(str, args)]


def env_for_generated(tmp: Path) -> dict:
    env = dict(os.environ)
    env["BASIC2TILE_DEVICE"] = "cpu"
    env.setdefault("CUDA_TILE_CACHE_DIR", str(tmp / "cutile-cache"))
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "runtime")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    return env


def agree(expected: str, actual: str) -> str:
    diffs = compare_outputs(expected, actual, "f64")
    if diffs:
        d = diffs[0]
        raise RuntimeError(
            f"output differs at line {d.line}: expected {d.expected!r}, got {d.actual!r}"
        )
    return f"{len(expected.splitlines())} lines agree"


_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][-+]?\d+)?")


def bwbasic_output(raw: str) -> str:
    """The program's output: bwBASIC first prints a banner (its name and two copyright
    lines, separated by blank lines) and at EOF on stdin a `bwBASIC: ` prompt."""
    lines = raw.replace("\r", "\n").split("\n")
    while lines and (
        not lines[0].strip() or re.match(r"(Bywater BASIC|Copyright \(c\))", lines[0])
    ):
        lines.pop(0)
    return "\n".join(lines).replace("bwBASIC: ", "").rstrip() + "\n"


def numbers_agree(expected: str, actual: str, rtol: float = 1e-6) -> str:
    want = [_NUM.findall(line) for line in expected.splitlines()]
    got = [_NUM.findall(line) for line in actual.splitlines()]
    if len(want) != len(got):
        raise RuntimeError(f"bwbasic printed {len(got)} lines, the interpreter {len(want)}")
    count = 0
    for row, (w, g) in enumerate(zip(want, got), 1):
        if len(w) != len(g):
            raise RuntimeError(f"line {row}: numbers {g} vs {w}")
        for a, b in zip(w, g):
            x, y = float(a), float(b.replace("D", "E").replace("d", "e"))
            if abs(x - y) > 1e-12 + rtol * max(abs(x), abs(y)):
                raise RuntimeError(f"line {row}: bwbasic {b} vs interpreter {a}")
            count += 1
    return f"{count} numbers agree"


def warm_cpp(tmp: Path) -> None:
    """Build a tiny program once so g++'s precompiled emulator header exists (a one-off)."""
    tiny = tmp / "tiny.bas"
    tiny.write_text('10 PRINT "HI"\n20 END\n')
    timed_run(cli(tiny, "-o", tmp / "tiny.cu"))
    build_cpu(tmp / "tiny.cu")


def bench_program(
    name: str, n: int, bw_n: int | None, tmp: Path
) -> tuple[list[Measure], list[str]]:
    notes: list[str] = []
    prog = sized_program(name, n, tmp)
    results: list[Measure] = []

    out_interp, t = timed_run(cli(prog, "--interpret"))
    results.append(Measure("interpreter", run=t, total=t, checked="reference"))
    expected = out_interp

    # cuTile Python on the NumPy tile simulator
    env = env_for_generated(tmp)
    out, t_total = timed_run(cli(prog, "--run", "--device", "cpu"), env=env)
    m = Measure("cuTile Python / tilesim", total=t_total, checked=agree(expected, out))
    py = tmp / f"{prog.stem}.py"
    _, m.translate = timed_run(cli(prog, "-o", py))
    out, m.run = timed_run([sys.executable, str(py)], env=env)
    agree(expected, out)
    results.append(m)

    # CUDA C++ through g++ and the emulation header: the whole `--run` first (its build is
    # not cached yet: this run's temporary folder holds the build cache), then each step.
    m = Measure("CUDA C++ / g++ emu")
    out, m.total = timed_run(cli(prog, "--run", "--target", "cuda", "--device", "cpu"))
    agree(expected, out)
    cu = tmp / f"{prog.stem}.cu"
    _, m.translate = timed_run(cli(prog, "-o", cu))
    start = time.perf_counter()
    exe = build_cpu(cu, tmp / f"{prog.stem}.exe", cache=False)
    m.build = time.perf_counter() - start
    start = time.perf_counter()
    done = run_cpu(exe, timeout=3600)
    m.run = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{exe} exited {done.returncode}: {done.stderr}")
    m.checked = agree(expected, done.stdout)
    results.append(m)

    if BWBASIC and bw_n:
        _, _, _, _, work, unit = BENCHMARKS[name]
        bw_prog = prog if bw_n == n else sized_program(name, bw_n, tmp)
        raw, t = timed_run([BWBASIC, str(bw_prog)])
        reference = expected if bw_n == n else timed_run(cli(bw_prog, "--interpret"))[0]
        m = Measure("bwbasic", checked=numbers_agree(reference, bwbasic_output(raw)))
        if bw_n == n:
            m.run = m.total = t
        else:
            scale = work(n) / work(bw_n)
            m.run = m.total = t * scale
            m.note = f"est. from N={bw_n}"
            notes.append(
                f"bwbasic ran {name} at N={bw_n} ({t:.2f} s measured, output checked against the "
                f"interpreter at N={bw_n}); its time here is that x {scale:g} "
                f"(scaled per {unit}: {t / work(bw_n) * 1e6:.3g} us each)"
            )
        m.extra["measured"] = t
        results.append(m)
    elif not BWBASIC:
        notes.append("bwbasic is not installed: no bwbasic column (apt-get install bwbasic)")
    return results, notes


def fmt(x: float | None, width: int = 8) -> str:
    if x is None:
        return "-".rjust(width)
    return f"{x:{width}.2f}" if x < 1000 else f"{x:{width}.0f}"


def ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "-".rjust(9)
    r = a / b
    return f"{r:8.1f}x" if r < 100 else f"{r:8.0f}x"


def print_table(rows: list[tuple[str, list[Measure]]]) -> None:
    head = (
        f"{'program':<15} {'engine':<24} {'transl':>8} {'build':>8} {'run':>8} {'total':>8}"
        f" {'interp/':>9} {'interp/':>9} {'bwbasic/':>9} {'bwbasic/':>9}  output"
    )
    head2 = f"{'':<15} {'':<24} {'s':>8} {'s':>8} {'s':>8} {'s':>8} {'total':>9} {'run':>9} {'total':>9} {'run':>9}"
    print(head)
    print(head2)
    print("-" * len(head))
    for label, ms in rows:
        interp = next(m for m in ms if m.engine == "interpreter")
        bw = next((m for m in ms if m.engine == "bwbasic"), None)
        for i, m in enumerate(ms):
            engine = m.engine + (f" ({m.note})" if m.note else "")
            print(
                f"{label if i == 0 else '':<15} {engine:<24} {fmt(m.translate)} {fmt(m.build)}"
                f" {fmt(m.run)} {fmt(m.total)}"
                f" {ratio(interp.total, m.total)} {ratio(interp.total, m.run)}"
                f" {ratio(bw.total if bw else None, m.total)} {ratio(bw.total if bw else None, m.run)}"
                f"  {m.checked}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="small sizes: matmul N=64, SAXPY N=10^5"
    )
    parser.add_argument("--only", help="comma-separated: matmul,saxpy")
    parser.add_argument(
        "--bwbasic-full", action="store_true", help="run bwbasic at the full size too"
    )
    parser.add_argument("--no-bwbasic", action="store_true", help="skip bwbasic")
    args = parser.parse_args()
    global BWBASIC
    if args.no_bwbasic:
        BWBASIC = None
    names = args.only.split(",") if args.only else list(BENCHMARKS)

    print(
        f"bench/cpu_run.py{' --quick' if args.quick else ''}: "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"bwbasic: {BWBASIC or 'not installed'}"
    )
    print("times: wall seconds of one run each; ratios: times faster (higher is better)")
    rows, notes = [], []
    with tempfile.TemporaryDirectory(prefix="b2t-bench-") as tmpdir:
        tmp = Path(tmpdir)
        # This process and the CLIs it starts keep g++ builds (and the precompiled emulator
        # header, warmed once here) under this run's folder: no build is cached from before.
        os.environ["TMPDIR"] = tempfile.tempdir = str(tmp)
        warm_cpp(tmp)
        for name in names:
            _, _, full, quick, *_ = BENCHMARKS[name]
            n = quick if args.quick else full
            bw_n = n if (args.quick or args.bwbasic_full) else min(n, BWBASIC_SIZE[name])
            print(f"running {name} N={n} ...", file=sys.stderr, flush=True)
            ms, ns = bench_program(name, n, bw_n, tmp)
            rows.append((f"{name} N={n}", ms))
            notes += ns
    print()
    print_table(rows)
    print()
    for note in notes:
        print("note:", note)
    print(
        "note: total = `basic2tile P --run --device cpu [--target cuda]` end to end (translation, "
        "g++ build for CUDA with the emulator's precompiled header already built, run); transl, "
        "build, run: each step alone (`-o`, build_cpu, the program)"
    )
    for what, key in (("end to end", "total"), ("program run alone", "run")):
        ratios = [
            (bw.total / getattr(m, key), f"{label}, {m.engine}")
            for label, ms in rows
            if (bw := next((x for x in ms if x.engine == "bwbasic"), None))
            for m in ms
            if m.engine not in ("interpreter", "bwbasic")
        ]
        if ratios:
            worst, where = min(ratios)
            verdict = "met" if worst >= 50 else "NOT met"
            print(
                f"goal (generated program >= 50x faster than bwbasic), {what}: {verdict} "
                f"(worst {worst:.1f}x: {where})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
