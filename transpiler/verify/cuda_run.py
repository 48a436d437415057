"""Build and run generated CUDA programs for --run/--check.

On the CPU a program is built with g++ and the CUDA emulator (verify/cpu_cuda.py, cached
by content); on a GPU with nvcc (verify/nvcc.py).  A kernel program's main() reads INPUT
values from stdin and prints its OUTPUT arrays; `self_test` feeds it the data the cuTile
module's self-test would use and compares the result with the reference interpreter,
printing the same verification lines.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import numpy as np

from ..errors import BasicError, Coord
from ..run.process import RunResult


def build(code: str, name: str, device: str, folder: Path) -> Path:
    """The executable of `code` for `device` ("cpu" or "gpu")."""
    source = folder / f"{name}.cu"
    source.write_text(code, encoding="utf-8")
    if device == "cpu":
        from .cpu_cuda import CpuBuildError, build_cpu

        try:  # a copy in `folder`: the program runs, and is cleaned up, with the run
            return build_cpu(source, folder / name)
        except CpuBuildError as exc:
            raise BasicError(
                f"g++ could not build the generated CUDA:\n{exc.output}", Coord(str(source), 0, 0)
            ) from None
    from .nvcc import NvccError, build_nvcc

    try:
        return build_nvcc(source, folder / name)
    except (NvccError, FileNotFoundError) as exc:
        raise BasicError(
            f"nvcc could not build the generated CUDA: {exc}", Coord(str(source), 0, 0)
        ) from None


def run_built(
    code: str,
    name: str,
    device: str,
    stdin: str | None,
    args: list[str],
    capture: bool,
    timeout: float | None = None,
) -> RunResult:
    from ..run.process import run_child

    with tempfile.TemporaryDirectory(prefix="b2t-cuda-") as tmp:
        exe = build(code, name, device, Path(tmp))
        proc = run_child([str(exe), *args], input=stdin, capture=capture, timeout=timeout)
    return RunResult(proc.returncode, proc.stdout, proc.stderr)


def format_inputs(kp, scalars: dict, inputs: dict) -> str:
    """stdin of a kernel program's main(): INPUT scalars, then INPUT arrays, in order."""
    words = [
        (
            repr(float(scalars[n]))
            if kp.scalars[n].dtype not in ("i32", "i64")
            else str(int(scalars[n]))
        )
        for n in kp.inputs
        if n in kp.scalars
    ]
    lines = [" ".join(words)]
    for n in kp.inputs:
        if n in inputs:
            flat = np.asarray(inputs[n]).reshape(-1)
            lines.append(" ".join(repr(float(x)) for x in flat))
    return "\n".join(lines) + "\n"


# main() prints this line between the kernel's PRINT output and the OUTPUT arrays.
OUTPUT_MARKER = "--- OUTPUT arrays ---"


def split_printed(text: str) -> tuple[str, str]:
    """(what the kernel PRINTed, the OUTPUT arrays) of a kernel program's main()."""
    printed, marker, arrays = text.rpartition(OUTPUT_MARKER + "\n")
    return (printed, arrays) if marker else ("", text)


def parse_outputs(text: str, kp) -> dict[str, np.ndarray]:
    """The OUTPUT arrays a kernel program's main() printed."""
    from ..run.kernel_interpreter import NP_TYPES

    tokens = split_printed(text)[1].split()
    pos, out = 0, {}
    while pos < len(tokens):
        name, rank = tokens[pos], int(tokens[pos + 1])
        shape = tuple(int(t) for t in tokens[pos + 2 : pos + 2 + rank])
        pos += 2 + rank
        count = int(np.prod(shape))
        values = np.array([float(t) for t in tokens[pos : pos + count]], dtype=np.float64)
        pos += count
        out[name] = values.reshape(shape).astype(NP_TYPES[kp.arrays[name].dtype])
    return out


def representable(kp, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The inputs rounded to their arrays' element types: bf16 data travels as float32
    (NumPy has no bfloat16), and the CUDA program rounds it to bf16 on input, so the
    interpreter must see the same values."""
    out = dict(inputs)
    for name, values in inputs.items():
        if kp.arrays[name].dtype == "bf16":
            bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
            rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # to nearest even
            out[name] = rounded.astype(np.uint32).view(np.float32)
    return out


def self_test(
    code: str,
    name: str,
    device: str,
    basic: str,
    precision: str | None,
    args: list[str],
    timeout: float | None = None,
) -> RunResult:
    """Run a kernel program on generated data and compare with the reference interpreter."""
    from ..options import Options
    from ..run.kernel_interpreter import run_kernel_program
    from ..run.selftest import (
        compare,
        compare_printed,
        default_scalars,
        kernel_program_from_text,
        make_inputs,
        parse_sizes,
    )

    kp = kernel_program_from_text(basic, name, Options(precision=precision))
    scalars = default_scalars(kp, parse_sizes(args))
    inputs = representable(kp, make_inputs(kp, scalars))
    result = run_built(code, name, device, format_inputs(kp, scalars, inputs), [], True, timeout)
    if result.returncode != 0:
        return result
    got = parse_outputs(result.stdout, kp)
    missing = [n for n in kp.outputs if n not in got]
    if missing:
        return RunResult(1, "", f"{name}: the program printed no values for {', '.join(missing)}\n")
    want_printed = io.StringIO()
    want = run_kernel_program(kp, scalars, inputs, want_printed)
    printed = split_printed(result.stdout)[0]
    lines = compare(kp, got, want) + compare_printed(printed, want_printed.getvalue())
    sizes = ", ".join(f"{k}={v}" for k, v in scalars.items())
    failed = any(line.startswith("MISMATCH") for line in lines)
    report = [f"{name}: {sizes}", *lines]
    report.append(
        "verification: "
        + ("FAILED" if failed else "PASSED")
        + f" (CUDA on the {device.upper()}, against basic2tile's reference interpreter)"
    )
    return RunResult(1 if failed else 0, printed + "\n".join(report) + "\n", result.stderr)
