"""The result of the semantic passes: what every consumer of a BASIC program reads.

`Analysis` is the contract between the front end (parser + `transpiler.passes`) and the
reference interpreter, the host-code structuring, the loop dependence analysis and the
kernel extraction.  Everything a consumer needs to know about control flow, symbols and
types is resolved here once, so that no consumer re-derives it (and so that they agree).

Conventions
- A *statement index* is a position in `Analysis.stmts`, the flat statement list in
  execution order.  Every structural link (FOR -> NEXT, jump -> target...) is one.
- AST nodes are compared by identity (`eq=False` dataclasses), so they key dicts directly:
  `analysis.expr_types[node]`, `analysis.jump_target[line_ref]`.
- Types of values: "num" (a floating-point number of `number_type`), "int" (a `%`
  variable, a 32-bit signed integer; 16-bit in Microsoft BASIC), "str", and in Microsoft
  BASIC "dbl" (a `#` variable or constant, double precision; "num" is then a single),
  in QuickBASIC "lng" (a `&` variable or constant: LONG, a 32-bit signed integer).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Literal

from ..errors import BasicNote, BasicWarning, Coord, SourceFile
from ..language.builtins import ValueType, effect_of
from ..options import Options
from ..runtime.limits import IMPLICIT_UPPER_BOUND as _IMPLICIT_UPPER_BOUND
from . import ast
from .procedure_records import CallRecord, ProcedureRecord
from .statement_facts import facts_of

Kind = Literal["legacy", "kernel"]
NumberType = Literal["f32", "f64"]

# The bounds of an array that is used without DIM (ECMA-55 8.4: 10 in each dimension).
IMPLICIT_UPPER_BOUND = _IMPLICIT_UPPER_BOUND

# How many FOR, WHILE and IF blocks may nest as Python blocks in generated code (the
# interpreter's and the Python backend's).  CPython allows 20 nested loops in a function
# and 100 levels of indentation; deeper BASIC nests keep their inner levels as Python
# blocks and run the outer ones as explicit jumps (any nesting works, only slower).
MAX_BLOCK_DEPTH = 16


def type_of_name(name: str) -> ValueType:
    """The type a variable, array or function name declares by its suffix."""
    if name.endswith("$"):
        return "str"
    if name.endswith("%"):
        return "int"
    if name.endswith("#"):
        return "dbl"
    if name.endswith("&"):
        return "lng"
    return "num"


@dataclass(eq=False, slots=True)
class VarSymbol:
    """A simple variable ("X", "X1", "A$", "COUNT%")."""

    name: str
    type: ValueType
    coord: Coord  # its first appearance in the text
    assigned: bool = False  # some statement assigns it (LET, READ, INPUT, FOR, MAT...)


@dataclass(eq=False, slots=True)
class ArraySymbol:
    """An array ("A", "B$", "C%").

    The valid subscripts of dimension d run from `base` to `upper[d]` inclusive (ECMA-55:
    a subscript is rounded to the nearest integer first).  `upper` is None when a DIM
    bound is not a constant (extended mode: the DIM statement evaluates `bound_exprs`
    when it runs, and the array does not exist before that).
    """

    name: str
    rank: int
    elem_type: ValueType
    base: int  # OPTION BASE (0 or 1), the same for every array of the program
    upper: tuple[int, ...] | None
    declared: bool  # True: by DIM; False: implicitly by use (bounds 10, ECMA-55 8.4)
    coord: Coord  # the DIM declaration (`A(10)` in the DIM statement), else the first use
    dim_stmt: ast.Dim | None = None
    bound_exprs: list[ast.Expr] | None = None  # the DIM bounds as written
    # A MAT statement may change its current dimensions (MAT READ A(2, 3), MAT A = B * C,
    # MAT A = ZER(N)): consumers must not assume `upper` stays the shape at run time.
    redimensioned: bool = False

    @property
    def extents(self) -> tuple[int, ...] | None:
        """Number of elements per dimension (None if the bounds are not constants)."""
        if self.upper is None:
            return None
        return tuple(u - self.base + 1 for u in self.upper)


@dataclass(eq=False, slots=True)
class FunctionSymbol:
    """A DEF FN function.  Parameters are local to the body and shadow variables of the
    same name; every other name in the body is the program's variable."""

    name: str  # "FNA", "FNSQUARE", "FNA$"
    params: list[str]
    param_types: list[ValueType]
    result_type: ValueType
    body: ast.Expr
    stmt: ast.DefFn
    index: int  # statement index of the DEF
    # Functions called in the body (for the recursion check and call graphs).
    calls: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class IfParts:
    """The parts of one block IF, as statement indices."""

    if_index: int  # the IfBlock
    elseifs: tuple[int, ...]  # each ElseIf, in order
    else_index: int | None  # the Else, if any
    endif_index: int  # the EndIf

    @property
    def branch_heads(self) -> tuple[int, ...]:
        """IfBlock, ElseIfs and Else in order: each one starts a branch that ends just
        before the next head (or the EndIf)."""
        heads = (self.if_index,) + self.elseifs
        return heads + ((self.else_index,) if self.else_index is not None else ())

    def later_elseif(self, head: int) -> int | None:
        """The first ELSEIF after statement `head`, if any (a binary search: a chain of
        ELSEIFs asks about each of its heads)."""
        at = bisect.bisect_right(self.elseifs, head)
        return self.elseifs[at] if at < len(self.elseifs) else None


@dataclass(eq=False)
class Analysis:
    """Everything the passes found out about one program.  Filled in pass by pass (see
    `transpiler.passes.analyze` for the order); a field is complete when analyze returns.
    """

    program: ast.Program
    source: SourceFile
    options: Options
    # "kernel": the program uses cuTile BASIC (TILE, OUTPUT, BID, MMA, SUM or
    # `INPUT A()` array parameters); only the generic passes ran (flattening, structure,
    # jumps, DATA) and `passes/kernel/kernel_dialect.py` did the rest.  "legacy": everything else.
    kind: Kind = "legacy"
    # Element type of numbers: options.precision, else f64 (legacy) or f32 (kernel).
    number_type: NumberType = "f64"

    # ---- flat statement list (passes/check/flatten.py)
    # Every statement in execution order.  One-line IFs are lowered to the block form:
    # `IF c THEN s1 : s2 ELSE s3` -> IfBlock(c), s1, s2, Else, s3, EndIf and
    # `IF c THEN 100` -> IfBlock(c), Goto(100), EndIf; the new nodes carry the IF's coord
    # and label, the Goto keeps the LineRef (and its coord) of the source.  `NEXT I, J`
    # becomes Next([I]), Next([J]).  Every statement's `label` is its line's number.
    stmts: list[ast.Stmt] = field(default_factory=list)
    # BASIC line number -> statement index of the first statement of that line.
    label_index: dict[int, int] = field(default_factory=dict)
    # QuickBASIC's labels (`Start:`): name -> statement index, like `label_index`.
    name_index: dict[str, int] = field(default_factory=dict)
    # IfBlock index -> the one-line If it was lowered from (absent for source block IFs).
    lowered_if: dict[int, ast.If] = field(default_factory=dict)
    # Flat index -> the QuickBASIC statement it was lowered from: a DO becomes a While
    # (`While(-1)` for a bare DO: an endless loop), a LOOP its Wend, after
    # `IfBlock(leave), Goto, EndIf` when it tests, an EXIT a Goto (passes/check/flatten.py).
    lowered_from: dict[int, ast.Stmt] = field(default_factory=dict)
    # ids of statements a pass made that stand for no source statement (the DIM of a
    # QuickBASIC program's procedure arrays): generated code quotes no BASIC text above them.
    unquoted: set[int] = field(default_factory=set)
    # QuickBASIC's SUBs and FUNCTIONs (by name) and their calls (by id of the call's
    # GOSUB), as passes/quickbasic/procedures.py lowered them: what makes them functions again.
    procedures: dict[str, ProcedureRecord] = field(default_factory=dict)
    procedure_calls: dict[int, CallRecord] = field(default_factory=dict)
    # The LineRef of each Goto lowered from EXIT DO / EXIT FOR (or from a LOOP's test):
    # passes/check/blocks.py puts its target in `jump_target`, past the LOOP / NEXT.
    loop_exits: dict[ast.LineRef, ast.Exit] = field(default_factory=dict)

    # ---- jumps (passes/check/jumps.py)
    # Every LineRef (GOTO, GOSUB, IF ... THEN n, ON ... GOTO) -> statement index of its
    # target.  Missing lines are errors, so after analyze every LineRef is here.
    jump_target: dict[ast.LineRef, int] = field(default_factory=dict)
    # Statement indices that some GOSUB / ON ... GOSUB enters.
    gosub_targets: set[int] = field(default_factory=set)
    # Microsoft's error trapping (passes/check/jumps.py): the statements ON ERROR GOTO names (a
    # program with one runs every statement as a block of its own: runtime/trap.py).
    error_handlers: set[int] = field(default_factory=set)

    # ---- block structure (passes/check/blocks.py); pairs are textual (ECMA-55 13: a FOR
    # block is the text from FOR to its NEXT) and properly nested with each other.
    for_next: dict[int, int] = field(default_factory=dict)  # FOR index -> its NEXT
    next_for: dict[int, int] = field(default_factory=dict)  # NEXT index -> its FOR
    while_wend: dict[int, int] = field(default_factory=dict)  # WHILE -> WEND
    wend_while: dict[int, int] = field(default_factory=dict)  # WEND -> WHILE
    if_parts: dict[int, IfParts] = field(default_factory=dict)  # IfBlock -> its parts
    # ElseIf / Else / EndIf index -> the index of its IfBlock.
    block_if_of: dict[int, int] = field(default_factory=dict)
    # For every statement, the index of the innermost FOR / WHILE / IfBlock whose block
    # contains it (the opener itself is not inside its own block; its closer is), or None.
    enclosing: list[int | None] = field(default_factory=list)

    # ---- FOR loops on the run-time FOR stack (passes/check/for_loops.py; never in strict
    # mode).  Microsoft BASIC pairs a FOR with the NEXT that closes it in the text and
    # keeps a stack of open loops at run time, so a program may jump into a loop's body
    # or put its NEXT in an IF branch.  A pair that is not a block by the rules above
    # runs on that stack: FOR index -> its NEXT, and back.  These are not in for_next /
    # next_for and open no block (`enclosing` ignores them).
    dynamic_for: dict[int, int] = field(default_factory=dict)
    dynamic_next: dict[int, int] = field(default_factory=dict)
    # FOR index -> why it is not a block ("a jump from line 120 enters its body").
    dynamic_reason: dict[int, str] = field(default_factory=dict)
    # FOR or NEXT index -> the fatal error it raises whenever it runs: "FOR without
    # NEXT" (no NEXT closes it), "NEXT without FOR" (a NEXT that closes no FOR, or the
    # FOR whose NEXT names another variable, as GW-BASIC finds when the FOR runs).
    loop_faults: dict[int, str] = field(default_factory=dict)
    # A FOR of `loop_faults` whose NEXT names another variable -> that NEXT's line number:
    # GW-BASIC names it (ERL, "NEXT without FOR in 30"), not the FOR's.
    loop_fault_line: dict[int, int] = field(default_factory=dict)

    # ---- symbols (passes/check/symbols.py, passes/check/functions.py; legacy programs)
    variables: dict[str, VarSymbol] = field(default_factory=dict)
    arrays: dict[str, ArraySymbol] = field(default_factory=dict)
    functions: dict[str, FunctionSymbol] = field(default_factory=dict)
    option_base: int = 0
    option_base_stmt: ast.OptionBase | None = None

    # ---- types (passes/check/typecheck.py; legacy programs)
    # The type of every expression node of the program (DEF FN bodies included).
    expr_types: dict[ast.Expr, ValueType] = field(default_factory=dict)
    # The `+` and `-` nodes that cannot overflow (passes/exprutil.sum_may_overflow): plain
    # operators in generated code; every other sum is checked (ECMA-55 7.5).
    plain_sums: set[ast.Expr] = field(default_factory=set)

    # ---- DATA (passes/check/data.py)
    data: list[ast.Datum] = field(default_factory=list)  # every datum in program order
    # Line number of each line holding DATA -> position of its first datum in `data`.
    data_line_start: dict[int, int] = field(default_factory=dict)
    # Statement index of each `RESTORE n` -> the position it resets the data pointer to:
    # the first datum of the first DATA line numbered n or more (len(data) if none).
    restore_position: dict[int, int] = field(default_factory=dict)

    # Non-fatal diagnostics found while analysing (e.g. a numeric constant that
    # overflows); the interpreter prints them before running.
    warnings: list[BasicWarning] = field(default_factory=list)
    # --dialect ms: the numeric constants beyond GW-BASIC's range (passes/check/typecheck.py),
    # each an "Overflow" GW-BASIC shows on the screen as it loads the program.
    load_overflows: list[Coord] = field(default_factory=list)
    # How the program was read (the construct that pinned its dialect); the command
    # line prints them once, whatever it does with the program.
    notes: list[BasicNote] = field(default_factory=list)

    _labels_by_source_line: dict[int, int] | None = field(default=None, repr=False)
    _index_by_id: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def traps_errors(self) -> bool:
        """Whether the program has an ON ERROR GOTO n: then every statement is a block of
        its own, which an error may leave for the handler, and a RESUME enter."""
        return bool(self.error_handlers)

    @property
    def uses_files(self) -> bool:
        """Does the program use Microsoft BASIC's files (the host opens and closes the
        table of files around the run)?"""
        for stmt in self.stmts:
            if facts_of(stmt).files:
                return True
            if getattr(stmt, "channel", None) is not None:
                return True
            for node in stmt.walk():
                if isinstance(node, ast.Call) and effect_of(node.name) == "io":
                    return True
        return False

    @property
    def uses_print_using(self) -> bool:
        return any(isinstance(s, ast.Print) and s.using is not None for s in self.stmts)

    @property
    def using_precision(self) -> str:
        """How PRINT USING writes numbers: the name of a `runtime.using` precision
        (SINGLE: 7 digits for --precision f32 and Microsoft BASIC's singles, whatever
        they are computed in; REAL: 15 for IEEE doubles).  A double of Microsoft BASIC
        is marked as one and has 16 digits (DOUBLE)."""
        return "SINGLE" if self.number_type == "f32" or self.options.microsoft else "REAL"

    def line_number(self, coord: Coord) -> int | None:
        """The BASIC line number of the source line of `coord` (None: unnumbered)."""
        if self._labels_by_source_line is None:
            self._labels_by_source_line = {
                line.coord.line: line.number for line in self.program.lines if line.number
            }
        return self._labels_by_source_line.get(coord.line)

    def line_name(self, coord: Coord) -> str:
        """How a message names the line of `coord`: "line 250" (its BASIC line number),
        or "source line 7" for an unnumbered line."""
        if self._labels_by_source_line is None:
            self._labels_by_source_line = {
                line.coord.line: line.number for line in self.program.lines if line.number
            }
        number = self._labels_by_source_line.get(coord.line)
        return f"line {number}" if number is not None else f"source line {coord.line}"

    def runtime_dialect(self) -> str | None:
        """The dialect a generated program must tell the runtime (runtime/dialect.py), or
        None where the runtime's default behaves the same: Microsoft BASIC always (its
        numbers, PRINT layout and RND), Dartmouth BASIC when it draws random numbers or
        has MAT statements (they leave row and column 0 alone there)."""
        dialect = self.options.dialect
        if self.options.machine is not None:
            return self.options.machine  # an 8-bit machine's numbers (runtime machines.py)
        if self.options.qbasic:
            return "qbasic"  # GW-BASIC's PRINT layout with QuickBASIC's numbers
        if self.options.microsoft:
            return "ms"
        if dialect == "dartmouth":
            for stmt in self.stmts:
                for node in stmt.walk():
                    if isinstance(node, (ast.MatRead, ast.MatInput, ast.MatPrint, ast.MatAssign)):
                        return dialect
                    if (
                        isinstance(node, (ast.Call, ast.Randomize))
                        and getattr(node, "name", "RND") == "RND"
                    ):
                        return dialect
        return None

    def next_of(self, for_index: int) -> int | None:
        """The NEXT that closes a FOR (a block or a run-time loop), None if none does."""
        found = self.for_next.get(for_index)
        return found if found is not None else self.dynamic_for.get(for_index)

    def for_of(self, next_index: int) -> int | None:
        """The FOR that a NEXT closes (a block or a run-time loop), None if none."""
        found = self.next_for.get(next_index)
        return found if found is not None else self.dynamic_next.get(next_index)

    def statement_after(self, index: int) -> int:
        """Where RESUME NEXT goes on after an error in statement `index` (GW-BASIC, as
        PC-BASIC runs it): the next statement, past the other branches at the end of an
        IF branch, and past the whole IF after an error in its condition."""
        stmt = self.stmts[index]
        if isinstance(stmt, (ast.IfBlock, ast.ElseIf)):
            return self.if_parts[self.block_if_of.get(index, index)].endif_index + 1
        following = index + 1
        if following < len(self.stmts) and isinstance(
            self.stmts[following], (ast.ElseIf, ast.Else)
        ):
            return self.if_parts[self.block_if_of[following]].endif_index + 1
        return following

    def index_of(self, stmt: ast.Stmt) -> int:
        """The statement index of a statement of `stmts`.  The map by identity is built
        again when a pass has changed the list since (a found index is checked)."""
        index = self._index_by_id.get(id(stmt))
        if index is None or index >= len(self.stmts) or self.stmts[index] is not stmt:
            self._index_by_id = {id(s): i for i, s in enumerate(self.stmts)}
            index = self._index_by_id.get(id(stmt))
            if index is None:
                raise ValueError("statement not in the flat list")
        return index


def variable_type(a: Analysis, target: ast.LValue | str) -> str:
    """The type of a variable (by name), or of an array element."""
    if isinstance(target, ast.Index):
        return a.arrays[target.name].elem_type
    name = target if isinstance(target, str) else target.name
    symbol = a.variables.get(name)
    return symbol.type if symbol is not None else type_of_name(name)
