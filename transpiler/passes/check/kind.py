"""Pass 1: is this a legacy BASIC program or a cuTile BASIC kernel program?

A program is a kernel program as soon as it uses one construct of NVIDIA's dialect
(TILE, OUTPUT, BID, MMA or an `INPUT A()` array parameter); the kernel dialect pass owns
that definition.  The choice sets the number type: f64 for legacy programs, f32 for
kernels (NVIDIA's dialect is f32 only) and for Microsoft BASIC (GW-BASIC's default single
precision), unless `--precision` says otherwise (tf32: f32 numbers, TensorFloat-32
operands in matrix products).
"""

from __future__ import annotations

from ...errors import Diagnostics
from ...ir.model import Analysis
from ..kernel.kernel_dialect import is_kernel_program


def run(analysis: Analysis, diags: Diagnostics) -> None:
    analysis.kind = "kernel" if is_kernel_program(analysis.program) else "legacy"
    precision = analysis.options.precision
    if precision is None:
        # Microsoft BASIC's numbers are singles unless a suffix says otherwise.
        single = analysis.kind == "kernel" or analysis.options.microsoft
        precision = "f32" if single else "f64"
    # tf32 is an f32 program whose matrix products round their operands (passes/parallel/matmul.py).
    analysis.number_type = "f32" if precision == "tf32" else precision
