"""Kernel launches in a generated C++ host program: `hostir.Launch` and `hostir.ToHost`.

The C++ twin of the launch code in cutile/host_kernels.py (same steps, same order, same
results).  Each BASIC array a kernel uses gets a device mirror, a member of
`struct Program` next to the array (`b2t::DeviceArray<double> x_device;`; DeviceArray,
DeviceTemp and loop_count are in templates/cuda/b2t_launch.h, written beside the .cu):
- a launch uploads the host array when host code may have changed it since the last
  copy (and reallocates when a DIM changed its size);
- the arrays a kernel writes are then newer on the device;
- `ToHost` (placed by the offload pass before host code that touches kernel arrays)
  downloads them when they are newer there, after which host code may change them.
So arrays stay on the GPU across consecutive launches.

A launch is: the loop counts, the scratch arrays (partial results, the flags of the
blocks the kernel finished), the kernel if the subscripts its tiles use are in range,
then the finish steps (combining the blocks' partial results in block order, the loop
variables' final values), and the host's replay of the iterations of the blocks the
kernel left (hostir.Replay): BASIC's exceptions are reported by host code.

`KernelLaunches` is the object the host printer (cuda/host.py) asks for these lines.
"""

from __future__ import annotations

from ... import ast, hostir, ir
from ...naming import Namer, generated_name
from ..tile_names import tile_constants
from .build import grid_nonempty
from .element_types import c_type
from .kernels import CudaKernel, lower_kernel

# The runtime's message of each kind of error a kernel reports (hostir.ErrorSite).
_ERROR_CONSTANTS = {
    "subscript": "b2t::SUBSCRIPT_OUT_OF_RANGE",
    "domain": "b2t::DOMAIN_ERROR",
    "power": "b2t::NEGATIVE_TO_NON_INTEGER",
}


class KernelLaunches:
    """Launch code of one host program; `expr` is the host printer's expression printer
    (cuda_host_expr.ExprPrinter) and `namer` its namer."""

    def __init__(self, host: hostir.HostProgram, expr, namer: Namer, lowered: dict | None = None):
        self.host = host
        self.expr = expr
        self.namer = namer
        lowered = lowered or {}
        self.kernels: dict[str, CudaKernel] = {
            k.name: lowered.get(k.name) or lower_kernel(k) for k in host.kernels
        }
        names = {k.name: self.kernels[k.name].name for k in host.kernels}
        self.tiles = tile_constants(host.kernels, names)  # kernel -> tile size -> constant
        self.launch_tiles: dict[int, str] = {}  # those of the launch being printed
        self.used_tiles: set[str] = set()  # the constants the host code names
        used = sorted(
            {
                p.name
                for k in host.kernels
                for p in k.params
                if isinstance(p, ir.ArrayParam) and p.name in host.analysis.arrays
            }
        )
        self.mirrors = {name: namer.fresh(f"{expr.array(name)}_device") for name in used}
        self.values: dict[str, str] = {}

    # ----------------------------------------------------------------- program parts

    def constants(self) -> list[tuple[str, int]]:
        """The tile size constants at the top of the program: (name, value)."""
        named = {name: value for tiles in self.tiles.values() for value, name in tiles.items()}
        return [(name, value) for name, value in named.items() if name in self.used_tiles]

    def tile(self, value: int) -> str:
        """A tile size of the launch being printed: its constant's name."""
        name = self.launch_tiles.get(value)
        if name is None:
            return str(value)
        self.used_tiles.add(name)
        return name

    def uses_launch_header(self) -> bool:
        """Whether the program includes b2t_launch.h (its launches' host-side classes)."""
        return bool(self.host.kernels)

    def members(self) -> list:
        from .host_stmt import Code

        arrays = self.host.analysis.arrays
        out = []
        if self.mirrors:
            out.append(Code("// The device copies of the arrays the kernels use."))
        for name, mirror in self.mirrors.items():
            element = self.expr.cpp_type(arrays[name].elem_type)  # a double array's: double
            out.append(Code(f"b2t::DeviceArray<{element}> {mirror};"))
        return out

    def to_host(self, node: hostir.ToHost) -> list:
        from .host_stmt import Code

        return [
            Code(f"{self.mirrors[a]}.download({self.expr.array(a)});")
            for a in node.arrays
            if a in self.mirrors
        ]

    # ----------------------------------------------------------------- a launch

    def launch(self, node: hostir.Launch, stmts) -> list:
        from .host_stmt import Code

        self.values = {}
        out, launch = self.setup_and_launch(node, stmts)
        combine = [line for f in node.finish if f.combines for line in self.finish(f, stmts)]
        replay = node.replay
        if replay is None:
            out += launch + combine
        elif replay.done is None:  # every block finishes once the kernel runs
            out.append(Code(f"if ({self.launch_condition(node)})", launch + combine))
            out.append(Code("else", self.replay(node, stmts)))
        else:
            for name in replay.restore:  # put back unless every block finishes
                out.append(Code(f"{self.mirrors[name]}.save({self.expr.array(name)});"))
            if node.checks:
                out.append(Code(f"if ({self.launch_condition(node)})", launch))
            else:
                out.append(Code("", launch))  # a block: `grid` is local to it
            finished = self.finished(node)
            if combine:
                out.append(Code(f"if ({finished})", combine))
                out.append(Code("else", self.replay(node, stmts)))
            else:
                negated = f"!({finished})" if " && " in finished else f"!{finished}"
                out.append(Code(f"if ({negated})", self.replay(node, stmts)))
        for finish in node.finish:
            if not finish.combines:
                out += self.finish(finish, stmts)
        return [Code("", out)]  # a block: its names are local to this launch

    def setup_and_launch(self, node: hostir.Launch, stmts) -> tuple[list, list]:
        """The lines before the launch (shapes, counts, scratch arrays) and the launch
        (with the download of the scratch arrays)."""
        from .host_stmt import Code

        cuda = self.kernels[node.kernel.name]
        self.launch_tiles = self.tiles[node.kernel.name]
        out: list = []
        for shape in node.shapes:  # MAT C = A * B: check A and B, give C its shape
            if stmts.tracks_lines:
                line = stmts.line_numbers.get(shape.node.coord.line, 0)
                out.append(Code(f"{stmts.line_var} = {line};"))
            arrays = ", ".join(self.expr.array(n) for n in (shape.target, shape.left, shape.right))
            out.append(Code(f"b2t::mat_product_shape({arrays});"))
        for count in node.counts:
            name = self.values[count.name] = self.namer.fresh(count.name)
            pre: list[str] = []
            limit = self.expr.double_value(count.limit, pre)
            if count.limit_offset:  # a triangle's box: the outer loop's limit plus c
                limit = f"{limit} + {count.limit_offset}"
            out += [Code(line) for line in pre]
            if isinstance(count.start, int):
                counted = f"b2t::loop_count({count.start}, {limit}, {count.step})"
            else:  # a start of enclosing loops' variables: count from 0 to limit - start
                start = self.start_text(count.start)
                counted = f"b2t::loop_count(0, ({limit}) - {start}, {count.step})"
            out.append(Code(f"const int {name} = {counted};"))
        for temp in node.temps:
            name = self.values[temp.name] = self.namer.fresh(temp.name)
            temp_type = f"b2t::DeviceTemp<{c_type(temp.dtype)}>"
            out.append(Code(f"{temp_type} {name}({self.arg(temp.size)});"))
        args = []
        for p, arg in zip(node.kernel.params, node.args):
            if isinstance(p, ir.ConstParam):
                continue
            if isinstance(p, ir.ArrayParam):
                args += self.array_args(p, arg)
            else:
                args.append(self.arg(arg))
        grid = [self.arg(g) for g in node.grid] + ["1"] * (3 - len(node.grid))
        launch = [Code(f"const dim3 grid({', '.join(grid)});")]
        body = []
        if cuda.dynamic_shared:
            body.append(
                Code(
                    f"B2T_CHECK(cudaFuncSetAttribute(::{cuda.name}, "
                    f"cudaFuncAttributeMaxDynamicSharedMemorySize, {cuda.dynamic_shared}));"
                )
            )
        body.append(
            Code(
                f"B2T_LAUNCH(::{cuda.name}, grid, {cuda.threads}, {cuda.dynamic_shared})({', '.join(args)});"
            )
        )
        body.append(Code("B2T_CHECK(cudaGetLastError());"))
        body += [Code(f"{self.mirrors[a]}.written();") for a in node.writes if a in self.mirrors]
        launch.append(Code(f"if ({grid_nonempty(grid)})", body))
        launch += [Code(f"{self.values[temp.name]}.download();") for temp in node.temps]
        return out, launch

    def finished(self, node: hostir.Launch) -> str:
        """Whether every block of the launch finished (it ran: its flags are set)."""
        replay = node.replay
        finished = f"{self.values[replay.done]}.all()"
        if replay.prefix:  # it runs even where the inner loop does not (no blocks)
            finished += f" && {self.values[replay.loops[1].count]} > 0"
        for count in replay.nonempty:
            finished += f" && {self.values[count]} > 0"
        return finished

    def distributed(self, node: hostir.Distributed, stmts) -> list:
        """The kernels of a distributed loop in order, each while every block of the ones
        before finished; else the arrays go back and the host runs the loop as written."""
        from .host_stmt import Code

        out: list = [
            Code(f"{self.mirrors[name]}.save({self.expr.array(name)});") for name in node.restore
        ]
        flag = self.namer.fresh("finished")
        out.append(Code(f"bool {flag} = true;"))
        for n, part in enumerate(node.parts):
            self.values = {}
            setup, launch = self.setup_and_launch(part, stmts)
            if part.checks:
                setup.append(Code(f"if ({self.launch_condition(part)})", launch))
            else:
                setup.append(Code("", launch))  # a block: `grid` is local to it
            if part.replay is not None:
                test = self.launch_condition(part) if part.replay.done is None else self.finished(part)
                setup.append(Code(f"{flag} = {test};"))
            # (If a later part does not finish, the host's loop sets them again.)
            setup += [line for f in part.finish for line in self.finish(f, stmts)]
            out.append(Code("" if n == 0 else f"if ({flag})", setup))
        fallback = [Code("// A block met an exception: the arrays go back, the whole loop runs here")]
        fallback += [Code(f"{self.mirrors[name]}.restore();") for name in node.restore]
        fallback += self.to_host(hostir.ToHost(node.to_host))
        fallback += stmts.nodes([node.original])
        out.append(Code(f"if (!{flag})", fallback))
        return [Code("", out)]

    def launch_condition(self, node: hostir.Launch) -> str:
        """The subscripts the kernel's tile loads and stores use are all in range."""
        tests = []
        for test in hostir.cover_tests(node.checks):
            count = self.values[test.count]
            if test.extra:
                count += f" + {_number(test.extra)}"
            first = _number(test.first)
            tests.append(f"{self.expr.array(test.array)}.covers({test.axis}, {first}, {count})")
        return " && ".join(tests)

    # ----------------------------------------------------------------- the replay

    def replay(self, node: hostir.Launch, stmts) -> list:
        """The iterations of the blocks the kernel did not finish (all of them when it did
        not run), in BASIC's order, as host code: BASIC's warnings and errors come out
        where and when the interpreter reports them."""
        from .host_stmt import Code

        replay = node.replay
        if replay.restore:
            comment = "// A block met an exception: the arrays go back, the whole loop runs here"
        else:
            comment = "// Blocks the kernel did not finish run here: BASIC reports their exceptions"
        out: list = [Code(comment)]
        out += [Code(f"{self.mirrors[name]}.restore();") for name in replay.restore]
        out += self.to_host(hostir.ToHost(replay.to_host))
        combine = [f for f in node.finish if f.combines]
        if len(replay.loops) == 1 and replay.skips_finished:
            return out + self.replay_blocks(node, combine, stmts)
        if combine and replay.skips_finished:  # a nest: the finished blocks' results first
            block = self.namer.fresh("block")
            done = self.values[replay.done]
            body = [line for f in combine for line in self.block_finish(f, block, stmts)]
            loop = Code(f"if ({done}[{block}])", body)
            out.append(Code(f"for (int {block} = 0; {block} < {done}.size(); ++{block})", [loop]))
        return out + self.replay_lanes(node, stmts)

    def replay_blocks(self, node: hostir.Launch, combine, stmts) -> list:
        """A 1-D loop: block by block, in order, a finished block's partial results or an
        unfinished block's iterations."""
        from .host_stmt import Code

        replay = node.replay
        (loop,) = replay.loops
        block = self.namer.fresh("block")
        lane = self.namer.fresh(generated_name(loop.var, "lane"))
        count = self.values[loop.count]
        done = self.values[replay.done]
        tile = self.tile(loop.tile)
        first = f"{block} * {tile}"
        header = f"for (int {lane} = {first}; {lane} < std::min({first} + {tile}, {count}); ++{lane})"
        iteration = [self.loop_value(loop, lane)] + stmts.nodes(replay.body)
        skip = [line for f in combine for line in self.block_finish(f, block, stmts)]
        body = [Code(f"if ({done}[{block}])", skip + [Code("continue;")]), Code(header, iteration)]
        return [Code(f"for (int {block} = 0; {block} < {done}.size(); ++{block})", body)]

    def replay_lanes(self, node: hostir.Launch, stmts) -> list:
        """Every iteration in BASIC's order (outer loop first), those of finished blocks
        skipped."""
        from .host_stmt import Code

        replay = node.replay
        lanes = {
            loop.var: self.namer.fresh(generated_name(loop.var, "lane")) for loop in replay.loops
        }
        if replay.prefix:
            return self.replay_rows(node, stmts, lanes)
        body = []
        if replay.skips_finished:
            done = self.values[replay.done]
            by_axis = sorted(replay.loops, key=lambda loop: loop.axis)
            index = f"{lanes[by_axis[0].var]} / {self.tile(by_axis[0].tile)}"
            for loop in by_axis[1:]:
                blocks = f"b2t_cdiv({self.values[loop.count]}, {self.tile(loop.tile)})"
                index = index if " + " not in index else f"({index})"
                index = f"{index} * {blocks} + {lanes[loop.var]} / {self.tile(loop.tile)}"
            body.append(Code(f"if ({done}[{index}])", [Code("continue;")]))
        body += [self.loop_value(loop, lanes[loop.var]) for loop in replay.loops]
        iteration = stmts.nodes(replay.body)
        for loop in reversed(replay.loops):  # a triangle's box: only the triangle's lanes
            sides = []
            for bound, compare in ((loop.first, "{b} <= {v}"), (loop.last, "{v} <= {b}")):
                if bound is not None:
                    pre: list[str] = []
                    b = self.expr.double_value(bound, pre)
                    assert not pre, "a triangle's bound is an affine expression"
                    sides.append(compare.format(b=b, v=self.expr.var(loop.var)))
            if sides:
                iteration = [Code(f"if ({' && '.join(sides)})", iteration)]
        body += iteration
        for loop in reversed(replay.loops):
            lane, count = lanes[loop.var], self.values[loop.count]
            body = [Code(f"for (int {lane} = 0; {lane} < {count}; ++{lane})", body)]
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
        iteration = [self.loop_value(inner, inner_lane)] + stmts.nodes(replay.body)
        row_body = []
        if replay.skips_finished:
            done = self.values[replay.done]
            row = self.namer.fresh("row")
            blocks = f"b2t_cdiv({inner_count}, {inner.tile})"
            row_body.append(Code(f"const int {row} = {outer_lane} / {outer.tile} * {blocks};"))
            row_finished = f"{inner_count} > 0 && {done}.all({row}, {row} + {blocks})"
            row_body.append(Code(f"if ({row_finished})", [Code("continue;")]))
            skip = Code(f"if ({done}[{row} + {inner_lane} / {inner.tile}])", [Code("continue;")])
            iteration = [skip] + iteration
        row_body.append(self.loop_value(outer, outer_lane))
        row_body += stmts.nodes(replay.prefix)
        header = f"for (int {inner_lane} = 0; {inner_lane} < {inner_count}; ++{inner_lane})"
        row_body.append(Code(header, iteration))
        outer_count = self.values[outer.count]
        return [
            Code(
                f"for (int {outer_lane} = 0; {outer_lane} < {outer_count}; ++{outer_lane})",
                row_body,
            )
        ]

    def loop_value(self, loop: hostir.ReplayLoop, lane: str):
        """The control variable's value in iteration `lane` (k): start + k * step."""
        from .host_stmt import Code

        steps = lane if loop.step == 1 else f"{lane} * {loop.step}"
        value = steps if loop.start == 0 else f"{self.start_text(loop.start)} + {steps}"
        return Code(f"{self.expr.var(loop.var)} = {self.expr.store(value, 'num')};")

    def start_text(self, start) -> str:
        """A FOR's first value: a constant, or an expression of enclosing loops' variables."""
        return str(start) if isinstance(start, int) else f"({self.expr.double_value(start, None)})"

    def block_finish(self, finish: hostir.Finish, block: str, stmts) -> list:
        """One block's partial result combined into its variable (a finished block)."""
        from .host_stmt import Code

        var = self.expr.var(finish.var)
        part = f"{self.values[finish.temp]}[{block}]"
        if finish.kind in ("sum", "sub"):
            # BASIC's + and -, which report an overflow of the running total
            combine = "b2t::add" if finish.kind == "sum" else "b2t::sub"
            code = Code(f"{var} = {self.expr.store(f'{combine}({var}, {part})', 'num')};")
            return self.accumulating(finish, stmts) + [code]
        compare = (">" if finish.kind == "max" else "<") + ("" if finish.strict else "=")
        body = [Code(f"{var} = {part};")]
        for payload_var, payload_temp in finish.payload:
            body.append(
                Code(f"{self.expr.var(payload_var)} = {self.values[payload_temp]}[{block}];")
            )
        return [Code(f"if ({part} {compare} {var})", body)]

    def accumulating(self, finish: hostir.Finish, stmts) -> list:
        """The comment and the `line = N;` of the statement a sum's combination belongs
        to (an overflow of the running total is reported at its line)."""
        if finish.origin is None:
            return []
        node = hostir.Simple(finish.origin, origin=finish.origin)
        return stmts.comment_of(finish.origin) + stmts.at_line(node, True)

    def array_args(self, p: ir.ArrayParam, arg) -> list[str]:
        """A kernel's array argument: the device pointer, then the extents."""
        if arg.op == "temp":
            temp = self.values[arg.args[0]]
            return [f"{temp}.data()", f"{temp}.size()"]
        name = arg.args[0]
        array = self.expr.array(name)
        return [f"{self.mirrors[name]}.upload({array})"] + [
            f"{array}.extent({a})" for a in range(p.ndim)
        ]

    def finish(self, finish: hostir.Finish, stmts) -> list:
        from .host_stmt import Code

        expr = self.expr
        var = expr.var(finish.var) if finish.var else ""
        temp = self.values.get(finish.temp, "")
        kind = finish.kind
        if kind in ("sum", "sub"):
            combine = "added_to" if kind == "sum" else "subtracted_from"
            code = Code(f"{var} = {expr.store(f'{temp}.{combine}({var})', 'num')};")
            return self.accumulating(finish, stmts) + [code]
        if kind in ("max", "min"):
            compare = (">" if kind == "max" else "<") + ("" if finish.strict else "=")
            k = self.namer.fresh("block")
            body = [Code(f"{var} = {temp}[{k}];")]
            for payload_var, payload_temp in finish.payload:
                body.append(Code(f"{expr.var(payload_var)} = {self.values[payload_temp]}[{k}];"))
            loop = Code(f"if ({temp}[{k}] {compare} {var})", body)
            return [Code(f"for (int {k} = 0; {k} < {temp}.size(); ++{k})", [loop])]
        if kind == "set":
            return [Code(f"{var} = {expr.store(f'{temp}[0]', 'num')};")]
        if kind == "loop_var":
            read = getattr(stmts, "read_vars", None)
            if read is not None and finish.var not in read:
                return []  # nothing reads it: BASIC's value after the loop does not matter
            count = self.values[finish.count]
            if finish.zero_trip_step:
                count = f"std::max({count}, 1)"
            steps = count if finish.step == 1 else f"{count} * {finish.step}"
            value = Code(
                f"{var} = {expr.store(f'{self.start_text(finish.start)} + {steps}', 'num')};"
            )
            if finish.when:
                runs = " && ".join(f"{self.values[count]} > 0" for count in finish.when)
                return [Code(f"if ({runs})", [value])]
            return [value]
        raise NotImplementedError(f"finish step {kind!r}")

    def arg(self, arg) -> str:
        """A HostValue (or BASIC expression) as a C++ expression."""
        if isinstance(arg, ast.Expr):
            return self.expr.value(arg, None)
        op, args = arg.op, arg.args
        if op == "var":
            return self.expr.var(args[0])
        if op == "num":
            return _number(args[0])
        if op in ("count", "temp"):
            return self.values[args[0]]
        if op == "int":
            return f"b2t::round_to_int({self.expr.value(args[0], None)})"
        if op == "cdiv":
            divisor = args[1]
            if divisor.op == "num" and divisor.args[0] in self.launch_tiles:
                return f"b2t_cdiv({self.arg(args[0])}, {self.tile(divisor.args[0])})"
            return f"b2t_cdiv({self.arg(args[0])}, {self.arg(divisor)})"
        if op in ("add", "sub", "mul"):
            symbol = {"add": " + ", "sub": " - ", "mul": " * "}[op]
            return "(" + symbol.join(self.arg(a) for a in args) + ")"
        if op == "len":
            return f"{self.expr.array(args[0])}.extent({args[1]})"
        raise NotImplementedError(f"host value {op!r} in a launch")


def _number(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return repr(value) if isinstance(value, float) else str(value)
