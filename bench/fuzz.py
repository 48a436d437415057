"""Differential fuzzing at scale: N random programs through the reference interpreter, the
generated cuTile Python and the generated CUDA C++ (both on the CPU), and bwbasic.

    python bench/fuzz.py [--count 10000] [--seed 0] [--jobs 2] [--targets cutile,cuda]
                         [--no-bwbasic]

Program i is tests/programgen.random_program(seed + i, statements), so a failing seed
reproduces with `--seed S --count 1`.  Prints a summary (programs, agreements, failures
with their seeds, time) and exits 1 when any program disagrees.  Not part of `make test`
(about 2 s of CPU per program with CUDA); tests/test_fuzz.py runs a handful.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.differential import BWBASIC, differential
from tests.programgen import random_program


def statements_for(seed: int) -> int:
    """Program sizes cycle through 1..20 statements, deterministically per seed."""
    return 1 + seed % 20


def check_seed(seed: int, targets: tuple[str, ...], bwbasic: bool) -> tuple[int, list[str]]:
    try:
        outcome = differential(
            random_program(seed, statements_for(seed)), f"seed{seed}", targets, bwbasic=bwbasic
        )
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, not the end of the run
        return seed, [f"crash: {type(exc).__name__}: {exc}"]
    return seed, outcome.problems


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=10_000, help="number of programs")
    p.add_argument("--seed", type=int, default=0, help="seed of the first program")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--targets", default="cutile,cuda", help="comma-separated: cutile, cuda")
    p.add_argument("--no-bwbasic", action="store_true", help="skip the comparison with bwbasic")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    targets = tuple(t for t in args.targets.split(",") if t)
    bwbasic = not args.no_bwbasic and BWBASIC is not None
    seeds = range(args.seed, args.seed + args.count)
    failures: dict[int, list[str]] = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(check_seed, seeds, [targets] * len(seeds), [bwbasic] * len(seeds))
        for done, (seed, problems) in enumerate(results, 1):
            if problems:
                failures[seed] = problems
            if not args.quiet and (done % 50 == 0 or done == len(seeds)):
                rate = done / (time.perf_counter() - start)
                print(
                    f"  {done}/{len(seeds)} programs, {len(failures)} failing, {rate:.2f}/s",
                    file=sys.stderr,
                )
    elapsed = time.perf_counter() - start
    compared = ", ".join(["interpreter", *targets] + (["bwbasic"] if bwbasic else []))
    print(f"programs:   {len(seeds)} (seeds {args.seed}..{args.seed + args.count - 1})")
    print(f"compared:   {compared}")
    print(f"agreements: {len(seeds) - len(failures)}")
    print(f"failures:   {len(failures)}")
    for seed, problems in sorted(failures.items()):
        print(f"  seed {seed} (statements={statements_for(seed)}):")
        for problem in problems[:5]:
            print("    " + problem.replace("\n", "\n    "))
    print(
        f"time:       {elapsed:.1f} s ({elapsed / max(1, len(seeds)):.2f} s per program, "
        f"{args.jobs} jobs)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
