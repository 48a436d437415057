"""Kernel IR -> CUDA C++ kernels: one block per grid block, tiles spread over threads.

What to do was decided before printing (`kernel.cuda`, passes/kernel/cuda_plan.py: the
block size, the locals, the products, the reductions, the barriers after writes); this
module lays it out:
- Thread t holds elements t, t + threads, ... of every tile value, in a register array
  (`x[slot]`; a plain variable when a tile has at most `threads` elements).  Scalars
  (shape ()) are computed identically by every thread.
- Elementwise statements are loops over the thread's slots, unrolled by the compiler.
- Reduce, Mma, and register values read at elements other threads hold (broadcasts
  between different shapes) go through shared memory, with __syncthreads() between
  the phases (cuda_reduce, cuda_mma).  IR control flow has scalar conditions only, so
  every thread takes the same path and barriers inside loops are safe.
- Loads, gathers, stores, scatters and atomics are per element with bounds checks
  against the (viewed) array extents, which the kernel receives as int parameters;
  loads outside read zero.

`lower_kernel(kernel)` returns a `CudaKernel`: the kernel's C++ text plus what a launcher
needs (parameters, block size, dynamic shared memory, helpers used).
"""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass, field

from ...errors import BasicUnsupportedError, at
from ...ir import kernel as ir
from ...ir.irbuild import broadcast_shape
from ...ir.naming import kernel_namer
from ..basic_origin import kernel_origin_comments, slash_comment_text
from ..kernel_expressions import CPP
from ..render import render
from . import element_types as T
from . import mma as cuda_mma
from . import reduce as cuda_reduce
from . import scan as cuda_scan
from .expr import ArrayInfo, ExprPrinter, ValueInfo, element
from .host_text import cpp_string as c_string
from .index import Index, axis_words, coords_of

MAX_SLOTS = 256  # elements of one tile per thread (registers, unrolled loops)
STATIC_SHARED_LIMIT = 48 * 1024
SHARED_LIMIT = 227 * 1024  # per block, with the opt-in (sm_90 and later)
WARPS = 32  # b2t_block_reduce keeps one result per warp (a block has at most 32 warps)
SYNC = "__syncthreads();"
# Identifiers generated code uses that a BASIC name must not shadow: the math functions
# kernels call (expr.py's, and fmin, fmax), each also with `f`.
RESERVED = {"wmma", "nvcuda", "size_t", "llabs", "atomicAdd", "atomicMax"}
RESERVED |= {name + f for name in {*CPP.math.values(), "fmin", "fmax"} for f in ("", "f")}


@dataclass
class SharedBuffer:
    name: str
    dtype: ir.DType
    count: int
    align: int = 0

    @property
    def bytes(self) -> int:
        return self.count * _SIZES[self.dtype]


_SIZES = {"f16": 2, "bf16": 2, "tf32": 4, "f32": 4, "f64": 8, "i32": 4, "i64": 8, "bool": 1}


@dataclass
class CudaParam:
    """One IR parameter as C++ parameters: an array's pointer and extents, or a scalar."""

    param: ir.KernelParam
    names: list[str]


@dataclass
class CudaKernel:
    name: str
    text: str
    threads: int
    params: list[CudaParam]
    dynamic_shared: int = 0  # bytes the launch must request (0: all shared memory is static)
    helpers: set[str] = field(default_factory=set)


def lower_kernel(kernel: ir.Kernel) -> CudaKernel:
    with at(kernel.origin.coord) if kernel.origin else contextlib.nullcontext():
        return KernelLowering(kernel).run()


class KernelLowering:
    """The state of printing one kernel (also the `scope` its ExprPrinter asks)."""

    def __init__(self, kernel: ir.Kernel):
        if kernel.cuda is None:
            raise ValueError(f"kernel {kernel.name} was not planned (passes/kernel/cuda_plan.py)")
        if kernel.cuda.unsupported is not None:
            raise kernel.cuda.unsupported
        self.kernel = kernel
        self.plan = kernel.cuda
        self.locals = self.plan.locals
        self.threads = self.plan.threads
        self.namer = kernel_namer(kernel, "cpp", taken=set(RESERVED))
        self.function_name = self.namer.ident(kernel.name)
        self.arrays: dict[str, ArrayInfo] = {}
        self.params: dict[str, str] = {}
        self.cuda_params: list[CudaParam] = []
        self._name_params()
        self.values: dict[str, ValueInfo] = {}
        for name, type_ in self.locals.types.items():
            storage = "scalar" if type_.is_scalar else "regs"
            definition = self.locals.index_values.get(name) if not type_.is_scalar else None
            self.values[name] = ValueInfo(
                self.namer.ident(name), type_, storage, type_.dtype, definition
            )
        for var in sorted(self.locals.loop_vars):
            self.values[var] = ValueInfo(self.namer.ident(var), ir.TileType("i32"), "scalar", "i32")
        # The lowering's own names come after the kernel's (kernel_namer named those).
        self.slot = self.namer.fresh("slot")
        self.elem = self.namer.fresh("elem")
        rank = max((len(e.type.shape) for e in ir.expressions(kernel.body)), default=1)
        words = axis_words(rank, "", ("row", "col"), "c") if rank > 1 else []
        self.coord_names = [self.namer.fresh(w) for w in words]
        grid_rank = max(1, len(kernel.grid))
        self.bid_names = [
            self.namer.fresh("bid" if grid_rank == 1 else f"bid{a}") for a in range(grid_rank)
        ]
        self.bids_used: set[int] = set()
        self.temps: dict[int, ValueInfo] = {}
        self.staged: dict[str, str] = {}
        self.shared: list[SharedBuffer] = []
        # Whether shared memory may have been read since the last barrier (then writing
        # shared memory needs one first).
        self.shared_reads = False
        self.helpers: set[str] = set()
        # Static shared memory inside helper functions: (op, type) of each block reduction
        # (every instantiation of b2t_block_reduce has its own warp results), and whether
        # b2t_block_any's flag is used.
        self.block_reductions: set[tuple[str, ir.DType]] = set()
        self.out: list[str] = []
        self.printer = ExprPrinter(self)
        self.printer.tile_names = {v: self.params[n] for v, n in kernel.size_names().items()}
        self.thread_zero = False  # printing a write that only thread 0 does
        self.comments = kernel_origin_comments(kernel.body, "// ", slash_comment_text)
        # (local, first line, end line) of the code computing recomputable locals
        self.recomputable: list[tuple[ValueInfo, int, int]] = []

    def _name_params(self) -> None:
        for p in self.kernel.params:
            if isinstance(p, ir.ArrayParam):
                name = self.namer.ident(p.name, "array")
                words = axis_words(p.ndim, "len", ("rows", "cols"), "dim")
                extents = [self.namer.fresh(f"{name}_{w}") for w in words]
                self.arrays[p.name] = ArrayInfo(name, p.dtype, extents)
                self.cuda_params.append(CudaParam(p, [name, *extents]))
            else:
                name = self.namer.ident(p.name)
                self.params[p.name] = name
                self.cuda_params.append(
                    CudaParam(p, [] if isinstance(p, ir.ConstParam) else [name])
                )

    # ------------------------------------------------------------------ scope (for ExprPrinter)

    def fresh(self, wanted: str) -> str:
        return self.namer.fresh(wanted)

    def param(self, name: str) -> str:
        return self.params[name]

    def local(self, name: str) -> ValueInfo:
        if name not in self.values:
            raise BasicUnsupportedError(f"{name} is read but never assigned in the kernel")
        return self.values[name]

    def array(self, name: str) -> ArrayInfo:
        return self.arrays[name]

    def temp_of(self, e: ir.KExpr) -> ValueInfo | None:
        return self.temps.get(id(e))

    def block_id(self, axis: int) -> str:
        if axis >= len(self.bid_names):
            raise BasicUnsupportedError(
                f"BID({axis}) is used but the grid has {len(self.bid_names)} axes"
            )
        self.bids_used.add(axis)
        return self.bid_names[axis]

    def use_helper(self, name: str) -> None:
        self.helpers.add(name)

    def use_block_reduction(self, op: str, dtype: ir.DType) -> None:
        self.block_reductions.add((op, dtype))
        self.use_helper(f"b2t_block_{op}")

    def nonnegative(self, e: ir.KExpr) -> bool:
        """True when `e` (a tile index) is certainly >= 0, so no lower bound check is needed."""
        return ir.nonnegative(e, set(), self.locals.nonnegative)

    def staged_copy(self, v: ValueInfo) -> str:
        """The shared-memory copy of register value `v` (for reads of other threads' elements)."""
        if v.name not in self.staged:
            self.staged[v.name] = self.shared_buffer(f"{v.name}_shared", v.dtype, v.type.size)
        return self.staged[v.name]

    # ------------------------------------------------------------------ emitting

    def emit(self, line: str) -> None:
        if line.startswith("#") and self.out and self.out[-1].startswith("//"):
            # clang-format puts a comment just above a directive in column 0: keep the
            # BASIC line's comment with the code by a blank line in between
            self.out.append("")
        self.out.append(line)

    def barrier(self) -> None:
        """__syncthreads(): what threads wrote before it is visible to all after it."""
        if not (self.out and self.out[-1] == SYNC):
            self.out.append(SYNC)
        self.shared_reads = False

    def read_shared(self) -> None:
        """Code just emitted reads shared memory: a write must wait for a barrier."""
        self.shared_reads = True

    def barrier_done(self) -> None:
        """Code just emitted ended with a barrier (a block reduction helper)."""
        self.shared_reads = False

    def slots(self, shape: tuple[int, ...]) -> int:
        slots = -(-math.prod(shape) // self.threads)
        if slots > MAX_SLOTS:
            raise BasicUnsupportedError(
                f"a tile of {math.prod(shape)} elements is too large for the CUDA backend "
                f"(at most {MAX_SLOTS * self.threads}: {MAX_SLOTS} per thread of a block)"
            )
        return slots

    def reg(self, v: ValueInfo) -> str:
        """The current thread's own element of register value `v` (in a slot loop)."""
        return f"{v.name}[{self.slot}]" if self.slots(v.type.shape) > 1 else v.name

    def declare(self, v: ValueInfo) -> None:
        slots = self.slots(v.type.shape)
        self.emit(f"{T.c_type(v.dtype)} {v.name}{f'[{slots}]' if slots > 1 else ''};")

    def shared_buffer(self, word: str, dtype: ir.DType, count: int, align: int = 0) -> str:
        name = self.fresh(word)
        self.shared.append(SharedBuffer(name, dtype, count, align))
        return name

    def before_write(self) -> None:
        """A barrier before writing shared memory other threads may still be reading."""
        if self.shared_reads:
            self.barrier()

    def enter_loop(self) -> None:
        self.shared_reads = True  # the previous iteration's reads

    def leave_loop(self) -> None:
        self.shared_reads = True

    def new_temp(
        self, node: ir.KExpr, word: str, storage: str, dtype: ir.DType, fresh: bool = True
    ) -> ValueInfo:
        """A temporary holding the value of `node` (named `word`, made unique if `fresh`)."""
        v = ValueInfo(self.fresh(word) if fresh else word, node.type, storage, dtype)
        self.temps[id(node)] = v
        self.values[v.name] = v
        return v

    def element_loop(self, shape: tuple[int, ...], body) -> None:
        """Emit `body(index)` (lines printed with self.printer) for each element of a tile
        of `shape` this thread holds, after staging the register values it reads remapped."""
        used: set[int] = set()  # the coordinates (-1: the linear index) body reads
        coords = [self.elem] if len(shape) == 1 else self.coord_names[: len(shape)]
        index = Index(shape, self.elem, list(coords), own=True, used=used)
        stmt = self.printer.begin(in_block=True)
        lines = body(index)
        self.stage(stmt.staged)
        n, slots = math.prod(shape), self.slots(shape)
        guard = n % self.threads != 0
        head = []
        if used or guard:
            head.append(
                f"const int {self.elem} = threadIdx.x{f' + {self.threads} * {self.slot}' if slots > 1 else ''};"
            )
        if len(shape) > 1:
            derived = coords_of(self.elem, shape)
            head += [
                f"const int {self.coord_names[a]} = {derived[a]};" for a in sorted(used) if a >= 0
            ]
        inner = head + stmt.preludes + lines
        if slots > 1:
            self.emit("#pragma unroll")
            opening = [f"for (int {self.slot} = 0; {self.slot} < {slots}; ++{self.slot}) {{"]
            if guard:  # the element's index first, then the test
                opening += [inner.pop(0), f"if ({self.elem} < {n}) {{"]
        elif guard:
            opening = [f"if (threadIdx.x < {n}) {{"]
        else:
            opening = ["{"] if inner != lines else []
        closing = ["}" for line in opening if line.endswith("{")]
        for line in opening + inner + closing:
            self.emit(line)
        self.after(stmt)

    def after(self, stmt) -> None:
        """Note what the statement just emitted read (for the next shared-memory write)."""
        if stmt.reads_shared or stmt.staged:
            self.read_shared()

    def stage(self, values: list[ValueInfo]) -> None:
        """Copy register values to shared memory so any thread can read any element."""
        for v in values:
            buffer = self.staged_copy(v)
            self.before_write()
            self.element_loop(
                v.type.shape, lambda index, v=v, b=buffer: [f"{b}[{index.linear}] = {self.reg(v)};"]
            )
            self.barrier()

    def scalar_statement(self, make_line) -> None:
        """A statement outside element loops: its preludes, then its line(s)."""
        stmt = self.printer.begin()
        lines = make_line()
        if stmt.staged:  # a scalar statement reading single elements of a tile
            self.stage(stmt.staged)
        for line in stmt.preludes + lines:
            self.emit(line)
        self.after(stmt)

    def hoist(self, e: ir.KExpr) -> None:
        """Compute the Reduce and Mma nodes of `e` (innermost first) into temporaries."""
        for child in ir.operands(e):
            self.hoist(child)
        if id(e) in self.temps:
            return
        if isinstance(e, ir.Reduce):
            cuda_reduce.lower(self, e)
        elif isinstance(e, ir.Scan):
            cuda_scan.lower(self, e)
        elif isinstance(e, ir.Mma):
            cuda_mma.lower(self, e, None)

    # ------------------------------------------------------------------ statements

    def run(self) -> CudaKernel:
        for name in self.locals.declared_first:
            self.declare(self.values[name])
        constants = [p for p in self.kernel.params if isinstance(p, ir.ConstParam)]
        first = len(self.out)  # after the declarations of locals first bound in a loop or IF
        for p in constants:
            self.emit(f"constexpr int {self.params[p.name]} = {p.value};")
        self.statements(self.kernel.body)
        for v, start, end in reversed(self.recomputable):
            if not v.read_in_registers:  # every use recomputed it from its definition
                del self.out[start:end]
        # A constant no statement used (nvcc #177 and g++ -Wunused-variable warn) goes.
        rest = "\n".join(self.out[:first] + self.out[first + len(constants) :])
        for k in reversed(range(len(constants))):
            if not re.search(rf"\b{re.escape(self.params[constants[k].name])}\b", rest):
                del self.out[first + k]
        prologue = [
            f"const int {self.bid_names[a]} = blockIdx.{'xyz'[a]};" for a in sorted(self.bids_used)
        ]
        shared_lines, dynamic = self._shared_declarations()
        body = shared_lines + prologue + self.out
        name = self.function_name
        text = render(
            "cuda/kernel.cu.jinja",
            name=name,
            summary=slash_comment_text(self.kernel.summary),
            threads=self.threads,
            params=self._signature(),
            body=body,
        )
        return CudaKernel(name, text, self.threads, self.cuda_params, dynamic, set(self.helpers))

    def _signature(self) -> list[str]:
        out = []
        for cp in self.cuda_params:
            p = cp.param
            if isinstance(p, ir.ArrayParam):
                const = "" if p.writes else "const "
                out.append(f"{const}{T.c_type(p.dtype)}* __restrict__ {cp.names[0]}")
                out += [f"int {e}" for e in cp.names[1:]]
            elif isinstance(p, ir.ScalarParam):
                out.append(f"{T.c_type(p.dtype)} {cp.names[0]}")
        return out

    def _shared_declarations(self) -> tuple[list[str], int]:
        offsets, total = [], 0  # each buffer's place in one block of memory, 8-aligned
        for b in self.shared:
            offsets.append(-(-total // max(b.align, 8)) * max(b.align, 8))
            total = offsets[-1] + b.bytes
        if total + self._helper_shared() > SHARED_LIMIT:
            raise BasicUnsupportedError(
                f"kernel {self.kernel.name} needs {total // 1024} KB of shared memory for its "
                f"tiles; a CUDA block has at most {SHARED_LIMIT // 1024} KB (use smaller TILEs)"
            )
        if total + self._helper_shared() <= STATIC_SHARED_LIMIT:
            lines = []
            for b in self.shared:
                align = f"__align__({b.align}) " if b.align else ""
                lines.append(f"__shared__ {align}{T.c_type(b.dtype)} {b.name}[{b.count}];")
            return lines, 0
        # More than the static limit: one dynamic buffer, carved by hand.
        raw = self.fresh("shared_memory")
        lines = [f"B2T_DYNAMIC_SHARED(unsigned char, {raw});"]
        for b, offset in zip(self.shared, offsets):
            ctype = T.c_type(b.dtype)
            lines.append(f"{ctype}* const {b.name} = reinterpret_cast<{ctype}*>({raw} + {offset});")
        return lines, total

    def _helper_shared(self) -> int:
        """Bytes of the static shared memory helper functions declare for this kernel (they
        count against the same per-block limits as the kernel's own)."""
        total = sum(-(-WARPS * _SIZES[d] // 8) * 8 for _, d in self.block_reductions)
        return total + (8 if "b2t_block_any" in self.helpers else 0)

    def statements(self, stmts: list[ir.KStmt]) -> None:
        for s in stmts:
            comment = self.comments.get(id(s))
            if comment:
                self.emit(comment)
            with at(s.origin.coord) if s.origin else contextlib.nullcontext():
                getattr(self, "_" + type(s).__name__)(s)

    def _Let(self, s: ir.Let) -> None:
        v = self.values[s.name]
        declare = s in self.locals.declared_at
        value = s.value
        if isinstance(value, ir.Mma):  # a 2-D tile: in registers
            for child in ir.operands(value):
                self.hoist(child)
            if declare:
                self.declare(v)
            cuda_mma.lower(self, value, v)
            return
        if s in self.plan.reduce_into_local:
            cuda_reduce.into_local(self, value, v, declare)
            return
        self.hoist(value)
        if v.storage == "scalar":
            const = "const " if declare and s.name in self.locals.bound_once else ""
            decl = f"{const}{T.c_type(v.dtype)} " if declare else ""
            self.scalar_statement(lambda: [f"{decl}{v.name} = {self.printer.scalar(value)};"])
            return
        start = len(self.out)
        if declare:
            self.declare(v)
        self.printer.recompute = v.definition is not None
        self.element_loop(
            v.type.shape, lambda index: [f"{self.reg(v)} = {self.printer.at(value, index)};"]
        )
        self.printer.recompute = False
        if (
            declare
            and len(self.out) == start + 2
            and self.out[start + 1].startswith(f"{v.name} = ")
        ):
            # `float x; x = ...;` -> `float x = ...;`
            self.out[start:] = [self.out[start][:-1] + self.out[start + 1][len(v.name) :]]
        if v.definition is not None:
            self.recomputable.append((v, start, len(self.out)))

    def _Store(self, s: ir.Store) -> None:
        self.hoist(s.value)
        array = self.arrays[s.array]
        shape = s.value.type.shape

        def line(index: Index | None) -> list[str]:
            coords, inside = self.printer.tile_element(s.array, s.index, s.view, None, shape, index)
            return [
                self.guarded(
                    inside,
                    f"{element(array, coords)} = {self.printer.at(s.value, index, array.dtype)};",
                )
            ]

        self._write(s.array, shape, line)

    def _write(self, array: str, shape: tuple[int, ...], line) -> None:
        """`line(index)` writes to `array` for each element of a tile of `shape`; a scalar
        write (shape ()): every thread has the value, thread 0 writes it."""
        if shape:
            self.element_loop(shape, line)
        else:
            self.thread_zero = True
            self.scalar_statement(lambda: line(None))
            self.thread_zero = False
        if array in self.plan.sync_after:
            self.barrier()

    def guarded(self, condition: str, action: str) -> str:
        """`if (condition) action` (by thread 0 only in a scalar write)."""
        if self.thread_zero:
            condition = f"threadIdx.x == 0 && {condition}" if condition else "threadIdx.x == 0"
        return f"if ({condition}) {action}" if condition else action

    def _Scatter(self, s: ir.Scatter) -> None:
        self._element_update(s, "{target} = {value};")

    def _AtomicAdd(self, s: ir.AtomicAdd) -> None:
        self._element_update(s, "atomicAdd(&{target}, {value});")

    def _AtomicMax(self, s: ir.AtomicMax) -> None:
        function = "atomicMax" if self.arrays[s.array].dtype == "i32" else "b2t_atomic_max"
        self._element_update(s, function + "(&{target}, {value});")

    def _element_update(self, s, template: str) -> None:
        """Scatter/atomics: `template` for each element of the broadcast operands, with
        the `target` element (when it exists, and the mask is set) and the `value`."""
        array = self.arrays[s.array]
        operands = ir.operands(s)
        for e in operands:
            self.hoist(e)
        shape = ()
        for e in operands:
            shape = broadcast_shape(shape, e.type.shape)

        def update(index: Index | None) -> list[str]:
            target, inside = self.printer.element_at(
                s.array, s.indices, getattr(s, "mask", None), index
            )
            value = self.printer.at(s.value, index, array.dtype)
            return [self.guarded(inside, template.format(target=target, value=value))]

        self._write(s.array, shape, update)

    def _ForRange(self, s: ir.ForRange) -> None:
        if s in self.plan.accumulation_loops:
            cuda_mma.lower_accumulation_loop(self, s)
            return
        self.for_header(s)
        self.loop_body(s.body)
        self.emit("}")

    def for_header(self, s: ir.ForRange) -> None:
        """`for (int v = start; v < stop; ++v) {` (Python's range: stop evaluated once)."""
        for e in (s.start, s.stop):
            self.hoist(e)
        var = self.values[s.var].name
        stmt = self.printer.begin()
        start, stop = self.printer.scalar(s.start), self.printer.scalar(s.stop)
        for line in stmt.preludes:
            self.emit(line)
        self.after(stmt)
        if s in self.locals.fixed_stops:
            bound = self.fresh(f"{var}_stop")
            self.emit(f"const int {bound} = {stop};")
            stop = bound
        compare = "<" if s.step > 0 else ">"
        step = {1: f"++{var}", -1: f"--{var}"}.get(s.step, f"{var} += {s.step}")
        self.emit(f"for (int {var} = {start}; {var} {compare} {stop}; {step}) {{")

    def loop_body(self, body: list[ir.KStmt]) -> None:
        self.enter_loop()
        self.statements(body)
        self.leave_loop()

    def _WhileLoop(self, s: ir.WhileLoop) -> None:
        if not any(isinstance(n, ir.NOT_ELEMENTWISE) for n in ir.walk(s.cond)):
            stmt = self.printer.begin()
            cond = self.printer.scalar(s.cond)
            if not stmt.preludes and not stmt.staged:
                self.emit(f"while ({cond}) {{")
                self.loop_body(s.body)
                self.emit("}")
                return
        # The condition needs statements (a reduction over the tile): test it at the top.
        self.emit("for (;;) {")
        self.enter_loop()
        self.hoist(s.cond)
        self.scalar_statement(lambda: [f"if (!({self.printer.scalar(s.cond)})) break;"])
        self.statements(s.body)
        self.leave_loop()
        self.emit("}")

    def _IfScalar(self, s: ir.IfScalar) -> None:
        self.hoist(s.cond)
        self.scalar_statement(lambda: [f"if ({self.printer.scalar(s.cond)}) {{"])
        self.statements(s.then_body)
        if s.else_body:
            self.emit("} else {")
            self.statements(s.else_body)
        self.emit("}")
        self.shared_reads = True  # either branch's

    def _Break(self, s: ir.Break) -> None:
        self.emit("break;")

    def _Print(self, s: ir.Print) -> None:
        for arg in s.args:
            self.hoist(arg)

        def line() -> list[str]:
            args = "".join(f", {self.printer.scalar(a)}" for a in s.args)
            # One thread prints for the block, as cuTile's printf of a scalar does.
            return [f"if (threadIdx.x == 0) printf({c_string(s.format)}{args});"]

        self.scalar_statement(line)
