"""Lower a parallel loop (`LoopPlan`) to a tile kernel: one lane per iteration.

A block handles one tile of the lane space (`I = start + k*step` for the tile's k).
The loop body runs for all lanes of the tile at once:
- values are tiles of the lane shape (loop-invariant scalars stay scalars);
- an IF whose condition differs between lanes does not branch: both sides are
  lowered under a lane mask, and assignments become `ct.where(mask, new, old)`;
- an inner loop whose trip count differs between lanes (a WHILE, or a loop formed
  with GOTO) runs while any lane is still looping, with a mask of the looping lanes;
  an inner FOR whose bounds are the same for every lane is an ordinary `range` loop,
  one whose start or limit differs runs as long as the longest lane's, masked per lane;
- `Y(I)` on an array the loop writes is a tile held in a local until the end of the
  kernel, where it is stored once; reads of arrays the loop does not write are tile
  loads through a slice of the array (lanes' own element at a constant offset: a
  contiguous, zero-padded, bounds-exact load) or gathers (any other subscript);
- reductions accumulate per lane and end as one partial result per block, which the
  host combines in block order; histograms use atomic adds.

BASIC's run-time exceptions stay exact (see `hostir.Replay`): a lane that meets one (a
subscript out of range, a division by zero, an overflow, a domain error), or an
infinity or NaN that could hide one, marks its block; a marked block stores nothing
and the host runs its iterations with BASIC's semantics, in order.  Subscripts the
kernel's tile loads and stores use are checked before the launch instead: when one is
out of range the loop runs on the host.

The lowering, by its parts (one mixin each, composed by `_Vectorizer` below):

    shapes       the tile shape of the lane space and the kernel's number type
    builder      the kernel's state and the primitives that add to it (KernelBuilder)
    launch       the prologue, the order of the parts (`run`), grid, summary, Replay
    statements   assignments, IFs, inner FORs and per-lane loops under lane masks
    expressions  operators and functions as tile values, DEF FN inlined
    arrays       lane tiles of written arrays, tile loads, gathers, scatters, subscripts
    reductions   sums, maxima/minima and histograms, and the epilogue storing them
    scans        running sums/products/recurrences, one block walking the tiles
    events       BASIC's exceptions: the lanes that meet one, the block left to the host
"""

from __future__ import annotations

from ....ir.hostir import Launch
from ....ir.model import Analysis
from ..dependence import LoopPlan
from .arrays import ArrayAccess
from .builder import DONE_FLAGS, KernelBuilder
from .events import ExceptionEvents
from .expressions import ExpressionLowering
from .launch import LaunchAssembly
from .reductions import ReductionLowering
from .scans import ScanLowering
from .shapes import choose_tile, tile_size_names
from .statements import StatementLowering

__all__ = ["DONE_FLAGS", "choose_tile", "tile_size_names", "vectorize"]


def vectorize(plan: LoopPlan, analysis: Analysis, name: str, tile: tuple[int, ...]) -> Launch:
    """The Launch that replaces `plan.loop` (raises NotParallel for what it cannot express)."""
    return _Vectorizer(plan, analysis, name, tile).run()


class _Vectorizer(
    LaunchAssembly,
    StatementLowering,
    ExpressionLowering,
    ArrayAccess,
    ReductionLowering,
    ScanLowering,
    ExceptionEvents,
    KernelBuilder,
):
    """The lowering of one parallel loop: each part is a mixin over the shared state of
    `KernelBuilder`; `LaunchAssembly.run` calls them in order."""
