"""The CUDA lowering's decisions about each kernel, made before printing (`Kernel.cuda`,
an `ir.cuda_plan.CudaKernelPlan`): the block size and barriers (`cuda_launch_shape`), the
locals (`cuda_locals`), each product (`mma_strategy`) and reduction (`reduce_strategy`).

Kernels are planned where they are made (the end of the middle end, a kernel program's
lowering), whatever the target: a kernel with no CUDA translation keeps the located
error in its plan, raised only when the CUDA printer is asked for the kernel.
"""

from __future__ import annotations

import contextlib

from ...errors import BasicUnsupportedError, at
from ...ir import kernel as ir
from ...ir.cuda_plan import CudaKernelPlan
from .cuda_launch_shape import arrays_needing_sync, choose_threads
from .cuda_locals import plan_locals, unsupported
from .mma_strategy import accumulation_loops, plan_product
from .reduce_strategy import plan_reduce, reduces_into_local


def annotate(kernels: list[ir.Kernel]) -> None:
    for kernel in kernels:
        kernel.cuda = plan_kernel(kernel)


def plan_kernel(kernel: ir.Kernel) -> CudaKernelPlan:
    try:
        with at(kernel.origin.coord) if kernel.origin else contextlib.nullcontext():
            return _plan(kernel)
    except BasicUnsupportedError as error:
        return CudaKernelPlan(unsupported=error)


def _plan(kernel: ir.Kernel) -> CudaKernelPlan:
    _check_atomics(kernel)
    threads = choose_threads(kernel)
    nodes = list(ir.expressions(kernel.body))
    return CudaKernelPlan(
        threads=threads,
        locals=plan_locals(kernel),
        sync_after=arrays_needing_sync(kernel),
        products={e: plan_product(e, threads) for e in nodes if isinstance(e, ir.Mma)},
        accumulation_loops=accumulation_loops(kernel),
        reductions={e: plan_reduce(e, threads) for e in nodes if isinstance(e, ir.Reduce)},
        reduce_into_local={
            s for s in ir.statements(kernel.body) if isinstance(s, ir.Let) and reduces_into_local(s)
        },
    )


def _check_atomics(kernel: ir.Kernel) -> None:
    """CUDA's atomicAdd and atomicMax (b2t_atomic_max) take f32, f64 and i32 elements."""
    for s in ir.statements(kernel.body):
        dtype = kernel.param(s.array).dtype if isinstance(s, (ir.AtomicAdd, ir.AtomicMax)) else ""
        if dtype and dtype not in ("f32", "f64", "i32"):
            raise unsupported(f"atomic updates of {dtype} arrays have no CUDA translation here", s)
