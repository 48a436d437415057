"""Compile and link a whole CUDA C++ program (host and device code) with nvcc.

    exe = build_nvcc("saxpy.cu", "saxpy", arch="sm_90")

This checks that generated code is valid CUDA for the real toolchain; running the result
needs a GPU.  nvcc is taken from $NVCC, then PATH, then /usr/local/cuda/bin.  (The pip wheel
nvidia-cuda-nvcc ships an nvcc without the CCCL headers cuda_fp16.h needs, so it is not
looked for.)  A failure raises NvccError carrying nvcc's output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from .cuda_headers import b2t_include_dir

FLAGS = ("-std=c++17",)


class NvccError(Exception):
    """nvcc rejected a program; `output` is what it printed."""

    def __init__(self, source: Path, command: list[str], output: str):
        super().__init__(f"nvcc failed to build {source}")
        self.source = source
        self.command = command
        self.output = output

    def __str__(self) -> str:
        return f"{self.args[0]}:\n{self.output.rstrip()}"


def find_nvcc() -> Path | None:
    """The nvcc to use, or None when there is none."""
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def build_nvcc(
    cu_path: str | Path,
    exe_path: str | Path,
    arch: str = "sm_90",
    *,
    extra_flags: Iterable[str] = (),
    timeout: float | None = 600,
) -> Path:
    """Compile and link `cu_path` for `arch` into `exe_path`."""
    nvcc = find_nvcc()
    if nvcc is None:
        raise FileNotFoundError("nvcc not found (set NVCC, or put it on PATH)")
    source, target = Path(cu_path), Path(exe_path)
    command = [str(nvcc), f"-arch={arch}", *FLAGS, f"-I{b2t_include_dir()}", *extra_flags]
    command += [str(source), "-o", str(target)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise NvccError(source, command, done.stdout + done.stderr)
    return target
