"""Declarations of a cuTile BASIC kernel program: INPUT, DIM, TILE, OUTPUT.

NVIDIA's dialect (the `basic-experimental` branch of NVIDIA/cuda-tile) turns a whole
program into one kernel: `INPUT N, A(), B()` are its parameters, `DIM` gives each
array's shape, `TILE` the tile each block works on, `BID` the block index, `OUTPUT` the
arrays copied back.  This pass checks the declarations and records them; the statements
are lowered to the kernel IR by `kernel_lowering.py`.

Where NVIDIA's compiler is silent we report errors: a GOTO, GOSUB or PRINT inside a
kernel, a TILE size that is not a power of two, an array without a shape.

Semantics we chose (documented in docs/semantics.md):
- `DIM A(N)` in a kernel program is the array's extent (N elements, indices 0..N-1), as
  in NVIDIA's dialect, not BASIC's upper bound.
- Every INPUT scalar is a 32-bit integer, as NVIDIA documents; a variable whose name
  ends in `%` is one too (a float assigned to it is truncated toward zero).
- `DIM A(N) AS F16` (also BF16, F32, F64, I32) sets an array's element type.
- A variable assigned a float anywhere holds floats from its first assignment on, as
  NVIDIA's analyzer widens I32 to F32 (kernel_types.py).
- I32 arithmetic wraps around (two's complement), as NVIDIA's addi/muli do; an integer
  literal that does not fit an I32 is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import BasicSemanticError, BasicUnsupportedError, Coord, Diagnostics, SourceFile
from ...ir import ast
from ...ir.kernel import DType
from ...ir.statement_facts import facts_of
from ...options import Options
from .kernel_case import check_identifier_case
from .kernel_data import data_items, resolve_reads
from .kernel_types import float_variables, zero_started_variables
from .nesting import Nested, nest

# Statements that make a program a kernel program.
_KERNEL_MARKERS = (ast.TileStmt, ast.Output)
DTYPE_NAMES: dict[str, DType] = {
    "F16": "f16",
    "HALF": "f16",
    "BF16": "bf16",
    "F32": "f32",
    "SINGLE": "f32",
    "F64": "f64",
    "DOUBLE": "f64",
    "I32": "i32",
    "INTEGER": "i32",
}
# A kernel's WHILE makes at most this many passes, then the kernel goes on: the bound
# NVIDIA's language reference documents (its compiler lowers WHILE to a bounded loop).
MAX_WHILE_PASSES = 1_000_000
# cuTile rejects tiles of more than 2**24 elements (found only by tileiras otherwise).
MAX_TILE_ELEMENTS = 1 << 24


@dataclass(eq=False)
class KArray:
    name: str
    dtype: DType
    extents: list[ast.Expr]
    coord: Coord
    tile: tuple[int, ...] = ()  # () = addressed element by element
    is_input: bool = False
    is_output: bool = False

    @property
    def rank(self) -> int:
        return len(self.extents)


@dataclass(eq=False)
class KScalar:
    name: str
    dtype: DType
    coord: Coord


@dataclass(eq=False)
class KernelProgram:
    name: str
    dtype: DType  # default element type
    inputs: list[str]  # INPUT names in order
    scalars: dict[str, KScalar]
    arrays: dict[str, KArray]
    tile_vars: dict[str, tuple[int, ...]]  # TILE shapes of non-arrays (accumulators)
    outputs: list[str]
    body: list[Nested]
    grid_rank: int
    coord: Coord
    # Variables that hold floats from their first assignment on (kernel_types.py).
    float_vars: set[str] = field(default_factory=set)
    # Variables first assigned inside a block, which start at 0 (kernel_types.py).
    zero_vars: list[str] = field(default_factory=list)
    # `--precision` as given (None: the default, f32).
    precision: str | None = None

    @property
    def tf32_products(self) -> bool:
        """MMA of f32 tiles on TensorFloat-32 operands (`--precision tf32`)."""
        return self.precision == "tf32"


def is_kernel_program(program: ast.Program) -> bool:
    return first_kernel_statement(program) is not None


def first_kernel_statement(program: ast.Program) -> ast.Stmt | None:
    """The first statement that only a cuTile BASIC kernel program has, or None."""
    for stmt in _all_statements(program):
        if isinstance(stmt, _KERNEL_MARKERS):
            return stmt
        if isinstance(stmt, ast.Input) and stmt.array_params:
            return stmt
        for node in stmt.walk():
            if isinstance(node, ast.Bid) or (isinstance(node, ast.Call) and node.name == "MMA"):
                return stmt
    return None


def _all_statements(program: ast.Program):
    for stmt in program.statements():
        yield stmt
        if isinstance(stmt, ast.If):
            yield from stmt.then_body
            yield from stmt.else_body


def analyze_kernel_program(
    program: ast.Program, options: Options, name: str, source: SourceFile | None = None
) -> KernelProgram:
    """Check the declarations of a kernel program; raises CompileErrors.  With `source`,
    also that each name is spelled one way (kernel_case.py)."""
    diags = Diagnostics()
    check_identifier_case(program, source, diags)
    dtype: DType = "f32" if options.tf32_products else options.precision or "f32"
    inputs: list[str] = []
    input_arrays: set[str] = set()
    input_coords: dict[str, Coord] = {}
    dims: dict[str, ast.ArrayDecl] = {}
    tiles: dict[str, ast.TileDecl] = {}
    outputs: list[str] = []
    output_coords: dict[str, Coord] = {}
    body: list[ast.Stmt] = []
    data: list[ast.Data] = []
    ended = False

    for stmt in program.statements():
        if ended and not isinstance(stmt, ast.Rem):
            diags.error(BasicSemanticError("statement after END in a kernel program", stmt.coord))
            continue
        if isinstance(stmt, ast.Input) and stmt.channel is not None:
            diags.error(BasicUnsupportedError("INPUT # in a kernel program", stmt.coord))
        elif isinstance(stmt, ast.Input):
            for target in stmt.targets:
                if not isinstance(target, ast.Var):
                    diags.error(
                        BasicSemanticError(
                            "INPUT of a kernel names parameters, not elements", target.coord
                        )
                    )
                    continue
                if target.name in input_coords:
                    diags.error(
                        BasicSemanticError(
                            f"parameter {target.name} is declared twice", target.coord
                        )
                    )
                    continue
                inputs.append(target.name)
                input_coords[target.name] = target.coord
                if target.name in stmt.array_params:
                    input_arrays.add(target.name)
        elif isinstance(stmt, ast.Dim):
            for decl in stmt.arrays:
                if decl.name in dims:
                    diags.error(
                        BasicSemanticError(f"array {decl.name} is dimensioned twice", decl.coord)
                    )
                dims[decl.name] = decl
        elif isinstance(stmt, ast.TileStmt):
            for decl in stmt.tiles:
                if decl.name in tiles:
                    diags.error(
                        BasicSemanticError(f"TILE {decl.name} is declared twice", decl.coord)
                    )
                tiles[decl.name] = decl
        elif isinstance(stmt, ast.Output):
            for out in stmt.names:
                if out not in outputs:
                    outputs.append(out)
                    output_coords[out] = stmt.coord
        elif isinstance(stmt, ast.End):
            ended = True
        elif isinstance(stmt, ast.Data):
            data.append(stmt)
        elif isinstance(stmt, ast.Rem):
            continue
        else:
            _check_kernel_statement(stmt, diags)
            _check_integer_constants(stmt, diags)
            body.append(stmt)

    scalar_types = _scalar_types(inputs, input_arrays)
    scalars = {
        n: KScalar(n, scalar_types[n], input_coords[n]) for n in inputs if n not in input_arrays
    }
    arrays: dict[str, KArray] = {}
    for name_, decl in dims.items():
        arrays[name_] = KArray(
            name_,
            _array_dtype(decl, dtype, diags),
            list(decl.bounds),
            decl.coord,
            is_input=name_ in input_arrays,
        )
        for bound in decl.bounds:
            _check_extent(bound, scalars, diags)
    for name_ in input_arrays:
        if name_ not in arrays:
            diags.error(
                BasicSemanticError(
                    f"array parameter {name_}() needs a DIM statement giving its shape",
                    input_coords[name_],
                )
            )
    tile_vars: dict[str, tuple[int, ...]] = {}
    for name_, decl in tiles.items():
        shape = _tile_shape(decl, diags)
        if shape is None:
            continue
        if name_ in arrays:
            array = arrays[name_]
            if len(shape) != array.rank:
                diags.error(
                    BasicSemanticError(
                        f"TILE {name_} has {len(shape)} dimension(s) but DIM {name_} has {array.rank}",
                        decl.coord,
                    )
                )
            array.tile = shape
        else:
            tile_vars[name_] = shape
    for out in outputs:
        if out not in arrays:
            diags.error(
                BasicSemanticError(
                    f"OUTPUT {out} is not an array declared by DIM", output_coords[out]
                )
            )
        else:
            arrays[out].is_output = True
    if not outputs:
        diags.error(BasicSemanticError("a kernel program needs an OUTPUT statement", program.coord))
    try:
        nested = resolve_reads(nest(body), data_items(data, diags), diags)
    except BasicSemanticError as err:
        diags.error(err)
        nested = []
    diags.check()
    kp = KernelProgram(
        precision=options.precision,
        name=name,
        dtype=dtype,
        inputs=inputs,
        scalars=scalars,
        arrays=arrays,
        tile_vars=tile_vars,
        outputs=outputs,
        body=nested,
        grid_rank=_grid_rank(body),
        coord=program.coord,
    )
    try:
        kp.float_vars = float_variables(kp)
        kp.zero_vars = zero_started_variables(kp)
    except BasicSemanticError as err:
        diags.error(err)
    diags.check()
    return kp


def _check_integer_constants(stmt: ast.Stmt, diags: Diagnostics) -> None:
    """An integer literal is an I32; one that does not fit would wrap silently."""
    for node in stmt.walk():
        if isinstance(node, ast.Num) and node.text.isdigit() and node.value > _I32_MAX:
            diags.error(
                BasicSemanticError(
                    f"integer constant {node.text} does not fit a 32-bit integer "
                    f"(write {node.text}.0 for a float)",
                    node.coord,
                )
            )


_I32_MAX = 2**31 - 1


def _check_kernel_statement(stmt: ast.Stmt, diags: Diagnostics) -> None:
    """Statements a kernel cannot contain."""
    facts = facts_of(stmt)
    if facts.kernel == "ignored":
        diags.error(
            BasicUnsupportedError(
                f"{facts.word} is not supported inside a kernel program "
                "(a kernel program is the body of one GPU kernel; NVIDIA's compiler ignores it silently)",
                stmt.coord,
            )
        )
    elif facts.kernel == "rejected":
        diags.error(
            BasicUnsupportedError(
                f"{facts.word} is not supported inside a kernel program "
                "(a kernel program is the body of one GPU kernel)",
                stmt.coord,
            )
        )
    if isinstance(stmt, ast.If):
        for inner in stmt.then_body + stmt.else_body:
            _check_kernel_statement(inner, diags)
        if stmt.then_line is not None or stmt.else_line is not None:
            diags.error(
                BasicUnsupportedError(
                    "IF ... THEN <line> (a jump) is not supported in a kernel", stmt.coord
                )
            )


def _scalar_types(inputs: list[str], arrays: set[str]) -> dict[str, DType]:
    """Every INPUT scalar is a 32-bit integer, as NVIDIA documents (sizes, loop bounds)."""
    return {n: "i32" for n in inputs if n not in arrays}


def _array_dtype(decl: ast.ArrayDecl, default: DType, diags: Diagnostics) -> DType:
    if decl.dtype is None:
        return "i32" if decl.name.endswith("%") else default
    dtype = DTYPE_NAMES.get(decl.dtype.upper())
    if dtype is None:
        diags.error(
            BasicSemanticError(
                f"unknown element type {decl.dtype} (use F16, BF16, F32, F64 or I32)", decl.coord
            )
        )
        return default
    return dtype


def _check_extent(bound: ast.Expr, scalars: dict[str, KScalar], diags: Diagnostics) -> None:
    for node in bound.walk():
        if isinstance(node, ast.Var) and node.name not in scalars:
            diags.error(
                BasicSemanticError(
                    f"array size uses {node.name}, which is not an INPUT scalar", node.coord
                )
            )
        elif isinstance(node, (ast.Index, ast.Bid, ast.Str)):
            diags.error(
                BasicSemanticError(
                    "an array size must be built from INPUT scalars and numbers", node.coord
                )
            )


def _tile_shape(decl: ast.TileDecl, diags: Diagnostics) -> tuple[int, ...] | None:
    shape: list[int] = []
    for dim in decl.shape:
        value = dim.value if isinstance(dim, ast.Num) else None
        if value is None or value != int(value) or value < 1:
            diags.error(
                BasicSemanticError("a TILE size must be a positive integer constant", dim.coord)
            )
            return None
        n = int(value)
        if n & (n - 1):
            lower = 1 << (n.bit_length() - 1)
            diags.error(
                BasicUnsupportedError(
                    f"TILE size {n} is not a power of two (cuTile tiles are powers of two; "
                    f"try {lower} or {lower * 2}; sizes that are not tile multiples are masked)",
                    dim.coord,
                )
            )
            return None
        shape.append(n)
    total = 1
    for n in shape:
        total *= n
    if total > MAX_TILE_ELEMENTS:
        diags.error(
            BasicUnsupportedError(
                f"TILE {decl.name} has {total} elements; the limit is 2^24", decl.coord
            )
        )
        return None
    return tuple(shape)


def _grid_rank(body: list[ast.Stmt]) -> int:
    rank = 1
    for stmt in body:
        for node in stmt.walk():
            if isinstance(node, ast.Bid):
                rank = max(rank, node.axis + 1)
    return rank
