"""Offload parallel loops: rewrite the host program, replacing each FOR loop (nest) that
the dependence pass finds parallel by a kernel launch, and each `MAT C = A * B` by the
matrix product kernel of the I/J/K loop nest (passes/matmul.py).

Outermost loops are tried first; when a loop cannot be offloaded, its reason is
recorded and the loops inside it are tried (a time-stepping loop stays on the host,
the sweeps inside it become kernels).  Afterwards, `dev.to_host(...)` calls are placed
before host code that touches arrays the kernels use (they are cheap no-ops when the
host copy is already current).
"""

from __future__ import annotations

from dataclasses import replace

from .. import ast, hostir, ir
from ..model import Analysis
from ..options import Options
from . import host_facts
from .dependence import LoopPlan, NotParallel, integral_loop_vars, plan_loop, upward_exposed
from .forwarding import forward_scalars
from .integrality import integral_scalars
from .liveness import live_in
from .matmul import is_mat_product, mat_product_launch, try_matmul
from .recurrence import plan_scan
from .vectorize import choose_tile, vectorize


def offload(
    host: hostir.HostProgram, options: Options, tile: tuple[int, ...] | None = None
) -> None:
    """Rewrite `host` in place: Launch nodes, kernels, decisions, ToHost calls."""
    Offloader(host, options, tile).run()


class Offloader:
    def __init__(self, host: hostir.HostProgram, options: Options, tile: tuple[int, ...] | None):
        self.host = host
        self.analysis: Analysis = host.analysis
        self.options = options
        self.tile = tile
        self.live = live_in(self.analysis)
        self.subroutines = {s.name: s for s in host.subroutines}
        self.names: set[str] = set()
        self._labels: dict[int, int | None] | None = None
        self.enclosing: list[hostir.ForLoop] = []  # the host FORs around the loop tried
        # Variables that hold integers: those of the program that only ever do, and the
        # enclosing FORs' variables.
        self.integral_everywhere = integral_scalars(self.analysis.program)
        self.integral = self.integral_everywhere

    def basic_labels(self) -> dict[int, int | None]:
        """Source line -> its BASIC line number (the first line on it)."""
        if self._labels is None:
            self._labels = {}
            for line in self.analysis.program.lines:
                self._labels.setdefault(line.coord.line, line.number)
        return self._labels

    def run(self) -> None:
        self.host.body = self.rewrite(self.host.body)
        for sub in self.host.subroutines:
            sub.body = self.rewrite(sub.body)
        kernel_arrays = {
            p.name
            for k in self.host.kernels
            for p in k.params
            if isinstance(p, ir.ArrayParam) and p.name in self.analysis.arrays
        }
        if kernel_arrays:
            # A GOSUB runs a subroutine's launches as if they stood where it stands.
            calls = any(_contains_launch(n, False) for s in self.host.subroutines for n in s.body)
            self.host.body = place_to_host(self.host.body, kernel_arrays, False, calls)[0]
            for sub in self.host.subroutines:
                sub.body = place_to_host(sub.body, kernel_arrays, True, calls)[0]
            for node in hostir.walk(
                self.host.body + [n for s in self.host.subroutines for n in s.body]
            ):
                if isinstance(node, hostir.Distributed):
                    node.to_host = sorted(_arrays_touched(node.original) & kernel_arrays)
                if isinstance(node, hostir.Launch) and node.replay is not None:
                    # The kernel's arrays are those the loop uses (the subroutines it
                    # calls included): the host's copies must be current for the replay.
                    used = {p.name for p in node.kernel.params if isinstance(p, ir.ArrayParam)}
                    node.replay.to_host = sorted(used & kernel_arrays)
        host_facts.annotate(self.host)  # launches and replays read other variables

    def rewrite(self, nodes: list[hostir.HNode]) -> list[hostir.HNode]:
        out: list[hostir.HNode] = []
        for node in nodes:
            if isinstance(node, hostir.ForLoop):
                out.append(self.loop(node))
            elif isinstance(node, hostir.ForInit) and node.stack:
                reason = self.analysis.dynamic_reason[node.for_index]
                why = f"runs on the run-time FOR stack: {reason}"
                stmt = node.stmt
                decision = ir.LoopDecision(stmt.label, stmt.coord, False, "host", why)
                self.host.decisions.append(decision)
                out.append(node)
            elif isinstance(node, hostir.Simple) and is_mat_product(node.stmt):
                out.append(self.mat_product(node))
            else:
                self.descend(node)
                out.append(node)
        return out

    def descend(self, node: hostir.HNode) -> None:
        if isinstance(node, hostir.WhileLoop):
            node.body = self.rewrite(node.body)
        elif isinstance(node, hostir.If):
            node.arms = [(c, self.rewrite(b)) for c, b in node.arms]
            if node.else_body:
                node.else_body = self.rewrite(node.else_body)
        elif isinstance(node, hostir.Dispatch):
            for block in node.blocks:
                block.body = self.rewrite(block.body)

    def loop(self, node: hostir.ForLoop) -> hostir.HNode:
        stmt = node.stmt
        live_after = self.live[min(node.next_index + 1, len(self.live) - 1)]
        try:
            if all(_is_remark(n) for n in node.body):
                raise NotParallel("the loop body is empty: a kernel would do nothing")
            launch = try_matmul(node, self.analysis, live_after, self.kernel_name("mma", stmt))
            if launch is None:
                plan = self.plan(node, live_after)
                group = self.distribute(node, plan, live_after)
                if group is not None:
                    return group
                tile = choose_tile(plan, self.analysis.number_type, self.tile)
                name = self.kernel_name(plan.kind, stmt)
                launch = vectorize(plan, self.analysis, name, tile)
        except NotParallel as why:
            decision = ir.LoopDecision(
                stmt.label,
                stmt.coord,
                False,
                "host",
                _reason(why, stmt, self.basic_labels()),
                dependence=why.dependence,
                advice=why.advice,
            )
            self.host.decisions.append(decision)
            saved = self.integral
            self.enclosing.append(node)
            self.integral = integral_loop_vars(self.enclosing) | self.integral_everywhere
            try:
                node.body = self.rewrite(node.body)
            finally:
                self.enclosing.pop()
                self.integral = saved
            return node
        self.host.kernels.append(launch.kernel)
        self.host.decisions.append(launch.decision)
        return launch

    def plan(self, node: hostir.ForLoop, live_after) -> LoopPlan:
        """The loop's parallel plan or, for a loop that is not parallel, its plan as a
        scan (passes/recurrence.py) where it is one."""
        try:
            return plan_loop(node, self.analysis, live_after, self.subroutines, self.integral)
        except NotParallel:
            plan = plan_scan(node, self.analysis, live_after, self.subroutines, self.integral)
            if plan is None:
                raise
            return plan

    def distribute(self, node: hostir.ForLoop, plan, live_after) -> hostir.Distributed | None:
        """Loop distribution (hostir.Distributed) of a parallel loop whose lanes would
        run several inner loops one after another (gemm's `FOR I`: scale row I, then add
        the products to it): a kernel per part of the body, when a part has more lane
        loops than the whole (a 2-D grid instead of rows of work per lane).  Each part is
        an inner FOR with the statements before it; statements after the last FOR are a
        part of their own.  A scalar one part sets and a later one reads would need a
        value per iteration: such a loop stays whole, unless the earlier part stores the
        scalar in an element the later one can read instead (passes/forwarding.py)."""
        if len(plan.dims) != 1 or plan.reductions or plan.histograms or plan.inside:
            return None
        if plan.recurrence is not None:
            return None
        parts = _parts(node.body)
        if len(parts) < 2:
            return None
        gosubs = (hostir.Call, hostir.GosubJump)
        if any(isinstance(n, gosubs) for n in hostir.walk(node.body)):
            return None  # what the subroutine sets is not seen part by part
        lane = {plan.dims[0].var}
        carried = self.carried(parts, lane, plan.privates)
        if carried:  # Gram-Schmidt's S, stored in R(K,J) by the part before
            parts = forward_scalars(parts, carried, lane, self.analysis)
            if parts is None or self.carried(parts, lane, plan.privates):
                return None
        try:
            plans = [
                plan_loop(
                    replace(node, body=part),
                    self.analysis,
                    live_after,
                    self.subroutines,
                    self.integral,
                    atomics=False,
                )
                for part in parts
            ]
        except NotParallel:
            return None
        if max(len(p.dims) for p in plans) <= 1 or any(p.reductions or p.histograms for p in plans):
            return None
        launches = []
        try:
            for p in plans:
                p.part = True
                tile = choose_tile(p, self.analysis.number_type, self.tile)
                launches.append(
                    vectorize(p, self.analysis, self.kernel_name(p.kind, node.stmt), tile)
                )
        except NotParallel:
            return None
        for launch in launches:
            self.host.kernels.append(launch.kernel)
            self.host.decisions.append(launch.decision)
        restore = sorted({name for launch in launches for name in launch.writes})
        return hostir.Distributed(launches, node, restore, origin=node.origin)

    def carried(self, parts, lane: set[str], privates: set[str]) -> set[str]:
        """The scalars a part reads before setting them: values of an earlier part."""
        return {
            name
            for part in parts
            for name in upward_exposed(part, self.analysis, lane, set())
            if name in privates
        }

    def mat_product(self, node: hostir.Simple) -> hostir.HNode:
        """`MAT C = A * B`: the matrix product kernel the loop nest gets, or the host
        statement (with the reason, for --explain)."""
        stmt = node.stmt
        try:
            launch = mat_product_launch(node, self.analysis, self.kernel_name("mma", stmt))
        except NotParallel as why:
            decision = ir.LoopDecision(stmt.label, stmt.coord, False, "host", why.reason)
            self.host.decisions.append(decision)
            return node
        self.host.kernels.append(launch.kernel)
        self.host.decisions.append(launch.decision)
        return launch

    def kernel_name(self, kind: str, stmt: ast.Stmt) -> str:
        where = str(stmt.label) if stmt.label is not None else f"l{stmt.coord.line}"
        name = f"{kind}_{where}"
        n = 2
        while name in self.names:
            name = f"{kind}_{where}_{n}"
            n += 1
        self.names.add(name)
        return name


def _parts(body: list[hostir.HNode]) -> list[list[hostir.HNode]]:
    """The body cut after each top-level FOR (the statements before a FOR go with it)."""
    parts: list[list[hostir.HNode]] = [[]]
    for node in body:
        parts[-1].append(node)
        if isinstance(node, hostir.ForLoop):
            parts.append([])
    if all(_is_remark(n) for n in parts[-1]):
        last = parts.pop()
        if parts:
            parts[-1] += last
    return parts


def _is_remark(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)


def _reason(why: NotParallel, stmt: ast.For, labels: dict[int, int | None]) -> str:
    """The reason, with the BASIC line it points at when that is not the FOR's own
    (`labels`: source line -> BASIC line number)."""
    coord = why.coord
    if coord is None or not coord.line or coord.line == stmt.coord.line:
        return why.reason
    label = labels.get(coord.line)
    return f"{why.reason}, line {label}" if label is not None else why.reason


def place_to_host(nodes, kernel_arrays: set[str], launched: bool, calls: bool = False):
    """Insert ToHost before runs of host statements touching kernel arrays.

    `launched`: a kernel may have run before control reaches `nodes`; `calls`: a GOSUB
    may launch kernels (a subroutine does).  Returns the new list and whether a launch
    may have happened by its end.
    """
    out: list[hostir.HNode] = []
    pending: set[str] = set()  # arrays a ToHost at the head of the current run covers
    run_start: int | None = None
    for node in nodes:
        if isinstance(node, hostir.Launch) or _contains_launch(node, calls):
            if not isinstance(node, hostir.Launch):
                # The node's own condition, selector or bounds read host copies before
                # its body runs (and a WHILE's condition again after each pass).
                own = _own_arrays(node) & kernel_arrays
                if own and launched:
                    out.append(hostir.ToHost(sorted(own)))
                _recurse(node, kernel_arrays, True, calls)
                if own and isinstance(node, hostir.WhileLoop):
                    node.body.append(hostir.ToHost(sorted(own)))
            launched = True
            run_start, pending = None, set()
            out.append(node)
            continue
        touched = _arrays_touched(node) & kernel_arrays
        if touched and launched:
            if run_start is None:
                run_start = len(out)
                out.append(hostir.ToHost(sorted(touched)))
                pending = set(touched)
            elif not touched <= pending:
                head = out[run_start]
                pending |= touched
                head.arrays = sorted(pending)
        out.append(node)
    return out, launched


def _recurse(node, kernel_arrays, launched, calls):
    # Inside a loop that launches kernels, any statement may follow a launch (the
    # previous iteration's), so every run of host code there syncs first.
    if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
        node.body = place_to_host(node.body, kernel_arrays, True, calls)[0]
    elif isinstance(node, hostir.If):
        node.arms = [(c, place_to_host(b, kernel_arrays, launched, calls)[0]) for c, b in node.arms]
        if node.else_body:
            node.else_body = place_to_host(node.else_body, kernel_arrays, launched, calls)[0]
    elif isinstance(node, hostir.Dispatch):
        for block in node.blocks:
            block.body = place_to_host(block.body, kernel_arrays, True, calls)[0]


def _contains_launch(node, calls: bool) -> bool:
    """Whether running `node` may launch a kernel: a launch in it, or (`calls`) a GOSUB."""
    gosubs = (hostir.Call, hostir.GosubJump, hostir.OnGosub, hostir.OnGosubJump)
    return any(
        isinstance(n, hostir.Launch) or (calls and isinstance(n, gosubs))
        for n in hostir.walk([node])
    )


def _own_arrays(node) -> set[str]:
    """The arrays the node itself reads (not its body): an IF's conditions, a loop's
    bounds or condition, an ON's selector."""
    return {
        sub.name
        for expr in _exprs_of(node)
        for sub in expr.walk()
        if isinstance(sub, (ast.Index, ast.MatRef))
    }


def _arrays_touched(node) -> set[str]:
    names: set[str] = set()
    for n in hostir.walk([node]):
        for expr in _exprs_of(n):
            for sub in expr.walk():
                if isinstance(sub, (ast.Index, ast.MatRef)):
                    names.add(sub.name)
        if isinstance(n, hostir.Simple):
            stmt = n.stmt
            if isinstance(stmt, (ast.MatAssign,)):
                names.add(stmt.target)
            elif isinstance(stmt, (ast.MatRead, ast.MatInput, ast.Dim)):
                names.update(a.name for a in stmt.arrays)
            elif isinstance(stmt, ast.MatPrint):
                names.update(stmt.names)
    return names


def _exprs_of(node):
    if isinstance(node, hostir.Simple):
        yield node.stmt
    elif isinstance(node, hostir.If):
        for cond, _ in node.arms:
            yield cond
    elif isinstance(node, (hostir.ForLoop, hostir.ForInit, hostir.ForNext, hostir.LoopFault)):
        if node.stmt is not None:  # (a LoopFault of a NEXT has none)
            yield node.stmt
    elif isinstance(node, hostir.WhileLoop):
        if node.stmt is not None:
            yield node.stmt
        if node.condition is not None:
            yield node.condition
    elif isinstance(node, (hostir.OnJump, hostir.OnGosubJump, hostir.OnGosub)):
        yield node.selector
