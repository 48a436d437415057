"""How a user builds a generated .cu file: the commands its header comment prints, and
the basic2tile headers it needs beside it.

`-o prog.cu` writes prog.cu and, beside it, the basic2tile headers it includes
(b2t_cuda.h, and b2t_runtime.h for a legacy program), so that the nvcc command works in a
folder holding nothing else.  The CPU emulator (b2t_cuda_emu.h and b2t_emu/) stays in
basic2tile's include folder, which `basic2tile --include-dir` prints: the g++ command
names it with -I.  Both commands are the ones the tests run.
"""

from __future__ import annotations

import re
import shlex

from ...verify.cuda_headers import b2t_include_dir

# The basic2tile headers a generated .cu may include (from the folder beside it).
SUPPORT_HEADERS = ("b2t_cuda.h", "b2t_runtime.h")
# nvcc compiles the generated code as C++17.  The CPU emulator needs C++20 (std::atomic
# wait/notify in its thread pool, std::atomic_ref); -fcf-protection=none because it
# switches fiber stacks by hand, which a CET shadow stack would reject; -fwrapv because
# the GPU's signed integers wrap around; -Wno-unknown-pragmas because g++ does not know
# CUDA's `#pragma unroll` (and GCC 12 cannot silence it from a header).
NVCC_ARCH = "sm_90"


def exe_name(file_name: str) -> str:
    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    return stem or "prog"


def nvcc_command(file_name: str) -> str:
    return f"nvcc -arch={NVCC_ARCH} -std=c++17 {_files(file_name)}"


def cpu_command(file_name: str) -> str:
    return (
        "g++ -std=c++20 -O2 -pthread -fwrapv -fcf-protection=none -Wno-unknown-pragmas"
        ' -I"$(basic2tile --include-dir)"'
        f" -x c++ {_files(file_name)}"
    )


def _files(file_name: str) -> str:
    return f"{shlex.quote(file_name)} -o {shlex.quote(exe_name(file_name))}"


def included_headers(code: str) -> list[str]:
    """The basic2tile headers `code` includes, in SUPPORT_HEADERS order."""
    included = set(re.findall(r'^#include "([^"]+)"', code, re.MULTILINE))
    return [name for name in SUPPORT_HEADERS if name in included]


def header_text(name: str) -> str:
    return (b2t_include_dir() / name).read_text(encoding="utf-8")


def is_ours(text: str, name: str) -> bool:
    """Whether `text` is some version of basic2tile's header `name` (its first line)."""
    return text.startswith(f"// {name} -- ")
