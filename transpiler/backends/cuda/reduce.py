"""Reduce nodes as block-wide reductions (how each is computed was decided by
passes/kernel/reduce_strategy.py: `lw.plan.reductions`).

A whole-tile reduction: each thread combines its own elements, then `b2t_block_<op>`
combines the threads (warp shuffles, then the warps' results in order) and hands every
thread the same value; MAX over booleans is `b2t_block_any`, one shared flag between
barriers, which costs less than the shuffles.

An axis reduction: each of the G threads sharing an output combines every G-th element
along the axis, then a shuffle combines the G partial results.  The outputs go to a
shared-memory array that any thread can read, with a barrier after it.

Like cuTile: float max/min ignore NaN (fmax) and start from -inf/+inf.
"""

from __future__ import annotations

import math
from dataclasses import astuple

from ...ir import kernel as ir
from ...ir.cuda_plan import AxisGroups
from . import element_types as T
from .index import Index, coords_of, linear_of


def identity(op: str, dtype: ir.DType) -> str:
    """The start value of a reduction or scan (what it gives for no elements)."""
    if dtype in T.INTEGERS:
        top = 2 ** (63 if dtype == "i64" else 31)
        return T.literal({"sum": 0, "prod": 1, "max": -top, "min": top - 1}[op], dtype)
    return T.literal({"sum": 0, "prod": 1, "max": -math.inf, "min": math.inf}[op], dtype)


def combine(op: str, total: str, value: str) -> str:
    """The statement adding `value` into `total`."""
    if op == "sum":
        return f"{total} += {value};"
    if op == "prod":
        return f"{total} *= {value};"
    return f"{total} = {op}({total}, {value});"


def lower(lw, e: ir.Reduce) -> None:
    operand = e.operand
    plan = lw.plan.reductions[e]
    acc = plan.accumulator
    if plan.how == "scalar":
        v = lw.new_temp(e, f"{_operand_word(lw, operand)}_{e.op}", "scalar", acc)
        lw.scalar_statement(
            lambda: [f"const {T.c_type(acc)} {v.name} = {lw.printer.at(operand, None, acc)};"]
        )
    elif plan.how == "axis":
        _along_axis(lw, e, acc, plan.axis)
    else:
        _whole_tile(lw, e, acc)


def _operand_word(lw, operand: ir.KExpr) -> str:
    """`s_acc` for SUM(S_ACC): temporaries are named after what they reduce."""
    while isinstance(operand, (ir.Cast, ir.Reshape, ir.Broadcast)):
        operand = operand.operand
    if isinstance(operand, ir.Local):
        return lw.local(operand.name).name
    return "block"


def into_local(lw, e: ir.Reduce, local, declare: bool) -> None:
    """`LET S = SUM(T)`: reduce straight into the scalar local."""
    lw.hoist(e.operand)
    _whole_tile(lw, e, local.dtype, local, declare)


def _whole_tile(lw, e: ir.Reduce, acc: ir.DType, local=None, declare: bool = True) -> None:
    operand = e.operand
    word = _operand_word(lw, operand)
    any_of_booleans = lw.plan.reductions[e].how == "any"
    if local is None:  # with keepdims too: one value for every element
        # MAX of flags is whether any is set: in the block (block_exceptions), in a thread
        v = lw.new_temp(e, f"block_{word}" if any_of_booleans else f"{word}_{e.op}", "scalar", acc)
    else:
        v = local
    decl = f"{T.c_type(acc)} " if declare else ""
    if any_of_booleans:
        flags = operand.operand
        mine = lw.fresh(f"thread_{word}")  # this thread's elements
        lw.emit(f"bool {mine} = false;")
        lw.element_loop(
            flags.type.shape,
            lambda index: [f"{mine} = {mine} || {lw.printer.at(flags, index)};"],
        )
        lw.use_helper("b2t_block_any")
        lw.emit(f"{decl}{v.name} = b2t_block_any({mine}) ? 1 : 0;")
        lw.barrier_done()
        return
    lw.emit(f"{decl}{v.name} = {identity(e.op, acc)};")
    lw.element_loop(
        operand.type.shape,
        lambda index: [combine(e.op, v.name, lw.printer.at(operand, index, acc))],
    )
    lw.use_block_reduction(e.op, acc)
    lw.emit(f"{v.name} = b2t_block_{e.op}({v.name});")
    lw.barrier_done()


def _along_axis(lw, e: ir.Reduce, acc: ir.DType, groups: AxisGroups) -> None:
    operand, axis = e.operand, e.axis
    shape = operand.type.shape
    length = shape[axis]
    group, outputs, per_round, rounds = astuple(groups)
    word = {0: "col_", 1: "row_"}.get(axis, "") if len(shape) == 2 else ""
    buffer = lw.shared_buffer(f"{word}{e.op}", acc, outputs)
    v = lw.new_temp(e, buffer, "shared", acc, fresh=False)
    lw.before_write()
    round_ = lw.fresh("round") if rounds > 1 else None
    out = lw.fresh("out")
    pos = lw.fresh("pos")
    partial = lw.fresh("partial")
    coords = _coords(shape, axis, out, pos)
    index = Index(shape, linear_of(coords, shape), coords, own=False)
    stmt = lw.printer.begin()
    value = lw.printer.at(operand, index, acc)
    lw.stage(stmt.staged)
    guard = outputs % per_round != 0
    if rounds > 1:
        lw.emit("#pragma unroll")
        lw.emit(f"for (int {round_} = 0; {round_} < {rounds}; ++{round_}) {{")
    else:
        lw.emit("{")
    first = f"threadIdx.x / {group}" if group > 1 else "threadIdx.x"
    lw.emit(f"const int {out} = {first}{f' + {per_round} * {round_}' if rounds > 1 else ''};")
    lw.emit(f"{T.c_type(acc)} {partial} = {identity(e.op, acc)};")
    start = f"threadIdx.x % {group}" if group > 1 else "0"
    step = f"{pos} += {group}" if group > 1 else f"++{pos}"
    if guard:
        lw.emit(f"if ({out} < {outputs}) {{")
    lw.emit(f"for (int {pos} = {start}; {pos} < {length}; {step}) {{")
    for line in stmt.preludes:
        lw.emit(line)
    lw.emit(combine(e.op, partial, value))
    lw.emit("}")
    if guard:
        lw.emit("}")
    if group > 1:
        lw.emit(f"for (int offset = {group // 2}; offset > 0; offset /= 2) {{")
        lw.emit(combine(e.op, partial, f"__shfl_xor_sync(0xffffffffu, {partial}, offset)"))
        lw.emit("}")
    condition = [f"threadIdx.x % {group} == 0"] if group > 1 else []
    if guard:
        condition.append(f"{out} < {outputs}")
    write = f"{v.name}[{out}] = {partial};"
    lw.emit(f"if ({' && '.join(condition)}) {write}" if condition else write)
    lw.emit("}")
    lw.read_shared()
    lw.barrier()


def _coords(shape: tuple[int, ...], axis: int, out: str, pos: str) -> list[str]:
    """Coordinates of element `pos` along `axis` of the row `out` of the other axes."""
    outer, inner = shape[:axis], shape[axis + 1 :]
    inner_size = math.prod(inner)
    outer_index = f"{out} / {inner_size}" if inner_size > 1 and outer else out
    inner_index = f"{out} % {inner_size}" if outer else out
    coords = coords_of(outer_index, outer) if outer else []
    coords.append(pos)
    coords += coords_of(inner_index, inner) if inner else []
    return coords
