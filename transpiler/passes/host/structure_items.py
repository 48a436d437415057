"""The pieces of one statement sequence, as the host structuring arranges them.

A *sequence* is the statements [lo, hi) at one nesting level: the whole program, a FOR or
WHILE body, or one branch of a block IF.  Its *items* are its executable statements in
text order, a kept FOR / WHILE / IF block being one item (it is structured on its own),
and a block that jumps cut (a *lowered* block) contributing its pieces: the FOR test, the
body's items, the NEXT, and so on.  Statements that do nothing are left out; REMs ride
along as comments of the next item.  Statements the procedure never reaches are dead
code and left out too.

Every item knows its *edges*: the transfers of control from inside it to a statement
outside it, other than falling out at its end.  The structuring turns the edges into
structured control flow, or groups items into a dispatch loop where it cannot.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from ...ir import ast
from .structure_flow import Flow


@dataclass
class Item:
    # "stmt" (one statement that falls through: LET, PRINT, GOSUB...), "goto", "on_goto",
    # "return", "end", "resume", "loop_fault" (a FOR or NEXT that is always an error), "block" (a
    # kept FOR / WHILE / IF), the pieces of lowered blocks ("for_init", "for_next",
    # "while_test", "wend", "if_test", "branch_end"; the FOR and NEXT of a loop on the
    # run-time FOR stack are "for_init" and "for_next" too), and "dispatch" (a range of
    # items the structuring grouped into a dispatch loop).
    kind: str
    index: int  # the statement; for "dispatch", the first item's
    last: int  # the last statement the item covers (its closer, for a block)
    comments: list[int] = field(default_factory=list)  # REM statements before it
    # Transfers from inside the item to statements outside it: (source, target).
    edges: list[tuple[int, int]] = field(default_factory=list)
    target: int | None = None  # the statement a "goto" or "branch_end" goes to
    parts: list[Item] = field(default_factory=list)  # a dispatch's items

    @property
    def is_target(self) -> bool:
        """Can a jump land on this item?  (A branch end is only ever fallen into.)"""
        return self.kind != "branch_end"


@dataclass
class Sequence:
    lo: int
    hi: int
    exit: int  # the statement control reaches after the last item
    items: list[Item]
    trailing: list[int] = field(default_factory=list)  # REMs after the last item

    def __post_init__(self) -> None:
        self.position: dict[int, int] = {}
        for p, item in enumerate(self.items):
            if item.is_target:
                self.position.setdefault(item.index, p)
        self._sources: dict[int, list[int]] | None = None
        self._holding: list[tuple[int, int, int]] | None = None
        self._landing: list[tuple[int, int, int, int, int]] | None = None

    def sources_of(self, target: int) -> list[int]:
        """The positions of the items with an edge to statement `target`, ascending
        (one entry per edge)."""
        if self._sources is None:
            self._sources = {}
            for p, item in enumerate(self.items):
                for _, t in item.edges:
                    self._sources.setdefault(t, []).append(p)
        return self._sources.get(target, [])

    def edges_into(self, lo: int, hi: int) -> list[tuple[int, int, int]]:
        """The edges (position, source, target) whose target lands on a position in
        [lo, hi), in item order."""
        if self._landing is None:
            landing = []
            for p, item in enumerate(self.items):
                for source, target in item.edges:
                    tp = self.position.get(target)
                    if tp is not None:
                        landing.append((tp, len(landing), p, source, target))
            landing.sort()
            self._landing = landing
        landing = self._landing
        i = bisect_left(landing, (lo,))
        found = []
        while i < len(landing) and landing[i][0] < hi:
            found.append(landing[i][1:])
            i += 1
        found.sort()
        return [edge[1:] for edge in found]

    def statement_at(self, p: int) -> int:
        """The statement control reaches at position p (the exit at the end)."""
        return self.items[p].index if p < len(self.items) else self.exit

    def position_of(self, target: int) -> int | None:
        """The position a jump to `target` lands on (len(items) for the exit), or None
        if the target is elsewhere."""
        p = self.position.get(target)
        if p is not None:
            return p
        return len(self.items) if target == self.exit else None

    def item_holding(self, index: int) -> int | None:
        """The position of the item covering statement `index` (None: not here)."""
        if self._holding is None:
            # (first statement, position, last statement) of every item (of every part of
            # a dispatch), sorted.  Items cover disjoint ranges of statements, except
            # the end of one IF branch and the test of the next (both at its head).
            spans = []
            for p, item in enumerate(self.items):
                for part in item.parts if item.kind == "dispatch" else (item,):
                    spans.append((part.index, p, part.last))
            spans.sort()
            self._holding = spans
        spans = self._holding
        i = bisect_right(spans, (index, len(self.items))) - 1
        if i < 0:
            return None
        first = spans[i][0]
        while i > 0 and spans[i - 1][0] == first:
            i -= 1  # the first item in order, as a scan would find
        while i < len(spans) and spans[i][0] == first:
            if index <= spans[i][2]:
                return spans[i][1]
            i += 1
        return None


class ItemBuilder:
    """Builds the items of a sequence for one procedure (the statements in `members`)."""

    def __init__(
        self,
        flow: Flow,
        members: set[int],
        lowered: set[int],
        stacked_targets: set[int],
        stacked_returns: list[int],
    ):
        self.flow = flow
        self.members = members
        self.lowered = lowered
        # GOSUB targets that the dispatch loop handles, and where their RETURNs go back to
        self.stacked_targets = stacked_targets
        self.stacked_returns = stacked_returns
        self._sorted_members: list[int] | None = None

    def build(self, lo: int, hi: int, exit: int) -> Sequence:
        items: list[Item] = []
        comments: list[int] = []
        self._collect(lo, hi, items, comments)
        return Sequence(lo, hi, exit, items, comments)

    # ----------------------------------------------------------------- collecting

    def _collect(self, lo: int, hi: int, items: list[Item], comments: list[int]) -> None:
        flow, stmts, members = self.flow, self.flow.stmts, self.members
        k = lo
        while k < hi:
            stmt = stmts[k]
            if isinstance(stmt, ast.Rem):
                comments.append(k)
                k += 1
                continue
            if flow.passive(k):
                k += 1
                continue
            if k not in members:  # dead here (or another procedure's code)
                comments.clear()
                k = flow.closer(k) + 1 if flow.is_opener(k) else k + 1
                k = self._skip_foreign(k, hi, comments)
                continue
            if flow.is_opener(k):
                if k in self.lowered:
                    self._lowered(k, items, comments)
                else:
                    item = Item("block", k, flow.closer(k), list(comments))
                    item.edges = self._block_edges(k, item.last)
                    items.append(item)
                    comments.clear()
                k = flow.closer(k) + 1
                continue
            items.append(self._statement(k, comments))
            comments.clear()
            k += 1

    def _skip_foreign(self, k: int, hi: int, comments: list[int]) -> int:
        """Where the scan of [k, hi) reaches something of this procedure, having just
        left a statement that is not (`comments` is empty): what a statement by
        statement scan would do, without visiting the statements in between (a
        subroutine's sequence is often the whole program).

        The scan visits the statements of one nesting level.  The next statement that
        belongs to the procedure, m, is on that level unless a block that does not
        belong holds it: then the scan goes on at that block's opener (the outermost
        one after k).  Either way, only the REMs right before that point (with passive
        statements between them, no block closer) reach it as comments."""
        if self._sorted_members is None:
            self._sorted_members = sorted(self.members)
        order = self._sorted_members
        i = bisect_left(order, k)
        stop = order[i] if i < len(order) and order[i] < hi else hi
        if stop < hi:
            enclosing, outer = self.flow.a.enclosing, None
            opener = enclosing[stop]
            while opener is not None and opener >= k:
                outer, opener = opener, enclosing[opener]
            if outer is not None:
                stop = outer
        stmts, flow = self.flow.stmts, self.flow
        found = []
        p = stop - 1
        while p >= k:
            stmt = stmts[p]
            if isinstance(stmt, ast.Rem):
                found.append(p)
            elif not flow.passive(p) or isinstance(stmt, ast.EndIf):
                break
            p -= 1
        found.reverse()
        comments.extend(found)
        return stop

    def _statement(self, k: int, comments: list[int]) -> Item:
        stmt = self.flow.stmts[k]
        if isinstance(stmt, ast.Goto):
            item = Item("goto", k, k, list(comments), target=self.flow.target(stmt.target))
        elif isinstance(stmt, ast.OnGoto) and not stmt.gosub:
            item = Item("on_goto", k, k, list(comments))
        elif isinstance(stmt, ast.Return):
            item = Item("return", k, k, list(comments))
        elif isinstance(stmt, (ast.End, ast.Stop)):
            item = Item("end", k, k, list(comments))
        elif isinstance(stmt, ast.Resume):
            item = Item("resume", k, k, list(comments))
        elif k in self.flow.a.loop_faults:
            item = Item("loop_fault", k, k, list(comments))
        elif k in self.flow.a.dynamic_for:
            exit_to = self.flow.flow_to(self.flow.a.dynamic_for[k] + 1)
            return self._piece("for_init", k, comments, [exit_to])
        elif k in self.flow.a.dynamic_next:
            body = self.flow.flow_to(self.flow.a.dynamic_next[k] + 1)
            return self._piece("for_next", k, comments, [body])
        else:
            item = Item("stmt", k, k, list(comments))
        item.edges = [(k, t) for t in self.jumps(k)]
        return item

    def _lowered(self, opener: int, items: list[Item], comments: list[int]) -> None:
        """The pieces of a block that jumps cut, in place of the block."""
        flow, a = self.flow, self.flow.a
        closer = flow.closer(opener)
        if opener in a.for_next:
            exit_to = flow.flow_to(closer + 1)
            items.append(self._piece("for_init", opener, comments, [exit_to]))
            self._collect(opener + 1, closer, items, comments)
            items.append(self._piece("for_next", closer, comments, [flow.flow_to(opener + 1)]))
        elif opener in a.while_wend:
            items.append(self._piece("while_test", opener, comments, [flow.flow_to(closer + 1)]))
            self._collect(opener + 1, closer, items, comments)
            items.append(self._piece("wend", closer, comments, [opener]))
        else:
            after = flow.flow_to(closer + 1)
            for n, arm in enumerate(flow.arms(opener)):
                head = flow.stmts[arm.head]
                if n > 0:
                    end = Item("branch_end", arm.head, arm.head, [], target=after)
                    end.edges = [(arm.head, after)]
                    items.append(end)
                if isinstance(head, (ast.IfBlock, ast.ElseIf)):
                    test = self._piece("if_test", arm.head, comments, [flow.false_target(arm.head)])
                    items.append(test)
                self._collect(arm.lo, arm.hi, items, comments)

    def _piece(self, kind: str, index: int, comments: list[int], targets: list[int]) -> Item:
        item = Item(kind, index, index, list(comments))
        item.edges = [(index, t) for t in targets]
        comments.clear()
        return item

    # ----------------------------------------------------------------- edges

    def jumps(self, k: int) -> list[int]:
        """Where statement k can transfer control other than by falling through to the
        next statement (a GOSUB to a stacked target, and a RETURN in a procedure with
        stacked GOSUBs, count: the dispatch loop performs them)."""
        flow = self.flow
        stmt = flow.stmts[k]
        if isinstance(stmt, ast.Goto):
            return [flow.target(stmt.target)]
        if isinstance(stmt, ast.OnGoto) and not stmt.gosub:
            return [flow.target(t) for t in stmt.targets]
        if isinstance(stmt, ast.Return):
            return list(self.stacked_returns)
        if k in flow.a.loop_faults:
            return []
        targets = [t for t in flow.gosub_targets(k) if t in self.stacked_targets]
        if isinstance(stmt, (ast.IfBlock, ast.ElseIf)):
            targets.append(flow.false_target(k))
        elif isinstance(stmt, ast.For):
            targets.append(flow.flow_to(flow.a.next_of(k) + 1))
        elif isinstance(stmt, ast.Next):
            targets.append(flow.flow_to(flow.a.for_of(k) + 1))
        elif isinstance(stmt, ast.While):
            targets.append(flow.flow_to(flow.a.while_wend[k] + 1))
        elif isinstance(stmt, ast.Wend):
            targets.append(flow.a.wend_while[k])
        return targets

    def _block_edges(self, opener: int, closer: int) -> list[tuple[int, int]]:
        """Transfers from inside a kept block to outside it, other than leaving it at its
        end (to the statement after it)."""
        out_to = self.flow.flow_to(closer + 1)
        edges = []
        for k in range(opener, closer + 1):
            if k not in self.members:
                continue
            for t in self.jumps(k):
                if not opener <= t <= closer and t != out_to:
                    edges.append((k, t))
        return edges
