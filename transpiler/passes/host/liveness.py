"""Which simple variables a statement reads and writes, and which are live (may be read
before being written) at each statement.

One solver serves two graphs: the offload pass's (`live_in`, over `cfg.successors`: is a
parallel loop's per-iteration temporary read after the loop? then BASIC's "value of the
last iteration" must survive, and the loop stays on the host) and the host structuring's
(`structure_dataflow.Dataflow`, over its own flow graph).

A DEF FN call reads every variable the function's body reads (directly or through other
functions), its parameters excepted.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from ...ir import ast
from ...ir.model import Analysis
from ...ir.statement_facts import assigned, facts_of, fields_in_order, operands
from .cfg import successors


def expression_reads(analysis: Analysis, expr: ast.Node, params=frozenset()) -> set[str]:
    """The simple variables an expression reads, DEF FN bodies included."""
    found: set[str] = set()
    for node in expr.walk():
        if isinstance(node, ast.Var) and node.name not in params:
            found.add(node.name)
        elif isinstance(node, ast.Call) and node.name in analysis.functions:
            found |= function_reads(analysis, node.name)
    return found


def function_reads(analysis: Analysis, name: str, _active=None) -> set[str]:
    """The program's variables a DEF FN body reads (its parameters are its own)."""
    active = _active or set()
    if name in active:
        return set()  # recursion is an error reported by the front end
    active.add(name)
    fn = analysis.functions[name]
    found: set[str] = set()
    for node in fn.body.walk():
        if isinstance(node, ast.Var) and node.name not in fn.params:
            found.add(node.name)
        elif isinstance(node, ast.Call) and node.name in analysis.functions:
            found |= function_reads(analysis, node.name, active)
    active.discard(name)
    return found


def statement_reads(analysis: Analysis, stmt: ast.Stmt) -> set[str]:
    """The simple variables a flat statement reads (a DEF FN's body is read where the
    function is called, not where it is defined): the whole statement, or, where it
    stores into variables without reading them (statement_facts' `stores`), the
    subscripts of those and its other fields."""
    found: set[str] = set()
    if isinstance(stmt, ast.DefFn):
        return found
    stores = facts_of(stmt).stores
    if stores:
        exprs = [
            node
            for name in fields_in_order(stmt)
            if name not in stores
            for node in operands(stmt, (name,))
            if isinstance(node, ast.Node)
        ]
        for target in operands(stmt, stores):
            if isinstance(target, ast.Index):
                exprs.extend(target.indices)
    else:
        exprs = [stmt]
    for e in exprs:
        found |= expression_reads(analysis, e)
    return found


def statement_writes(stmt: ast.Stmt) -> set[str]:
    """The simple variables a statement assigns (always, when it completes)."""
    return {t.name for t in assigned(stmt) if isinstance(t, ast.Var)}


def solve(
    succ: Sequence[Sequence[int]], reads: Sequence[Set[str]], writes: Sequence[Set[str]]
) -> list[frozenset[str]]:
    """live[i] = reads[i] | (union of live[s] for s in succ[i]) - writes[i], the least
    fixpoint, by a worklist over the predecessors of what changed.  Live sets only grow,
    so what flows out of a statement is kept and only the variables new in a successor
    are added to it: a statement with many successors (the RETURN hub) is not re-united
    with all of them each time one of them changes."""
    n = len(succ)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, out in enumerate(succ):
        for s in out:
            preds[s].append(i)
    live: list[frozenset[str]] = [frozenset()] * n
    flowing_out: list[set[str]] = [set() for _ in range(n)]
    work = list(range(n))  # popped from the end: the last statement first
    queued = [True] * n
    while work:
        i = work.pop()
        queued[i] = False
        new = reads[i] | (flowing_out[i] - writes[i])
        if len(new) == len(live[i]):
            continue  # it only grows: the same size is the same set
        added = new - live[i]
        live[i] = frozenset(new)
        for p in preds[i]:
            if not added <= flowing_out[p]:
                flowing_out[p] |= added
                if not queued[p]:
                    queued[p] = True
                    work.append(p)
    return live


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
    nothing: set[str] = set()
    reads = [statement_reads(analysis, s) for s in stmts] + [nothing, nothing]
    writes = [statement_writes(s) for s in stmts] + [nothing, nothing]
    return solve(succ, reads, writes)[: n + 1]
