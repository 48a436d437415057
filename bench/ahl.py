"""How many of Ahl's *BASIC Computer Games* basic2tile accepts, and how many run alike.

For each program of `../shared/corpus/ahl/programs/` (read there, never copied), with its
scripted input from `inputs/` when there is one:

1. compile: `basic2tile PROG --dialect ms -o PROG.py` and `-o PROG.cu` (the first error is reported);
2. check: `basic2tile PROG --dialect ms --check --device cpu` for each target, stdin from the script
   (the interpreter against the generated program: stdout, exit status, warnings).

    .venv/bin/python bench/ahl.py                 # every program, both targets
    .venv/bin/python bench/ahl.py 05 23_checkers  # the programs whose names start so
    .venv/bin/python bench/ahl.py --compile-only  # only step 1 (seconds, not minutes)

Prints one line per program and a summary; the exit status is 0.  Games loop on INPUT, so
most runs end when the scripted input runs out; that is their normal end, the same in
every engine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "ahl"
B2T = [sys.executable, "-m", "transpiler"]


def first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return stderr.strip().splitlines()[-1] if stderr.strip() else "(no message)"


def one(program: Path, compile_only: bool, timeout: float) -> tuple[str, str]:
    script = CORPUS / "inputs" / (program.stem + ".in")
    stdin = script.read_bytes() if script.exists() else b""
    with tempfile.TemporaryDirectory(prefix="b2t-ahl-") as tmp:
        for suffix in (".py", ".cu"):
            done = subprocess.run(
                [*B2T, str(program), "--dialect", "ms", "-o", str(Path(tmp) / ("prog" + suffix))],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                return "compile", first_error(done.stderr)
    if compile_only:
        return "compiled", ""
    for target in ("cutile", "cuda"):
        try:
            done = subprocess.run(
                [
                    *B2T,
                    str(program),
                    "--dialect",
                    "ms",
                    "--check",
                    "--device",
                    "cpu",
                    "--target",
                    target,
                    "--timeout",
                    str(timeout),
                ],
                input=stdin,
                capture_output=True,
                check=False,
                timeout=timeout * 3,
            )
        except subprocess.TimeoutExpired:
            return "check", f"{target}: no result in {timeout * 3:.0f} s"
        if done.returncode != 0:
            text = (done.stdout + done.stderr).decode("utf-8", "replace").strip().splitlines()
            return "check", f"{target}: " + (text[0] if text else f"exit {done.returncode}")
    return "passed", ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="program name prefixes (default: all)")
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}")
        return 0
    programs = sorted((CORPUS / "programs").glob("*.bas"))
    if args.names:
        programs = [p for p in programs if any(p.stem.startswith(n) for n in args.names)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: one(p, args.compile_only, args.timeout), programs))
    counts: dict[str, int] = {}
    for program, (status, detail) in zip(programs, results):
        counts[status] = counts.get(status, 0) + 1
        print(f"{program.stem:28} {status:9} {detail}")
    total = len(programs)
    compiled = total - counts.get("compile", 0)
    print(f"\n{total} programs: {compiled} compile to both targets", end="")
    if not args.compile_only:
        print(f", {counts.get('passed', 0)} pass --check on both targets", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
