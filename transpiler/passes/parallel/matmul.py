"""Recognise the matrix-product loop nest and offload it as a tiled `mma` kernel.

The pattern (either loop order, either operand order in the product):

    FOR I = a TO b
      FOR J = c TO d
        S = 0
        FOR K = e TO f
          S = S + A(I, K) * B(K, J)
        NEXT K
        C(I, J) = S
      NEXT J
    NEXT I

becomes one kernel in which each block computes a TM x TN tile of C with tensor-core
`mma` over TK-wide slices of A and B (zero padded at the edges).  The generic
vectorizer could run this nest too (lanes over I, J with a K loop of gathers); this
pass exists because the mma form is an order of magnitude faster.

The sums are formed in another order than BASIC's (tiles of K, fused multiply-adds), so
the results can differ from the interpreter's by rounding: an element that cancels to
exactly 0 there can be a tiny number here.  A product that overflows warns in BASIC: a
block whose C tile holds an infinity or NaN stores nothing and the host runs its
iterations (hostir.Replay).  `MAT C = A * B` never warns (interpreter/mat.py), so its
kernel stores every tile.
"""

from __future__ import annotations

from ...ir import ast, hostir
from ...ir import irbuild as B
from ...ir import kernel as ir
from ...ir.hostir import Finish, HostValue, LoopCount, RangeCheck
from ...ir.kernel import TileType
from ...ir.model import Analysis
from ...ir.naming import generated_name
from ...runtime.dialect import mat_first_subscript
from ..exprutil import constant_value
from ..kernel.kernel_lowering import origin_of
from .dependence import NotParallel, _check_integer_range, _known_ranges
from .vectorize import DONE_FLAGS, tile_size_names

MMA_TILES = {"f64": (64, 64, 16), "f32": (128, 128, 32)}


def try_matmul(
    node: hostir.ForLoop, analysis: Analysis, live_after: frozenset[str], name: str
) -> hostir.Launch | None:
    match = _match(node)
    if match is None:
        return None
    outer, inner, s_init, k_loop, acc_stmt, store = match
    s_var = s_init.target.name
    k_var = k_loop.stmt.var.name
    if s_var in live_after or k_var in live_after:
        return None
    product = acc_stmt.value.right if _is_var(acc_stmt.value.left, s_var) else acc_stmt.value.left
    a_ref, b_ref = product.left, product.right
    i_var, j_var = store.target.indices[0].name, store.target.indices[1].name
    if not (_refs(a_ref, i_var, k_var) and _refs(b_ref, k_var, j_var)):
        a_ref, b_ref = b_ref, a_ref
        if not (_refs(a_ref, i_var, k_var) and _refs(b_ref, k_var, j_var)):
            return None
    arrays = {a_ref.name, b_ref.name, store.target.name}
    if len(arrays) != 3 or any(
        analysis.arrays[n].elem_type != "num" or analysis.arrays[n].rank != 2 for n in arrays
    ):
        return None
    loops = {outer.stmt.var.name: outer, inner.stmt.var.name: inner}
    if set(loops) != {i_var, j_var}:
        return None
    for loop in (outer, inner, k_loop):
        if (
            _start(loop) is None
            or loop.stmt.step is not None
            and constant_value(loop.stmt.step) != 1
            or not _last_next_in_range(loop.stmt, analysis)
        ):
            return None
    # The inner loops' bounds must not depend on the outer loop variables.
    for e in (inner.stmt.limit, k_loop.stmt.limit):
        if any(isinstance(n, ast.Var) and n.name in (i_var, j_var, k_var, s_var) for n in e.walk()):
            return None
    return _launch(
        analysis,
        name,
        loops[i_var],
        loops[j_var],
        k_loop,
        a_ref.name,
        b_ref.name,
        store.target.name,
        node,
    )


def _last_next_in_range(stmt: ast.For, analysis: Analysis) -> bool:
    """Whether a `%` counter's last NEXT (limit + 1) provably stays an INTEGER: beyond
    32767 BASIC reports an Overflow there, which the kernel would not (the loop is then
    planned as any other, which keeps it on the host with the reason)."""
    if not stmt.var.name.endswith("%"):
        return True
    try:
        _check_integer_range(stmt, 1, _known_ranges(analysis))
    except NotParallel:
        return False
    return True


def _match(node: hostir.ForLoop):
    body = _code(node.body)
    if len(body) != 1 or not isinstance(body[0], hostir.ForLoop):
        return None
    inner = body[0]
    body = _code(inner.body)
    if len(body) != 3:
        return None
    init, k_loop, store = body
    if not (_let_var(init) and isinstance(k_loop, hostir.ForLoop) and _let_index(store)):
        return None
    s_init, store = init.stmt, store.stmt
    if constant_value(s_init.value) != 0 or not _is_var(store.value, s_init.target.name):
        return None
    if len(store.target.indices) != 2 or not all(
        isinstance(i, ast.Var) for i in store.target.indices
    ):
        return None
    k_body = _code(k_loop.body)
    if len(k_body) != 1 or not _let_var(k_body[0]):
        return None
    acc = k_body[0].stmt
    s = s_init.target.name
    value = acc.value
    if acc.target.name != s or not isinstance(value, ast.BinOp) or value.op != "+":
        return None
    product = (
        value.right if _is_var(value.left, s) else value.left if _is_var(value.right, s) else None
    )
    if not isinstance(product, ast.BinOp) or product.op != "*":
        return None
    if not (isinstance(product.left, ast.Index) and isinstance(product.right, ast.Index)):
        return None
    return node, inner, s_init, k_loop, acc, store


def _code(nodes):
    return [n for n in nodes if not (isinstance(n, hostir.Simple) and isinstance(n.stmt, ast.Rem))]


def _let_var(node) -> bool:
    return (
        isinstance(node, hostir.Simple)
        and isinstance(node.stmt, ast.Let)
        and isinstance(node.stmt.target, ast.Var)
    )


def _let_index(node) -> bool:
    return (
        isinstance(node, hostir.Simple)
        and isinstance(node.stmt, ast.Let)
        and isinstance(node.stmt.target, ast.Index)
    )


def _is_var(e, name: str) -> bool:
    return isinstance(e, ast.Var) and e.name == name


def _refs(ref: ast.Index, row: str, col: str) -> bool:
    return len(ref.indices) == 2 and _is_var(ref.indices[0], row) and _is_var(ref.indices[1], col)


def _start(loop: hostir.ForLoop) -> int | None:
    value = constant_value(loop.stmt.start)
    return int(value) if value is not None and value == int(value) else None


def _launch(analysis, name, i_loop, j_loop, k_loop, a, b, c, node) -> hostir.Launch:
    dtype = analysis.number_type
    tm, tn, _ = MMA_TILES[dtype]
    base = analysis.option_base
    loops = {"I": i_loop, "J": j_loop, "K": k_loop}
    counts = {
        key: LoopCount(
            generated_name(loop.stmt.var.name, "count"),
            loop.stmt.var.name,
            _start(loop),
            loop.stmt.limit,
            1,
        )
        for key, loop in loops.items()
    }
    firsts = {key: counts[key].start - base for key in "IJK"}
    origin = origin_of(node.stmt, analysis.source)
    k_origin = origin_of(k_loop.stmt, analysis.source)
    count_names = {key: counts[key].name for key in "IJK"}
    kernel = _mma_kernel(analysis, name, a, b, c, count_names, firsts, origin, k_origin, True)
    args = [HostValue("array", (c,)), HostValue("array", (a,)), HostValue("array", (b,))]
    args += [HostValue("count", (counts[key].name,)) for key in "IJK"]
    args.append(HostValue("temp", (DONE_FLAGS,)))
    args += [HostValue("num", (p.value,)) for p in mma_tile_sizes(analysis)]
    checks = []
    for array, (rk, ck) in ((a, ("I", "K")), (b, ("K", "J")), (c, ("I", "J"))):
        for axis, key in enumerate((rk, ck)):
            checks.append(
                RangeCheck(array, axis, counts[key].start, 0.0, counts[key].name, node.stmt)
            )
    host_grid = [
        HostValue("cdiv", (HostValue("count", (counts["I"].name,)), HostValue("num", (tm,)))),
        HostValue("cdiv", (HostValue("count", (counts["J"].name,)), HostValue("num", (tn,)))),
    ]
    outer = counts["I"] if i_loop is node else counts["J"]
    inner = counts["J"] if i_loop is node else counts["I"]
    blocks = HostValue("mul", tuple(host_grid))
    temps = [hostir.Temp(DONE_FLAGS, "i32", blocks)]
    tiles = {counts["I"].name: (tm, 0), counts["J"].name: (tn, 1)}
    loops = [
        hostir.ReplayLoop(count.var, count.start, 1, count.name, *tiles[count.name])
        for count in (outer, inner)
    ]
    inner_loop = j_loop if i_loop is node else i_loop
    replay = hostir.Replay(DONE_FLAGS, loops, list(inner_loop.body))
    ms = analysis.options.microsoft
    finish = [
        Finish("loop_var", var=outer.var, start=outer.start, count=outer.name, zero_trip_step=ms),
        Finish(
            "loop_var",
            var=inner.var,
            start=inner.start,
            count=inner.name,
            when=(outer.name,),
            zero_trip_step=ms,
        ),
    ]
    decision = ir.LoopDecision(node.stmt.label, node.stmt.coord, True, "mma", kernel.summary, name)
    return hostir.Launch(
        kernel,
        decision,
        list(counts.values()),
        temps,
        args,
        host_grid,
        checks,
        finish,
        [c],
        replay=replay,
        origin=node.stmt,
    )


# ---------------------------------------------------------------- MAT C = A * B


def is_mat_product(stmt: ast.Stmt) -> bool:
    return (
        isinstance(stmt, ast.MatAssign)
        and isinstance(stmt.value, ast.MatBin)
        and stmt.value.op == "*"
    )


def mat_product_launch(node: hostir.Simple, analysis: Analysis, name: str) -> hostir.Launch:
    """The launch for `MAT C = A * B` (see `is_mat_product`) of three numeric matrices.

    A MAT statement covers every element of its arrays from its first MAT subscript to the
    current upper bounds (the interpreter's `interpreter/mat.py`).  Where that is the
    OPTION BASE the kernel runs over the whole storage of A and B; where it is higher
    (Dartmouth BASIC leaves row and column 0 alone) it starts one row and column in, and
    leaves row and column 0 of C as they were.  Before the launch the host makes the
    interpreter's checks and gives C its new shape, rows(A) x cols(B) (`MatProductShape`);
    the counts are then the current extents.  Raises NotParallel (the statement stays on
    the host) when C is also an operand or an array is not a numeric matrix.
    """
    stmt = node.stmt
    a, b, c = stmt.value.left.name, stmt.value.right.name, stmt.target
    # Dartmouth's MAT leaves row and column 0 alone: the kernel starts one element in.
    first = max(mat_first_subscript(analysis.options.dialect) - analysis.option_base, 0)
    if c in (a, b):
        raise NotParallel(f"MAT product: {c} is both the result and an operand (needs a copy)")
    for array in (a, b, c):
        symbol = analysis.arrays[array]
        if symbol.rank != 2:
            raise NotParallel(f"MAT product: {array} is a vector (the kernel multiplies matrices)")
        if symbol.elem_type != "num":
            raise NotParallel(f"MAT product: {array} is not an array of numbers")
    dtype = analysis.number_type
    tm, tn, _ = MMA_TILES[dtype]
    # The kernel's count parameters and the host values they take: the operands' extents.
    count_names = {"I": "rows", "J": "cols", "K": "inner"}
    extents = {"I": (a, 0), "J": (b, 1), "K": (a, 1)}
    origin = origin_of(stmt, analysis.source)
    firsts = {key: first for key in "IJK"}
    kernel = _mma_kernel(analysis, name, a, b, c, count_names, firsts, origin, origin, False)
    args = [HostValue("array", (name,)) for name in (c, *_operands(a, b))]
    counts = {key: _extent_from(extents[key], first) for key in "IJK"}
    args += [counts[key] for key in "IJK"]
    args += [HostValue("num", (p.value,)) for p in mma_tile_sizes(analysis)]
    host_grid = [
        HostValue("cdiv", (counts["I"], HostValue("num", (tm,)))),
        HostValue("cdiv", (counts["J"], HostValue("num", (tn,)))),
    ]
    decision = ir.LoopDecision(stmt.label, stmt.coord, True, "mma", kernel.summary, name)
    shapes = [hostir.MatProductShape(c, a, b, stmt)]
    return hostir.Launch(
        kernel, decision, [], [], args, host_grid, [], [], [c], shapes, origin=stmt
    )


def _extent_from(extent: tuple[str, int], first: int) -> HostValue:
    """The number of rows (columns) of an array from subscript `first` of its storage."""
    length = HostValue("len", extent)
    return HostValue("add", (length, HostValue("num", (-first,)))) if first else length


# ---------------------------------------------------------------- the kernel


def mma_tile_sizes(analysis: Analysis) -> list[ir.ConstParam]:
    """The block's tile of C (tile x tile, or tile_i x tile_j) and the width of the slices of A and B
    each mma step takes (tile_k), as constant parameters of the kernel.  Generated names: the
    kernel's other invented names (counts, kk, finished, <C>_tile, done) never take these,
    and each backend's namer keeps them apart from the program's own (a BASIC TILE_K)."""
    tm, tn, tk = MMA_TILES[analysis.number_type]
    block = [ir.ConstParam(name, t) for name, t in tile_size_names(["I", "J"], (tm, tn))]
    return block + [ir.ConstParam(generated_name("tile", "k"), tk)]


def _mma_kernel(analysis, name, a, b, c, count_names, firsts, origin, k_origin, watch) -> ir.Kernel:
    """C(I, J) = sum over K of A(I, K) * B(K, J) for I, J, K counting from the storage
    indices `firsts[key]`, `count_names[key]` (i32 parameters) of them.  With `watch`, a
    block whose tile of C is not all finite stores nothing, and each block sets its flag
    in the DONE_FLAGS temp (1: stored)."""
    dtype = analysis.number_type
    tf32 = analysis.options.tf32_products
    tm, tn, tk = MMA_TILES[dtype]
    params: list[ir.KernelParam] = [
        ir.ArrayParam(c, dtype, 2, reads=False, writes=True),
        *(ir.ArrayParam(name, dtype, 2) for name in _operands(a, b)),
    ]
    count_param = {}
    for key in "IJK":
        cname = count_names[key]
        params.append(ir.ScalarParam(cname, "i32"))
        count_param[key] = ir.Param(cname, type=TileType("i32"))

    def view(array, row_key, col_key):
        out = []
        for axis, key in enumerate((row_key, col_key)):
            first = firsts[key]
            stop = B.binary("add", B.const(first, "i32"), count_param[key], dtype)
            out.append(ir.ViewSlice(axis, B.const(first, "i32"), stop))
        return tuple(out)

    i32 = TileType("i32")
    bid0, bid1 = ir.BlockId(0, type=i32), ir.BlockId(1, type=i32)
    sizes = mma_tile_sizes(analysis)
    by_value = {p.value: p.name for p in sizes[:-1]}
    size = {
        key: ir.ConstRef(by_value[t] if key != "K" else sizes[-1].name, type=TileType("i32"))
        for key, t in zip("IJK", (tm, tn, tk))
    }
    k_tiles = B.binary("cdiv", count_param["K"], size["K"], dtype)
    acc_t = TileType(dtype, (tm, tn))
    kk = ir.Local("kk", type=i32)
    a_tile = ir.Load(a, (bid0, kk), view(a, "I", "K"), type=TileType(dtype, (tm, tk)))
    b_tile = ir.Load(b, (kk, bid1), view(b, "K", "J"), type=TileType(dtype, (tk, tn)))
    acc = ir.Local(generated_name(c, "tile"), type=acc_t)
    store = ir.Store(c, (bid0, bid1), acc, view(c, "I", "J"))
    body: list[ir.KStmt] = [
        ir.Let(acc.name, ir.Full(0.0, type=acc_t), origin=origin),
        ir.ForRange(
            kk.name,
            B.const(0, "i32"),
            k_tiles,
            [ir.Let(acc.name, B.mma(a_tile, b_tile, acc, tf32), origin=k_origin)],
        ),
    ]
    if watch:
        params.append(ir.ArrayParam(DONE_FLAGS, "i32", 1, reads=False, writes=True))
        body += _store_if_finite(acc, store, count_param["J"], size["J"], dtype)
    else:
        body.append(store)
    grid = (
        B.binary("cdiv", count_param["I"], B.const(tm, "i32"), dtype),
        B.binary("cdiv", count_param["J"], B.const(tn, "i32"), dtype),
    )
    params += sizes  # last, as in NVIDIA's samples; the host passes their values
    summary = f"matrix product {c} = {a} * {b}; one {tm}x{tn} tile of {c} per block, mma over {tk}-wide slices, {dtype}"
    if tf32:
        summary += " (operands rounded to tf32: the tensor cores)"
    return ir.Kernel(name, "mma", params, body, grid, (tm, tn), dtype, origin, summary)


def _store_if_finite(
    acc: ir.Local, store: ir.Store, cols: ir.Param, tn: ir.ConstRef, dtype
) -> list[ir.KStmt]:
    """Store the tile only if every element is finite (a product that overflowed makes an
    infinity or NaN, and BASIC warns for it), and set the block's flag."""
    i32 = TileType("i32")
    finite = B.binary("lt", B.unary("abs", acc, dtype), B.const(float("inf"), dtype), dtype)
    bad = ir.Reduce("max", B.cast(B.unary("not", finite, dtype), "i32"), None, type=i32)
    finished = ir.Local("finished", type=TileType("bool"))
    blocks_per_row = B.binary("cdiv", cols, tn, dtype)
    block = B.binary(
        "add",
        B.binary("mul", ir.BlockId(0, type=i32), blocks_per_row, dtype),
        ir.BlockId(1, type=i32),
        dtype,
    )
    return [
        ir.Let(finished.name, B.binary("eq", bad, B.const(0, "i32"), dtype)),
        ir.IfScalar(finished, [store]),
        ir.Store(DONE_FLAGS, (block,), B.cast(finished, "i32")),
    ]


def _operands(a: str, b: str) -> tuple[str, ...]:
    """The operand arrays the kernel takes: one parameter for `MAT C = A * A`."""
    return (a,) if a == b else (a, b)
