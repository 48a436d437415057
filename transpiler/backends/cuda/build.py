"""How a user builds a generated .cu file: the commands its header comment prints, and
the basic2tile headers it needs beside it.

`-o prog.cu` writes prog.cu and, beside it, the basic2tile headers it includes
(b2t_cuda.h; b2t_runtime.h for a legacy program, b2t_launch.h when its loops became
kernels) and the CPU emulator b2t_cuda.h
includes under a host compiler (b2t_cuda_emu.h, with the b2t_emu/ headers of basic2tile's
include folder inlined into that one file), so that both commands work in a folder holding
nothing else, from any working directory (a quoted #include is looked for beside the file
that includes it first), whether or not basic2tile is installed there: they name no
include folder.  Both commands are the ones the tests run.
"""

from __future__ import annotations

import re
import shlex

from ...verify.cuda_headers import b2t_include_dir

# The basic2tile headers a generated .cu may include (from the folder beside it), and the
# one b2t_cuda.h includes on the CPU.
SUPPORT_HEADERS = ("b2t_cuda.h", "b2t_runtime.h", "b2t_launch.h", "b2t_cuda_emu.h")
# What b2t_cuda.h includes in turn: written with it.
_INCLUDED_BY = {"b2t_cuda.h": "b2t_cuda_emu.h"}
# nvcc compiles the generated code as C++17.  The CPU emulator needs C++20 (std::atomic
# wait/notify in its thread pool, std::atomic_ref); -fcf-protection=none because it
# switches fiber stacks by hand, which a CET shadow stack would reject; -fwrapv because
# the GPU's signed integers wrap around; -Wno-unknown-pragmas because g++ does not know
# CUDA's `#pragma unroll` (and GCC 12 cannot silence it from a header).
NVCC_ARCH = "sm_90"


def grid_nonempty(grid: list[str]) -> str:
    """The C++ test that a launch of `dim3 grid(x, y, z)` has blocks: the axes whose size is
    not a positive literal (`grid.y > 0` for a literal 1 is noise); grid.x when all are."""
    tests = [f"grid.{axis} > 0" for axis, size in zip("xyz", grid) if not _positive_literal(size)]
    return " && ".join(tests) or "grid.x > 0"


def _positive_literal(text: str) -> bool:
    return text.isdigit() and int(text) > 0


def exe_name(file_name: str) -> str:
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    return stem or "prog"


def nvcc_command(file_name: str) -> str:
    return f"nvcc -arch={NVCC_ARCH} -std=c++17 {_files(file_name)}"


def cpu_command(file_name: str) -> str:
    return (
        "g++ -std=c++20 -O2 -pthread -fwrapv -fcf-protection=none -Wno-unknown-pragmas"
        f" -x c++ {_files(file_name)}"
    )


def _files(file_name: str) -> str:
    return f"{shlex.quote(file_name)} -o {shlex.quote(exe_name(file_name))}"


def included_headers(code: str) -> list[str]:
    """The basic2tile headers `code` includes, in SUPPORT_HEADERS order."""
    included = set(re.findall(r'^#include "([^"]+)"', code, re.MULTILINE))
    included |= {_INCLUDED_BY[name] for name in included if name in _INCLUDED_BY}
    return [name for name in SUPPORT_HEADERS if name in included]


def header_text(name: str) -> str:
    """The text written beside a .cu for header `name`: the emulator as one file."""
    path = b2t_include_dir() / name
    if name == "b2t_cuda_emu.h":
        return "".join(_inlined(path, set()))
    return path.read_text(encoding="utf-8")


def _inlined(path, seen: set) -> list[str]:
    """The lines of `path` with each header it includes by a quoted name put in its place,
    the first time only (as its `#pragma once` would), for a header that stands alone."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        included = re.fullmatch(r'#include "([^"]+)"\s*', line)
        if included is None:
            lines.append(line)
            continue
        target = (path.parent / included.group(1)).resolve()
        if target in seen:
            continue
        seen.add(target)
        name = target.relative_to(b2t_include_dir().resolve()).as_posix()
        lines.append(f"// ---- {name} (inlined from basic2tile's include folder)\n")
        lines += [x for x in _inlined(target, seen) if x.strip() != "#pragma once"]
        lines.append(f"// ---- end of {name}\n")
    return lines


def is_ours(text: str, name: str) -> bool:
    """Whether `text` is some version of basic2tile's header `name` (its first line)."""
    return text.startswith(f"// {name} -- ")
