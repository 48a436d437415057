"""`--emit`: the generated kernels compiled by NVIDIA's compilers into files (no GPU needed).

- `export_kernels`: the `@ct.kernel` functions of a generated cuTile module, through
  cuTile's ahead-of-time compiler (`cutile_aot`): Tile IR bytecode and cubins;
- `compile_kernels`: the device code of a generated .cu file, through NVRTC (`nvrtc`):
  PTX or a cubin.

NVIDIA's packages are imported when called: basic2tile runs without them, and the driver
reports their absence (`driver.emit_binaries`).
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from ..backends.cutile.program import kernel_interface
from ..errors import BasicError, Coord
from ..ir import kernel as ir
from ..ir.naming import kernel_namer


def compile_kernels(code: str, fmt: str, arch: str, out_dir, name: str) -> list[Path]:
    """`--emit ptx|cubin`: compile the device code of `code` with NVRTC for `arch`."""
    from .nvrtc import NvrtcError, compile_cuda

    if fmt not in ("ptx", "cubin"):
        raise BasicError(
            f"--emit {fmt} is for the cuTile target (--target cutile)", Coord(name, 0, 0)
        )
    try:
        binary = compile_cuda(code, f"{name}.cu", arch=arch, output=fmt)
    except (NvrtcError, ValueError) as exc:
        raise BasicError(
            f"NVRTC could not compile the generated CUDA: {exc}", Coord(f"{name}.cu", 0, 0)
        ) from None
    path = Path(out_dir) / f"{name}.{arch}.{fmt}"
    path.write_bytes(binary)
    return [path]


def aot_param_specs(kernel: ir.Kernel):
    """The parameter specifications NVIDIA's ahead-of-time compiler needs for `kernel`,
    as `kernel_interface` passes them (boxed f64 scalars are 1-D f64 arrays)."""
    import cuda.tile as ct

    from .cutile_aot import ParamSpec

    dtypes = {
        "f16": ct.float16,
        "bf16": ct.bfloat16,
        "f32": ct.float32,
        "f64": ct.float64,
        "i32": ct.int32,
        "i64": ct.int64,
    }
    specs = []
    passing = kernel_interface(kernel, kernel_namer(kernel, "python")).passing
    for p, (how, _) in zip(kernel.params, passing):
        if how == "array":
            specs.append(ParamSpec.array(dtypes[p.dtype], p.ndim))
        elif how == "box":
            specs.append(ParamSpec.array(ct.float64, 1))
        elif how == "scalar":
            specs.append(ParamSpec.scalar(dtypes[p.dtype]))
        else:
            specs.append(ParamSpec.constant(p.value))
    return specs


def export_kernels(
    kernels: list[tuple[ir.Kernel, str]], code: str, formats, archs, out_dir, name: str
) -> list:
    """Compile `kernels` (those of the generated module `code`, each with its name there)
    with NVIDIA's compiler: Tile IR bytecode (format "tileir") and/or cubins ("cubin") for
    each of `archs`."""
    from .cutile_aot import export

    for fmt in formats:
        if fmt not in ("tileir", "cubin"):
            raise BasicError(
                f"--emit {fmt} is for the CUDA target (--target cuda)", Coord(name, 0, 0)
            )
    written = []
    with tempfile.TemporaryDirectory(prefix="b2t-emit-") as tmp:
        path = Path(tmp) / f"{name}.py"
        path.write_text(code, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"b2t_emit_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for kernel, def_name in kernels:
            fn = getattr(module, def_name)
            written += export(
                fn, aot_param_specs(kernel), out_dir, formats=tuple(formats), archs=tuple(archs)
            )
    return written
