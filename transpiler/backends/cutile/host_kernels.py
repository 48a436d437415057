"""Kernels in a generated host program: their definitions and their launches.

The offload pass (the lead's) replaces parallel FOR loops by `hostir.Launch` nodes and
puts the kernels in `HostProgram.kernels`.  Each kernel is printed above `program()` with
the shared `kernel_def` macro (templates/cutile/macros.py.jinja), exactly as in a cuTile
BASIC kernel program; each launch becomes

    dev.launch(saxpy_kernel, (grid,), (y.data, x.data, a), writes=(y.data,))

where `dev` is the `basic2tile_runtime.device` the program runs its kernels on, and BASIC
arrays are passed as their NumPy storage (`.data`).  Float64 scalar parameters travel in
one-element arrays, as in the kernel program module (cuTile passes Python floats as f32).

The launch's counts, condition, replay, restore and finish are lowered once for both
targets by hostcode/launch.py; `KernelPrinter` is the Python target it asks (the launch
call, NumPy scratch arrays, `dev.snapshot`/`dev.restore`), laid out through
hostcode/syntax.py's Python table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...hostcode.launch import LaunchLowering, LaunchTarget
from ...hostcode.nodes import Declare, Line
from ...ir import hostir
from ...ir import kernel as ir
from ...ir.naming import kernel_namer
from ..host_statements import Code
from .expr import NP_DTYPES, CutileExprPrinter
from .host_expr import ExprPrinter
from .program import KernelInterface, kernel_interface, origin_comments


@dataclass
class KernelView:
    """What the kernel_def macro (templates/cutile/macros.py.jinja) needs for one kernel."""

    kernel: ir.Kernel
    interface: KernelInterface  # its parameters, and how each is passed
    expr: CutileExprPrinter
    name: object  # IR name -> its name in the def (the def's own: the host's name of it)
    comment: object  # IR statement -> its `# 50 ...` comment, or ""


class KernelPrinter(LaunchTarget):
    def __init__(self, host: hostir.HostProgram, expr: ExprPrinter):
        super().__init__(host, expr)
        # The module-level names of the kernels, which program() (the scope of the BASIC
        # variables) must not hide: a scalar MAP_30 would otherwise hide kernel map_30.
        self.names = {k.name: expr.namer.ident(k.name, "kernel") for k in host.kernels}
        self.views = {k.name: self._view(k) for k in host.kernels}
        self.name_tiles(self.names)
        self._block_names: tuple[str, str] | None = None
        self.saved: dict[str, str] = {}  # array -> the copy `snapshots` took

    def definitions(self) -> list[KernelView]:
        return [self.views[k.name] for k in self.host.kernels]

    def _view(self, kernel: ir.Kernel) -> KernelView:
        namer = kernel_namer(kernel, "python")
        printer = CutileExprPrinter(namer, kernel=kernel)
        interface = kernel_interface(kernel, namer)
        def_name = self.names[kernel.name]

        def name(ir_name: str) -> str:
            return def_name if ir_name == kernel.name else printer.name(ir_name)

        return KernelView(kernel, interface, printer, name, origin_comments(kernel))

    # ------------------------------------------- what LaunchLowering asks of the target

    def to_host(self, node: hostir.ToHost) -> list:
        return [Code(f"dev.to_host({self.expr.array(name)}.data)") for name in node.arrays]

    def sum_of_blocks(self, kind: str, var: str, temp: str) -> str:
        return (
            f"{self.expr.need('add_all' if kind == 'sum' else 'sub_all')}({var}, {temp}.tolist())"
        )

    def array_arg(self, array: str) -> str:
        return f"{self.expr.array(array)}.data"

    def block_loop_names(self) -> tuple[str, str]:
        return self.namer.fresh("block"), self.namer.fresh("finished")

    def element_loop_names(self) -> tuple[str, str]:
        """The variables of the loops over the blocks' results (one pair serves all)."""
        if self._block_names is None:
            self._block_names = (self.namer.fresh("block"), self.namer.fresh("value"))
        return self._block_names

    def count(self, count: hostir.LoopCount, name: str, lowering: LaunchLowering) -> list:
        """The number of iterations of FOR v = start TO limit STEP step (integers start
        and step, the limit evaluated once)."""
        limit = self.expr.value(count.limit)
        if count.limit_offset:  # a triangle's box: the outer loop's limit plus c
            limit = f"{limit} + {count.limit_offset}"
        start = lowering.start_text(count.start)
        counted = f"{self.expr.need('loop_count')}({start}, {limit}, {count.step})"
        return [Declare("int", name, counted)]

    def scratch(self, temp: hostir.Temp, name: str, size: str) -> list:
        zeros = f"{self.expr.need('np')}.zeros({size}, dtype={NP_DTYPES[temp.dtype]})"
        return [Declare("", name, zeros)]

    def kernel_launch(self, node: hostir.Launch, lowering: LaunchLowering) -> list:
        """`dev.launch(...)`, then the scratch arrays back to the host."""
        kernel = node.kernel
        args = []
        for (how, value), arg in zip(self.views[kernel.name].interface.passing, node.args):
            if how == "const":
                args.append(self.tile(value))
                continue
            text = lowering.arg(arg)
            if how == "box":  # an f64 scalar, in a one-element array
                text = f"{self.expr.need('np')}.array([{text}], dtype=np.float64)"
            args.append(text)
        temps = [lowering.values[t.name] for t in node.temps]
        writes = [f"{self.expr.array(name)}.data" for name in node.writes] + temps
        grid = _tuple([lowering.arg(g) for g in node.grid])
        call = f"dev.launch({self.names[kernel.name]}, {grid}, {_tuple(args)}"
        call += f", writes={_tuple(writes)})" if writes else ")"
        return [Line(call)] + [Line(f"dev.to_host({temp})") for temp in temps]

    def save(self, arrays: list[str]) -> list:
        """Copies of the arrays a launch (or a distributed loop) may have to undo."""
        out = []
        for name in arrays:
            array = self.expr.array(name)
            self.saved[name] = self.namer.fresh(f"{array}_before")
            out.append(Line(f"{self.saved[name]} = dev.snapshot({array}.data)"))
        return out

    def restore(self, arrays: list[str]) -> list:
        """Put back what `save` saved."""
        return [
            Line(f"dev.restore({self.expr.array(name)}.data, {self.saved[name]})")
            for name in arrays
        ]


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
