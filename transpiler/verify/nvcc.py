"""Compile and link a whole CUDA C++ program (host and device code) with nvcc.

    exe = build_nvcc("saxpy.cu", "saxpy", arch="sm_90")

This checks that generated code is valid CUDA for the real toolchain; running the result
needs a GPU.  nvcc is taken from $NVCC, then PATH, then /usr/local/cuda/bin, then the
[nvidia] extra's (`extra_nvcc`).  A failure raises NvccError carrying nvcc's output.

The extra's nvcc is NVIDIA's wheels, as cuda-toolkit[nvcc,cccl] installs them under
site-packages/nvidia/cu13/: bin/nvcc (nvidia-cuda-nvcc), include/crt/host_config.h
(nvidia-cuda-crt), include/cuda_runtime.h and lib/libcudart_static.a (nvidia-cuda-runtime)
and include/cccl/nv/target (nvidia-cuda-cccl).  The nvcc.profile beside that nvcc puts
include/ and include/cccl on its path, so it needs no -I of its own; the nvcc wheel alone
lacks CCCL (cuda_fp16.h includes <nv/target>), and nvidia-cuda-nvcc 13.0.48 lacked crt/.
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


# What the extra's nvcc needs beside it (under nvidia/cu13/), and the wheel that brings it.
EXTRA_NVCC_FILES = {
    "bin/nvcc": "nvidia-cuda-nvcc",
    "include/crt/host_config.h": "nvidia-cuda-crt",
    "include/cuda_runtime.h": "nvidia-cuda-runtime",
    "include/cccl/nv/target": "nvidia-cuda-cccl",
}


def find_nvcc() -> Path | None:
    """The nvcc to use, or None when there is none."""
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and _is_executable(Path(candidate)):
            return Path(candidate)
    return extra_nvcc()


def extra_nvcc() -> Path | None:
    """The nvcc of the [nvidia] extra, where every wheel it needs is installed."""
    root = _extra_toolkit_root()
    if root is None or missing_extra_nvcc_files(root):
        return None
    return root / "bin" / "nvcc"


def missing_extra_nvcc_files(root: Path | None = None) -> list[str]:
    """`file (wheel)` for each file of the extra's nvcc toolkit that is not installed."""
    root = root or _extra_toolkit_root()
    return [
        f"nvidia/cu13/{name} ({wheel})"
        for name, wheel in EXTRA_NVCC_FILES.items()
        if root is None or not (root / name).is_file()
    ]


def _extra_toolkit_root() -> Path | None:
    """site-packages/nvidia/cu13 holding bin/nvcc, or None."""
    try:
        import nvidia  # the namespace package of NVIDIA's wheels
    except ImportError:
        return None
    for folder in getattr(nvidia, "__path__", []):
        root = Path(folder) / "cu13"
        if _is_executable(root / "bin" / "nvcc"):
            return root
    return None


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


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
