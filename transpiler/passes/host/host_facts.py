"""Facts about a host program that both printers need, computed once from its host IR.

`annotate(host)` runs at the end of structuring (`passes/host/structure.py`) and again in
host lowering, after offloading has added launches and host replays (`passes/pipeline.py`):

- `read_vars`: the variables that the printed program reads somewhere.  A variable that
  nothing reads needs no assignment: only the effects of the value matter.
- `static_arrays`: the arrays allocated once when the program starts (constant bounds,
  never reshaped: the interpreter's rule).
- `plan` of every FOR node (`hostir.ForPlan`): how the loop evaluates and tests its
  parts, so that both printers write the same loop, each in its own syntax.
"""

from __future__ import annotations

from ...ir import ast, hostir
from ...ir.model import Analysis
from ...language.expr_facts import has_effects, signed_number
from .liveness import expression_reads, statement_reads
from .structure_flow import static_arrays


def annotate(host: hostir.HostProgram) -> None:
    host.read_vars = frozenset(emitted_reads(host))
    host.static_arrays = frozenset(static_arrays(host.analysis))
    microsoft = host.analysis.options.microsoft
    for body in [host.body, *(sub.body for sub in host.subroutines)]:
        for node in hostir.walk(body):
            if isinstance(node, (hostir.ForLoop, hostir.ForInit, hostir.ForNext)):
                node.plan = plan_for(node, microsoft)


def plan_for(node: hostir.ForLoop | hostir.ForInit | hostir.ForNext, microsoft: bool):
    """The `hostir.ForPlan` of a FOR block or of a lowered loop's FOR and NEXT."""
    stmt = node.stmt
    limit = signed_number(stmt.limit)
    step = signed_number(stmt.step) if stmt.step is not None else 1.0
    start_first = has_effects(stmt.start, microsoft) and (
        (limit is None and has_effects(stmt.limit, microsoft))
        or (step is None and has_effects(stmt.step, microsoft))
    )
    exact = (
        isinstance(node, hostir.ForLoop)
        and node.steady
        and signed_number(stmt.start) is not None
        and limit is not None
        and step is not None
    )
    return hostir.ForPlan(start_first, limit, step, exact, zero_trip_step=microsoft and step != 0)


def emitted_reads(host: hostir.HostProgram) -> set[str]:
    """The variables that the printed program reads somewhere (a variable that nothing
    reads needs no assignment: only the effects of the value matter)."""
    a = host.analysis
    nodes = list(hostir.walk(host.body))
    for sub in host.subroutines:
        nodes += list(hostir.walk(sub.body))
    found: set[str] = set()
    # A replay of a launch sets the loop variables before each iteration: reads of them
    # there do not need BASIC's value after the loop.
    replayed: dict[int, set[str]] = {}
    for n in nodes:
        if isinstance(n, hostir.Launch) and n.replay is not None:
            own = {loop.var for loop in n.replay.loops}
            for m in hostir.walk(n.replay.prefix + n.replay.body):
                replayed[id(m)] = own
    for n in nodes:
        if id(n) in replayed:
            found |= _node_reads(a, n) - replayed[id(n)]
        else:
            found |= _node_reads(a, n)
    return found


def _node_reads(a: Analysis, n: hostir.HNode) -> set[str]:
    """The variables the code printed for `n` itself (not its body) reads."""
    found: set[str] = set()
    if isinstance(n, hostir.Simple):
        found |= statement_reads(a, n.stmt)
    elif isinstance(n, hostir.If):
        for condition, _ in n.arms:
            found |= expression_reads(a, condition)
    elif isinstance(n, hostir.WhileLoop) and n.condition is not None:
        found |= expression_reads(a, n.condition)
    elif isinstance(n, hostir.ForLoop):
        found |= statement_reads(a, n.stmt)
        if not n.counted:
            found.add(n.stmt.var.name)
    elif isinstance(n, (hostir.ForInit, hostir.ForNext)):
        found |= statement_reads(a, n.stmt) | {n.stmt.var.name}
    elif isinstance(n, hostir.LoopFault):
        found |= statement_reads(a, n.stmt) if n.stmt is not None else set()
    elif isinstance(n, (hostir.OnJump, hostir.OnGosub, hostir.OnGosubJump)):
        found |= expression_reads(a, n.selector)
    elif isinstance(n, hostir.Launch):
        found |= _launch_reads(a, n)
    elif not isinstance(
        n,
        (
            hostir.Break,
            hostir.Continue,
            hostir.Call,
            hostir.Return,
            hostir.EndProgram,
            hostir.Dispatch,
            hostir.Jump,
            hostir.GosubJump,
            hostir.ReturnJump,
            hostir.ToHost,
            hostir.Distributed,  # its launches and its loop are nodes of their own
        ),
    ):
        found |= set(a.variables)  # what else may come: assume it reads everything
    return found


def _launch_reads(a: Analysis, launch: hostir.Launch) -> set[str]:
    found: set[str] = set()

    def value(v) -> None:
        if isinstance(v, hostir.HostValue):
            if v.op == "var":
                found.add(v.args[0])
            for arg in v.args:
                value(arg)
        elif isinstance(v, ast.Expr):
            found.update(expression_reads(a, v))

    for v in launch.args + launch.grid + [t.size for t in launch.temps]:
        value(v)
    for count in launch.counts:
        found |= expression_reads(a, count.limit)
    for finish in launch.finish:
        if finish.kind != "loop_var" and finish.var:
            found.add(finish.var)  # var = var + sum(...), or compared with block results
    return found
