"""Facts about a host program that both printers need, computed once from its host IR.

`annotate(host)` runs at the end of structuring (`passes/structure.py`) and again after
offloading (`passes/offload.py`), which adds launches and host replays:

- `read_vars`: the variables that the printed program reads somewhere.  A variable that
  nothing reads needs no assignment: only the effects of the value matter.
- `static_arrays`: the arrays allocated once when the program starts (constant bounds,
  never reshaped: the interpreter's rule).
"""

from __future__ import annotations

from .. import ast, hostir
from ..model import Analysis
from .liveness import expression_reads, statement_reads
from .structure_flow import static_arrays


def annotate(host: hostir.HostProgram) -> None:
    host.read_vars = frozenset(emitted_reads(host))
    host.static_arrays = frozenset(static_arrays(host.analysis))


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
