"""The CUDA kernel printer, cross-checked against the cuTile printer.

Every kernel the offload pass makes from the legacy examples (f64 and --precision f32),
and hand-built kernels for IR constructs the examples do not reach, runs twice on the
same random inputs: (a) printed as cuTile Python and run by tilesim, (b) printed as CUDA
C++, built with g++ and the CUDA emulator and run on the CPU.  Every array (written
arrays, partial-result and error-flag temporaries) must agree.  All kernels of a test go
into one .cu file, so the suite pays for few g++ builds.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.backends.cuda import element_types as T
from transpiler.backends.cuda.kernels import lower_kernel
from transpiler.backends.cuda.program import device_code, host_convert
from transpiler.backends.cutile.expr import CutileExprPrinter
from transpiler.backends.cutile.program import kernel_interface, origin_comments
from transpiler.backends.render import environment
from transpiler.errors import BasicUnsupportedError, SourceFile
from transpiler.formatting.cpp import format_cpp
from transpiler.ir import hostir
from transpiler.ir import irbuild as B
from transpiler.ir import kernel as ir
from transpiler.ir.naming import kernel_namer
from transpiler.options import Options
from transpiler.passes.kernel.cuda_launch_shape import choose_threads
from transpiler.passes.kernel.cuda_plan import plan_kernel
from transpiler.verify.cpu_cuda import build_cpu, run_cpu
from transpiler.verify.nvcc import build_nvcc, find_nvcc

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

LEGACY = sorted(EXAMPLES.glob("*.bas"))
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
RTOL = {"f16": 2e-3, "f32": 2e-5, "f64": 1e-10, "i32": 0, "i64": 0}


@dataclass
class Case:
    """One kernel launch: `args` per kernel parameter (arrays as NumPy, scalars as
    numbers, None for constants), `grid` in blocks."""

    label: str
    kernel: ir.Kernel
    args: list
    grid: tuple[int, int, int]


# ---------------------------------------------------------------------- (a) cuTile + tilesim


def run_tilesim(case: Case, folder: Path) -> list:
    from transpiler import tilesim
    from transpiler.backends.cutile.helpers import helpers_text, helpers_used

    namer = kernel_namer(case.kernel, "python")
    printer = CutileExprPrinter(namer)
    iface = kernel_interface(case.kernel, namer)
    macros = environment().get_template("cutile/macros.py.jinja").module
    text = macros.kernel_def(
        case.kernel,
        iface.params,
        iface.prologue,
        printer,
        printer.name,
        origin_comments(case.kernel),
        printer.view,
        printer.index,
    )
    path = folder / f"sim_{case.kernel.name}.py"
    helpers = helpers_text(helpers_used([case.kernel]))  # basic_mod, basic_max...
    path.write_text("import cuda.tile as ct\n\n\n" + helpers + str(text))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    values = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in case.args]
    args = []
    for (how, what), value in zip(iface.passing, values):
        if how == "array":
            args.append(value)
        elif how == "box":
            args.append(np.array([value], dtype=np.float64))
        elif how == "scalar":
            args.append(value)
        else:
            args.append(what)
    tilesim.launch(None, case.grid, getattr(module, namer.ident(case.kernel.name)), tuple(args))
    return values


# ---------------------------------------------------------------------- (b) CUDA + emulator


def harness(cases: list[Case]) -> str:
    """One program running every case: stdin gives a case number, then its inputs."""
    code = device_code([c.kernel for c in cases], {"b2t_cdiv"})
    out = [
        '#include "b2t_cuda.h"',
        code.text,
        "#include <cstdio>",
        "#include <cstdlib>",
        "#include <vector>",
    ]
    out.append(
        'static double next_number() { double v; if (std::scanf("%lf", &v) != 1) std::exit(3); return v; }'
    )
    for i, case in enumerate(cases):
        ck = code.kernels[case.kernel.name]
        body, args, arrays = [], [], []
        for k, cp in enumerate(ck.params):
            p = cp.param
            if isinstance(p, ir.ArrayParam):
                ctype = T.c_type(p.dtype)
                ext = [f"e{k}_{a}" for a in range(p.ndim)]
                body += [f"const int {e} = static_cast<int>(next_number());" for e in ext]
                size = " * ".join(["static_cast<size_t>(1)"] + ext)
                body.append(f"std::vector<{ctype}> h{k}({size});")
                body.append(
                    f"for (auto& x : h{k}) x = {host_convert('next_number()', 'f64', p.dtype)};"
                )
                body.append(f"{ctype}* d{k} = nullptr;")
                body.append(f"B2T_CHECK(cudaMalloc(&d{k}, sizeof({ctype}) * h{k}.size()));")
                body.append(
                    f"B2T_CHECK(cudaMemcpy(d{k}, h{k}.data(), sizeof({ctype}) * h{k}.size(), cudaMemcpyHostToDevice));"
                )
                args += [f"d{k}", *ext]
                arrays.append((k, p))
            elif isinstance(p, ir.ScalarParam):
                body.append(
                    f"const {T.c_type(p.dtype)} s{k} = {host_convert('next_number()', 'f64', p.dtype)};"
                )
                args.append(f"s{k}")
        body.append("const int gx = next_number(), gy = next_number(), gz = next_number();")
        body.append(
            f"B2T_LAUNCH({ck.name}, dim3(gx, gy, gz), {ck.threads}, {ck.dynamic_shared})({', '.join(args)});"
        )
        if ck.dynamic_shared:
            body.insert(
                -1,
                f"B2T_CHECK(cudaFuncSetAttribute({ck.name}, cudaFuncAttributeMaxDynamicSharedMemorySize, {ck.dynamic_shared}));",
            )
        body.append("B2T_CHECK(cudaGetLastError());")
        for k, p in arrays:
            ctype = T.c_type(p.dtype)
            body.append(
                f"B2T_CHECK(cudaMemcpy(h{k}.data(), d{k}, sizeof({ctype}) * h{k}.size(), cudaMemcpyDeviceToHost));"
            )
            body.append(
                f"for (const auto& x : h{k}) std::printf(\"%.17g\\n\", {host_convert('x', p.dtype, 'f64')});"
            )
            body.append(f"B2T_CHECK(cudaFree(d{k}));")
        out.append(f"static void run_case_{i}() {{\n" + "\n".join(body) + "\n}")
    switch = "\n".join(f"case {i}: run_case_{i}(); break;" for i in range(len(cases)))
    out.append(
        'int main() {\n  int which;\n  while (std::scanf("%d", &which) == 1) {\n'
        f"    switch (which) {{\n{switch}\n      default: return 2;\n    }}\n"
        '    std::printf("end\\n");\n  }\n  return 0;\n}'
    )
    return format_cpp("\n\n".join(out) + "\n")


def run_cuda(cases: list[Case], folder: Path, reverse: bool = False) -> list[list]:
    source = folder / "harness.cu"
    source.write_text(harness(cases))
    exe = build_cpu(source)
    words = []
    for i, case in enumerate(cases):
        words.append(str(i))
        for p, a in zip(case.kernel.params, case.args):
            if isinstance(p, ir.ArrayParam):
                words += [str(n) for n in a.shape]
                words += [repr(float(x)) for x in a.reshape(-1)]
            elif isinstance(p, ir.ScalarParam):
                words.append(repr(float(a)))
        words += [str(g) for g in case.grid]
    result = run_cpu(exe, "\n".join(words) + "\n", reverse=reverse, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    chunks = result.stdout.split("end\n")
    outputs = []
    for case, chunk in zip(cases, chunks):
        numbers = iter(float(t) for t in chunk.split())
        values = []
        for p, a in zip(case.kernel.params, case.args):
            if isinstance(p, ir.ArrayParam):
                flat = np.array([next(numbers) for _ in range(a.size)])
                values.append(flat.reshape(a.shape).astype(a.dtype))
            else:
                values.append(a)
        outputs.append(values)
    return outputs


def assert_same(case: Case, cutile: list, cuda: list) -> None:
    for p, want, got in zip(case.kernel.params, cutile, cuda):
        if not isinstance(p, ir.ArrayParam):
            continue
        want64, got64 = np.asarray(want, np.float64), np.asarray(got, np.float64)
        rtol = RTOL[p.dtype]
        scale = max(1.0, float(np.nanmax(np.abs(want64)))) if want64.size else 1.0
        same_nan = np.isnan(want64) == np.isnan(got64)
        close = np.abs(np.nan_to_num(want64) - np.nan_to_num(got64)) <= rtol * scale
        bad = ~(same_nan & close)
        assert not bad.any(), (
            f"{case.label}: array {p.name} differs at {np.argwhere(bad)[:5].tolist()}: "
            f"cuTile/tilesim {want64[bad][:5]} vs CUDA {got64[bad][:5]}"
        )


def check_cases(cases: list[Case], tmp_path: Path, reverse: bool = False) -> None:
    cuda = run_cuda(cases, tmp_path, reverse)
    for case, got in zip(cases, cuda):
        assert_same(case, run_tilesim(case, tmp_path), got)


# ---------------------------------------------------------------------- legacy loop kernels


def _host_value(v: hostir.HostValue, counts: dict[str, int], scalars: dict[str, float]):
    if v.op == "num":
        return v.args[0]
    if v.op == "count":
        return counts[v.args[0]]
    if v.op == "var":
        return scalars[v.args[0]]
    a, b = (_host_value(x, counts, scalars) for x in v.args)
    return {"cdiv": lambda: -(-a // b), "mul": lambda: a * b, "add": lambda: a + b}[v.op]()


def legacy_cases(precision: str | None, rng) -> list[Case]:
    cases = []
    for path in LEGACY:
        analysis = driver.front_end(SourceFile.read(path), Options(precision=precision))
        host = driver.host_program(analysis)
        nodes = list(hostir.walk(host.body))
        for sub in host.subroutines:
            nodes += hostir.walk(sub.body)
        for launch in (n for n in nodes if isinstance(n, hostir.Launch)):
            cases.append(_legacy_case(path.stem, launch, analysis, rng))
    return cases


def _mat_product_case(stem: str, launch: hostir.Launch, rng) -> Case:
    """`MAT C = A * B`: the kernel runs over whole matrices, sized by their extents."""
    kernel = launch.kernel
    tm, tn = kernel.tile
    # Two and a half tiles of rows and columns, and an inner extent that is not a
    # multiple of the K slice: every edge of every tile is partial somewhere.
    rows, cols, inner = 2 * tm + tm // 2 + 1, 2 * tn + tn // 2 + 1, 37
    (shape,) = launch.shapes
    dims = {shape.target: (rows, cols), shape.left: (rows, inner), shape.right: (inner, cols)}
    arrays = {}
    args = []
    for p, value in zip(kernel.params, launch.args):
        if isinstance(p, ir.ArrayParam):
            data = rng.uniform(0.25, 1.75, dims[p.name])
            arrays[p.name] = data.astype(NP[p.dtype])
            args.append(arrays[p.name])
        elif isinstance(p, ir.ConstParam):  # a tile size
            assert value.op == "num", value
            args.append(p.value)
        else:
            assert value.op == "len", value
            array, axis = value.args
            args.append(dims[array][axis])

    def extent(v: hostir.HostValue) -> int:
        if v.op == "len":
            return dims[v.args[0]][v.args[1]]
        if v.op == "num":
            return v.args[0]
        assert v.op == "cdiv", v
        a, b = (extent(x) for x in v.args)
        return -(-a // b)

    grid = tuple(extent(g) for g in launch.grid) + (1,) * (3 - len(launch.grid))
    kernel = replace(kernel, name=f"{stem}_{kernel.name}")
    return Case(f"{stem}.bas {kernel.name}", kernel, args, grid)


def _legacy_case(stem: str, launch: hostir.Launch, analysis, rng) -> Case:
    if launch.shapes:
        return _mat_product_case(stem, launch, rng)
    kernel = launch.kernel
    tile = list(kernel.tile) + [37] * (len(launch.counts) - len(kernel.tile))
    # Two and a half tiles per axis: full tiles and a partial edge tile.
    counts = {c.name: 2 * t + t // 2 + 1 for c, t in zip(launch.counts, tile)}
    scalars = {}
    args = []
    temps = {t.name: t for t in launch.temps}
    base = analysis.option_base
    for p, value in zip(kernel.params, launch.args):
        if isinstance(p, ir.ArrayParam) and p.name in temps:
            size = int(_host_value(temps[p.name].size, counts, scalars))
            args.append(np.zeros(size, NP[p.dtype]))
        elif isinstance(p, ir.ArrayParam):
            # Arrays only gathered from (or atomically updated) are small, so that some
            # subscripts fall outside and set the error flag; tile-accessed ones fit.
            stored = any(
                isinstance(s, ir.Store) and s.array == p.name and s.view for s in kernel.body
            )
            extents = [max(counts.values()) + 8 if stored else 16] * p.ndim
            for check in launch.checks:
                if check.array == p.name:
                    need = check.start + check.offset + counts[check.count] - base
                    extents[check.axis] = max(extents[check.axis], int(need) + 2)
            args.append(rng.uniform(0.25, 1.75, extents).astype(NP[p.dtype]))
        elif value.op == "count":
            args.append(counts[value.args[0]])
        elif isinstance(p, ir.ConstParam):  # a tile size
            args.append(p.value)
        else:
            scalars[value.args[0]] = float(np.round(rng.uniform(2.0, 9.0), 2))
            args.append(scalars[value.args[0]])
    grid = tuple(int(_host_value(g, counts, scalars)) for g in launch.grid) + (1,) * (
        3 - len(launch.grid)
    )
    kernel = replace(kernel, name=f"{stem}_{kernel.name}")
    return Case(f"{stem}.bas {kernel.name}", kernel, args, grid)


@pytest.mark.parametrize("precision", [None, "f32"], ids=["f64", "f32"])
def test_legacy_kernels_agree_with_cutile_on_tilesim(precision, tmp_path):
    cases = legacy_cases(precision, np.random.default_rng(7))
    assert len(cases) >= 25  # every example's offloaded loops
    check_cases(cases, tmp_path)


# ---------------------------------------------------------------------- hand-built kernels

I32 = ir.TileType("i32")


def _bid(axis: int = 0) -> ir.BlockId:
    return ir.BlockId(axis, type=I32)


def _param(name: str, dtype: str = "i32") -> ir.Param:
    return ir.Param(name, type=ir.TileType(dtype))


def _load(array: str, dtype: str, shape: tuple[int, ...], index, **kw) -> ir.Load:
    return ir.Load(array, tuple(index), type=ir.TileType(dtype, shape), **kw)


def _local(name: str, t: ir.TileType) -> ir.Local:
    return ir.Local(name, type=t)


def _kernel(name, params, body, grid, tile, dtype="f32") -> ir.Kernel:
    """A hand-built kernel, planned for CUDA as the middle end plans the kernels it makes."""
    kernel = ir.Kernel(name, "tile", params, body, tuple(grid), tile, dtype)
    kernel.cuda = plan_kernel(kernel)
    return kernel


def _arange(n: int) -> ir.Arange:
    return ir.Arange(type=ir.TileType("i32", (n,)))


def feature_cases(rng) -> list[Case]:
    """Kernels for constructs the examples do not reach (each is described by its label)."""
    cases = []
    f32, f64 = "f32", "f64"

    # Integer arithmetic with Python rounding on negative numbers; i32 tile store.
    t = ir.TileType("i32", (64,))
    x = _load("X", "i32", (64,), [_bid()])
    body = [
        ir.Let("Q", B.binary("floordiv", x, B.const(-7, "i32"), f32)),
        ir.Let("R", B.binary("mod", x, B.const(5, "i32"), f32)),
        ir.Let("C", B.binary("cdiv", x, B.const(3, "i32"), f32)),
        ir.Store(
            "Y",
            (_bid(),),
            B.binary(
                "add",
                B.binary("mul", _local("Q", t), B.const(100, "i32"), f32),
                B.binary(
                    "add",
                    _local("R", t),
                    B.binary("mul", _local("C", t), B.const(10000, "i32"), f32),
                    f32,
                ),
                f32,
            ),
        ),
    ]
    k = _kernel(
        "int_math",
        [ir.ArrayParam("X", "i32", 1), ir.ArrayParam("Y", "i32", 1, reads=False, writes=True)],
        body,
        [],
        (64,),
    )
    cases.append(
        Case(
            "floordiv/mod/cdiv of negative i32",
            k,
            [rng.integers(-50, 50, 150).astype(np.int32), np.zeros(150, np.int32)],
            (3, 1, 1),
        )
    )

    # Float math functions, MOD, SGN, pow, min/max, select, casts (f32), scalar f32 param.
    t = ir.TileType(f32, (128,))
    x = _load("X", f32, (128,), [_bid()])
    s = _param("S", f32)
    value = B.binary(
        "add",
        B.unary("sqrt", B.unary("abs", x, f32), f32),
        B.unary("exp", B.binary("mul", x, s, f32), f32),
        f32,
    )
    value = B.binary("add", value, B.binary("mod", x, B.const(0.3, f32), f32), f32)
    value = B.binary("add", value, B.unary("sign", x, f32), f32)
    value = B.binary(
        "add", value, B.binary("pow", B.unary("abs", x, f32), B.const(1.5, f32), f32), f32
    )
    value = B.binary(
        "add", value, B.binary("max", B.unary("atan", x, f32), B.unary("floor", x, f32), f32), f32
    )
    value = B.select(
        B.binary("gt", x, B.const(0.0, f32), f32),
        value,
        B.unary("neg", B.unary("cos", x, f32), f32),
        f32,
    )
    value = B.binary(
        "add", value, B.cast(B.cast(B.binary("mul", x, B.const(10.0, f32), f32), "i32"), f32), f32
    )
    k = _kernel(
        "float_math",
        [
            ir.ArrayParam("X", f32, 1),
            ir.ScalarParam("S", f32),
            ir.ArrayParam("Y", f32, 1, reads=False, writes=True),
        ],
        [ir.Store("Y", (_bid(),), value)],
        [],
        (128,),
    )
    cases.append(
        Case(
            "math functions",
            k,
            [rng.uniform(-3, 3, 300).astype(np.float32), 0.75, np.zeros(300, np.float32)],
            (3, 1, 1),
        )
    )

    # Axis reductions along both axes (keepdims), prod and min, an f16 tile computed in f32,
    # a transposed load (order), a 2-D store of a broadcast (row) value.
    t2 = ir.TileType(f32, (16, 32))
    xt = _load("X", f32, (16, 32), [_bid(), B.const(0, "i32")])
    tt = _load("X", f32, (32, 16), [B.const(0, "i32"), _bid()], order=(1, 0))
    col_min = ir.Reduce("min", _local("T", t2), 0, keepdims=True, type=ir.TileType(f32, (1, 32)))
    row_prod = ir.Reduce("prod", _local("T", t2), 1, keepdims=True, type=ir.TileType(f32, (16, 1)))
    half = B.cast(_local("T", t2), "f16")
    body = [
        ir.Let("T", xt),
        ir.Let("H", B.binary("mul", half, half, f32)),
        ir.Let("U", B.binary("add", B.binary("sub", _local("T", t2), col_min, f32), row_prod, f32)),
        ir.Let(
            "U",
            B.binary(
                "add", _local("U", t2), B.cast(_local("H", ir.TileType("f16", (16, 32))), f32), f32
            ),
        ),
        ir.Store("Y", (_bid(), B.const(0, "i32")), _local("U", t2)),
        ir.Store("Z", (B.const(0, "i32"), _bid()), tt),
    ]
    k = _kernel(
        "axis_reduce",
        [
            ir.ArrayParam("X", f32, 2),
            ir.ArrayParam("Y", f32, 2, reads=False, writes=True),
            ir.ArrayParam("Z", f32, 2, reads=False, writes=True),
        ],
        body,
        [],
        (16, 32),
    )
    cases.append(
        Case(
            "axis reductions, f16, transposed load",
            k,
            [
                rng.uniform(0.5, 1.5, (40, 32)).astype(np.float32),
                np.zeros((40, 32), np.float32),
                np.zeros((32, 40), np.float32),
            ],
            (3, 1, 1),
        )
    )

    # Gather with a mask, scatter, atomic add (f32), atomic max (i32), Reshape of a lane tile
    # to (16, 1) broadcast against (1, 16), a view with a lower bound, scalar store.
    n = ir.TileType(f32, (256,))
    idx = B.binary("add", B.binary("mul", _bid(), B.const(256, "i32"), f32), _arange(256), f32)
    body = [
        ir.Let("LANE", idx),
        ir.Let(
            "G",
            ir.Gather(
                "X",
                (
                    B.binary(
                        "mul", _local("LANE", ir.TileType("i32", (256,))), B.const(3, "i32"), f32
                    ),
                ),
                B.binary(
                    "lt", _local("LANE", ir.TileType("i32", (256,))), B.const(300, "i32"), f32
                ),
                type=n,
            ),
        ),
        ir.Scatter(
            "Y",
            (
                B.binary(
                    "sub", B.const(600, "i32"), _local("LANE", ir.TileType("i32", (256,))), f32
                ),
            ),
            _local("G", n),
        ),
        ir.AtomicAdd(
            "H",
            (B.binary("mod", _local("LANE", ir.TileType("i32", (256,))), B.const(7, "i32"), f32),),
            _local("G", n),
        ),
        ir.AtomicMax(
            "M",
            (B.const(0, "i32"),),
            ir.Reduce(
                "max",
                B.cast(B.binary("gt", _local("G", n), B.const(2.5, f32), f32), "i32"),
                None,
                type=I32,
            ),
        ),
        ir.Let(
            "OUTER",
            B.binary(
                "mul",
                ir.Reshape(_arange(16), type=ir.TileType("i32", (16, 1))),
                ir.Reshape(_arange(16), type=ir.TileType("i32", (1, 16))),
                f32,
            ),
        ),
        ir.Store(
            "P",
            (_bid(), B.const(0, "i32")),
            B.cast(_local("OUTER", ir.TileType("i32", (16, 16))), f32),
            view=(
                ir.ViewSlice(0, B.const(2, "i32"), B.const(34, "i32")),
                ir.ViewSlice(1, B.const(1, "i32"), B.const(17, "i32")),
            ),
        ),
        ir.Store("S", (_bid(),), ir.Reduce("sum", _local("G", n), None, type=ir.TileType(f32))),
    ]
    k = _kernel(
        "gather_scatter",
        [
            ir.ArrayParam("X", f32, 1),
            ir.ArrayParam("Y", f32, 1, reads=False, writes=True),
            ir.ArrayParam("H", f32, 1, writes=True),
            ir.ArrayParam("M", "i32", 1, writes=True),
            ir.ArrayParam("P", f32, 2, writes=True),
            ir.ArrayParam("S", f32, 1, writes=True),
        ],
        body,
        [],
        (256,),
    )
    cases.append(
        Case(
            "gather/scatter/atomics/reshape/view",
            k,
            [
                rng.uniform(0, 3, 800).astype(np.float32),
                np.zeros(700, np.float32),
                np.zeros(7, np.float32),
                np.zeros(1, np.int32),
                np.zeros((40, 20), np.float32),
                np.zeros(2, np.float32),
            ],
            (2, 1, 1),
        )
    )

    # Control flow: a FOR with a step, WHILE on a scalar, IF/ELSE, BREAK, a tile
    # accumulated under a changing scalar, a constant parameter.
    t = ir.TileType(f64, (64,))
    i_ = _local("I", I32)
    body = [
        ir.Let("ACC", ir.Full(0.0, type=t)),
        ir.Let("STEPS", B.const(0, "i32")),
        ir.ForRange(
            "I",
            B.const(1, "i32"),
            ir.ConstRef("TOP", type=I32),
            [
                ir.IfScalar(
                    B.binary(
                        "eq", B.binary("mod", i_, B.const(3, "i32"), f64), B.const(0, "i32"), f64
                    ),
                    [ir.Let("ACC", B.binary("add", _local("ACC", t), B.cast(i_, f64), f64))],
                    [
                        ir.Let(
                            "ACC",
                            B.binary(
                                "sub", _local("ACC", t), _load("X", f64, (64,), [_bid()]), f64
                            ),
                        )
                    ],
                ),
                ir.IfScalar(B.binary("gt", i_, B.const(6, "i32"), f64), [ir.Break()]),
            ],
            step=2,
        ),
        ir.WhileLoop(
            B.binary("lt", _local("STEPS", I32), _param("N"), f64),
            [
                ir.Let("STEPS", B.binary("add", _local("STEPS", I32), B.const(1, "i32"), f64)),
                ir.Let("ACC", B.binary("mul", _local("ACC", t), B.const(0.5, f64), f64)),
            ],
        ),
        ir.Store("Y", (_bid(),), _local("ACC", t)),
    ]
    k = _kernel(
        "control",
        [
            ir.ConstParam("TOP", 9),
            ir.ArrayParam("X", f64, 1),
            ir.ScalarParam("N", "i32"),
            ir.ArrayParam("Y", f64, 1, reads=False, writes=True),
        ],
        body,
        [],
        (64,),
        f64,
    )
    cases.append(
        Case(
            "FOR with a step, WHILE, IF/ELSE, BREAK, constant",
            k,
            [None, rng.uniform(-1, 1, 100), 3, np.zeros(100)],
            (2, 1, 1),
        )
    )

    # Matrix products: f16 inputs on tensor cores outside a loop, f64 on tensor cores (8x8x4)
    # in a K loop, f16 with a K tile too thin for WMMA and f32 on the SIMT path (once with
    # one column per thread, once with the general element order).
    products = (
        ("f16", (32, 64, 32), False),
        ("f64", (32, 32, 8), True),
        ("f16", (32, 64, 8), True),
        ("f32", (32, 32, 8), True),
        ("f32", (16, 512, 8), False),
    )
    for number, (dtype, (m, n_, kk), loop) in enumerate(products):
        acc_dtype = "f64" if dtype == "f64" else "f32"
        acc_t = ir.TileType(acc_dtype, (m, n_))
        kt = _local("KT", I32)
        a_ = _load("A", dtype, (m, kk), [_bid(), kt if loop else B.const(0, "i32")])
        b_ = _load("B", dtype, (kk, n_), [kt if loop else B.const(0, "i32"), _bid(1)])
        mma = ir.Mma(a_, b_, _local("ACC", acc_t), type=acc_t)
        body = [ir.Let("ACC", ir.Full(0.5, type=acc_t))]
        if loop:
            body.append(
                ir.ForRange(
                    "KT",
                    B.const(0, "i32"),
                    B.binary("cdiv", _param("K"), B.const(kk, "i32"), acc_dtype),
                    [ir.Let("ACC", mma)],
                )
            )
        else:
            body.append(ir.Let("ACC", B.binary("mul", mma, B.const(2.0, acc_dtype), acc_dtype)))
        body.append(ir.Store("C", (_bid(), _bid(1)), _local("ACC", acc_t)))
        params = [
            ir.ArrayParam("A", dtype, 2),
            ir.ArrayParam("B", dtype, 2),
            ir.ScalarParam("K", "i32"),
            ir.ArrayParam("C", acc_dtype, 2, reads=False, writes=True),
        ]
        grid = [B.const(0, "i32"), B.const(0, "i32")]  # two axes (the harness sets the sizes)
        k = _kernel(f"mma_{dtype}_{number}", params, body, grid, (m, n_), dtype)
        rows, cols, depth = 2 * m + 3, n_ + 5, kk * 2 + 3 if loop else kk
        cases.append(
            Case(
                f"MMA {dtype} {m}x{n_}x{kk}",
                k,
                [
                    rng.uniform(-1, 1, (rows, depth)).astype(NP[dtype]),
                    rng.uniform(-1, 1, (depth, cols)).astype(NP[dtype]),
                    depth,
                    np.zeros((rows, cols), NP[acc_dtype]),
                ],
                (3, 2, 1),
            )
        )
    return cases


def test_hand_built_kernels_agree_with_cutile_on_tilesim(tmp_path):
    check_cases(feature_cases(np.random.default_rng(11)), tmp_path)


def test_reversed_thread_order_gives_the_same_results(tmp_path):
    """The emulator runs each block's threads last to first: a missing barrier would show."""
    cases = [
        c
        for c in feature_cases(np.random.default_rng(5))
        if c.kernel.name in ("axis_reduce", "mma_f64_1", "gather_scatter")
    ]
    check_cases(cases, tmp_path, reverse=True)


# ---------------------------------------------------------------------- printing rules


def _text(kernel: ir.Kernel) -> str:
    return lower_kernel(kernel).text


def test_block_size_follows_the_principal_tile():
    def kernel(n):
        t = ir.TileType("f32", (n,))
        return _kernel(
            "k",
            [ir.ArrayParam("Y", "f32", 1, writes=True)],
            [ir.Store("Y", (_bid(),), ir.Full(1.0, type=t))],
            [],
            (n,),
        )

    assert [choose_threads(kernel(n)) for n in (16, 64, 256, 512, 1024)] == [32, 64, 256, 256, 256]
    text = _text(kernel(512))
    assert "__launch_bounds__(256)" in text and "slot < 2" in text


def test_an_unused_constant_goes_and_the_declarations_before_it_stay():
    """A constexpr no statement reads is dropped; the locals declared above the constants
    (first bound inside an IF) were dropped in its place."""
    t = ir.TileType("f32", (32,))
    first = B.binary("gt", _bid(), B.const(0, "i32"), "i32")
    body = [
        ir.IfScalar(
            first, [ir.Let("S", ir.Full(1.0, type=t))], [ir.Let("S", ir.Full(2.0, type=t))]
        ),
        ir.Store("Y", (_bid(),), _local("S", t)),
    ]
    params = [ir.ConstParam("unused", 7), ir.ArrayParam("Y", "f32", 1, writes=True)]
    text = _text(_kernel("k", params, body, [], (32,)))
    assert "float s;" in text and "unused" not in text, text


def test_literals_and_math_functions_follow_the_element_type():
    for dtype, literal, sqrt in (("f32", "0.5f", "sqrtf("), ("f64", "0.5", "sqrt(")):
        t = ir.TileType(dtype, (32,))
        x = _load("X", dtype, (32,), [_bid()])
        value = B.unary("sqrt", B.binary("add", x, B.const(0.5, dtype), dtype), dtype)
        k = _kernel(
            "k",
            [ir.ArrayParam("X", dtype, 1), ir.ArrayParam("Y", dtype, 1, writes=True)],
            [ir.Store("Y", (_bid(),), value)],
            [],
            (32,),
            dtype,
        )
        text = _text(k)
        assert f"+ {literal})" in text and sqrt in text, text
        assert t.size == 32


def test_shared_memory_beyond_48_kb_is_dynamic():
    t = ir.TileType("f64", (64, 128))
    x = _load("X", "f64", (64, 128), [_bid(), B.const(0, "i32")])
    body = [
        ir.Let("T", x),
        ir.Store(
            "Y",
            (_bid(), B.const(0, "i32")),
            B.binary(
                "sub",
                _local("T", t),
                ir.Reduce(
                    "max", _local("T", t), 1, keepdims=True, type=ir.TileType("f64", (64, 1))
                ),
                "f64",
            ),
        ),
    ]
    k = _kernel(
        "big",
        [ir.ArrayParam("X", "f64", 2), ir.ArrayParam("Y", "f64", 2, writes=True)],
        body,
        [],
        (64, 128),
        "f64",
    )
    ck = lower_kernel(k)
    assert ck.dynamic_shared >= 64 * 128 * 8 and "B2T_DYNAMIC_SHARED" in ck.text


def test_big_shared_memory_kernel_runs(tmp_path):
    t = ir.TileType("f64", (64, 128))
    x = _load("X", "f64", (64, 128), [_bid(), B.const(0, "i32")])
    body = [
        ir.Let("T", x),
        ir.Store(
            "Y",
            (_bid(), B.const(0, "i32")),
            B.binary(
                "sub",
                _local("T", t),
                ir.Reduce(
                    "max", _local("T", t), 1, keepdims=True, type=ir.TileType("f64", (64, 1))
                ),
                "f64",
            ),
        ),
    ]
    k = _kernel(
        "big",
        [ir.ArrayParam("X", "f64", 2), ir.ArrayParam("Y", "f64", 2, writes=True)],
        body,
        [],
        (64, 128),
        "f64",
    )
    rng = np.random.default_rng(3)
    check_cases(
        [
            Case(
                "dynamic shared memory",
                k,
                [rng.uniform(-1, 1, (100, 128)), np.zeros((100, 128))],
                (2, 1, 1),
            )
        ],
        tmp_path,
    )


def _four_reductions_kernel(rows: int) -> ir.Kernel:
    """Y = T - MAX(T, 1) + SUM(T) + MAX(T) + MIN(T) + PROD(T) over a (rows, 128) f64 tile:
    T and the row maxima in shared memory, four block reductions (each instantiation of
    b2t_block_reduce has its own 32 warp results in static shared memory)."""
    t, scalar = ir.TileType("f64", (rows, 128)), ir.TileType("f64", ())
    body = [ir.Let("T", _load("X", "f64", (rows, 128), [_bid(), B.const(0, "i32")]))]
    total = None
    for op in ("sum", "max", "min", "prod"):
        body.append(ir.Let(f"S_{op.upper()}", ir.Reduce(op, _local("T", t), None, type=scalar)))
        term = _local(f"S_{op.upper()}", scalar)
        total = term if total is None else B.binary("add", total, term, "f64")
    row_max = ir.Reduce("max", _local("T", t), 1, keepdims=True, type=ir.TileType("f64", (rows, 1)))
    centred = B.binary("sub", _local("T", t), row_max, "f64")
    body.append(ir.Store("Y", (_bid(), B.const(0, "i32")), B.binary("add", centred, total, "f64")))
    params = [ir.ArrayParam("X", "f64", 2), ir.ArrayParam("Y", "f64", 2, writes=True)]
    return _kernel("four", params, body, [], (rows, 128), "f64")


def test_helpers_shared_memory_counts_against_the_static_limit(tmp_path):
    # 47 x 128 doubles and 47 row maxima (48,504 bytes) fit the 48 KB static limit with
    # two reductions' warp results, not with four (4 x 256 bytes): ptxas refused the
    # kernel ("uses too much shared data (0xc178 bytes, 0xc000 max)").
    k = _four_reductions_kernel(47)
    assert lower_kernel(k).dynamic_shared == 48504
    x = np.random.default_rng(5).uniform(0.99, 1.01, (47, 128))
    [(_, got)] = run_cuda([Case("four reductions", k, [x, np.zeros_like(x)], (1, 1, 1))], tmp_path)
    want = x - x.max(axis=1, keepdims=True) + x.sum() + x.max() + x.min() + x.prod()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    if find_nvcc() is not None:
        source = tmp_path / "four.cu"
        code = device_code([k]).text
        source.write_text(f'#include "b2t_cuda.h"\n{code}\nint main() {{ return 0; }}\n')
        build_nvcc(source, tmp_path / "four")  # ptxas checks the static limit


def test_a_kernel_within_the_static_limit_keeps_static_shared_memory():
    assert lower_kernel(_four_reductions_kernel(40)).dynamic_shared == 0


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: [
                ir.ForRange("I", B.const(0, "i32"), B.const(3, "i32"), []),
                ir.Store("Y", (_local("I", I32),), ir.Full(1.0, type=ir.TileType("f32", (32,)))),
            ],
            "read after its loop",
        ),
        (
            lambda: [
                ir.Let("A", B.const(1, "i32")),
                ir.Let("A", ir.Full(1.0, type=ir.TileType("f32", (32,)))),
            ],
            "holds values of two types",
        ),
        (
            lambda: [ir.AtomicAdd("Z", (B.const(0, "i32"),), B.const(1.0, "f16"))],
            "atomic updates of f16",
        ),
        (
            lambda: [ir.Store("Y", (_bid(),), ir.Full(1.0, type=ir.TileType("f32", (131072,))))],
            "too large for the CUDA backend",
        ),
        (
            lambda: [
                ir.Let("T", ir.Full(1.0, type=ir.TileType("f64", (256, 256)))),
                ir.Let("T", ir.Full(2.0, type=ir.TileType("f64", (256, 256)))),  # not constant
                ir.Let(
                    "R",
                    ir.Reduce(
                        "sum",
                        _local("T", ir.TileType("f64", (256, 256))),
                        1,
                        keepdims=True,
                        type=ir.TileType("f64", (256, 1)),
                    ),
                ),
            ],
            "KB of shared memory",
        ),
    ],
)
def test_unsupported_constructs_raise_clear_errors(make, message):
    params = [ir.ArrayParam("Y", "f32", 1, writes=True), ir.ArrayParam("Z", "f16", 1, writes=True)]
    with pytest.raises(BasicUnsupportedError, match=message):
        lower_kernel(_kernel("bad", params, make(), [], (32,)))


def test_no_unused_registers_for_lane_numbers():
    """Lane tiles (`I_LANE`) that are only broadcast are recomputed, not kept in registers."""
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "matmul.bas"), Options())
    kernel = driver.host_program(analysis).kernels[0]
    text = _text(kernel)
    assert "i_lane" not in text and "j_lane" not in text, text
    assert math.prod(kernel.tile) == 1024


# ---------------------------------------------------------------------- launches in programs


@pytest.mark.parametrize("name", ["stats", "histogram", "matmul", "mandel"])
def test_legacy_program_with_kernels_matches_the_interpreter(name):
    """Launch code (cuda/launch.py) in whole programs: device mirrors, counts, checks,
    partial results combined on the host (sums, max/min), atomics, 2-D grids, mma."""
    import io

    analysis = driver.front_end(SourceFile.read(EXAMPLES / f"{name}.bas"), Options())
    assert driver.host_program(analysis).kernels
    expected = io.StringIO()
    assert (
        driver.interpret(analysis, stdin=io.StringIO(""), stdout=expected, stderr=io.StringIO())
        == 0
    )
    result = driver.run(analysis, driver.generate(analysis, "cuda"), "cuda", "cpu", stdin="")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected.getvalue()


@pytest.mark.parametrize(
    "program, message",
    [
        # out of range before the launch: the host runs the loop, BASIC reports it
        (
            "10 DIM A(10), B(20)\n20 FOR I = 1 TO 12\n30 LET B(I) = A(I) + 1\n40 NEXT I\n50 END\n",
            "line 30: subscript out of range A(11) [0 to 10]",
        ),
        # found by the kernel (a computed subscript): the host runs the block again
        (
            (
                "10 DIM H(5), V(100)\n20 FOR I = 1 TO 100\n30 LET V(I) = I / 10\n40 NEXT I\n"
                "50 FOR I = 1 TO 100\n60 LET H(INT(V(I))) = H(INT(V(I))) + 1\n70 NEXT I\n80 END\n"
            ),
            "line 60: subscript out of range H(6) [0 to 5]",
        ),
    ],
)
def test_subscript_errors_in_offloaded_loops(program, message, tmp_path):
    analysis = driver.front_end(SourceFile("prog.bas", program), Options())
    assert driver.host_program(analysis).kernels
    result = driver.run(analysis, driver.generate(analysis, "cuda"), "cuda", "cpu")
    assert result.returncode == 1
    assert result.stderr.strip() == f"prog.bas: error: {message}"


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
def test_nvcc_compiles_a_program_with_launches(tmp_path):
    """Launch code with the real CUDA headers (compile only: there is no GPU here)."""
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "matmul.bas"), Options())
    source = tmp_path / "matmul.cu"
    source.write_text(driver.generate(analysis, "cuda"))
    assert build_nvcc(source, tmp_path / "matmul.o", extra_flags=("-c",)).stat().st_size > 0


def test_without_a_gpu_the_cpu_runs_it_with_a_notice(capsys, monkeypatch):
    from transpiler.backends.cuda.program import run_cuda_program

    monkeypatch.setattr("transpiler.device.gpu_unavailable_reason", lambda: "no CUDA device")
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "saxpy.bas"), Options())
    result = run_cuda_program(driver.generate(analysis, "cuda"), "saxpy", None)
    assert result.returncode == 0 and "CHECKSUM" in result.stdout
    notice = capsys.readouterr().err
    assert notice.count("\n") == 1 and "no usable GPU (no CUDA device)" in notice
