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
  in the main dispatch loop).

Every other GOSUB target, with its region, joins the main program, which then handles
GOSUB and RETURN with an explicit return stack in a dispatch loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast
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
    for t in list(valid):
        for other in valid:
            if other != t and regions[t] & regions[other]:
                valid.discard(t)
                break
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


def _drop_unstructured_callers(flow: Flow, regions: dict[int, set[int]], valid: set[int]) -> None:
    """Remove from `valid` the subroutines that GOSUB a target which is not structured,
    those on a cycle of GOSUBs, and the other targets of an ON ... GOSUB one of whose
    targets is not structured (one statement either calls or jumps), until nothing
    changes."""
    calls = {t: set(_called(flow, regions[t])) for t in regions}
    changed = True
    while changed:
        changed = False
        for t in sorted(valid):
            if any(c not in valid for c in calls[t]) or _recursive(t, calls):
                valid.discard(t)
                changed = True
        for g in flow.gosubs:
            targets = set(flow.gosub_targets(g))
            if targets & valid and not targets <= valid:
                valid.difference_update(targets)
                changed = True


def _recursive(start: int, calls: dict[int, set[int]]) -> bool:
    seen: set[int] = set()
    work = list(calls.get(start, ()))
    while work:
        t = work.pop()
        if t == start:
            return True
        if t in seen:
            continue
        seen.add(t)
        work.extend(calls.get(t, ()))
    return False


def is_gosub(stmt: ast.Stmt) -> bool:
    return isinstance(stmt, ast.Gosub) or (isinstance(stmt, ast.OnGoto) and stmt.gosub)
