"""Compile the device code of a CUDA C++ program with NVRTC; no GPU or driver is needed.

    cubin = compile_cuda(source, "saxpy.cu", arch="sm_90")            # ELF for sm_90
    ptx = compile_cuda(source, "saxpy.cu", arch="sm_90", output="ptx")  # text for compute_90

NVRTC compiles device code only: generated programs fence their host code with
`#ifndef __CUDACC_RTC__`, and b2t_cuda.h picks NVIDIA's headers for NVRTC.  The include
path always holds basic2tile's headers and NVIDIA's (found from the pip wheels, see
cuda_headers).  A failed compilation raises NvrtcError carrying NVRTC's log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from cuda.bindings import nvrtc

from .cuda_headers import b2t_include_dir, cuda_include_dir

ARCHS = ("sm_80", "sm_90", "sm_100")
DEFAULT_OPTIONS = ("--std=c++17",)
_ARCH = re.compile(r"(sm|compute)_(\d+[a-z]?)")


class NvrtcError(Exception):
    """NVRTC rejected a program (or an option); `log` is NVRTC's own report."""

    def __init__(self, name: str, target: str, result: str, log: str):
        super().__init__(f"{name}: NVRTC failed for {target} ({result})")
        self.name = name
        self.target = target
        self.result = result
        self.log = log

    def __str__(self) -> str:
        return f"{self.args[0]}\n{self.log.rstrip()}" if self.log.strip() else self.args[0]


def gpu_target(arch: str, output: Literal["cubin", "ptx"]) -> str:
    """The --gpu-architecture value: sm_XX for a cubin, compute_XX for PTX."""
    match = _ARCH.fullmatch(arch)
    if not match:
        raise ValueError(f"not a GPU architecture: {arch!r} (expected e.g. 'sm_90')")
    kind, number = match.groups()
    if output == "ptx":
        return f"compute_{number}"
    if output == "cubin":
        if kind == "compute":
            raise ValueError(f"no cubin for a virtual architecture: {arch!r}; use sm_{number}")
        return f"sm_{number}"
    raise ValueError(f"output must be 'cubin' or 'ptx', not {output!r}")


def compile_cuda(
    source: str,
    name: str,
    arch: str = "sm_90",
    output: Literal["cubin", "ptx"] = "cubin",
    include_dirs: Iterable[str | Path] = (),
    options: Iterable[str] = DEFAULT_OPTIONS,
) -> bytes:
    """Compile `source` (named `name` in diagnostics) to a cubin or to PTX text."""
    target = gpu_target(arch, output)
    includes = [b2t_include_dir(), cuda_include_dir(), *map(Path, include_dirs)]
    argv = [f"--gpu-architecture={target}", *(f"-I{d}" for d in includes), *options]
    program = _call("nvrtcCreateProgram", name, target, source.encode(), name.encode(), 0, [], [])
    try:
        (result,) = nvrtc.nvrtcCompileProgram(program, len(argv), [a.encode() for a in argv])
        if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise NvrtcError(name, target, _result_name(result), _program_log(program))
        if output == "cubin":
            size = _call("nvrtcGetCUBINSize", name, target, program)
            buffer = bytearray(size)
            _call("nvrtcGetCUBIN", name, target, program, buffer)
            return bytes(buffer)
        size = _call("nvrtcGetPTXSize", name, target, program)
        buffer = bytearray(size)
        _call("nvrtcGetPTX", name, target, program, buffer)
        return bytes(buffer).rstrip(b"\0")
    finally:
        nvrtc.nvrtcDestroyProgram(program)


def _call(function: str, name: str, target: str, *args):
    """Call an NVRTC function; return its value, raise NvrtcError on a failing code."""
    result, *values = getattr(nvrtc, function)(*args)
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise NvrtcError(name, target, f"{function}: {_result_name(result)}", "")
    return values[0] if values else None


def _result_name(result) -> str:
    err, text = nvrtc.nvrtcGetErrorString(result)
    return text.decode() if err == nvrtc.nvrtcResult.NVRTC_SUCCESS else str(result)


def _program_log(program) -> str:
    err, size = nvrtc.nvrtcGetProgramLogSize(program)
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS or size <= 1:
        return ""
    buffer = bytearray(size)
    (err,) = nvrtc.nvrtcGetProgramLog(program, buffer)
    return bytes(buffer).rstrip(b"\0").decode(errors="replace")
