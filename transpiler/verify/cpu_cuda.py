"""Build a CUDA C++ program for the CPU with g++ and the b2t_cuda_emu.h emulator, and run it.

    exe = build_cpu("saxpy.cu")                 # cached by content; or build_cpu(cu, "saxpy")
    result = run_cpu(exe, stdin="3\\n")          # a subprocess.CompletedProcess (text)

The command is `g++ -std=c++20 -O2 -pthread -fwrapv -I<headers> -include b2t_cuda_emu.h -x c++`.
Builds are cached in the temp folder (or $B2T_CPU_CACHE) under a hash of the compiler, the flags, basic2tile's
headers and the .cu text (other local headers the .cu includes are not hashed: pass
cache=False for such a program).  With the default flags the headers a build starts with
are precompiled once: the emulator, or for a translated BASIC program (b2t_cuda.h, then
b2t_runtime.h) the headers it includes, as the runtime is most of its build.  B2T_CPU_OPT
(e.g. -O0, which the test suite sets) replaces -O2.  A g++ failure raises CpuBuildError
carrying the compiler's output.

    build_cpu(cu, extra_flags=["-fsanitize=address", "-g"])

builds with AddressSanitizer, which reports a kernel reading or writing past the end of a
cudaMalloc'd buffer with the kernel's file and line.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from .cuda_headers import b2t_headers_digest, b2t_include_dir

# -fcf-protection=none: the emulator switches fiber stacks by hand, which a CET shadow
# stack (enabled by default in some distributions' compilers) would reject.
# -fwrapv: signed integer arithmetic wraps around, as the GPU's does (and as basic2tile
# defines I32 arithmetic); without it a C++ compiler may assume it never overflows.
FLAGS = ("-std=c++20", "-O2", "-pthread", "-fcf-protection=none", "-fwrapv")
EMULATOR = "b2t_cuda_emu.h"
# B2T_CPU_OPT=-O0 (or -O1, -Og) builds with that optimisation level instead of -O2: the
# test suite sets it, as it checks what programs print, not how fast they run, and -O0
# halves a build.  The command a generated file prints keeps -O2 (tests build with it too).
OPT_VARIABLE = "B2T_CPU_OPT"
_OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Og", "-Os")


class CpuBuildError(Exception):
    """g++ rejected a program; `output` is what the compiler printed."""

    def __init__(self, source: Path, command: list[str], output: str):
        super().__init__(f"g++ failed to build {source}")
        self.source = source
        self.command = command
        self.output = output

    def __str__(self) -> str:
        return f"{self.args[0]}:\n{self.output.rstrip()}"


def build_cpu(
    cu_path: str | Path,
    exe_path: str | Path | None = None,
    *,
    extra_flags: Iterable[str] = (),
    cache: bool = True,
) -> Path:
    """Compile `cu_path` for the CPU; return the executable (exe_path, or one in the cache)."""
    source = Path(cu_path)
    flags = (*build_flags(), *extra_flags)
    key = _hash(_compiler_id(), *flags, b2t_headers_digest(), source.read_bytes())
    cached = _cache_root() / key[:2] / key
    if not (cache and cached.is_file()):
        cached.parent.mkdir(parents=True, exist_ok=True)
        scratch = cached.with_name(f"{key}.{os.getpid()}.tmp")
        prelude = _prelude(flags, precompiled=not extra_flags, source=source)
        command = [_compiler(), *flags, *prelude, "-x", "c++", str(source)]
        command += ["-o", str(scratch)]
        done = subprocess.run(command, check=False, capture_output=True, text=True)
        if done.returncode != 0:
            raise CpuBuildError(source, command, done.stdout + done.stderr)
        os.replace(scratch, cached)  # atomic: concurrent builders of one key both succeed
    if exe_path is None:
        return cached
    target = Path(exe_path)
    shutil.copy2(cached, target)
    return target


def build_flags() -> tuple[str, ...]:
    """FLAGS with the optimisation level B2T_CPU_OPT names, if it names one."""
    level = os.environ.get(OPT_VARIABLE, "").strip()
    if not level:
        return FLAGS
    if level not in _OPT_LEVELS:
        raise ValueError(f"{OPT_VARIABLE}={level!r}: expected one of {', '.join(_OPT_LEVELS)}")
    return tuple(level if flag == "-O2" else flag for flag in FLAGS)


def run_cpu(
    exe_path: str | Path,
    stdin: str | None = None,
    *,
    args: Iterable[str] = (),
    timeout: float | None = 120,
    workers: int | None = None,
    reverse: bool = False,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """Run a program built by build_cpu; its exit status is for the caller to judge.

    workers: OS threads that run blocks (default one per core; 1 is deterministic).
    reverse: run each block's threads last to first, to expose a missing __syncthreads().
    A run longer than `timeout` seconds raises subprocess.TimeoutExpired.
    """
    environment = dict(os.environ if env is None else env)
    if workers is not None:
        environment["B2T_EMU_WORKERS"] = str(workers)
    if reverse:
        environment["B2T_EMU_REVERSE"] = "1"
    return subprocess.run(
        [str(exe_path), *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
    )


def _prelude(flags: tuple[str, ...], precompiled: bool, source: Path) -> list[str]:
    """-I and -include options: the emulator, precompiled if asked and g++ manages to."""
    include = b2t_include_dir()
    pch = _precompiled(flags, _precompilable_headers(source)) if precompiled else None
    emulator = pch if pch is not None else include / EMULATOR
    return [f"-I{include}", "-include", str(emulator)]


# A host program's first lines: comments, then `#include "b2t_cuda.h"`.
_LEADING_COMMENTS = re.compile(r"(?:[ \t]*(?://[^\n]*)?\n)*")
_OUR_INCLUDE = re.compile(r'^#include "(b2t_(?:cuda|runtime|launch)\.h)"[ \t]*$', re.MULTILINE)


def _precompilable_headers(source: Path) -> tuple[str, ...]:
    """The basic2tile headers to precompile for `source`: the emulator alone, or, for a
    host program (b2t_cuda.h first, b2t_runtime.h later), the headers it includes in its
    order, as the runtime is most of such a build.  The runtime then comes before the
    program's kernels; a kernel can use nothing of it (the printed command, which tests
    also run, would catch one that did).  Not where copies of the headers sit beside
    `source` (its includes would find those, not the precompiled ones)."""
    text = source.read_text(encoding="utf-8", errors="replace")
    first = _OUR_INCLUDE.search(text)
    names = tuple(_OUR_INCLUDE.findall(text))
    host_program = (
        first is not None
        and _LEADING_COMMENTS.fullmatch(text, 0, first.start()) is not None
        and names[0] == "b2t_cuda.h"
        and "b2t_runtime.h" in names
        and len(set(names)) == len(names)
    )
    if not host_program or any((source.parent / name).exists() for name in names):
        return (EMULATOR,)
    return names


def _precompiled(flags: tuple[str, ...], headers: tuple[str, ...]) -> Path | None:
    """A wrapper header including `headers` with its .gch beside it (g++ then reads the
    .gch), or None."""
    key = _hash(_compiler_id(), *flags, b2t_headers_digest(), *headers)
    folder = _cache_root() / "pch" / key
    wrapper, gch, failed = (folder / n for n in ("pch.h", "pch.h.gch", "failed"))
    if gch.is_file():
        return wrapper
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder; the others wait and reuse its work
        if gch.is_file():
            return wrapper
        if failed.is_file():
            return None
        _prune(folder.parent, keep=folder)
        wrapper.write_text("".join(f'#include "{b2t_include_dir() / h}"\n' for h in headers))
        scratch = folder / "pch.h.gch.tmp"
        done = subprocess.run(
            [_compiler(), *flags, "-x", "c++-header", str(wrapper), "-o", str(scratch)],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:  # not fatal: build from the text header instead
            failed.write_text(done.stdout + done.stderr)
            return None
        os.replace(scratch, gch)
        return wrapper


def _prune(pch_root: Path, keep: Path, max_age_s: float = 86400) -> None:
    """Drop precompiled headers of other keys unused for a day (each is about 80 MB)."""
    now = time.time()
    for folder in pch_root.iterdir():
        if folder != keep and folder.is_dir() and now - folder.stat().st_mtime > max_age_s:
            shutil.rmtree(folder, ignore_errors=True)


@functools.cache
def _compiler() -> str:
    found = shutil.which(os.environ.get("CXX", "g++"))
    if found is None:
        raise FileNotFoundError("g++ not found (set CXX to a C++20 compiler)")
    return found


@functools.cache
def _compiler_id() -> str:
    done = subprocess.run([_compiler(), "--version"], check=False, capture_output=True, text=True)
    return f"{_compiler()}\n{done.stdout}"


# B2T_CPU_CACHE names the cache folder: the test suite sets it, so that a basic2tile
# started with a TMPDIR of its own still finds the builds of the others.
CACHE_VARIABLE = "B2T_CPU_CACHE"


def default_cache_root() -> Path:
    return Path(tempfile.gettempdir()) / f"basic2tile-cpu-cuda-{os.getuid()}"


@functools.cache
def _cache_root() -> Path:
    root = Path(os.environ.get(CACHE_VARIABLE) or default_cache_root())
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return root


def _hash(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]
