"""Lower a checked cuTile BASIC program (`KernelProgram`) to the kernel IR.

Statement by statement, as the program is written:
- `LET C(I, J) = e` where C is an array stores tile (I, J) of C (its TILE shape);
- `A(I, J)` in an expression loads that tile (zero padded at the array's edges);
- `LET ACC = 0.0` where ACC has a TILE shape fills a tile; other LETs bind values;
- `FOR` becomes a `range` loop over integers, `IF`/`WHILE` need scalar conditions;
- built-ins apply elementwise to tiles; `MMA(a, b, acc)` is a matrix multiply-add;
  `SUM(t)`, `MAX(t)`, `MIN(t)` reduce a whole tile and `SUM(t, axis)` one axis.

Array elements are addressed by tile index, not element index, exactly like NVIDIA's
dialect: with `TILE A(128)`, `A(BID)` is elements 128*BID ... 128*BID+127.
"""

from __future__ import annotations

from ...errors import (
    BasicError,
    BasicSemanticError,
    BasicUnsupportedError,
    CompileErrors,
    SourceFile,
    at,
)
from ...ir import ast
from ...ir import irbuild as B
from ...ir.kernel import (
    ArrayParam,
    BlockId,
    Break,
    ForRange,
    Full,
    HostArray,
    IfScalar,
    Kernel,
    KernelLibrary,
    KExpr,
    KStmt,
    Let,
    Load,
    Local,
    Origin,
    Param,
    Print,
    Reduce,
    Reshape,
    ScalarParam,
    Store,
    TileType,
    nonnegative,
)
from ...language.builtins import BUILTINS, Builtin
from . import cuda_plan
from .kernel_dialect import MAX_WHILE_PASSES, KernelProgram
from .kernel_facts import assignment_counts, size_scalars
from .kernel_params import params_read
from .nesting import ForBlock, IfChain, Nested, WhileBlock

_BINARY_OPS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "^": "pow",
    "MOD": "rem",
    "=": "eq",
    "<>": "ne",
    "<": "lt",
    "<=": "le",
    ">": "gt",
    ">=": "ge",
    "AND": "and",
    "OR": "or",
}


def origin_of(stmt: ast.Stmt, source: SourceFile | None) -> Origin:
    """The BASIC text to quote above the code translated from `stmt`."""
    text = source.line_text(stmt.coord.line) if source else None
    text = (text or "").strip()
    if stmt.label is not None and text.startswith(str(stmt.label)):
        text = text[len(str(stmt.label)) :].strip()
    return Origin(stmt.label, text, stmt.coord)


def lower_kernel_program(kp: KernelProgram, source: SourceFile | None) -> KernelLibrary:
    try:
        return _lower(kp, source)
    except BasicError as err:
        raise CompileErrors([err]) from None


def _lower(kp: KernelProgram, source: SourceFile | None) -> KernelLibrary:
    lowering = _KernelLowering(kp, source)
    body = lowering.zero_starts() + lowering.block(kp.body)
    params: list = []
    scalars: list[ScalarParam] = []
    read = params_read(body)
    for name in kp.inputs:
        if name in kp.scalars:
            sp = ScalarParam(name, kp.scalars[name].dtype)
            scalars.append(sp)
            if name in read:  # one only sizing the grid stays on the host
                params.append(sp)
        else:
            params.append(lowering.array_param(name))
    host_arrays: list[HostArray] = []
    for name, array in kp.arrays.items():
        if not array.is_input:
            params.append(lowering.array_param(name))
        role = (
            "inout"
            if array.is_input and array.is_output
            else "input"
            if array.is_input
            else "output"
            if array.is_output
            else "scratch"
        )
        extents = tuple(lowering.extent(e) for e in array.extents)
        host_arrays.append(HostArray(name, array.dtype, extents, role))
    kernel = Kernel(
        name=kp.name,
        kind="tile",
        params=params,
        body=body,
        grid=lowering.grid(),
        tile=kp.arrays[kp.outputs[0]].tile,
        dtype=kp.dtype,
        summary=_summary(kp),
    )
    cuda_plan.annotate([kernel])
    return KernelLibrary(kp.name, kernel, kp.inputs, scalars, host_arrays, kp.outputs, kp.precision)


class _KernelLowering:
    def __init__(self, kp: KernelProgram, source: SourceFile | None):
        self.kp = kp
        self.source = source
        self.locals: dict[str, TileType] = {}
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        self.assignments = assignment_counts(kp.body)
        self.size_params = size_scalars(kp)
        # FOR variables whose loop has ended (BASIC gives them the first value past the
        # limit; a kernel does not keep it): reading one is an error.
        self.ended_loops: dict[str, object] = {}
        # Variables assigned once, from a value that is never negative.
        self.nonnegative_locals: set[str] = set()

    # ------------------------------------------------------------------ declarations

    def array_param(self, name: str) -> ArrayParam:
        array = self.kp.arrays[name]
        return ArrayParam(
            name, array.dtype, array.rank, reads=name in self.reads, writes=name in self.writes
        )

    def extent(self, expr: ast.Expr) -> KExpr:
        value = self.expr(expr)
        if B.is_float(value.type.dtype):
            raise BasicSemanticError("an array size must be an integer", expr.coord)
        return value

    def grid(self) -> tuple[KExpr, ...]:
        """One block per tile of the first OUTPUT array (flattened unless BID(1) is used)."""
        out = self.kp.arrays[self.kp.outputs[0]]
        tile = out.tile or (1,) * out.rank
        counts = [
            B.binary("cdiv", self.extent(e), B.const(t, "i32"), self.kp.dtype)
            for e, t in zip(out.extents, tile)
        ]
        rank = self.kp.grid_rank
        if rank == 1:
            total = counts[0]
            for c in counts[1:]:
                total = B.binary("mul", total, c, self.kp.dtype)
            return (total,)
        if rank != out.rank:
            raise BasicSemanticError(
                f"BID({rank - 1}) needs a {rank}-D grid, but the grid comes from the tiles of "
                f"{out.name}, which has {out.rank} dimension(s)",
                out.coord,
            )
        return tuple(counts)

    # ------------------------------------------------------------------ statements

    def block(self, nodes: list[Nested]) -> list[KStmt]:
        out: list[KStmt] = []
        for node in nodes:
            out.extend(self.statement(node))
        return out

    def statement(self, node: Nested) -> list[KStmt]:
        if isinstance(node, ForBlock):
            loop = self.for_loop(node)
            # The loop variable is not kept after the loop (`ended_loops`): an empty loop
            # has no effect at all.
            self.locals.pop(node.head.var.name, None)
            self.ended_loops[node.head.var.name] = node.head.coord
            return (
                [loop]
                if any(not isinstance(s, Let) or s.name != node.head.var.name for s in loop.body)
                else []
            )
        if isinstance(node, WhileBlock):
            return [self.while_loop(node)]
        if isinstance(node, IfChain):
            return [self.if_chain(node, 0)]
        with at(node.coord):
            if isinstance(node, ast.Let):
                return [self.let(node)]
            if isinstance(node, ast.Rem):
                return []
            if isinstance(node, ast.Print):
                return [self.print(node)]
        raise BasicUnsupportedError(
            f"{type(node).__name__.upper()} is not supported in a kernel", node.coord
        )

    def origin(self, stmt: ast.Stmt) -> Origin:
        return origin_of(stmt, self.source)

    def for_loop(self, node: ForBlock) -> KStmt:
        head = node.head
        with at(head.coord):
            start = self.integer(head.start, "FOR start")
            limit = self.integer(head.limit, "FOR limit")
            step = 1
            if head.step is not None:
                if not isinstance(head.step, (ast.Num, ast.UnaryOp)):
                    raise BasicUnsupportedError(
                        "a kernel FOR needs a constant integer STEP", head.step.coord
                    )
                value = self.expr(head.step)
                if value.type.dtype != "i32" or not hasattr(value, "value") or value.value == 0:
                    raise BasicUnsupportedError(
                        "a kernel FOR needs a nonzero integer STEP", head.step.coord
                    )
                step = int(value.value)
            var = head.var.name
            self.locals[var] = TileType("i32")
            if step < 0:
                return self.counted_down(var, start, limit, -step, node)
            # BASIC's limit is inclusive, range()'s stop is not.
            stop = B.binary("add", limit, B.const(1, "i32"), self.kp.dtype)
            if self.assignments[var] == 1 and self.nonnegative(start):
                self.nonnegative_locals.add(var)
            body = self.block(node.body)
        return ForRange(var, start, stop, body, step, origin=self.origin(head))

    def counted_down(
        self, var: str, start: KExpr, limit: KExpr, down: int, node: ForBlock
    ) -> KStmt:
        """`FOR I = S TO L STEP -d`: cuTile's range() only counts up, so the loop counts
        its trips, (S - L + d) / d of them (none when S < L), and sets I = S - trip * d."""
        trip = self.fresh(f"{var}_trip")
        self.locals[trip] = TileType("i32")
        f = self.kp.dtype
        span = B.binary("add", B.binary("sub", start, limit, f), B.const(down, "i32"), f)
        trips, counted = span, Local(trip, type=TileType("i32"))
        if down != 1:
            trips = B.binary("floordiv", span, B.const(down, "i32"), f)
            counted = B.binary("mul", counted, B.const(down, "i32"), f)
        value = B.binary("sub", start, counted, f)
        body = [Let(var, value)] + self.block(node.body)
        return ForRange(trip, B.const(0, "i32"), trips, body, 1, origin=self.origin(node.head))

    def zero_starts(self) -> list[KStmt]:
        """`Y = 0` for the variables first assigned inside a block (kernel_types.py)."""
        out: list[KStmt] = []
        for name in self.kp.zero_vars:
            dtype = self.kp.dtype if name in self.kp.float_vars else "i32"
            self.locals[name] = TileType(dtype)
            self.assignments[name] += 1  # not assigned once any more
            out.append(Let(name, B.const(0, dtype)))
        return out

    def while_loop(self, node: WhileBlock) -> KStmt:
        """NVIDIA's WHILE: at most MAX_WHILE_PASSES passes, then the kernel goes on (its
        documented bound): `for pass in range(cap): if cond: body else: break`."""
        with at(node.head.coord):
            cond = self.condition(node.head.condition)
        counter = self.fresh("WHILE_PASS")
        self.locals[counter] = TileType("i32")
        guarded = IfScalar(cond, self.block(node.body), [Break()])
        cap = B.const(MAX_WHILE_PASSES, "i32")
        return ForRange(counter, B.const(0, "i32"), cap, [guarded], origin=self.origin(node.head))

    def fresh(self, name: str) -> str:
        """`name`, or `name_2`... if the program already uses it."""
        taken = (
            set(self.assignments) | set(self.locals) | set(self.kp.scalars) | set(self.kp.arrays)
        )
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            candidate = f"{name}_{n}"
        return candidate

    def if_chain(self, chain: IfChain, arm: int) -> KStmt:
        head = chain.arms[arm]
        with at(head.head.coord):
            cond = self.condition(head.condition)
        then_body = self.block(head.body)
        if arm + 1 < len(chain.arms):
            else_body = [self.if_chain(chain, arm + 1)]
        else:
            else_body = self.block(chain.else_body or [])
        return IfScalar(cond, then_body, else_body, origin=self.origin(head.head))

    def condition(self, expr: ast.Expr) -> KExpr:
        value = B.to_bool(self.expr(expr))
        if not value.type.is_scalar:
            raise BasicUnsupportedError(
                "IF and WHILE in a kernel need a scalar condition, not a tile "
                "(choose elementwise with MAX/MIN, or reduce the tile with SUM/MAX/MIN first)",
                expr.coord,
            )
        return value

    def let(self, stmt: ast.Let) -> KStmt:
        target = stmt.target
        value = self.expr(stmt.value)
        origin = self.origin(stmt)
        if isinstance(target, ast.Index):
            return self.store(target, value, origin)
        name = target.name
        if name in self.kp.arrays:
            raise BasicSemanticError(
                f"{name} is an array; assign to a tile of it, e.g. {name}(BID)", target.coord
            )
        if name in self.kp.scalars:
            raise BasicSemanticError(
                f"{name} is an INPUT parameter and cannot be assigned", target.coord
            )
        if name in self.kp.tile_vars:
            shape = self.kp.tile_vars[name]
            dtype = self.locals.get(name, TileType(self._acc_dtype())).dtype
            value = self.fill(value, TileType(dtype, shape), target)
        elif name.endswith("%"):
            value = B.cast(value, "i32")  # truncated toward zero, as NVIDIA's ftoi
        elif name in self.locals:
            previous = self.locals[name]
            if previous.shape != value.type.shape:
                raise BasicSemanticError(
                    f"{name} was a value of shape {previous.shape} and is now assigned shape "
                    f"{value.type.shape}; a variable keeps one shape",
                    target.coord,
                )
            # kernel_types made every variable that is ever assigned a float a float from
            # its first assignment: an integer variable never gets a float here.
            assert B.is_float(previous.dtype) or not B.is_float(value.type.dtype), name
            value = B.cast(value, previous.dtype)
        elif name in self.kp.float_vars and not B.is_float(value.type.dtype):
            value = B.cast(value, self.kp.dtype)  # LET X = 7 where X is later X / 2
        self.locals[name] = value.type
        if self.assignments[name] == 1 and self.nonnegative(value):
            self.nonnegative_locals.add(name)
        return Let(name, value, origin=origin)

    def print(self, stmt: ast.Print) -> KStmt:
        """NVIDIA's device print: the items side by side (`;` and `,` alike), an I32 as
        `%d`, a float as `%f`, a newline unless a separator ends the list."""
        if stmt.channel is not None or stmt.using is not None:
            raise BasicUnsupportedError(
                "PRINT # and PRINT USING are not supported in a kernel", stmt.coord
            )
        parts: list[str] = []
        args: list[KExpr] = []
        for item in stmt.items:
            if isinstance(item, ast.PrintSep):
                continue
            if isinstance(item, ast.Str):
                parts.append(item.value.replace("%", "%%"))
                continue
            if not isinstance(item, ast.Expr):
                raise BasicUnsupportedError(
                    "TAB and SPC are not supported in a kernel's PRINT", item.coord
                )
            value = self.expr(item)
            if not value.type.is_scalar:
                raise BasicUnsupportedError(
                    "a kernel's PRINT prints scalars, not tiles (reduce the tile with SUM/MAX/MIN)",
                    item.coord,
                )
            if value.type.dtype == "bool":
                value = B.cast(value, "i32")
            parts.append("%f" if B.is_float(value.type.dtype) else "%d")
            args.append(B.cast(value, "f64") if value.type.dtype in ("f16", "bf16") else value)
        if not stmt.items or not isinstance(stmt.items[-1], ast.PrintSep):
            parts.append("\n")
        return Print("".join(parts), tuple(args), origin=self.origin(stmt))

    def nonnegative(self, value: KExpr) -> bool:
        return nonnegative(value, self.size_params, self.nonnegative_locals)

    def _acc_dtype(self):
        # Accumulators are at least f32 (f16 inputs accumulate in f32, as cuTile's mma wants).
        return "f64" if self.kp.dtype == "f64" else "f32"

    def fill(self, value: KExpr, want: TileType, target: ast.Node) -> KExpr:
        if value.type.is_scalar:
            if hasattr(value, "value"):
                return Full(value.value, type=want)
            return B.broadcast(B.cast(value, want.dtype), want.shape)
        if value.type.shape != want.shape and _squeezed(value.type.shape) == _squeezed(want.shape):
            # SUM(T, 1) of a (16, 64) tile is (16, 1): it fills a TILE of 16.
            value = Reshape(value, type=TileType(value.type.dtype, want.shape))
        if value.type.shape != want.shape:
            raise BasicSemanticError(
                f"a tile of shape {value.type.shape} cannot be assigned to {target.name}, whose TILE is {want.shape}",
                target.coord,
            )
        return B.cast(value, want.dtype)

    def store(self, target: ast.Index, value: KExpr, origin: Origin) -> KStmt:
        array = self.kp.arrays.get(target.name)
        if array is None:
            raise BasicSemanticError(f"{target.name} is not an array declared by DIM", target.coord)
        index = self.tile_index(target, array)
        value = self.fill(value, TileType(array.dtype, array.tile), target)
        self.writes.add(array.name)
        return Store(array.name, index, value, origin=origin)

    # ------------------------------------------------------------------ expressions

    def integer(self, expr: ast.Expr, what: str) -> KExpr:
        value = self.expr(expr)
        if value.type.dtype != "i32" or not value.type.is_scalar:
            raise BasicSemanticError(f"{what} must be an integer scalar (use INT(...))", expr.coord)
        return value

    def tile_index(self, ref: ast.Index, array) -> tuple[KExpr, ...]:
        if len(ref.indices) != array.rank:
            raise BasicSemanticError(
                f"{array.name} has {array.rank} dimension(s) but {len(ref.indices)} index(es) are given",
                ref.coord,
            )
        return tuple(self.index_value(i) for i in ref.indices)

    def index_value(self, expr: ast.Expr) -> KExpr:
        """A tile index; a float one (`LET T = BID / 4`, then `A(T)`) is truncated toward
        zero, as NVIDIA's compiler converts it (ftoi)."""
        value = self.expr(expr)
        if value.type.is_scalar and B.is_float(value.type.dtype):
            value = B.cast(value, "i32")
        if value.type.dtype != "i32" or not value.type.is_scalar:
            raise BasicSemanticError(
                "a tile index must be an integer scalar (use INT(...))", expr.coord
            )
        return value

    def expr(self, e: ast.Expr) -> KExpr:
        with at(e.coord):
            return self._expr(e)

    def _expr(self, e: ast.Expr) -> KExpr:
        if isinstance(e, ast.Num):
            if e.value == int(e.value) and _looks_integer(e.text):
                return B.const(int(e.value), "i32")
            return B.const(float(e.value), self.kp.dtype)
        if isinstance(e, ast.Bid):
            return BlockId(e.axis, type=TileType("i32"))
        if isinstance(e, ast.Var):
            if e.name in self.kp.scalars:
                return Param(e.name, type=TileType(self.kp.scalars[e.name].dtype))
            if e.name in self.locals:
                return Local(e.name, type=self.locals[e.name])
            if e.name in self.kp.arrays:
                raise BasicSemanticError(
                    f"{e.name} is an array; use a tile of it, e.g. {e.name}(BID)", e.coord
                )
            if e.name in self.ended_loops:
                raise BasicUnsupportedError(
                    f"FOR variable {e.name} is read after its loop (line "
                    f"{self.ended_loops[e.name].line}); a kernel does not keep its final value "
                    "(BASIC's first value past the limit): assign it to another variable in the loop",
                    e.coord,
                )
            raise BasicSemanticError(f"{e.name} is used before it is assigned", e.coord)
        if isinstance(e, ast.Index):
            array = self.kp.arrays.get(e.name)
            if array is None:
                raise BasicSemanticError(f"{e.name} is not an array declared by DIM", e.coord)
            index = self.tile_index(e, array)
            self.reads.add(array.name)
            return Load(array.name, index, type=TileType(array.dtype, array.tile))
        if isinstance(e, ast.UnaryOp):
            operand = self.expr(e.operand)
            if e.op == "+":
                return operand
            return B.unary("neg" if e.op == "-" else "not", operand, self.kp.dtype)
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Str):
            raise BasicUnsupportedError("strings are not supported in a kernel", e.coord)
        raise BasicUnsupportedError(f"{type(e).__name__} is not supported in a kernel", e.coord)

    def binop(self, e: ast.BinOp) -> KExpr:
        op = _BINARY_OPS.get(e.op)
        if op is None:
            raise BasicUnsupportedError(f"operator {e.op} is not supported in a kernel", e.coord)
        left, right = self.expr(e.left), self.expr(e.right)
        if op == "rem" and self.nonnegative(left) and self.nonnegative(right):
            op = "mod"  # the same value, and cuTile's own %
        return B.binary(op, left, right, self.kp.dtype)

    def call(self, e: ast.Call) -> KExpr:
        builtin = BUILTINS.get(e.name)
        form = builtin.kernel_program if builtin is not None else None
        if form == "mma":
            return self.mma(e)
        if form == "to_int":
            return self.to_int(e)
        if form == "reduce" and e.args:
            return self.reduction(e, builtin)
        if form == "elementwise":
            self._arity(e, 1)
            return B.unary(builtin.tile_op, self.expr(e.args[0]), self.kp.dtype)
        raise BasicUnsupportedError(f"{e.name} is not supported in a kernel", e.coord)

    def to_int(self, e: ast.Call) -> KExpr:
        """NVIDIA's INT: truncation toward zero, an I32 result (cuTile's astype truncates,
        saturates and makes NaN 0, as the GPU's conversion does)."""
        self._arity(e, 1)
        inner = e.args[0]
        # INT(a / b) of integers is an exact integer division, not a float round trip.
        if isinstance(inner, ast.BinOp) and inner.op == "/":
            left, right = self.expr(inner.left), self.expr(inner.right)
            if not B.is_float(left.type.dtype) and not B.is_float(right.type.dtype):
                both = self.nonnegative(left) and self.nonnegative(right)
                # Floor and truncation agree on values >= 0: keep cuTile's own //.
                return B.binary("floordiv" if both else "truncdiv", left, right, self.kp.dtype)
        return B.cast(self.expr(inner), "i32")

    def reduction(self, e: ast.Call, builtin: Builtin) -> KExpr:
        """SUM, MAX or MIN of a tile (or along an axis); MAX and MIN of two values."""
        args = e.args
        first = self.expr(args[0])
        if not first.type.is_scalar and (len(args) == 1 or _axis_literal(args[1]) is not None):
            return self.reduce(e, builtin.name.lower(), first)
        if builtin.tile_op is not None and len(args) == 2:
            return B.binary(builtin.tile_op, first, self.expr(args[1]), self.kp.dtype)
        raise BasicSemanticError(f"{e.name} needs a tile (and optionally an axis number)", e.coord)

    def _arity(self, e: ast.Call, n: int) -> None:
        if len(e.args) != n:
            raise BasicSemanticError(f"{e.name} takes {n} argument(s), not {len(e.args)}", e.coord)

    def reduce(self, e: ast.Call, op: str, tile: KExpr) -> KExpr:
        if len(e.args) == 1:
            return Reduce(op, tile, None, type=TileType(tile.type.dtype))
        axis = _axis_literal(e.args[1])
        rank = len(tile.type.shape)
        if not 0 <= axis < rank:
            raise BasicSemanticError(
                f"axis {axis} is out of range for a {rank}-D tile (axes count from 0)",
                e.args[1].coord,
            )
        shape = tuple(1 if i == axis else d for i, d in enumerate(tile.type.shape))
        return Reduce(op, tile, axis, keepdims=True, type=TileType(tile.type.dtype, shape))

    def mma(self, e: ast.Call) -> KExpr:
        self._arity(e, 3)
        a, b, acc = (self.expr(x) for x in e.args)
        for operand, arg in ((a, e.args[0]), (b, e.args[1]), (acc, e.args[2])):
            if len(operand.type.shape) != 2:
                raise BasicSemanticError(
                    "MMA works on 2-D tiles (declare them with TILE)", arg.coord
                )
        (m, k), (k2, n), (m2, n2) = a.type.shape, b.type.shape, acc.type.shape
        if k != k2 or (m, n) != (m2, n2):
            raise BasicSemanticError(
                f"MMA shapes do not fit: ({m}, {k}) x ({k2}, {n}) + ({m2}, {n2})", e.coord
            )
        in_dtype = B.wider_float(a.type.dtype, b.type.dtype)
        a, b = B.cast(a, in_dtype), B.cast(b, in_dtype)
        acc_dtype = "f64" if in_dtype == "f64" else "f32"
        acc = B.cast(acc, acc_dtype)
        return B.mma(a, b, acc, self.kp.tf32_products)


def _summary(kp: KernelProgram) -> str:
    out = kp.arrays[kp.outputs[0]]
    shape = "x".join(map(str, out.tile)) if out.tile else "element"
    return f"One block per {shape} tile of {out.name} (translated from cuTile BASIC)."


def _squeezed(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for d in shape if d != 1)


def _looks_integer(text: str) -> bool:
    return bool(text) and text.isdigit()


def _axis_literal(expr: ast.Expr) -> int | None:
    if isinstance(expr, ast.Num) and expr.value == int(expr.value) and _looks_integer(expr.text):
        return int(expr.value)
    return None
