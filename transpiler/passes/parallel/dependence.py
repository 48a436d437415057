"""Is a FOR loop (or a nest of them) parallel, and how?  The loop dependence pass.

Each iteration of an offloaded loop becomes one *lane* of a tile kernel.  That is
correct when no iteration needs another one's results, which this pass checks and
records in a `LoopPlan`, or refuses with a `NotParallel` reason that --explain shows
("loop-carried dependence: P(I) reads P(I - 1), line 50").

What it accepts, per variable of the loop body:
- the loop variable(s): a perfect (or nearly perfect) nest of FORs with constant
  integer steps becomes a 1-D, 2-D or 3-D lane space (the deepest that is parallel); a
  start is a constant integer below 2**30 or integer variables plus a constant (`FOR J =
  I + 1`: triangular nests); an inner FOR whose bounds are an outer lane variable plus
  a constant (`FOR J = 0 TO I`) is a triangle of lanes in their box; statements between
  the FORs are repeated per lane when they only set temporaries; `FOR K : FOR J` below
  the lanes (temporaries may be set between them) may become lanes J with K inside each
  (interchange);
- scalars written in the body: *private* (set before being read in every iteration and
  not read after the loop), or *reductions*: `S = S + e`, `S = S - e`, and
  `IF e > M THEN M = e : J = I` (max/min with the index of the first/last extreme);
  a product `S = S * e` stays on the host (where it overflows depends on the order);
- scalars only read: loop-invariant kernel parameters;
- arrays: read anywhere; written only at the lane's own element (`Y(I) = ...`, a row
  `C(I, J)` of a loop over J, `EY(0, J)`; read back there, or anywhere in the lane's own
  slice: `B(K, J)` in a loop over J that writes `B(I, J)`), read and written in place
  in the lane's own slice (a row `C(I, J)` written by an inner loop over J of a loop over
  I; `CV(I, J)` and `CV(J, I)` in a loop over J), or updated as a histogram
  (`H(B) = H(B) + 1`, atomics).
The body may contain IF, DEF FN calls, GOSUB to a subroutine that only sets
temporaries, inner FOR loops (bounds that vary per lane, `FOR J = 1 TO I`, are masked
in the kernel; the STEP may not vary), and inner loops that run a data-dependent
number of times (a WHILE or a GOTO loop: masked in the kernel).  PRINT, INPUT, READ,
RND, strings, STOP... keep the loop on the host.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...ir import ast, hostir
from ...ir.model import Analysis
from ...ir.statement_facts import facts_of
from ...language.builtins import BUILTINS, effect_of
from ..exprutil import Affine, affine, constant_value, same_expr
from ..host.liveness import expression_reads
from .exceptions import is_quiet
from .integrality import INTEGER_RANGE, constant_ranges, value_range
from .polyhedral import NestModel, every_row_runs
from .value_guards import guards_for

MAX_LANE_DIMS = 3
# A constant start of a lane loop is below this in magnitude (runtime.extended.loop_count
# keeps the lanes' values 32-bit from there).
_LARGEST_START = 2**30
_REVERSED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


class NotParallel(Exception):
    """The loop stays on the host; `reason` says why, `coord` where."""

    def __init__(
        self, reason: str, node: ast.Node | None = None, dependence: str = "", advice: str = ""
    ):
        super().__init__(reason)
        self.reason = reason
        self.coord = node.coord if node is not None else None
        # --explain's lines under the reason: the dependence named exactly (statement
        # pair, array, distance), and the change to the BASIC that removes it.
        self.dependence = dependence
        self.advice = advice


@dataclass(eq=False)
class LaneDim:
    var: str
    # A constant, or an integer-valued expression of enclosing loops' variables
    # (`FOR J = I + 1 TO N`: a triangular nest), evaluated before the launch.
    start: int | ast.Expr
    limit: ast.Expr
    step: int
    stmt: ast.For
    # A triangle of lanes (`FOR J = 0 TO I`, `FOR J = I + 1 TO N` inside lanes over I):
    # the lanes span the box from the smallest start to the largest limit (`limit` plus
    # `limit_offset`), and a lane is an iteration only where `first <= J <= last`, the
    # FOR's own bounds (None: that bound is the same for every lane).
    first: ast.Expr | None = None
    last: ast.Expr | None = None
    limit_offset: int = 0
    # A `%` variable whose last NEXT may overflow: the kernel runs only where the loop
    # count is at most this (checked before the launch; else the host runs the loop and
    # BASIC's Overflow comes where it does).  None: the bounds keep it in range.
    count_at_most: int | None = None

    @property
    def triangular(self) -> bool:
        return self.first is not None or self.last is not None


@dataclass(eq=False)
class Reduction:
    var: str
    op: str  # "sum" (S = S + e), "sub" (S = S - e), "prod" (kept on the host), "max", "min"
    value: ast.Expr  # e
    node: hostir.HNode  # the statement (or IF) that performs it
    strict: bool = True  # max/min: `>` keeps the first extreme, `>=` the last
    payload: list[tuple[str, ast.Expr]] = field(default_factory=list)


@dataclass(eq=False)
class Recurrence:
    """`P(f) = [a *] P(f') + e`, or `S = [a *] S + e` for a scalar S (`name`): each
    iteration combines the value the previous one wrote (`previous`: P(f') where f' is f
    one iteration earlier, or S) with terms of its own: op "sum" (running sums: e, the
    `terms`, each with its sign), "prod" (running products: the `factor` a, no terms)
    or "linear" (a first-order linear recurrence: both).  See passes/recurrence.py."""

    name: str
    op: str
    node: hostir.Simple
    previous: ast.Index | ast.Var
    factor: ast.Expr | None
    terms: list[tuple[int, ast.Expr]]

    @property
    def scalar(self) -> bool:
        return isinstance(self.previous, ast.Var)


@dataclass(eq=False)
class LoopPlan:
    loop: hostir.ForLoop
    dims: list[LaneDim]
    body: list[hostir.HNode]  # the per-lane statements, normalised
    privates: set[str]
    invariants: set[str]
    reductions: list[Reduction]
    written: dict[str, tuple[Affine, ...]]  # array -> the index every write uses
    histograms: set[str]
    kind: str
    # Arrays each lane reads and writes in place within its own slice (a row `C(I, J)`
    # written by an inner loop over J of a loop over I): see `_owned_axes`.
    sliced: set[str] = field(default_factory=set)
    # Loop interchange: the sequential FOR that ran between the last lane loop and the
    # one above it in the source (gemm's K in `FOR I : FOR K : FOR J`), now inside each
    # lane (the body starts with it).  None for a nest taken as written.
    inside: hostir.ForLoop | None = None
    # One part of a distributed loop (hostir.Distributed), set by the offload pass.
    part: bool = False
    # A scan (passes/parallel/recurrence.py): the statement whose value needs the element the
    # previous iteration wrote; the plan is otherwise a map.  None for a parallel loop.
    recurrence: Recurrence | None = None
    # Tests of values under which the lanes are independent (passes/parallel/value_guards.py:
    # Floyd-Warshall's `D(K, K) >= 0`); a block where one fails leaves the loop to the host.
    guards: list[ast.Expr] = field(default_factory=list)

    @property
    def lane_vars(self) -> set[str]:
        return {d.var for d in self.dims}

    def reduction_for(self, node: hostir.HNode) -> Reduction | None:
        for r in self.reductions:
            if r.node is node:
                return r
        return None


def plan_loop(
    loop: hostir.ForLoop,
    analysis: Analysis,
    live_after: frozenset[str],
    subroutines: dict[str, hostir.Subroutine],
    integral: frozenset[str] = frozenset(),
    atomics: bool = True,
) -> LoopPlan:
    """The LoopPlan for `loop`, or NotParallel.  `integral`: the variables of the
    enclosing host loops that hold an integer throughout `loop` (a start may use them).
    `atomics` False: no histogram plan (a part of a distributed loop, whose sums into
    `C(I, J)` over lanes (I, J, K) are lanes (I, J) with K inside each instead).
    The deepest nest that is parallel wins: a 3-D nest whose innermost loop carries a
    dependence is still a 2-D kernel with that loop inside (the deepest attempt's reason
    is the one reported)."""
    space = _lane_space(loop, analysis, integral, MAX_LANE_DIMS, live_after)
    spaces = []  # (dims, body, the FOR moved inside), the most lane loops first
    for depth in range(len(space[0]), 0, -1):
        if depth < len(space[0]):
            space = _lane_space(loop, analysis, integral, depth, live_after)
        spaces.append((*space, None))
        swapped = _interchanged(*space, analysis, integral, live_after)
        if swapped is not None:
            spaces.append(swapped)
    spaces.sort(key=lambda s: (-len(s[0]), s[2] is not None))
    first_refusal: NotParallel | None = None
    atomic: LoopPlan | None = None
    for dims, body, inside in spaces:
        if atomic is not None and inside is None:
            continue
        try:
            plan = _plan(
                loop, analysis, live_after, subroutines, dims, body, inside, integral=integral
            )
        except NotParallel as why:
            first_refusal = first_refusal or why
            continue
        if plan.kind != "histogram":
            return plan
        if not atomics:
            first_refusal = first_refusal or NotParallel(
                "a histogram (atomic adds) in a part of a distributed loop", loop.stmt
            )
            continue
        # `C(I,J) = C(I,J) + ...` over lanes (I, K, J) adds with atomics, in no fixed
        # order; an interchanged nest that holds each C(I,J) in its own lane adds in
        # BASIC's order, without atomics: preferred.
        atomic = atomic or plan
    if atomic is not None:
        return atomic
    assert first_refusal is not None
    raise first_refusal


def _interchanged(dims, body, analysis, integral, live_after):
    """`FOR K : FOR J : body` below the lane loops, where J could be a lane loop too
    if it were outside K (gemm's `FOR I : FOR K : FOR J : C(I,J) = C(I,J) + ...`): the
    lanes (dims + J) with K inside each lane, or None.  The dependence checks of the
    new lane body decide whether the J lanes are independent; here J's bounds must be
    the same in every iteration of K (not K's, not set in the loop, quiet) and K's
    must not read J (whose value the source's K loop saw was the one before the nest).
    J must not be used after the loop: its last value would depend on K running at all.
    K's body may set temporaries before FOR J (`FOR K : T = ALPHA * A(I, K) : FOR J`):
    each lane sets them again in each K, which gives J's body the values it saw, when
    the J loop does not change them and each is set before it is read; J must then be
    rectangular (every lane of a row runs them), and the host runs the loop as written
    when J runs zero times (`Replay.nonempty`)."""
    stmts = [n for n in body if not _is_rem(n)]
    if len(dims) >= MAX_LANE_DIMS or len(stmts) != 1 or not isinstance(stmts[0], hostir.ForLoop):
        return None
    k_loop = stmts[0]
    inner = [n for n in k_loop.body if not _is_rem(n)]
    if not inner or not isinstance(inner[-1], hostir.ForLoop):
        return None
    j_loop, before = inner[-1], inner[:-1]
    if not all(_is_scalar_let(n) for n in before) or _reads_before_set(before, analysis):
        return None
    set_before = _assigned_scalars(before)
    if set_before & _assigned_scalars(j_loop.body):
        return None
    k_var, j_var = k_loop.stmt.var.name, j_loop.stmt.var.name
    changed = _assigned_scalars(j_loop.body) | set_before | {k_var}
    j_dim = _inner_dim(j_loop, dims, integral, analysis, changed, live_after)
    if j_dim is None:
        return None
    if before and j_dim.triangular and not _every_row_runs(dims, j_loop, body, analysis, integral):
        return None
    j_bounds = set()
    for e in (j_loop.stmt.start, j_loop.stmt.limit, j_loop.stmt.step):
        if e is not None:
            j_bounds |= expression_reads(analysis, e)
    k_bounds = set()
    for e in (k_loop.stmt.start, k_loop.stmt.limit, k_loop.stmt.step):
        if e is not None:
            k_bounds |= expression_reads(analysis, e)
    # (The temporaries before FOR J saw J's value from before the J loop, not a lane's.)
    before_reads = {v for n in before for v in expression_reads(analysis, n.stmt.value)}
    if j_bounds & changed or j_var in k_bounds | before_reads or j_var in live_after:
        return None
    moved = replace(k_loop, body=before + list(j_loop.body))
    return [*dims, j_dim], [moved], k_loop


def _every_row_runs(dims, j_loop, body, analysis, integral) -> bool:
    """Whether the triangular J loop runs in every iteration of the lane loops `dims`
    (isl: `FOR J = 0 TO I` below `FOR I = 0 TO N - 1` does), so that in every row some
    lane sets the temporaries before it, which BASIC sets in every row (and which may
    warn).  Its bounds' scalars must hold integers and not change in the nest."""
    if any(isinstance(n, (hostir.Call, hostir.GosubJump)) for n in hostir.walk(body)):
        return False
    lanes = {d.var for d in dims}
    parameters = frozenset(integral - _assigned_scalars(body) - lanes)
    return every_row_runs([d.stmt for d in dims], j_loop.stmt, analysis, parameters)


def _plan(
    loop,
    analysis,
    live_after,
    subroutines,
    dims,
    body,
    inside=None,
    ignored=frozenset(),
    carried: dict[int, str] | None = None,
    integral: frozenset[str] | None = None,
) -> LoopPlan:
    """`ignored`: ids of array reads left out of the dependence checks (a recurrence's
    read of the previous iteration's element, which its scan supplies); `carried`: the
    scalar whose read in a statement (by id) is the previous iteration's value, which
    the scan supplies, and whose last value it gives the host after the loop.
    `integral`: the variables that hold integers throughout the loop; given, the exact
    analysis (passes/parallel/polyhedral.py) decides the arrays that the test of shapes refuses."""
    carried = carried or {}
    body = _normalise(body, subroutines)
    scan = _Scan(analysis, {d.var for d in dims}, ignored, _known_ranges(analysis, dims))
    scan.block(body)
    reductions = _find_reductions(body, scan, {d.var for d in dims})
    for r in reductions:
        if r.op == "prod":
            raise NotParallel(
                f"the product {r.var} overflows (and warns) in the order of the iterations",
                r.node.origin,
            )
    reduction_vars = {r.var for r in reductions} | {v for r in reductions for v, _ in r.payload}
    lane_vars = {d.var for d in dims}
    for var in sorted(scan.scalar_writes):
        if var in lane_vars:
            raise NotParallel(
                f"the loop changes its own control variable {var}", scan.first_write[var]
            )
    privates = (scan.scalar_writes | scan.inner_loop_vars) - reduction_vars
    exposed = upward_exposed(body, analysis, lane_vars, {r.node for r in reductions}, carried)
    for var in sorted(privates):
        if var in exposed:
            raise NotParallel(
                f"loop-carried dependence: {var} keeps its value from one iteration to the next",
                exposed[var],
                f"flow dependence on the scalar {var}: {_line(analysis, exposed[var])} reads "
                f"{var} before any line sets it in the iteration, so it reads the value "
                f"{_line(analysis, scan.first_write.get(var))} set in the iteration before",
                f"the scalar {var} is carried: if each iteration needs its own value, make it "
                f"an array element ({var}({', '.join(sorted(lane_vars))}) or similar), or set "
                f"{var} before it is read in every iteration",
            )
        if var in live_after and var not in carried.values():
            raise NotParallel(
                f"{var} is set in the loop and used after it (the last iteration's value would be lost)",
                scan.first_write.get(var),
                advice=f"keep the value each iteration gives {var} in an array element, or "
                f"compute {var} again after the loop",
            )
    for var in reduction_vars:
        if var.endswith(("$", "%")):
            raise NotParallel(f"{var} is not a floating-point variable", scan.first_write.get(var))
    invariants = scan.scalar_reads - privates - reduction_vars - lane_vars - scan.inner_loop_vars
    exact = None
    if integral is not None and inside is None and not ignored:
        # The lane loops' bounds are read once, before the loop; a variable the body
        # sets is no parameter (its value changes within the nest).
        bounds = {
            v
            for d in dims
            for e in (d.stmt.start, d.stmt.limit)
            for v in expression_reads(analysis, e)
        }
        parameters = frozenset(
            ((invariants | bounds) & integral)
            - scan.scalar_writes
            - scan.inner_loop_vars
            - lane_vars
        )
        exact = NestModel([d.stmt for d in dims], body, analysis, parameters)
    written, histograms, sliced, guards = _check_arrays(scan, lane_vars, invariants, dims, exact)
    for node in _in_inner_loops(body):
        target = node.stmt.target if isinstance(node, hostir.Simple) else None
        if isinstance(target, ast.Index) and target.name in histograms:
            # (The kernel's atomic adds come at its end, once per lane: a shallower nest
            # may still be a kernel, with this loop inside the lanes.)
            raise NotParallel("a histogram updated in an inner loop stays on the host", target)
    kind = _kind(dims, reductions, histograms, scan, written)
    if inside is not None and (reductions or histograms):
        raise NotParallel("a reduction inside an interchanged nest is kept as written", inside.stmt)
    return LoopPlan(
        loop,
        dims,
        body,
        privates,
        invariants,
        reductions,
        written,
        histograms,
        kind,
        sliced,
        inside,
        guards=guards,
    )


# --------------------------------------------------------------------------- lane space


def _line(analysis: Analysis, node: ast.Node | None) -> str:
    """ "line 130": the BASIC line number of the line `node` is on."""
    coord = getattr(node, "coord", None)
    for line in analysis.program.lines:
        if coord is not None and line.coord.line == coord.line:
            return f"line {line.number}"
    return f"source line {coord.line}" if coord is not None else "a line"


def _in_inner_loops(body: list[hostir.HNode]):
    """The nodes of `body` inside an inner FOR or WHILE."""
    for node in hostir.walk(body):
        if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
            yield from hostir.walk(node.body)


def _lane_space(
    loop: hostir.ForLoop,
    analysis: Analysis,
    integral: frozenset[str],
    max_dims: int,
    live_after: frozenset[str] = frozenset(),
) -> tuple[list[LaneDim], list[hostir.HNode]]:
    """The collapsed nest: up to `max_dims` rectangular FORs, and the lane body."""
    dims = [_lane_dim(loop, integral, _known_ranges(analysis))]
    prefix: list[hostir.HNode] = []
    body = loop.body
    while len(dims) < max_dims:
        stmts = [n for n in body if not _is_rem(n)]
        if not stmts or not isinstance(stmts[-1], hostir.ForLoop):
            break
        inner = stmts[-1]
        before = stmts[:-1]
        set_before = _assigned_scalars(before)
        # (An inner FOR's bounds may not read what the statements above it set.)
        set_above = _assigned_scalars(prefix) | set_before
        dim = _inner_dim(inner, dims, integral, analysis, set_above, live_after)
        if dim is None or not all(_is_scalar_let(n) for n in before):
            break
        if dim.triangular and before:
            break
        # Statements before the inner FOR run once per outer iteration; repeating them
        # per lane is only right if the inner body does not change what they set.
        if set_before & _assigned_scalars(inner.body):
            break
        # A statement that reads what it (or an earlier one) has not yet set in this
        # iteration, such as `T = T + F(I, I)`, accumulates; per lane it would run once
        # per inner iteration instead of once per outer one.
        if _reads_before_set(before, analysis):
            break
        dims.append(dim)
        prefix.extend(before)
        body = inner.body
    return dims, prefix + list(body)


def _inner_dim(inner, dims, integral, analysis, changed: set[str], live_after) -> LaneDim | None:
    """The lane dimension of FOR `inner` below the lane loops `dims`, or None.  Its
    bounds are the same for every lane (a constant or integer start; a limit that no
    statement of the nest changes), or form a triangle with one outer lane variable
    (`FOR J = 0 TO I`, `FOR J = I + 1 TO N`: V plus an integer, step 1, V counting up
    from a constant; J not used after the loop, whose last value would be a lane's).
    BASIC evaluates the bounds once per outer iteration, the host once before the
    launch: only where that cannot change what the program reports (quiet)."""
    stmt = inner.stmt
    outer = {d.var: d for d in dims}
    first = _triangle_side(stmt.start, outer)
    last = _triangle_side(stmt.limit, outer)
    if first is False or last is False:
        return None
    if first is None and last is None:
        try:
            # A start made of the outer lanes' variables would not be rectangular.
            dim = _lane_dim(inner, integral - set(outer), _known_ranges(analysis, dims))
        except NotParallel:
            return None
        if expression_reads(analysis, stmt.limit) & (set(outer) | changed):
            return None
        return dim if is_quiet(stmt.limit, analysis) else None
    step = 1.0 if stmt.step is None else constant_value(stmt.step)
    if step != 1 or stmt.var.name in live_after:
        return None
    if stmt.var.name.endswith("%"):
        try:
            _check_integer_range(stmt, 1, _known_ranges(analysis, dims))
        except NotParallel:
            return None
    start: int | ast.Expr
    if first is not None:
        var, offset = first
        if not isinstance(outer[var].start, int) or outer[var].step <= 0:
            return None
        start = outer[var].start + offset
    else:
        try:
            start = _lane_dim(inner, integral - set(outer), _known_ranges(analysis, dims)).start
        except NotParallel:
            return None
    if last is not None:
        var, offset = last
        if outer[var].step <= 0:
            return None
        limit, limit_offset = outer[var].limit, offset
    else:
        if expression_reads(analysis, stmt.limit) & (set(outer) | changed):
            return None
        limit, limit_offset = stmt.limit, 0
    if not all(is_quiet(e, analysis) for e in (stmt.start, stmt.limit)):
        return None
    return LaneDim(
        stmt.var.name,
        start,
        limit,
        1,
        stmt,
        first=stmt.start if first is not None else None,
        last=stmt.limit if last is not None else None,
        limit_offset=limit_offset,
    )


# The LONGs a kernel computes exactly: the integers of a single (2**24), well inside
# QuickBASIC's LONG range.
_EXACT_LONG_RANGE = (-(2.0**24), 2.0**24)

_CONSTANT_RANGES: dict[int, tuple[ast.Program, dict]] = {}


def _known_ranges(analysis: Analysis, dims: list[LaneDim] = ()) -> dict[str, tuple[float, float]]:
    """The values of `%` variables that only constants set, and of the lane variables
    `dims` with bounds made of those (for the overflow test of `%` loop variables)."""
    program = analysis.program
    cached = _CONSTANT_RANGES.get(id(program))
    if cached is None or cached[0] is not program:
        _CONSTANT_RANGES.clear()  # one program at a time: keep none alive
        cached = _CONSTANT_RANGES[id(program)] = (program, constant_ranges(program))
    out = dict(cached[1])
    for d in dims:
        start, limit = value_range(d.stmt.start, out), value_range(d.stmt.limit, out)
        if start is not None and limit is not None:
            out[d.var] = (min(start[0], limit[0]), max(start[1], limit[1]))
    return out


def _triangle_side(expr: ast.Expr, outer: dict[str, LaneDim]):
    """(V, c) for a bound `V + c` (V an outer lane variable, c an integer); None for a
    bound without outer lane variables; False for any other use of them."""
    names = {n.name for n in expr.walk() if isinstance(n, ast.Var)}
    if not names & set(outer):
        return None
    form = affine(expr, set(outer), set())
    if (
        form is None
        or len(form.coeffs) != 1
        or form.coeffs[0][1] != 1
        or form.symbols
        or form.const != int(form.const)
    ):
        return False
    return form.coeffs[0][0], int(form.const)


def _reads_before_set(lets: list[hostir.HNode], analysis: Analysis) -> bool:
    set_so_far: set[str] = set()
    assigned = _assigned_scalars(lets)
    for node in lets:
        reads = expression_reads(analysis, node.stmt.value) & assigned
        if reads - set_so_far:
            return True
        set_so_far.add(node.stmt.target.name)
    return False


def _lane_dim(
    loop: hostir.ForLoop,
    integral: frozenset[str],
    known: dict[str, tuple[float, float]] | None = None,
) -> LaneDim:
    """The lane dimension of `loop`, or NotParallel.  `known`: ranges of variables
    (integrality.constant_ranges) for the overflow test of a `%` loop variable."""
    stmt = loop.stmt
    start: int | ast.Expr | None = constant_value(stmt.start)
    if start is None and _integer_valued(stmt.start, integral):
        start = stmt.start
    elif start is None or start != int(start):
        raise NotParallel(
            "the loop's start is not provably an integer (a constant, or variables that "
            "only ever hold integers plus or minus constants): a kernel's lanes would not "
            "count as BASIC's repeated additions do",
            stmt.start,
        )
    elif abs(start) >= _LARGEST_START:
        raise NotParallel(
            "the loop's start is too large for a kernel's 32-bit lane numbers", stmt.start
        )
    else:
        start = int(start)
    step = 1.0 if stmt.step is None else constant_value(stmt.step)
    if step is None or step != int(step) or step == 0:
        raise NotParallel("the loop's STEP is not a constant nonzero integer", stmt.step or stmt)
    count_at_most = None
    if stmt.var.name.endswith("%"):
        try:
            _check_integer_range(stmt, int(step), dict(known or {}))
        except NotParallel:
            # A limit that surely overflows stays on the host; one that may (a `%`
            # variable READ or INPUT) gets a test of the count before the launch.
            count_at_most = None
            if not _surely_overflows(stmt.limit, int(step), dict(known or {})):
                count_at_most = _largest_count(start, int(step))
            if count_at_most is None:
                raise
    return LaneDim(stmt.var.name, start, stmt.limit, int(step), stmt, count_at_most=count_at_most)


def _surely_overflows(limit: ast.Expr, step: int, known: dict) -> bool:
    """Does the last NEXT overflow whatever value `limit` takes in its known range?"""
    low, high = INTEGER_RANGE
    bounds = value_range(limit, known)
    if bounds is None:
        return False
    return bounds[0] + step > high if step > 0 else bounds[1] + step < low


def _largest_count(start: int | ast.Expr, step: int) -> int | None:
    """The most iterations a `%` loop from the constant `start` may run before its last
    NEXT leaves -32768..32767 (that NEXT leaves start + count * step, start + step when
    the loop runs zero times), or None (a start that is not a constant, or one whose
    first NEXT already overflows)."""
    low, high = INTEGER_RANGE
    if not isinstance(start, int) or not low <= start + step <= high:
        return None
    room = high - start if step > 0 else start - low
    return int(room // abs(step))


def _check_integer_range(stmt: ast.For, step: int, known: dict[str, tuple[float, float]]) -> None:
    """A `%` loop variable may be a lane: its values are integers, as the lanes'.  But
    BASIC's last NEXT leaves limit + step in it (start + step for a loop that runs zero
    times), an Overflow beyond -32768..32767: only a loop whose bounds provably keep
    that in range is offloaded.  `known`: ranges of variables (`_known_ranges`)."""
    low, high = INTEGER_RANGE
    ranges = [value_range(stmt.start, known), value_range(stmt.limit, known)]
    if any(r is None for r in ranges):
        ok = False
    elif step > 0:
        ok = max(r[1] for r in ranges) + step <= high
    else:
        ok = min(r[0] for r in ranges) + step >= low
    if not ok:
        raise NotParallel(
            f"the integer variable {stmt.var.name} may overflow at the loop's last NEXT "
            f"(its bounds plus the STEP may leave -32768..32767): kept on the host, "
            f"where BASIC reports the Overflow",
            stmt.limit,
        )


def _integer_valued(expr: ast.Expr, integral: frozenset[str]) -> bool:
    """`I`, `I + 1`, `K - 2`, `I + J`: integer variables plus or minus integer constants
    (each lane's subscripts stay integers, and the start is the same for every lane)."""
    form = affine(expr, set(integral), set())
    return (
        form is not None
        and bool(form.coeffs)
        and all(c == 1 for _, c in form.coeffs)
        and form.const == int(form.const)
    )


def integral_loop_vars(enclosing: list[hostir.ForLoop]) -> frozenset[str]:
    """The control variables of `enclosing` FORs (outermost first) that hold integers
    in their bodies: a constant integer start and step, and a body that never sets the
    variable (nor calls a subroutine, reads data or jumps in a way that could)."""
    out: set[str] = set()
    for loop in enclosing:
        stmt = loop.stmt
        start = constant_value(stmt.start)
        step = 1.0 if stmt.step is None else constant_value(stmt.step)
        if start is None or step is None or start != int(start) or step != int(step):
            continue
        var = stmt.var.name
        if not var.endswith(("$", "%")) and not _may_set(loop.body, var):
            out.add(var)
    return frozenset(out)


def _may_set(nodes: list[hostir.HNode], var: str) -> bool:
    for node in hostir.walk(nodes):
        if isinstance(node, hostir.ForLoop):
            if node.stmt.var.name == var:
                return True
        elif isinstance(node, hostir.Simple):
            stmt = node.stmt
            if isinstance(stmt, ast.Let):
                if isinstance(stmt.target, ast.Var) and stmt.target.name == var:
                    return True
            elif not isinstance(stmt, (ast.Rem, ast.Print)) and any(
                isinstance(n, ast.Var) and n.name == var for n in stmt.walk()
            ):
                return True  # READ, INPUT, ...: conservatively a write
        elif not isinstance(node, (hostir.If, hostir.WhileLoop, hostir.Break, hostir.Continue)):
            return True  # GOSUB, dispatch, ...
    return False


def _is_rem(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)


def _is_scalar_let(node: hostir.HNode) -> bool:
    return (
        isinstance(node, hostir.Simple)
        and isinstance(node.stmt, ast.Let)
        and isinstance(node.stmt.target, ast.Var)
    )


def _assigned_scalars(nodes: list[hostir.HNode]) -> set[str]:
    out: set[str] = set()
    for node in hostir.walk(nodes):
        if (
            isinstance(node, hostir.Simple)
            and isinstance(node.stmt, ast.Let)
            and isinstance(node.stmt.target, ast.Var)
        ):
            out.add(node.stmt.target.name)
        elif isinstance(node, hostir.ForLoop):
            out.add(node.stmt.var.name)
    return out


# --------------------------------------------------------------------------- normalisation


def _normalise(
    body: list[hostir.HNode],
    subroutines: dict[str, hostir.Subroutine],
    inlining: frozenset[str] = frozenset(),
) -> list[hostir.HNode]:
    """Inline GOSUBs to structured subroutines (`inlining`: those being inlined, a
    recursive QuickBASIC procedure's); turn `IF c THEN <next iteration>` into an IF
    around the rest of the body."""
    out: list[hostir.HNode] = []
    for i, node in enumerate(body):
        if isinstance(node, hostir.Call):
            sub = subroutines.get(node.subroutine)
            if sub is None:
                raise NotParallel("GOSUB to code that is not a simple subroutine", node.origin)
            if sub.name in inlining:
                raise NotParallel("a recursive SUB or FUNCTION", node.origin)
            inner = list(sub.body)
            if inner and isinstance(inner[-1], hostir.Return):
                inner = inner[:-1]
            if any(isinstance(n, hostir.Return) for n in hostir.walk(inner)):
                raise NotParallel("the subroutine returns from several places", node.origin)
            out.extend(_normalise(inner, subroutines, inlining | {sub.name}))
            continue
        if isinstance(node, hostir.If) and _ends_with_continue(node):
            rest = _normalise(body[i + 1 :], subroutines, inlining)
            arms = [(cond, _with_rest(b, rest, subroutines, inlining)) for cond, b in node.arms]
            else_body = _with_rest(node.else_body or [], rest, subroutines, inlining)
            out.append(hostir.If(arms, else_body or None, origin=node.origin))
            return out
        if isinstance(node, hostir.If):
            node = hostir.If(
                [(c, _normalise(b, subroutines, inlining)) for c, b in node.arms],
                _normalise(node.else_body, subroutines, inlining) if node.else_body else None,
                origin=node.origin,
            )
        elif isinstance(node, hostir.Continue):
            return out  # the rest of this iteration is skipped
        out.append(node)
    return out


def _ends_with_continue(node: hostir.If) -> bool:
    bodies = [b for _, b in node.arms] + [node.else_body or []]
    return any(b and isinstance(b[-1], hostir.Continue) for b in bodies)


def _with_rest(body, rest, subroutines, inlining=frozenset()):
    if body and isinstance(body[-1], hostir.Continue):
        return _normalise(body[:-1], subroutines, inlining)
    return _normalise(list(body) + list(rest), subroutines, inlining)


# --------------------------------------------------------------------------- scanning


@dataclass(eq=False)
class _Access:
    array: str
    indices: list[ast.Expr]
    node: ast.Node
    write: bool
    stmt: ast.Stmt | None


class _Scan:
    """Collects what the lane body reads and writes; rejects host-only statements."""

    def __init__(
        self,
        analysis: Analysis,
        lane_vars: set[str],
        ignored=frozenset(),
        known: dict[str, tuple[float, float]] | None = None,
    ):
        self.analysis = analysis
        self.known = known or {}  # the ranges of variables (`_known_ranges`)
        self.lane_vars = lane_vars
        self.ignored = ignored
        self.scalar_reads: set[str] = set()
        self.scalar_writes: set[str] = set()
        self.inner_loop_vars: set[str] = set()
        self.first_write: dict[str, ast.Node] = {}
        self.accesses: list[_Access] = []
        self.has_inner_loop = False
        self.has_lane_loop = False

    def block(self, nodes: list[hostir.HNode]) -> None:
        for node in nodes:
            self.node(node)

    def node(self, node: hostir.HNode) -> None:
        if isinstance(node, hostir.Simple):
            self.simple(node.stmt)
        elif isinstance(node, hostir.If):
            for cond, body in node.arms:
                self.expr(cond, node.origin)
                self.block(body)
            if node.else_body:
                self.block(node.else_body)
        elif isinstance(node, hostir.ForLoop):
            self.has_inner_loop = True
            var = node.stmt.var.name
            self.inner_loop_vars.add(var)
            self.first_write.setdefault(var, node.stmt.var)
            for e in (node.stmt.start, node.stmt.limit, node.stmt.step):
                if e is not None:
                    self.expr(e, node.stmt)
            self.block(node.body)
        elif isinstance(node, hostir.WhileLoop):
            self.has_inner_loop = self.has_lane_loop = True
            if (
                getattr(node, "stmt", None) is not None
                and getattr(node.stmt, "condition", None) is not None
            ):
                self.expr(node.stmt.condition, node.stmt)
            self.block(node.body)
        elif isinstance(node, hostir.Break):
            pass  # only meaningful inside an inner loop; checked by the lowering
        elif isinstance(node, hostir.EndProgram):
            raise NotParallel("END/STOP inside the loop", node.origin)
        else:
            reason, origin = unexpressible(node)
            raise NotParallel(reason, origin)

    def simple(self, stmt: ast.Stmt) -> None:
        facts = facts_of(stmt)
        if not facts.lane:
            raise NotParallel(facts.host_reason, stmt)
        if isinstance(stmt, ast.Rem):
            return
        target = stmt.target
        self.expr(stmt.value, stmt)
        if isinstance(target, ast.Var):
            if target.name.endswith("$"):
                raise NotParallel("string variables stay on the host", target)
            if target.name.endswith("&"):
                raise NotParallel("LONG variables stay on the host", target)
            self.scalar_writes.add(target.name)
            self.first_write.setdefault(target.name, target)
        else:
            if target.name.endswith("$"):
                raise NotParallel("string arrays stay on the host", target)
            for index in target.indices:
                self.expr(index, stmt)
            self.accesses.append(_Access(target.name, target.indices, target, True, stmt))

    def expr(self, expr: ast.Expr, stmt: ast.Stmt | None) -> None:
        for node in expr.walk():
            if isinstance(node, ast.Bound):
                raise NotParallel("UBOUND stays on the host", node)
            if self.quickbasic_integer(node):
                raise NotParallel(
                    "QuickBASIC's INTEGER and LONG arithmetic that may overflow (its "
                    "operands' ranges are not known to keep it in range) stays on the host, "
                    "where BASIC reports the Overflow",
                    node,
                )
            if isinstance(node, ast.Var):
                self.scalar_reads.add(node.name)
                if node.name.endswith("$"):
                    raise NotParallel("string variables stay on the host", node)
                if node.name.endswith("&"):
                    raise NotParallel("LONG variables stay on the host", node)
            elif isinstance(node, ast.Str):
                raise NotParallel("strings stay on the host", node)
            elif isinstance(node, ast.Index):
                if node.name.endswith("$"):
                    raise NotParallel("string arrays stay on the host", node)
                if id(node) not in self.ignored:
                    self.accesses.append(_Access(node.name, node.indices, node, False, stmt))
            elif isinstance(node, ast.Call):
                self.call(node, stmt)

    def quickbasic_integer(self, node: ast.Node) -> bool:
        """+ - * or unary minus of QuickBASIC's INTEGERs or LONGs that may overflow (an
        Overflow, reported on the host): one whose value range (integrality.value_range
        of the variables' known ranges) does not provably stay within its type's."""
        if not self.analysis.options.qbasic:
            return False
        arithmetic = (isinstance(node, ast.BinOp) and node.op in ("+", "-", "*")) or (
            isinstance(node, ast.UnaryOp) and node.op == "-"
        )
        value_type = self.analysis.expr_types.get(node)
        if not arithmetic or value_type not in ("int", "lng"):
            return False
        low, high = INTEGER_RANGE if value_type == "int" else _EXACT_LONG_RANGE
        bounds = value_range(node, self.known)
        return bounds is None or bounds[0] < low or bounds[1] > high

    def call(self, call: ast.Call, stmt) -> None:
        builtin = BUILTINS.get(call.name)
        if builtin is not None and "str" in (
            builtin.result,
            *(t for f in builtin.forms for t in f),
        ):
            raise NotParallel(f"the string function {call.name} stays on the host", call)
        if effect_of(call.name) == "random":
            raise NotParallel(f"{call.name} inside the loop: its sequence is sequential", call)
        fn = self.analysis.functions.get(call.name)
        if fn is None:
            return
        if fn.result_type == "str":
            raise NotParallel("string functions stay on the host", call)
        params = set(fn.params)
        for node in fn.body.walk():
            if isinstance(node, ast.Var) and node.name not in params:
                self.scalar_reads.add(node.name)
            elif isinstance(node, ast.Index):
                raise NotParallel(f"{fn.name} reads an array", node)
            elif isinstance(node, ast.Call):
                self.call(node, stmt)


def unexpressible(node: hostir.HNode) -> tuple[str, ast.Node | None]:
    """Why a kernel cannot run host control flow `node`, in BASIC's words, and the
    statement to point at (for a dispatch loop: its first jump)."""
    if isinstance(node, hostir.Dispatch):
        jumps = (
            hostir.Jump,
            hostir.OnJump,
            hostir.GosubJump,
            hostir.OnGosubJump,
            hostir.ReturnJump,
        )
        inner = [n for b in node.blocks for n in hostir.walk(b.body)]
        first = next((n for n in inner if isinstance(n, jumps) and n.origin is not None), None)
        origin = first.origin if first is not None else node.origin
        return "GOTOs inside the loop that form neither an IF nor a loop", origin
    words = {
        hostir.Return: "RETURN inside the loop",
        hostir.Continue: "a GOTO to the loop's NEXT from inside an inner loop",
        hostir.OnGosub: "ON ... GOSUB inside the loop",
        hostir.Jump: "a GOTO the kernel cannot follow",
        hostir.OnJump: "ON ... GOTO inside the loop",
        hostir.GosubJump: "GOSUB inside GOTO-structured code",
        hostir.OnGosubJump: "ON ... GOSUB inside GOTO-structured code",
        hostir.ReturnJump: "RETURN inside GOTO-structured code",
    }
    return words.get(type(node), "control flow a kernel cannot express"), node.origin


# --------------------------------------------------------------------------- reductions


def _find_reductions(body: list[hostir.HNode], scan: _Scan, lane_vars: set[str]) -> list[Reduction]:
    candidates: list[Reduction] = []
    _collect_reductions(body, candidates, in_loop=False)
    # A reduction variable may appear nowhere else in the body.
    found: list[Reduction] = []
    by_var: dict[str, list[Reduction]] = {}
    for r in candidates:
        by_var.setdefault(r.var, []).append(r)
    for var, group in by_var.items():
        ops = {r.op for r in group}
        if len(ops) > 1 and not ops <= {"sum", "sub"}:
            continue
        if _occurrences(body, var, {id(r.node) for r in group}):
            continue
        payload_ok = all(
            p not in lane_vars and not _occurrences(body, p, {id(r.node)}) and not _mentions(e, var)
            for r in group
            for p, e in r.payload
        )
        if payload_ok:
            found.extend(group)
    return found


def _collect_reductions(nodes, out: list[Reduction], in_loop: bool) -> None:
    for node in nodes:
        if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            r = _accumulation(node)
            if r is not None:
                out.append(r)
        elif isinstance(node, hostir.If):
            r = None if in_loop else _conditional_extreme(node)
            if r is not None:
                out.append(r)
                continue
            for _, body in node.arms:
                _collect_reductions(body, out, in_loop)
            if node.else_body:
                _collect_reductions(node.else_body, out, in_loop)
        elif isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
            _collect_reductions(node.body, out, True)


def _accumulation(node: hostir.Simple) -> Reduction | None:
    stmt = node.stmt
    if not isinstance(stmt.target, ast.Var):
        return None
    var = stmt.target.name
    value = stmt.value
    if not isinstance(value, ast.BinOp) or value.op not in "+-*":
        return None
    left_is_var = isinstance(value.left, ast.Var) and value.left.name == var
    right_is_var = isinstance(value.right, ast.Var) and value.right.name == var
    if left_is_var and not _mentions(value.right, var):
        op = {"+": "sum", "-": "sub", "*": "prod"}[value.op]
        return Reduction(var, op, value.right, node)
    if right_is_var and value.op in "+*" and not _mentions(value.left, var):
        return Reduction(var, "sum" if value.op == "+" else "prod", value.left, node)
    return _sum_of_terms(var, value, node)


def _sum_of_terms(var: str, value: ast.BinOp, node: hostir.Simple) -> Reduction | None:
    """`S = S + X + Y` (parsed `(S + X) + Y`), `S = X - Y + S`: S once, added, among
    terms that do not mention it.  The kernel adds X + Y to S (kernels add in another
    order than the interpreter, as every reduction)."""
    terms: list[tuple[int, ast.Expr]] = []

    def flatten(e: ast.Expr, sign: int) -> None:
        if isinstance(e, ast.BinOp) and e.op in "+-":
            flatten(e.left, sign)
            flatten(e.right, sign if e.op == "+" else -sign)
        else:
            terms.append((sign, e))

    flatten(value, 1)
    own = [k for k, (sign, e) in enumerate(terms) if isinstance(e, ast.Var) and e.name == var]
    if len(own) != 1 or terms[own[0]][0] != 1:
        return None
    rest = [t for k, t in enumerate(terms) if k != own[0]]
    if any(_mentions(e, var) for _, e in rest):
        return None
    sign, total = rest[0]
    if sign < 0:
        total = ast.UnaryOp("-", total, coord=total.coord)
    for sign, e in rest[1:]:
        total = ast.BinOp("+" if sign > 0 else "-", total, e, coord=value.coord)
    return Reduction(var, "sum", total, node)


def _conditional_extreme(node: hostir.If) -> Reduction | None:
    """`IF e > M THEN M = e [: J = ...]` (any spelling of the comparison)."""
    if len(node.arms) != 1 or node.else_body:
        return None
    cond, body = node.arms[0]
    comparison = _comparison(cond)
    if comparison is None or not body:
        return None
    op, left, right = comparison
    first = body[0]
    if not _is_scalar_let(first):
        return None
    var = first.stmt.target.name
    if isinstance(right, ast.Var) and right.name == var:
        cand, rel = left, op
    elif isinstance(left, ast.Var) and left.name == var:
        cand, rel = right, _REVERSED[op]
    else:
        return None
    if not same_expr(first.stmt.value, cand) or _mentions(cand, var):
        return None
    payload = []
    for extra in body[1:]:
        if not _is_scalar_let(extra):
            return None
        payload.append((extra.stmt.target.name, extra.stmt.value))
    kind = "max" if rel in (">", ">=") else "min"
    return Reduction(var, kind, cand, node, strict=rel in (">", "<"), payload=payload)


def _comparison(cond: ast.Expr):
    negate = False
    while isinstance(cond, ast.UnaryOp) and cond.op == "NOT":
        negate, cond = not negate, cond.operand
    if not isinstance(cond, ast.BinOp) or cond.op not in _NEGATED:
        return None
    op = _NEGATED[cond.op] if negate else cond.op
    return op, cond.left, cond.right


def _mentions(expr: ast.Node, var: str) -> bool:
    return any(isinstance(n, ast.Var) and n.name == var for n in expr.walk())


def _occurrences(nodes, var: str, except_ids: set[int]) -> bool:
    """Does `var` appear in `nodes` outside the nodes whose ids are given?"""
    for node in nodes:
        if id(node) in except_ids:
            continue
        if isinstance(node, hostir.Simple):
            if any(isinstance(n, ast.Var) and n.name == var for n in node.stmt.walk()):
                return True
        elif isinstance(node, hostir.If):
            if any(_mentions(c, var) for c, _ in node.arms):
                return True
            if any(_occurrences(b, var, except_ids) for _, b in node.arms):
                return True
            if node.else_body and _occurrences(node.else_body, var, except_ids):
                return True
        elif isinstance(node, hostir.ForLoop):
            if any(isinstance(n, ast.Var) and n.name == var for n in node.stmt.walk()):
                return True
            if _occurrences(node.body, var, except_ids):
                return True
        elif isinstance(node, hostir.WhileLoop):
            if node.stmt is not None and any(
                isinstance(n, ast.Var) and n.name == var for n in node.stmt.walk()
            ):
                return True
            if _occurrences(node.body, var, except_ids):
                return True
    return False


# --------------------------------------------------------------------------- privates


def upward_exposed(body, analysis, lane_vars, reduction_nodes, carried=None) -> dict[str, ast.Node]:
    """Scalars read in an iteration before that iteration has set them (but for the
    scalar `carried` names by a statement's id: that read is the scan's)."""
    carried = carried or {}
    exposed: dict[str, ast.Node] = {}

    def reads(expr: ast.Node, defined: set[str]) -> None:
        for var in expression_reads(analysis, expr):
            if var not in defined and var not in lane_vars and var not in exposed:
                exposed[var] = expr

    def block(nodes, defined: set[str]) -> set[str]:
        defined = set(defined)
        for node in nodes:
            if node in reduction_nodes:
                continue
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                scanned = {carried[id(node)]} if id(node) in carried else set()
                reads(node.stmt.value, defined | scanned)
                target = node.stmt.target
                if isinstance(target, ast.Var):
                    defined.add(target.name)
                else:
                    for index in target.indices:
                        reads(index, defined)
            elif isinstance(node, hostir.If):
                after = None
                for cond, arm in node.arms:
                    reads(cond, defined)
                    got = block(arm, defined)
                    after = got if after is None else after & got
                got = block(node.else_body or [], defined)
                defined = after & got if after is not None else got
            elif isinstance(node, hostir.ForLoop):
                for e in (node.stmt.start, node.stmt.limit, node.stmt.step):
                    if e is not None:
                        reads(e, defined)
                block(node.body, defined | {node.stmt.var.name})
                defined.add(node.stmt.var.name)
            elif isinstance(node, hostir.WhileLoop):
                if node.stmt is not None and getattr(node.stmt, "condition", None) is not None:
                    reads(node.stmt.condition, defined)
                block(node.body, defined)
        return defined

    block(body, set())
    return exposed


# --------------------------------------------------------------------------- arrays


def _check_arrays(
    scan: _Scan,
    lane_vars: set[str],
    invariants: set[str],
    dims: list[LaneDim],
    exact: NestModel | None = None,
):
    """Classify each written array (own element, slice in place, histogram), or raise
    NotParallel.  Where the test of shapes refuses one, the exact analysis (`exact`)
    may prove that no two lanes touch one element, or that none does while the value
    tests it returns hold (`guards`): the lanes then work in place."""
    try:
        return _classify_arrays(scan, lane_vars, invariants, dims, exact)
    except _Refused as refused:
        raise refused.why from None


class _Refused(Exception):
    def __init__(self, why: NotParallel):
        self.why = why


def _refuse(
    why: NotParallel, name: str, exact: NestModel | None, sliced: set[str], guards: list
) -> None:
    """Raise `why` unless isl proves the lanes independent on array `name` (which is
    then written in place), or the dependence it finds cannot happen while a test of
    values holds (passes/parallel/value_guards.py: the test joins `guards`); the reason adds what
    the exact analysis found, or why it could not decide ("not affine: ...": the test of
    shapes decided)."""
    if exact is None:
        raise _Refused(why)
    verdict = exact.lanes_independent(name)
    if verdict.independent:
        sliced.add(name)
        return
    tests = guards_for(exact, name) if verdict.independent is False else None
    if tests is not None:
        sliced.add(name)
        guards.extend(t for t in tests if not any(same_expr(t, g) for g in guards))
        return
    out = NotParallel(f"{why.reason} ({verdict.reason})", None, verdict.dependence, verdict.advice)
    out.coord = why.coord
    raise _Refused(out)


def _classify_arrays(scan, lane_vars, invariants, dims, exact):
    written: dict[str, tuple[Affine, ...]] = {}
    histograms: set[str] = set()
    sliced: set[str] = set()
    guards: list[ast.Expr] = []
    by_array: dict[str, list[_Access]] = {}
    for acc in scan.accesses:
        by_array.setdefault(acc.array, []).append(acc)
    order = [d.var for d in dims]
    for name, accesses in by_array.items():
        writes = [a for a in accesses if a.write]
        if not writes:
            continue
        forms = [tuple(affine(i, lane_vars, invariants) for i in a.indices) for a in writes]
        own = forms[0]
        if (
            all(f is not None for f in own)
            and _owns_lane(own, order)
            and all(f == own for f in forms)
        ):
            conflict = None
            for acc in accesses:
                if acc.write:
                    continue
                form = tuple(affine(i, lane_vars, invariants) for i in acc.indices)
                if form != own and not _in_own_slice(form, own):
                    conflict = NotParallel(
                        f"loop-carried dependence: {_show(acc)} reads an element of {name} that "
                        f"another iteration writes ({_show(writes[0])})",
                        acc.node,
                    )
                    break
            if conflict is None:
                written[name] = own
            else:
                _refuse(conflict, name, exact, sliced, guards)
            continue
        if _distinct_lanes_distinct_elements(accesses, lane_vars, invariants, dims):
            sliced.add(name)
            continue
        owned = _owned_axes(forms[0], order)
        outside = None  # the first access outside the slice of the first write
        if owned is not None:
            for acc in accesses:
                form = tuple(affine(i, lane_vars, invariants) for i in acc.indices)
                if len(form) != len(forms[0]) or any(form[a] != forms[0][a] for a in owned):
                    outside = acc
                    break
            if outside is None:
                sliced.add(name)
                continue
        if _is_histogram(accesses):
            histograms.add(name)
            continue
        if outside is not None:
            why = NotParallel(
                f"loop-carried dependence: {_show(outside)} "
                f"may {'write' if outside.write else 'read'} an element of {name} in another "
                f"iteration's slice ({_show(writes[0])})",
                outside.node,
            )
        else:
            why = NotParallel(
                f"{_show(writes[0])} is written at an element that is not the loop's own "
                f"(iterations could write the same element)",
                writes[0].node,
            )
        _refuse(why, name, exact, sliced, guards)
    return written, histograms, sliced, guards


def _owns_lane(form: tuple[Affine, ...], order: list[str]) -> bool:
    """Different lanes write different elements: each lane variable is, with coefficient
    1, the only lane variable of one subscript (plus a constant or loop-invariant
    scalars: `C(I, J + K)` with lane J), and the other subscripts hold no lane variable
    (`EY(0, J)`, a row `C(I, J)` of a loop over J alone)."""
    owner: dict[str, int] = {}
    for axis, f in enumerate(form):
        if not f.lane_vars:
            continue
        if len(f.coeffs) != 1 or f.coeffs[0][1] != 1:
            return False
        var = f.coeffs[0][0]
        if var in owner:
            return False
        owner[var] = axis
    return set(owner) == set(order)


def _owned_axes(form: tuple[Affine | None, ...], order: list[str]) -> list[int] | None:
    """The axes that make `form` (a write such as `C(I, J)` with J set by an inner loop,
    or `V(J + 1, I)`) the lane's own slice: each lane variable, with coefficient 1, is
    the only lane variable of one subscript, plus a constant or loop-invariant scalars.
    When every access of the array has exactly these subscripts on these axes, lanes
    touch disjoint slices, whatever the other subscripts are; each lane then reads and
    writes its slice in place, in its own order.  None if some lane variable owns no
    axis."""
    owner: dict[str, int] = {}
    for axis, f in enumerate(form):
        if f is None or not f.lane_vars:
            continue
        if len(f.coeffs) != 1 or f.coeffs[0][1] != 1 or f.coeffs[0][0] in owner:
            continue
        owner[f.coeffs[0][0]] = axis
    return sorted(owner.values()) if set(owner) == set(order) else None


def _distinct_lanes_distinct_elements(
    accesses: list[_Access], lane_vars, invariants, dims: list[LaneDim]
) -> bool:
    """Two lanes never touch one element of the array with a write among the two: for
    every pair of affine subscript forms f, g (one a write), f(x) = g(y) implies x = y.
    Covariance's `CV(I, J)` and `CV(J, I)` in a loop over J (I fixed): CV(I, x) = CV(y,
    I) means x = I = y; in the triangle of lanes (I, J >= I), CV(i, j) = CV(j', i')
    means i = j' >= i' = j >= i, the same lane.  The lanes then work in place (`sliced`)."""
    forms = []
    for acc in accesses:
        form = tuple(affine(i, lane_vars, invariants) for i in acc.indices)
        if any(f is None for f in form):
            return False
        forms.append((form, acc.write))
    pairs = [
        (f, g)
        for n, (f, f_writes) in enumerate(forms)
        for g, g_writes in forms[n:]
        if f_writes or g_writes
    ]
    if len(lane_vars) == 1:
        (var,) = lane_vars
        return all(_same_lane_if_same_element(f, g, var) for f, g in pairs)
    if len(dims) != 2 or not _upper_triangle(dims):
        return False
    order = [d.var for d in dims]
    return all(
        (f == g and _owns_lane(f, order)) or _swapped(f, g, order) or _swapped(g, f, order)
        for f, g in pairs
    )


def _upper_triangle(dims: list[LaneDim]) -> bool:
    """Lanes (I, J) with J >= I + c, c >= 0 (`FOR J = I TO N` under lanes over I)."""
    outer, inner = dims
    side = _triangle_side(inner.first, {outer.var: outer}) if inner.first is not None else None
    return bool(side) and side[1] >= 0


def _swapped(f: tuple[Affine, ...], g: tuple[Affine, ...], order: list[str]) -> bool:
    """`f` is `X(.., I, .., J, ..)` and `g` the same with I and J exchanged (exactly the
    lane variables there, the other subscripts equal and free of lane variables)."""
    i, j = order
    exact = {v: Affine(((v, 1),), 0.0) for v in order}
    axes = [a for a, form in enumerate(f) if form.lane_vars]
    if len(f) != len(g) or len(axes) != 2:
        return False
    p, q = axes
    if (f[p], f[q], g[p], g[q]) != (exact[i], exact[j], exact[j], exact[i]):
        return False
    return all(f[a] == g[a] for a in range(len(f)) if a not in axes)


def _same_lane_if_same_element(f: tuple[Affine, ...], g: tuple[Affine, ...], var: str) -> bool:
    """Whether f(x) = g(y) (lane values x, y) forces x = y (or has no solution).  Each
    axis is an equation a*x - b*y = r, with r a constant plus loop-invariant scalars."""
    if len(f) != len(g):
        return False
    equations = []
    for fa, ga in zip(f, g):
        a, b = fa.coeff(var), ga.coeff(var)
        rhs = _symbolic(ga, 1.0)
        for sym, c in _symbolic(fa, -1.0).items():
            rhs[sym] = rhs.get(sym, 0.0) + c
        rhs = {k: c for k, c in rhs.items() if c}
        if a == 0 and b == 0:
            if set(rhs) == {""}:  # two different constants: never the same element
                return True
            continue
        if a == b:  # x - y = r / a
            return not rhs
        equations.append((a, b, rhs))
    for n, (a1, b1, r1) in enumerate(equations):
        for a2, b2, r2 in equations[n + 1 :]:
            # a1 x - b1 y = r1, a2 x - b2 y = r2; x - y = (r1 (a2 - b2) - r2 (a1 - b1)) / det
            if a1 * -b2 - a2 * -b1 == 0:
                continue
            diff = {k: c * (a2 - b2) for k, c in r1.items()}
            for k, c in r2.items():
                diff[k] = diff.get(k, 0.0) - c * (a1 - b1)
            return not any(diff.values())
    return False


def _symbolic(f: Affine, sign: float) -> dict[str, float]:
    """The constant part of `f` (key "") and its loop-invariant scalars, times `sign`."""
    out: dict[str, float] = {"": sign * f.const} if f.const else {}
    for sym in f.symbols:
        out[sym] = out.get(sym, 0.0) + sign
    return out


def _in_own_slice(form: tuple[Affine | None, ...], own: tuple[Affine, ...]) -> bool:
    """A read such as `B(K, J)` in a loop over J that writes `B(I, J)` (I, K set
    outside the lanes): on every axis that a lane variable owns it has the write's
    subscript, so it reads the lane's own slice of the array, where no other lane writes
    (the kernel gives it the lane's own element when the other subscripts match, the
    array's original element otherwise)."""
    return all(f is not None and f == mine for f, mine in zip(form, own) if mine.lane_vars)


def _is_histogram(accesses: list[_Access]) -> bool:
    """`H(e) = H(e) + v` (or - v) is the only use of H."""
    writes = [a for a in accesses if a.write]
    reads = [a for a in accesses if not a.write]
    if len(writes) != 1 or len(reads) != 1:
        return False
    w, r = writes[0], reads[0]
    stmt = w.stmt
    value = stmt.value if isinstance(stmt, ast.Let) else None
    if not isinstance(value, ast.BinOp) or value.op not in "+-" or value.left is not r.node:
        return False
    if any(isinstance(n, ast.Index) and n.name == w.array for n in value.right.walk()):
        return False
    return len(w.indices) == len(r.indices) and all(
        same_expr(a, b) for a, b in zip(w.indices, r.indices)
    )


def _show(acc: _Access) -> str:
    from ..show import show_expr

    return f"{acc.array}({', '.join(show_expr(i) for i in acc.indices)})"


def _kind(dims, reductions, histograms, scan: _Scan, written) -> str:
    if histograms:
        return "histogram"
    if reductions:
        return "reduce"
    if scan.has_lane_loop:
        return "iterate"
    stencil = any(
        any(f.const != 0 or f.symbols for f in form)
        for acc in scan.accesses
        if not acc.write
        for form in [
            tuple(affine(i, {d.var for d in dims}, set()) or Affine((), 0.0) for i in acc.indices)
        ]
    )
    return "stencil" if stencil else "map"
