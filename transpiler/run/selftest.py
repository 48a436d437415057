"""Test data and comparison for cuTile BASIC kernel programs.

Used by `python generated.py` (the module's self-test), `basic2tile prog.bas --run` /
`--check` on kernel programs, and the tests: make INPUT data, run the generated
`run()` and the reference interpreter, compare the OUTPUT arrays.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BasicError, BasicRuntimeError, SourceFile
from ..ir import ast
from ..language.builtins import BUILTINS
from ..options import Options, parse_size
from ..passes.kernel.kernel_dialect import KernelProgram, analyze_kernel_program
from ..runtime.command import run_command
from ..runtime.limits import TOO_MANY_ELEMENTS
from .kernel_interpreter import NP_TYPES, array_shapes, extent_value, run_kernel_program

# Relative tolerance per element type when comparing with the reference interpreter.
# tf32: f32 results of matrix products on TensorFloat-32 operands (`--precision tf32`),
# 10 mantissa bits each: about ten of their units in the last place.
TOLERANCE = {
    "f16": 2e-2, "bf16": 2e-2, "tf32": 5e-3, "f32": 1e-4, "f64": 1e-10, "i32": 0.0, "i64": 0.0,
}  # fmt: skip


def kernel_program_from_text(text: str, name: str, options: Options | None = None) -> KernelProgram:
    from ..frontend.parser import parse

    options = options or Options()
    source = SourceFile(name + ".bas", text)
    return analyze_kernel_program(parse(source, options, kernel=True), options, name, source)


def _exprs(nodes) -> list[ast.Expr]:
    """Every expression in a nested kernel body (statements, FOR bounds, IF conditions)."""
    from ..passes.kernel import nesting

    out: list[ast.Expr] = []
    for node in nodes:
        if isinstance(node, nesting.ForBlock):
            out += [node.head.start, node.head.limit] + ([node.head.step] if node.head.step else [])
            out += _exprs(node.body)
        elif isinstance(node, nesting.WhileBlock):
            out += [node.head.condition] + _exprs(node.body)
        elif isinstance(node, nesting.IfChain):
            for arm in node.arms:
                out += [arm.condition] + _exprs(arm.body)
            out += _exprs(node.else_body or [])
        else:
            out += [e for e in node.walk() if isinstance(e, ast.Expr)]
    return out


def whole_tile_sizes(kp: KernelProgram) -> set[str]:
    """INPUT scalars the program divides by a constant and rounds down, `INT(N / 128)`:
    it counts whole tiles only (as NVIDIA's gemm.bas does), so its sizes must be
    multiples of the tile."""
    names = set()
    for e in _exprs(kp.body):
        for node in e.walk():
            if not (isinstance(node, ast.Call) and node.name == "INT" and len(node.args) == 1):
                continue
            arg = node.args[0]
            if (
                isinstance(arg, ast.BinOp)
                and arg.op == "/"
                and isinstance(arg.left, ast.Var)
                and isinstance(arg.right, ast.Num)
                and arg.left.name in kp.scalars
            ):
                names.add(arg.left.name)
    return names


def default_scalars(kp: KernelProgram, given: dict[str, float] | None = None) -> dict[str, float]:
    """INPUT scalar values: those given, else sizes of 2.5 tiles (to exercise the masked
    edge tiles) for scalars that size arrays, or 3 whole tiles where the program counts
    tiles with `INT(N / tile)`; 1.5 or 3 for the other scalars.  A located
    BasicRuntimeError for a given name that is not an INPUT scalar, or for values that
    give an array a negative or too large DIM."""
    given = dict(given or {})
    whole = whole_tile_sizes(kp)
    values: dict[str, float] = {}
    for name, scalar in kp.scalars.items():
        if name in given:
            values[name] = given.pop(name)
            if scalar.dtype in ("i32", "i64") and not float(values[name]).is_integer():
                raise BasicRuntimeError(
                    f"{name} is an integer INPUT scalar ({scalar.dtype.upper()}); "
                    f"{values[name]:g} is not a whole number",
                    scalar.coord,
                )
            continue
        tile = 0
        for array in kp.arrays.values():
            for axis, extent in enumerate(array.extents):
                if isinstance(extent, ast.Var) and extent.name == name:
                    tile = max(tile, array.tile[axis] if array.tile else 64)
        if tile and name in whole:
            values[name] = 3 * tile
        elif tile:
            values[name] = 2 * tile + max(tile // 2, 1)
        else:
            values[name] = 3 if scalar.dtype in ("i32", "i64") else 1.5
    if given:
        known = ", ".join(kp.scalars) or "none"
        raise BasicRuntimeError(
            f"not an INPUT scalar of this program: {', '.join(sorted(given))} "
            f"(its INPUT scalars: {known})",
            next((s.coord for s in kp.scalars.values()), kp.coord),
        )
    _check_extents(kp, values)
    return values


def _check_extents(kp: KernelProgram, scalars: dict[str, float]) -> None:
    """Every DIM extent a whole number of elements from 0 up, and no array larger than
    the BASIC runtime allows."""
    shown = ", ".join(f"{k}={v}" for k, v in scalars.items())
    for name, array in kp.arrays.items():
        count = 1
        for extent in array.extents:
            value = extent_value(extent, scalars)
            if not (math.isfinite(value) and value >= 0):
                raise BasicRuntimeError(
                    f"with {shown}, an extent of {name} is {value:g}: DIM extents must be "
                    "0 or more",
                    array.coord,
                )
            count *= int(value)
        if count > TOO_MANY_ELEMENTS:
            raise BasicRuntimeError(
                f"with {shown}, {name} has {count} elements, more than {TOO_MANY_ELEMENTS}",
                array.coord,
            )


def needs_positive_inputs(kp: KernelProgram) -> bool:
    """Whether the program takes a square root, a logarithm or a fractional power of
    something that may be negative: then its data is drawn from [0.5, 1.5) rather than
    [-1, 1), so that results are numbers, not NaN.  `SQR(ABS(X))` and `X ^ 2` need not."""
    for e in _exprs(kp.body):
        for node in e.walk():
            # a function whose argument must not be negative (the base of `^` neither)
            builtin = BUILTINS.get(node.name) if isinstance(node, ast.Call) else None
            domain = builtin is not None and builtin.domain in ("nonnegative", "positive")
            if domain and not _is_abs(node.args[0]):
                return True
            if isinstance(node, ast.BinOp) and node.op == "^":
                integral = isinstance(node.right, ast.Num) and node.right.text.isdigit()
                if not (integral or _is_abs(node.left)):
                    return True
    return False


def _is_abs(e: ast.Expr) -> bool:
    return isinstance(e, ast.Call) and e.name == "ABS"


def make_inputs(
    kp: KernelProgram, scalars: dict[str, float], seed: int = 0
) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    shapes = array_shapes(kp, scalars)
    low, high = (0.5, 1.5) if needs_positive_inputs(kp) else (-1.0, 1.0)
    out = {}
    for name, array in kp.arrays.items():
        if not array.is_input:
            continue
        shape = shapes[name]
        if array.dtype in ("i32", "i64"):
            # Integers from -9 to 9 but not 0 (a divisor of 0 has no defined result).
            values = rng.integers(1, 10, shape) * rng.choice([-1, 1], shape)
        else:
            values = rng.uniform(low, high, shape)
        out[name] = values.astype(NP_TYPES[array.dtype])
    return out


def run_generated(module, kp: KernelProgram, scalars, inputs, device=None) -> dict[str, np.ndarray]:
    args = [scalars[n] if n in kp.scalars else inputs[n] for n in kp.inputs]
    result = module.run(*args, device=device)
    if len(kp.outputs) == 1:
        result = (result,)
    return {name: np.asarray(value) for name, value in zip(kp.outputs, result)}


def compare(
    kp: KernelProgram, got: dict[str, np.ndarray], want: dict[str, np.ndarray]
) -> list[str]:
    """One line per OUTPUT array; lines starting with 'MISMATCH' are failures.  NaN equals
    NaN at the same element (and an infinity the same infinity); elsewhere the largest
    difference must be within the element type's tolerance, relative to the largest
    finite value."""
    lines = []
    for name in kp.outputs:
        a, b = np.asarray(got[name], dtype=np.float64), np.asarray(want[name], dtype=np.float64)
        dtype = kp.arrays[name].dtype
        rtol = TOLERANCE["tf32" if kp.tf32_products and dtype == "f32" else dtype]
        if a.shape != b.shape:
            lines.append(f"MISMATCH {name}: shape {a.shape} != {b.shape}")
            continue
        finite = np.abs(b[np.isfinite(b)])
        scale = max(1.0, float(np.max(finite))) if finite.size else 1.0
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if np.any(nan_a != nan_b):
            count = int(np.count_nonzero(nan_a != nan_b))
            lines.append(
                f"MISMATCH {name}: shape {a.shape}, NaN in one result only at {count} element(s)"
            )
            continue
        differ = (a != b) & ~nan_a
        with np.errstate(invalid="ignore"):
            diff = float(np.max(np.abs(a[differ] - b[differ]))) if np.any(differ) else 0.0
        ok = diff <= rtol * scale
        verdict = "ok" if ok else "MISMATCH"
        lines.append(
            f"{verdict} {name}: shape {a.shape}, max |diff| = {diff:.3g} (tolerance {rtol * scale:.3g})"
        )
    return lines


def compare_printed(got: str, want: str) -> list[str]:
    """A line comparing what the kernel PRINTed with the interpreter's text (none when
    neither printed; a GPU's device printf bypasses Python's stdout: not compared)."""
    if not want:
        return [] if not got else ["MISMATCH PRINT: the interpreter printed nothing"]
    if not got:
        return ["PRINT output not compared (the device printed it directly)"]
    if got == want:
        return [f"ok PRINT: {want.count(chr(10))} line(s) as the interpreter printed them"]
    for number, (a, b) in enumerate(zip(got.splitlines(), want.splitlines()), 1):
        if a != b:
            return [f"MISMATCH PRINT line {number}: {a!r}, the interpreter printed {b!r}"]
    return ["MISMATCH PRINT: the texts differ in length"]


def summary(kp: KernelProgram, outputs: dict[str, np.ndarray]) -> str:
    """A short, deterministic text description of OUTPUT arrays (for --interpret/--run)."""
    lines = []
    for name in kp.outputs:
        a = np.asarray(outputs[name])
        flat = a.reshape(-1).astype(np.float64)
        head = ", ".join(f"{v:.6g}" for v in flat[:4])
        lines.append(f"{name}: shape {a.shape}, sum {float(flat.sum()):.6g}, first [{head}]")
    return "\n".join(lines)


def parse_sizes(argv: list[str]) -> dict[str, float]:
    """`N=1000 M=64` as {"N": 1000, "M": 64}; ValueError for anything else."""
    return dict(parse_size(arg) for arg in argv)


def main(module, argv: list[str]) -> int:
    """Self-test of a generated kernel module: `python module.py [--device cpu|gpu]
    [N=1000 ...]`, as a command (runtime/command.py); the arguments are parsed by
    argparse (`--help`; a wrong option is its usage line and status 2), bad sizes are one
    located error line."""
    name = Path(module.__file__).stem if module.__name__ == "__main__" else module.__name__
    args = _arg_parser(name).parse_args(argv)
    split = Split(args.workers, args.scheduler) if args.workers or args.scheduler else None
    return run_command(_self_test, name, module, name, args.sizes, args.device, split)


def _arg_parser(name: str):
    import argparse

    parser = argparse.ArgumentParser(
        prog=f"python {name}.py",
        description=f"Run the kernel {name} on generated data and compare its OUTPUT arrays "
        "with basic2tile's reference interpreter.",
    )
    parser.add_argument(
        "sizes",
        nargs="*",
        metavar="NAME=VALUE",
        help="an INPUT scalar (default: sizes of a few tiles, partial tiles included)",
    )
    parser.add_argument(
        "--device",
        choices=("cpu", "gpu"),
        help="where the kernel runs: cuda.tile on the GPU, or basic2tile's tile simulator "
        "(default: $BASIC2TILE_DEVICE, else the GPU if usable, else the CPU)",
    )
    parser.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="split the grid across a local Dask cluster of N workers (needs "
        "basic2tile[distributed]); each runs its chunk of blocks on --device",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="split the grid across the workers of the running Dask cluster at ADDRESS "
        "(tcp://host:8786), one chunk per worker",
    )
    return parser


def _positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a number of workers: {text!r}")
    return value


@dataclass
class Split:
    """Where a split run goes: a local cluster of `workers`, or the scheduler at `scheduler`."""

    workers: int | None
    scheduler: str | None


def _run_split(module, kp, scalars, inputs, device, split: Split) -> dict[str, np.ndarray]:
    """run_generated with the grid split across a Dask cluster (transpiler.run.scaleout)."""
    from . import scaleout

    args = [scalars[n] if n in kp.scalars else inputs[n] for n in kp.inputs]
    with scaleout.cluster_client(split.workers, split.scheduler) as client:
        workers = len(scaleout.workers_of(client))
        print(f"split across {workers} Dask worker(s)", file=sys.stderr)
        result = scaleout.run(module, *args, client=client, device=device)
    if len(kp.outputs) == 1:
        result = (result,)
    return {name: np.asarray(value) for name, value in zip(kp.outputs, result)}


def _self_test(
    module, name: str, argv: list[str], device: str | None = None, split: Split | None = None
) -> int:
    precision = getattr(module, "BASIC_PRECISION", None)  # absent: the default, f32
    kp = kernel_program_from_text(module.BASIC_SOURCE, name, Options(precision=precision))
    try:
        scalars = default_scalars(kp, parse_sizes(argv))
    except ValueError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 1
    except BasicError as error:
        print(error, file=sys.stderr)
        return 1
    inputs = make_inputs(kp, scalars)
    printed, want_printed = io.StringIO(), io.StringIO()
    # The reference runs first: a program that is wrong for these sizes (a tile index
    # outside its array) is one located error, as --interpret gives, not the
    # simulator's traceback.
    try:
        want = run_kernel_program(kp, scalars, inputs, want_printed)
    except BasicRuntimeError as error:
        print(error.render(SourceFile(f"{name}.bas", module.BASIC_SOURCE)), file=sys.stderr)
        return 1
    with contextlib.redirect_stdout(printed):  # the simulator's printf writes here
        if split is None:
            got = run_generated(module, kp, scalars, inputs, device)
        else:
            got = _run_split(module, kp, scalars, inputs, device, split)
    sys.stdout.write(printed.getvalue())
    lines = compare(kp, got, want) + compare_printed(printed.getvalue(), want_printed.getvalue())
    sizes = ", ".join(f"{k}={v}" for k, v in scalars.items())
    print(f"{name}: {sizes}")
    print("\n".join(lines))
    failed = any(line.startswith("MISMATCH") for line in lines)
    print(
        "verification: "
        + ("FAILED" if failed else "PASSED")
        + " (against basic2tile's reference interpreter)"
    )
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.modules["__main__"], sys.argv[1:]))
