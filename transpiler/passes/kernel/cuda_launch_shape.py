"""How a CUDA block runs a kernel: how many threads, and where threads must wait.

- Block size: one thread per element of the largest tile the kernel computes on (e.g.
  a 256-element map), at most 256 (two or more elements per thread beyond), at least one
  warp; thread t holds elements t, t + threads, ... of every tile value.
- Barriers after writes: an array written and read in one kernel where a thread may
  read an element another thread wrote (gathers, scatters, atomics, tiles of different
  shapes) gets a barrier after each write.  Tile loads and stores of one shape and view
  touch each element from the same thread and need none.
"""

from __future__ import annotations

import math

from ...ir import kernel as ir

MAX_THREADS = 256


def choose_threads(kernel: ir.Kernel) -> int:
    """Threads per block (32 to 256, a power of two)."""
    largest = max((node.type.size for node in ir.expressions(kernel.body)), default=1)
    largest = max(largest, math.prod(kernel.tile))
    threads = 1 << max(0, (largest - 1).bit_length())
    return max(32, min(MAX_THREADS, threads))


def arrays_needing_sync(kernel: ir.Kernel) -> set[str]:
    """The arrays whose writes a barrier follows."""
    accesses: dict[str, set] = {}
    writes: set[str] = set()
    reads: set[str] = set()
    for s in ir.statements(kernel.body):
        if isinstance(s, (ir.Store, ir.Scatter, ir.AtomicAdd, ir.AtomicMax)):
            writes.add(s.array)
            accesses.setdefault(s.array, set()).add(_access(s))
    for node in ir.expressions(kernel.body):
        if isinstance(node, (ir.Load, ir.Gather)):
            reads.add(node.array)
            accesses.setdefault(node.array, set()).add(_access(node))
    return {a for a in writes & reads if len(accesses[a]) > 1 or ("element",) in accesses[a]}


def _access(node) -> tuple:
    """How a statement or expression touches its array: a tile (of a shape, view and axis
    order) or single elements."""
    if isinstance(node, ir.Store):
        return ("tile", node.value.type.shape, _view_key(node.view), None)
    if isinstance(node, ir.Load):
        return ("tile", node.type.shape, _view_key(node.view), node.order)
    return ("element",)


def _view_key(view) -> tuple:
    """Views compare by structure (IR nodes have no value equality; their repr does)."""
    return tuple((v.axis, repr(v.start), repr(v.stop)) for v in view)
