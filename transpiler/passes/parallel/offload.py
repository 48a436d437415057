"""Offload planning: walk the host program, outermost loops first, and decide for each
FOR loop (nest) and each `MAT C = A * B` whether a kernel launch replaces it.

What happens to one loop (plan it, then vectorise it) is the middle end's per-loop
sequence (`passes/pipeline.py`, `offload_loop`), which this walker is given and which
calls back the planning steps here: `plan` (a parallel loop or a scan) and
`distribution` (a kernel per part of the body).  When a loop cannot be offloaded, its
reason is recorded (ir.LoopDecision) and the loops inside it are tried (a time-stepping
loop stays on the host, the sweeps inside it become kernels).  A `MAT C = A * B` gets
the matrix product kernel of the I/J/K loop nest (passes/parallel/matmul.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...ir import ast, hostir
from ...ir import kernel as ir
from ...ir.model import Analysis
from ..host.liveness import live_in
from .dependence import LoopPlan, NotParallel, integral_loop_vars, plan_loop, upward_exposed
from .forwarding import forward_scalars
from .integrality import integral_scalars
from .matmul import is_mat_product, mat_product_launch
from .recurrence import plan_scan

# The per-loop sequence (pipeline.offload_loop): the launch, or the launches of the
# loop's parts, that replace the loop; raises NotParallel with the reason it cannot.
OffloadLoop = Callable[["Offloader", hostir.ForLoop, set], "hostir.Launch | hostir.Distributed"]


def offload(host: hostir.HostProgram, offload_loop: OffloadLoop) -> None:
    """Rewrite `host` in place: Launch and Distributed nodes, kernels, decisions."""
    Offloader(host, offload_loop).run()


class Offloader:
    def __init__(self, host: hostir.HostProgram, offload_loop: OffloadLoop):
        self.host = host
        self.analysis: Analysis = host.analysis
        self.offload_loop = offload_loop
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
            offloaded = self.offload_loop(self, node, live_after)
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
        self.record(offloaded)
        return offloaded

    def record(self, offloaded: hostir.Launch | hostir.Distributed) -> None:
        """The kernels of the launches that replace a loop, and their decisions."""
        launches = offloaded.parts if isinstance(offloaded, hostir.Distributed) else [offloaded]
        for launch in launches:
            self.host.kernels.append(launch.kernel)
            self.host.decisions.append(launch.decision)

    def plan(self, node: hostir.ForLoop, live_after) -> LoopPlan:
        """The loop's parallel plan or, for a loop that is not parallel, its plan as a
        scan (passes/parallel/recurrence.py) where it is one."""
        try:
            return plan_loop(node, self.analysis, live_after, self.subroutines, self.integral)
        except NotParallel:
            plan = plan_scan(node, self.analysis, live_after, self.subroutines, self.integral)
            if plan is None:
                raise
            return plan

    def distribution(self, node: hostir.ForLoop, plan, live_after) -> list[LoopPlan] | None:
        """The plans of the parts of a loop distribution (hostir.Distributed), or None.
        A parallel loop whose lanes would run several inner loops one after another
        (gemm's `FOR I`: scale row I, then add the products to it) gets a kernel per part
        of its body when a part has more lane loops than the whole (a 2-D grid instead of
        rows of work per lane).  Each part is an inner FOR with the statements before it;
        statements after the last FOR are a part of their own.  A scalar one part sets
        and a later one reads would need a value per iteration: such a loop stays whole,
        unless the earlier part stores the scalar in an element the later one can read
        instead (passes/parallel/forwarding.py)."""
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
        for p in plans:
            p.part = True
        return plans

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
