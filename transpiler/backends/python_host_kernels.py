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
from .cutile_expr import NP_DTYPES, CutileExprPrinter
from .python_host_expr import ExprPrinter, number_literal

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
        self.names = {k.name: expr.namer.fresh(Namer("python").name(k.name)) for k in host.kernels}
        self.views = {k.name: self._view(k) for k in host.kernels}

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
        def_name = self.names[kernel.name]

        def name(basic_name: str) -> str:
            # The def takes the launch's name, which the host namer kept clear of BASIC
            # variables (a scalar MAP_30 would otherwise hide kernel map_30).  Kernel names
            # are lower case and BASIC names upper case, so the two never mix up.
            return def_name if basic_name == kernel.name else printer.name(basic_name)

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
        """The counts, range checks and scratch arrays, the launch, then the finish."""
        from .python_host_stmt import Code

        expr = self.expr
        self.values: dict[str, str] = {}  # LoopCount / Temp name -> Python name
        out: list = []
        for shape in node.shapes:  # MAT C = A * B: check A and B, give C its shape
            helper = expr.need("mat_product_shape")
            arrays = ", ".join(expr.array(n) for n in (shape.target, shape.left, shape.right))
            out.append(Code(f"{helper}({arrays})"))
        for count in node.counts:
            name = self.values[count.name] = expr.namer.fresh(count.name.lower())
            out.append(Code(f"{name} = {self.count_text(count)}"))
        by_count: dict[str, list] = {}
        for check in node.checks:
            by_count.setdefault(check.count, []).append(check)
        for count, checks in by_count.items():
            body = []
            for check in checks:
                body += self.check(check, node, stmts)
            out.append(Code(f"if {self.values[count]} > 0:", body))
        for temp in node.temps:
            name = self.values[temp.name] = expr.namer.fresh(temp.name.lower())
            size = self.arg(temp.size)
            np = self.expr.need("np")
            out.append(Code(f"{name} = {np}.zeros({size}, dtype={NP_DTYPES[temp.dtype]})"))
        kernel = node.kernel
        view = self.views[kernel.name]
        args = []
        for p, arg in zip(kernel.params, node.args):
            if isinstance(p, ir.ConstParam):
                args.append(str(p.value))
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
        out.append(Code(call))
        for temp in node.temps:
            out.append(Code(f"dev.to_host({self.values[temp.name]})"))
        for finish in node.finish:
            out += self.finish(finish, stmts)
        return out

    def count_text(self, count: hostir.LoopCount) -> str:
        """The number of iterations of FOR v = start TO limit STEP step (integers start
        and step, the limit evaluated once)."""
        limit = self.expr.value(count.limit)
        return f"{self.expr.need('loop_count')}({count.start}, {limit}, {count.step})"

    def check(self, check: hostir.RangeCheck, launch: hostir.Launch, stmts) -> list:
        """BASIC's subscript check for the elements the kernel touches, before it runs
        (under the comment of the statement whose subscript it is, which locates the
        error)."""
        from .python_host_stmt import Code

        out = []
        stmt = stmts.statement_holding(check.node)
        if stmt is not None and stmt is not launch.origin:
            out += [Code(c.text) for c in stmts.comment_of(stmt)]
        first = number_text(check.start + check.offset)
        count = self.values[check.count]
        out.append(
            Code(f"{self.expr.array(check.array)}.check_run({check.axis}, {first}, {count})")
        )
        return out

    def finish(self, finish: hostir.Finish, stmts) -> list:
        from .python_host_stmt import Code

        expr = self.expr
        var = expr.var(finish.var) if finish.var else ""
        temp = self.values.get(finish.temp, "")
        kind = finish.kind
        if kind in ("sum", "sub"):
            op = "+" if kind == "sum" else "-"
            return [Code(f"{var} = {var} {op} sum({temp}.tolist())")]
        if kind == "prod":
            return [Code(f"{var} = {var} * {expr.need('math')}.prod({temp}.tolist())")]
        if kind in ("max", "min"):
            compare = (">" if kind == "max" else "<") + ("" if finish.strict else "=")
            if finish.strict and not finish.payload:
                # max(v, value) is `value if value > v else v`, NaN included
                return [Code(f"{var} = {kind}([{var}, *{temp}.tolist()])")]
            body = [Code(f"{var} = value")]
            for payload_var, payload_temp in finish.payload:
                # float(): a NumPy scalar would not be a valid kernel argument later
                payload = f"float({self.values[payload_temp]}[k])"
                body.append(Code(f"{expr.var(payload_var)} = {payload}"))
            return [
                Code(
                    f"for k, value in enumerate({temp}.tolist()):",
                    [Code(f"if value {compare} {var}:", body)],
                )
            ]
        if kind == "loop_var":
            if finish.var not in stmts.read_vars:
                return []  # nothing reads it: BASIC's value after the loop does not matter
            count = self.values[finish.count]
            steps = count if finish.step == 1 else f"{count} * {finish.step}"
            value = Code(f"{var} = float({finish.start} + {steps})")
            if finish.when:
                return [Code(f"if {self.values[finish.when]} > 0:", [value])]
            return [value]
        if kind == "errors":
            fault = expr.need("BasicFault")
            out = []
            for number, site in sorted(finish.sites.items()):
                body = [Code(c.text) for c in stmts.comment_of(site.stmt)]
                args = ", ".join(repr(a) for a in (ERROR_TEXT[site.kind], site.detail) if a)
                body.append(Code(f"raise {fault}({args})"))
                out.append(Code(f"if {temp}[0] == {number}:", body))
            return out
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
            return f"-(-{self._operand(args[0])} // {self._operand(args[1])})"
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
