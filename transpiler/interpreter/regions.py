"""Where the compiled program needs a dispatch point, and which blocks become Python
loops and ifs.

The interpreter compiles the flat statement list into Python functions, one per
*leader*: a statement that control can reach other than by falling through (the start,
every jump and GOSUB target).  A function runs from its leader up to the next leader and
returns the index of the next statement to run; a dispatcher loop calls them.

A FOR, WHILE or IF block with no leader strictly inside it (after its opener, up to and
including its closer) is *structured*: it is emitted as a Python `while` or `if`
inside the function, which is where the speed comes from (no dispatch per iteration).
A block with a leader inside (something jumps into the middle of it, from within) is
*unstructured*: its opener and closer become explicit tests and jumps, which adds the
leaders that they jump to, which may in turn unstructure the blocks around it; this
repeats until nothing changes.

A nest deeper than MAX_BLOCK_DEPTH (Python's limits on nested blocks) keeps its inner
levels structured and makes the outer ones unstructured.

In a program that traps errors (ON ERROR GOTO) every statement is a leader and no block
is structured: an error may leave any statement for the handler, and RESUME go on at
any statement.

A FOR loop on the run-time FOR stack (`Analysis.dynamic_for`) is no block: its FOR
jumps past its NEXT when it runs zero times, and its NEXT back to the statement after
the FOR, so both of those are leaders.

One common jump needs no leader: a GOTO from a FOR body to the loop's own NEXT (a
"continue") when only IF blocks lie between them; it is compiled as the NEXT's
increment and a Python `continue`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..ir import ast
from ..ir.model import MAX_BLOCK_DEPTH, Analysis
from ..passes.check.jumps import line_refs


@dataclass
class Regions:
    leaders: set[int]
    structured: set[int]  # openers (FOR, WHILE, IfBlock indices) emitted as Python blocks
    # LineRef of a GOTO compiled as `continue` -> the FOR index whose NEXT it reaches.
    continues: dict[ast.LineRef, int] = field(default_factory=dict)

    def ordered_leaders(self) -> list[int]:
        return sorted(self.leaders)


def closer_of(analysis: Analysis, opener: int) -> int:
    if opener in analysis.for_next:
        return analysis.for_next[opener]
    if opener in analysis.while_wend:
        return analysis.while_wend[opener]
    return analysis.if_parts[opener].endif_index


def _openers(analysis: Analysis) -> list[int]:
    return sorted(list(analysis.for_next) + list(analysis.while_wend) + list(analysis.if_parts))


def _continue_candidates(analysis: Analysis) -> dict[ast.LineRef, tuple[int, int]]:
    """GOTOs that could be a `continue` of an enclosing FOR (only IF blocks between):
    LineRef -> (index of the GOTO, index of the FOR)."""
    found: dict[ast.LineRef, tuple[int, int]] = {}
    for index, stmt in enumerate(analysis.stmts):
        if not isinstance(stmt, ast.Goto):
            continue
        target = analysis.jump_target.get(stmt.target)
        for_index = analysis.next_for.get(target) if target is not None else None
        if for_index is None:
            continue
        opener = analysis.enclosing[index]
        while opener is not None and opener != for_index and opener in analysis.if_parts:
            opener = analysis.enclosing[opener]
        if opener == for_index:
            found[stmt.target] = (index, for_index)
    return found


def find_regions(analysis: Analysis, structure: bool = True) -> Regions:
    """The dispatch points and structured blocks.  `structure=False` makes every block
    unstructured (explicit tests and jumps only): slower, and a second, independent way
    to run a program, which the tests compare with the first."""
    if analysis.traps_errors:  # each statement a block: an error may leave any of them
        return Regions(leaders=set(range(len(analysis.stmts) + 1)), structured=set())
    if not structure:
        leaders = {0, len(analysis.stmts)} | analysis.gosub_targets | _loop_targets(analysis)
        for stmt in analysis.stmts:
            leaders.update(analysis.jump_target[ref] for ref in line_refs(stmt))
        for opener in _openers(analysis):
            leaders |= _unstructured_leaders(analysis, opener, closer_of(analysis, opener))
        return Regions(leaders=leaders, structured=set())
    # Start with every candidate as a continue; a candidate whose loop (or an IF between)
    # turns out unstructured becomes a plain jump, which only adds leaders, so this
    # converges.
    continues = _continue_candidates(analysis)
    while True:
        regions = _solve(analysis, continues)
        kept = {
            ref: (source, f)
            for ref, (source, f) in continues.items()
            if _path_structured(analysis, source, f, regions.structured)
        }
        if len(kept) == len(continues):
            regions.continues = {ref: f for ref, (_, f) in kept.items()}
            return regions
        continues = kept


def _solve(analysis: Analysis, continues) -> Regions:
    n = len(analysis.stmts)
    leaders: set[int] = {0, n} | analysis.gosub_targets | _loop_targets(analysis)
    for stmt in analysis.stmts:
        for ref in line_refs(stmt):
            if ref not in continues:
                leaders.add(analysis.jump_target[ref])
    openers = _openers(analysis)
    structured = set(openers)
    changed = True
    while changed:
        changed = False
        ordered = sorted(leaders)
        too_deep = _too_deep(analysis, structured)
        for opener in openers:
            if opener in structured:
                closer = closer_of(analysis, opener)
                if opener in too_deep or _has_leader_in(ordered, opener + 1, closer + 1):
                    structured.discard(opener)
                    leaders |= _unstructured_leaders(analysis, opener, closer)
                    changed = True
    return Regions(leaders=leaders, structured=structured)


def _loop_targets(analysis: Analysis) -> set[int]:
    """Where the FORs and NEXTs of run-time loops jump to."""
    found = set()
    for for_index, next_index in analysis.dynamic_for.items():
        found |= {for_index + 1, next_index + 1}
    return found


def _too_deep(analysis: Analysis, structured: set[int]) -> set[int]:
    """Structured blocks with more than MAX_BLOCK_DEPTH structured levels in them
    (themselves included): the outer levels of a deep nest, which then run as explicit
    jumps while the inner levels stay Python blocks."""
    height: dict[int, int] = {}  # opener -> its levels (first: the most of its children)
    for opener in sorted(structured, reverse=True):  # inner blocks come later in the text
        height[opener] = height.get(opener, 0) + 1
        parent = analysis.enclosing[opener]
        if parent in structured:
            height[parent] = max(height.get(parent, 0), height[opener])
    return {opener for opener, levels in height.items() if levels > MAX_BLOCK_DEPTH}


def _path_structured(analysis: Analysis, source: int, for_index: int, structured) -> bool:
    """Are the FOR and every block between it and the GOTO at `source` structured?"""
    if for_index not in structured:
        return False
    opener = analysis.enclosing[source]
    while opener is not None and opener != for_index:
        if opener not in structured:
            return False
        opener = analysis.enclosing[opener]
    return opener == for_index


def _has_leader_in(ordered: list[int], lo: int, hi: int) -> bool:
    """Is there a leader in [lo, hi)?"""
    at = bisect.bisect_left(ordered, lo)
    return at < len(ordered) and ordered[at] < hi


def _unstructured_leaders(analysis: Analysis, opener: int, closer: int) -> set[int]:
    """The statements an unstructured block's explicit jumps go to."""
    if opener in analysis.for_next:
        return {opener + 1, closer + 1}  # NEXT loops back to the body; FOR exits past NEXT
    if opener in analysis.while_wend:
        return {opener, closer + 1}  # WEND loops back to the WHILE; WHILE exits past WEND
    parts = analysis.if_parts[opener]
    found = {parts.endif_index + 1}  # the end of every branch jumps past the END IF
    found.update(parts.elseifs)  # a false condition jumps to the next ELSEIF test...
    if parts.else_index is not None:
        found.add(parts.else_index + 1)  # ...or into the ELSE branch
    return found
