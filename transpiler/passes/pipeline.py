"""The middle end: from the analysed program to the host program the back ends print.

Its stages, in order, and what each produces:

1. analysis          `passes.analyze`: AST -> `model.Analysis` (names, types, the flat
                     statement list, jumps, blocks, DATA).  Run by `driver.front_end`,
                     before the rest: the interpreter and kernel programs read it too.
2. structuring       `passes/host/structure.py`: Analysis -> `hostir.HostProgram`, the
                     structured host control flow (FOR, WHILE, IF blocks; a dispatch
                     loop for what jumps), with the facts the printers read.
3. offload planning  `passes/parallel/offload.py` walks the loops, outermost first; per loop
                     `matmul.try_matmul`, `dependence.plan_loop` or
                     `recurrence.plan_scan`, and the loop's distribution into parts:
                     a `dependence.LoopPlan` (lanes, reductions, privates) or
                     NotParallel, the reason it stays on the host (ir.LoopDecision).
4. vectorising       `passes/parallel/vectorize/`: LoopPlan -> `hostir.Launch` (an `ir.Kernel`
                     and the host's side: counts, checks, replay, finishing).
5. host lowering     `passes/host/transfers.py` (the `dev.to_host` calls before host code
                     that reads the kernels' arrays), `passes/host/host_facts.py` (the facts
                     the printers read, again: launches and replays read variables),
                     `passes/kernel/cuda_plan.py` (what the CUDA lowering of each kernel
                     decided: block size, locals, products, reductions),
                     `passes/quickbasic/procedure_functions.py` (QuickBASIC's SUBs and FUNCTIONs
                     as functions).

Stages 3 and 4 alternate loop by loop (a loop that stays on the host has its inner
loops tried next): `offload_loop` is that per-loop sequence.
"""

from __future__ import annotations

from functools import partial

from ..ir import hostir
from ..ir.model import Analysis
from .host import host_facts
from .host.structure import build_host_program
from .host.transfers import place_transfers
from .kernel import cuda_plan
from .parallel.dependence import LoopPlan, NotParallel
from .parallel.matmul import try_matmul
from .parallel.offload import Offloader, offload
from .parallel.vectorize import choose_tile, vectorize
from .quickbasic.procedure_functions import make_functions

Tile = tuple[int, ...] | None  # --tile: every kernel's tile shape (None: each its own)

# The stages, in order: (name, what runs it, what it produces).
STAGES = (
    ("analysis", "passes.analyze", "model.Analysis"),
    ("structuring", "passes.host.structure.build_host_program", "hostir.HostProgram"),
    ("offload planning", "passes.parallel.offload", "dependence.LoopPlan per loop, or a decision"),
    ("vectorising", "passes.parallel.vectorize.vectorize", "hostir.Launch per plan"),
    (
        "host lowering",
        "transfers, host_facts, cuda_plan, procedure_functions",
        "the printed host program",
    ),
)


def host_program(
    analysis: Analysis, tile: Tile = None, offload_loops: bool = True
) -> hostir.HostProgram:
    """Stages 2 to 5 (`offload_loops` False: every loop stays on the host)."""
    host = build_host_program(analysis)  # 2. structuring
    if offload_loops:
        offload(host, partial(offload_loop, tile=tile))  # 3. planning, 4. vectorising
        place_transfers(host)  # 5. host lowering: dev.to_host before host code,
        host_facts.annotate(host)  # the printers' facts (launches read variables too),
        cuda_plan.annotate(host.kernels)  # the CUDA lowering's decisions,
    make_functions(host)  # SUBs and FUNCTIONs as functions
    return host


def offload_loop(
    offloader: Offloader, loop: hostir.ForLoop, live_after: set, tile: Tile
) -> hostir.Launch | hostir.Distributed:
    """One loop: the matrix product kernel of an I/J/K nest, else its plan (parallel or
    a scan), vectorised whole or, where it distributes, part by part.  Raises NotParallel with the reason it stays on the host."""
    launch = try_matmul(
        loop, offloader.analysis, live_after, offloader.kernel_name("mma", loop.stmt)
    )
    if launch is not None:
        return launch
    plan = offloader.plan(loop, live_after)
    parts = offloader.distribution(loop, plan, live_after)
    if parts is not None:
        distributed = _distributed(offloader, loop, parts, tile)
        if distributed is not None:
            return distributed
    return _vectorised(offloader, plan, loop, tile)


def _vectorised(
    offloader: Offloader, plan: LoopPlan, loop: hostir.ForLoop, tile: Tile
) -> hostir.Launch:
    shape = choose_tile(plan, offloader.analysis.number_type, tile)
    name = offloader.kernel_name(plan.kind, loop.stmt)
    return vectorize(plan, offloader.analysis, name, shape)


def _distributed(
    offloader: Offloader, loop: hostir.ForLoop, parts: list[LoopPlan], tile: Tile
) -> hostir.Distributed | None:
    """A kernel per part, or None when a part cannot be vectorised (then the loop is
    vectorised whole)."""
    try:
        launches = [_vectorised(offloader, part, loop, tile) for part in parts]
    except NotParallel:
        return None
    restore = sorted({name for launch in launches for name in launch.writes})
    return hostir.Distributed(launches, loop, restore, origin=loop.origin)
