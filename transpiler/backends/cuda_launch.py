"""Kernel launches in a generated C++ host program: `hostir.Launch` and `hostir.ToHost`.

The C++ twin of the launch code in python_host_kernels.py (same steps, same order, same
results).  Each BASIC array a kernel uses gets a device mirror, a member of
`struct Program` next to the array (`DeviceArray<double> x_device;`):
- a launch uploads the host array when host code may have changed it since the last
  copy (and reallocates when a DIM changed its size);
- the arrays a kernel writes are then newer on the device;
- `ToHost` (placed by the offload pass before host code that touches kernel arrays)
  downloads them when they are newer there, after which host code may change them.
So arrays stay on the GPU across consecutive launches.

A launch is: the loop counts, the subscript checks (BASIC's "subscript out of range" at
the statement whose subscript it is, before anything runs), the scratch arrays (partial
results, the error flag), the kernel, then the finish steps (combining the blocks'
partial results in block order, the loop variables' final values, the error flag).

`KernelLaunches` is the object the host printer (cuda_host.py) asks for these lines.
"""

from __future__ import annotations

from .. import ast, hostir, ir
from ..naming import Namer
from .cuda_kernels import CudaKernel, lower_kernel
from .cuda_types import c_type
from .render import render

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

    def helpers(self) -> str:
        """Host-side classes the launches use (inside the program's namespace)."""
        if not self.host.kernels:
            return ""
        return render("cuda/launch_support.cu.jinja")

    def members(self) -> list:
        from .cuda_host_stmt import Code

        element = self.expr.cpp_type("num")  # the element type of numeric BASIC arrays
        out = []
        if self.mirrors:
            out.append(Code("// The device copies of the arrays the kernels use."))
        for mirror in self.mirrors.values():
            out.append(Code(f"DeviceArray<{element}> {mirror};"))
        return out

    def to_host(self, node: hostir.ToHost) -> list:
        from .cuda_host_stmt import Code

        return [
            Code(f"{self.mirrors[a]}.download({self.expr.array(a)});")
            for a in node.arrays
            if a in self.mirrors
        ]

    # ----------------------------------------------------------------- a launch

    def launch(self, node: hostir.Launch, stmts) -> list:
        from .cuda_host_stmt import Code

        cuda = self.kernels[node.kernel.name]
        out: list = []
        self.values = {}
        for shape in node.shapes:  # MAT C = A * B: check A and B, give C its shape
            if stmts.tracks_lines:
                line = stmts.line_numbers.get(shape.node.coord.line, 0)
                out.append(Code(f"{stmts.line_var} = {line};"))
            arrays = ", ".join(
                self.expr.array(n) for n in (shape.target, shape.left, shape.right)
            )
            out.append(Code(f"b2t::mat_product_shape({arrays});"))
        for count in node.counts:
            name = self.values[count.name] = self.namer.fresh(count.name.lower())
            pre: list[str] = []
            limit = self.expr.double_value(count.limit, pre)
            out += [Code(line) for line in pre]
            out.append(
                Code(f"const int {name} = loop_count({count.start}, {limit}, {count.step});")
            )
        by_count: dict[str, list] = {}
        for check in node.checks:
            by_count.setdefault(check.count, []).append(check)
        for count, checks in by_count.items():
            body = []
            for check in checks:
                body += self.check(check, stmts)
            out.append(Code(f"if ({self.values[count]} > 0)", body))
        for temp in node.temps:
            name = self.values[temp.name] = self.namer.fresh(temp.name.lower())
            out.append(Code(f"DeviceTemp<{c_type(temp.dtype)}> {name}({self.arg(temp.size)});"))
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
        launch.append(Code("if (grid.x > 0 && grid.y > 0 && grid.z > 0)", body))
        out += launch
        for temp in node.temps:
            out.append(Code(f"{self.values[temp.name]}.download();"))
        for finish in node.finish:
            out += self.finish(finish, stmts)
        return [Code("", out)]  # a block: its names are local to this launch

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

    def check(self, check: hostir.RangeCheck, stmts) -> list:
        """BASIC's subscript check for the elements the kernel will touch, located at the
        statement whose subscript it is."""
        from .cuda_host_stmt import Code

        out = []
        node = check.node
        if isinstance(node, ast.Stmt):
            out += stmts.comment(hostir.Simple(node, origin=node))
        if stmts.tracks_lines:
            out.append(Code(f"{stmts.line_var} = {stmts.line_numbers.get(node.coord.line, 0)};"))
        first = _number(check.start + check.offset)
        out.append(
            Code(
                f"{self.expr.array(check.array)}.check_run({check.axis}, {first}, {self.values[check.count]});"
            )
        )
        return out

    def finish(self, finish: hostir.Finish, stmts) -> list:
        from .cuda_host_stmt import Code

        expr = self.expr
        var = expr.var(finish.var) if finish.var else ""
        temp = self.values.get(finish.temp, "")
        kind = finish.kind
        if kind in ("sum", "sub"):
            op = "+" if kind == "sum" else "-"
            return [Code(f"{var} = {expr.store(f'{var} {op} {temp}.sum()', 'num')};")]
        if kind == "prod":
            return [Code(f"{var} = {expr.store(f'{var} * {temp}.product()', 'num')};")]
        if kind in ("max", "min"):
            compare = (">" if kind == "max" else "<") + ("" if finish.strict else "=")
            k = self.namer.fresh("block")
            body = [Code(f"{var} = {temp}[{k}];")]
            for payload_var, payload_temp in finish.payload:
                body.append(Code(f"{expr.var(payload_var)} = {self.values[payload_temp]}[{k}];"))
            loop = Code(f"if ({temp}[{k}] {compare} {var})", body)
            return [Code(f"for (int {k} = 0; {k} < {temp}.size(); ++{k})", [loop])]
        if kind == "loop_var":
            read = getattr(stmts, "read_vars", None)
            if read is not None and finish.var not in read:
                return []  # nothing reads it: BASIC's value after the loop does not matter
            count = self.values[finish.count]
            steps = count if finish.step == 1 else f"{count} * {finish.step}"
            value = Code(f"{var} = {expr.store(f'{finish.start} + {steps}', 'num')};")
            if finish.when:
                return [Code(f"if ({self.values[finish.when]} > 0)", [value])]
            return [value]
        if kind == "errors":
            out = []
            for number, site in sorted(finish.sites.items()):
                stmt = site.stmt
                body = list(stmts.comment(hostir.Simple(stmt, origin=stmt)))
                if stmts.tracks_lines:
                    body.append(
                        Code(f"{stmts.line_var} = {stmts.line_numbers.get(stmt.coord.line, 0)};")
                    )
                detail = f', "{site.detail}"' if site.detail else ""
                body.append(Code(f"throw b2t::Fault({_ERROR_CONSTANTS[site.kind]}{detail});"))
                out.append(Code(f"if ({temp}[0] == {number})", body))
            return out
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
            return f"b2t_cdiv({self.arg(args[0])}, {self.arg(args[1])})"
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
