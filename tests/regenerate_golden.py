"""Rewrite golden/ from the current transpiler: `make golden`.

    python -m tests.regenerate_golden            # generated code, outputs, decisions
    python -m tests.regenerate_golden --bwbasic  # also golden/bwbasic/*.out (needs bwbasic)

Review the diff of golden/ before committing it: it is exactly what users will get.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess

from tests.golden_cases import GOLDEN, ROOT, cases, generated, uses_mat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bwbasic", action="store_true", help="also rerun Debian's bwbasic")
    args = parser.parse_args()
    written = 0
    for case in cases():
        case.golden("").parent.mkdir(parents=True, exist_ok=True)
        for suffix, text in generated(case).items():
            path = case.golden(suffix)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
                written += 1
    if args.bwbasic:
        written += _rerun_bwbasic()
    print(f"golden/: {written} file(s) changed")
    return 0


def _rerun_bwbasic() -> int:
    from tests.bwbasic import run_bwbasic

    if shutil.which("bwbasic") is None:
        raise SystemExit("bwbasic is not installed (Debian: apt install bwbasic)")
    written = 0
    for case in cases():
        if case.group != "legacy" or uses_mat(ROOT / case.source):
            continue  # bwbasic has no MAT statements
        try:
            text = run_bwbasic(ROOT / case.source)
        except subprocess.CalledProcessError as exc:
            print(f"skipped {case.source}: bwbasic failed ({exc})")
            continue
        path = GOLDEN / "bwbasic" / f"{case.name}.out"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
            written += 1
    return written


if __name__ == "__main__":
    raise SystemExit(main())
