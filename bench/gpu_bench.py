"""GPU timing of the generated kernels (run by bench/gpu_check.sh on one H200).

    python3 bench/gpu_bench.py              # on a machine with a GPU, cuda.tile and CuPy
    python3 bench/gpu_bench.py --quick      # small sizes (a smoke test of the harness)
    python3 bench/gpu_bench.py --dry-run    # no GPU: build everything, run it on the CPU

Written against the documented APIs of cuda.tile, CuPy and NVRTC; the GPU mode has NOT yet
been run on a GPU (no GPU was available while it was written).  --dry-run is what has been
run: it generates every module and kernel below, imports them, runs the generated programs
and the reference kernels on the CPU tile simulator at small sizes and checks their results,
compiles the generated CUDA with NVRTC (sm_90), maps every CUDA kernel parameter to the
cuTile kernel's arguments, and exports the reference kernels to sm_90 cubins when tileiras
is installed.

What is measured (CUDA events on one CuPy stream; each figure is the median of several
timed batches of launches; ratios from this one run):

 (i)   vector kernel vs copy bandwidth: the SAXPY loop of bench/programs/saxpy.bas
       (`Y(I) = A*X(I) + Y(I)`, the map kernel of BASIC line 100) translated with
       --precision f32 and f64, N = 2^26; achieved bandwidth (12 or 24 bytes per element:
       read X and Y, write Y) over that of a CuPy device-to-device copy (cudaMemcpyAsync)
       of one N-element array (read + write).  Goal: >= 0.85.
 (ii)  mma kernels: the kernels generated from examples/kernels/gemm.bas (f32, 128x128x32
       tiles) and hgemm.bas (f16 in, f32 out, 64x64x32) at 4096^3 against the hand-written
       cuTile kernels of bench/ref_matmul_cutile.py with the same tiles (a 2-D grid, and a
       grouped 1-D grid); cuBLAS (cupy.matmul) for information.  Goal: >= 0.9x the
       reference's speed.
 (iii) CUDA vs cuTile: the same programs' generated CUDA C++ kernels, compiled with NVRTC
       for the GPU's architecture and launched through CuPy with the launch configuration
       of the generated host code, against the cuTile kernels.  Goal: CUDA time within
       1.2x of cuTile's.

The generated modules are used as they are: a program runs through its own host code on a
device object that records each kernel launch (kernel, grid, device arguments); the timing
loops then call ct.launch with exactly those arguments.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import io
import json
import os
import re
import statistics
import sys
import tempfile
import time
import traceback
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(BENCH))

from transpiler import device as b2t_device
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

GOALS = {"bandwidth": 0.85, "mma": 0.9, "cuda": 1.2}
SAXPY_KERNEL = "map_100"  # the kernel of BASIC line 100 in bench/programs/saxpy.bas


# ----------------------------------------------------------------------------------------------
# Generating and importing modules


def sized_saxpy(n: int) -> str:
    """bench/programs/saxpy.bas with N (its DIM and `LET N =` lines) set to n."""
    text = (BENCH / "programs" / "saxpy.bas").read_text()
    lines = []
    for line in text.splitlines():
        if re.match(r"\d+ (DIM|LET N =)", line):
            line = re.sub(r"\b1000000\b", str(n), line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def translate(name: str, text: str, target: str, precision: str | None = None) -> str:
    source = SourceFile(name, text)
    analysis = driver.front_end(source, Options(precision=precision))
    return driver.generate(analysis, target)


def write(folder: Path, filename: str, text: str) -> Path:
    path = folder / filename
    path.write_text(text, encoding="utf-8")
    return path


def import_file(path: Path) -> types.ModuleType:
    """Import a generated module from its file (cuTile reads kernel source with inspect)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------------------------
# A device that records launches


@dataclass
class Launch:
    kernel: object
    grid: tuple[int, int, int]
    args: tuple

    @property
    def name(self) -> str:
        return kernel_name(self.kernel)

    def named_args(self) -> dict:
        params = list(inspect.signature(pyfunc(self.kernel)).parameters)
        return dict(zip(params, self.args))


def pyfunc(kernel):
    return getattr(kernel, "_pyfunc", kernel)


def kernel_name(kernel) -> str:
    return pyfunc(kernel).__name__


def recording_device(kind: str):
    """A GpuDevice or CpuDevice that also keeps the last launch of each kernel, with the
    arguments as the kernel received them (CuPy arrays on the GPU)."""
    base = b2t_device.GpuDevice if kind == "gpu" else b2t_device.CpuDevice

    class Recording(base):
        def __init__(self):
            super().__init__()
            self.launches: dict[str, Launch] = {}

        def launch(self, kernel, grid, args, writes=()):
            if kind == "gpu":
                kargs = tuple(self._device_arg(a) for a in args)
            else:
                kargs = tuple(args)
            self.launches[kernel_name(kernel)] = Launch(kernel, b2t_device._grid3(grid), kargs)
            super().launch(kernel, grid, args, writes)

    return Recording()


def on_device(module: types.ModuleType, dev) -> None:
    """Make the generated module's `b2t_device.select(...)` return `dev`."""
    module.b2t_device = types.SimpleNamespace(select=lambda *a, **k: dev)


def run_legacy(module: types.ModuleType, dev) -> str:
    """Run a generated legacy program's host code on `dev`; returns what it printed."""
    from transpiler.runtime import Console

    out = io.StringIO()
    con = Console(out=out, inp=io.StringIO(""), strict=False)
    module.program(con, dev)
    con.finish()
    return out.getvalue()


def saxpy_checksum_ok(output: str, n: int, precision: str) -> tuple[bool, str]:
    """Y(I) = 1 + 1.5*I/N exactly, so the checksum is N + 0.75*(N + 1)."""
    match = re.search(r"CHECKSUM =\s*(\S+)", output)
    if not match:
        return False, f"no checksum in the output: {output!r}"
    got, want = float(match.group(1)), n + 0.75 * (n + 1)
    tol = 1e-6 if precision == "f64" else 2e-3
    return abs(got - want) <= tol * want, f"checksum {got:.8g} (exact {want:.8g})"


# ----------------------------------------------------------------------------------------------
# The generated CUDA: kernel signatures and launch configurations


@dataclass
class CudaParam:
    ctype: str
    name: str
    pointer: bool


@dataclass
class CudaKernel:
    name: str
    params: list[CudaParam]
    block: tuple[int, int, int]
    grid_expr: tuple[str, str, str]
    shared_mem: int


_KERNEL = re.compile(
    r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(([^)]*)\)'
)
C_TYPES = {
    "float": np.float32,
    "double": np.float64,
    "__half": np.float16,
    "int": np.int32,
    "long long": np.int64,
    "bool": np.bool_,
    "unsigned int": np.uint32,
}


def parse_cuda_kernel(code: str, name: str) -> CudaKernel:
    """The parameters of kernel `name` and the launch of it in the generated host code."""
    for match in _KERNEL.finditer(code):
        if match.group(1) == name:
            break
    else:
        raise LookupError(f"no kernel {name} in the generated CUDA")
    params = []
    for raw in match.group(2).split(","):
        words = raw.replace("*", " * ").split()
        pointer = "*" in words
        pname = words[-1]
        base = " ".join(w for w in words[:-1] if w not in ("const", "__restrict__", "*"))
        if base not in C_TYPES:
            raise ValueError(
                f"{name}: parameter {raw.strip()!r} has a type the harness does not map"
            )
        params.append(CudaParam(base, pname, pointer))
    launch = re.search(
        rf"B2T_LAUNCH\(\s*(?:::)?{name}\s*,\s*(\w+)\s*,\s*([^,]+?)\s*,\s*([^,)]+?)\s*[,)]", code
    )
    if not launch:
        raise LookupError(f"no B2T_LAUNCH of {name} in the generated host code")
    grid_var, block, shmem = launch.groups()
    decls = list(re.finditer(rf"dim3\s+{grid_var}\s*\(([^;]*)\)\s*;", code[: launch.start()]))
    if not decls:
        raise LookupError(f"no `dim3 {grid_var}(...)` before the launch of {name}")
    grid = tuple(split_top_level(decls[-1].group(1)))
    grid = grid + ("1",) * (3 - len(grid))
    block_dims = tuple(
        int(eval_c(b, {})) for b in split_top_level(block.removeprefix("dim3(").rstrip(")"))
    )
    block_dims = block_dims + (1,) * (3 - len(block_dims))
    return CudaKernel(name, params, block_dims, grid, int(eval_c(shmem, {})))


def split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def eval_c(expr: str, names: dict) -> int:
    """An integer grid/block expression of the generated host code: literals, + - * /,
    b2t_cdiv(...) and variable names (`i_count_2` is looked up as `i_count` too)."""
    py = expr.replace("b2t_cdiv", "_cdiv").replace("static_cast<int>", "")
    if re.search(r"[^\w\s()+\-*,]", py):
        raise ValueError(f"grid expression {expr!r} is beyond what the harness evaluates")
    env = {"_cdiv": _cdiv}
    for ident in set(re.findall(r"[A-Za-z_]\w*", py)) - {"_cdiv"}:
        key = ident if ident in names else re.sub(r"_\d+$", "", ident)
        if key not in names:
            raise KeyError(f"grid expression {expr!r}: {ident} is not a kernel argument")
        env[ident] = int(names[key])
    return int(eval(py, {"__builtins__": {}}, env))


def cuda_arguments(kernel: CudaKernel, launch: Launch) -> tuple[tuple, tuple[int, int, int]]:
    """The CUDA kernel's arguments, built from the cuTile kernel's (same names: arrays by
    name, NAME_len/_rows/_cols from their shapes, a scalar from the cuTile `NAME_box`)."""
    named = launch.named_args()
    scalars: dict[str, object] = {}
    args = []
    for p in kernel.params:
        want = C_TYPES[p.ctype]
        if p.pointer:
            if p.name not in named:
                raise KeyError(f"{kernel.name}: no cuTile argument for array {p.name}")
            array = named[p.name]
            if np.dtype(array.dtype) != np.dtype(want):
                raise TypeError(
                    f"{kernel.name}: {p.name} is {array.dtype}, the CUDA kernel wants {p.ctype}"
                )
            args.append(array)
            continue
        if p.name in named and not hasattr(named[p.name], "shape"):
            value = named[p.name]
        elif p.name + "_box" in named:
            box = named[p.name + "_box"]
            value = (box.get() if hasattr(box, "get") else np.asarray(box)).reshape(-1)[0]
        elif (m := re.fullmatch(r"(\w+)_(len|rows|cols)", p.name)) and m.group(1) in named:
            shape = named[m.group(1)].shape
            value = {"len": int(np.prod(shape)), "rows": shape[0], "cols": shape[-1]}[m.group(2)]
        else:
            raise KeyError(
                f"{kernel.name}: parameter {p.name} has no counterpart among the cuTile arguments {list(named)}"
            )
        scalars[p.name] = value
        args.append(want(value))
    names = {**scalars, **{k: v for k, v in named.items() if isinstance(v, (int, np.integer))}}
    grid = tuple(eval_c(e, names) for e in kernel.grid_expr)
    return tuple(args), grid


def cutile_grid_matches(kernel: CudaKernel, launch: Launch, grid: tuple) -> str:
    """CUDA blocks cover the same tiles as cuTile blocks for these programs (one tile per
    block on both): report a difference instead of failing."""
    if tuple(grid) == tuple(launch.grid):
        return "same grid as cuTile"
    return f"grid {grid} vs cuTile {launch.grid}"


def compile_cuda(code: str, name: str, arch: str, folder: Path) -> Path:
    from transpiler.verify.nvrtc import compile_cuda as nvrtc

    cubin = nvrtc(code, f"{name}.cu", arch=arch, output="cubin")
    return write_bytes(folder / f"{name}.{arch}.cubin", cubin)


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# ----------------------------------------------------------------------------------------------
# Timing on the GPU


class GpuTimer:
    """Median milliseconds per launch, from CUDA events around batches of launches.

    Before each timed batch a short spin kernel keeps the GPU busy while the host enqueues
    the batch, so host launch overhead does not show as idle GPU time (when the spin kernel
    cannot be built, batches alone amortise it)."""

    def __init__(self, cp):
        self.cp = cp
        self.stream = cp.cuda.get_current_stream()
        self.spin = None
        try:
            self.spin = cp.RawKernel(
                r'extern "C" __global__ void b2t_spin(long long cycles) {'
                r" long long t0 = clock64(); while (clock64() - t0 < cycles) {} }",
                "b2t_spin",
            )
            khz = cp.cuda.Device().attributes.get("ClockRate", 1_500_000)
            self.spin_cycles = np.int64(khz * 2)  # about 2 ms
            self.spin((1,), (1,), (self.spin_cycles,))
            self.stream.synchronize()
        except Exception as exc:  # noqa: BLE001 - a timing aid, not needed
            print(f"  (no spin kernel: {exc}; timing without it)", file=sys.stderr)
            self.spin = None

    def ms(self, launch, reps: int = 7, target_ms: float = 20.0) -> float:
        cp = self.cp
        launch()  # first launch: JIT compilation, module load
        self.stream.synchronize()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record(self.stream)
        launch()
        end.record(self.stream)
        end.synchronize()
        one = max(cp.cuda.get_elapsed_time(start, end), 1e-3)
        batch = int(max(1, min(100, target_ms / one)))
        samples = []
        for _ in range(reps):
            if self.spin is not None:
                self.spin((1,), (1,), (self.spin_cycles,))
            start.record(self.stream)
            for _ in range(batch):
                launch()
            end.record(self.stream)
            end.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, end) / batch)
        return statistics.median(samples)


# ----------------------------------------------------------------------------------------------
# The benchmarks


@dataclass
class Row:
    section: str
    what: str
    measured: str
    reference: str
    ratio: float | None
    goal: str
    ok: bool | None
    note: str = ""


class Bench:
    def __init__(self, args, folder: Path):
        self.args = args
        self.dry = args.dry_run
        self.folder = folder
        self.rows: list[Row] = []
        self.failures: list[str] = []
        self.deadline = time.monotonic() + args.budget
        self.kind = "cpu" if self.dry else "gpu"
        if self.dry:
            self.cp = None
            self.timer = None
            self.arch = "sm_90"
        else:
            import cupy as cp

            self.cp = cp
            self.timer = GpuTimer(cp)
            self.arch = f"sm_{cp.cuda.Device().compute_capability}"  # "90" on an H200
        self.nvrtc_ok = True
        try:
            import cuda.bindings.nvrtc  # noqa: F401
        except ImportError as exc:
            self.nvrtc_ok = False
            print(f"  (NVRTC unavailable: {exc}; CUDA kernels skipped)", file=sys.stderr)

    # --- helpers

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def step(self, label: str, fn) -> None:
        if self.left() <= 0:
            self.rows.append(Row("-", label, "skipped", "time budget spent", None, "", None))
            return
        start = time.monotonic()
        print(f"== {label}", file=sys.stderr, flush=True)
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - report and go on with the next benchmark
            self.failures.append(f"{label}: {type(exc).__name__}: {exc}")
            traceback.print_exc()
            self.rows.append(
                Row("-", label, "FAILED", f"{type(exc).__name__}: {exc}"[:120], None, "", False)
            )
        print(f"   ({time.monotonic() - start:.1f} s)", file=sys.stderr, flush=True)

    def array(self, host: np.ndarray):
        return host if self.dry else self.cp.asarray(host)

    def time_cutile(self, launch: Launch) -> float:
        import cuda.tile as ct

        return self.timer.ms(
            lambda: ct.launch(self.timer.stream, launch.grid, launch.kernel, launch.args)
        )

    def cuda_kernel(self, code: str, module_name: str, kname: str):
        """(CudaKernel, function or None on the CPU)."""
        kernel = parse_cuda_kernel(code, kname)
        if not self.nvrtc_ok:
            return kernel, None
        cubin = compile_cuda(code, module_name, self.arch, self.folder)
        if self.dry:
            return kernel, None
        function = self.cp.RawModule(path=str(cubin)).get_function(kname)
        return kernel, function

    def launch_cuda(self, function, kernel: CudaKernel, args, grid):
        function(grid, kernel.block, args, shared_mem=kernel.shared_mem)

    # --- (i) and (iii): SAXPY

    def saxpy(self, precision: str) -> None:
        n = self.args.saxpy_n
        text = sized_saxpy(n)
        name = f"saxpy_{precision}"
        py = write(self.folder, f"{name}.py", translate(f"{name}.bas", text, "cutile", precision))
        cu_code = translate(f"{name}.bas", text, "cuda", precision)
        write(self.folder, f"{name}.cu", cu_code)
        module = import_file(py)
        dev = recording_device(self.kind)
        on_device(module, dev)
        t0 = time.monotonic()
        output = run_legacy(module, dev)
        ok, check = saxpy_checksum_ok(output, n, precision)
        if not ok:
            raise AssertionError(f"the generated program printed a wrong result: {check}")
        launch = dev.launches.get(SAXPY_KERNEL)
        if launch is None:
            raise LookupError(f"no kernel {SAXPY_KERNEL} was launched (got {list(dev.launches)})")
        print(f"   program ran in {time.monotonic() - t0:.1f} s: {check}", file=sys.stderr)
        elem = 8 if precision == "f64" else 4
        named = launch.named_args()
        x, y = named["x"], named["y"]
        kernel, function = self.cuda_kernel(cu_code, name, SAXPY_KERNEL)
        cargs, cgrid = cuda_arguments(kernel, launch)
        grid_note = cutile_grid_matches(kernel, launch, cgrid)
        label = (
            f"saxpy {precision} N=2^{n.bit_length() - 1}"
            if n & (n - 1) == 0
            else f"saxpy {precision} N={n}"
        )
        if self.dry:
            import cuda.tile as ct

            from transpiler import tilesim

            y_before = np.array(y, copy=True)
            tilesim.launch(None, launch.grid, launch.kernel, launch.args)  # the timing loop's call
            a = (
                float(np.asarray(named["a_box"]).reshape(-1)[0])
                if "a_box" in named
                else float(named["a"])
            )
            if not np.allclose(y[1 : n + 1], a * x[1 : n + 1] + y_before[1 : n + 1], rtol=1e-6):
                raise AssertionError("re-launching the recorded SAXPY kernel gave a wrong result")
            self.rows.append(
                Row(
                    "i",
                    label,
                    "dry run: program, kernel re-launch ok",
                    check,
                    None,
                    ">= 0.85",
                    None,
                    f"CUDA {SAXPY_KERNEL}: {len(cargs)} args mapped, {grid_note}",
                )
            )
            return
        cp = self.cp
        # correctness of the CUDA kernel against the cuTile kernel, from the same inputs
        y0 = y.copy()
        import cuda.tile as ct

        ct.launch(self.timer.stream, launch.grid, launch.kernel, launch.args)
        y_cutile = y.copy()
        y[...] = y0
        self.launch_cuda(function, kernel, cargs, cgrid)
        self.timer.stream.synchronize()
        same = bool(cp.allclose(y, y_cutile, rtol=1e-6 if precision == "f64" else 1e-5))
        y[...] = y0
        t_tile = self.time_cutile(launch)
        nbytes = n * elem
        bw_tile = 3 * nbytes / (t_tile * 1e-3) / 1e9
        src, dst = x[:n], cp.empty(n, dtype=x.dtype)
        t_copy = self.timer.ms(
            lambda: dst.data.copy_from_device_async(src.data, nbytes, self.timer.stream)
        )
        bw_copy = 2 * nbytes / (t_copy * 1e-3) / 1e9
        r = bw_tile / bw_copy
        self.rows.append(
            Row(
                "i",
                label,
                f"cuTile {bw_tile:7.0f} GB/s ({t_tile:.3f} ms)",
                f"copy {bw_copy:7.0f} GB/s ({t_copy:.3f} ms)",
                r,
                ">= 0.85",
                r >= GOALS["bandwidth"],
            )
        )
        t_cuda = self.timer.ms(lambda: self.launch_cuda(function, kernel, cargs, cgrid))
        y[...] = y0
        rc = t_cuda / t_tile
        self.rows.append(
            Row(
                "iii",
                f"{label} CUDA/cuTile time",
                f"CUDA {t_cuda:.3f} ms",
                f"cuTile {t_tile:.3f} ms",
                rc,
                "<= 1.2",
                rc <= GOALS["cuda"] and same,
                ("results agree" if same else "RESULTS DIFFER") + f"; {grid_note}",
            )
        )

    # --- (ii) and (iii): matrix products

    def matmul(self, program: str, tiles: tuple[int, int, int]) -> None:
        import ref_matmul_cutile as ref

        size = self.args.mm_size
        m = n = k = size
        path = ROOT / "examples" / "kernels" / f"{program}.bas"
        text = path.read_text()
        py = write(self.folder, f"{program}.py", translate(path.name, text, "cutile"))
        cu_code = translate(path.name, text, "cuda")
        write(self.folder, f"{program}.cu", cu_code)
        module = import_file(py)
        dev = recording_device(self.kind)
        on_device(module, dev)
        rng = np.random.default_rng(1)
        in_type = np.float16 if program == "hgemm" else np.float32
        a_host = rng.uniform(-1, 1, (m, k)).astype(in_type)
        b_host = rng.uniform(-1, 1, (k, n)).astype(in_type)
        c = module.run(m, n, k, a_host, b_host)  # the module's own host code: grid, arrays
        launch = dev.launches[program]
        named = launch.named_args()
        a, b, c_dev = named["a"], named["b"], named["c"]
        want = a_host.astype(np.float64) @ b_host.astype(np.float64) if self.dry else None
        if self.dry:
            err = np.abs(np.asarray(c) - want).max() / np.abs(want).max()
        else:
            cp = self.cp
            want = cp.matmul(a.astype(cp.float64), b.astype(cp.float64))
            err = float(cp.abs(c_dev - want).max() / cp.abs(want).max())
        if err > 1e-2:
            raise AssertionError(f"generated {program} is wrong: max error {err:.3g} of max |C|")
        flops = 2.0 * m * n * k
        label = f"{program} {np.dtype(in_type).name}->f32 {m}x{n}x{k}"
        kernel, function = self.cuda_kernel(cu_code, program, program)
        cargs, cgrid = cuda_arguments(kernel, launch)
        grid_note = cutile_grid_matches(kernel, launch, cgrid)
        refs = {}
        for kind in ref.KINDS:
            c_ref = self.array(np.zeros((m, n), np.float32))
            rk, rgrid, rargs = ref.launch_args(kind, a, b, c_ref, tiles)
            refs[kind] = Launch(rk, rgrid, rargs)
        if self.dry:
            from transpiler import tilesim

            for kind, rl in refs.items():
                tilesim.launch(None, rl.grid, rl.kernel, rl.args)
                rerr = np.abs(rl.args[2] - want).max() / np.abs(want).max()
                if rerr > 1e-2:
                    raise AssertionError(f"reference {kind} kernel is wrong: {rerr:.3g}")
            self.rows.append(
                Row(
                    "ii",
                    label,
                    "dry run: generated and reference kernels agree",
                    f"max error {err:.2g}",
                    None,
                    ">= 0.9",
                    None,
                    f"CUDA {program}: {len(cargs)} args mapped, {grid_note}",
                )
            )
            return
        cp = self.cp
        t_gen = self.time_cutile(launch)
        for kind, rl in refs.items():
            t_ref = self.time_cutile(rl)
            rerr = float(cp.abs(rl.args[2] - want).max() / cp.abs(want).max())
            r = t_ref / t_gen
            self.rows.append(
                Row(
                    "ii",
                    f"{label} vs ref {kind}",
                    f"gen {flops / t_gen / 1e9:6.1f} TFLOP/s ({t_gen:.2f} ms)",
                    f"ref {flops / t_ref / 1e9:6.1f} TFLOP/s ({t_ref:.2f} ms)",
                    r,
                    ">= 0.9",
                    r >= GOALS["mma"] and rerr <= 1e-2,
                    f"ref max error {rerr:.2g}",
                )
            )
        t_blas = self.timer.ms(lambda: cp.matmul(a, b))
        self.rows.append(
            Row(
                "ii",
                f"{label} cuBLAS (info)",
                f"gen {flops / t_gen / 1e9:6.1f} TFLOP/s",
                f"cuBLAS {flops / t_blas / 1e9:6.1f} TFLOP/s",
                t_blas / t_gen,
                "-",
                None,
                "cupy.matmul, output in the input type",
            )
        )
        c_cuda = cp.zeros_like(c_dev)
        cargs = tuple(c_cuda if arg is c_dev else arg for arg in cargs)
        self.launch_cuda(function, kernel, cargs, cgrid)
        self.timer.stream.synchronize()
        cerr = float(cp.abs(c_cuda - want).max() / cp.abs(want).max())
        t_cuda = self.timer.ms(lambda: self.launch_cuda(function, kernel, cargs, cgrid))
        rc = t_cuda / t_gen
        self.rows.append(
            Row(
                "iii",
                f"{label} CUDA/cuTile time",
                f"CUDA {t_cuda:.2f} ms",
                f"cuTile {t_gen:.2f} ms",
                rc,
                "<= 1.2",
                rc <= GOALS["cuda"] and cerr <= 1e-2,
                f"CUDA max error {cerr:.2g}; {grid_note}",
            )
        )

    def export_references(self) -> None:
        """cuTile front end + tileiras on the reference kernels (no GPU needed)."""
        import cuda.tile as ct
        import ref_matmul_cutile as ref
        from cuda.tile.compilation import (
            ArrayConstraint,
            CallingConvention,
            KernelSignature,
            export_kernel,
        )

        def arr(dtype):
            return ArrayConstraint(
                dtype,
                2,
                index_dtype=ct.int32,
                stride_lower_bound_incl=0,
                alias_groups=(),
                may_alias_internally=False,
                stride_constant=(None, 1),
            )

        done = []
        for in_type, tiles in ((ct.float32, (128, 128, 32)), (ct.float16, (64, 64, 32))):
            for kind in ref.KINDS:
                kernel = ref.matmul_grid2d if kind == "grid2d" else ref.matmul_grouped
                extra = [] if kind == "grid2d" else [ref.GROUP_M]
                sig = KernelSignature(
                    [arr(in_type), arr(in_type), arr(ct.float32), *tiles, *extra],
                    CallingConvention.cutile_python_v1(),
                )
                out = self.folder / f"ref_{kind}_{in_type}.{self.arch}.cubin"
                try:
                    export_kernel(
                        kernel, [sig], str(out), gpu_code=self.arch, output_format="cubin"
                    )
                    done.append(out.name)
                except FileNotFoundError as exc:  # no tileiras: the Tile IR bytecode at least
                    export_kernel(
                        kernel,
                        [sig],
                        str(out.with_suffix(".tileirbc")),
                        output_format="tileir_bytecode",
                    )
                    done.append(f"{out.with_suffix('.tileirbc').name} ({exc})")
        self.rows.append(
            Row(
                "ii",
                "reference kernels compile",
                f"{len(done)} kernels exported",
                self.arch,
                None,
                "",
                True,
            )
        )

    # --- the table

    def table(self) -> str:
        head = f"{'':3} {'benchmark':<40} {'measured':<36} {'reference':<36} {'ratio':>7} {'goal':>7}  ok"
        lines = [head, "-" * len(head)]
        for r in self.rows:
            ratio = f"{r.ratio:7.2f}" if r.ratio is not None else "      -"
            ok = {True: "yes", False: "NO", None: "-"}[r.ok]
            lines.append(
                f"{r.section:3} {r.what:<40} {r.measured:<36} {r.reference:<36} {ratio} {r.goal:>7}  {ok}"
            )
            if r.note:
                lines.append(f"{'':3} {'':<40} {r.note}")
        return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dry-run", action="store_true", help="no GPU: build, import, run on the CPU simulator"
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes (SAXPY 2^22, matmul 1024^3)"
    )
    parser.add_argument(
        "--budget", type=float, default=300.0, help="seconds; later benchmarks are skipped after"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args()
    if args.dry_run:
        args.saxpy_n, args.mm_size = 5000, 160
    elif args.quick:
        args.saxpy_n, args.mm_size = 2**22, 1024
    else:
        args.saxpy_n, args.mm_size = 2**26, 4096
    if not args.dry_run:
        reason = b2t_device.gpu_unavailable_reason()
        if reason is not None:
            print(
                f"gpu_bench: no usable GPU ({reason}); use --dry-run on a machine without one",
                file=sys.stderr,
            )
            return 2
    with tempfile.TemporaryDirectory(prefix="b2t-gpubench-") as tmp:
        os.environ.setdefault("CUDA_TILE_CACHE_DIR", str(Path(tmp) / "cutile-cache"))
        bench = Bench(args, Path(tmp))
        where = (
            "dry run on the CPU (tile simulator, NVRTC compile only)"
            if args.dry_run
            else _gpu_name(bench.cp)
        )
        print(
            f"gpu_bench: {where}; SAXPY N={args.saxpy_n}, matmul {args.mm_size}^3, arch {bench.arch}"
        )
        bench.step("saxpy f32", lambda: bench.saxpy("f32"))
        bench.step("saxpy f64", lambda: bench.saxpy("f64"))
        bench.step("gemm", lambda: bench.matmul("gemm", (128, 128, 32)))
        bench.step("hgemm", lambda: bench.matmul("hgemm", (64, 64, 32)))
        if args.dry_run:
            bench.step("export reference kernels", bench.export_references)
        print()
        print(bench.table())
        if args.json:
            Path(args.json).write_text(json.dumps([r.__dict__ for r in bench.rows], indent=1))
        if bench.failures:
            print("\nfailures:\n  " + "\n  ".join(bench.failures))
            return 1
    return 0


def _gpu_name(cp) -> str:
    try:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        name = props["name"]
        return (
            name.decode() if isinstance(name, bytes) else name
        ) + f", {props['totalGlobalMem'] / 2**30:.0f} GiB"
    except Exception:  # noqa: BLE001
        return "GPU"


if __name__ == "__main__":
    sys.exit(main())
