"""Which GOSUB targets become functions, and what the main program consists of.

A GOSUB target t becomes a structured `Subroutine` when its *region* (the statements
reachable from t, following GOTOs and IFs, stepping over nested GOSUBs and stopping at
RETURN, END and STOP) is a clean single-entry piece of code:

- nothing outside the region jumps or falls into it, and the main program does not start
  inside it (so it is entered only by GOSUB);
- it lies within one block body or IF branch: it does not run into the NEXT, WEND or
  END IF of a block that it does not contain;
- it shares no statement with another subroutine;
- every GOSUB in it goes to a structured subroutine, and no chain of GOSUBs leads back
  to it (a recursive subroutine keeps the interpreter's GOSUB stack, and its depth limit,
  in the main dispatch loop) unless it is a QuickBASIC SUB or FUNCTION (whose recursion
  the lowering counts against QuickBASIC's own, smaller limit).

Every other GOSUB target, with its region, joins the main program, which then handles
GOSUB and RETURN with an explicit return stack in a dispatch loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...ir import ast
from .structure_flow import Flow


@dataclass
class Procedures:
    main_entry: int
    # Statements of the main program: reachable from its start, plus the regions of the
    # GOSUB targets that are not structured subroutines.
    main: set[int]
    # Structured subroutines: entry statement -> the statements of its region.
    subs: dict[int, set[int]] = field(default_factory=dict)
    # GOSUB targets the main program's dispatch loop handles (with a return stack).
    stacked: set[int] = field(default_factory=set)
    # Every live GOSUB target -> its region (structured or not).
    regions: dict[int, set[int]] = field(default_factory=dict)

    def owner(self, index: int) -> int | None:
        """The structured subroutine whose region holds `index` (None: the main program)."""
        for entry, region in self.subs.items():
            if index in region:
                return entry
        return None


def sequence_range(flow: Flow, index: int) -> tuple[int, int]:
    """The statements [lo, hi) of the innermost block body or IF branch holding `index`
    (the whole program at the top level)."""
    opener = flow.a.enclosing[index] if index < flow.n else None
    if opener is None:
        return 0, flow.n
    if opener in flow.a.if_parts:
        for arm in flow.arms(opener):
            if arm.lo <= index < arm.hi:
                return arm.lo, arm.hi
        return opener + 1, flow.closer(opener)  # the END IF itself (never asked for)
    return opener + 1, flow.closer(opener)


def find_procedures(flow: Flow) -> Procedures:
    entry = flow.flow_to(0)
    main_region = flow.reach(entry)
    regions: dict[int, set[int]] = {}
    work = _called(flow, main_region)
    while work:
        target = work.pop()
        if target in regions or target >= flow.n:
            continue
        regions[target] = flow.reach(target)
        work.extend(_called(flow, regions[target]))

    everything = set(main_region)
    for region in regions.values():
        everything |= region
    predecessors: dict[int, set[int]] = {}
    for u in everything:
        for v in flow.successors(u):
            predecessors.setdefault(v, set()).add(u)

    valid = {
        t
        for t, region in regions.items()
        if t != entry and _single_entry(region, predecessors) and _in_one_sequence(flow, t, region)
    }
    _drop_overlapping(regions, valid)
    _drop_unstructured_callers(flow, regions, valid)

    main = set(main_region)
    stacked = set()
    for t, region in regions.items():
        if t not in valid:
            main |= region
            stacked.add(t)
    return Procedures(
        main_entry=entry,
        main=main,
        subs={t: regions[t] for t in sorted(valid)},
        stacked=stacked,
        regions=regions,
    )


def _called(flow: Flow, region: set[int]) -> list[int]:
    found = []
    for i in sorted(region):
        found.extend(flow.gosub_targets(i))
    return found


def _single_entry(region: set[int], predecessors: dict[int, set[int]]) -> bool:
    return all(u in region for v in region for u in predecessors.get(v, ()))


def _in_one_sequence(flow: Flow, entry: int, region: set[int]) -> bool:
    lo, hi = sequence_range(flow, entry)
    return all(lo <= v < hi for v in region)


def _drop_overlapping(regions: dict[int, set[int]], valid: set[int]) -> None:
    """Remove from `valid`, one at a time, each subroutine that shares a statement with
    another one still valid.  How many valid regions hold each statement is counted,
    so each region is looked at once, not against every other."""
    holders: dict[int, int] = {}
    for t in valid:
        for v in regions[t]:
            holders[v] = holders.get(v, 0) + 1
    for t in list(valid):
        if any(holders[v] > 1 for v in regions[t]):
            valid.discard(t)
            for v in regions[t]:
                holders[v] -= 1


def _drop_unstructured_callers(flow: Flow, regions: dict[int, set[int]], valid: set[int]) -> None:
    """Remove from `valid` the subroutines on a cycle of GOSUBs, then, until nothing
    changes, those that GOSUB a target which is not structured (a worklist over the
    callers of what was removed) and the other targets of an ON ... GOSUB one of whose
    targets is not structured (one statement either calls all its targets or jumps to
    all of them)."""
    calls = {t: set(_called(flow, regions[t])) for t in regions}
    callers: dict[int, set[int]] = {}
    for t, called in calls.items():
        for c in called:
            callers.setdefault(c, set()).add(t)
    together: dict[int, list[set[int]]] = {}  # a target -> the ON ... GOSUB groups it is in
    for g in flow.gosubs:
        targets = set(flow.gosub_targets(g))
        if len(targets) > 1:
            for t in targets:
                together.setdefault(t, []).append(targets)
    recursive = _recursive(calls) - _procedure_entries(flow)
    work = [t for t in valid if t in recursive or any(c not in valid for c in calls[t])]
    for target, groups in together.items():
        if target not in valid:  # its ON ... GOSUB partners go with it
            work += [partner for group in groups for partner in group]
    while work:
        t = work.pop()
        if t in valid:
            valid.discard(t)
            work.extend(callers.get(t, ()))
            for group in together.get(t, ()):
                work.extend(group)


def _procedure_entries(flow: Flow) -> set[int]:
    """The first statements of QuickBASIC's SUBs and FUNCTIONs: recursive or not, each
    becomes a function (its recursion is the host language's, counted by the lowering's
    `Out of stack space` test)."""
    index = flow.a.name_index
    return {
        index[proc.entry_label] for proc in flow.a.procedures.values() if proc.entry_label in index
    }


def _recursive(calls: dict[int, set[int]]) -> set[int]:
    """The targets on a cycle of GOSUBs: the members of a strongly connected component
    of the call graph with more than one member or with a call to itself (Tarjan's
    algorithm, without recursion)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: set[int] = set()
    for root in calls:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        frames = [(root, iter(sorted(calls.get(root, ()))))]
        while frames:
            node, todo = frames[-1]
            child = next(todo, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    frames.append((child, iter(sorted(calls.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            frames.pop()
            if frames:
                parent = frames[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in calls.get(node, ()):
                    found.update(component)
    return found


def is_gosub(stmt: ast.Stmt) -> bool:
    return isinstance(stmt, ast.Gosub) or (isinstance(stmt, ast.OnGoto) and stmt.gosub)
