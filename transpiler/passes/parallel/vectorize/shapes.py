"""The tile shape of a loop's lane space and the number type of its kernel."""

from __future__ import annotations

import math

from ....ir import ast, hostir
from ....ir import kernel as ir
from ....ir.model import Analysis
from ....ir.naming import generated_name
from ..dependence import LoopPlan


def choose_tile(
    plan: LoopPlan, dtype: ir.DType, override: tuple[int, ...] | None
) -> tuple[int, ...]:
    """Tile shape of the lane space: big 1-D tiles for cheap bodies, smaller ones when
    lanes loop (more blocks keep the GPU busy), squarish 2-D tiles for nests."""
    rank = len(plan.dims)
    if override:
        if len(override) == rank:
            return override
        if len(override) < rank:
            # The same number of lanes, spread over the axes (the last ones get more).
            bits = int(math.log2(math.prod(override)))
            return tuple(1 << (bits * (a + 1) // rank - bits * a // rank) for a in range(rank))
    if rank == 3:
        return (4, 8, 8) if plan.kind == "iterate" or _has_inner_for(plan) else (8, 8, 16)
    if rank == 2:
        return (16, 16) if plan.kind == "iterate" or _has_inner_for(plan) else (32, 32)
    if plan.kind == "iterate" or _has_inner_for(plan):
        return (128,)
    return (1024,) if dtype != "f64" else (512,)


def _has_inner_for(plan: LoopPlan) -> bool:
    return any(isinstance(n, hostir.ForLoop) for n in hostir.walk(plan.body))


def tile_size_names(axes: list[str], tile: tuple[int, ...]) -> list[tuple[str, int]]:
    """The generated name of the constant parameter giving each distinct tile size, with
    the size: `tile` when every axis has the same size, else `tile_<loop variables of the
    axes of that size>` (so a printed shape names its axes; the printers find a
    dimension's parameter by its value)."""
    if len(set(tile)) == 1:
        return [(generated_name("tile"), tile[0])]
    return [
        (generated_name("tile", *(a for a, t in zip(axes, tile) if t == size)), size)
        for size in dict.fromkeys(tile)
    ]


def kernel_number_type(plan: LoopPlan, analysis: Analysis) -> ir.DType:
    """The kernel's number type: the program's, except that a Microsoft BASIC loop of a
    single-precision program whose values are all doubles and integers (a DEFDBL
    program's) computes in f64, as the host does; one single among them keeps f32 (and
    its doubles then keep the loop on the host)."""
    number_type = analysis.number_type
    if number_type != "f32" or not analysis.options.microsoft:
        return number_type
    types: set = set()
    parts = list(_loop_parts(plan, analysis))
    seen: set[str] = set()
    while parts:
        for node in parts.pop().walk():
            if not isinstance(node, ast.Expr) or _widens_exactly(node, analysis):
                continue
            types.add(analysis.expr_types.get(node))
            function = analysis.functions.get(node.name) if isinstance(node, ast.Call) else None
            if function is not None and function.name not in seen:
                seen.add(function.name)  # a DEF FN's body is computed in the loop too
                parts.append(function.body)
    return "f64" if "dbl" in types and "num" not in types else number_type


# GW-BASIC's integers are 16-bit, so a sum of them stays below 2**24 (exact in a single)
# through this many nested + and -.
_EXACT_SUM_DEPTH = 7


def _widens_exactly(node: ast.Expr, analysis: Analysis, depth: int = 0) -> bool:
    """Is `node` a single whose value f64 computes exactly alike: a single constant (the
    float32 value GW-BASIC makes of its digits widens exactly), or an integer's
    negation, sum or difference (GW-BASIC makes them singles: `N% - 1`, `I% + J%`),
    which are whole numbers far below 2**24?  Such singles do not make a DEFDBL loop
    compute in f32."""
    kind = analysis.expr_types.get(node)
    if kind == "int":
        return True
    if kind != "num" or depth > _EXACT_SUM_DEPTH:
        return False
    if isinstance(node, ast.Num):
        return depth == 0  # a constant inside a sum would make it a fraction
    if isinstance(node, ast.UnaryOp) and node.op == "-":
        return _integral(node.operand, analysis, depth + 1)
    if isinstance(node, ast.BinOp) and node.op in ("+", "-"):
        return _integral(node.left, analysis, depth + 1) and _integral(
            node.right, analysis, depth + 1
        )
    return False


def _integral(node: ast.Expr, analysis: Analysis, depth: int) -> bool:
    """An integer, or an integer sum (`_widens_exactly`) inside one."""
    if analysis.expr_types.get(node) == "int":
        return True
    return not isinstance(node, ast.Num) and _widens_exactly(node, analysis, depth)


def _loop_parts(plan: LoopPlan, analysis: Analysis):
    """The statements and expressions of the loop: its text, and the lane body (with the
    subroutines its GOSUBs inlined)."""
    loop = plan.loop
    yield from analysis.stmts[loop.for_index : loop.next_index + 1]
    for node in hostir.walk(plan.body):
        if isinstance(node, hostir.Simple):
            yield node.stmt
        elif isinstance(node, hostir.ForLoop):
            yield node.stmt
        elif isinstance(node, hostir.WhileLoop) and node.condition is not None:
            yield node.condition
        elif isinstance(node, hostir.If):
            yield from (condition for condition, _ in node.arms)
