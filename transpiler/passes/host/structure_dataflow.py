"""What the host structuring needs to know about simple variables: which ones a stretch
of code may assign, and which ones are live (may be read before being assigned again).

Used for two decisions: a FOR loop can be a Python `for ... in range(...)` only if its
variable is not assigned in the body and not read after the loop (where BASIC leaves it
one step past the limit), and the program initializes only the variables that may be
read before they are assigned.

The analysis is conservative: a GOSUB may go into its subroutine or straight on, and a
RETURN may come back after any GOSUB; a DEF FN call reads every variable the function's
body reads (directly or through other functions).
"""

from __future__ import annotations

from ...ir import ast
from .liveness import solve, statement_reads, statement_writes
from .structure_flow import Flow
from .structure_procs import Procedures, is_gosub


class Dataflow:
    def __init__(self, flow: Flow, procs: Procedures):
        self.flow = flow
        self.a = flow.a
        stmts = flow.stmts
        self.reads = [statement_reads(self.a, s) for s in stmts]
        self.writes = [statement_writes(s) for s in stmts]
        self._region_writes = self._subroutine_writes(procs)
        self._live = self._liveness()

    # ----------------------------------------------------------------- assignments

    def _subroutine_writes(self, procs: Procedures) -> dict[int, set[str]]:
        """GOSUB target -> variables its region (and what it calls) may assign."""
        flow = self.flow
        own = {
            t: set().union(*(self.writes[i] for i in region)) for t, region in procs.regions.items()
        }
        calls = {
            t: {c for i in region for c in flow.gosub_targets(i)}
            for t, region in procs.regions.items()
        }
        callers: dict[int, set[int]] = {}
        for t, called in calls.items():
            for c in called:
                callers.setdefault(c, set()).add(t)
        result = {t: set(w) for t, w in own.items()}
        work = list(result)  # a worklist over the callers of what grew
        while work:
            c = work.pop()
            for t in callers.get(c, ()):
                if not result[c] <= result[t]:
                    result[t] |= result[c]
                    work.append(t)
        return result

    def assigned_between(self, lo: int, hi: int) -> set[str]:
        """Variables statements [lo, hi) may assign, through GOSUBs too."""
        found: set[str] = set()
        for i in range(lo, hi):
            found |= self.writes[i]
            for t in self.flow.gosub_targets(i):
                found |= self._region_writes.get(t, set())
        return found

    # ----------------------------------------------------------------- liveness

    def _liveness(self) -> list[frozenset[str]]:
        flow = self.flow
        n = flow.n
        # Every RETURN may go back to every return point: one extra node, n, stands for
        # them all (RETURN -> n -> each return point), so the graph has as many edges as
        # RETURNs plus return points, not their product.  It reads and writes nothing,
        # so the live sets of the statements are the same.
        hub = n
        return_points = sorted({flow.flow_to(g + 1) for g in flow.gosubs})
        succ: list[list[int]] = []
        for i, stmt in enumerate(flow.stmts):
            out = [s for s in flow.successors(i) if s < n]
            if is_gosub(stmt):
                out += [t for t in flow.gosub_targets(i) if t < n]
            elif isinstance(stmt, ast.Return):
                out.append(hub)
            succ.append(out)
        succ.append([r for r in return_points if r < n])
        live = solve(succ, self.reads + [set()], self.writes + [set()])
        return live[:hub]

    def live_at(self, index: int) -> frozenset[str]:
        """Variables that may be read, before being assigned, from statement `index` on."""
        return self._live[index] if index < self.flow.n else frozenset()
