"""Control flow between the statements of the flat list, as the host structuring sees it.

Some statements do nothing when they run: REM, DATA, DEF, OPTION BASE, END IF and a DIM
whose arrays all have constant bounds (the host program allocates those arrays when it
starts, as the interpreter does).  Control passes through them, so this module resolves
every arrival to the first statement that does something (or to `n`, the end of the
program), and the structuring never sees the others (REMs come back as comments).

Arriving by falling through and arriving by a jump differ at the head of an IF branch:
falling out of a branch into the next ELSEIF or ELSE skips to after the END IF, while a
jump to an ELSEIF line tests its condition (the interpreter does the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir import ast
from ...ir.model import Analysis

# Statements that are declarations only: no code where they stand.
_DECLARATIONS = (ast.Rem, ast.Data, ast.DefFn, ast.OptionBase, ast.EndIf, ast.DefType)


def static_arrays(analysis: Analysis) -> set[str]:
    """Arrays allocated once when the program starts: constant bounds, never reshaped
    (the interpreter's rule; the DIM of any other array allocates it when it runs)."""
    return {
        name
        for name, symbol in analysis.arrays.items()
        if symbol.upper is not None and not symbol.redimensioned
    }


@dataclass(frozen=True)
class Arm:
    """One branch of a block IF: its head (IfBlock, ElseIf or Else) and the statements
    [lo, hi) after it."""

    head: int
    lo: int
    hi: int


class Flow:
    """Successors and block facts for the statements of `analysis.stmts`."""

    def __init__(self, analysis: Analysis):
        self.a = analysis
        self.stmts = analysis.stmts
        self.n = len(analysis.stmts)
        self.static = static_arrays(analysis)
        self._labels = self._make_labels()
        # Both asked about every statement many times over: computed once.
        self._passive = [self._is_passive(stmt) for stmt in self.stmts]
        self._arrival = self._make_arrivals()
        self._openers = set(analysis.for_next) | set(analysis.while_wend) | set(analysis.if_parts)
        # every GOSUB statement (and ON ... GOSUB) in the flat list
        self.gosubs = [
            i
            for i, s in enumerate(self.stmts)
            if isinstance(s, ast.Gosub) or (isinstance(s, ast.OnGoto) and s.gosub)
        ]

    # ----------------------------------------------------------------- statement kinds

    def passive(self, index: int) -> bool:
        """Does the statement do nothing when it runs?"""
        return self._passive[index]

    def _is_passive(self, stmt: ast.Stmt) -> bool:
        if isinstance(stmt, _DECLARATIONS):
            return True
        if isinstance(stmt, ast.Dim):
            return all(decl.name in self.static for decl in stmt.arrays)
        return False

    def is_end(self, index: int) -> bool:
        """Does arriving here end the program (END, STOP, or past the last line)?"""
        return index >= self.n or isinstance(self.stmts[index], (ast.End, ast.Stop))

    # ----------------------------------------------------------------- arrivals

    def flow_to(self, index: int) -> int:
        """The statement that runs when control falls through to `index`."""
        return self._arrival[index] if index < self.n else index

    def _make_arrivals(self) -> list[int]:
        """flow_to of every statement, from the last one back: each answer is the next
        statement's or the one after an END IF, already known (a walk from each
        statement would be quadratic in a run of REM or DATA lines)."""
        arrival = list(range(self.n + 1))
        for index in range(self.n - 1, -1, -1):
            if isinstance(self.stmts[index], (ast.Else, ast.ElseIf)):
                # the end of a branch: skip the others
                arrival[index] = arrival[self.endif_of(index) + 1]
            elif self._passive[index]:
                arrival[index] = arrival[index + 1]
        return arrival

    def jump_to(self, index: int) -> int:
        """The statement that runs when a GOTO (GOSUB, ON ... GOTO) targets `index`."""
        if index < self.n and isinstance(self.stmts[index], ast.ElseIf):
            return index  # a jump to an ELSEIF line tests its condition
        return self.flow_to(index)

    def target(self, ref: ast.LineRef) -> int:
        return self.jump_to(self.a.jump_target[ref])

    # ----------------------------------------------------------------- blocks

    def closer(self, opener: int) -> int:
        a = self.a
        if opener in a.for_next:
            return a.for_next[opener]
        if opener in a.while_wend:
            return a.while_wend[opener]
        return a.if_parts[opener].endif_index

    def endif_of(self, index: int) -> int:
        """The END IF of the block IF whose ELSEIF / ELSE / END IF is `index`."""
        return self.a.if_parts[self.a.block_if_of[index]].endif_index

    def arms(self, opener: int) -> list[Arm]:
        parts = self.a.if_parts[opener]
        heads = list(parts.branch_heads)
        ends = heads[1:] + [parts.endif_index]
        return [Arm(head, head + 1, end) for head, end in zip(heads, ends)]

    def false_target(self, head: int) -> int:
        """Where a false IF / ELSEIF condition at `head` goes."""
        parts = self.a.if_parts[self.a.block_if_of.get(head, head)]
        later = parts.later_elseif(head)
        if later is not None:
            return later
        if parts.else_index is not None:
            return self.flow_to(parts.else_index + 1)
        return self.flow_to(parts.endif_index + 1)

    def is_opener(self, index: int) -> bool:
        return index in self._openers

    def contains(self, opener: int, index: int) -> bool:
        """Is `index` inside the block of `opener` (after the opener, up to its closer)?"""
        return opener < index <= self.closer(opener)

    def openers_around(self, index: int) -> list[int]:
        """The blocks containing a statement, innermost first."""
        chain = []
        opener = self.a.enclosing[index] if index < self.n else None
        while opener is not None:
            chain.append(opener)
            opener = self.a.enclosing[opener]
        return chain

    # ----------------------------------------------------------------- successors

    def successors(self, index: int) -> list[int]:
        """Where control can go after statement `index` (not into GOSUBs: a GOSUB's
        successor is the statement after it, where its RETURN comes back).  In a program
        that traps errors, also the handlers (any statement may fail), and anywhere after
        a RESUME."""
        if not self.a.error_handlers:
            return self._successors(index)
        if isinstance(self.stmts[index], ast.Resume):
            return sorted({self.flow_to(i) for i in range(self.n)})
        handlers = [self.flow_to(h) for h in sorted(self.a.error_handlers)]
        return self._successors(index) + handlers

    def _successors(self, index: int) -> list[int]:
        a = self.a
        stmt = self.stmts[index]
        if isinstance(stmt, ast.RaiseError):
            return []
        if isinstance(stmt, ast.Goto):
            return [self.target(stmt.target)]
        if isinstance(stmt, ast.OnGoto) and not stmt.gosub:
            targets = [self.target(t) for t in stmt.targets]
            if a.options.strict:
                return targets  # out of range is fatal
            return targets + [self.flow_to(index + 1)]  # Microsoft BASIC goes on
        if isinstance(stmt, (ast.Return, ast.End, ast.Stop)) or index in a.loop_faults:
            return []
        if isinstance(stmt, ast.For):
            return [self.flow_to(index + 1), self.flow_to(a.next_of(index) + 1)]
        if isinstance(stmt, ast.Next):
            return [self.flow_to(a.for_of(index) + 1), self.flow_to(index + 1)]
        if isinstance(stmt, ast.While):
            return [self.flow_to(index + 1), self.flow_to(a.while_wend[index] + 1)]
        if isinstance(stmt, ast.Wend):
            return [a.wend_while[index]]
        if isinstance(stmt, (ast.IfBlock, ast.ElseIf)):
            return [self.flow_to(index + 1), self.false_target(index)]
        return [self.flow_to(index + 1)]

    def gosub_targets(self, index: int) -> list[int]:
        stmt = self.stmts[index]
        if isinstance(stmt, ast.Gosub):
            return [self.target(stmt.target)]
        if isinstance(stmt, ast.OnGoto) and stmt.gosub:
            return [self.target(t) for t in stmt.targets]
        return []

    def reach(self, start: int) -> set[int]:
        """Statements reachable from `start` (GOSUBs continue after themselves)."""
        seen: set[int] = set()
        work = [start]
        while work:
            i = work.pop()
            if i >= self.n or i in seen:
                continue
            seen.add(i)
            work.extend(self.successors(i))
        return seen

    # ----------------------------------------------------------------- labels

    def label(self, index: int) -> str:
        """The dispatch label of a statement: its line number, "300:2" for the second
        statement of line 300, "_7" for a statement on unnumbered source line 7."""
        return self._labels[index]

    def _make_labels(self) -> list[str]:
        labels = []
        seen: dict[str, int] = {}
        for stmt in self.stmts:
            base = str(stmt.label) if stmt.label is not None else f"_{stmt.coord.line}"
            count = seen[base] = seen.get(base, 0) + 1
            labels.append(base if count == 1 else f"{base}:{count}")
        return labels
