"""The BASIC abstract syntax tree.

One dataclass per construct, every node with a `coord` (file, line, column of its
first token).  BASIC line numbers are labels (`Line.number`, `Stmt.label`), never
locations.  The parser builds the tree flat, line by line, as the source is written:
FOR/NEXT, WHILE/WEND and block IF/ELSE/ENDIF stay separate statements, and a
semantic pass pairs them (a GOTO may jump anywhere, so nesting is a property of the
control flow, not of the text).

Names are stored upper-cased with their suffix: "A", "A1", "A$", "COUNT%", "FNA".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Iterator, Union

from ..errors import UNKNOWN, Coord


@dataclass(slots=True, eq=False)
class Node:
    coord: Coord = field(default=UNKNOWN, kw_only=True, repr=False)

    def children(self) -> Iterator["Node"]:
        """Direct child nodes, in source order."""
        for name in _child_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, (list, tuple)):
                for item in value:
                    if isinstance(item, Node):
                        yield item

    def walk(self) -> Iterator["Node"]:
        """This node and all its descendants, pre-order."""
        # An explicit stack, not recursive generators: a deep expression costs one
        # frame, and every node is yielded once instead of once per ancestor.
        stack = [self]
        pop, extend = stack.pop, stack.extend
        while stack:
            node = pop()
            yield node
            kids = list(node.children())
            if kids:
                kids.reverse()
                extend(kids)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
# Field types that never hold a node: names, operators, numbers, flags, lists of names.
_LEAF_TYPE = re.compile(r"(list\[)?(str|int|float|bool)( \| None)?\]?( \| None)?")


def _child_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields of a node class that may hold nodes: all but coord and
    those declared as strings, numbers or flags (tests/test_ast_walk.py checks that no
    node hides in one)."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(
            f.name
            for f in fields(cls)
            if f.name != "coord" and not _LEAF_TYPE.fullmatch(str(f.type).split("#")[0].strip())
        )
    return names


# --------------------------------------------------------------------------- expressions


@dataclass(slots=True, eq=False)
class Expr(Node):
    pass


@dataclass(slots=True, eq=False)
class Num(Expr):
    """A numeric constant; `text` is the spelling in the source (for messages)."""

    value: float
    text: str = ""


@dataclass(slots=True, eq=False)
class Str(Expr):
    value: str


@dataclass(slots=True, eq=False)
class Var(Expr):
    """A simple variable: numeric ("X", "X1", "COUNT%") or string ("A$")."""

    name: str


@dataclass(slots=True, eq=False)
class Index(Expr):
    """`A(I)`, `A(I, J)`: an array element, or in a kernel program a tile of `A`."""

    name: str
    indices: list[Expr]


@dataclass(slots=True, eq=False)
class Bound(Expr):
    """QuickBASIC's `UBOUND(A, dim)`: the upper bound of dimension `dim` (1-based) of
    array A as it is now (REDIM changes it); `LBOUND(A, dim)` (`lower`) the lower bound,
    a constant here (passes/quickbasic/records.py replaces it by its value)."""

    name: str
    dim: int = 1
    lower: bool = False


@dataclass(slots=True, eq=False)
class Call(Expr):
    """A call of a built-in function (SIN, RND, MMA, SUM...) or a DEF FN function.

    `RND` without parentheses is `Call("RND", [])`.  `name` is upper-case; user
    functions keep their FN prefix ("FNA", "FNSQUARE").
    """

    name: str
    args: list[Expr]


def is_user_function(name: str) -> bool:
    """Whether a call's name is a DEF FN function's (the FN prefix), not a built-in's."""
    return name.startswith("FN")


@dataclass(slots=True, eq=False)
class Bid(Expr):
    """The block index of a cuTile BASIC kernel: `BID` (axis 0) or `BID(1)`, `BID(2)`."""

    axis: int = 0


@dataclass(slots=True, eq=False)
class UnaryOp(Expr):
    op: str  # "-", "+", "NOT"
    operand: Expr


@dataclass(slots=True, eq=False)
class BinOp(Expr):
    """Arithmetic "+ - * / ^ MOD", comparison "= <> < > <= >=", logic "AND OR"."""

    op: str
    left: Expr
    right: Expr


LValue = Union[Var, Index]


# --------------------------------------------------------------------------- statements


@dataclass(slots=True, eq=False)
class Stmt(Node):
    # The BASIC line number of the line holding this statement (None if unnumbered).
    label: int | None = field(default=None, kw_only=True)


@dataclass(slots=True, eq=False)
class Let(Stmt):
    """`LET X = e` or `X = e` (the keyword is optional outside strict ECMA-55)."""

    target: LValue
    value: Expr


@dataclass(slots=True, eq=False)
class MidAssign(Stmt):
    """`MID$(T$, start[, count]) = V$` (Microsoft BASIC): overwrite characters of T$."""

    target: LValue
    start: Expr
    count: Expr | None
    value: Expr


@dataclass(slots=True, eq=False)
class Swap(Stmt):
    """`SWAP A, B` (Microsoft BASIC): exchange the values of two variables or elements."""

    first: LValue
    second: LValue


@dataclass(slots=True, eq=False)
class PrintSep(Node):
    """A separator in a PRINT list: "," (next zone) or ";" (no space)."""

    sep: str


@dataclass(slots=True, eq=False)
class Tab(Node):
    """`TAB(e)` inside a PRINT list."""

    column: Expr


@dataclass(slots=True, eq=False)
class Spc(Node):
    """`SPC(e)` inside a PRINT list (Microsoft BASIC): e spaces."""

    count: Expr


PrintItem = Union[Expr, Tab, Spc, PrintSep]


@dataclass(slots=True, eq=False)
class Print(Stmt):
    """PRINT (and LPRINT, which prints to standard output too).  `channel`: the file
    number of `PRINT #n,`; `using`: the format of `PRINT USING f$;`, whose items are
    expressions separated by PrintSeps (a final one keeps the line open)."""

    items: list[PrintItem]
    channel: Expr | None = None
    using: Expr | None = None


@dataclass(slots=True, eq=False)
class Input(Stmt):
    """INPUT.  In a legacy program it reads from stdin; in a cuTile BASIC program
    `INPUT N, A(), B()` declares kernel parameters (`array_params` names the ones
    written with empty parentheses).  Which one it is is decided by a pass.
    `channel`: the file number of `INPUT #n,`; `line`: LINE INPUT (the whole line into
    the one string target)."""

    targets: list[LValue]
    prompt: str | None = None
    array_params: list[str] = field(default_factory=list)
    channel: Expr | None = None
    line: bool = False
    # Microsoft BASIC: `INPUT "prompt", A` prints no "? " after its prompt (question
    # False); `INPUT; A` leaves the cursor on the line after the reply (stay True).
    question: bool = True
    stay: bool = False


@dataclass(slots=True, eq=False)
class Write(Stmt):
    """`WRITE [#n,] e, ...`: the values separated by commas, strings in quotes."""

    items: list[Expr]
    channel: Expr | None = None


@dataclass(slots=True, eq=False)
class Open(Stmt):
    """`OPEN name FOR INPUT AS #n` (mode the constant "I", "O", "A" or "R"), or the older
    `OPEN mode, #n, name` (mode a string expression); `length`: the record length of a
    random-access file (`LEN =`, the old form's fourth operand), None: 128."""

    name: Expr
    mode: Expr
    number: Expr
    length: Expr | None = None


@dataclass(slots=True, eq=False)
class Close(Stmt):
    """`CLOSE #1, #2`; no numbers: every open file."""

    numbers: list[Expr]


@dataclass(slots=True, eq=False)
class FileWidth(Stmt):
    """`WIDTH #n, width`: the line width of an open file (Microsoft BASIC)."""

    channel: Expr
    width: Expr


@dataclass(slots=True, eq=False)
class Field(Stmt):
    """`FIELD #n, w AS V$, ...` (Microsoft BASIC): the string variables `names` become
    the consecutive pieces of `widths` bytes of file n's record buffer.  The variables'
    new values are assignments after it (passes/check/flatten.py: `field_variables`)."""

    channel: Expr
    widths: list[Expr]
    names: list[str]


@dataclass(slots=True, eq=False)
class RecordIO(Stmt):
    """`GET #n[, record]` (put False) or `PUT #n[, record]`: a record of a random-access
    file into its buffer or out of it; no record: the one after the last."""

    channel: Expr
    record: Expr | None
    put: bool


@dataclass(slots=True, eq=False)
class FieldRelease(Stmt):
    """The string variables `names` were assigned (LET, INPUT, READ...): they are field
    variables no more (written by passes/check/flatten.py after such a statement)."""

    names: list[str]


@dataclass(slots=True, eq=False)
class FieldSwap(Stmt):
    """After `SWAP A$, B$`: each holds the other's place in a record buffer, if it had one
    (written by passes/check/flatten.py)."""

    first: str
    second: str


@dataclass(slots=True, eq=False)
class Kill(Stmt):
    """`KILL name`: delete a file."""

    name: Expr


@dataclass(slots=True, eq=False)
class Erase(Stmt):
    """`ERASE A, B$` (Microsoft BASIC): the arrays cease to exist; a DIM may give them new
    bounds, and a use before it makes them again with the implicit bounds (10)."""

    names: list[str]
    # QuickBASIC's REDIM (its first half): an array that does not exist yet is no error.
    redim: bool = False


@dataclass(slots=True, eq=False)
class Redim(Stmt):
    """QuickBASIC's `REDIM A(n)`: the array made again with new bounds and cleared
    (passes/quickbasic/records.py lowers it to an ERASE that tolerates no array, and a DIM)."""

    dim: Dim


@dataclass(slots=True, eq=False)
class Trace(Stmt):
    """`TRON` (on) and `TROFF` (Microsoft BASIC): while tracing is on, every line that
    starts running prints its number in brackets (`TraceLine`)."""

    on: bool


@dataclass(slots=True, eq=False)
class TraceLine(Stmt):
    """`[number]` printed when tracing is on: `passes/check/flatten.py` puts one before the
    first statement of every numbered line of a program that has TRON, so it runs where
    GW-BASIC starts a line (from the line before, or by a jump to its number) and not
    where a NEXT, WEND or RETURN goes back into it."""

    number: int


@dataclass(slots=True, eq=False)
class Rename(Stmt):
    """`NAME old AS new`: rename a file."""

    old: Expr
    new: Expr


@dataclass(slots=True, eq=False)
class MakeDirectory(Stmt):
    """`MKDIR path` (GW-BASIC 3): make a folder."""

    path: Expr


@dataclass(slots=True, eq=False)
class RemoveDirectory(Stmt):
    """`RMDIR path` (GW-BASIC 3): remove an empty folder."""

    path: Expr


@dataclass(slots=True, eq=False)
class ChangeDirectory(Stmt):
    """`CHDIR path` (GW-BASIC 3): the folder file names are found from."""

    path: Expr


@dataclass(slots=True, eq=False)
class LineInput(Stmt):
    """`LINE INPUT [;] ["prompt";] A$` (Microsoft BASIC): a whole line into A$."""

    target: LValue
    prompt: str | None = None
    stay: bool = False


@dataclass(slots=True, eq=False)
class Read(Stmt):
    targets: list[LValue]


@dataclass(slots=True, eq=False)
class Datum(Node):
    """One DATA item.  `quoted` strings keep their spaces; unquoted ones are trimmed.
    `number` is set when the item is a valid numeric constant."""

    text: str
    quoted: bool = False
    number: float | None = None


@dataclass(slots=True, eq=False)
class Data(Stmt):
    """`DATA items`.  `read`: READ finds the statement; as in GW-BASIC (PC-BASIC) it finds
    only a DATA that starts a statement after the line number or a `:`, so one right
    after THEN or ELSE (`IF 0 THEN DATA 1 ELSE DATA 2`) is never read."""

    items: list[Datum]
    read: bool = True


@dataclass(slots=True, eq=False)
class Restore(Stmt):
    target: int | None = None  # extension: RESTORE 100
    to_label: str | None = None  # QuickBASIC's RESTORE Label (`label` is the line number)


@dataclass(slots=True, eq=False)
class LineRef(Node):
    """A line number used as a jump target, with its own location for errors."""

    number: int
    # QuickBASIC's `GOTO Label` (upper-cased; `number` is then 0).
    name: str | None = None


@dataclass(slots=True, eq=False)
class Goto(Stmt):
    target: LineRef


@dataclass(slots=True, eq=False)
class Gosub(Stmt):
    target: LineRef


@dataclass(slots=True, eq=False)
class Return(Stmt):
    pass


@dataclass(slots=True, eq=False)
class OnGoto(Stmt):
    """`ON e GOTO l1, l2, ...` (or GOSUB)."""

    selector: Expr
    targets: list[LineRef]
    gosub: bool = False


@dataclass(slots=True, eq=False)
class If(Stmt):
    """One-line IF.

    `IF c THEN 100` has `then_line`; `IF c THEN PRINT X : Y = 1 ELSE 200` has a
    statement list and/or a line for each branch.  With both (`IF c THEN 100 : PRINT`,
    as GW-BASIC takes it) the jump comes first: the statements never run.  A block IF
    (`IF c THEN` ending the line) is `IfBlock` instead.
    """

    condition: Expr
    then_body: list[Stmt] = field(default_factory=list)
    then_line: LineRef | None = None
    else_body: list[Stmt] = field(default_factory=list)
    else_line: LineRef | None = None


@dataclass(slots=True, eq=False)
class IfBlock(Stmt):
    """`IF c THEN` at the end of a line: opens a block closed by ENDIF / END IF."""

    condition: Expr


@dataclass(slots=True, eq=False)
class ElseIf(Stmt):
    condition: Expr


@dataclass(slots=True, eq=False)
class Else(Stmt):
    pass


@dataclass(slots=True, eq=False)
class EndIf(Stmt):
    pass


@dataclass(slots=True, eq=False)
class For(Stmt):
    var: Var
    start: Expr
    limit: Expr
    step: Expr | None = None


@dataclass(slots=True, eq=False)
class Next(Stmt):
    """`NEXT I`, `NEXT I, J` (closes two loops), or bare `NEXT`."""

    vars: list[Var]


@dataclass(slots=True, eq=False)
class While(Stmt):
    condition: Expr


@dataclass(slots=True, eq=False)
class Wend(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Do(Stmt):
    """QuickBASIC's `DO`, `DO WHILE c`, `DO UNTIL c` (condition None: no test at the top).
    passes/check/flatten.py lowers it to a While (see `Loop`)."""

    condition: Expr | None = None
    until: bool = False


@dataclass(slots=True, eq=False)
class Loop(Stmt):
    """QuickBASIC's `LOOP`, `LOOP WHILE c`, `LOOP UNTIL c`: closes a DO.  Lowered to
    `IF <leave> THEN EXIT DO` (when it tests) and the While's Wend."""

    condition: Expr | None = None
    until: bool = False


@dataclass(slots=True, eq=False)
class Exit(Stmt):
    """QuickBASIC's `EXIT DO` / `EXIT FOR`: lowered to a Goto past the LOOP / NEXT of the
    innermost DO / FOR around it (passes/check/blocks.py resolves it)."""

    block: str  # "DO" or "FOR"


@dataclass(slots=True, eq=False)
class SelectCase(Stmt):
    """QuickBASIC's `SELECT CASE e`: passes/check/flatten.py lowers the block to an IF ... ELSEIF
    chain on `e` (evaluated once, into a temporary unless it is a variable)."""

    selector: Expr


@dataclass(slots=True, eq=False)
class CaseItem(Node):
    """One test of a CASE: `v` (op "="), `IS < v` (op "<"...), `a TO b` (op "TO")."""

    op: str
    value: Expr
    high: Expr | None = None


@dataclass(slots=True, eq=False)
class Case(Stmt):
    """`CASE item, item...`; `CASE ELSE` has no items."""

    items: list[CaseItem]


@dataclass(slots=True, eq=False)
class EndSelect(Stmt):
    pass


@dataclass(slots=True, eq=False)
class SubDef(Stmt):
    """QuickBASIC's `SUB name (p1, p2)` or `FUNCTION name (p1, p2)`; the body runs to `END
    SUB` / `END FUNCTION` (passes/quickbasic/procedures.py lowers it to a GOSUB subroutine).  A
    parameter's `dtype` is its `AS` type ("" if none); an array parameter (`A()`) is an
    `ArrayDecl` without bounds."""

    name: str
    params: list[ScalarDecl | ArrayDecl]
    static: bool = False  # `SUB S (x) STATIC`: its locals keep their values between calls
    function: bool = False  # FUNCTION: `name` (with its type's suffix) returns a value

    @property
    def word(self) -> str:
        return "FUNCTION" if self.function else "SUB"


@dataclass(slots=True, eq=False)
class EndSub(Stmt):
    function: bool = False  # END FUNCTION

    @property
    def word(self) -> str:
        return "FUNCTION" if self.function else "SUB"


@dataclass(slots=True, eq=False)
class ExitSub(Stmt):
    function: bool = False  # EXIT FUNCTION

    @property
    def word(self) -> str:
        return "FUNCTION" if self.function else "SUB"


@dataclass(slots=True, eq=False)
class CallSub(Stmt):
    """`CALL name(args)`; `by_value[i]`: argument i is written in its own parentheses
    (`CALL S((X))`), so X is passed by value."""

    name: str
    args: list[Expr]
    by_value: list[bool] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class DeclareSub(Stmt):
    name: str
    params: list[ScalarDecl | ArrayDecl]
    function: bool = False  # DECLARE FUNCTION

    @property
    def word(self) -> str:
        return "FUNCTION" if self.function else "SUB"


@dataclass(slots=True, eq=False)
class Shared(Stmt):
    """`SHARED X, Y` in a SUB: those names are the main program's variables."""

    names: list[Var]


@dataclass(slots=True, eq=False)
class Static(Stmt):
    """`STATIC X, Y` in a SUB or FUNCTION: those locals keep their values between calls."""

    names: list[Var]


@dataclass(slots=True, eq=False)
class ArrayDecl(Node):
    """One array in DIM: `A(10)`, `B(3, 4)`; in a kernel program bounds may be INPUT names."""

    name: str
    bounds: list[Expr]
    # Element type written as `DIM A(N) AS F16` (extension; None: the default type).
    dtype: str | None = None
    # QuickBASIC's `DIM A(1 TO N)`: the lower bound written for each dimension (0 or
    # 1, checked by the grammar; -1 where none is written), empty when none is.
    lows: list[int] = field(default_factory=list)
    length: int = 0  # QuickBASIC's `AS STRING * length` (passes/quickbasic/records.py)


@dataclass(slots=True, eq=False)
class ScalarDecl(Node):
    """QuickBASIC's `DIM X AS INTEGER`: the type of a variable (passes/check/default_types.py
    gives its name the suffix)."""

    name: str
    dtype: str
    length: int = 0  # QuickBASIC's `AS STRING * length` (passes/quickbasic/records.py)


@dataclass(slots=True, eq=False)
class Dim(Stmt):
    arrays: list[ArrayDecl]
    # QuickBASIC's typed scalars (`DIM X AS DOUBLE, A(9)`): declarations, no code.
    scalars: list[ScalarDecl] = field(default_factory=list)
    # QuickBASIC's `DIM SHARED`: every SUB sees these names (passes/quickbasic/procedures.py).
    shared: bool = False


@dataclass(slots=True, eq=False)
class Const(Stmt):
    """QuickBASIC's `CONST N = 10, PI# = 3.14159265#`: each is assigned once, here, and
    never again (passes/check/flatten.py)."""

    names: list[Var]
    values: list[Expr]


@dataclass(slots=True, eq=False)
class OptionBase(Stmt):
    base: int


@dataclass(slots=True, eq=False)
class DefFn(Stmt):
    """`DEF FNA(X) = e` (ECMA-55 allows zero or one parameter; we allow more outside
    strict mode)."""

    name: str
    params: list[str]
    body: Expr


@dataclass(slots=True, eq=False)
class Randomize(Stmt):
    """RANDOMIZE, or `RANDOMIZE seed` (extended and Microsoft BASIC)."""

    seed: Expr | None = None


@dataclass(slots=True, eq=False)
class DefType(Stmt):
    """Microsoft's `DEFINT I-N, X` (DEFSNG, DEFDBL, DEFSTR): variables and arrays named
    without a suffix that start with one of `letters` have type `type` ("int", "num",
    "dbl" or "str").  `passes/check/default_types.py` gives them their suffix."""

    type: str
    letters: list[str]


@dataclass(slots=True, eq=False)
class TypeBegin(Stmt):
    """QuickBASIC's `TYPE name`: a record type's fields follow, up to END TYPE
    (passes/quickbasic/records.py lowers records to a variable or array per field)."""

    name: str


@dataclass(slots=True, eq=False)
class TypeField(Stmt):
    """`x AS INTEGER` (or `AS STRING * n`, `AS another record type`) inside TYPE."""

    name: str
    dtype: str
    length: int = 0  # STRING * length


@dataclass(slots=True, eq=False)
class TypeEnd(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Rem(Stmt):
    """REM or an apostrophe comment; kept so generated code can carry it along."""

    text: str


@dataclass(slots=True, eq=False)
class NoEffect(Rem):
    """A statement that cannot change what a program writes to a text stream (CLS,
    COLOR, BEEP, KEY OFF, SCREEN 0, WIDTH 80, SOUND, PLAY; CLEAR before anything is
    assigned): no code, and a compile-time warning.  `text` is its keyword; its
    arguments are not evaluated."""


@dataclass(slots=True, eq=False)
class Clear(NoEffect):
    """Microsoft BASIC's `CLEAR [n] [, m]`: at the start of the program a no-op;
    anywhere else `passes/check/clear.py` lowers it to the statements that reset what GW-BASIC's
    CLEAR resets.  `sized`: it has arguments (they size GW-BASIC's memory: ignored)."""

    sized: bool = False


@dataclass(slots=True, eq=False)
class Stop(Stmt):
    pass


@dataclass(slots=True, eq=False)
class Fault(Stmt):
    """A statement that stops the program with `message` when it runs.  Microsoft BASIC
    finds a type mismatch only then; `passes/check/typecheck.py` puts a Fault in place of such
    a statement under --dialect ms."""

    message: str


@dataclass(slots=True, eq=False)
class End(Stmt):
    pass


# --------------------------------------------------------------------------- error trapping


@dataclass(slots=True, eq=False)
class OnError(Stmt):
    """Microsoft's `ON ERROR GOTO n`: from now on an error jumps to line n (`target`);
    `ON ERROR GOTO 0` (`target` None) turns trapping off, and inside a handler makes the
    error being handled fatal."""

    target: LineRef | None


@dataclass(slots=True, eq=False)
class Resume(Stmt):
    """`RESUME` (`mode` "retry": the statement that failed again), `RESUME NEXT` ("next":
    the statement after it) or `RESUME n` ("line", `target`): leaves an error handler.
    ("undefined": RESUME to a line the program does not have, --dialect ms.)"""

    mode: str
    target: LineRef | None = None


@dataclass(slots=True, eq=False)
class RaiseError(Stmt):
    """`ERROR n`: raises GW-BASIC's error number n as if it had happened here."""

    code: Expr


# --------------------------------------------------------------------------- MAT statements


@dataclass(slots=True, eq=False)
class MatRead(Stmt):
    """`MAT READ A, B(2, 3)`: fill arrays from DATA, optionally redimensioning."""

    arrays: list[ArrayDecl]


@dataclass(slots=True, eq=False)
class MatPrint(Stmt):
    """`MAT PRINT A; B,` the separator after each name chooses packed or zoned rows."""

    names: list[str]
    seps: list[str | None]


@dataclass(slots=True, eq=False)
class MatInput(Stmt):
    arrays: list[ArrayDecl]


@dataclass(slots=True, eq=False)
class ChangeToCodes(Stmt):
    """`CHANGE A$ TO A` (Dartmouth BASIC): A(0) = the length of the string, A(1), A(2)...
    the codes of its characters."""

    text: Expr
    array: MatRef


@dataclass(slots=True, eq=False)
class ChangeToString(Stmt):
    """`CHANGE A TO A$` (Dartmouth BASIC): the string of A(0) characters whose codes are
    A(1), A(2)..."""

    array: MatRef
    target: LValue


@dataclass(slots=True, eq=False)
class MatExpr(Node):
    pass


@dataclass(slots=True, eq=False)
class MatRef(MatExpr):
    name: str


@dataclass(slots=True, eq=False)
class MatBin(MatExpr):
    """`A + B`, `A - B`, `A * B` (matrix product)."""

    op: str
    left: MatRef
    right: MatRef


@dataclass(slots=True, eq=False)
class MatScale(MatExpr):
    """`(k) * A`."""

    factor: Expr
    matrix: MatRef


@dataclass(slots=True, eq=False)
class MatFunc(MatExpr):
    """`TRN(A)`, `INV(A)`."""

    name: str
    arg: MatRef


@dataclass(slots=True, eq=False)
class MatFill(MatExpr):
    """`ZER`, `CON`, `IDN`, optionally with new dimensions: `ZER(3, 4)`."""

    name: str
    dims: list[Expr] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class MatAssign(Stmt):
    target: str
    value: MatExpr


# --------------------------------------------------------------------------- cuTile BASIC


@dataclass(slots=True, eq=False)
class TileDecl(Node):
    """`A(128, 32)` in a TILE statement: the tile shape of A (constants)."""

    name: str
    shape: list[Expr]


@dataclass(slots=True, eq=False)
class TileStmt(Stmt):
    tiles: list[TileDecl]


@dataclass(slots=True, eq=False)
class Output(Stmt):
    """`OUTPUT C, D`: arrays the kernel returns to the host."""

    names: list[str]


# --------------------------------------------------------------------------- program


@dataclass(slots=True, eq=False)
class Line(Node):
    """One source line: an optional BASIC line number and its statements."""

    number: int | None
    statements: list[Stmt]
    # QuickBASIC's label (`Start:` at the start of the line), upper-cased.
    name: str | None = None


@dataclass(slots=True, eq=False)
class Program(Node):
    lines: list[Line]
    source_name: str = "<input>"
    # Constructs only Microsoft BASIC has, in text order, found while no dialect was
    # chosen: (what, where).  The first pins the program to --dialect ms (driver.py).
    microsoft_pins: list[tuple[str, Coord]] = field(default_factory=list)
    # Constructs only QuickBASIC / QBasic has (DO, SELECT CASE...): the first pins the
    # program to --dialect qbasic, which has Microsoft BASIC's numbers too.
    qbasic_pins: list[tuple[str, Coord]] = field(default_factory=list)
    # What the parser accepted only because GW-BASIC does (--dialect ms): lines out of
    # order or repeated, lines that stop with a Syntax error when they run.
    warnings: list = field(default_factory=list)

    def statements(self) -> Iterator[Stmt]:
        """Every top-level statement in source order (bodies of one-line IFs excluded)."""
        for line in self.lines:
            yield from line.statements
