"""The host program IR: a legacy BASIC program as structured control flow plus kernels.

Built from `model.Analysis` by `passes/host/structure.py` (structured where the GOTOs allow,
a dispatch loop where they do not), then rewritten by the offload pass, which replaces
parallel FOR loops by kernel launches (`Launch`) and inserts the copies back to the
host (`ToHost`).  Both backends print this same tree: the cuTile backend as Python,
the CUDA backend as C++.  Expressions are the AST's own (`ast.Expr`, typed by
`Analysis.expr_types`); printers translate them.

Every node keeps the BASIC statement it came from (`origin`), so generated code can
carry a `# 40 FOR I = 1 TO N` comment above each translated statement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from . import kernel as ir
from .model import Analysis
from .procedure_records import ProcedureRecord


@dataclass(eq=False)
class HNode:
    # The BASIC statement this node translates (None for synthesized nodes).
    origin: ast.Stmt | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class Simple(HNode):
    """A statement translated one to one: LET, PRINT, INPUT, READ, RESTORE, DIM (with
    non-constant bounds), RANDOMIZE, DEF (no code), REM (comment), and MAT statements."""

    stmt: ast.Stmt


@dataclass(frozen=True)
class ForPlan:
    """How a FOR evaluates and tests its parts: decided once (passes/host/host_facts.py) for
    both printers, which only write it in their syntax.

    ECMA-55 11.4: START, LIMIT and STEP are evaluated once, in that order; the loop ends
    when (var - limit) * SGN(step) > 0.
    """

    # START goes into a temporary before LIMIT and STEP are evaluated: all three can be
    # seen to run (warn, fail, draw a random number), so their order must be kept.
    start_first: bool
    limit: float | None  # a LIMIT written as a number, else evaluated into a variable
    step: float | None  # a STEP written as a number (1 without STEP), else a variable + sign
    # The variable and the limit cannot be NaN (a steady loop with numbers for bounds):
    # `var <= limit` says the same as `not var > limit`.
    exact: bool
    # Microsoft BASIC: a loop that runs zero times leaves START + STEP in the variable.
    zero_trip_step: bool


@dataclass(eq=False)
class ForLoop(HNode):
    """A FOR...NEXT block with no jump across its boundary.

    ECMA-55 semantics: start, limit and step are evaluated once, before the first
    iteration; the loop runs zero times if start is already past the limit; after the
    loop the control variable holds the first value past the limit.  `for_index` and
    `next_index` are statement indices in `Analysis.stmts`.

    `counted`: start, limit and step are integer constants, the body (and the
    subroutines it calls) never assigns the variable, and nothing reads it after the
    loop before assigning it, so a counting loop over precomputed values (Python's
    `for i in range(...)`) is equivalent.
    """

    stmt: ast.For
    body: list["HNode"]
    for_index: int
    next_index: int
    counted: bool = False
    plan: ForPlan | None = None  # set by passes/host/host_facts.py
    # The body (and what it calls) never assigns the control variable: its values are
    # start, start + step, ... (never NaN when those are constants).
    steady: bool = False
    # The loop surely ends: steady, with constant start, limit and a non-zero step that
    # moves the variable (integral ones for a `%` variable).  Others may run for ever,
    # as BASIC says (a body that resets the variable, STEP 0...).
    ends: bool = False


@dataclass(eq=False)
class WhileLoop(HNode):
    """WHILE...WEND, or a loop the structuring built from a backward GOTO.
    `condition` is tested before each iteration, and is always `stmt.condition`: for a
    GOTO loop that starts with `IF c THEN <after the loop>`, `stmt` is a synthesized
    `ast.While(NOT c)` (not in `Analysis.stmts`; `origin` is the IF).  `stmt` and
    `condition` are None for an endless loop (`while True`), left by Break,
    EndProgram or Return.  A synthesized `NOT c` is an `ast.UnaryOp("NOT", c)` typed in
    `Analysis.expr_types` like every expression."""

    stmt: ast.While | None
    body: list["HNode"]
    condition: ast.Expr | None = None

    def __post_init__(self) -> None:
        if self.stmt is not None and self.condition is None:
            self.condition = self.stmt.condition


@dataclass(eq=False)
class If(HNode):
    """IF/ELSEIF/ELSE: `arms` are (condition, body) in order.  An IF built from
    `IF c THEN 200` skipping forward has the condition `NOT c` (synthesized, see
    WhileLoop)."""

    arms: list[tuple[ast.Expr, list["HNode"]]]
    else_body: list["HNode"] | None = None
    # The statement each arm's condition comes from, when they differ (an elif chain
    # built from several `IF c THEN n`); empty: all from `origin`.
    origins: list[ast.Stmt] = field(default_factory=list)
    # `IF A >= B THEN B = A`: the shape of a max or min that NaN keeps an IF
    # (hostcode/simplify.py; the Python printer says so to its linter).
    nan_kept: bool = False
    # Conditions of nested IFs merged into this one's single arm (hostcode/simplify.py):
    # the body runs when its condition and then each of these holds, tested in turn
    # (one false skips the rest, as the nested IFs did).
    merged: list[ast.Expr] = field(default_factory=list)


@dataclass(eq=False)
class MinMax(HNode):
    """`IF A > B THEN B = A` as `B = max(B, A)` (hostcode/simplify.py): `fn` is "max"
    or "min", `name` the variable, `value` the operand evaluating it twice would not
    change (a variable, a constant, or an element with such subscripts)."""

    fn: str
    name: str
    value: ast.Expr


@dataclass(eq=False)
class Evaluate(HNode):
    """The value of an assignment to a variable that nothing reads: only its effects
    (warnings, faults, RND) remain, converted as for storing into `value_type`."""

    value: ast.Expr
    value_type: str


@dataclass(eq=False)
class Mark(HNode):
    """No code: where a statement the host passes removed stood (its comment stays)."""


@dataclass(eq=False)
class AtLine(HNode):
    """No code of its own: what follows belongs to `stmt` (its comment again, and in C++
    the BASIC line a message names): a `%` loop variable's value after a kernel, whose
    Overflow BASIC reports at the loop's last NEXT."""

    stmt: ast.Stmt


@dataclass(eq=False)
class Break(HNode):
    """Leave the innermost ForLoop/WhileLoop (a GOTO just past its NEXT/WEND)."""


@dataclass(eq=False)
class Continue(HNode):
    """Next iteration of the innermost loop (a GOTO to its NEXT/WEND)."""


@dataclass(eq=False)
class Call(HNode):
    """GOSUB to a structured subroutine."""

    subroutine: str


@dataclass(eq=False)
class Return(HNode):
    """RETURN from a structured subroutine."""


@dataclass(eq=False)
class EndProgram(HNode):
    """END or STOP: the program ends here.  `stop_line`: Microsoft BASIC's STOP prints
    "Break in <stop_line>" first (None: nothing; "" a STOP on a line without a number)."""

    stop_line: str | None = None


@dataclass(eq=False)
class OnGosub(HNode):
    """`ON e GOSUB l1, l2` where every target is a structured subroutine (ON e GOTO
    is handled by the dispatch loop)."""

    selector: ast.Expr
    subroutines: list[str]


# ---- unstructured control flow: a dispatch loop over labelled blocks


@dataclass(eq=False)
class Block:
    """A basic block of a dispatch loop.  `label` is the BASIC line number as text, or
    "300:2" for a block starting at the 2nd statement of line 300."""

    label: str
    body: list["HNode"]


@dataclass(eq=False)
class TrapLabels:
    """A dispatch loop that traps errors (a program with ON ERROR GOTO: each block is one
    statement, passes/host/structure.py): a fault inside a block jumps to the handler
    (runtime/trap.py), and RESUME NEXT goes on at `after[label]` (None: past the last
    line, where the program ends)."""

    after: dict[str, str | None]


@dataclass(eq=False)
class Dispatch(HNode):
    """`label = entry; while True: match label: case ...` — for code whose GOTOs do not
    fit structured control flow.  Control leaves a block through a `Jump`, a `Gosub`,
    a `ReturnJump`, `EndProgram`, or by falling through to `fallthrough[label]`.
    None there (and `Jump(None)`) leaves the dispatch loop: execution goes on with the
    node after the Dispatch (the program ends if there is none).  A Dispatch may cover
    only part of a body; nothing outside it jumps into it except to its entry, and
    nothing inside it jumps out of it except to the node after it (or by EndProgram,
    Return)."""

    entry: str
    blocks: list[Block]
    fallthrough: dict[str, str | None]
    trap: TrapLabels | None = None


@dataclass(eq=False)
class Jump(HNode):
    """GOTO inside a dispatch loop (also the taken branch of IF ... THEN 100).
    `target` None: leave the dispatch loop (go on after it)."""

    target: str | None


@dataclass(eq=False)
class OnJump(HNode):
    """ON e GOTO inside a dispatch loop.  A target None is the dispatch loop's exit.
    An index out of range is a fatal error in strict mode; outside it (`falls_through`)
    0 or more than the targets go on after the statement, as in Microsoft BASIC."""

    selector: ast.Expr
    targets: list[str | None]
    falls_through: bool = False


@dataclass(eq=False)
class GosubJump(HNode):
    """GOSUB inside a dispatch loop: push `return_to`, jump to `target`."""

    target: str
    return_to: str


@dataclass(eq=False)
class OnGosubJump(HNode):
    """ON e GOSUB inside a dispatch loop (`falls_through`: as OnJump's)."""

    selector: ast.Expr
    targets: list[str]
    return_to: str
    falls_through: bool = False


@dataclass(eq=False)
class ReturnJump(HNode):
    """RETURN inside a dispatch loop: pop the return label (fatal if empty).  In a
    program without GosubJump (so without a return stack) it is always the fatal
    "RETURN without GOSUB"."""


@dataclass(eq=False)
class OnErrorGoto(HNode):
    """ON ERROR GOTO: errors jump to the block `handler` from now on (None: GOTO 0)."""

    handler: str | None


@dataclass(eq=False)
class ResumeJump(HNode):
    """RESUME (`mode` "retry"), RESUME NEXT ("next") or RESUME n ("line", to `target`):
    leave the error handler for a block of the trapping dispatch loop."""

    mode: str
    target: str | None = None


@dataclass(eq=False)
class ForInit(HNode):
    """The FOR of a loop that jumps cut, inside a dispatch loop: evaluate the limit and
    step once (ECMA-55 11.4), assign the variable, and jump to `exit` (the label after
    the NEXT, None for the dispatch's exit) if the loop runs zero times.  The body
    follows (the next block, or the rest of this one).

    `stack`: the loop runs on the run-time FOR stack (`Analysis.dynamic_for`): it enters
    the stack before the test, and leaves it again if it runs zero times.  On the stack
    the loop is named `loop`, the label of its FOR ("2290", "300:2")."""

    stmt: ast.For
    for_index: int
    exit: str | None
    stack: bool = False
    loop: str = ""
    plan: ForPlan | None = None  # set by passes/host/host_facts.py


@dataclass(eq=False)
class ForNext(HNode):
    """The NEXT of such a loop: add the step and jump back to `body` (the label of the
    body's first statement) unless the variable is now past the limit.  `stmt` is the
    loop's FOR; `origin` is the NEXT.

    `stack`: first find the loop (named `loop`) on the run-time FOR stack ("NEXT without
    FOR" if it is not there), and leave the stack when the loop ends."""

    stmt: ast.For
    for_index: int
    body: str | None
    stack: bool = False
    loop: str = ""
    plan: ForPlan | None = None  # set by passes/host/host_facts.py


@dataclass(eq=False)
class LoopFault(HNode):
    """A FOR or NEXT that is a fatal error whenever it runs (`Analysis.loop_faults`): a
    FOR evaluates its start, limit and step (`stmt`, None for a NEXT) first.  Also a
    RESUME in a program without ON ERROR GOTO ("RESUME without error").  `line`: the
    line the error names when not the statement's own (`Analysis.loop_fault_line`)."""

    stmt: ast.For | None
    message: str
    line: int | None = None


# ---- offloading (inserted by passes/parallel/offload.py)


@dataclass(eq=False)
class HostValue:
    """A value the offload pass needs on the host, in a tiny expression language both
    printers know: ("var", basic_name) a BASIC scalar | ("num", value) | ("count", name)
    a LoopCount computed before the launch | ("array", basic_name) a BASIC array's
    storage | ("temp", name) a Temp array | ("cdiv"|"mul"|"add", a, b)."""

    op: str
    args: tuple


@dataclass(eq=False)
class LoopCount:
    """Before the launch: `name` = the number of iterations of
    `FOR var = start TO limit STEP step` (ECMA-55: limit evaluated once)."""

    name: str
    var: str
    start: int
    limit: ast.Expr
    step: int
    limit_offset: int = 0  # added to the limit (a triangle's box: an outer limit + c)


@dataclass(eq=False)
class Temp:
    """A scratch array allocated for one launch (partial results, the error flag)."""

    name: str
    dtype: str
    size: HostValue


@dataclass(eq=False)
class RangeCheck:
    """A condition of the launch: BASIC subscripts `start + offset + k` (k < count) of
    `array` along `axis` are all valid (the kernel's tile loads and stores assume it).
    When one is not, the kernel does not run and the host runs the whole loop (`Replay`),
    which reports the error where and when BASIC does; `node` is the subscript's place."""

    array: str
    axis: int
    start: int
    offset: float
    count: str
    node: ast.Node


@dataclass(frozen=True)
class CountCheck:
    """A condition of the launch: the loop count `count` is at most `most`, so that the
    last NEXT of a `%` loop variable stays in -32768..32767.  When it is not, the kernel
    does not run and the host runs the whole loop (`Replay`), where BASIC's Overflow
    comes."""

    count: str
    most: int


@dataclass(frozen=True)
class CoverTest:
    """One test of a launch condition, as the printers write it: subscripts `first` to
    `first + count + extra - 1` of `array` along `axis` are valid."""

    array: str
    axis: int
    first: float
    count: str
    extra: float


def cover_tests(checks: list[RangeCheck]) -> list[CoverTest]:
    """The checks of one array, axis and count as one test of the range they span:
    `T(I - 1)`, `T(I)`, `T(I + 1)` make one `t.covers(0, 1, n + 2)`, not three tests.  The
    span of checks with a gap between them includes the gap, a stricter test, which only
    sends a loop whose kernel could run to the host (BASIC's semantics either way)."""
    spans: dict[tuple[str, int, str], list[float]] = {}
    for check in checks:
        first = check.start + check.offset
        span = spans.setdefault((check.array, check.axis, check.count), [first, first])
        span[0], span[1] = min(span[0], first), max(span[1], first)
    return [
        CoverTest(array, axis, low, count, high - low)
        for (array, axis, count), (low, high) in spans.items()
    ]


@dataclass(frozen=True)
class ErrorSite:
    """A fatal BASIC error a kernel detected: its kind ("subscript": subscript out of
    range; "domain": function domain error, `detail` names the function; "power":
    negative value raised to non-integral value) and the statement it happened in."""

    stmt: ast.Stmt
    kind: str = "subscript"
    detail: str = ""


@dataclass(eq=False)
class Finish:
    """What the host does after the launch.

    "sum" | "sub": `var = var op temp[b]` for each block b in order, BASIC's `+` or `-`
      (an overflow of the running total is reported at `origin`, the statement that
      accumulates);
    "max" | "min": scan `temp`'s block results in order, replacing `var` (and each
      payload variable from its temp) when a block's value is better (`strict`: `>`/`<`,
      else `>=`/`<=`);
    "set": `var = temp[0]` (a scalar scan's last value);
    "loop_var": `var = start + count * step`, BASIC's value after the loop (only if
      the counts named in `when` are all nonzero: an inner loop of a nest runs only if
      its outer loops do); `zero_trip_step`: Microsoft BASIC's `start + max(count, 1) *
      step`.
    """

    kind: str
    var: str = ""
    temp: str = ""
    strict: bool = True
    payload: list[tuple[str, str]] = field(default_factory=list)  # (variable, temp)
    start: int = 0
    step: int = 1
    count: str = ""
    when: tuple[str, ...] = ()
    zero_trip_step: bool = False
    origin: ast.Stmt | None = None

    @property
    def combines(self) -> bool:
        """Uses the blocks' results (a reduction, a scan's last value): only when every
        block finished."""
        return self.kind in ("sum", "sub", "max", "min", "set")


@dataclass(eq=False)
class MatProductShape:
    """Before the launch of `MAT target = left * right` (matrices): the checks the host
    MAT statement makes (conformable shapes, else BASIC's error at `node`), then the
    target's new shape rows(left) x cols(right)."""

    target: str
    left: str
    right: str
    node: ast.Stmt


@dataclass(eq=False)
class ReplayLoop:
    """One FOR of an offloaded loop (nest), as the host replays it: `var` takes the values
    start + k * step for k < the LoopCount `count`; the kernel's blocks cover `tile`
    consecutive k along grid axis `axis`."""

    var: str
    start: int
    step: int
    count: str
    tile: int
    axis: int
    # A triangle of lanes (dependence.LaneDim): the iterations are those where
    # first <= var <= last (None: no bound on that side).
    first: ast.Expr | None = None
    last: ast.Expr | None = None


@dataclass(eq=False)
class Replay:
    """The host's share of an offloaded loop: the iterations of the blocks the kernel
    did not finish.

    A kernel block finishes only if none of its iterations meets a BASIC exception
    (division by zero, overflow, a domain error, a subscript out of range...) or a
    value that could hide one (an infinity or NaN): then it stores its results and
    sets its flag in the temp `done` (one int per block, in block order).  Otherwise it
    stores nothing, and the host runs that block's iterations with BASIC's semantics,
    in order, which prints the interpreter's warnings and raises its error exactly.
    When a launch condition (`Launch.checks`) fails, no block runs on the device.
    `done` is None for a kernel that cannot meet an exception (every block finishes):
    the host runs all the iterations or none.

    `loops` are the FORs, outermost first; `body` is one iteration of the innermost;
    `prefix`, for a nest, the statements between the FORs, which run once per outer
    iteration (also when the inner loop runs zero times: they may warn).  `to_host`: the
    device arrays the loop uses (set by the offload pass).

    `restore`: arrays a kernel writes in place (LoopPlan.sliced), so that a block that
    meets an exception has already changed them.  The host saves them before the
    launch; unless every block finishes, it puts them back and replays every iteration
    (none skipped, no partial results used).
    """

    done: str | None
    loops: list[ReplayLoop]
    body: list[HNode]
    prefix: list[HNode] = field(default_factory=list)
    to_host: list[str] = field(default_factory=list)
    restore: list[str] = field(default_factory=list)
    # LoopCounts of lane loops whose lanes run statements that BASIC runs even when the
    # loop runs zero times (an interchanged nest's temporaries set before its inner FOR:
    # dependence._interchanged): where one is 0 no block ran them, and the host runs
    # the loop as written.
    nonempty: list[str] = field(default_factory=list)

    @property
    def skips_finished(self) -> bool:
        """Whether the replay skips the iterations of the blocks that finished."""
        return self.done is not None and not self.restore


@dataclass(eq=False)
class Launch(HNode):
    """Run a kernel for a FOR loop (nest) that the dependence pass found parallel.

    The printers emit, in order: the `shapes`, the `counts`, the `temps`, the launch
    (`args` in kernel parameter order, `grid` blocks per axis; the kernel writes the
    arrays in `writes`) if all the `checks` hold, then the `finish` steps, with the
    `replay` of unfinished blocks in place of the reductions' when there are some.  (A
    Launch for a MAT statement rather than a loop has `shapes` and no counts.)
    """

    kernel: ir.Kernel
    decision: ir.LoopDecision
    counts: list[LoopCount]
    temps: list[Temp]
    args: list[HostValue]
    grid: list[HostValue]
    checks: list[RangeCheck]
    finish: list[Finish]
    writes: list[str]
    shapes: list[MatProductShape] = field(default_factory=list)
    replay: Replay | None = None
    count_checks: list[CountCheck] = field(default_factory=list)

    @property
    def conditional(self) -> bool:
        """Does the launch depend on a test before it (`checks`, `count_checks`)?"""
        return bool(self.checks or self.count_checks)


@dataclass(eq=False)
class Distributed(HNode):
    """A parallel FOR loop split into consecutive loops (loop distribution), each one a
    kernel: `FOR I : FOR J ... : FOR K : FOR J ...` becomes a kernel for each inner nest,
    all iterations of the first before any of the second.  That is BASIC's result, the
    loop being parallel (no iteration needs another's), as long as no block meets an
    exception, whose order would differ: then the host puts back the arrays the kernels
    wrote (`restore`, saved before the first launch) and runs `original` itself, where
    BASIC reports it.  A part launches only if every block of the parts before finished.
    `to_host`: the device arrays the loop uses (set by the offload pass)."""

    parts: list[Launch]
    original: ForLoop
    restore: list[str]
    to_host: list[str] = field(default_factory=list)


@dataclass(eq=False)
class ToHost(HNode):
    """Make the host copies of these arrays current before host code uses them."""

    arrays: list[str]


@dataclass(eq=False)
class Subroutine:
    """A GOSUB target region turned into a function (entered only by GOSUB, leaves
    only by RETURN)."""

    name: str
    label: int | None
    body: list[HNode]
    # Scalars the subroutine assigns (Python needs `nonlocal` for them).
    assigns: list[str] = field(default_factory=list)
    # A QuickBASIC SUB or FUNCTION printed as a function with parameters, its variables
    # its locals (passes/quickbasic/procedure_functions.py); None: a GOSUB subroutine.
    procedure: ProcedureRecord | None = None
    # Its array parameters (when the copies of a procedure for each array it is called
    # with are one function): (position among the parameters, parameter, the array its
    # body names for it).
    array_params: list[tuple[int, str, str]] = field(default_factory=list)


@dataclass(eq=False)
class ProcCall(HNode):
    """A call of a SUB or FUNCTION that is a function (`Subroutine.procedure`): the
    arguments, each with the parameter it goes to; `result` takes a FUNCTION's value;
    `back` the variables passed by reference that the procedure may change, each with
    its parameter (QuickBASIC passes a variable or an element by reference, an
    expression or a variable in parentheses by value)."""

    subroutine: str
    procedure: ProcedureRecord
    args: list[tuple[ast.Expr, str]]
    result: str | None
    # One per parameter the procedure may change, in order: the variable or element
    # passed by reference that takes it back (None: passed by value).
    back: list[tuple[ast.LValue | None, str]]
    # The arrays passed to the function's array parameters: (position, array).
    arrays: list[tuple[int, str]] = field(default_factory=list)


@dataclass(eq=False)
class ProcReturn(HNode):
    """Leave a SUB or FUNCTION function (END SUB, EXIT SUB): give back its result and
    the parameters it may change."""

    procedure: ProcedureRecord


@dataclass(eq=False)
class ProcLocals(HNode):
    """A SUB or FUNCTION function's locals (and result), 0 or "" at each call."""

    names: list[str]


@dataclass(eq=False)
class HostProgram:
    analysis: Analysis
    body: list[HNode]
    subroutines: list[Subroutine] = field(default_factory=list)
    kernels: list[ir.Kernel] = field(default_factory=list)
    decisions: list[ir.LoopDecision] = field(default_factory=list)
    # Whether a GOSUB return stack / dispatch label variable are needed.
    uses_dispatch: bool = False
    # Simple variables that may be read before the program assigns them (they start
    # at 0 or ""), and those a subroutine assigns that the main program never does:
    # the host program creates these when it starts.
    initialized: list[str] = field(default_factory=list)
    # Whether some GosubJump pushes on a return stack.
    return_stack: bool = False
    # Set by passes/host/host_facts.py: variables read by printed code, arrays allocated at start.
    read_vars: frozenset[str] = frozenset()
    static_arrays: frozenset[str] = frozenset()
    # Set by hostcode/simplify.py: the elements (ast.Index) whose subscripts are in range
    # for sure wherever the program evaluates them.
    safe_elements: frozenset = frozenset()
    # The variables of the SUBs and FUNCTIONs that are functions: their own locals, not
    # the program's; and why each of the others stays a GOSUB subroutine.
    procedure_locals: frozenset[str] = frozenset()
    procedure_notes: dict[str, str] = field(default_factory=dict)
    # Arrays no printed statement uses (the frames a recursive procedure saved).
    unused_arrays: frozenset[str] = frozenset()
    # Why the copies of the procedures with array parameters stay one function per array.
    array_copies_note: str | None = None
    recursive_procedures: bool = False  # a procedure function calls itself (maybe through others)


def walk(nodes: list[HNode]):
    """Every node of a host tree, pre-order (bodies of loops, arms, blocks and the host
    replays of launches included)."""
    for node in nodes:
        yield node
        if isinstance(node, (ForLoop, WhileLoop)):
            yield from walk(node.body)
        elif isinstance(node, Launch) and node.replay is not None:
            yield from walk(node.replay.prefix + node.replay.body)
        elif isinstance(node, Distributed):
            yield from walk([*node.parts, node.original])
        elif isinstance(node, If):
            for _, body in node.arms:
                yield from walk(body)
            if node.else_body:
                yield from walk(node.else_body)
        elif isinstance(node, Dispatch):
            for block in node.blocks:
                yield from walk(block.body)


_LEAVES = (
    Break, Continue, Return, EndProgram, Jump, ReturnJump, GosubJump, LoopFault, ResumeJump,
    ProcReturn,
)  # fmt: skip


def terminates(nodes: list[HNode]) -> bool:
    """Does control never run past the end of these nodes (it always jumps, breaks,
    returns or ends the program before)?"""
    if not nodes:
        return False
    last = nodes[-1]
    if isinstance(last, _LEAVES):
        return True
    if isinstance(last, Simple) and isinstance(last.stmt, ast.Fault):
        return True  # it always stops the program
    if isinstance(last, (OnJump, OnGosubJump)):
        return not last.falls_through
    if isinstance(last, If):
        return (
            last.else_body is not None
            and all(terminates(body) for _, body in last.arms)
            and terminates(last.else_body)
        )
    if isinstance(last, WhileLoop) and last.condition is None:
        return not _breaks(last.body)
    return False


def _breaks(nodes: list[HNode]) -> bool:
    """Is there a Break of the loop holding `nodes` (not of a loop nested in them)?"""
    for node in nodes:
        if isinstance(node, Break):
            return True
        if isinstance(node, If):
            bodies = [body for _, body in node.arms] + [node.else_body or []]
            if any(_breaks(body) for body in bodies):
                return True
    return False
