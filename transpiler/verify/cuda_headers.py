"""Where the CUDA C++ headers are: basic2tile's own (b2t_cuda.h and the CPU emulator) and
NVIDIA's (cuda_fp16.h, mma.h, ...), found from the installed pip wheels first so that a fresh
machine without /usr/local/cuda works.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # transpiler/


def b2t_include_dir() -> Path:
    """The folder holding b2t_cuda.h, b2t_cuda_emu.h and b2t_emu/.

    transpiler/cpp_runtime, in a checkout and in an installed wheel alike.
    """
    candidate = _PACKAGE / "cpp_runtime"
    if (candidate / "b2t_cuda.h").is_file():
        return candidate
    raise FileNotFoundError(f"b2t_cuda.h not found under {_PACKAGE} or beside it")


def b2t_headers() -> list[Path]:
    """Every basic2tile CUDA header, in a stable order."""
    root = b2t_include_dir()
    return sorted(root.glob("*.h")) + sorted((root / "b2t_emu").glob("*.h"))


def b2t_headers_digest() -> str:
    """A hash of the headers' names and contents: part of every build cache key."""
    digest = hashlib.sha256()
    root = b2t_include_dir()
    for header in b2t_headers():
        digest.update(str(header.relative_to(root)).encode() + b"\0")
        digest.update(header.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def cuda_include_dir() -> Path:
    """NVIDIA's CUDA headers (cuda_fp16.h, cuda_bf16.h, mma.h), which NVRTC needs on its path.

    cuda.pathfinder (a dependency of cuda-bindings) looks in site-packages (the
    nvidia-cuda-runtime wheel, pulled in by cuda-tile[tileiras]) before conda and CUDA_HOME.
    """
    from cuda.pathfinder import find_nvidia_header_directory

    found = find_nvidia_header_directory("cudart")
    if found is None or not (Path(found) / "mma.h").is_file():
        raise FileNotFoundError(
            "CUDA headers (cuda_runtime.h, mma.h) not found: install the nvidia-cuda-runtime "
            "wheel (pip install 'basic2tile[nvidia]') or set CUDA_HOME"
        )
    return Path(found)
