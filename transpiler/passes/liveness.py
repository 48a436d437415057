"""Which simple variables are live (may be read before being written) at each statement.

The offload pass needs it to know whether a scalar that a parallel loop uses as a
per-iteration temporary is read after the loop: if it is, BASIC's "value of the last
iteration" must survive, and the loop stays on the host.
"""

from __future__ import annotations

from collections import deque

from .. import ast
from ..model import Analysis
from .cfg import successors


def expr_vars(expr: ast.Node, analysis: Analysis) -> set[str]:
    """Simple variables an expression reads, including through DEF FN calls."""
    found: set[str] = set()
    _collect(expr, analysis, found, set())
    return found


def _collect(node: ast.Node, analysis: Analysis, found: set[str], seen_fns: set[str]) -> None:
    for sub in node.walk():
        if isinstance(sub, ast.Var):
            found.add(sub.name)
        elif isinstance(sub, ast.Call) and sub.name in analysis.functions and sub.name not in seen_fns:
            fn = analysis.functions[sub.name]
            seen_fns.add(sub.name)
            inner: set[str] = set()
            _collect(fn.body, analysis, inner, seen_fns)
            found.update(inner - set(fn.params))


def uses_defs(stmt: ast.Stmt, analysis: Analysis) -> tuple[set[str], set[str]]:
    """(variables read, variables written) by one flat statement."""
    uses: set[str] = set()
    defs: set[str] = set()

    def read(node: ast.Node | None) -> None:
        if node is not None:
            uses.update(expr_vars(node, analysis))

    def write(target: ast.Node) -> None:
        if isinstance(target, ast.Var):
            defs.add(target.name)
        elif isinstance(target, ast.Index):
            for index in target.indices:
                read(index)

    if isinstance(stmt, ast.Let):
        read(stmt.value)
        write(stmt.target)
    elif isinstance(stmt, (ast.Read, ast.Input)):
        for target in stmt.targets:
            write(target)
    elif isinstance(stmt, ast.For):
        read(stmt.start)
        read(stmt.limit)
        read(stmt.step)
        defs.add(stmt.var.name)
    elif isinstance(stmt, ast.Next):
        for var in stmt.vars:
            uses.add(var.name)
            defs.add(var.name)
    elif isinstance(stmt, ast.DefFn):
        pass  # the body runs where the function is called
    else:
        for child in stmt.children():
            if isinstance(child, (ast.Expr, ast.Tab, ast.MatExpr, ast.ArrayDecl)):
                read(child)
    return uses, defs


def live_in(analysis: Analysis) -> list[frozenset[str]]:
    """live_in[i]: variables live just before statement i; index len(stmts) is the end."""
    stmts = analysis.stmts
    n = len(stmts)
    succ = successors(analysis)
    # Every RETURN goes to every return point: one extra node, n + 1, stands for them
    # all (RETURN -> n + 1 -> each return point), reading and writing nothing, so the
    # graph has as many edges as RETURNs plus return points, not their product.
    hub = n + 1
    hub_succ: list[int] | None = None
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            hub_succ = succ[i]  # the same for every RETURN
            succ[i] = [hub]
    succ.append([])  # n: the end of the program
    succ.append(hub_succ or [])  # n + 1: the RETURN hub
    pred: list[list[int]] = [[] for _ in range(n + 2)]
    for i, targets in enumerate(succ):
        for t in targets:
            pred[t].append(i)
    info = [uses_defs(s, analysis) for s in stmts]
    info.append((set(), set()))  # the end
    info.append((set(), set()))  # the RETURN hub
    live: list[frozenset[str]] = [frozenset()] * (n + 2)
    work = deque([*range(n - 1, -1, -1), hub])
    queued = [True] * (n + 2)
    queued[n] = False  # never changes
    while work:
        i = work.popleft()
        queued[i] = False
        out: set[str] = set()
        for t in succ[i]:
            out |= live[t]
        uses, defs = info[i]
        new = frozenset(uses | (out - defs))
        if new != live[i]:
            live[i] = new
            for p in pred[i]:
                if not queued[p]:
                    queued[p] = True
                    work.append(p)
    return live[: n + 1]
