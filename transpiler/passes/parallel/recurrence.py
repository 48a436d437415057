"""Scans: loops that are not parallel only because each iteration reads the value the
previous one wrote.

`P(I) = P(I - 1) + X(I)` (running sums), `P(I) = A * P(I - 1) + X(I)` (a first-order
linear recurrence; A may differ between iterations) and `P(I) = P(I - 1) * X(I)`
(running products) are scans: element k combines the terms of iterations 0..k with an
associative operation.  So is a running value kept in a scalar, `S = S + X(I)`, that
the statements after it read (`P(I) = S`) and none before it: each lane gets its
iteration's S, and the host S's last value.  A tile of iterations is combined in a
logarithmic number of steps (`ct.cumsum`, `ct.cumprod`, `ct.scan`; a block scan in
CUDA), and one block walks the tiles in order, each starting from the element the tile
before it stored, or the scalar's value it left (the vectorizer's "scan" kernels).

Like a reduction, a scan adds in another order than BASIC: running sums of
floating-point numbers may differ in their last bits (docs/what-becomes-a-kernel.md).
Integer arrays and variables do not qualify (they round every value they store).  The
rest of the loop must be parallel as it stands: the dependence checks run with the
recurrence's read of the previous value left out (`dependence._plan`'s `ignored` and
`carried`).
"""

from __future__ import annotations

from ...ir import ast, hostir
from ...ir.model import Analysis
from ..exprutil import affine
from .dependence import (
    LaneDim,
    LoopPlan,
    NotParallel,
    Recurrence,
    _is_rem,
    _lane_space,
    _plan,
)


def plan_scan(
    loop: hostir.ForLoop,
    analysis: Analysis,
    live_after: frozenset[str],
    subroutines: dict[str, hostir.Subroutine],
    integral: frozenset[str] = frozenset(),
) -> LoopPlan | None:
    """The plan of `loop` as a scan, or None when it is not one.  The loop body is
    straight-line assignments, one of which is the recurrence."""
    try:
        dims, body = _lane_space(loop, analysis, integral, 1, live_after)
    except NotParallel:
        return None
    nodes = [n for n in body if not _is_rem(n)]
    if not nodes or not all(
        isinstance(n, hostir.Simple) and isinstance(n.stmt, ast.Let) for n in nodes
    ):
        return None
    found = [r for r in (_recurrence(n, dims[0], analysis) for n in nodes) if r is not None]
    if len(found) != 1:
        return None
    recurrence = found[0]
    carried = {}
    if recurrence.scalar:
        if not _scalar_scan(recurrence, nodes, dims[0]):
            return None
        carried = {id(recurrence.node): recurrence.name}
    try:
        plan = _plan(
            loop,
            analysis,
            live_after,
            subroutines,
            dims,
            body,
            ignored=frozenset({id(recurrence.previous)}),
            carried=carried,
        )
    except NotParallel:
        return None
    if plan.reductions or plan.histograms or plan.sliced:
        return None
    if not recurrence.scalar and recurrence.name not in plan.written:
        return None
    plan.kind = "scan"
    plan.recurrence = recurrence
    return plan


def _scalar_scan(r: Recurrence, nodes: list[hostir.HNode], dim: LaneDim) -> bool:
    """A scalar's running value: set only by its recurrence, read only after it in the
    iteration (a read before would be the previous iteration's value)."""
    if r.name == dim.var:
        return False
    after = False
    for node in nodes:
        if node is r.node:
            after = True
            continue
        stmt = node.stmt
        if isinstance(stmt.target, ast.Var) and stmt.target.name == r.name:
            return False
        reads = any(isinstance(n, ast.Var) and n.name == r.name for n in stmt.walk())
        if reads and not after:
            return False
    return True


def _recurrence(node: hostir.Simple, dim: LaneDim, analysis: Analysis) -> Recurrence | None:
    stmt = node.stmt
    target = stmt.target
    if not isinstance(target, (ast.Index, ast.Var)) or target.name.endswith(("$", "%")):
        return None
    if analysis.expr_types.get(target) == "int":
        return None
    name = target.name
    terms: list[tuple[int, ast.Expr]] = []
    _flatten(stmt.value, 1, terms)
    carried = [(sign, t) for sign, t in terms if _mentions(t, name)]
    rest = [(sign, t) for sign, t in terms if not _mentions(t, name)]
    if len(carried) != 1 or carried[0][0] != 1:
        return None
    term = carried[0][1]
    factor = None
    previous = term
    if isinstance(term, ast.BinOp) and term.op == "*":
        if _mentions(term.right, name):
            previous, factor = term.right, term.left
        else:
            previous, factor = term.left, term.right
        if _mentions(factor, name):
            return None
    if isinstance(target, ast.Var):
        if not (isinstance(previous, ast.Var) and previous.name == name):
            return None
    elif not isinstance(previous, ast.Index) or not _one_back(previous, target, dim):
        return None
    if factor is None:
        op = "sum" if rest else ""
    else:
        op = "linear" if rest else "prod"
    if not op:
        return None  # P(I) = P(I - 1): a copy, not a scan
    return Recurrence(name, op, node, previous, factor, rest)


def _flatten(e: ast.Expr, sign: int, out: list[tuple[int, ast.Expr]]) -> None:
    """The terms of a sum, each with its sign: A - (B - C) is +A, -B, +C."""
    if isinstance(e, ast.BinOp) and e.op in ("+", "-"):
        _flatten(e.left, sign, out)
        _flatten(e.right, sign if e.op == "+" else -sign, out)
    else:
        out.append((sign, e))


def _mentions(e: ast.Node, name: str) -> bool:
    """Whether `e` reads the array or scalar `name` (BASIC keeps them apart: A and A())."""
    return any(isinstance(n, (ast.Index, ast.Var)) and n.name == name for n in e.walk())


def _one_back(previous: ast.Index, target: ast.Index, dim: LaneDim) -> bool:
    """`previous` is the element `target` was one iteration earlier (P(I - 1) for
    P(I) in FOR I ... STEP 1, P(I + 2) for STEP -2)."""
    if previous.name != target.name or len(previous.indices) != len(target.indices):
        return False
    lane = {dim.var}
    moved = False
    for before, now in zip(previous.indices, target.indices):
        symbols = {n.name for n in (*before.walk(), *now.walk()) if isinstance(n, ast.Var)}
        f, g = affine(before, lane, symbols - lane), affine(now, lane, symbols - lane)
        if f is None or g is None or f.coeffs != g.coeffs or sorted(f.symbols) != sorted(g.symbols):
            return False
        shift = g.coeff(dim.var) * dim.step
        if f.const == g.const - shift and shift:
            moved = True
        elif f.const != g.const:
            return False
    return moved
