"""Differential fuzzing at scale: N random programs through the reference interpreter, the
generated cuTile Python and the generated CUDA C++ (both on the CPU), and bwbasic.

    python bench/fuzz.py [--count 10000] [--seed 0] [--jobs 2] [--targets cutile,cuda]
                         [--precision both|f64|f32] [--no-bwbasic] [--exceptions]
                         [--tile T]

Program i is tests/programgen.random_program(seed + i, statements), so a failing seed
reproduces with `--seed S --count 1`.  `--tile 4` gives every kernel tiny tiles (2x2 for a
nest): partial tiles and many blocks, which the programs' small loops rarely need.
`--nests` fuzzes affine loop nests instead (tests/nestgen.py: distance vectors,
triangular, skewed, strided and backward bounds, imperfect nests, `%` and DEFINT loop
variables; every third program with `--tile 4`), where a dependence the offload
decision misses prints a different element.  `--exceptions` adds the generator's near misses of
run-time exceptions (warnings and errors are compared too; bwbasic is not asked, its
messages differ).  With `--precision both` (the default) odd seeds run
with `--precision f32`, even ones with f64.  Prints a summary (programs, agreements, failures
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
from tests.nestgen import nest_program
from tests.programgen import random_program


def statements_for(seed: int) -> int:
    """Program sizes cycle through 1..20 statements, deterministically per seed."""
    return 1 + seed % 20


ROUNDING_ONLY = "f32 rounding only: the same program agrees with the interpreter in f64"


def precision_for(seed: int, choice: str) -> str | None:
    if choice == "both":
        return "f32" if seed % 2 else None
    return None if choice == "f64" else choice


def check_seed(
    seed: int,
    targets: tuple[str, ...],
    bwbasic: bool,
    precision: str,
    exceptions: bool = False,
    tile: tuple[int, ...] | None = None,
    nests: bool = False,
) -> tuple[int, list[str]]:
    if nests:
        program = nest_program(seed)
        # Every third nest program with tiny tiles (partial tiles, many blocks).
        tile = tile or ((4,) if seed % 3 == 0 else None)
    else:
        program = random_program(seed, statements_for(seed), exceptions)
    chosen = precision_for(seed, precision)
    try:
        # bwbasic computes in double: compare its numbers only with f64 runs.
        outcome = differential(
            program,
            f"seed{seed}",
            targets,
            precision=chosen,
            bwbasic=bwbasic and not chosen,
            tile=tile,
        )
        if chosen and outcome.problems:
            # Kernels compute in float32 where the interpreter keeps double intermediates
            # (docs/command-line.md: --precision): a value near an INT step or a sum with cancellation
            # may differ.  If the same program agrees in f64, the logic is right.
            if differential(program, f"seed{seed}", targets, tile=tile).agrees:
                return seed, [ROUNDING_ONLY, *outcome.problems]
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, not the end of the run
        return seed, [f"crash: {type(exc).__name__}: {exc}"]
    return seed, outcome.problems


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=10_000, help="number of programs")
    p.add_argument("--seed", type=int, default=0, help="seed of the first program")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--targets", default="cutile,cuda", help="comma-separated: cutile, cuda")
    p.add_argument(
        "--precision", choices=("both", "f64", "f32"), default="both", help="number type"
    )
    p.add_argument("--no-bwbasic", action="store_true", help="skip the comparison with bwbasic")
    p.add_argument(
        "--exceptions", action="store_true", help="near misses of run-time exceptions too"
    )
    p.add_argument(
        "--tile", type=int, default=None, help="tile size of every kernel (a power of two)"
    )
    p.add_argument(
        "--nests",
        action="store_true",
        help="affine loop nests whose dependences must be exact (tests/nestgen.py)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress line")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    targets = tuple(t for t in args.targets.split(",") if t)
    bwbasic = not args.no_bwbasic and not args.exceptions and BWBASIC is not None
    seeds = range(args.seed, args.seed + args.count)
    failures: dict[int, list[str]] = {}
    rounding: dict[int, list[str]] = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        n = len(seeds)
        results = pool.map(
            check_seed,
            seeds,
            [targets] * n,
            [bwbasic] * n,
            [args.precision] * n,
            [args.exceptions] * n,
            [(args.tile,) if args.tile else None] * n,
            [args.nests] * n,
        )
        for done, (seed, problems) in enumerate(results, 1):
            if problems and problems[0] == ROUNDING_ONLY:
                rounding[seed] = problems[1:]
            elif problems:
                failures[seed] = problems
                if not args.quiet:  # at once: a long run stopped early still names it
                    print(f"  seed {seed} fails: {problems[0][:200]}", file=sys.stderr)
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
    print(f"agreements: {len(seeds) - len(failures) - len(rounding)}")
    print(f"f32 rounding only (agree in f64): {len(rounding)}")
    for seed, problems in sorted(rounding.items()):
        print(f"  seed {seed} (statements={statements_for(seed)}): {problems[0]}")
    print(f"failures:   {len(failures)}")
    for seed, problems in sorted(failures.items()):
        chosen = precision_for(seed, args.precision) or "f64"
        print(f"  seed {seed} (statements={statements_for(seed)}, {chosen}):")
        for problem in problems[:5]:
            print("    " + problem.replace("\n", "\n    "))
    print(
        f"time:       {elapsed:.1f} s ({elapsed / max(1, len(seeds)):.2f} s per program, "
        f"{args.jobs} jobs)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
