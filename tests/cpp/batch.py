"""Build many generated CUDA C++ programs with one g++ call, for the CPU emulator.

Each generated program is a whole .cu file with its own `main`.  Compiling 130 of them
one by one costs 130 times the emulator's headers; here several programs share one
translation unit instead: each program's text, unchanged, sits in a namespace of its own
with `main` renamed by a macro, and the batch's `main(argc, argv)` runs the program
named by argv[1].  The headers are included once before (their `#pragma once` makes the
programs' own includes no-ops), so what is compiled is exactly the generated code.

Builds go through `transpiler.verify.cpu_cuda.build_cpu` (g++, the emulator header,
its cache); a file lock makes concurrent pytest-xdist workers wait for one build of a
batch instead of compiling it twice.
"""

from __future__ import annotations

import fcntl
import hashlib
import re
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from transpiler.verify.cpu_cuda import build_cpu, run_cpu

_FOLDER = Path(tempfile.gettempdir()) / "b2t-cuda-host-batches"
_PRELUDE = """\
#include "b2t_cuda.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "b2t_runtime.h"
"""


def _namespace(name: str) -> str:
    return "program_" + re.sub(r"\W", "_", name)


def batch_source(programs: Mapping[str, str]) -> str:
    """One translation unit running the program named by argv[1]."""
    parts = [_PRELUDE]
    for name, code in programs.items():
        parts.append(f"namespace {_namespace(name)} {{\n#define main program_main\n")
        parts.append(code)
        parts.append("\n#undef main\n}\n")
    parts.append("int main(int argc, char** argv) {\n  if (argc < 2) return 99;\n")
    for name in programs:
        parts.append(
            f'  if (std::strcmp(argv[1], "{name}") == 0) return {_namespace(name)}::program_main();\n'
        )
    parts.append("  return 99;\n}\n")
    return "".join(parts)


def build_batch(programs: Mapping[str, str]) -> Path:
    """The executable holding `programs` (name -> generated .cu text)."""
    source = batch_source(programs)
    key = hashlib.sha256(source.encode()).hexdigest()[:24]
    _FOLDER.mkdir(parents=True, exist_ok=True)
    path = _FOLDER / f"batch-{key}.cu"
    with open(_FOLDER / f"batch-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker builds, the others reuse its work
        if not path.is_file():
            path.write_text(source)
        return build_cpu(path)


def run_program(
    exe: Path, name: str, stdin: str = "", env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess:
    return run_cpu(exe, stdin=stdin, args=[name], env=env, timeout=120)
