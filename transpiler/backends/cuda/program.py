"""The CUDA C++ backend: kernel IR (+ host program) -> a .cu file, before clang-format.

Public entry points (used by driver.py, which passes their text through the formatting
stage, formatting/cpp.py):
- `render_cuda_library(lib, source)`: a cuTile BASIC kernel program as a complete .cu
  (the kernel, `run_<name>()`, and a `main()` that reads INPUT values from stdin and
  prints the OUTPUT arrays);
- `render_cuda_program(host)`: a legacy program: host code by cuda/host.py around
  this module's `device_code()` (helpers and kernels); the launches are cuda/launch.py's;
- `run_cuda_program(...)`: `--run`/`--check`, on the CPU (g++ and the CUDA emulator) or
  on a GPU (nvcc).  A kernel program runs as a self-test against the reference
  interpreter, like the cuTile module's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from ... import __version__
from ...errors import BasicError, SourceFile
from ...formatting.cpp_pieces import join_pieces
from ...ir import kernel as ir
from ...ir.naming import Namer
from ...verify.cuda_run import OUTPUT_MARKER
from ..basic_origin import slash_comment_text
from ..render import render
from . import build as cuda_build
from . import element_types as T
from . import host as cuda_host
from .expr import ExprPrinter
from .helpers import helpers_text
from .kernels import CudaKernel, lower_kernel

SOURCE_MARKER = "BASIC source"
SOURCE_END = "end of BASIC source"


# ---------------------------------------------------------------------- device code


@dataclass
class DeviceCode:
    """The device part of a program: helper functions and kernels (unformatted text), and
    per IR kernel name what a launcher needs (`CudaKernel`)."""

    text: str
    kernels: dict[str, CudaKernel]


def device_code(kernels: list[ir.Kernel], host_helpers: set[str] = frozenset()) -> DeviceCode:
    """Lower `kernels`; `host_helpers` are helper functions host code calls too (b2t_cdiv)."""
    lowered = {k.name: lower_kernel(k) for k in kernels}
    used = set(host_helpers)
    for ck in lowered.values():
        used |= ck.helpers
    parts = [helpers_text(used)] + [ck.text for ck in lowered.values()]
    return DeviceCode(join_pieces(parts), lowered)


class HostScope:
    """Scope for printing scalar IR expressions in host code (DIM extents, grid sizes):
    parameters are host variables."""

    def __init__(self, names: dict[str, str]):
        self.names = names
        self.helpers: set[str] = set()

    def param(self, name: str) -> str:
        return self.names[name]

    def use_helper(self, name: str) -> None:
        self.helpers.add(name)

    def temp_of(self, e):
        return None

    def __getattr__(self, attr):  # locals, arrays, block ids: not in host expressions
        raise BasicError(f"a host-side size expression uses {attr}, which only a kernel has")


def host_convert(text: str, source: ir.DType, target: ir.DType) -> str:
    """Host-side conversion (the device-only __double2int_rz etc. are not available)."""
    if source == target:
        return text
    if target in T.LOW_PRECISION or source in T.LOW_PRECISION:
        return T.convert(text, source, target)
    return f"static_cast<{T.c_type(target)}>({text})"


def _reader(dtype: ir.DType) -> str:
    """The main() function that reads an INPUT scalar of `dtype` from stdin: for an
    integer, a whole number (2.5 is an error, not 2, as run() and the self-test say)."""
    return "read_whole_number" if dtype in T.INTEGERS else "read_number"


# ---------------------------------------------------------------------- kernel programs


def render_cuda_library(
    lib: ir.KernelLibrary, source: SourceFile, file_name: str | None = None
) -> str:
    """The .cu file of a cuTile BASIC kernel program (see the module docstring), before
    clang-format; its header's build commands name `file_name` (default: the program's
    name + .cu)."""
    kernel = lib.kernel
    # The program's element type is f32 unless --precision said otherwise; the self-test
    # must analyse the quoted source the same way.
    precision = lib.precision if lib.precision != "f32" else None
    name = _identifier(lib.name)
    cuda_kernel = lower_kernel(kernel)
    # run_NAME()'s names must not hide the kernel (a file-scope function).
    taken = {f"run_{name}", "read_number", "read_whole_number", "grid", "element", "main"}
    host = Namer("cpp", taken=taken | {cuda_kernel.name})
    names = {s.name: host.name(s.name) for s in lib.scalars}
    scope = HostScope(names)
    printer = ExprPrinter(scope)
    arrays, extents = [], []
    for a in lib.arrays:
        hname = host.name(a.name, "array")
        rank = len(a.extents)
        words = {1: ["len"], 2: ["rows", "cols"]}.get(rank) or [f"dim{k}" for k in range(rank)]
        dims = [host.fresh(f"{hname}_{w}") for w in words]
        extents += [f"const int {d} = {printer.scalar(e)};" for d, e in zip(dims, a.extents)]
        ctype = T.c_type(a.dtype)
        arrays.append(
            {
                "basic": a.name,
                "host": hname,
                "device": host.fresh(f"d_{hname}"),
                "ctype": ctype,
                "dtype": a.dtype,
                "count": " * ".join([f"static_cast<std::size_t>({dims[0]})"] + dims[1:]),
                "bytes": host.fresh(f"{hname}_bytes"),
                "size": " * ".join([f"sizeof({ctype})"] + dims),
                "copy_in": a.role in ("input", "inout"),
                "copy_out": a.name in lib.outputs,
                "extents": dims,
                "rank": rank,
            }
        )
    by_name = {a["basic"]: a for a in arrays}
    run_params, call_args = [], []
    for n in lib.inputs:
        if n in by_name:
            a = by_name[n]
            run_params.append(f"{'' if a['copy_out'] else 'const '}{a['ctype']}* {a['host']}")
            call_args.append(f"{a['host']}.data()")
        else:
            s = next(s for s in lib.scalars if s.name == n)
            run_params.append(f"{T.c_type(s.dtype)} {names[n]}")
            call_args.append(names[n])
    for n in lib.outputs:
        if n not in lib.inputs:
            run_params.append(f"{by_name[n]['ctype']}* {by_name[n]['host']}")
            call_args.append(f"{by_name[n]['host']}.data()")
    launch_args = []
    for cp in cuda_kernel.params:
        p = cp.param
        if isinstance(p, ir.ArrayParam):
            launch_args += [by_name[p.name]["device"], *by_name[p.name]["extents"]]
        elif isinstance(p, ir.ScalarParam):
            launch_args.append(names[p.name])
    grid = [printer.scalar(g) for g in kernel.grid] + ["1"] * (3 - len(kernel.grid))
    main_scalars = [
        {
            "ctype": T.c_type(s.dtype),
            "name": names[s.name],
            "read": host_convert(f'{_reader(s.dtype)}("{s.name}")', "f64", s.dtype),
        }
        for s in lib.scalars
    ]
    main_arrays = {}  # each array once, an INPUT array read from stdin
    for a in (by_name[n] for n in lib.inputs + lib.outputs if n in by_name):
        read = host_convert(f'read_number("{a["basic"]}")', "f64", a["dtype"])
        main_arrays[a["host"]] = dict(a, read=read if a["copy_in"] else "")
    outputs = [
        dict(by_name[n], print=host_convert("element", by_name[n]["dtype"], "f64"))
        for n in lib.outputs
    ]
    helpers = helpers_text(cuda_kernel.helpers | scope.helpers)
    precision = f", --precision {precision}" if precision else ""
    shown_name = slash_comment_text(Path(source.name).name)
    return render(
        "cuda/library.cu.jinja",
        title=f"{name}.cu: CUDA C++ translated from BASIC by basic2tile",
        version=__version__,
        source_name=shown_name,
        nvcc_command=slash_comment_text(cuda_build.nvcc_command(file_name or f"{name}.cu")),
        cpu_command=slash_comment_text(cuda_build.cpu_command(file_name or f"{name}.cu")),
        name=name,
        source_marker=f"{SOURCE_MARKER} ({shown_name}{precision}):",
        source_end=SOURCE_END,
        output_marker=OUTPUT_MARKER,
        # Tabs as spaces (a TAB is white space to BASIC): the self-test reads the program
        # back from these lines, and slash_comment_text would make a TAB a "?".
        basic_lines=[slash_comment_text(line.expandtabs(8)) for line in source.lines],
        helpers=helpers,
        kernel=cuda_kernel.text,
        run_doc=_run_doc(lib),
        run_params=run_params,
        extents=extents,
        arrays=arrays,
        grid=grid,
        grid_nonempty=cuda_build.grid_nonempty(grid),
        kernel_name=cuda_kernel.name,
        threads=cuda_kernel.threads,
        dynamic_shared=cuda_kernel.dynamic_shared,
        launch_args=launch_args,
        scalar_names=", ".join(s.name for s in lib.scalars) or "(none)",
        input_array_names=", ".join(n for n in lib.inputs if n in by_name) or "(none)",
        main_scalars=main_scalars,
        reads_whole_numbers=any(s.dtype in T.INTEGERS for s in lib.scalars),
        main_arrays=list(main_arrays.values()),
        call_args=call_args,
        outputs=outputs,
    )


def _run_doc(lib: ir.KernelLibrary) -> str:
    inputs = ", ".join(
        n + ("()" if any(a.name == n for a in lib.arrays) else "") for n in lib.inputs
    )
    outs = [n for n in lib.outputs if n not in lib.inputs]
    where = f" into the host arrays {', '.join(outs)} (of their DIM sizes)" if outs else " in place"
    return f"INPUT {inputs}; the OUTPUT arrays {', '.join(lib.outputs)} are written{where}."


def _identifier(name: str) -> str:
    ident = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return ident if ident and not ident[0].isdigit() else f"prog_{ident}"


def basic_source_of(code: str) -> tuple[str, str | None] | None:
    """The BASIC source quoted in a generated kernel-program .cu file and its
    --precision, or None when `code` is not one."""
    lines = code.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if line.startswith(f"// {SOURCE_MARKER} (")), None
    )
    if start is None:
        return None
    header = lines[start]
    precision = (
        header.split("--precision ", 1)[1].rstrip("):").strip()
        if "--precision " in header
        else None
    )
    body = []
    for line in lines[start + 1 :]:
        if line.startswith(f"// {SOURCE_END}"):
            return "\n".join(body) + "\n", precision
        body.append(line[5:] if line.startswith("//   ") else line[2:].lstrip())
    return None


# ---------------------------------------------------------------------- legacy programs


def render_cuda_program(host, file_name: str | None = None) -> str:
    """A legacy program with offloaded loops, before clang-format: host code by
    cuda/host.py around this backend's kernels (launch code: cuda/launch.py)."""
    if not host.kernels:
        return cuda_host.render_host_program(host, "", file_name)
    # The grid sizes of the launches are cdiv()s on the host.
    device = device_code(host.kernels, {"b2t_cdiv"})
    return cuda_host.render_host_program(host, device.text, file_name, device.kernels)


# ---------------------------------------------------------------------- running


def run_cuda_program(
    code: str,
    name: str,
    device: str | None,
    stdin: str | None = None,
    args: list[str] | None = None,
    capture: bool = True,
    timeout: float | None = None,
):
    """Build and run a generated program: device "cpu" (g++ + the CUDA emulator), "gpu"
    (nvcc, then the real GPU), or None (the GPU if usable, else the CPU with a notice).
    A kernel program runs its self-test (`args` are NAME=VALUE sizes).  `timeout`
    limits the run, not the build."""
    from ...verify.cuda_run import run_built, self_test

    device = _choose_device(device)
    source = basic_source_of(code)
    if source is not None:
        return self_test(code, name, device, source[0], source[1], args or [], timeout)
    return run_built(code, name, device, stdin, args or [], capture, timeout)


def _choose_device(device: str | None) -> str:
    from ...device import gpu_unavailable_reason

    if device is not None:  # "gpu" is the driver's to check (driver._require_gpu)
        return device
    reason = gpu_unavailable_reason()
    if reason is None:
        return "gpu"
    print(
        f"basic2tile: no usable GPU ({reason}); running the CUDA program on the CPU emulator",
        file=sys.stderr,
    )
    return "cpu"
