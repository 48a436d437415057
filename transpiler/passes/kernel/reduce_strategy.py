"""How the CUDA lowering computes each reduction (Reduce nodes).

- A scalar operand is its own reduction.
- A whole-tile reduction (axis None, or of a 1-D tile) is a block-wide reduction to a
  scalar; MAX of booleans converted to int32 (is one true: the kernels' "did any lane
  meet an exception") is one block-wide OR instead.
- An axis reduction (softmax's MAX(T, 1)) gives one value per row (or column): G threads
  (a power of two up to 32, so they are lanes of one warp) share each output, as many
  as the block's threads allow, in as many rounds as the outputs need.
- `LET S = SUM(T)` of a whole tile reduces straight into S when S has the accumulator's
  type and T does not read S.

Like cuTile: booleans are reduced as int32, half-precision values are combined in float.
"""

from __future__ import annotations

import math

from ...ir import kernel as ir
from ...ir.cuda_plan import AxisGroups, ReducePlan


def accumulator_type(dtype: ir.DType) -> ir.DType:
    return "i32" if dtype == "bool" else "f32" if dtype in ("f16", "bf16") else dtype


def plan_reduce(e: ir.Reduce, threads: int) -> ReducePlan:
    shape = e.operand.type.shape
    acc = accumulator_type(e.operand.type.dtype)
    if not shape:
        return ReducePlan("scalar", acc)
    if e.axis is None or len(shape) == 1:
        return ReducePlan("any" if _any_of_booleans(e) else "block", acc)
    return ReducePlan("axis", acc, _axis_groups(shape, e.axis, threads))


def _any_of_booleans(e: ir.Reduce) -> bool:
    operand = e.operand
    return (
        e.op == "max"
        and isinstance(operand, ir.Cast)
        and operand.operand.type.dtype == "bool"
        and operand.type.dtype == "i32"
    )


def _axis_groups(shape: tuple[int, ...], axis: int, threads: int) -> AxisGroups:
    length = shape[axis]
    outputs = math.prod(shape) // length
    group = 1
    while group * 2 <= min(32, length) and group * 2 * outputs <= threads:
        group *= 2
    per_round = threads // group
    return AxisGroups(group, outputs, per_round, -(-outputs // per_round))


def reduces_into_local(let: ir.Let) -> bool:
    e = let.value
    if not isinstance(e, ir.Reduce) or let.value.type.shape or e.axis is not None:
        return False
    operand = e.operand
    if not operand.type.shape or accumulator_type(operand.type.dtype) != e.type.dtype:
        return False
    return not any(isinstance(n, ir.Local) and n.name == let.name for n in ir.walk(operand))
