"""Pass: a legacy program as a host program tree (`transpiler.ir.hostir`).

`build_host_program(analysis)` turns the flat statement list into structured control
flow where the jumps allow it, and into dispatch loops over labelled blocks where they
do not.  Correctness first: every rule below only fires when it provably keeps the
program's meaning, and anything else falls back to a dispatch loop.

Procedures (structure_procs.py): GOSUB targets whose code is entered only by GOSUB and
left only by RETURN become `Subroutine` functions, called with `Call`; the main program
is everything else.  Each procedure is structured on its own.

Inside a procedure the textual blocks come first: the front end guarantees that nothing
jumps into a FOR, WHILE or IF block from outside it, so each block is one *item* of the
sequence around it and its body is a sequence of its own (structure_items.py).  A
sequence is structured left to right:

- a kept FOR block is a `ForLoop`, WHILE a `WhileLoop`, a block IF an `If`;
- inside a loop, a GOTO to its NEXT / WEND is `Continue`, to the statement after it
  `Break`; a GOTO to an END or STOP line (or past the last line) is `EndProgram`;
- a backward GOTO from a later item to item p makes the items from p to the last such
  GOTO a loop (`WhileLoop` with no statement: `while True`, or `while not c` when it
  starts with `IF c THEN <after the loop>`), provided nothing else jumps into it;
- `IF c THEN 200` (an IF whose only branch ends with GOTO 200) skipping forward over
  items that nothing else enters is `if not c: <those items>`, or `if c: ... else:
  <those items>`; and if the skipped items end with `GOTO 300` over a second group,
  the two groups are the two branches (`if c: <second> else: <first>`);
- a GOTO that none of these rules explain is a *failure*: the pass then lowers the
  loops it jumps out of (their FOR / NEXT, WHILE / WEND, IF / ELSE become explicit
  tests and jumps: `ForInit`, `ForNext`...), or groups the items around the jump and
  its target into a `Dispatch` (the smallest range of items that no other jump enters
  or leaves), and starts the procedure again.  A jump between two branches of one
  block IF lowers that IF.  Every restart lowers a block or widens a dispatch, so this
  ends; a procedure that is all one dispatch loop always works.

GOSUBs to targets that are not structured subroutines, and their RETURNs, are jumps
through a return stack (`GosubJump`, `ReturnJump`), which puts them in the main
program's dispatch loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...errors import InternalError
from ...ir import ast, hostir
from ...ir.model import MAX_BLOCK_DEPTH, Analysis, type_of_name
from ...language.expr_facts import has_effects, signed_number
from ...language.semantics import is_truth_value
from ...runtime.gwerrors import RESUME_WITHOUT_ERROR, gw_message
from . import host_facts
from .structure_dataflow import Dataflow
from .structure_flow import Flow
from .structure_items import Item, ItemBuilder, Sequence
from .structure_procs import Procedures, find_procedures, sequence_range

# A FOR loop becomes `for ... in range(...)` only with integer constants this small (its
# values stay exact as Python ints, and as float32 with --precision f32).
_RANGE_LIMIT = {"f64": 2**31, "f32": 2**24}


def build_host_program(analysis: Analysis) -> hostir.HostProgram:
    flow = Flow(analysis)
    procs = find_procedures(flow)
    if analysis.traps_errors:
        procs = _all_in_main(procs)
    dataflow = Dataflow(flow, procs)
    names = {entry: subroutine_name(flow, entry) for entry in procs.subs}
    subroutines = []
    main_writes: set[str] = set()
    for i in procs.main:
        main_writes |= dataflow.writes[i]
    needs_binding: set[str] = set()
    for entry, region in procs.subs.items():
        body = _Procedure(flow, procs, dataflow, names, entry, region, in_sub=True).build()
        assigns = set()
        for i in region:
            assigns |= dataflow.writes[i]
        needs_binding |= assigns - main_writes
        stmt = flow.stmts[entry]
        subroutines.append(hostir.Subroutine(names[entry], stmt.label, body, sorted(assigns)))
    main = _Procedure(flow, procs, dataflow, names, procs.main_entry, procs.main, in_sub=False)
    body = main.build()
    nodes = list(hostir.walk(body))
    for sub in subroutines:
        nodes += list(hostir.walk(sub.body))
    initialized = dataflow.live_at(procs.main_entry) | needs_binding
    host = hostir.HostProgram(
        analysis=analysis,
        body=body,
        subroutines=subroutines,
        uses_dispatch=any(isinstance(n, hostir.Dispatch) for n in nodes),
        initialized=sorted(initialized),
        return_stack=any(isinstance(n, (hostir.GosubJump, hostir.OnGosubJump)) for n in nodes),
    )
    host_facts.annotate(host)
    return host


def _all_in_main(procs: Procedures) -> Procedures:
    """A program that traps errors is one dispatch loop: the handler and RESUME jump
    between any two statements, subroutines included (their GOSUBs use the return
    stack)."""
    main = set(procs.main)
    for region in procs.subs.values():
        main |= region
    stacked = procs.stacked | set(procs.subs)
    return Procedures(procs.main_entry, main, {}, stacked, procs.regions)


def subroutine_name(flow: Flow, entry: int) -> str:
    return "gosub_" + flow.label(entry).replace(":", "_").lstrip("_")


# --------------------------------------------------------------------------- nesting depth

# Python indentation levels that a node's body sits below the node: a dispatch loop's
# blocks are `case`s of a `match` inside a `while True`.
_LEVELS = {hostir.ForLoop: 1, hostir.WhileLoop: 1, hostir.If: 1, hostir.Dispatch: 3}
_NO_BLOCK = -1


def _bodies(node: hostir.HNode) -> list[list[hostir.HNode]]:
    if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
        return [node.body]
    if isinstance(node, hostir.If):
        return [body for _, body in node.arms] + ([node.else_body] if node.else_body else [])
    if isinstance(node, hostir.Dispatch):
        return [block.body for block in node.blocks]
    return []


def _height(nodes: list[hostir.HNode], memo: dict[int, int]) -> int:
    """The indentation levels of the deepest block in `nodes` (0: none)."""
    most = 0
    for node in nodes:
        levels = _LEVELS.get(type(node))
        if levels is None:
            continue
        if id(node) not in memo:
            memo[id(node)] = levels + max((_height(b, memo) for b in _bodies(node)), default=0)
        most = max(most, memo[id(node)])
    return most


def _too_deep(body: list[hostir.HNode], stmts: list[ast.Stmt]) -> int | None:
    """None if `body` nests at most MAX_BLOCK_DEPTH levels of Python blocks; else the
    opener of the outermost BASIC block on a path that nests deeper (lowering it to
    explicit jumps, and then the next one, shortens the path), or _NO_BLOCK when only
    loops made from GOTOs lie on it."""
    memo: dict[int, int] = {}
    if _height(body, memo) <= MAX_BLOCK_DEPTH:
        return None
    index = {id(stmt): i for i, stmt in enumerate(stmts)}
    depth, nodes = 0, body
    while True:
        deep = next(
            (n for n in nodes if _LEVELS.get(type(n)) and depth + memo[id(n)] > MAX_BLOCK_DEPTH),
            None,
        )
        if deep is None:
            return _NO_BLOCK
        opener = index.get(id(deep.stmt if isinstance(deep, hostir.ForLoop) else deep.origin))
        textual = (
            isinstance(deep, hostir.ForLoop)
            or (isinstance(deep, hostir.WhileLoop) and isinstance(deep.origin, ast.While))
            or (isinstance(deep, hostir.If) and isinstance(deep.origin, ast.IfBlock))
        )
        if textual and opener is not None:
            return opener
        depth += _LEVELS[type(deep)]
        nodes = max(_bodies(deep), key=lambda b: _height(b, memo))


# --------------------------------------------------------------------------- restarts


class _Restart(Exception):
    """The current plan cannot express a jump: lower these blocks and/or make these
    pairs of statements share a dispatch loop, then start the procedure again."""

    def __init__(self, lower=(), seeds=(), why: str = "", stronger=()):
        super().__init__(why)
        self.lower = set(lower)
        self.seeds = set(seeds)
        # blocks to lower if this restart changes nothing
        self.stronger = set(stronger)


@dataclass
class _Plan:
    lowered: set[int] = field(default_factory=set)  # openers of blocks lowered to jumps
    seeds: set[tuple[int, int]] = field(default_factory=set)  # (statement, statement)
    everything: bool = False  # the fallback: one dispatch loop for the whole procedure

    def apply(self, restart: _Restart) -> bool:
        before = (len(self.lowered), len(self.seeds))
        self.lowered |= restart.lower
        self.seeds |= restart.seeds
        return (len(self.lowered), len(self.seeds)) != before


@dataclass(frozen=True)
class _Ctx:
    """What a jump can become where it stands (between it and the procedure, the Python
    loops decide: `break` and `continue` reach only the innermost one)."""

    continues: frozenset[int] = frozenset()  # targets that are `continue` of the loop
    brk: int | None = None  # the target that is `break`
    labels: dict | None = None  # in a dispatch loop: statement -> label
    dispatch_exit: int | None = None  # ... and the statement after the dispatch loop
    # A `continue` here costs a copy of the NEXT (a FOR loop that is not a Python
    # `for`): `IF c THEN <the NEXT>` reads better as `if not c: <the rest>`.
    skip_to_next: bool = False


# --------------------------------------------------------------------------- one procedure


class _Procedure:
    def __init__(
        self,
        flow: Flow,
        procs: Procedures,
        dataflow: Dataflow,
        names: dict[int, str],
        entry: int,
        members: set[int],
        in_sub: bool,
    ):
        self.flow = flow
        self.a = flow.a
        self.stmts = flow.stmts
        self.procs = procs
        self.dataflow = dataflow
        self.names = names
        self.entry = entry
        self.members = members
        self.in_sub = in_sub
        self.stacked_targets = set() if in_sub else set(procs.stacked)
        # (a subroutine has none: asking each one about every GOSUB would be quadratic)
        self.stacked_gosubs = [
            g
            for g in (flow.gosubs if self.stacked_targets else ())
            if g in members and any(t in self.stacked_targets for t in flow.gosub_targets(g))
        ]
        self.return_points = sorted({flow.flow_to(g + 1) for g in self.stacked_gosubs})
        self.plan = _Plan()

    def build(self) -> list[hostir.HNode]:
        if self.a.traps_errors:
            self._everything()  # one dispatch loop, a block per statement (see dispatch)
        for _ in range(10 * len(self.members) + 20):
            self.items = ItemBuilder(
                self.flow,
                self.members,
                self.plan.lowered,
                self.stacked_targets,
                self.return_points,
            )
            try:
                body = self._attempt()
            except _Restart as restart:
                if not self.plan.apply(restart) and not self._stronger(restart):
                    if self.plan.everything:
                        raise InternalError(f"cannot structure the program ({restart})") from None
                    self._everything()
                continue
            opener = _too_deep(body, self.stmts)
            if opener is None or self.plan.everything:
                return body
            if opener == _NO_BLOCK:
                self._everything()
            else:
                self.plan.lowered.add(opener)
                self.plan.seeds.add((opener, self.flow.closer(opener)))
        raise InternalError("the host structuring does not converge")

    def _stronger(self, restart: _Restart) -> bool:
        new = restart.stronger - self.plan.lowered
        self.plan.lowered |= new
        self.plan.seeds |= {(o, self.flow.closer(o)) for o in new}
        return bool(new)

    def _everything(self) -> None:
        """The fallback: every block lowered, one dispatch loop over the procedure."""
        self.plan.everything = True
        self.plan.lowered |= {i for i in self.members if self.flow.is_opener(i)}

    def _attempt(self) -> list[hostir.HNode]:
        lo, hi = sequence_range(self.flow, self.entry) if self.in_sub else (0, self.flow.n)
        if hi >= self.flow.n:
            exit = self.flow.n
        elif isinstance(self.stmts[hi], (ast.Next, ast.Wend)):
            exit = hi
        else:
            exit = self.flow.flow_to(hi)
        return self.sequence(lo, hi, exit, _Ctx(), top=True)

    # ----------------------------------------------------------------- sequences

    def sequence(self, lo: int, hi: int, exit: int, ctx: _Ctx, top: bool = False) -> list:
        seq = self.items.build(lo, hi, exit)
        entry = None
        if top and seq.items and (seq.items[0].index != self.entry or self.plan.everything):
            entry = self.entry
        seq = self._group(seq, entry)
        nodes = self.structure(seq, 0, len(seq.items), ctx)
        return nodes + self.comments(seq.trailing)

    def _group(self, seq: Sequence, entry: int | None) -> Sequence:
        """Replace the ranges of items that must share a dispatch loop by one item each."""
        count = len(seq.items)
        ranges: list[list[int]] = []
        for a, b in self.plan.seeds:
            pa = seq.item_holding(a)
            pb = seq.position_of(b)
            if pb is None:
                pb = seq.item_holding(b)
            if pa is None or pb is None or (pa == pb and pb < count):
                continue
            ranges.append([min(pa, pb), min(max(pa, pb), count - 1)])
        if entry is not None and count:
            ranges.append([0, count - 1])
        if not ranges:
            return seq
        ranges = self._close(seq, ranges)
        items: list[Item] = []
        p = 0
        for lo, hi in ranges:
            items.extend(seq.items[p:lo])
            parts = seq.items[lo : hi + 1]
            inside = {part.index for part in parts if part.is_target}
            group = Item("dispatch", parts[0].index, parts[-1].last, parts=parts)
            group.target = entry if (entry is not None and lo == 0) else parts[0].index
            group.edges = [e for part in parts for e in part.edges if e[1] not in inside]
            items.append(group)
            p = hi + 1
        items.extend(seq.items[p:])
        return Sequence(seq.lo, seq.hi, seq.exit, items, seq.trailing)

    def _close(self, seq: Sequence, ranges: list[list[int]]) -> list[list[int]]:
        """Grow the ranges until no jump enters one except at its first item and none
        leaves one except to the item just after it (or out of the sequence).  Jumps
        to END lines need nothing: they end the program from anywhere."""
        count = len(seq.items)
        edges = [
            (p, seq.position_of(t))
            for p, item in enumerate(seq.items)
            for _, t in item.edges
            if not self.flow.is_end(t)
        ]
        changed = True
        while changed:
            changed = False
            ranges.sort()
            merged: list[list[int]] = []
            for r in ranges:
                if merged and r[0] <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], r[1])
                else:
                    merged.append(r)
            ranges = merged
            for r in ranges:
                for p, tp in edges:
                    if tp is None:
                        continue
                    if r[0] <= p <= r[1]:
                        if tp == count and r[1] != count - 1:
                            r[1] = count - 1
                            changed = True
                        elif tp < r[0]:
                            r[0] = tp
                            changed = True
                        elif r[1] + 1 < tp < count:
                            r[1] = tp - 1
                            changed = True
                    elif r[0] < tp <= r[1]:
                        r[0], r[1] = min(r[0], p), max(r[1], p)
                        changed = True
        return ranges

    # ----------------------------------------------------------------- structuring

    def structure(
        self, seq: Sequence, lo: int, hi: int, ctx: _Ctx, head_comments: bool = True
    ) -> list[hostir.HNode]:
        """The nodes for items [lo, hi) of `seq`, continuing at position hi."""
        out: list[hostir.HNode] = []
        p = lo
        while p < hi:
            item = seq.items[p]
            if p > lo or head_comments:
                out.extend(self.comments(item.comments))
            if item.kind == "dispatch":
                out.append(self.dispatch(seq, p, ctx))
                p += 1
                continue
            loop = self.loop_at(seq, p, hi, ctx)
            if loop is not None:
                node, p = loop
                out.append(node)
                continue
            nodes, p = self.item(seq, p, hi, ctx)
            out.extend(nodes)
        return out

    def entries(self, seq: Sequence, lo: int, hi: int, skip=()) -> list:
        """Jumps into positions [lo, hi) from outside them (as (position, source,
        target)); `skip`: positions whose jumps do not count."""
        skip = {skip} if isinstance(skip, int) else set(skip)
        return [
            (p, source, target)
            for p, source, target in seq.edges_into(lo, hi)
            if not (lo <= p < hi or p in skip) and not self.flow.is_end(target)
        ]

    def loop_at(self, seq: Sequence, p: int, hi: int, ctx: _Ctx):
        """A loop made by backward GOTOs to item p, if there is one: (node, next p)."""
        head = seq.items[p]
        if not head.is_target or head.index in ctx.continues or head.kind == "end":
            return None
        sources = seq.sources_of(head.index)  # positions, ascending
        if not sources or sources[-1] < p:
            return None
        last = sources[-1]
        if last >= hi:
            self.fail_range(seq, p, last, "a loop entered from outside")
        outside = self.entries(seq, p + 1, last + 1)
        if outside:
            q = outside[0][0]
            self.fail_range(seq, min(p, q), max(last, q), "a jump into a loop")
        after = seq.statement_at(last + 1)
        body_ctx = _Ctx(continues=frozenset({head.index}), brk=after)
        body = self.structure(seq, p, last + 1, body_ctx, head_comments=False)
        if body and isinstance(body[-1], hostir.Continue):
            body.pop()
        elif not hostir.terminates(body):
            body.append(hostir.Break())
        condition = None
        first = body[0] if body else None
        if (
            isinstance(first, hostir.If)
            and len(first.arms) == 1
            and first.else_body is None
            and len(first.arms[0][1]) == 1
            and isinstance(first.arms[0][1][0], hostir.Break)
        ):
            condition = self.negate(first.arms[0][0])
            origin = first.origin
            body = body[1:]
            # A loop tested before each iteration is a WHILE loop: give it one, so that
            # every consumer of WhileLoop.stmt sees its test.
            stmt = ast.While(condition, coord=origin.coord, label=origin.label)
            return hostir.WhileLoop(stmt, body, condition, origin=origin), last + 1
        origin = self.stmts[self._last_source(seq.items[last], head.index)]
        return hostir.WhileLoop(None, body, None, origin=origin), last + 1

    @staticmethod
    def _last_source(item: Item, target: int) -> int:
        return max(source for source, t in item.edges if t == target)

    def item(self, seq: Sequence, p: int, hi: int, ctx: _Ctx):
        """The nodes of item p and the position after what they cover."""
        item = seq.items[p]
        stmt = self.stmts[item.index]
        kind = item.kind
        if kind == "goto":
            if item.target == seq.statement_at(p + 1) or (
                p + 1 == hi and item.target == seq.statement_at(hi)
            ):
                return [], p + 1  # a GOTO to where control goes anyway
            node = self.translate(item.target, ctx)
            if node is None:
                self.fail_jump(item.index, item.target)
            node.origin = stmt
            return [node], p + 1
        if kind == "block" and isinstance(stmt, ast.IfBlock):
            skip = self.skip_forward(seq, p, hi, ctx)
            if skip is not None:
                return skip
        return self.node(item, ctx), p + 1

    def node(self, item: Item, ctx: _Ctx) -> list[hostir.HNode]:
        """The nodes of one item in any context (no pattern spanning several items)."""
        k = item.index
        stmt = self.stmts[k]
        kind = item.kind
        if kind == "stmt":
            return [self.simple(k, stmt, ctx)]
        if kind == "goto":
            return [self.jump(k, item.target, ctx)]
        if kind == "on_goto":
            targets = [self.label_of(k, self.flow.target(t), ctx) for t in stmt.targets]
            falls = not self.a.options.strict
            return [hostir.OnJump(stmt.selector, targets, falls, origin=stmt)]
        if kind == "loop_fault":
            for_stmt = stmt if isinstance(stmt, ast.For) else None
            line = self.a.loop_fault_line.get(k)
            return [hostir.LoopFault(for_stmt, self.a.loop_faults[k], line, origin=stmt)]
        if kind == "return":
            return [self.return_node(k, stmt, ctx)]
        if kind == "end":
            return [hostir.EndProgram(self._stop_line(k), origin=stmt)]
        if kind == "resume":
            if not self.a.traps_errors:  # no handler can be running
                return [hostir.LoopFault(None, gw_message(RESUME_WITHOUT_ERROR), origin=stmt)]
            target = self.label_of(k, self.flow.target(stmt.target), ctx) if stmt.target else None
            return [hostir.ResumeJump(stmt.mode, target, origin=stmt)]
        if kind == "block":
            return [self.block(k, ctx)]
        return self.piece(item, ctx)

    # ----------------------------------------------------------------- statements

    def simple(self, k: int, stmt: ast.Stmt, ctx: _Ctx) -> hostir.HNode:
        if isinstance(stmt, ast.OnError) and self.a.traps_errors:
            handler = self.flow.target(stmt.target) if stmt.target is not None else None
            label = self.label_of(k, handler, ctx) if handler is not None else None
            return hostir.OnErrorGoto(label, origin=stmt)
        if isinstance(stmt, ast.Gosub) or (isinstance(stmt, ast.OnGoto) and stmt.gosub):
            targets = self.flow.gosub_targets(k)
            if all(t in self.names for t in targets):
                subs = [self.names[t] for t in targets]
                if isinstance(stmt, ast.Gosub):
                    return hostir.Call(subs[0], origin=stmt)
                return hostir.OnGosub(stmt.selector, subs, origin=stmt)
            back = self.label_of(k, self.flow.flow_to(k + 1), ctx)
            labels = [self.label_of(k, t, ctx) for t in targets]
            if isinstance(stmt, ast.Gosub):
                return hostir.GosubJump(labels[0], back, origin=stmt)
            falls = not self.a.options.strict
            return hostir.OnGosubJump(stmt.selector, labels, back, falls, origin=stmt)
        return hostir.Simple(stmt, origin=stmt)

    def return_node(self, k: int, stmt: ast.Stmt, ctx: _Ctx) -> hostir.HNode:
        if self.in_sub:
            return hostir.Return(origin=stmt)
        for point in self.return_points:
            self.label_of(k, point, ctx)  # every return point must be a label here
        return hostir.ReturnJump(origin=stmt)

    def jump(self, source: int, target: int, ctx: _Ctx) -> hostir.HNode:
        node = self.translate(target, ctx)
        if node is None:
            self.fail_jump(source, target)
        node.origin = self.stmts[source]
        return node

    def label_of(self, source: int, target: int, ctx: _Ctx) -> str | None:
        """The dispatch label of a jump target (None: the dispatch loop's exit)."""
        if ctx.labels is not None:
            if target in ctx.labels:
                return ctx.labels[target]
            if target == ctx.dispatch_exit:
                return None
        self.fail_jump(source, target)

    def translate(self, target: int, ctx: _Ctx) -> hostir.HNode | None:
        """What a jump to `target` becomes here, if it can be expressed."""
        if target in ctx.continues:
            return hostir.Continue()
        if target == ctx.brk:
            return hostir.Break()
        if ctx.labels is not None:
            if target in ctx.labels:
                return hostir.Jump(ctx.labels[target])
            if target == ctx.dispatch_exit:
                return hostir.Jump(None)
        if self.flow.is_end(target):
            return hostir.EndProgram(self._stop_line(target))
        return None

    def _stop_line(self, index: int) -> str | None:
        """What Microsoft BASIC's STOP at `index` reports ("Break in 100"), if it is one."""
        if not self.a.options.microsoft or index >= len(self.stmts):
            return None
        stmt = self.stmts[index]
        if not isinstance(stmt, ast.Stop):
            return None
        return str(stmt.label) if stmt.label is not None else ""

    def comments(self, indices: list[int]) -> list[hostir.HNode]:
        return [hostir.Simple(self.stmts[i], origin=self.stmts[i]) for i in indices]

    # ----------------------------------------------------------------- blocks

    def block(self, opener: int, ctx: _Ctx) -> hostir.HNode:
        flow, a = self.flow, self.a
        stmt = self.stmts[opener]
        closer = flow.closer(opener)
        if isinstance(stmt, ast.For):
            steady = stmt.var.name not in self.dataflow.assigned_between(opener + 1, closer)
            counted = steady and self.counted(opener, closer)
            body_ctx = _Ctx(
                continues=frozenset({closer}),
                brk=flow.flow_to(closer + 1),
                skip_to_next=not counted,
            )
            body = self.sequence(opener + 1, closer, closer, body_ctx)
            ends = steady and _moves_to_constant_limit(stmt, a.number_type)
            return hostir.ForLoop(stmt, body, opener, closer, counted, steady, ends, origin=stmt)
        if isinstance(stmt, ast.While):
            body_ctx = _Ctx(continues=frozenset({closer, opener}), brk=flow.flow_to(closer + 1))
            body = self.sequence(opener + 1, closer, closer, body_ctx)
            do = a.lowered_from.get(opener)
            if isinstance(do, ast.Do) and do.condition is None:
                return hostir.WhileLoop(None, body, origin=stmt)  # DO ... LOOP: `while True`
            return hostir.WhileLoop(stmt, body, origin=stmt)
        after = flow.flow_to(closer + 1)
        arms = []
        else_body = None
        for arm in flow.arms(opener):
            head = self.stmts[arm.head]
            body = self.sequence(arm.lo, arm.hi, after, ctx)
            if isinstance(head, ast.Else):
                else_body = body
            else:
                arms.append((head.condition, body))
        del a
        return hostir.If(arms, else_body, origin=stmt)

    def counted(self, opener: int, closer: int) -> bool:
        stmt: ast.For = self.stmts[opener]
        name = stmt.var.name
        if type_of_name(name) != "num":
            return False
        limit = _RANGE_LIMIT[self.a.number_type]
        values = [signed_number(stmt.start), signed_number(stmt.limit)]
        values.append(signed_number(stmt.step) if stmt.step is not None else 1.0)
        if any(v is None or v != int(v) or abs(v) > limit for v in values) or values[2] == 0:
            return False
        return name not in self.dataflow.live_at(self.flow.flow_to(closer + 1))

    def skip_forward(self, seq: Sequence, p: int, hi: int, ctx: _Ctx):
        """`IF c THEN 200` (an IF with one branch that ends with GOTO 200) over items
        that nothing else enters: an If whose else branch is those items.  A chain of
        such IFs whose targets are blocks ending with GOTO to one place is an
        if / elif / else (see `if_chain`)."""
        first = self.goto_if(seq, p, hi, ctx)
        if first is None:
            return None
        stmt, arm, target, q, only_goto = first
        if only_goto:
            chain = self.if_chain(seq, p, hi, ctx)
            if chain is not None:
                return chain
        if self.entries(seq, p + 1, q, skip=p):
            return None
        then_body = self.sequence(arm.lo, arm.hi, target, ctx)
        else_part = self.structure(seq, p + 1, q, ctx)
        return [self.if_node(stmt, then_body, else_part)], q

    def goto_if(self, seq: Sequence, p: int, hi: int, ctx: _Ctx):
        """If item p is an IF with one branch ending with a forward GOTO to position q
        in (p, hi] that is not a break or continue here: (IF statement, its branch,
        target statement, q, whether the GOTO is all the branch holds)."""
        item = seq.items[p]
        if item.kind != "block" or not isinstance(self.stmts[item.index], ast.IfBlock):
            return None
        opener = item.index
        parts = self.a.if_parts[opener]
        if parts.elseifs or parts.else_index is not None:
            return None
        arm = self.flow.arms(opener)[0]
        arm_items = self.items.build(arm.lo, arm.hi, self.flow.flow_to(arm.hi)).items
        if not arm_items or arm_items[-1].kind != "goto":
            return None
        target = arm_items[-1].target
        node = self.translate(target, ctx)
        if node is not None and not (isinstance(node, hostir.Continue) and ctx.skip_to_next):
            return None
        q = seq.position_of(target)
        if q is None or not p < q <= hi or (q == len(seq.items) and q != hi):
            return None
        only_goto = len(arm_items) == 1 and not arm_items[0].comments
        return self.stmts[opener], arm, target, q, only_goto

    def if_chain(self, seq: Sequence, p: int, hi: int, ctx: _Ctx):
        """IFs `IF c1 THEN t1`, `IF c2 THEN t2`... in a row, then a default block ending
        with GOTO e, and each target's block (in text order) ending with GOTO e (the
        last one may fall into e), nothing else entering any of them:
        `if c1: <t1 block> elif c2: <t2 block> ... else: <default>`."""
        run = []
        members: dict[int, set[int]] = {}  # target position -> the run items jumping there
        k = p
        while k < hi:
            found = self.goto_if(seq, k, hi, ctx)
            if found is None or not found[4] or (run and seq.items[k].comments):
                break
            if run and run[-1][1][3] == found[3]:
                # `IF a THEN 100` then `IF b THEN 100`: `IF a OR b THEN 100` when b has no
                # effects (BASIC's OR evaluates b even if a is true; that is unobservable)
                if has_effects(found[0].condition):
                    return None
                previous = run[-1][1]
                merged = ast.BinOp("OR", _condition(previous[0], previous), found[0].condition)
                merged.coord = previous[0].coord
                self.a.expr_types[merged] = "int"
                run[-1] = (
                    run[-1][0],
                    (previous[0], previous[1], previous[2], previous[3], True, merged),
                )
                members[found[3]].add(k)
                k += 1
                continue
            run.append((k, found))
            members.setdefault(found[3], set()).add(k)
            k += 1
        if not run:
            return None
        # IFs to the statement right after the run go to the default block: with pure
        # conditions they fold into the others' (`IF a THEN d`, `IF b THEN 200`, d: ...
        # is `if not a and b: <200 block> else: <d block>`).
        if any(found[3] == k for _, found in run):
            if len(run) < 2 or any(has_effects(_condition(f[0], f)) for _, f in run):
                return None
            return self._chain_with_defaults(seq, k, hi, ctx, run, members)
        return self._plain_chain(seq, k, hi, ctx, run, members)

    def _plain_chain(self, seq, k, hi, ctx, run, members):
        """The chain without IFs to the default block (see `if_chain`)."""
        starts = sorted(found[3] for _, found in run)
        if len(set(starts)) != len(starts) or starts[0] <= k:
            return None  # two IFs to one place, or no default block
        default_goto = seq.items[starts[0] - 1]
        if default_goto.kind != "goto":
            return None
        end = seq.position_of(default_goto.target)
        if end is None or not starts[-1] <= end <= hi or (end == len(seq.items) and end != hi):
            return None
        if self.entries(seq, k, starts[0], skip=set().union(*members.values())):
            return None
        bodies = {}
        for n, q in enumerate(starts):
            stop = starts[n + 1] if n + 1 < len(starts) else end
            if self.entries(seq, q, stop, skip=members[q]):
                return None
            last = seq.items[stop - 1] if stop > q else None
            if last is not None and last.kind == "goto" and last.target == default_goto.target:
                bodies[q] = self.structure(seq, q, stop - 1, ctx) + self.comments(last.comments)
            elif n + 1 < len(starts):
                return None  # a block that falls into the next one
            else:
                bodies[q] = self.structure(seq, q, stop, ctx)
        default = self.structure(seq, k, starts[0] - 1, ctx) + self.comments(default_goto.comments)
        arms = [(_condition(found[0], found), bodies[found[3]]) for _, found in run]
        origins = [found[0] for _, found in run]
        node = hostir.If(arms, default or None, origin=origins[0], origins=origins)
        return [node], end

    def _chain_with_defaults(self, seq, k, hi, ctx, run, members):
        """An IF chain some of whose IFs go to the default block (right after the run,
        position k); all conditions are pure, so they may be combined freely.  Handled:
        one other IF, last in the run, jumping to where the default block ends
        (`IF a THEN d`, `IF b THEN e`, d: ... e:  ->  `if a or not b: <d..e>`); and
        other IFs with blocks of their own, whose conditions then include `not a` for
        each default IF before them."""
        others = [(pos, found) for pos, found in run if found[3] != k]
        if len(others) == 1 and others[0][0] == run[-1][0]:
            last = others[0][1]
            end = last[3]
            tail = seq.items[end - 1]
            falls = tail.kind != "goto" or tail.target == seq.statement_at(end)
            if falls and end <= hi and not self.entries(seq, k, end, skip=range(run[0][0], k)):
                terms = [_condition(f[0], f) for _, f in run[:-1]]
                terms.append(self.negate(_condition(last[0], last)))
                condition = terms[0]
                for term in terms[1:]:
                    condition = self._logic("OR", condition, term)
                body = self.structure(seq, k, end, ctx)
                return [hostir.If([(condition, body)], origin=run[0][1][0])], end
        guarded = []
        defaults: list[ast.Expr] = []
        for pos, found in run:
            condition = _condition(found[0], found)
            if found[3] == k:
                defaults.append(condition)
                continue
            for earlier in reversed(defaults):
                condition = self._logic("AND", self.negate(earlier), condition)
            guarded.append((pos, found[:4] + (True, condition)))
        for q in members:
            members[q] = set(range(run[0][0], k))  # every IF of the run may lead anywhere
        chain = self._plain_chain(seq, k, hi, ctx, guarded, members)
        if chain is not None:
            chain[0][0].origin = run[0][1][0]
        return chain

    def _logic(self, op: str, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        node = ast.BinOp(op, left, right, coord=left.coord)
        self.a.expr_types[node] = "int"
        return node

    def if_node(self, stmt: ast.IfBlock, then_part: list, else_part: list) -> hostir.If:
        if not then_part and else_part:
            return hostir.If([(self.negate(stmt.condition), else_part)], origin=stmt)
        return hostir.If([(stmt.condition, then_part)], else_part or None, origin=stmt)

    def negate(self, condition: ast.Expr) -> ast.Expr:
        """NOT c, as simple as exact: = and <> flip (IEEE != is exactly not ==), other
        comparisons keep a NOT (with NaN, not < is not >=).  In Microsoft BASIC NOT of a
        number is bitwise (NOT 1 is -2, true), so "c is false" is `c = 0` there unless c
        is a truth value (-1 or 0), where both NOTs agree."""
        microsoft = self.a.options.microsoft
        if isinstance(condition, ast.UnaryOp) and condition.op == "NOT":
            if not microsoft or is_truth_value(condition.operand):
                return condition.operand
        if isinstance(condition, ast.BinOp) and condition.op in ("=", "<>"):
            op = "<>" if condition.op == "=" else "="
            negated = ast.BinOp(op, condition.left, condition.right, coord=condition.coord)
        elif microsoft and not is_truth_value(condition):
            zero = ast.Num(0.0, "0", coord=condition.coord)
            self.a.expr_types[zero] = "num"
            negated = ast.BinOp("=", condition, zero, coord=condition.coord)
        else:
            negated = ast.UnaryOp("NOT", condition, coord=condition.coord)
        self.a.expr_types[negated] = "int"
        return negated

    # ----------------------------------------------------------------- dispatch loops

    def dispatch(self, seq: Sequence, p: int, ctx: _Ctx) -> hostir.Dispatch:
        group = seq.items[p]
        parts = group.parts
        inside = {part.index for part in parts if part.is_target}
        targets = {group.target}
        for part in parts:
            targets |= {t for _, t in part.edges if t in inside}
        targets |= {r for r in self.return_points if r in inside}
        if self.a.traps_errors:  # an error may leave any statement, a RESUME enter it
            targets |= inside
        labels = {t: self.flow.label(t) for t in targets}
        dctx = _Ctx(labels=labels, dispatch_exit=seq.statement_at(p + 1))
        blocks: list[hostir.Block] = []
        falls = False
        for part in parts:
            if part.is_target and part.index in labels:
                blocks.append(hostir.Block(labels[part.index], []))
            elif not blocks or not falls:
                continue  # never reached: after a jump, before the next label
            body = blocks[-1].body
            body.extend(self.comments(part.comments))
            nodes = self.node(part, dctx)
            body.extend(nodes)
            falls = not hostir.terminates(nodes)
        fallthrough: dict[str, str | None] = {}
        for n, block in enumerate(blocks):
            fallthrough[block.label] = blocks[n + 1].label if n + 1 < len(blocks) else None
        entry = labels[group.target]
        trap = self.trap_labels(labels) if self.a.traps_errors else None
        # No origin: the statements inside carry their own comments (the first one's
        # printed above the loop would locate its run-time errors on the line before).
        return hostir.Dispatch(entry, blocks, fallthrough, trap)

    def trap_labels(self, labels: dict[int, str]) -> hostir.TrapLabels:
        """Where RESUME NEXT goes on after each block (a statement) of the dispatch loop
        of a program that traps errors.  A statement no RESUME can reach has no label:
        its entry is None, as past the last line."""
        after = {}
        for k, label in labels.items():
            following = self.flow.flow_to(self.a.statement_after(k))
            after[label] = labels.get(following)
        return hostir.TrapLabels(after)

    def piece(self, item: Item, ctx: _Ctx) -> list[hostir.HNode]:
        """A piece of a lowered block (always inside a dispatch loop)."""
        flow, a = self.flow, self.a
        k = item.index
        stmt = self.stmts[k]
        if item.kind == "for_init":
            exit = self.label_of(k, flow.flow_to(a.next_of(k) + 1), ctx)
            stack = k in a.dynamic_for
            loop = flow.label(k) if stack else ""
            return [hostir.ForInit(stmt, k, exit, stack, loop, origin=stmt)]
        if item.kind == "for_next":
            opener = a.for_of(k)
            body = self.label_of(k, flow.flow_to(opener + 1), ctx)
            stack = k in a.dynamic_next
            loop = flow.label(opener) if stack else ""
            return [hostir.ForNext(self.stmts[opener], opener, body, stack, loop, origin=stmt)]
        if item.kind == "while_test":
            exit = self.translate_or_fail(k, flow.flow_to(a.while_wend[k] + 1), ctx)
            return [hostir.If([(self.negate(stmt.condition), [exit])], origin=stmt)]
        if item.kind == "wend":
            return [self.jump(k, a.wend_while[k], ctx)]
        if item.kind == "if_test":
            other = self.translate_or_fail(k, flow.false_target(k), ctx)
            return [hostir.If([(self.negate(stmt.condition), [other])], origin=stmt)]
        if item.kind == "branch_end":
            return [self.jump(k, item.target, ctx)]
        raise InternalError(f"unknown item kind {item.kind}", stmt.coord)

    def translate_or_fail(self, source: int, target: int, ctx: _Ctx) -> hostir.HNode:
        node = self.translate(target, ctx)
        if node is None:
            self.fail_jump(source, target)
        return node

    # ----------------------------------------------------------------- failures

    def fail_jump(self, source: int, target: int):
        """A jump that cannot be expressed where it stands: lower the IF blocks it enters
        (only a loop on the run-time FOR stack does that), the loops it leaves (except a
        `break` of the outermost), else share a dispatch loop with its target."""
        flow = self.flow
        entered = []
        for o in flow.openers_around(target):
            if o in self.plan.lowered:
                continue
            if flow.contains(o, source) or o == source:
                break
            entered.append(o)
        if entered:
            seeds = {(o, flow.closer(o)) for o in entered} | {(source, target)}
            raise _Restart(lower=entered, seeds=seeds, why=f"jump {source}->{target} enters blocks")
        chain = [o for o in flow.openers_around(source) if o not in self.plan.lowered]
        loops = [
            o
            for o in chain
            if (o in self.a.for_next or o in self.a.while_wend) and not flow.contains(o, target)
        ]
        stronger = set(loops)
        if loops and target == flow.flow_to(flow.closer(loops[-1]) + 1):
            loops.pop()
        if loops:
            seeds = {(o, flow.closer(o)) for o in loops} | {(source, target)}
            raise _Restart(lower=loops, seeds=seeds, why=f"jump {source}->{target} leaves loops")
        for o in chain:
            if o in self.a.if_parts and flow.contains(o, target):
                if self._arm_of(o, source) != self._arm_of(o, target):
                    raise _Restart(
                        lower={o}, seeds={(o, flow.closer(o))}, why="jump across branches"
                    )
                break
        raise _Restart(seeds={(source, target)}, why=f"jump {source}->{target}", stronger=stronger)

    def _arm_of(self, opener: int, index: int) -> int | None:
        for arm in self.flow.arms(opener):
            if arm.head <= index < arm.hi:
                return arm.head
        return None

    def fail_range(self, seq: Sequence, pa: int, pb: int, why: str):
        raise _Restart(seeds={(seq.statement_at(pa), seq.statement_at(pb))}, why=why)


def _condition(stmt: ast.IfBlock, found: tuple = ()) -> ast.Expr:
    """The condition of a chain arm: merged ones (see `if_chain`) ride along in `found`."""
    return found[5] if len(found) > 5 else stmt.condition


def _moves_to_constant_limit(stmt: ast.For, number_type: str) -> bool:
    """Constant start and limit, and a constant step that surely changes the variable
    (stored in `number_type`; integral values for a `%` variable)."""
    values = [signed_number(stmt.start), signed_number(stmt.limit)]
    values.append(signed_number(stmt.step) if stmt.step is not None else 1.0)
    if any(v is None or not math.isfinite(v) for v in values):
        return False
    start, limit, step = values
    if type_of_name(stmt.var.name) != "num":
        return step != 0 and all(v == int(v) for v in values)
    # Far below the spacing of the numbers it is added to, a step changes nothing.
    bits = 20 if number_type == "f32" else 49
    return abs(step) >= math.ldexp(max(abs(start), abs(limit)), -bits) and step != 0
