"""Ahead-of-time compilation of real `@ct.kernel` kernels with NVIDIA's compiler, no GPU needed.

    paths = export(module.saxpy, [ParamSpec.array(ct.float32, 1), ParamSpec.array(ct.float32, 1),
                                  ParamSpec.scalar(ct.float32), ParamSpec.constant(1024)],
                   out_dir)

writes `saxpy.tileirbc` (architecture-independent Tile IR bytecode) and `saxpy.sm_80.cubin`,
`saxpy.sm_90.cubin`, `saxpy.sm_100.cubin`.  The front end (cuTile's, through the public
`export_kernel`) runs once per target; the slow part, `tileiras`, runs for all
architectures in parallel threads and its cubins are cached by content, so recompiling an
unchanged kernel is nearly free.  Any compiler diagnostic comes back as
`CutileCompileError` carrying the compiler's message and its location in the kernel source.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cuda.tile as ct

# The cubin step has no public API; these are cuTile 1.7's own helpers (pinned in pyproject),
# so flags, optimisation level and error parsing match what `export_kernel` would do.
from cuda.tile._compile import _get_compiler_version_string, compile_cubin
from cuda.tile.compilation import (
    ArrayConstraint,
    CallingConvention,
    ConstantConstraint,
    KernelSignature,
    ScalarConstraint,
    export_kernel,
)

ARCHS = ("sm_80", "sm_90", "sm_100")
FORMATS = ("tileir", "cubin")


@dataclass(frozen=True)
class ParamSpec:
    """How one kernel parameter is passed: an array, a scalar, or a compile-time constant."""

    kind: Literal["array", "scalar", "constant"]
    dtype: object = None
    ndim: int | None = None
    value: bool | int | float | None = None
    contiguous: bool = True

    @classmethod
    def array(cls, dtype, ndim: int, *, contiguous: bool = True) -> ParamSpec:
        """An array; `contiguous` promises a last-axis stride of 1 (as NumPy C order gives)."""
        return cls("array", dtype=dtype, ndim=ndim, contiguous=contiguous)

    @classmethod
    def scalar(cls, dtype) -> ParamSpec:
        return cls("scalar", dtype=dtype)

    @classmethod
    def constant(cls, value: bool | float) -> ParamSpec:
        """The value of a `ct.Constant[...]` parameter: the kernel is specialised for it."""
        return cls("constant", value=value)

    def constraint(self):
        if self.kind == "constant":
            return ConstantConstraint(self.value)
        dtype = _ct_dtype(self.dtype)
        if self.kind == "scalar":
            return ScalarConstraint(dtype)
        ndim = self.ndim
        return ArrayConstraint(
            dtype,
            ndim,
            index_dtype=ct.int32,
            stride_lower_bound_incl=0,
            alias_groups=(),
            may_alias_internally=False,
            stride_constant=((None,) * (ndim - 1) + (1,)) if self.contiguous and ndim else None,
        )


class CutileCompileError(Exception):
    """cuTile's front end or tileiras rejected a kernel.

    `filename`, `line` and `column` locate the message in the kernel's Python source when the
    compiler gave a location (1-based line and column; None otherwise).
    """

    def __init__(
        self,
        kernel: str,
        target: str,
        stage: str,
        message: str,
        filename: str | None,
        line: int | None,
        column: int | None,
    ):
        super().__init__(message)
        self.kernel = kernel
        self.target = target
        self.stage = stage
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ""
        if self.filename and self.line:
            where = f" at {self.filename}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"cuTile {self.stage} error in kernel '{self.kernel}' ({self.target}){where}: " + (
            self.message
        )


def export(
    kernel,
    params: Sequence[ParamSpec],
    out_dir: str | os.PathLike,
    formats: Sequence[str] = FORMATS,
    archs: Sequence[str] = ARCHS,
    *,
    bytecode_version: str | None = None,
    calling_convention: str = "cutile_python_v1",
    symbol: str | None = None,
    jobs: int | None = None,
) -> list[Path]:
    """Compile `kernel` for `params`; return the written files (bytecode first, then cubins).

    `bytecode_version` None means the newest the installed tileiras accepts; `symbol` None
    means cuTile's mangled kernel name; `jobs` bounds parallel tileiras runs (default: one
    per architecture, at most one per CPU).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"Unknown output formats {sorted(unknown)}; choose from {FORMATS}")
    name = kernel._pyfunc.__name__
    signature = KernelSignature(
        [p.constraint() for p in params],
        getattr(CallingConvention, calling_convention)(),
        symbol,
    )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if "tileir" in formats:
        path = out / f"{name}.tileirbc"
        path.write_bytes(_bytecode(kernel, signature, None, bytecode_version))
        written.append(path)
    if "cubin" in formats and archs:
        bytecodes = {arch: _bytecode(kernel, signature, arch, bytecode_version) for arch in archs}
        workers = jobs or min(len(archs), os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            cubins = pool.map(lambda arch: _cubin(kernel, name, arch, bytecodes[arch]), archs)
            for arch, cubin in zip(archs, cubins):
                path = out / f"{name}.{arch}.cubin"
                path.write_bytes(cubin)
                written.append(path)
    return written


def _ct_dtype(dtype):
    ct_dtype = getattr(dtype, "ct", dtype)  # tilesim dtypes wrap the cuTile ones
    if not isinstance(ct_dtype, ct.DType):
        raise TypeError(f"Expected a cuTile dtype, got {dtype!r}")
    return ct_dtype


def _bytecode(kernel, signature, arch: str | None, version: str | None) -> bytes:
    """Run cuTile's front end; `arch` None gives architecture-independent bytecode."""
    buffer = io.BytesIO()
    try:
        export_kernel(
            kernel,
            [signature],
            buffer,
            gpu_code=arch,
            output_format="tileir_bytecode",
            bytecode_version=version,
        )
    except ct.TileError as error:
        raise _compile_error(kernel, arch or "tileir", "front-end", error) from error
    return buffer.getvalue()


def _cubin(kernel, name: str, arch: str, bytecode: bytes) -> bytes:
    options = kernel._compiler_options
    key = hashlib.sha256(
        b"\0".join(
            [
                bytecode,
                arch.encode(),
                str(options.opt_level_for_target(arch)).encode(),
                (_compiler_version() or "").encode(),
            ]
        )
    ).hexdigest()
    cached = _cache_dir() / f"{key}.cubin"
    if cached.is_file():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory(prefix=f"{name}-{arch}-", dir=_temp_root()) as work:
        source = Path(work) / f"{name}.tileirbc"
        source.write_bytes(bytecode)
        try:
            cubin = compile_cubin(str(source), options, arch, timeout_sec=None).read_bytes()
        except ct.TileError as error:
            raise _compile_error(kernel, arch, "tileiras", error) from error
    partial = cached.with_suffix(f".{threading.get_ident()}.tmp")
    partial.write_bytes(cubin)
    partial.replace(cached)  # atomic: concurrent test workers may share the cache
    return cubin


def _compile_error(kernel, target: str, stage: str, error: ct.TileError) -> CutileCompileError:
    loc = error.loc
    known = not loc.is_unknown()
    # Nested cuTile errors embed their own (unknown) location line in the message.
    lines = [line for line in error.message.splitlines() if line.strip() != "Unknown location"]
    return CutileCompileError(
        kernel._pyfunc.__name__,
        target,
        stage,
        "\n".join(lines).strip(),
        loc.filename if known else None,
        loc.line if known else None,
        loc.col + 1 if known and loc.col is not None else None,  # Loc columns are 0-based
    )


_lock = threading.Lock()
_private_dirs: dict[str, Path] = {}


def _private_dir(kind: str) -> Path:
    with _lock:
        if kind not in _private_dirs:
            path = Path(tempfile.mkdtemp(prefix=f"basic2tile-cutile-{kind}-"))
            atexit.register(shutil.rmtree, path, True)
            _private_dirs[kind] = path
        return _private_dirs[kind]


def _cache_dir() -> Path:
    """CUDA_TILE_CACHE_DIR if the caller set one, else a private directory for this process."""
    configured = os.environ.get("CUDA_TILE_CACHE_DIR", "")
    if configured.strip().lower() in ("", "0", "off", "none"):
        return _private_dir("cache")
    path = Path(configured) / "basic2tile-aot"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _temp_root() -> Path:
    configured = os.environ.get("CUDA_TILE_TEMP_DIR", "")
    if configured:
        Path(configured).mkdir(parents=True, exist_ok=True)
        return Path(configured)
    return _private_dir("temp")


_version: list[str | None] = []


def _compiler_version() -> str | None:
    with _lock:
        if not _version:
            _version.append(_get_compiler_version_string())
        return _version[0]
