"""What the CUDA lowering of one kernel decided before printing (`Kernel.cuda`).

The decisions are made by `passes/kernel/cuda_plan.py` (and the modules it calls:
`cuda_locals`, `cuda_launch_shape`, `mma_strategy`, `reduce_strategy`); the CUDA kernel
printer (`backends/cuda/kernels.py`) reads these dataclasses and only lays out text.
It names the kernel's own IR nodes (which compare and hash by identity).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import BasicUnsupportedError
from . import kernel as ir


@dataclass
class LocalsPlan:
    """A kernel's locals: their types, where C++ declares them, what can be recomputed."""

    types: dict[str, ir.TileType] = field(default_factory=dict)
    # the Let of each local that declares it (its first, at the kernel's top level)
    declared_at: set[ir.Let] = field(default_factory=set)
    # locals declared at the start of the kernel, in order of first binding
    declared_first: list[str] = field(default_factory=list)
    bound_once: set[str] = field(default_factory=set)
    # local -> the expression it can be recomputed from at any element
    index_values: dict[str, ir.KExpr] = field(default_factory=dict)
    loop_vars: set[str] = field(default_factory=set)
    # locals never negative: FOR variables counting up from a constant >= 0, and index
    # values computed from such values (no bound check needs `>= 0` of them)
    nonnegative: set[str] = field(default_factory=set)
    # loops whose stop reads a local the body assigns: the stop is
    # evaluated once, before the loop (as Python's range does)
    fixed_stops: set[ir.ForRange] = field(default_factory=set)


@dataclass(frozen=True)
class Fragment:
    """A tensor-core (WMMA) shape: m x n results, k per step, input and accumulator types."""

    m: int
    n: int
    k: int
    input: ir.DType
    acc: ir.DType


@dataclass(frozen=True)
class ProductPlan:
    """How one Mma node is computed: WMMA fragments (`fragment`) or a SIMT product."""

    fragment: Fragment | None
    align: int  # bytes the staged operands are aligned to (WMMA loads 32, vector loads 16)
    # WMMA: result tiles of the fragment's shape, the warps sharing them
    tiles: int = 0
    warps: int = 0
    # SIMT: every thread holds elements of one column, its rows `rows_apart` apart
    column_per_thread: bool = False
    rows_apart: int = 0
    vector: int = 1  # consecutive k of A read with one shared load (1: one at a time)


@dataclass(frozen=True)
class AxisGroups:
    """An axis reduction: `group` lanes of a warp share each of the `outputs` results,
    `per_round` results at a time, in `rounds` rounds."""

    group: int
    outputs: int
    per_round: int
    rounds: int


@dataclass(frozen=True)
class ReducePlan:
    """How one Reduce node is computed, in type `accumulator`: `how` is "scalar" (of a
    scalar operand), "any" (MAX of booleans: one block-wide OR), "block" (a block-wide
    reduction to a scalar) or "axis" (one result per row or column, `axis`)."""

    how: str
    accumulator: ir.DType
    axis: AxisGroups | None = None


@dataclass
class CudaKernelPlan:
    threads: int = 32  # per block
    locals: LocalsPlan = field(default_factory=LocalsPlan)
    # arrays another thread may read after a write: a barrier follows each write
    sync_after: set[str] = field(default_factory=set)
    products: dict[ir.Mma, ProductPlan] = field(default_factory=dict)
    # GEMM main loops whose accumulator stays in WMMA fragments
    accumulation_loops: set[ir.ForRange] = field(default_factory=set)
    reductions: dict[ir.Reduce, ReducePlan] = field(default_factory=dict)
    # each `LET S = SUM(T)` that reduces straight into its scalar local
    reduce_into_local: set[ir.Let] = field(default_factory=set)
    # why the kernel has no CUDA translation (raised when it is printed for CUDA)
    unsupported: BasicUnsupportedError | None = None
