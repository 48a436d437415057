"""Kernel launches in a generated C++ host program: what is CUDA's in them.

The launch itself (its counts, condition, replay, restore and finish) is lowered once
for both targets by hostcode/launch.py; this module is the C++ target it asks (and lays
out through hostcode/syntax.py's C++ table).  Each BASIC array a kernel uses gets a
device mirror, a member of `struct Program` next to the array
(`b2t::DeviceArray<double> x_device;`; DeviceArray, DeviceTemp and loop_count are in
transpiler/cpp_runtime/b2t_launch.h, written beside the .cu):
- a launch uploads the host array when host code may have changed it since the last
  copy (and reallocates when a DIM changed its size);
- the arrays a kernel writes are then newer on the device;
- `ToHost` (placed by the offload pass before host code that touches kernel arrays)
  downloads them when they are newer there, after which host code may change them.
So arrays stay on the GPU across consecutive launches.  Scratch arrays (partial
results, the flags of the blocks a kernel finished) are `DeviceTemp`s.

`KernelLaunches` is the object the host printer (cuda/host.py) asks for these lines.
"""

from __future__ import annotations

from ...hostcode.launch import LaunchLowering, LaunchTarget
from ...hostcode.nodes import Declare, If, Line, Raw
from ...ir import hostir
from ...ir import kernel as ir
from ..host_statements import Code
from .build import grid_nonempty
from .element_types import c_type
from .kernels import CudaKernel, lower_kernel


class KernelLaunches(LaunchTarget):
    """Launch code of one host program; `expr` is the host printer's expression printer
    (cuda/host_expr.py's ExprPrinter)."""

    def __init__(self, host: hostir.HostProgram, expr, lowered: dict | None = None):
        super().__init__(host, expr)
        lowered = lowered or {}
        self.kernels: dict[str, CudaKernel] = {
            k.name: lowered.get(k.name) or lower_kernel(k) for k in host.kernels
        }
        self.name_tiles({k.name: self.kernels[k.name].name for k in host.kernels})
        used = sorted(
            {
                p.name
                for k in host.kernels
                for p in k.params
                if isinstance(p, ir.ArrayParam) and p.name in host.analysis.arrays
            }
        )
        self.mirrors = {name: self.namer.fresh(f"{expr.array(name)}_device") for name in used}

    # ----------------------------------------------------------------- program parts

    def uses_launch_header(self) -> bool:
        """Whether the program includes b2t_launch.h (its launches' host-side classes)."""
        return bool(self.host.kernels)

    def members(self) -> list:
        arrays = self.host.analysis.arrays
        out = []
        if self.mirrors:
            out.append(Code("// The device copies of the arrays the kernels use."))
        for name, mirror in self.mirrors.items():
            element = self.expr.cpp_type(arrays[name].elem_type)  # a double array's: double
            out.append(Code(f"b2t::DeviceArray<{element}> {mirror};"))
        return out

    def to_host(self, node: hostir.ToHost) -> list:
        return [
            Code(f"{self.mirrors[a]}.download({self.expr.array(a)});")
            for a in node.arrays
            if a in self.mirrors
        ]

    # ------------------------------------------- what LaunchLowering asks of the target

    def sum_of_blocks(self, kind: str, var: str, temp: str) -> str:
        return f"{temp}.{'added_to' if kind == 'sum' else 'subtracted_from'}({var})"

    def block_loop_names(self) -> tuple[str, None]:
        return self.namer.fresh("block"), None

    element_loop_names = block_loop_names

    def count(self, count: hostir.LoopCount, name: str, lowering: LaunchLowering) -> list:
        pre: list[str] = []
        limit = self.expr.double_value(count.limit, pre)
        if count.limit_offset:  # a triangle's box: the outer loop's limit plus c
            limit = f"{limit} + {count.limit_offset}"
        if isinstance(count.start, int):
            counted = f"b2t::loop_count({count.start}, {limit}, {count.step})"
        else:  # a start of enclosing loops' variables: count from 0 to limit - start
            start = lowering.start_text(count.start)
            counted = f"b2t::loop_count(0, ({limit}) - {start}, {count.step})"
        return [Raw(line) for line in pre] + [Declare("const int", name, counted)]

    def scratch(self, temp: hostir.Temp, name: str, size: str) -> list:
        return [Raw(f"b2t::DeviceTemp<{c_type(temp.dtype)}> {name}({size});")]

    def kernel_launch(self, node: hostir.Launch, lowering: LaunchLowering) -> list:
        """The grid, the launch (with the download of the scratch arrays)."""
        cuda = self.kernels[node.kernel.name]
        values = lowering.values
        args = []
        for p, arg in zip(node.kernel.params, node.args):
            if isinstance(p, ir.ConstParam):
                continue
            if isinstance(p, ir.ArrayParam):
                args += self.array_args(p, arg, values)
            else:
                args.append(lowering.arg(arg))
        grid = [lowering.arg(g) for g in node.grid] + ["1"] * (3 - len(node.grid))
        body = []
        if cuda.dynamic_shared:
            body.append(
                Line(
                    f"B2T_CHECK(cudaFuncSetAttribute(::{cuda.name}, "
                    f"cudaFuncAttributeMaxDynamicSharedMemorySize, {cuda.dynamic_shared}))"
                )
            )
        call = f"B2T_LAUNCH(::{cuda.name}, grid, {cuda.threads}, {cuda.dynamic_shared})"
        body.append(Line(f"{call}({', '.join(args)})"))
        body.append(Line("B2T_CHECK(cudaGetLastError())"))
        body += [Line(f"{self.mirrors[a]}.written()") for a in node.writes if a in self.mirrors]
        return [
            Raw(f"const dim3 grid({', '.join(grid)});"),
            If(grid_nonempty(grid), body),
        ] + [Line(f"{values[temp.name]}.download()") for temp in node.temps]

    def array_args(self, p: ir.ArrayParam, arg, values: dict) -> list[str]:
        """A kernel's array argument: the device pointer, then the extents."""
        if arg.op == "temp":
            temp = values[arg.args[0]]
            return [f"{temp}.data()", f"{temp}.size()"]
        name = arg.args[0]
        upload = f"{self.mirrors[name]}.upload({self.expr.array(name)})"
        return [upload] + [self.extent(name, a) for a in range(p.ndim)]

    def save(self, arrays: list[str]) -> list:
        return [Line(f"{self.mirrors[a]}.save({self.expr.array(a)})") for a in arrays]

    def restore(self, arrays: list[str]) -> list:
        return [Line(f"{self.mirrors[a]}.restore()") for a in arrays]
