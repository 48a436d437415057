"""Array elements in a kernel: the lane tile of an array the loop writes (held in a
local, stored once at the end), tile loads of read arrays at the lanes' own elements
(checked before the launch), gathers and scatters at any other subscript (checked per
lane), and the storage indices of BASIC's subscripts."""

from __future__ import annotations

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.hostir import RangeCheck
from ....ir.kernel import KExpr, TileType
from ...exprutil import Affine, affine, same_expr
from ...show import show_expr
from ..dependence import NotParallel


class ArrayAccess:
    """Reads, writes and subscripts of arrays."""

    def array_tile_prologue(self) -> None:
        """Arrays the loop writes: their lane tile lives in a local until the end."""
        for name in sorted(self.plan.written):
            self.array_param(name)
            local = self.new_name(name, "tile")
            self.array_tiles[name] = local
            form = self.plan.written[name]
            if self._aligned(name, form):
                if self._needs_initial_load(name):
                    self.let(local, self.aligned_load(name, form, None, cache=False))
                else:
                    # No load checks the subscripts, so the store's range is checked here.
                    self.add_range_checks(name, form, self._first_write(name))
            else:
                # Every write uses the same subscripts (the dependence pass made sure):
                # their elements, from the first write (rounded, with loop-invariant
                # scalars: Y(I + K)), and the lanes where one is out of range.
                indices, ok = self.subscripts(name, self._first_write(name).indices)
                self.event_unless(ok)
                self.scatter_at[name] = indices
                if self._needs_initial_load(name):
                    self.let(local, self.gather(name, indices, self.lane_type.shape))
            self.writes.add(name)

    def _first_write(self, name: str) -> ast.Node | None:
        for node in hostir.walk(self.plan.body):
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                if isinstance(target, ast.Index) and target.name == name:
                    return target
        return None

    def _needs_initial_load(self, name: str) -> bool:
        """False when the body's first use of the array is an unconditional write that
        does not read it: then every lane's value comes from that write."""
        for node in self.plan.body:
            if not any(
                _mentions_array(n, name) for h in hostir.walk([node]) for n in _node_exprs(h)
            ):
                continue
            if self.recurrence is not None and node.stmt is self.recurrence.node.stmt:
                return False  # it reads only the element before the tile (scan_statement)
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                writes_it = isinstance(target, ast.Index) and target.name == name
                return not writes_it or _mentions_array(node.stmt.value, name)
            return True
        return True

    def array_stores(self) -> list[ir.KStmt]:
        """Store the lane tiles of the arrays the loop writes."""
        stores: list[ir.KStmt] = []
        for name in sorted(self.plan.written):
            local = self.array_tiles[name]
            if local not in self.locals:
                continue  # never actually written
            form = self.plan.written[name]
            if self._aligned(name, form):
                view = self.view(name, form)
                index = tuple(self.block_index(a) for a in range(self.rank))
                stores.append(ir.Store(name, index, self.local(local), view))
            else:
                indices = self.scatter_at[name]
                stores.append(ir.Scatter(name, indices, self.local(local), self.local(self.valid)))
        return stores

    def element_subscripts(self, name: str, indices: list[ast.Expr]):
        """`subscripts` of an element the statement being lowered reads or writes, each
        computed (and checked) once per statement: `C(I, J) = C(I, J) * BETA` gathers and
        scatters at the same indices."""
        if self.statement_subscripts is None:  # not in an assignment
            found = self.subscripts(name, indices)
            self.event_unless(found[1])
            return found
        key = (name, tuple(show_expr(i) for i in indices))
        if key not in self.statement_subscripts:
            found = self.subscripts(name, indices)
            self.event_unless(found[1])
            self.statement_subscripts[key] = found
        return self.statement_subscripts[key]

    def array_read(self, e: ast.Index) -> KExpr:
        name = e.name
        if name in self.array_tiles:
            local = self.array_tiles[name]
            if local not in self.locals:
                raise NotParallel(f"{name} is read before the loop writes it", e)
            written = self._first_write(name).indices
            if len(e.indices) != len(written) or not all(
                same_expr(a, b) for a, b in zip(e.indices, written)
            ):
                return self.own_slice_read(e, self.local(local))
            return self.local(local)
        self.array_param(name)
        self.reads.add(name)
        lane_vars = self.plan.lane_vars
        form = tuple(affine(i, lane_vars, set()) for i in e.indices)
        # A tile load is hoisted to the start of the block: not for an array the lanes
        # write in place.
        aligned = name not in self.plan.sliced and all(f is not None for f in form)
        if aligned and self._aligned(name, form):
            key = (name, tuple(f.const for f in form))
            # A tile load's range is a condition of the launch; under an IF, BASIC reads
            # the element only where the condition holds (IF I < N THEN ... T(I + 1)):
            # a gather, whose lanes check their own subscripts.
            if not self.guards or key in self.loads:
                return self.aligned_load(name, form, e)
        indices, _ = self.element_subscripts(name, e.indices)
        shape = indices[0].type.shape
        for index in indices[1:]:  # a rank-3 array has three subscripts
            shape = B.broadcast_shape(shape, index.type.shape)
        return self.gather(name, indices, shape)

    def gather(self, name: str, indices, shape) -> ir.Gather:
        """The elements at `indices`.  Where the indices differ between lanes, only the
        active lanes read, as only valid lanes store: a lane past the loop's end in the
        last tile, or of a triangle's box outside the triangle, is no iteration, and
        its element may be another block's to write.  An index the same in every lane
        reads an element the block's valid lanes read too."""
        if not shape:
            return ir.Gather(name, indices, None, type=TileType(self.ndt, shape))
        if shape != self.lane_type.shape:
            # cuTile broadcasts the mask to the indices' shape, not the other way round.
            shape = B.broadcast_shape(shape, self.lane_type.shape)
            indices = tuple(B.broadcast(i, shape) if i.type.shape else i for i in indices)
        return ir.Gather(name, indices, self.full_mask(), type=TileType(self.ndt, shape))

    def own_slice_read(self, e: ast.Index, own: KExpr) -> KExpr:
        """A read of the lane's own slice of an array the loop writes (dependence
        `_in_own_slice`): the lane's own element, held in `own` until the end of the
        kernel, where the subscripts are the write's; elsewhere the array's element,
        which no lane of this launch writes."""
        name = e.name
        indices, ok = self.subscripts(name, e.indices)
        self.event_unless(ok)
        mine = self.scatter_at.get(name)  # computed before the body, or here
        if mine is None:
            mine, _ = self.subscripts(name, self._first_write(name).indices)
        same: KExpr | None = None
        for index, own_index in zip(indices, mine):
            equal = B.binary("eq", index, own_index, self.ndt)
            same = equal if same is None else B.binary("and", same, equal, self.ndt)
        shape = self.lane_type.shape
        for index in indices:
            shape = B.broadcast_shape(shape, index.type.shape)
        other = self.gather(name, indices, shape)
        return B.select(same, own, other, self.ndt)

    def _aligned(self, name: str, form: tuple[Affine | None, ...]) -> bool:
        """Each lane variable indexes its own axis with a constant offset (step 1)."""
        if len(form) != self.rank or any(f is None for f in form):
            return False
        if any(dim.triangular for dim in self.plan.dims):
            return False  # a tile would store the box's lanes outside the triangle too
        for f, dim in zip(form, self.plan.dims):
            if f.coeffs != ((dim.var, 1),) or f.symbols or f.const != int(f.const) or dim.step != 1:
                return False
            if not isinstance(dim.start, int):
                return False  # a view needs a constant first element
        return True

    def view(self, name: str, form) -> tuple[ir.ViewSlice, ...]:
        view = []
        for axis, (f, dim) in enumerate(zip(form, self.plan.dims)):
            first = dim.start + int(f.const) - self.base
            start = B.const(first, "i32")
            stop = B.binary("add", B.const(first, "i32"), self.count_param(axis), self.ndt)
            view.append(ir.ViewSlice(axis, start, stop))
        return tuple(view)

    def aligned_load(self, name: str, form, node, cache: bool = True) -> KExpr:
        key = (name, tuple(f.const for f in form))
        if cache and key in self.loads:
            return self.loads[key]
        self.add_range_checks(name, form, node)
        index = tuple(self.block_index(a) for a in range(self.rank))
        load = ir.Load(name, index, self.view(name, form), type=self.lane_type)
        if not cache:
            return load
        local = self.new_name(*_load_words(name, form, self.plan.dims))
        self.load_stmts.append(ir.Let(local, load))
        self.locals[local] = load.type
        self.loads[key] = ir.Local(local, type=load.type)
        return self.loads[key]

    def add_range_checks(self, name: str, form, node) -> None:
        for axis, (f, dim) in enumerate(zip(form, self.plan.dims)):
            count = self.counts[axis].name
            self.checks.append(
                RangeCheck(name, axis, dim.start, f.const, count, node or self.plan.loop.stmt)
            )

    def affine_index(self, f: Affine) -> KExpr:
        """A storage index tile from an affine subscript (integer arithmetic)."""
        expr: KExpr = B.const(int(f.const) - self.base, "i32")
        for var, c in f.coeffs:
            term = self.local(var)
            if c != 1:
                term = B.binary("mul", term, B.const(c, "i32"), self.ndt)
            expr = B.binary("add", term, expr, self.ndt)
        return expr

    def subscripts(self, name: str, indices: list[ast.Expr]) -> tuple[tuple[KExpr, ...], KExpr]:
        """Storage index tiles for `name(indices)` and the in-bounds mask."""
        sym = self.analysis.arrays[name]
        if len(indices) != sym.rank:
            raise NotParallel(f"{name} is used with {len(indices)} subscripts", None)
        out = []
        ok: KExpr | None = None
        stem = [name, *(_index_word(i) for i in indices)]
        for axis, index in enumerate(indices):
            f = affine(index, self.plan.lane_vars, set())
            suffix = "" if len(indices) == 1 else str(axis)
            word = self.new_name(*stem, f"at{suffix}")
            extent = ir.Extent(name, axis, type=TileType("i32"))
            if f is not None and not f.symbols and f.const == int(f.const):
                # Name it: it is used for the access, the mask and the error check.
                idx = self.let(word, self.affine_index(f))
                inside = B.binary(
                    "and",
                    B.binary("ge", idx, B.const(0, "i32"), self.ndt),
                    B.binary("lt", idx, extent, self.ndt),
                    self.ndt,
                )
            else:
                # ECMA-55: a subscript is rounded to the nearest integer.  The range is
                # checked before the conversion to an integer, so that NaN is outside.
                x = B.cast(self.value(index), self.ndt)
                element = B.unary(
                    "floor", B.binary("add", x, B.const(0.5, self.ndt), self.ndt), self.ndt
                )
                if self.base:
                    element = B.binary(
                        "sub", element, B.const(float(self.base), self.ndt), self.ndt
                    )
                element = self.let(self.new_name(*stem, f"subscript{suffix}"), element)
                inside = B.binary(
                    "and",
                    B.binary("ge", element, B.const(0.0, self.ndt), self.ndt),
                    B.binary("lt", element, B.cast(extent, self.ndt), self.ndt),
                    self.ndt,
                )
                inside = self.let(self.new_name(*stem, f"in{suffix}" if suffix else "ok"), inside)
                safe = B.select(inside, element, B.const(-1.0, self.ndt), self.ndt)
                idx = self.let(word, B.cast(safe, "i32"))
            ok = inside if ok is None else B.binary("and", ok, inside, self.ndt)
            out.append(idx)
        if not isinstance(ok, ir.Local):  # else the one subscript's `ok` already
            ok = self.let(self.new_name(*stem, "ok"), ok)
        return tuple(out), ok


def _index_word(expr: ast.Expr) -> str:
    """A short identifier-friendly spelling of a subscript (B -> B, I + 1 -> I_P1: the
    words of a generated name, naming.generated_name)."""
    text = show_expr(expr).replace(" + ", "_P").replace(" - ", "_M").replace(" ", "")
    word = "".join(ch if ch.isalnum() else "_" for ch in text).strip("_")
    return word[:16] or "X"


def _load_words(array: str, form, dims) -> list[str]:
    """The name of a lane tile of a read array: X(I) -> x_i, T(I - 1) -> t_i_m1."""
    words = [array]
    for f, dim in zip(form, dims):
        offset = int(f.const)
        words.append(dim.var)
        if offset:
            words.append(f"p{offset}" if offset > 0 else f"m{-offset}")
    return words


def _mentions_array(node: ast.Node, name: str) -> bool:
    return any(isinstance(n, ast.Index) and n.name == name for n in node.walk())


def _node_exprs(node: hostir.HNode):
    if isinstance(node, hostir.Simple):
        yield from node.stmt.walk()
    elif isinstance(node, hostir.If):
        for cond, _ in node.arms:
            yield from cond.walk()
    elif isinstance(node, hostir.ForLoop):
        yield from node.stmt.walk()
    elif isinstance(node, hostir.WhileLoop) and node.stmt is not None:
        yield from node.stmt.walk()
