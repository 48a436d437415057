"""Pass 7: simple variables, arrays, DIM and OPTION BASE.

ECMA-55 defines these rules on the program text, in line order (bas55 checks them the
same way), so this pass walks the flat list once, front to back:
- OPTION BASE at most once, and before any DIM or array reference (15.4);
- an array is DIMmed at most once, before any reference to it (15.4), with bounds of
  at least the OPTION BASE; an array used without DIM has bounds 10 (8.4);
- an array keeps one rank;
- strict mode: a name is a simple variable or an array, not both, and an array name is
  one letter (`A9(I)` is the simple variable A9 misused).  Extended mode keeps arrays
  and simple variables in separate name spaces (as Microsoft BASICs do) and allows long
  array names.
Extended mode also allows DIM bounds that are expressions (evaluated when the DIM runs).
An element type (`DIM A(N) AS F16`) belongs to kernel programs: here it is an error.
"""

from __future__ import annotations

import math

from ...errors import BasicSemanticError, Coord, Diagnostics
from ...ir import ast
from ...ir.model import IMPLICIT_UPPER_BOUND, Analysis, ArraySymbol, VarSymbol, type_of_name
from ...ir.statement_facts import facts_of, fields_in_order, operands
from ...runtime.gwerrors import gw_message
from ...runtime.limits import TOO_MANY_ELEMENTS
from .run_time_faults import fault_in_place

DUPLICATE_DEFINITION = gw_message(10)

_RANK_WORDS = {1: "a one-dimensional array", 2: "a two-dimensional array"}


def _rank_words(rank: int) -> str:
    return _RANK_WORDS.get(rank, f"a {rank}-dimensional array")


class _SymbolPass:
    def __init__(self, analysis: Analysis, diags: Diagnostics) -> None:
        self.a = analysis
        self.diags = diags
        self.strict = analysis.options.strict
        self.array_seen: Coord | None = None  # first DIM or array reference
        self.params: frozenset[str] = frozenset()  # parameters of the DEF being visited

    def error(self, message: str, coord: Coord) -> None:
        self.diags.error(BasicSemanticError(message, coord))

    # ----------------------------------------------------------------- statements

    def run(self) -> None:
        # ERASEd arrays may be DIMmed again; their shape changes at run time.
        self.erased = {
            name: stmt
            for stmt in self.a.stmts
            if isinstance(stmt, ast.Erase)
            for name in stmt.names
        }
        self.duplicate_dims: list[tuple[ast.Dim, Coord, ArraySymbol]] = []
        for stmt in self.a.stmts:
            self.statement(stmt)
        for stmt, where, old in self.duplicate_dims:
            why = f"array {old.name} dimensioned twice (first at {self.a.line_name(old.coord)})"
            fault_in_place(self.a, self.a.stmts.index(stmt), DUPLICATE_DEFINITION, why, where)
        for name, stmt in self.erased.items():
            symbol = self.a.arrays.get(name)
            if symbol is None:
                self.error(f"ERASE {name}: the program has no array {name}", stmt.coord)
            else:
                symbol.redimensioned = True

    def statement(self, stmt: ast.Stmt) -> None:
        if isinstance(stmt, ast.OptionBase):
            self.option_base(stmt)
        elif isinstance(stmt, ast.Dim):
            for decl in stmt.arrays:
                self.dim(decl, stmt)
        elif isinstance(stmt, ast.DefFn):
            self.params = frozenset(stmt.params)
            self.expr(stmt.body)
            self.params = frozenset()
        elif isinstance(stmt, (ast.MatRead, ast.MatInput)):
            for decl in stmt.arrays:
                self.mat_array(
                    decl.name, decl.coord, len(decl.bounds) or None, resized=bool(decl.bounds)
                )
                for bound in decl.bounds:
                    self.expr(bound)
        elif isinstance(stmt, ast.MatPrint):
            for name in stmt.names:
                self.mat_array(name, stmt.coord, None, resized=False)
        elif isinstance(stmt, ast.MatAssign):
            self.mat_assign(stmt)
        else:
            self.fields(stmt)

    def fields(self, stmt: ast.Stmt) -> None:
        """A statement's fields in order: what it assigns (statement_facts' stores and
        updates), the one-dimensional arrays it names (`lists`), expressions."""
        facts = facts_of(stmt)
        assigned = facts.stores + facts.updates
        for name in fields_in_order(stmt):
            for child in operands(stmt, (name,)):
                if name in assigned:
                    self.target(child)
                elif name in facts.lists:  # a list of values: one dimension
                    self.array_ref(child.name, 1, child.coord)
                elif isinstance(child, ast.Node):
                    self.node(child)

    def node(self, node: ast.Node) -> None:
        if isinstance(node, ast.Expr):
            self.expr(node)
        else:  # PrintSep, Tab, LineRef, Datum, Var lists...
            for child in node.children():
                self.node(child)

    def target(self, target: ast.LValue) -> None:
        self.expr(target)
        if isinstance(target, ast.Var):
            symbol = self.a.variables.get(target.name)
            if symbol is not None:
                symbol.assigned = True

    # ----------------------------------------------------------------- OPTION BASE, DIM

    def option_base(self, stmt: ast.OptionBase) -> None:
        first = self.a.option_base_stmt
        if first is not None:
            self.error(
                f"OPTION BASE given twice (first at {self.a.line_name(first.coord)})", stmt.coord
            )
            return
        self.a.option_base_stmt = stmt
        if self.array_seen is not None:
            self.error(
                "OPTION BASE after an array is dimensioned or used "
                f"(at {self.a.line_name(self.array_seen)})",
                stmt.coord,
            )
        if stmt.base not in (0, 1):
            self.error("OPTION BASE must be 0 or 1", stmt.coord)
            return
        self.a.option_base = stmt.base

    def duplicate_at_run_time(self, first: ast.Stmt | None, again: ast.Stmt) -> bool:
        """GW-BASIC: a second DIM of an array is "Duplicate Definition" when it runs.  Only
        where the first surely ran before (both are statements of their own, not in an IF,
        the first in an earlier line or before it in the same line); other programs keep
        the compile-time error."""
        options = self.a.options
        if not (options.microsoft and not options.qbasic) or first is None:
            return False
        return _plain_statement(self.a, first) and _plain_statement(self.a, again)

    def dim(self, decl: ast.ArrayDecl, stmt: ast.Dim) -> None:
        self.array_seen = self.array_seen or decl.coord
        if decl.dtype is not None:
            # Not ignored: QBasic's `AS INTEGER` would round what the array stores.
            self.error(
                f"DIM ... AS {decl.dtype} is for cuTile BASIC kernel programs; the elements "
                f"of a legacy array have the type of its name ({decl.name.rstrip('$%')}% for "
                "integers)",
                decl.coord,
            )
        if not self.check_array_name(decl.name, decl.coord):
            return
        if 0 in decl.lows and self.a.option_base == 1:
            # QuickBASIC's DIM A(0 TO n) under OPTION BASE 1: its element 0 would be missing
            self.error("a lower bound of 0 after OPTION BASE 1 is not supported", decl.coord)
        upper: list[int] | None = []
        for bound in decl.bounds:
            self.expr(bound)
            value = _constant(bound)
            if value is None:
                if self.strict:
                    self.error("DIM bounds must be integer constants", bound.coord)
                upper = None
                continue
            if math.isfinite(value) and value != int(value):
                self.error(f"DIM bound {bound_text(bound)} is not an integer", bound.coord)
                value = float(self.a.option_base)
            if value < self.a.option_base:
                self.error(
                    f"DIM bound {int(value)} is below the OPTION BASE ({self.a.option_base})",
                    bound.coord,
                )
                value = float(self.a.option_base)
            if upper is not None:
                upper.append(int(value) if math.isfinite(value) else TOO_MANY_ELEMENTS)
        if upper and math.prod(u - self.a.option_base + 1 for u in upper) > TOO_MANY_ELEMENTS:
            # Refused here, the same for every engine (else the interpreter fails when the
            # DIM runs and C++ gets a literal of hundreds of digits).
            bounds = ",".join(bound_text(b) for b in decl.bounds)
            self.error(
                f"invalid DIM bound {decl.name}({bounds}): too many elements "
                f"(at most {TOO_MANY_ELEMENTS})",
                decl.coord,
            )
            upper = [self.a.option_base] * len(decl.bounds)
        old = self.a.arrays.get(decl.name)
        if old is not None:
            if old.rank != len(decl.bounds):
                self.rank_mismatch(decl.name, old, decl.coord)
            elif decl.name in self.erased:
                old.declared = True  # DIM again after ERASE: each DIM allocates when it runs
            elif old.declared and self.duplicate_at_run_time(old.dim_stmt, stmt):
                self.duplicate_dims.append((stmt, decl.coord, old))
            elif old.declared:
                self.error(
                    f"array {decl.name} dimensioned twice (first at {self.a.line_name(old.coord)})",
                    decl.coord,
                )
            else:
                self.error(
                    f"DIM {decl.name} after its first use at {self.a.line_name(old.coord)} "
                    "(DIM must come first)",
                    decl.coord,
                )
            return
        self.a.arrays[decl.name] = ArraySymbol(
            name=decl.name,
            rank=len(decl.bounds),
            elem_type=type_of_name(decl.name),
            base=self.a.option_base,
            upper=tuple(upper) if upper is not None else None,
            declared=True,
            coord=decl.coord,
            dim_stmt=stmt,
            bound_exprs=list(decl.bounds),
        )

    # ----------------------------------------------------------------- references

    def expr(self, expr: ast.Expr) -> None:
        if isinstance(expr, ast.Var):
            self.scalar(expr.name, expr.coord)
        elif isinstance(expr, ast.Index):
            self.array_ref(expr.name, len(expr.indices), expr.coord)
            for index in expr.indices:
                self.expr(index)
        else:
            for child in expr.children():
                self.node(child)

    def scalar(self, name: str, coord: Coord) -> None:
        if name in self.params:
            return
        if self.strict and name in self.a.arrays:
            old = self.a.arrays[name]
            self.error(
                f"{name} is {_rank_words(old.rank)} ({self.a.line_name(old.coord)}), "
                "not a simple variable",
                coord,
            )
            return
        if name not in self.a.variables:
            self.a.variables[name] = VarSymbol(name, type_of_name(name), coord)

    def check_array_name(self, name: str, coord: Coord) -> bool:
        if self.strict and any(ch.isdigit() for ch in name):
            self.error(f"{name} is a simple variable name, not an array name", coord)
            return False
        if self.strict and name in self.a.variables:
            old = self.a.variables[name]
            self.error(
                f"{name} is a simple variable ({self.a.line_name(old.coord)}), not an array", coord
            )
            return False
        return True

    def array_ref(self, name: str, rank: int, coord: Coord) -> ArraySymbol | None:
        self.array_seen = self.array_seen or coord
        if name in self.params:
            self.error(f"parameter {name} used as an array", coord)
            return None
        if not self.check_array_name(name, coord):
            return None
        old = self.a.arrays.get(name)
        if old is None:
            old = self.a.arrays[name] = ArraySymbol(
                name=name,
                rank=rank,
                elem_type=type_of_name(name),
                base=self.a.option_base,
                upper=(IMPLICIT_UPPER_BOUND,) * rank,
                declared=False,
                coord=coord,
            )
        elif old.rank != rank:
            self.rank_mismatch(name, old, coord)
            return None
        return old

    def rank_mismatch(self, name: str, old: ArraySymbol, coord: Coord) -> None:
        how = "dimensioned" if old.declared else "used"
        self.error(
            f"array {name} was {how} as {_rank_words(old.rank)} ({self.a.line_name(old.coord)})",
            coord,
        )

    # ----------------------------------------------------------------- MAT statements

    def mat_array(self, name: str, coord: Coord, rank: int | None, *, resized: bool) -> None:
        """An array named by a MAT statement; `rank` when the statement gives dimensions."""
        old = self.a.arrays.get(name)
        if old is None and rank is None:
            self.array_seen = self.array_seen or coord
            self.error(f"MAT needs the dimensions of {name}: DIM it before this statement", coord)
            return
        symbol = self.array_ref(name, rank if rank is not None else old.rank, coord)
        if symbol is not None and resized:
            symbol.redimensioned = True

    def mat_operand(self, ref: ast.MatRef) -> int | None:
        self.mat_array(ref.name, ref.coord, None, resized=False)
        symbol = self.a.arrays.get(ref.name)
        return symbol.rank if symbol is not None else None

    def mat_assign(self, stmt: ast.MatAssign) -> None:
        value = stmt.value
        result_rank: int | None = None
        if isinstance(value, ast.MatFill):
            for dim in value.dims:
                self.expr(dim)
            if value.dims:
                result_rank = len(value.dims)
            elif value.name == "IDN":
                result_rank = 2
        elif isinstance(value, ast.MatScale):
            self.expr(value.factor)
            result_rank = self.mat_operand(value.matrix)
        elif isinstance(value, ast.MatFunc):
            self.mat_operand(value.arg)
            result_rank = 2
        elif isinstance(value, ast.MatBin):
            left = self.mat_operand(value.left)
            right = self.mat_operand(value.right)
            if value.op != "*":
                result_rank = left
            elif left is not None and right is not None:
                # matrix * matrix is a matrix; a vector on either side gives a vector
                result_rank = 2 if left == right == 2 else 1
        elif isinstance(value, ast.MatRef):
            result_rank = self.mat_operand(value)
        # The target takes the shape of the result (Dartmouth MAT semantics).
        self.mat_array(stmt.target, stmt.coord, result_rank, resized=True)


def _constant(expr: ast.Expr) -> float | None:
    """The value of a DIM bound written as a number (or a negated one)."""
    if isinstance(expr, ast.Num):
        return expr.value
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-" and isinstance(expr.operand, ast.Num):
        return -expr.operand.value if expr.op == "-" else expr.operand.value
    return None


def bound_text(expr: ast.Expr) -> str:
    if isinstance(expr, ast.Num) and expr.text:
        return expr.text
    value = _constant(expr)
    return f"{value:g}" if value is not None else "?"


def _plain_statement(analysis: Analysis, stmt: ast.Stmt) -> bool:
    """Is `stmt` a statement of its own in its line (not in an IF branch)?"""
    return any(s is stmt for line in analysis.program.lines for s in line.statements)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    _SymbolPass(analysis, diags).run()
    # Arrays implicitly declared before an OPTION BASE got base 0; the OPTION BASE after
    # them is an error already, so only the valid program's base matters.
    for symbol in analysis.arrays.values():
        symbol.base = analysis.option_base
