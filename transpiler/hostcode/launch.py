"""A kernel launch lowered to host code once, for both targets.

The offload pass replaces a parallel FOR loop by a `hostir.Launch` (or a
`hostir.Distributed` of several).  A launch is: the loop counts, the scratch arrays
(partial results, the flags of the blocks the kernel finished), the kernel if the
subscripts its tiles use are in range, then the finish steps (combining the blocks'
partial results in block order, the loop variables' final values), and the host's
replay of the iterations of the blocks the kernel left (hostir.Replay): BASIC's
exceptions are reported by host code, where and when the interpreter reports them.

`LaunchLowering` makes these decisions and builds host-code nodes (hostcode/nodes.py);
what differs between the targets is asked of `target` (the back end's part: how a
kernel is launched, how a device array is made, saved, restored and copied back, how a
BASIC expression is written) and of `target.syntax` (hostcode/syntax.py).  The target
provides: syntax, fresh(name), var(name), array(name), value(expr), double_value(expr),
store(text), number(value), tile(value), read_vars (or None), mat_shape(shape),
count(count, name, lowering), scratch(temp, name, size), kernel_launch(node, lowering),
save(arrays), restore(arrays), block_loop_names(), element_loop_names(),
sum_of_blocks(kind, var, temp), sums_fit(finish, temp), round_to_int(text),
extent(array, axis) (LaunchTarget's, by `syntax.extent`), array_arg(name).
"""

from __future__ import annotations

from ..ir import ast, hostir
from ..ir.naming import generated_name
from .nodes import (
    Block,
    Comment,
    Continue,
    Declare,
    ForEach,
    ForRange,
    Host,
    If,
    Line,
    Origin,
    Raw,
    Unless,
)
from .syntax import Layout, grouped
from .tile_names import tile_constants

_RESTORED = "A block met an exception: the arrays go back, the whole loop runs here"
_REPLAYED = "Blocks the kernel did not finish run here: BASIC reports their exceptions"


class LaunchLowering:
    def __init__(self, target):
        self.t = target
        self.s = target.syntax
        self.values: dict[str, str] = {}  # LoopCount / Temp name -> host name

    # ----------------------------------------------------------------- a launch

    def launch(self, node: hostir.Launch) -> list:
        """The counts and scratch arrays, the launch (if the subscripts its tiles use are
        in range), then the finish, or the host's replay of unfinished blocks."""
        self.values = {}
        out, launch = self.setup_and_launch(node)
        combine = [line for f in node.finish if f.combines for line in self.finish(f)]
        replay = node.replay
        if replay is None:
            out += launch + combine
        elif replay.done is None:  # every block finishes once the kernel runs
            out.append(If(self.launch_condition(node), launch + combine, self.replay(node)))
        else:
            out += self.t.save(replay.restore)  # put back unless every block finishes
            out.append(
                If(self.launch_condition(node), launch) if node.conditional else Block(launch)
            )
            finished = self.s.and_([self.finished(node)] + self.sums_fit(node))
            if combine:
                out.append(If(finished, combine, self.replay(node)))
            else:
                out.append(If(self.s.not_(finished), self.replay(node)))
        for finish in node.finish:
            if not finish.combines:
                out += self.finish(finish)
        return [Block(out)]  # its names are local to this launch

    def setup_and_launch(self, node: hostir.Launch) -> tuple[list, list]:
        """The lines before the launch (shapes, counts, scratch arrays) and the launch
        (with the download of the scratch arrays)."""
        self.t.launch_tiles = self.t.tiles[node.kernel.name]
        out: list = []
        for shape in node.shapes:  # MAT C = A * B: check A and B, give C its shape
            out += self.t.mat_shape(shape)
        for count in node.counts:
            name = self.values[count.name] = self.t.fresh(count.name)
            out += self.t.count(count, name, self)
        for temp in node.temps:
            name = self.values[temp.name] = self.t.fresh(temp.name)
            out += self.t.scratch(temp, name, self.arg(temp.size))
        return out, self.t.kernel_launch(node, self)

    def finished(self, node: hostir.Launch) -> str:
        """Whether every block of the launch finished (it ran: its flags are set)."""
        replay = node.replay
        tests = [f"{self.values[replay.done]}.all()"]
        if replay.prefix:  # it runs even where the inner loop does not (no blocks)
            tests.append(f"{self.values[replay.loops[1].count]} > 0")
        tests += [f"{self.values[count]} > 0" for count in replay.nonempty]
        return self.s.and_(tests)

    def sums_fit(self, node: hostir.Launch) -> list[str]:
        """Tests that the blocks' sums combine into their variables with no exception
        (Microsoft BASIC: msnumbers.fits); where one fails, the replay runs the blocks
        it must, whose additions warn as often as BASIC's."""
        tests = [
            self.t.sums_fit(finish, self.values[finish.temp])
            for finish in node.finish
            if finish.kind in ("sum", "sub")
        ]
        return [test for test in tests if test is not None]

    def block_sums_fit(self, node: hostir.Launch, block: str) -> list[str]:
        """Tests that a finished block's sums combine with no exception; where one fails
        the host runs the block's iterations again.  Only a kernel that writes no array
        may run a finished block again."""
        if node.writes:
            return []
        tests = []
        for finish in node.finish:
            if finish.kind in ("sum", "sub"):
                part = self.s.element(self.values[finish.temp], block)
                tests.append(self.t.total_fits(finish.var, finish.kind, part))
        return [test for test in tests if test is not None]

    def distributed(self, node: hostir.Distributed) -> list:
        """The kernels of a distributed loop in order, each while every block of the ones
        before finished; else the arrays go back and the host runs the loop as written."""
        out: list = self.t.save(node.restore)
        flag = self.t.fresh("finished")
        if self.s.scopes:  # the parts are scopes: the flag lives outside them
            out.append(Declare("bool", flag, self.s.true))
        for n, part in enumerate(node.parts):
            self.values = {}
            setup, launch = self.setup_and_launch(part)
            setup.append(
                If(self.launch_condition(part), launch) if part.conditional else Block(launch)
            )
            if part.replay is not None:
                test = (
                    self.launch_condition(part) if part.replay.done is None else self.finished(part)
                )
                setup.append(Line(f"{flag} = {test}"))
            elif n == 0 and not self.s.scopes:
                setup.append(Declare("bool", flag, self.s.true))
            # (If a later part does not finish, the host's loop sets them again.)
            setup += [line for f in part.finish for line in self.finish(f)]
            out.append(Block(setup) if n == 0 else If(flag, setup))
        fallback = [Comment(_RESTORED)] + self.t.restore(node.restore)
        fallback += [Host([hostir.ToHost(node.to_host), node.original])]
        out.append(If(self.s.not_(flag), fallback))
        return [Block(out)]

    def launch_condition(self, node: hostir.Launch) -> str:
        """The subscripts the kernel's tile loads and stores use are all in range, and the
        loop counts keep `%` loop variables in range."""
        tests = []
        for test in hostir.cover_tests(node.checks):
            count = self.values[test.count]
            if test.extra:
                count += f" + {self.t.number(test.extra)}"
            first = self.t.number(test.first)
            tests.append(f"{self.t.array(test.array)}.covers({test.axis}, {first}, {count})")
        tests += [f"{self.values[check.count]} <= {check.most}" for check in node.count_checks]
        return self.s.and_(tests)

    # ----------------------------------------------------------------- the replay

    def replay(self, node: hostir.Launch) -> list:
        """The iterations of the blocks the kernel did not finish (all of them when it did
        not run), in BASIC's order, as host code."""
        replay = node.replay
        out: list = [Comment(_RESTORED if replay.restore else _REPLAYED)]
        out += self.t.restore(replay.restore)
        out.append(Host([hostir.ToHost(replay.to_host)]))
        combine = [f for f in node.finish if f.combines]
        if len(replay.loops) == 1 and replay.skips_finished:
            return out + self.replay_blocks(node, combine)
        if combine and replay.skips_finished:  # a nest: the finished blocks' results first
            block, flag = self.t.block_loop_names()
            done = self.values[replay.done]
            body = [line for f in combine for line in self.block_finish(f, block)]
            finished = If(self.s.item(done, block, flag), body)
            out.append(ForEach(block, flag, done, [finished]))
        return out + self.replay_lanes(node)

    def replay_blocks(self, node: hostir.Launch, combine) -> list:
        """A 1-D loop: block by block, in order, a finished block's partial results or an
        unfinished block's iterations."""
        replay = node.replay
        (loop,) = replay.loops
        block, flag = self.t.block_loop_names()
        lane = self.t.fresh(generated_name(loop.var, "lane"))
        count = self.values[loop.count]
        done = self.values[replay.done]
        tile = self.t.tile(loop.tile)
        first = f"{block} * {tile}"
        iteration = [self.loop_value(loop, lane), Host(replay.body, lane=True)]
        skip = [line for f in combine for line in self.block_finish(f, block)]
        combined = [self.s.item(done, block, flag)] + self.block_sums_fit(node, block)
        body = [
            If(self.s.and_(combined), skip + [Continue()]),
            ForRange(lane, first, self.s.min_(f"{first} + {tile}", count), iteration),
        ]
        return [ForEach(block, flag, done, body)]

    def replay_lanes(self, node: hostir.Launch) -> list:
        """Every iteration in BASIC's order (outer loop first), those of finished blocks
        skipped."""
        replay = node.replay
        lanes = {loop.var: self.t.fresh(generated_name(loop.var, "lane")) for loop in replay.loops}
        if replay.prefix:
            return self.replay_rows(node, lanes)
        iteration = [Host(replay.body, lane=True)]
        for loop in reversed(replay.loops):  # a triangle's box: only the triangle's lanes
            sides = []
            for bound, compare in ((loop.first, "{b} <= {v}"), (loop.last, "{v} <= {b}")):
                if bound is not None:
                    value = self.t.double_value(bound)
                    sides.append(compare.format(b=value, v=self.t.var(loop.var)))
            if sides:
                iteration = [If(self.s.and_(sides), iteration)]
        body = [self.loop_value(loop, lanes[loop.var]) for loop in replay.loops] + iteration
        if replay.skips_finished:
            by_axis = sorted(replay.loops, key=lambda loop: loop.axis)
            index = f"{lanes[by_axis[0].var]}{self.s.floor_div}{self.t.tile(by_axis[0].tile)}"
            for loop in by_axis[1:]:
                tile = self.t.tile(loop.tile)
                blocks = f"{self.s.cdiv}({self.values[loop.count]}, {tile})"
                lane = f"{lanes[loop.var]}{self.s.floor_div}{tile}"
                index = f"{grouped(index)} * {blocks} + {lane}"
            body = [Unless(f"{self.values[replay.done]}[{index}]", body)]
        for loop in reversed(replay.loops):
            body = [ForRange(lanes[loop.var], None, self.values[loop.count], body)]
        return body

    def replay_rows(self, node: hostir.Launch, lanes: dict[str, str]) -> list:
        """A nest with statements between its FORs: per outer iteration (a row of blocks),
        those statements once, then the inner iterations of unfinished blocks; a row
        whose blocks all finished is skipped (had a statement before the inner FOR met an
        exception, every block of the row would have)."""
        replay = node.replay
        outer, inner = replay.loops  # grid axes 0 and 1
        outer_lane, inner_lane = lanes[outer.var], lanes[inner.var]
        inner_count = self.values[inner.count]
        iteration = [self.loop_value(inner, inner_lane), Host(replay.body, lane=True)]
        row_body: list = []
        if replay.skips_finished:
            done = self.values[replay.done]
            row = self.t.fresh("row")
            inner_tile = self.t.tile(inner.tile)
            blocks = f"{self.s.cdiv}({inner_count}, {inner_tile})"
            row_start = f"{outer_lane}{self.s.floor_div}{self.t.tile(outer.tile)} * {blocks}"
            row_body.append(Declare("const int", row, row_start))
            all_done = self.s.all_between(done, row, f"{row} + {blocks}")
            row_body.append(If(self.s.and_([f"{inner_count} > 0", all_done]), [Continue()]))
            block = f"{row} + {inner_lane}{self.s.floor_div}{inner_tile}"
            iteration = [Unless(f"{done}[{block}]", iteration)]
        row_body.append(self.loop_value(outer, outer_lane))
        row_body.append(Host(replay.prefix, lane=True))
        row_body.append(ForRange(inner_lane, None, inner_count, iteration))
        return [ForRange(outer_lane, None, self.values[outer.count], row_body)]

    def loop_value(self, loop: hostir.ReplayLoop, lane: str) -> Line:
        """The control variable's value in iteration `lane` (k): start + k * step."""
        steps = lane if loop.step == 1 else f"{lane} * {loop.step}"
        value = steps if loop.start == 0 else f"{self.start_text(loop.start)} + {steps}"
        return Line(f"{self.t.var(loop.var)} = {self.t.store(self.s.as_float(value))}")

    def start_text(self, start) -> str:
        """A FOR's first value: a constant, or an expression of enclosing loops' variables."""
        return str(start) if isinstance(start, int) else f"({self.t.double_value(start)})"

    # ----------------------------------------------------------------- the finish

    def block_finish(self, finish: hostir.Finish, block: str) -> list:
        """One block's partial result combined into its variable (a finished block)."""
        var = self.t.var(finish.var)
        part = self.s.element(self.values[finish.temp], block)
        if finish.kind in ("sum", "sub"):
            # BASIC's + and -, which report an overflow of the running total (under the
            # comment of the accumulating statement, which names the warning's line)
            total = self.t.running_total(finish.var, finish.kind, part)
            return [Origin(finish.origin), Line(f"{var} = {total}")]
        if finish.strict and not finish.payload and self.s.extremes:
            return [Line(f"{var} = {self.s.extreme(finish.kind, var, part)}")]
        body = [Line(f"{var} = {part}")]
        for payload_var, payload_temp in finish.payload:
            payload = self.s.element(self.values[payload_temp], block)
            body.append(Line(f"{self.t.var(payload_var)} = {payload}"))
        return [If(f"{part} {_compare(finish)} {var}", body)]

    def finish(self, finish: hostir.Finish) -> list:
        var = self.t.var(finish.var) if finish.var else ""
        temp = self.values.get(finish.temp, "")
        kind = finish.kind
        if kind in ("sum", "sub"):
            # block by block, each addition reported as BASIC's + and - report it
            if self.t.sums_fit(finish, temp) is not None:  # typed sums (ms): one by one
                block, item = self.t.element_loop_names()
                value = self.s.item(temp, block, item)
                total = Line(f"{var} = {self.t.running_total(finish.var, kind, value)}")
                return [Origin(finish.origin), ForEach(block, item, temp, [total])]
            total = self.t.store(self.t.sum_of_blocks(kind, var, temp))
            return [Origin(finish.origin), Line(f"{var} = {total}")]
        if kind in ("max", "min"):
            if finish.strict and not finish.payload and self.s.extremes:
                return [Line(f"{var} = {self.s.extreme_of_all(kind, var, temp)}")]
            block, item = self.t.element_loop_names()
            value = self.s.item(temp, block, item)
            body = [Line(f"{var} = {value}")]
            for payload_var, payload_temp in finish.payload:
                payload = self.s.element(self.values[payload_temp], block)
                body.append(Line(f"{self.t.var(payload_var)} = {payload}"))
            return [ForEach(block, item, temp, [If(f"{value} {_compare(finish)} {var}", body)])]
        if kind == "set":
            return [Line(f"{var} = {self.t.store(self.s.element(temp, '0'))}")]
        if kind == "loop_var":
            read = self.t.read_vars
            if read is not None and finish.var not in read:
                return []  # nothing reads it: BASIC's value after the loop does not matter
            count = self.values[finish.count]
            if finish.zero_trip_step:
                count = self.s.max_(count, "1")
            steps = count if finish.step == 1 else f"{count} * {finish.step}"
            last = self.s.as_float(f"{self.start_text(finish.start)} + {steps}")
            if finish.var.endswith("%") and finish.origin is not None:
                # Its store is BASIC's Overflow, which the loop's last NEXT reports.
                value = [
                    Host([hostir.AtLine(finish.origin)]),
                    Line(f"{var} = {self.t.store(last, 'int')}"),
                ]
            else:
                value = [Line(f"{var} = {self.t.store(last)}")]
            if finish.when:
                runs = self.s.and_([f"{self.values[count]} > 0" for count in finish.when])
                return [If(runs, value)]
            return value
        raise NotImplementedError(f"finish step {kind!r}")

    # ----------------------------------------------------------------- arguments

    def arg(self, arg) -> str:
        """A HostValue (or BASIC expression) as an expression of the target."""
        if isinstance(arg, ast.Expr):
            return self.t.value(arg)
        op, args = arg.op, arg.args
        if op == "var":
            return self.t.var(args[0])
        if op == "num":
            return self.t.number(args[0])
        if op in ("count", "temp"):
            return self.values[args[0]]
        if op == "int":
            return self.t.round_to_int(self.t.value(args[0]))
        if op == "cdiv":
            divisor = args[1]
            if divisor.op == "num" and divisor.args[0] in self.t.launch_tiles:
                return f"{self.s.cdiv}({self.arg(args[0])}, {self.t.tile(divisor.args[0])})"
            return f"{self.s.cdiv}({self.arg(args[0])}, {self.arg(divisor)})"
        if op in ("add", "sub", "mul"):
            symbol = {"add": " + ", "sub": " - ", "mul": " * "}[op]
            return "(" + symbol.join(self.arg(a) for a in args) + ")"
        if op == "array":
            return self.t.array_arg(args[0])
        if op == "len":
            return self.t.extent(args[0], args[1])
        raise NotImplementedError(f"host value {op!r} in a launch")


class LaunchTarget:
    """What the two back ends share in answering LaunchLowering: the entry points the
    statement printers call, and the questions their statement printer (`self.stmts`,
    whose syntax table and Code class it uses), expression printer (`self.expr`) and
    namer (`self.namer`) answer alike.  A subclass provides the target's parts listed in
    this module's docstring."""

    def __init__(self, host: hostir.HostProgram, expr):
        self.host = host
        self.expr = expr
        self.namer = expr.namer

    @property
    def syntax(self):
        return self.stmts.syntax

    def value(self, e: ast.Expr) -> str:
        return self.stmts.val(e, None)

    def double_value(self, e: ast.Expr) -> str:
        return self.stmts.dval(e, None)

    def name_tiles(self, names: dict[str, str]) -> None:
        """The tile sizes, named once at the top of the program (TILE = 512) rather than
        repeated as literals in every launch; `names`: kernel -> the host's name of it."""
        self.tiles = tile_constants(self.host.kernels, names)  # kernel -> size -> constant
        self.launch_tiles: dict[int, str] = {}  # those of the launch being lowered
        self.used_tiles: set[str] = set()  # the constants the host code names

    def constants(self) -> list[tuple[str, int]]:
        """The tile size constants at the top of the program: (name, value), in kernel
        order."""
        named = {name: value for tiles in self.tiles.values() for value, name in tiles.items()}
        return [(name, value) for name, value in named.items() if name in self.used_tiles]

    def tile(self, value: int) -> str:
        """A tile size of the launch being lowered: its constant's name."""
        name = self.launch_tiles.get(value)
        if name is None:
            return str(value)
        self.used_tiles.add(name)
        return name

    def launch(self, node: hostir.Launch, stmts) -> list:
        self.stmts = stmts
        return self.lay_out(LaunchLowering(self).launch(node))

    def distributed(self, node: hostir.Distributed, stmts) -> list:
        self.stmts = stmts
        return self.lay_out(LaunchLowering(self).distributed(node))

    def lay_out(self, nodes: list) -> list:
        return Layout(self.syntax, self.stmts.code, self.host_code, self.origin_code).lines(nodes)

    def host_code(self, nodes: list, lane: bool) -> list:
        """Host statements inside a launch's code (`lane`: one lane of a replayed block)."""
        return self.stmts.lane_body(nodes) if lane else self.stmts.nodes(nodes)

    def origin_code(self, stmt) -> list:
        """The comment of the statement a sum's combination belongs to, and C++'s
        `line = N;` (an overflow of the running total is reported at its line)."""
        if stmt is None:
            return []
        node = hostir.Simple(stmt, origin=stmt)
        return self.stmts.comment_of(stmt) + self.stmts.at_line(node, True)

    @property
    def read_vars(self) -> set[str] | None:
        """The variables some host code reads (None: not known, all of them)."""
        return getattr(self.stmts, "read_vars", None)

    def fresh(self, name: str) -> str:
        return self.namer.fresh(name)

    def var(self, name: str) -> str:
        return self.expr.var(name)

    def array(self, name: str) -> str:
        return self.expr.array(name)

    def extent(self, array: str, axis: int) -> str:
        return self.syntax.extent.format(array=self.array(array), axis=axis)

    def store(self, text: str, value_type: str = "num") -> str:
        return self.expr.store(text, value_type)

    def number(self, value) -> str:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return self.stmts.number_text(value) if isinstance(value, float) else str(value)

    def round_to_int(self, text: str) -> str:
        return f"{self.expr.runtime('round_to_int')}({text})"

    def mat_shape(self, shape) -> list:
        """MAT C = A * B: A and B checked, C given its shape (at the MAT's line: a
        mismatch is its error)."""
        arrays = ", ".join(self.array(n) for n in (shape.target, shape.left, shape.right))
        check = Line(f"{self.expr.runtime('mat_product_shape')}({arrays})")
        return [Raw(line) for line in self.stmts.line_of(shape.node)] + [check]

    def sums_fit(self, finish: hostir.Finish, temp: str) -> str | None:
        """The blocks' sums in `temp` combine one by one with no exception."""
        return self.expr.totals_fit(finish.var, _OPS[finish.kind], self.syntax.values(temp))

    def running_total(self, name: str, kind: str, part: str) -> str:
        """BASIC's `name + part` (kind "sub": `-`), as the accumulating statement
        computes it: a block's sum combined into its variable."""
        return self.expr.running_total(name, _OPS[kind], part)

    def total_fits(self, name: str, kind: str, part: str) -> str | None:
        """A test that `name + part` meets no exception (None: the combination's
        exceptions are the block's own, no test needed)."""
        return self.expr.total_fits(name, _OPS[kind], part)


_OPS = {"sum": "+", "sub": "-"}  # the BASIC operator of a Finish that combines sums


def _compare(finish: hostir.Finish) -> str:
    """A block's value replaces the variable's when it compares so (MAX keeps the first
    of equal values unless `strict` is off)."""
    return (">" if finish.kind == "max" else "<") + ("" if finish.strict else "=")
