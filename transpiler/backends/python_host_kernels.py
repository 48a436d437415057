"""Kernels in a generated host program: their definitions and their launches.

The offload pass (the lead's) replaces parallel FOR loops by `hostir.Launch` nodes and
puts the kernels in `HostProgram.kernels`.  Each kernel is printed above `program()` with
the shared `kernel_def` macro (templates/cutile/macros.py.jinja), exactly as in a cuTile
BASIC kernel program; each launch becomes

    dev.launch(saxpy_kernel, (grid,), (y.data, x.data, a), writes=(y.data,))

where `dev` is the `transpiler.device` the program runs its kernels on, and BASIC arrays
are passed as their NumPy storage (`.data`).  Float64 scalar parameters travel in
one-element arrays, as in the kernel program module (cuTile passes Python floats as f32).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ast, hostir, ir
from ..naming import Namer
from .cutile import OriginComments
from .cutile_expr import CutileExprPrinter
from .python_host_expr import ExprPrinter, number_literal


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
        self.views = {k.name: self._view(k) for k in host.kernels}
        self.names = {k.name: expr.namer.fresh(Namer("python").name(k.name)) for k in host.kernels}

    def definitions(self) -> list[KernelView]:
        return [self.views[k.name] for k in self.host.kernels]

    def _view(self, kernel: ir.Kernel) -> KernelView:
        namer = Namer("python")
        printer = CutileExprPrinter(namer)
        params, prologue, boxed = [], [], set()
        for p in kernel.params:
            if isinstance(p, ir.ArrayParam):
                params.append(namer.name(p.name, "array"))
            elif isinstance(p, ir.ScalarParam) and p.dtype == "f64":
                var = namer.name(p.name)
                box = namer.fresh(var + "_box")
                params.append(box)
                prologue.append(f"{var} = ct.load({box}, index=(0,), shape=())")
                boxed.add(p.name)
            elif isinstance(p, ir.ScalarParam):
                params.append(namer.name(p.name))
            else:
                params.append(f"{namer.name(p.name)}: ct.Constant[int]")
        return KernelView(
            kernel,
            params,
            prologue,
            printer,
            printer.name,
            OriginComments(kernel.body),
            printer.view,
            printer.index,
            boxed,
        )

    # ----------------------------------------------------------------- launches

    def launch(self, node: hostir.Launch, stmts) -> list:
        from .python_host_stmt import Code

        kernel = node.kernel
        view = self.views[kernel.name]
        args, writes = [], []
        for p, arg in zip(kernel.params, node.args):
            if isinstance(p, ir.ConstParam):
                args.append(str(p.value))
                continue
            text = self.arg(arg)
            if isinstance(p, ir.ScalarParam) and p.name in view.boxed:
                text = f"np.array([{text}], dtype=np.float64)"
            args.append(text)
            if isinstance(p, ir.ArrayParam) and p.writes:
                writes.append(text)
        grid = "(" + ", ".join(self.arg(g) for g in node.grid) + ("," if len(node.grid) == 1 else "") + ")"
        call = f"dev.launch({self.names[kernel.name]}, {grid}, {_tuple(args)}"
        call += f", writes={_tuple(writes)})" if writes else ")"
        return [Code(call)] + stmts.nodes(node.after)

    def arg(self, arg) -> str:
        if isinstance(arg, ast.Expr):
            return self.expr.value(arg)
        op, args = arg.op, arg.args
        if op == "var":
            return self.expr.var(args[0])
        if op == "num":
            return number_literal(args[0]) if isinstance(args[0], float) else str(args[0])
        if op == "int":
            return f"{self.expr.need('round_to_int')}({self.expr.value(args[0])})"
        if op == "cdiv":
            return f"-(-{self._operand(args[0])} // {self._operand(args[1])})"
        if op in ("add", "sub", "mul"):
            symbol = {"add": "+", "sub": "-", "mul": "*"}[op]
            return f"({self.arg(args[0])} {symbol} {self.arg(args[1])})"
        if op == "array":
            return f"{self.expr.array(args[0])}.data"
        if op == "len":
            return f"{self.expr.array(args[0])}.data.shape[{args[1]}]"
        raise NotImplementedError(f"host value {op!r} in a launch")

    def _operand(self, arg) -> str:
        text = self.arg(arg)
        return text if text.replace("_", "").isalnum() else f"({text})"


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
