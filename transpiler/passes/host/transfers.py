"""Host lowering of the kernels' arrays: `dev.to_host(...)` calls (hostir.ToHost) before
host code that touches arrays the kernels use.  They are cheap no-ops when the host copy
is already current, so one is placed at the head of each run of host statements that
may follow a launch; the host's replay of a block that met an exception, and a
distributed loop run whole, get the arrays they use (`Replay.to_host`,
`Distributed.to_host`).
"""

from __future__ import annotations

from ...ir import ast, hostir
from ...ir import kernel as ir


def place_transfers(host: hostir.HostProgram) -> None:
    """Add the ToHost nodes and the `to_host` lists of `host`, whose launches are placed."""
    kernel_arrays = {
        p.name
        for k in host.kernels
        for p in k.params
        if isinstance(p, ir.ArrayParam) and p.name in host.analysis.arrays
    }
    if not kernel_arrays:
        return
    # A GOSUB runs a subroutine's launches as if they stood where it stands.
    calls = any(_contains_launch(n, False) for s in host.subroutines for n in s.body)
    host.body = place_to_host(host.body, kernel_arrays, False, calls)[0]
    for sub in host.subroutines:
        sub.body = place_to_host(sub.body, kernel_arrays, True, calls)[0]
    for node in hostir.walk(host.body + [n for s in host.subroutines for n in s.body]):
        if isinstance(node, hostir.Distributed):
            node.to_host = sorted(_arrays_touched(node.original) & kernel_arrays)
        if isinstance(node, hostir.Launch) and node.replay is not None:
            # The kernel's arrays are those the loop uses (the subroutines it
            # calls included): the host's copies must be current for the replay.
            used = {p.name for p in node.kernel.params if isinstance(p, ir.ArrayParam)}
            node.replay.to_host = sorted(used & kernel_arrays)


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
