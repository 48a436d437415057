"""Kernels in a generated host program: their definitions and their launches.

The offload pass (the lead's) replaces parallel FOR loops by `hostir.Launch` nodes and
puts the kernels in `HostProgram.kernels`.  Each kernel is printed above `program()` with
the shared `kernel_def` macro (templates/cutile/macros.py.jinja), exactly as in a cuTile
BASIC kernel program; each launch becomes

    dev.launch(saxpy_kernel, (grid,), (y.data, x.data, a), writes=(y.data,))

where `dev` is the `basic2tile_runtime.device` the program runs its kernels on, and BASIC
arrays are passed as their NumPy storage (`.data`).  Float64 scalar parameters travel in
one-element arrays, as in the kernel program module (cuTile passes Python floats as f32).
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ast, hostir, ir
from ...naming import generated_name, kernel_namer
from ..tile_names import tile_constants
from .expr import NP_DTYPES, CutileExprPrinter
from .host_expr import ExprPrinter, number_literal
from .program import OriginComments, box_name, box_unpacking

# The runtime's message of each kind of error a kernel reports (hostir.ErrorSite), as
# runtime/arith.py words it.
ERROR_TEXT = {
    "subscript": "subscript out of range",
    "domain": "function domain error",
    "power": "negative value raised to non-integral value",
}


@dataclass
class KernelView:
    """What the kernel_def macro needs for one kernel."""

    kernel: ir.Kernel
    params: list[str]
    prologue: list[str]
    expr: CutileExprPrinter
    name: object
    comment: object
    view: object
    index: object
    boxed: set[str]  # scalar parameters passed in one-element arrays


class KernelPrinter:
    def __init__(self, host: hostir.HostProgram, expr: ExprPrinter):
        self.host = host
        self.expr = expr
        # The module-level names of the kernels, which program() (the scope of the BASIC
        # variables) must not hide: a scalar MAP_30 would otherwise hide kernel map_30.
        self.names = {k.name: expr.namer.ident(k.name, "kernel") for k in host.kernels}
        self.views = {k.name: self._view(k) for k in host.kernels}
        # The tile sizes, named once at module level (TILE = 512) rather than repeated as
        # literals in every launch: kernel name -> value -> constant.
        self.tiles = tile_constants(host.kernels, self.names)
        self.launch_tiles: dict[int, str] = {}  # those of the launch being printed
        self.used_tiles: set[str] = set()  # the constants the host code names
        self._block_names: tuple[str, str] | None = None
        self.saved: dict[str, str] = {}  # array -> the copy `snapshots` took

    def definitions(self) -> list[KernelView]:
        return [self.views[k.name] for k in self.host.kernels]

    def constants(self) -> list[tuple[str, int]]:
        """The module-level tile size constants: (name, value), in kernel order."""
        named = {name: value for tiles in self.tiles.values() for value, name in tiles.items()}
        return [(name, value) for name, value in named.items() if name in self.used_tiles]

    def tile(self, value: int) -> str:
        """A tile size of the launch being printed: its constant's name."""
        name = self.launch_tiles.get(value)
        if name is None:
            return str(value)
        self.used_tiles.add(name)
        return name

    def _view(self, kernel: ir.Kernel) -> KernelView:
        namer = kernel_namer(kernel, "python")
        printer = CutileExprPrinter(namer, kernel=kernel)
        params, prologue, boxed = [], [], set()
        for p in kernel.params:
            if isinstance(p, ir.ArrayParam):
                params.append(namer.ident(p.name, "array"))
            elif isinstance(p, ir.ScalarParam) and p.dtype == "f64":
                var = namer.ident(p.name)
                box = box_name(namer, p.name)
                params.append(box)
                prologue += box_unpacking(var, box, first=not prologue)
                boxed.add(p.name)
            elif isinstance(p, ir.ScalarParam):
                params.append(namer.ident(p.name))
            else:
                params.append(f"{namer.ident(p.name)}: ct.Constant[int]")
        def_name = self.names[kernel.name]

        def name(ir_name: str) -> str:
            # The def takes the launch's name (the host's, see self.names).
            return def_name if ir_name == kernel.name else printer.name(ir_name)

        return KernelView(
            kernel,
            params,
            prologue,
            printer,
            name,
            OriginComments(kernel.body),
            printer.view,
            printer.index,
            boxed,
        )

    # ----------------------------------------------------------------- launches

    def launch(self, node: hostir.Launch, stmts) -> list:
        """The counts and scratch arrays, the launch (if the subscripts its tiles use are
        in range), then the finish, or the host's replay of unfinished blocks."""
        from .host_stmt import Code

        self.values: dict[str, str] = {}  # LoopCount / Temp name -> Python name
        out, launch = self.setup_and_launch(node)
        combine = [line for f in node.finish if f.combines for line in self.finish(f, stmts)]
        replay = node.replay
        if replay is None:
            out += launch + combine
        elif replay.done is None:  # every block finishes once the kernel runs
            condition = self.launch_condition(node)
            out.append(Code(f"if {condition}:", launch + combine))
            out.append(Code("else:", self.replay(node, stmts)))
        else:
            out += self.snapshots(replay.restore)  # put back unless every block finishes
            if node.checks:
                out.append(Code(f"if {self.launch_condition(node)}:", launch))
            else:
                out += launch
            finished = self.finished(node)
            if combine:
                out.append(Code(f"if {finished}:", combine))
                out.append(Code("else:", self.replay(node, stmts)))
            else:
                negated = f"not ({finished})" if " and " in finished else f"not {finished}"
                out.append(Code(f"if {negated}:", self.replay(node, stmts)))
        for finish in node.finish:
            if not finish.combines:
                out += self.finish(finish, stmts)
        return out

    def setup_and_launch(self, node: hostir.Launch) -> tuple[list, list]:
        """The lines before the launch (shapes, counts, scratch arrays) and the launch
        (with the download of the scratch arrays)."""
        from .host_stmt import Code

        expr = self.expr
        self.launch_tiles = self.tiles[node.kernel.name]
        out: list = []
        for shape in node.shapes:  # MAT C = A * B: check A and B, give C its shape
            helper = expr.need("mat_product_shape")
            arrays = ", ".join(expr.array(n) for n in (shape.target, shape.left, shape.right))
            out.append(Code(f"{helper}({arrays})"))
        for count in node.counts:
            name = self.values[count.name] = expr.namer.fresh(count.name)
            out.append(Code(f"{name} = {self.count_text(count)}"))
        for temp in node.temps:
            name = self.values[temp.name] = expr.namer.fresh(temp.name)
            size = self.arg(temp.size)
            np = self.expr.need("np")
            out.append(Code(f"{name} = {np}.zeros({size}, dtype={NP_DTYPES[temp.dtype]})"))
        kernel = node.kernel
        view = self.views[kernel.name]
        args = []
        for p, arg in zip(kernel.params, node.args):
            if isinstance(p, ir.ConstParam):
                args.append(self.tile(p.value))
                continue
            text = self.arg(arg)
            if isinstance(p, ir.ScalarParam) and p.name in view.boxed:
                text = f"{self.expr.need('np')}.array([{text}], dtype=np.float64)"
            args.append(text)
        writes = [f"{expr.array(name)}.data" for name in node.writes]
        writes += [self.values[t.name] for t in node.temps]
        grid = _tuple([self.arg(g) for g in node.grid])
        call = f"dev.launch({self.names[kernel.name]}, {grid}, {_tuple(args)}"
        call += f", writes={_tuple(writes)})" if writes else ")"
        launch = [Code(call)] + [Code(f"dev.to_host({self.values[t.name]})") for t in node.temps]
        return out, launch

    def snapshots(self, arrays: list[str]) -> list:
        """Copies of the arrays a launch (or a distributed loop) may have to undo."""
        from .host_stmt import Code

        out = []
        for name in arrays:
            array = self.expr.array(name)
            self.saved[name] = self.expr.namer.fresh(f"{array}_before")
            out.append(Code(f"{self.saved[name]} = dev.snapshot({array}.data)"))
        return out

    def restores(self, arrays: list[str]) -> list:
        """Put back what `snapshots` saved."""
        from .host_stmt import Code

        return [
            Code(f"dev.restore({self.expr.array(name)}.data, {self.saved[name]})")
            for name in arrays
        ]

    def finished(self, node: hostir.Launch) -> str:
        """Whether every block of the launch finished (it ran: its flags are set)."""
        replay = node.replay
        finished = f"{self.values[replay.done]}.all()"
        if replay.prefix:  # it runs even where the inner loop does not (no blocks)
            finished += f" and {self.values[replay.loops[1].count]} > 0"
        for count in replay.nonempty:
            finished += f" and {self.values[count]} > 0"
        return finished

    def distributed(self, node: hostir.Distributed, stmts) -> list:
        """The kernels of a distributed loop in order, each while every block of the ones
        before finished; else the arrays go back and the host runs the loop as written."""
        from .host_stmt import Code

        expr = self.expr
        out: list = self.snapshots(node.restore)
        flag = expr.namer.fresh("finished")
        for n, part in enumerate(node.parts):
            self.values = {}
            setup, launch = self.setup_and_launch(part)
            if part.checks:
                setup.append(Code(f"if {self.launch_condition(part)}:", launch))
            else:
                setup += launch
            if part.replay is not None:
                test = self.launch_condition(part) if part.replay.done is None else self.finished(part)
                setup.append(Code(f"{flag} = {test}"))
            elif n == 0:
                setup.append(Code(f"{flag} = True"))
            # (If a later part does not finish, the host's loop sets them again.)
            setup += [line for f in part.finish for line in self.finish(f, stmts)]
            out += setup if n == 0 else [Code(f"if {flag}:", setup)]
        fallback = [
            Code("# A block met an exception: the arrays go back, the whole loop runs here")
        ]
        fallback += self.restores(node.restore)
        fallback += stmts.n_ToHost(hostir.ToHost(node.to_host))
        fallback += stmts.nodes([node.original])
        out.append(Code(f"if not {flag}:", fallback))
        return out

    def launch_condition(self, node: hostir.Launch) -> str:
        """The subscripts the kernel's tile loads and stores use are all in range."""
        tests = []
        for test in hostir.cover_tests(node.checks):
            count = self.values[test.count]
            if test.extra:
                count += f" + {number_text(test.extra)}"
            first = number_text(test.first)
            tests.append(f"{self.expr.array(test.array)}.covers({test.axis}, {first}, {count})")
        return " and ".join(tests)

    # ----------------------------------------------------------------- the replay

    def replay(self, node: hostir.Launch, stmts) -> list:
        """The iterations of the blocks the kernel did not finish (all of them when it did
        not run), in BASIC's order, as host code: BASIC's warnings and errors come out
        where and when the interpreter reports them."""
        from .host_stmt import Code

        replay = node.replay
        if replay.restore:
            comment = "# A block met an exception: the arrays go back, the whole loop runs here"
        else:
            comment = "# Blocks the kernel did not finish run here: BASIC reports their exceptions"
        out: list = [Code(comment)]
        out += self.restores(replay.restore)
        out += stmts.n_ToHost(hostir.ToHost(replay.to_host))
        combine = [f for f in node.finish if f.combines]
        if len(replay.loops) == 1 and replay.skips_finished:
            return out + self.replay_blocks(node, combine, stmts)
        if combine and replay.skips_finished:  # a nest: the finished blocks' results first
            block, finished = self.expr.namer.fresh("block"), self.expr.namer.fresh("finished")
            done = self.values[replay.done]
            body = [line for f in combine for line in self.block_finish(f, block, stmts)]
            loop = Code(f"if {finished}:", body)
            out.append(Code(f"for {block}, {finished} in enumerate({done}.tolist()):", [loop]))
        return out + self.replay_lanes(node, stmts)

    def replay_blocks(self, node: hostir.Launch, combine, stmts) -> list:
        """A 1-D loop: block by block, in order, a finished block's partial results or an
        unfinished block's iterations."""
        from .host_stmt import Code

        replay = node.replay
        (loop,) = replay.loops
        namer = self.expr.namer
        block, finished = namer.fresh("block"), namer.fresh("finished")
        lane = namer.fresh(generated_name(loop.var, "lane"))
        count = self.values[loop.count]
        tile = self.tile(loop.tile)
        first = f"{block} * {tile}"
        lanes = f"range({first}, min({first} + {tile}, {count}))"
        iteration = [self.loop_value(loop, lane)] + stmts.lane_body(replay.body)
        skip = [line for f in combine for line in self.block_finish(f, block, stmts)]
        body = [
            Code(f"if {finished}:", skip + [Code("continue")]),
            Code(f"for {lane} in {lanes}:", iteration),
        ]
        done = self.values[replay.done]
        return [Code(f"for {block}, {finished} in enumerate({done}.tolist()):", body)]

    def replay_lanes(self, node: hostir.Launch, stmts) -> list:
        """Every iteration in BASIC's order (outer loop first), those of finished blocks
        skipped."""
        from .host_stmt import Code

        replay = node.replay
        namer = self.expr.namer
        lanes = {loop.var: namer.fresh(generated_name(loop.var, "lane")) for loop in replay.loops}
        if replay.prefix:
            return self.replay_rows(node, stmts, lanes)
        body = stmts.lane_body(replay.body)
        for loop in reversed(replay.loops):  # a triangle's box: only the triangle's lanes
            sides = []
            for bound, compare in ((loop.first, "{b} <= {v}"), (loop.last, "{v} <= {b}")):
                if bound is not None:
                    value = self.expr.value(bound)
                    sides.append(compare.format(b=value, v=self.expr.var(loop.var)))
            if sides:
                body = [Code(f"if {' and '.join(sides)}:", body)]
        body = [self.loop_value(loop, lanes[loop.var]) for loop in replay.loops] + body
        if replay.skips_finished:
            done = self.values[replay.done]
            by_axis = sorted(replay.loops, key=lambda loop: loop.axis)
            index = f"{lanes[by_axis[0].var]} // {self.tile(by_axis[0].tile)}"
            for loop in by_axis[1:]:
                blocks = f"ct.cdiv({self.values[loop.count]}, {self.tile(loop.tile)})"
                index = f"({index}) * {blocks} + {lanes[loop.var]} // {self.tile(loop.tile)}"
            body = [Code(f"if not {done}[{index}]:", body)]
        for loop in reversed(replay.loops):
            body = [Code(f"for {lanes[loop.var]} in range({self.values[loop.count]}):", body)]
        return body

    def replay_rows(self, node: hostir.Launch, stmts, lanes: dict[str, str]) -> list:
        """A nest with statements between its FORs: per outer iteration (a row of blocks),
        those statements once, then the inner iterations of unfinished blocks; a row
        whose blocks all finished is skipped (had a statement before the inner FOR met an
        exception, every block of the row would have)."""
        from .host_stmt import Code

        replay = node.replay
        outer, inner = replay.loops  # grid axes 0 and 1
        outer_lane, inner_lane = lanes[outer.var], lanes[inner.var]
        inner_count = self.values[inner.count]
        iteration = [self.loop_value(inner, inner_lane)] + stmts.lane_body(replay.body)
        row_body = []
        if replay.skips_finished:
            done = self.values[replay.done]
            row = self.expr.namer.fresh("row")
            blocks = f"ct.cdiv({inner_count}, {self.tile(inner.tile)})"
            row_body.append(Code(f"{row} = {outer_lane} // {self.tile(outer.tile)} * {blocks}"))
            row_finished = f"{inner_count} > 0 and {done}[{row} : {row} + {blocks}].all()"
            row_body.append(Code(f"if {row_finished}:", [Code("continue")]))
            inner_block = f"{inner_lane} // {self.tile(inner.tile)}"
            iteration = [Code(f"if not {done}[{row} + {inner_block}]:", iteration)]
        row_body.append(self.loop_value(outer, outer_lane))
        row_body += stmts.lane_body(replay.prefix)
        row_body.append(Code(f"for {inner_lane} in range({inner_count}):", iteration))
        return [Code(f"for {outer_lane} in range({self.values[outer.count]}):", row_body)]

    def loop_value(self, loop: hostir.ReplayLoop, lane: str):
        """The control variable's value in iteration `lane` (k): start + k * step."""
        from .host_stmt import Code

        steps = lane if loop.step == 1 else f"{lane} * {loop.step}"
        value = steps if loop.start == 0 else f"{self.start_text(loop.start)} + {steps}"
        return Code(f"{self.expr.var(loop.var)} = {self.expr.store(f'float({value})', 'num')}")

    def start_text(self, start) -> str:
        """A FOR's first value: a constant, or an expression of enclosing loops' variables."""
        return str(start) if isinstance(start, int) else f"({self.expr.value(start)})"

    def block_finish(self, finish: hostir.Finish, block: str, stmts) -> list:
        """One block's partial result combined into its variable (a finished block)."""
        from .host_stmt import Code

        var = self.expr.var(finish.var)
        part = f"{self.values[finish.temp]}.item({block})"
        if finish.kind in ("sum", "sub"):
            # BASIC's + and -, which report an overflow of the running total (under the
            # comment of the accumulating statement, which names the warning's line)
            combine = self.expr.need("add" if finish.kind == "sum" else "sub")
            return stmts.comment_of(finish.origin) + [Code(f"{var} = {combine}({var}, {part})")]
        if finish.strict and not finish.payload:
            # max(v, value) is `value if value > v else v`, NaN included
            return [Code(f"{var} = {finish.kind}({var}, {part})")]
        compare = (">" if finish.kind == "max" else "<") + ("" if finish.strict else "=")
        body = [Code(f"{var} = {part}")]
        for payload_var, payload_temp in finish.payload:
            body.append(
                Code(f"{self.expr.var(payload_var)} = {self.values[payload_temp]}.item({block})")
            )
        return [Code(f"if {part} {compare} {var}:", body)]

    def block_names(self) -> tuple[str, str]:
        """The variables of the loops over the blocks' results (one pair serves all)."""
        if self._block_names is None:
            self._block_names = (self.expr.namer.fresh("block"), self.expr.namer.fresh("value"))
        return self._block_names

    def count_text(self, count: hostir.LoopCount) -> str:
        """The number of iterations of FOR v = start TO limit STEP step (integers start
        and step, the limit evaluated once)."""
        limit = self.expr.value(count.limit)
        if count.limit_offset:  # a triangle's box: the outer loop's limit plus c
            limit = f"{limit} + {count.limit_offset}"
        return (
            f"{self.expr.need('loop_count')}({self.start_text(count.start)}, {limit}, {count.step})"
        )

    def finish(self, finish: hostir.Finish, stmts) -> list:
        from .host_stmt import Code

        expr = self.expr
        var = expr.var(finish.var) if finish.var else ""
        temp = self.values.get(finish.temp, "")
        kind = finish.kind
        if kind in ("sum", "sub"):
            # block by block, each addition reported as BASIC's + and - report it
            combine = expr.need("add_all" if kind == "sum" else "sub_all")
            code = Code(f"{var} = {combine}({var}, {temp}.tolist())")
            return stmts.comment_of(finish.origin) + [code]
        if kind in ("max", "min"):
            compare = (">" if kind == "max" else "<") + ("" if finish.strict else "=")
            if finish.strict and not finish.payload:
                # max(v, value) is `value if value > v else v`, NaN included
                return [Code(f"{var} = {kind}([{var}, *{temp}.tolist()])")]
            block, value = self.block_names()
            body = [Code(f"{var} = {value}")]
            for payload_var, payload_temp in finish.payload:
                # float(): a NumPy scalar would not be a valid kernel argument later
                payload = f"float({self.values[payload_temp]}[{block}])"
                body.append(Code(f"{expr.var(payload_var)} = {payload}"))
            return [
                Code(
                    f"for {block}, {value} in enumerate({temp}.tolist()):",
                    [Code(f"if {value} {compare} {var}:", body)],
                )
            ]
        if kind == "set":
            return [Code(f"{var} = {temp}.item(0)")]
        if kind == "loop_var":
            if finish.var not in stmts.read_vars:
                return []  # nothing reads it: BASIC's value after the loop does not matter
            count = self.values[finish.count]
            if finish.zero_trip_step:
                count = f"max({count}, 1)"
            steps = count if finish.step == 1 else f"{count} * {finish.step}"
            value = Code(f"{var} = float({self.start_text(finish.start)} + {steps})")
            if finish.when:
                runs = " and ".join(f"{self.values[count]} > 0" for count in finish.when)
                return [Code(f"if {runs}:", [value])]
            return [value]
        raise NotImplementedError(f"finish step {kind!r}")

    def arg(self, arg) -> str:
        if isinstance(arg, ast.Expr):
            return self.expr.value(arg)
        op, args = arg.op, arg.args
        if op == "var":
            return self.expr.var(args[0])
        if op == "num":
            return number_text(args[0])
        if op in ("count", "temp"):
            return self.values[args[0]]
        if op == "int":
            return f"{self.expr.need('round_to_int')}({self.expr.value(args[0])})"
        if op == "cdiv":
            divisor = args[1]
            if divisor.op == "num" and divisor.args[0] in self.launch_tiles:
                return f"ct.cdiv({self.arg(args[0])}, {self.tile(divisor.args[0])})"
            return f"ct.cdiv({self.arg(args[0])}, {self.arg(divisor)})"
        if op in ("add", "sub", "mul"):
            symbol = {"add": " + ", "sub": " - ", "mul": " * "}[op]
            return "(" + symbol.join(self.arg(a) for a in args) + ")"
        if op == "array":
            return f"{self.expr.array(args[0])}.data"
        if op == "len":
            return f"{self.expr.array(args[0])}.data.shape[{args[1]}]"
        raise NotImplementedError(f"host value {op!r} in a launch")

    def _operand(self, arg) -> str:
        text = self.arg(arg)
        return text if text.replace("_", "").replace(".", "").isalnum() else f"({text})"


def number_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return number_literal(value) if isinstance(value, float) else str(value)


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
