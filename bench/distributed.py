"""Speed-up of a kernel program split across 2 Dask workers over 1 (transpiler/run/scaleout.py).

    .venv/bin/python bench/distributed.py            # CPU workers (the tile simulator)
    .venv/bin/python bench/distributed.py --quick    # small sizes: a smoke test of the harness
    python3 bench/distributed.py --device gpu --cuda # on a node of GPUs: dask-cuda, one per GPU

Two kernels of examples/kernels/: a large map (vector_add.bas, C = A + B) and a large
matrix product (gemm.bas, MMA over 128x128 tiles of C).  Each is run by `scaleout.run` on a
local cluster of 1 worker and of 2 workers (worker processes with one thread each; Dask
starts them with OMP_NUM_THREADS=1, so NumPy's BLAS uses one core per worker), and, for
reference, by the module's own `run()` in this process.  Every split result is checked
against the single-device one.  Times are the best of --repeat runs after one warm-up run
per cluster (the warm-up loads the module and builds the offset kernel on each worker).
Each kernel is timed twice: `moved`, the inputs are NumPy arrays that every run sends to
every worker, and `resident`, the inputs were scattered to the workers once (Dask futures,
as data that already lives on the cluster); both bring the outputs back.  Ratios are from
this one run: compare ratios, not seconds across machines.  No test asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# This file's folder must not be on the path: its name would hide Dask's `distributed`.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from transpiler import driver
from transpiler.options import Options  # noqa: E402
from transpiler.run import scaleout  # noqa: E402

CASES = {  # name: (INPUT scalars, quick INPUT scalars)
    "vector_add": ({"N": 1 << 22}, {"N": 1 << 16}),
    "gemm": ({"M": 768, "N": 768, "K": 768}, {"M": 256, "N": 256, "K": 64}),
}


def load(name: str, folder: Path):
    source = (ROOT / "examples" / "kernels" / f"{name}.bas").read_text()
    analysis = driver.front_end(driver.SourceFile(f"{name}.bas", source), Options())
    path = folder / f"{name}.py"
    path.write_text(driver.generate(analysis, "cutile", None, True, None))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def arguments(name: str, scalars: dict) -> list:
    rng = np.random.default_rng(0)
    if name == "vector_add":
        n = scalars["N"]
        return [
            n,
            rng.uniform(-1, 1, n).astype(np.float32),
            rng.uniform(-1, 1, n).astype(np.float32),
        ]
    m, n, k = scalars["M"], scalars["N"], scalars["K"]
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    return [m, n, k, a, rng.uniform(-1, 1, (k, n)).astype(np.float32)]


def same_result(name: str, got, want) -> bool:
    """Bit for bit for the map; within f32's tolerance for the product (worker processes
    run NumPy's BLAS on one thread, whose sums may round otherwise than this process's)."""
    got, want = np.asarray(got), np.asarray(want)
    if name == "vector_add":
        ok = got.tobytes() == want.tobytes()
    else:
        ok = bool(np.allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max())))
    if not ok:
        print(f"{name}: the split result differs from the single-device one")
    return ok


def report(times: dict, args) -> None:
    w = args.workers
    print(
        f"# {os.cpu_count()} CPU(s), device {args.device}, best of {args.repeat}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print(
        f"{'kernel':<11} {'size':<18} {'in-process':>10} {'inputs':>9} {'1 worker':>9} "
        f"{f'{w} workers':>10} {'speed-up':>9}"
    )
    for name in CASES:
        t = times[name]
        size = ",".join(f"{k}={v}" for k, v in CASES[name][args.quick].items())
        for how in ("moved", "resident"):
            one, many = t[1, how], t[w, how]
            print(
                f"{name:<11} {size:<18} {t['in-process']:>9.3f}s {how:>9} {one:>8.3f}s "
                f"{many:>9.3f}s {one / many:>8.2f}x"
            )


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def cluster(workers: int, cuda: bool):
    import dask.distributed as dd

    if cuda:
        from dask_cuda import LocalCUDACluster

        return LocalCUDACluster(n_workers=workers, dashboard_address=":0")
    return dd.LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure (best)")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--cuda", action="store_true", help="dask-cuda: one worker per GPU")
    parser.add_argument("--workers", type=int, default=2, help="the larger cluster (default 2)")
    args = parser.parse_args()
    import dask.distributed as dd

    with tempfile.TemporaryDirectory(prefix="b2t-dist-bench-") as tmp:
        modules = {name: load(name, Path(tmp)) for name in CASES}
        problems = {name: arguments(name, CASES[name][args.quick]) for name in CASES}
        times: dict[str, dict] = {name: {} for name in CASES}
        for name, module in modules.items():
            run_one = lambda m=module, a=problems[name]: m.run(*a, device=args.device)
            run_one()
            times[name]["in-process"], times[name]["want"] = best_time(run_one, args.repeat)
        for workers in (1, args.workers):
            with cluster(workers, args.cuda) as cl, dd.Client(cl) as client:
                for name, module in modules.items():
                    moved = problems[name]
                    resident = [
                        client.scatter(a, broadcast=True) if hasattr(a, "shape") else a
                        for a in moved
                    ]
                    for how, given in (("moved", moved), ("resident", resident)):
                        split = lambda m=module, a=given, c=client: scaleout.run(
                            m, *a, client=c, device=args.device
                        )
                        split()  # warm-up: module and offset kernel on every worker
                        seconds, got = best_time(split, args.repeat)
                        if not same_result(name, got, times[name]["want"]):
                            return 1
                        times[name][workers, how] = seconds
                    del resident

    report(times, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
