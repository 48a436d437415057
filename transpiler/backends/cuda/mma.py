"""Mma nodes (`a @ b + acc` on 2-D tiles) as shared-memory matrix products; which
product each is (WMMA fragments or SIMT, its layout) was decided by
passes/kernel/mma_strategy.py (`lw.plan.products`).

Both operands are staged in shared memory (their loads are coalesced: consecutive
threads read consecutive elements), then:
- tensor cores (WMMA): the accumulator goes through shared memory into fragments, each
  warp computes some tiles of the result, and the result comes back to the threads'
  registers;
- SIMT: each thread accumulates its own elements of the result in registers.  When every
  thread holds elements of one column, it reads B's elements of its column once per k
  for all its rows, and A's consecutive k of a row with one 16-byte shared load, the same
  for the whole warp (a broadcast): about one shared load per four FMAs.

A GEMM main loop (`lw.plan.accumulation_loops`) keeps the accumulator in WMMA fragments
for the whole loop instead of moving it through shared memory at every step.
"""

from __future__ import annotations

from ...ir import kernel as ir
from ...ir.cuda_plan import ProductPlan
from . import element_types as T
from .expr import ValueInfo


def lower(lw, e: ir.Mma, target: ValueInfo | None) -> None:
    """Compute `e` into register value `target` (a new temporary when None)."""
    if target is None:
        target = lw.new_temp(e, "product", "regs", e.type.dtype)
        lw.declare(target)
    product = lw.plan.products[e]
    a_tile = stage(lw, e.a, "lhs", product.align)
    b_tile = stage(lw, e.b, "rhs", product.align)
    if product.fragment is not None:
        _wmma(lw, e, target, a_tile, b_tile, product)
        return
    acc = e.acc
    if not (isinstance(acc, ir.Local) and lw.values.get(acc.name) is target):
        _assign(lw, target, acc)
    lw.barrier()
    _simt(lw, e, target, a_tile, b_tile, product)


def stage(lw, x: ir.KExpr, word: str, align: int) -> str:
    """Copy tile `x` into a new shared-memory array (row-major); returns its name."""
    if isinstance(x, ir.Load):
        word = lw.array(x.array).name + "_tile"
    elif isinstance(x, ir.Cast) and isinstance(x.operand, ir.Load):
        word = lw.array(x.operand.array).name + "_tile"
    buffer = lw.shared_buffer(word, x.type.dtype, x.type.size, align)
    lw.before_write()
    lw.element_loop(
        x.type.shape, lambda index: [f"{buffer}[{index.linear}] = {lw.printer.at(x, index)};"]
    )
    return buffer


def _assign(lw, target: ValueInfo, value: ir.KExpr) -> None:
    def line(index):
        return [f"{lw.reg(target)} = {lw.printer.at(value, index, target.dtype)};"]

    lw.element_loop(target.type.shape, line)


def _simt(lw, e: ir.Mma, target: ValueInfo, a_tile: str, b_tile: str, product: ProductPlan):
    (m, k_size), (_, n) = e.a.type.shape, e.b.type.shape
    dtype = e.a.type.dtype
    k = lw.fresh("k")

    def a(at: str) -> str:
        return T.to_compute(f"{a_tile}[{at}]", dtype)

    def b(at: str) -> str:
        return T.to_compute(f"{b_tile}[{at}]", dtype)

    row, col = lw.coord_names[:2]
    if product.column_per_thread:  # rows row, row + rows_apart, ...
        rows_apart = product.rows_apart
        slots = lw.slots((m, n))
        rhs = lw.fresh("rhs")
        lw.emit("{")
        lw.emit(f"const int {col} = threadIdx.x % {n};")
        lw.emit(
            f"const int {row} = threadIdx.x / {n};  // then every {rows_apart} rows"
            if slots > 1
            else f"const int {row} = threadIdx.x / {n};"
        )
        ctype = T.c_type(T.compute_type(dtype))
        step = product.vector
        if step > 1:
            # `step` consecutive k at a time: A's values are adjacent in a row of a_tile
            # (one 16-byte shared load), B's are reused by all of this thread's rows.
            i, lhs = lw.fresh("i"), lw.fresh("lhs")
            lw.emit(f"for (int {k} = 0; {k} < {k_size}; {k} += {step}) {{")
            lw.emit(f"{ctype} {rhs}[{step}];")
            lw.emit("#pragma unroll")
            lw.emit(
                f"for (int {i} = 0; {i} < {step}; ++{i}) {rhs}[{i}] = {b(f'({k} + {i}) * {n} + {col}')};"
            )
            first = _each_row(lw, slots, row, rows_apart, f" * {k_size} + {k}", "{")
            lw.emit(f"const {ctype}* {lhs} = {a_tile} + {first};")
            lw.emit("#pragma unroll")
            lw.emit(
                f"for (int {i} = 0; {i} < {step}; ++{i}) {lw.reg(target)} += {lhs}[{i}] * {rhs}[{i}];"
            )
            lw.emit("}")
        else:
            lw.emit(f"for (int {k} = 0; {k} < {k_size}; ++{k}) {{")
            lw.emit(f"const {ctype} {rhs} = {b(f'{k} * {n} + {col}')};")
            at = _each_row(lw, slots, row, rows_apart, f" * {k_size} + {k}")
            lw.emit(f"{lw.reg(target)} += {a(at)} * {rhs};")
            if slots > 1:
                lw.emit("}")
        lw.emit("}")
        lw.emit("}")
        lw.read_shared()
        return

    def body(index):
        r, c = index.coord(0), index.coord(1)
        return [
            f"for (int {k} = 0; {k} < {k_size}; ++{k}) {{",
            f"{lw.reg(target)} += {a(f'{r} * {k_size} + {k}')} * {b(f'{k} * {n} + {c}')};",
            "}",
        ]

    lw.element_loop((m, n), body)
    lw.read_shared()


def _each_row(lw, slots: int, row: str, rows_apart: int, offset: str, block: str = "") -> str:
    """Open the loop over this thread's rows of the result (with one row, `block`);
    returns the row's start in A plus `offset`."""
    if slots > 1:
        lw.emit("#pragma unroll")
        lw.emit(f"for (int {lw.slot} = 0; {lw.slot} < {slots}; ++{lw.slot}) {{")
        return f"({row} + {rows_apart} * {lw.slot}){offset}"
    if block:
        lw.emit(block)
    return f"{row}{offset}"


class _Fragments:
    """Names and C++ types for the WMMA code of one product."""

    def __init__(self, lw, product: ProductPlan, m: int, n: int, k_size: int):
        frag = product.fragment
        self.lw, self.frag, self.m, self.n, self.k_size = lw, frag, m, n, k_size
        self.tiles, self.warps = product.tiles, product.warps
        self.warp = lw.fresh("warp")
        self.tile = lw.fresh("tile")
        self.tile_row = lw.fresh("tile_row")
        self.tile_col = lw.fresh("tile_col")
        self.k = lw.fresh("k")
        self.acc = lw.fresh("acc_frag")

    def type(self, use: str, dtype: ir.DType, layout: str = "") -> str:
        f = self.frag
        layout = f", wmma::{layout}" if layout else ""
        element = "wmma::precision::tf32" if dtype == "tf32" else T.c_type(dtype)
        return f"wmma::fragment<wmma::{use}, {f.m}, {f.n}, {f.k}, {element}{layout}>"

    def open(self) -> None:
        self.lw.emit("{")
        self.lw.emit("namespace wmma = nvcuda::wmma;")
        self.lw.emit(f"const int {self.warp} = threadIdx.x / 32;")

    def position(self) -> None:
        """Declare the top-left element (tile_row, tile_col) of result tile `tile`."""
        per_row = self.n // self.frag.n
        self.lw.emit(
            f"const int {self.tile_row} = {self.tile} / {per_row} * {self.frag.m}, "
            f"{self.tile_col} = {self.tile} % {per_row} * {self.frag.n};"
        )

    def move(self, verb: str, fragment: str, c_tile: str) -> None:
        """wmma::load_matrix_sync or store_matrix_sync of `fragment` and its tile of c_tile."""
        at = f"{c_tile} + {self.tile_row} * {self.n} + {self.tile_col}"
        args = f"{fragment}, {at}" if verb == "load" else f"{at}, {fragment}"
        self.lw.emit(f"wmma::{verb}_matrix_sync({args}, {self.n}, wmma::mem_row_major);")

    def multiply(self, acc: str, a_tile: str, b_tile: str) -> None:
        """acc += the (tile_row, tile_col) tile of a_tile @ b_tile, over all of k."""
        f, lw, k = self.frag, self.lw, self.k
        a_frag, b_frag = lw.fresh("a_frag"), lw.fresh("b_frag")
        lw.emit(f"for (int {k} = 0; {k} < {self.k_size}; {k} += {f.k}) {{")
        lw.emit(f"{self.type('matrix_a', f.input, 'row_major')} {a_frag};")
        lw.emit(f"{self.type('matrix_b', f.input, 'row_major')} {b_frag};")
        lw.emit(
            f"wmma::load_matrix_sync({a_frag}, {a_tile} + {self.tile_row} * {self.k_size} + {k}, {self.k_size});"
        )
        lw.emit(
            f"wmma::load_matrix_sync({b_frag}, {b_tile} + {k} * {self.n} + {self.tile_col}, {self.n});"
        )
        lw.emit(f"wmma::mma_sync({acc}, {a_frag}, {b_frag}, {acc});")
        lw.emit("}")


def _accumulator_tile(lw, e: ir.Mma, product: ProductPlan) -> tuple[str, _Fragments]:
    """Copy the accumulator of `e` to a new shared array (fragments load from memory);
    returns it and the names of the WMMA code."""
    (m, k_size), (_, n) = e.a.type.shape, e.b.type.shape
    frag = product.fragment
    c_tile = lw.shared_buffer("acc_tile", frag.acc, m * n, 32)
    lw.before_write()

    def line(index) -> list[str]:
        value = lw.printer.at(e.acc, index, frag.acc)
        return [f"{c_tile}[{index.linear}] = {value};"]

    lw.element_loop((m, n), line)
    lw.barrier()
    return c_tile, _Fragments(lw, product, m, n, k_size)


def _wmma(lw, e: ir.Mma, target: ValueInfo, a_tile: str, b_tile: str, product: ProductPlan):
    c_tile, f = _accumulator_tile(lw, e, product)
    acc = f.acc
    f.open()
    lw.emit(f"for (int {f.tile} = {f.warp}; {f.tile} < {f.tiles}; {f.tile} += {f.warps}) {{")
    f.position()
    lw.emit(f"{f.type('accumulator', f.frag.acc)} {acc};")
    f.move("load", acc, c_tile)
    f.multiply(acc, a_tile, b_tile)
    f.move("store", acc, c_tile)
    lw.emit("}")
    _read_back(lw, target, c_tile)


def _read_back(lw, target: ValueInfo, c_tile: str) -> None:
    """Close the WMMA code's block; the result goes from `c_tile` to `target`'s registers."""
    lw.emit("}")
    lw.barrier()
    lw.element_loop(
        target.type.shape, lambda index: [f"{lw.reg(target)} = {c_tile}[{index.linear}];"]
    )
    lw.read_shared()


# ---------------------------------------------------------------------- GEMM main loops


def lower_accumulation_loop(lw, s: ir.ForRange) -> None:
    let = s.body[0]
    e: ir.Mma = let.value
    target = lw.values[let.name]
    product = lw.plan.products[e]
    c_tile, f = _accumulator_tile(lw, e, product)
    acc = f.acc
    per_warp = -(-f.tiles // f.warps)
    partial = f.tiles % f.warps != 0
    part = lw.fresh("part")
    f.open()
    lw.emit(
        f"// The accumulator stays in tensor-core fragments for the whole loop: warp w holds result tiles w, w + {f.warps}, ..."
    )
    lw.emit(f"{f.type('accumulator', f.frag.acc)} {acc}[{per_warp}];")

    def each_tile(action) -> None:
        lw.emit("#pragma unroll")
        lw.emit(f"for (int {part} = 0; {part} < {per_warp}; ++{part}) {{")
        lw.emit(f"const int {f.tile} = {f.warp} + {f.warps} * {part};")
        if partial:
            lw.emit(f"if ({f.tile} < {f.tiles}) {{")
        f.position()
        action()
        if partial:
            lw.emit("}")
        lw.emit("}")

    each_tile(lambda: f.move("load", f"{acc}[{part}]", c_tile))
    lw.read_shared()
    lw.for_header(s)
    lw.enter_loop()
    comment = lw.comments.get(id(let))
    if comment:
        lw.emit(comment)
    for x in (e.a, e.b):
        lw.hoist(x)
    a_tile = stage(lw, e.a, "lhs", product.align)
    b_tile = stage(lw, e.b, "rhs", product.align)
    lw.barrier()
    each_tile(lambda: f.multiply(f"{acc}[{part}]", a_tile, b_tile))
    lw.read_shared()
    lw.leave_loop()
    lw.emit("}")
    each_tile(lambda: f.move("store", f"{acc}[{part}]", c_tile))
    _read_back(lw, target, c_tile)
