"""The host statement printer of both targets: the walk over host IR nodes with each
statement's origin comment, and every statement whose decisions (conversions, checks,
temporaries, names, the shape of loops, IFs, dispatch loops and the error trap) are the
same in Python and C++.  What differs in form only is a line of the syntax table
(hostcode/syntax.py: `while_`, `counted`, `stepped`, `switch`, `dispatch`...); what
differs in the runtime's interface is a hook of the target's printer
(cuda/host_stmt.py, cutile/host_stmt.py):

    syntax                  hostcode.syntax.PYTHON or CPP
    origin_comment(l, t)    the `# 40 ...` / `// 40 ...` comment of a BASIC statement
    start_trap, fault_class, catch_method: the names of the error trap's runtime
    file_number(e)          a file number argument (an integer)
    print_value(e)          an item of WRITE or PRINT USING, the argument of `.item()`
    print_piece(kind, t)    a piece of a PRINT chain: "item", "tab", "spc", "zone"
    print_chain(r, ps, nl)  the statement printing pieces `ps` (None: nothing to print)
    place(t, changing, pre) a variable or element SWAP or MID$ reads and then writes
    label_text(label)       a dispatch label as a value (None: the loop's end, C++)
    _push(label)            a GOSUB's push of the label it returns to
    _return_fault()         RETURN without GOSUB

The hooks that only Python fills (`unpack`, `drops`, `print_splits`) keep its idioms:
`A, B = con.input(...)`, no store into a variable nothing reads.  C++ names the BASIC
line its messages report (`line_var`: `at_line`, the lines `pre` an expression needs
first, `dval`); Python finds the line from the traceback."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BasicUnsupportedError
from ..ir import ast, hostir
from ..ir.model import Analysis, type_of_name
from ..ir.naming import Namer
from ..ir.statement_facts import facts_of, runtime_arguments
from ..language.expr_facts import copies_itself, has_effects, print_operand, signed_number
from ..language.semantics import RANDOMIZE_KINDS
from .basic_origin import statement_texts

GOSUB_DEPTH = {True: 256, False: 10000}  # strict ECMA-55 (bas55's), extended


@dataclass
class Code:
    """One line of host code, or a compound statement: its head (`for (...)`, `while c:`)
    and its body (which C++ braces, except a case's of ON: `braces`)."""

    text: str
    body: list[Code] | None = None
    braces: bool = True

    @property
    def is_comment(self) -> bool:
        return self.text.startswith(("#", "//")) and self.body is None


class HostStatements:
    syntax = None
    code = Code
    never_past = None
    end_exception = ""  # the statement that ends the program from a subroutine
    backend = ""  # its name in the error for a statement it does not print
    line_var = None  # the variable naming the BASIC line messages report (C++)
    # the runtime's error trap: what starts it, the fault it catches, its method for one
    start_trap, fault_class, catch_method = "start_trap", "BasicFault", "catch"

    def __init__(self, analysis: Analysis, namer: Namer, expr, sub_names: dict):
        self.a = analysis
        self.namer = namer
        self.expr = expr
        self.sub_names = sub_names  # hostir subroutine name -> the target's function name
        self.texts = statement_texts(analysis)
        self.commented: set[int] = set()  # statements whose comment was printed
        self.index_of = {id(s): i for i, s in enumerate(analysis.stmts)}
        self.in_sub = False
        self.uses_end_exception = False
        self.has_return_stack = False  # set by the module printer
        self.uses_for_stack = False
        self._for_names: dict[tuple, str] = {}
        self.kernels = None  # the launch printer, set by the module printer
        self.static_arrays: frozenset[str] = frozenset()  # allocated at the start (the same)
        # the printer's own locals, named beside the BASIC variables (TRAP is one)
        fresh = namer.fresh
        self.label_var, self.trap_var = fresh("label"), fresh("trap")
        self.resume_var, self.reply_var = fresh("resume_next"), fresh("reply")
        self.channel_var = fresh("channel")
        self.loops: list = []  # per enclosing loop: the lines a `continue` needs first
        # C++ names the BASIC line in a message (Python finds it from the traceback):
        # source line -> BASIC line number
        lines = analysis.program.lines
        self.tracks_lines = self.line_var is not None and any(ln.number is not None for ln in lines)
        self.line_numbers = {ln.coord.line: ln.number for ln in lines if ln.number}
        # Locals of the function being printed that outlive one statement: the limits
        # and steps of loops lowered into a dispatch loop.  name -> C++ type
        self.function_locals: dict[str, str] = {}

    def nodes(self, nodes: list[hostir.HNode]) -> list:
        out: list = []
        for node in nodes:
            out.extend(self.comment(node))
            out.extend(getattr(self, "n_" + type(node).__name__)(node))
        return out

    def comment(self, node: hostir.HNode) -> list:
        """The comment of the statement `node` comes from, unless printed already."""
        stmt = node.origin
        if stmt is None or id(stmt) in self.commented or id(stmt) not in self.texts:
            return []
        self.commented.add(id(stmt))
        return [self.code(self.origin_comment(stmt.label, self.texts[id(stmt)]))]

    def comment_of(self, stmt: ast.Stmt | None) -> list:
        """The comment of a statement, even if it was printed before."""
        if stmt is None or id(stmt) not in self.texts:
            return []
        return [self.code(self.origin_comment(stmt.label, self.texts[id(stmt)]))]

    def var(self, name: str) -> str:
        return self.namer.name(name)

    def runtime(self, name: str) -> str:
        return self.expr.runtime(name)

    def number_text(self, value: float) -> str:
        return self.expr.number_text(value)

    def string(self, text: str) -> str:
        return self.expr.string_code(text).text

    def target_type(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Index):
            return self.a.arrays[target.name].elem_type
        return type_of_name(target.name)

    def simple(self, text: str) -> list:
        """One simple statement (C++ ends it with `;`)."""
        return [self.code(text + self.syntax.end)]

    def at_line(self, node: hostir.HNode, fails: bool) -> list:
        """`line = 40;` before a statement that can end the program with an error or
        report a warning (both name the line; Python finds it from the traceback)."""
        if not fails or not self.tracks_lines:
            return []
        label = node.origin.label if node.origin is not None else None
        return self.simple(f"{self.line_var} = {label if label is not None else 0}")

    def line_of(self, e: ast.Expr) -> list[str]:
        """`line = N;` naming the BASIC line of expression `e`, as a line it needs first."""
        if not self.tracks_lines:
            return []
        return [f"{self.line_var} = {self.line_numbers.get(e.coord.line, 0)}{self.syntax.end}"]

    def line_if_fails(self, e: ast.Expr) -> list[str]:
        return self.line_of(e) if self.fails(e) else []

    def arg(self, e: ast.Expr) -> str:
        """The value of an argument that needs no lines before it."""
        return self.val(e, None)

    def val(self, e: ast.Expr, pre: list[str] | None) -> str:
        """The value of `e`; C++ appends the lines it needs first to `pre`."""
        return self.expr.value(*self.args(e, pre))

    takes_pre = False  # the expression printer's methods take `pre` (C++)

    def args(self, e: ast.Expr, pre: list[str] | None) -> tuple:
        """The arguments of the expression printer's methods."""
        return (e, pre) if self.takes_pre else (e,)

    def dval(self, e: ast.Expr, pre: list[str]) -> str:
        """The value of `e` as a double (C++ converts an integer's)."""
        return self.expr.double_value(*self.args(e, pre))

    def put(self, pre: list[str]) -> list:
        """The lines an expression needs first (C++ only; complete statements)."""
        return [self.code(line) for line in pre]

    def fails(self, *exprs: ast.Expr | None) -> bool:
        """Can evaluating one of `exprs` fail or warn (report something naming its line)?"""
        return any(e is not None and _reports(self.expr.effects(e)) for e in exprs)

    def run(self, node: hostir.HNode, fails: bool, function: str, *args: str) -> list:
        """A statement that is one call of the runtime's `function`; `fails`: the call
        can end the program with an error or warn."""
        call = f"{self.runtime(function)}({', '.join(args)})"
        return self.at_line(node, fails) + self.simple(call)

    def runtime_call(self, node: hostir.HNode, stmt: ast.Stmt) -> list:
        """A statement that is one call of the runtime (statement_facts' `runtime`: KILL,
        NAME, MKDIR...), its operands the arguments."""
        args = [self.arg(e) for e in runtime_arguments(stmt)]
        return self.run(node, True, facts_of(stmt).runtime, *args)

    # ----------------------------------------------------------------- BASIC statements
    # (those whose only difference between the targets is the syntax table)

    def n_Simple(self, node: hostir.Simple) -> list:
        stmt = node.stmt
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None and facts_of(stmt).runtime:
            return self.runtime_call(node, stmt)
        if method is None:
            raise BasicUnsupportedError(
                f"{type(stmt).__name__} statements are not supported by the {self.backend} "
                "backend yet",
                stmt.coord,
            )
        return method(node, stmt)

    def store_fails(self, target: ast.LValue) -> bool:
        """Can storing into `target` fail (a subscript, a `%` conversion, a long string)
        or warn (Microsoft BASIC: a number beyond a single's range)?"""
        kind = self.target_type(target)
        if kind == "int" or (kind == "str" and self.expr.strict):
            return True
        if self.a.options.microsoft and kind != "str":
            return True
        return isinstance(target, ast.Index) and self.fails(target)

    def assign(self, target: ast.LValue, value: str, pre: list[str]) -> list:
        """`target = value` with the store conversion, after the lines `pre`.  The value
        is evaluated before the target's subscripts (C++ computes it into a temporary
        if they need lines first); the interpreter the other way round: only an
        assignment whose subscript is out of range *and* whose value warns or fails
        could tell, and it is fatal either way."""
        converted = self.expr.store(value, self.target_type(target))
        if isinstance(target, ast.Var):
            if converted == self.var(target.name) and not pre:
                return []  # LET X = X
            return self.put(pre) + self.simple(f"{self.var(target.name)} = {converted}")
        target_pre: list[str] = []
        element = self.target(target, target_pre)
        if target_pre:  # keep the value first
            temp = self.namer.fresh("tmp")
            pre = [*pre, self.syntax.declare("const auto", temp, converted)]
            converted = temp
        return self.put(pre + target_pre) + self.simple(f"{element} = {converted}")

    def receive(self, target: ast.LValue, value: str) -> list:
        """The same for READ, INPUT and LINE INPUT (a variable nothing reads only
        evaluates the value, `drops`)."""
        if self.drops(target):
            return self.simple(self.expr.store(value, self.target_type(target)))
        return self.assign(target, value, [])

    def s_Let(self, node, stmt: ast.Let) -> list:
        pre: list[str] = []
        value = self.val(stmt.value, pre)
        fails = self.fails(stmt.value) or self.store_fails(stmt.target)
        return self.at_line(node, fails) + self.assign(stmt.target, value, pre)

    def s_Rem(self, node, stmt: ast.Stmt) -> list:
        return []  # its comment is all there is

    s_NoEffect = s_Data = s_DefFn = s_OptionBase = s_DefType = s_Rem

    def s_OnError(self, node, stmt: ast.OnError) -> list:
        return []  # ON ERROR GOTO 0 in a program that never traps: nothing to turn off

    def s_Open(self, node, stmt: ast.Open) -> list:
        args = [self.arg(stmt.name), self.arg(stmt.mode), self.file_number(stmt.number)]
        if stmt.length is not None:
            args.append(self.arg(stmt.length))
        return self.run(node, True, "open_file", *args)

    def s_RecordIO(self, node, stmt: ast.RecordIO) -> list:
        args = [self.file_number(stmt.channel)]
        if stmt.record is not None:
            args.append(self.arg(stmt.record))
        return self.run(node, True, "put_record" if stmt.put else "get_record", *args)

    def s_FieldSwap(self, node, stmt: ast.FieldSwap) -> list:
        names = self.string(stmt.first), self.string(stmt.second)
        return self.run(node, False, "field_swap", *names)

    def s_Close(self, node, stmt: ast.Close) -> list:
        numbers = [self.file_number(n) for n in stmt.numbers]
        return self.run(node, bool(numbers), "close_files", *numbers)

    def s_FileWidth(self, node, stmt: ast.FileWidth) -> list:
        number = self.file_number(stmt.channel)
        return self.run(node, True, "file_width", number, self.arg(stmt.width))

    def s_RaiseError(self, node, stmt: ast.RaiseError) -> list:
        return self.run(node, True, "raise_error", self.arg(stmt.code))

    def s_Trace(self, node, stmt: ast.Trace) -> list:
        return self.simple(f"con.trace({self.syntax.true if stmt.on else self.syntax.false})")

    def s_TraceLine(self, node, stmt: ast.TraceLine) -> list:
        return self.simple(f"con.trace_line({stmt.number})")

    def s_ChangeToCodes(self, node, stmt: ast.ChangeToCodes) -> list:
        array = self.expr.array(stmt.array.name)
        return self.run(node, True, "change_to_codes", array, self.arg(stmt.text))

    def s_ChangeToString(self, node, stmt: ast.ChangeToString) -> list:
        value = f"{self.runtime('change_to_string')}({self.expr.array(stmt.array.name)})"
        return self.at_line(node, True) + self.assign(stmt.target, value, [])

    def s_Restore(self, node, stmt: ast.Restore) -> list:
        position = self.a.restore_position.get(self.index_of[id(stmt)], 0)
        return self.simple(f"data.restore({position})" if position else "data.restore()")

    def s_Read(self, node, stmt: ast.Read) -> list:
        out = self.at_line(node, True)  # reading past the data is fatal
        for t in stmt.targets:
            reader = "data.read_string()" if self.target_type(t) == "str" else "data.read_number()"
            out += self.receive(t, reader)
        return out

    def throw(self, message: str, line: int | None = None) -> str:
        """The statement ending the program with a run-time error (naming `line`)."""
        fault = self.syntax.fault(self.runtime(self.fault_class), self.string(message), line)
        return self.syntax.throw + fault

    def s_Fault(self, node, stmt: ast.Fault) -> list:
        return self.at_line(node, True) + self.simple(self.throw(stmt.message))

    def s_Randomize(self, node, stmt: ast.Randomize) -> list:
        # fatal only for a BASIC2TILE_SEED that is not a number (or GW-BASIC's seed reply)
        head = self.at_line(node, True)
        randomize = self.runtime("RANDOMIZE")
        if stmt.seed is not None:
            pre: list[str] = []
            seed = self.val(stmt.seed, pre)
            kind = self.string(RANDOMIZE_KINDS[self.a.expr_types[stmt.seed]])
            return head + self.put(pre) + self.simple(f"{randomize}({seed}, {kind})")
        if self.a.options.microsoft:  # GW-BASIC asks for the seed
            return head + self.simple(f"{randomize}(con.ask_seed(), {self.string('int')})")
        return head + self.simple(f"{randomize}()")

    def s_Dim(self, node, stmt: ast.Dim) -> list:
        """A DIM that runs: it allocates the arrays whose shape is not fixed (run-time
        bounds, or reshaped by MAT); the others exist from the start, as in the
        interpreter."""
        out = []
        for decl in stmt.arrays:
            if decl.name in self.static_arrays:
                continue
            bounds = self.syntax.spread([self.dval(b, None) for b in decl.bounds])
            out += self.simple(f"{self.expr.array(decl.name)}.allocate({bounds})")
        return self.at_line(node, bool(out)) + out

    def s_Erase(self, node, stmt: ast.Erase) -> list:
        redim = self.syntax.named("redim", self.syntax.true) if stmt.redim else ""
        out = [
            self.code(f"{self.expr.array(name)}.erase({redim}){self.syntax.end}")
            for name in stmt.names
        ]
        return self.at_line(node, True) + out

    def s_Input(self, node, stmt: ast.Input) -> list:
        head = self.at_line(node, True)  # end of input is fatal
        texts = [self.target_type(t) == "str" for t in stmt.targets]
        kinds = [self.runtime("STRING" if text else "NUMBER") for text in texts]
        if stmt.channel is not None and stmt.line:
            line = f"{self.runtime('file_line')}({self.file_number(stmt.channel)})"
            return head + self.assign(stmt.targets[0], line, [])
        if stmt.channel is None:
            return head + self.input_into(stmt, self.console_input(stmt, kinds), texts)
        number = self.file_number(stmt.channel)
        call = f"{self.runtime('file_input')}({number}, {self.syntax.tuple_(kinds)})"
        return head + self.input_into(stmt, call, texts)

    def console_input(self, stmt: ast.Input, kinds: list[str]) -> str:
        prompt = [self.string(stmt.prompt)] if stmt.prompt is not None else self.syntax.no_prompt
        flags = self.syntax.flags([("question", stmt.question, True), ("stay", stmt.stay, False)])
        return f"con.input({', '.join([*prompt, self.syntax.tuple_(kinds), *flags])})"

    def unpack(self, targets: list[ast.LValue], call: str) -> list | None:
        """INPUT's targets as one statement unpacking what `call` returns, where the
        language can (Python, when no target converts its value)."""
        return None

    def drops(self, target: ast.LValue) -> bool:
        """Is `target` a variable nothing reads (Python does not store into it)?"""
        return False

    def input_into(self, stmt: ast.Input, call: str, texts: list[bool]) -> list:
        """The targets of INPUT from the values `call` returns, one per target (C++ reads
        a reply's `text` or `number`)."""
        unpacked = self.unpack(stmt.targets, call)
        if unpacked is not None:
            return unpacked
        fields = [self.syntax.reply_field(text) for text in texts]
        if len(stmt.targets) == 1:
            return self.receive(stmt.targets[0], f"{call}[0]{fields[0]}")
        lines = [self.code(self.syntax.declare("const auto", self.reply_var, call))]
        for n, (target, field_name) in enumerate(zip(stmt.targets, fields)):
            if not self.drops(target):
                lines += self.assign(target, f"{self.reply_var}[{n}]{field_name}", [])
        return self.scoped(lines)

    def s_LineInput(self, node, stmt: ast.LineInput) -> list:
        prompt = [self.string(stmt.prompt)] if stmt.prompt is not None else self.syntax.no_prompt
        args = [*prompt, *self.syntax.flags([("stay", stmt.stay, False)])]
        call = f"con.line_input({', '.join(args)})"
        return self.at_line(node, True) + self.receive(stmt.target, call)  # end of input

    def place(self, target: ast.LValue, changing: set[str], pre: list[str]) -> str:
        """A variable or element that a statement reads and then writes (SWAP, MID$),
        found once, before it changes: the lines it needs are appended to `pre`
        (Python: the subscripts that read a variable in `changing`, or draw RND or
        INKEY$, computed into temporaries)."""
        return self.target(target, pre)

    def target(self, target: ast.LValue, pre: list[str] | None = None) -> str:
        """A variable or element to store into (C++: its subscripts' lines go to `pre`)."""
        if isinstance(target, ast.Var):
            return self.var(target.name)
        return self.expr._element(target, [] if pre is None else pre).text

    def s_Swap(self, node, stmt: ast.Swap) -> list:
        """Both places are found before either changes (`SWAP I, A(I)` swaps with the
        element of the old I)."""
        pre: list[str] = []
        swapped = {t.name for t in (stmt.first, stmt.second) if isinstance(t, ast.Var)}
        first = self.place(stmt.first, swapped, pre)
        second = self.place(stmt.second, swapped, pre)
        head = self.at_line(node, self.fails(stmt.first, stmt.second))
        return head + self.put(pre) + self.simple(self.syntax.swap(first, second))

    def s_MidAssign(self, node, stmt: ast.MidAssign) -> list:
        """`T$ = mid_assign(T$, start, [count,] V$)`; an element is found once, before the
        arguments are evaluated (C++ binds a reference to it)."""
        found: list[str] = []
        target = self.place(stmt.target, set(), found)
        if not isinstance(stmt.target, ast.Var) and self.syntax.binds:
            place = self.namer.fresh("place")
            found.append(self.syntax.declare("std::string&", place, target))
            target = place
        pre: list[str] = []
        args = [target, self.val(stmt.start, pre)]
        if stmt.count is not None:
            args.append(self.val(stmt.count, pre))
        elif self.syntax.absent:
            args.append(self.syntax.absent)
        function = "mid_assign_itself" if copies_itself(stmt) else "mid_assign"
        if not copies_itself(stmt):
            args.append(self.val(stmt.value, pre))
        call = f"{self.runtime(function)}({', '.join(args)})"
        lines = self.put(found + pre) + self.simple(f"{target} = {call}")
        # a start or count out of range
        return self.at_line(node, True) + (self.scoped(lines) if found else lines)

    def channel(self, number: ast.Expr | None) -> str:
        """What PRINT and WRITE write to: the console, or the file numbered `number`."""
        if number is None:
            return "con"
        return f"{self.runtime('file_output')}({self.file_number(number)})"

    def _items(self, items: list[ast.Expr]) -> str:
        """`.item(a).item(b)`: each is written before the next one is evaluated."""
        return "".join(f".item({self.print_value(item)})" for item in items)

    def print_splits(self, e: ast.Expr) -> bool:
        """Does an item that can fail start a new chain (Python: so that the traceback
        names one call)?"""
        return False

    def scoped(self, lines: list) -> list:
        """`lines` in a scope of their own (C++'s braces)."""
        return [self.code("", lines)] if self.syntax.scopes else lines

    def s_Print(self, node, stmt: ast.Print) -> list:
        """PRINT as runs of items, each one chain of calls; an item that needs lines
        first (or splits, `print_splits`) starts a new run, so that what the items
        before it print comes out first, as in the interpreter."""
        if stmt.using is not None:
            return self.print_using(node, stmt)
        runs: list = [[]]  # lists of pieces, and between them the lines an item needs
        fails = stmt.channel is not None  # a file that is not open
        for item in stmt.items:
            if isinstance(item, ast.PrintSep):
                if item.sep == ",":
                    runs[-1].append(self.print_piece("zone", ""))
                continue
            expr = print_operand(item)
            # TAB warns about an argument below one; SPC's is out of range
            spacing = isinstance(item, (ast.Tab, ast.Spc))
            fails = fails or spacing or self.fails(expr)
            pre: list[str] = []
            if spacing:
                piece = self.print_piece(type(item).__name__.lower(), self.val(expr, pre))
            else:
                piece = self.print_piece("item", self.expr.print_item(*self.args(expr, pre)))
            if pre or (runs[-1] and self.print_splits(expr)):
                runs += [*pre, []]
            runs[-1].append(piece)
        newline = not stmt.items or not isinstance(stmt.items[-1], ast.PrintSep)
        receiver, head = self.channel(stmt.channel), []
        if stmt.channel is not None and sum(isinstance(r, list) and bool(r) for r in runs) > 1:
            head = [self.code(self.syntax.declare(self.syntax.console, self.channel_var, receiver))]
            receiver = self.channel_var  # the file number is evaluated once
        lines = list(head)
        for n, run in enumerate(runs):
            if isinstance(run, str):
                lines.append(self.code(run))
            elif chain := self.print_chain(receiver, run, newline and n == len(runs) - 1):
                lines += self.simple(chain)
        return self.at_line(node, fails) + (self.scoped(lines) if head else lines)

    def s_Write(self, node, stmt: ast.Write) -> list:
        fails = stmt.channel is not None or self.fails(*stmt.items)
        chain = f"{self.channel(stmt.channel)}.write_items(){self._items(stmt.items)}.end()"
        return self.at_line(node, fails) + self.simple(chain)

    def print_using(self, node, stmt: ast.Print) -> list:
        items = [i for i in stmt.items if not isinstance(i, ast.PrintSep)]
        newline = not isinstance(stmt.items[-1], ast.PrintSep)
        end = ".end()" if newline else f".end({self.syntax.no_newline})"
        chain = f"{self.channel(stmt.channel)}.print_using({self.arg(stmt.using)})"
        # a format can be wrong
        return self.at_line(node, True) + self.simple(chain + self._items(items) + end)

    def s_Field(self, node, stmt: ast.Field) -> list:
        widths = self.syntax.list_([self.arg(w) for w in stmt.widths])
        names = self.syntax.list_([self.string(name) for name in stmt.names])
        return self.run(node, True, "field", self.file_number(stmt.channel), widths, names)

    def s_FieldRelease(self, node, stmt: ast.FieldRelease) -> list:
        names = self.syntax.spread([self.string(name) for name in stmt.names])
        return self.run(node, False, "field_release", names)

    # ----------------------------------------------------------------- host IR nodes

    def n_Evaluate(self, node: hostir.Evaluate) -> list:
        """A value that nothing reads: evaluated, and converted, for its effects only."""
        pre: list[str] = []
        value = self.expr.store(self.val(node.value, pre), node.value_type)
        head = self.at_line(node, True)  # its effects are all there is: it can report
        return head + self.put(pre) + self.simple(self.syntax.discard(value))

    def n_MinMax(self, node: hostir.MinMax) -> list:
        """`B = max(B, A)`: `A > B ? A : B` as the IF it replaces (NaN included)."""
        pre: list[str] = []
        value = self.dval(node.value, pre)
        var = self.var(node.name)
        extreme = self.syntax.max_ if node.fn == "max" else self.syntax.min_
        head = self.at_line(node, self.fails(node.value)) + self.put(pre)
        return head + self.simple(f"{var} = {extreme(var, value)}")

    def n_LoopFault(self, node: hostir.LoopFault) -> list:
        """A FOR with no NEXT (or the wrong one), a NEXT with no FOR: as the
        interpreter, a FOR evaluates its parts first (only effects can be seen)."""
        lines: list = []
        parts = (node.stmt.start, node.stmt.limit, node.stmt.step) if node.stmt else ()
        for part in parts:
            if has_effects(part):
                pre: list[str] = []
                value = self.val(part, pre)
                lines += self.put(pre) + self.simple(self.syntax.evaluate(value))
        return self.at_line(node, True) + lines + self.simple(self.throw(node.message, node.line))

    # ----------------------------------------------------------------- MAT statements

    def _f32(self) -> str:
        """What a MAT helper of an f32 program takes last (Python's helpers compute in
        f32 when told)."""
        return ""

    def _reshape(self, name: str, bounds: list[ast.Expr]) -> list:
        dims = self.syntax.spread([self.dval(b, None) for b in bounds])
        return self.simple(f"{self.expr.array(name)}.reshape({dims})")

    def s_MatRead(self, node, stmt: ast.MatRead) -> list:
        return self._mat_fill_from(node, stmt, "mat_read", "data")

    def s_MatInput(self, node, stmt: ast.MatInput) -> list:
        return self._mat_fill_from(node, stmt, "mat_input", "con")

    def _mat_fill_from(self, node, stmt, helper: str, source: str) -> list:
        out = self.at_line(node, True)
        for decl in stmt.arrays:
            if decl.bounds:
                out += self._reshape(decl.name, decl.bounds)
            array = self.expr.array(decl.name)
            out += self.simple(f"{self.runtime(helper)}({array}, {source}{self._f32()})")
        return out

    def s_MatAssign(self, node, stmt: ast.MatAssign) -> list:
        """MAT A = ...: the runtime's helper of each form, told the BASIC word or operator
        (`mat_fill(a, 'CON')`, `mat_binary(c, '+', a, b)`)."""
        value, target = stmt.value, self.expr.array(stmt.target)
        array = self.expr.array
        pre: list[str] = []
        if isinstance(value, ast.MatFill):
            args = ["mat_fill", target, self.string(value.name)]
            if value.dims:
                args.append(self.syntax.tuple_([self.dval(d, None) for d in value.dims]))
        elif isinstance(value, ast.MatScale):
            factor = self.val(value.factor, pre)
            args = ["mat_scale", target, factor, array(value.matrix.name)]
        elif isinstance(value, ast.MatFunc):
            args = ["mat_function", target, self.string(value.name), array(value.arg.name)]
        elif isinstance(value, ast.MatBin):
            operands = [array(value.left.name), array(value.right.name)]
            args = ["mat_binary", target, self.string(value.op), *operands]
        else:
            args = ["mat_copy", target, array(value.name)]
        rounds = not isinstance(value, (ast.MatFill, ast.MatRef))  # computes new values
        call = f"{self.runtime(args[0])}({', '.join(args[1:])}{self._f32() if rounds else ''})"
        return self.at_line(node, True) + self.put(pre) + self.simple(call)

    def s_MatPrint(self, node, stmt: ast.MatPrint) -> list:
        out: list = []
        for k, name in enumerate(stmt.names):
            if k > 0:
                out += self.simple("con.newline()")  # a blank line between two arrays
            zoned = (stmt.seps[k] if k < len(stmt.seps) else None) != ";"
            flag = self.syntax.true if zoned else self.syntax.false
            out += self.simple(f"{self.runtime('mat_print')}(con, {self.expr.array(name)}, {flag})")
        return self.at_line(node, False) + out

    # ----------------------------------------------------------------- FOR loops

    names_each_for = False  # one name per FOR statement even for structured loops

    def _for_name(self, stmt: ast.For, role: str, for_index: int, lowered: bool) -> str:
        """`i_limit`, `i_step`...: one name per variable for structured loops (never two
        active at once in one function), one per FOR statement for lowered loops (a
        GOSUB through the return stack may run another FOR of the variable meanwhile)."""
        each = lowered or self.names_each_for
        key = (stmt.var.name, role, for_index if each else None)
        if key not in self._for_names:
            self._for_names[key] = self.namer.fresh(f"{self.var(stmt.var.name)}_{role}")
        return self._for_names[key]

    def _for_setup(self, node: hostir.ForLoop | hostir.ForInit, lowered: bool):
        """Lines evaluating start, limit and step once (ECMA-55 11.4, in the
        interpreter's order: start, limit, step), the texts of start, limit and step, and
        the sign's name, as the node's plan says.  `lowered`: the names are locals of the
        function (a dispatch loop's blocks share them), else locals declared here."""
        stmt, for_index, plan = node.stmt, node.for_index, node.plan
        lines: list = []

        def define(role: str, value: str) -> str:
            name = self._for_name(stmt, role, for_index, lowered)
            if lowered:
                self.function_locals[name] = "double"
                lines.extend(self.simple(f"{name} = {value}"))
            else:
                lines.append(self.code(self.syntax.declare("const double", name, value)))
            return name

        def evaluated(e: ast.Expr) -> str:
            pre: list[str] = []
            value = self.val(e, pre)
            lines.extend(self.put(pre))
            return value

        start = evaluated(stmt.start)
        if plan.start_first:
            start = define("start", start)
        sign = None
        if plan.limit is not None:
            limit = self.number_text(plan.limit)
        else:
            limit = define("limit", evaluated(stmt.limit))
        if plan.step is not None:
            step = self.number_text(plan.step)
        else:
            step = define("step", evaluated(stmt.step))
            choose = self.syntax.choose
            sign = define(
                "sign",
                choose(f"{step} > 0.0", "1.0", f"({choose(f'{step} < 0.0', '-1.0', '0.0')})"),
            )
        return lines, start, limit, step, sign, plan.step

    def _start(self, stmt: ast.For, start: str) -> str:
        """`v = start`, or "" for FOR I = I TO ..."""
        var = self.var(stmt.var.name)
        value = self.expr.store(start, type_of_name(stmt.var.name))
        return "" if value == var else f"{var} = {value}"

    def _starting(self, stmt: ast.For, start: str) -> list:
        text = self._start(stmt, start)
        return self.simple(text) if text else []

    def _past(self, var: str, limit: str, sign, step_const):
        """The loop ends when (v - limit) * SGN(step) > 0 (ECMA-55 11.4); a zero step
        never ends it (`never_past`: C++'s `false`, None in Python, which drops the test)."""
        if step_const is None:
            return f"({var} - {limit}) * {sign} > 0.0"
        if step_const > 0:
            return f"{var} > {limit}"
        if step_const < 0:
            return f"{var} < {limit}"
        return self.never_past

    def _continues(self, var: str, limit: str, sign, step_const, exact: bool) -> str:
        """The loop goes on while not past the limit.  `exact`: the variable and the
        limit cannot be NaN, so `<=` says the same as `not >`."""
        if exact and step_const:
            return f"{var} {'<=' if step_const > 0 else '>='} {limit}"
        past = self._past(var, limit, sign, step_const)
        if past is None or past == self.never_past:
            return self.syntax.true
        return self.syntax.negated(past)

    def _increment(self, stmt: ast.For, step: str) -> str:
        var = self.var(stmt.var.name)
        kind = type_of_name(stmt.var.name)
        if self.syntax.adds_in_place and kind != "int":
            return f"{var} += {step}"  # in double, then rounded to the variable's type
        return f"{var} = {self.expr.store(f'{var} + {step}', kind)}"

    def _zero_trip_step(self, stmt: ast.For, limit, step, sign, step_const) -> list:
        """Microsoft BASIC: a loop that runs zero times still adds the step once (as the
        interpreter's zero_trip_step)."""
        past = self._past(self.var(stmt.var.name), limit, sign, step_const)
        return [self.code(self.syntax.if_(past), self.simple(self._increment(stmt, step)))]

    def _lowered_loop(self, node: hostir.ForNext):
        """The limit, step and sign of a FOR lowered into a dispatch loop (constants, or
        the names of the locals holding them) and the constant step (None if not)."""
        stmt, for_index = node.stmt, node.for_index
        limit_const, step_const = node.plan.limit, node.plan.step
        if limit_const is not None:
            limit = self.number_text(limit_const)
        else:
            limit = self._for_name(stmt, "limit", for_index, True)
        if step_const is not None:
            return limit, self.number_text(step_const), None, step_const
        step = self._for_name(stmt, "step", for_index, True)
        return limit, step, self._for_name(stmt, "sign", for_index, True), None

    def for_stack(self) -> str:
        """The run-time FOR stack of the loops that are not blocks."""
        self.uses_for_stack = True
        return self.for_stack_var

    def n_ForInit(self, node: hostir.ForInit) -> list:
        stmt = node.stmt
        fails = (
            self.fails(stmt.start, stmt.limit, stmt.step) or type_of_name(stmt.var.name) == "int"
        )
        lines, start, limit, step, sign, step_const = self._for_setup(node, True)
        lines += self._starting(stmt, start)
        past = self._past(self.var(stmt.var.name), limit, sign, step_const)
        enter = (
            self.simple(f"{self.for_stack()}.enter({self.string(node.loop)})") if node.stack else []
        )
        if past is None:  # STEP 0: never past the limit
            return lines + enter
        exit = self._goto(node.exit)
        if node.plan.zero_trip_step:
            exit = self.simple(self._increment(stmt, step)) + exit
        if node.stack:
            exit = self.simple(f"{self.for_stack()}.leave()") + exit
        return self.at_line(node, fails) + lines + enter + [self.code(self.syntax.if_(past), exit)]

    def n_ForNext(self, node: hostir.ForNext) -> list:
        stmt = node.stmt
        limit, step, sign, step_const = self._lowered_loop(node)
        test = self._continues(self.var(stmt.var.name), limit, sign, step_const, False)
        head = self.at_line(node, node.stack or type_of_name(stmt.var.name) == "int")
        lines = self.simple(self._increment(stmt, step))
        lines.append(self.code(self.syntax.if_(test), self._goto(node.body)))
        if not node.stack:
            return head + lines
        find = self.simple(f"{self.for_stack()}.find({self.string(node.loop)})")
        return head + find + lines + self.simple(f"{self.for_stack()}.leave()")

    # ----------------------------------------------------------------- structured loops, IF

    def suite(self, lines: list) -> list:
        """A body the language accepts (Python: `pass` if it has only comments)."""
        if self.syntax.empty_body and all(line.is_comment for line in lines):
            return lines + [self.code(self.syntax.empty_body)]
        return lines

    def block(self, nodes: list[hostir.HNode]) -> list:
        return self.suite(self.nodes(nodes))

    def loop_body(self, nodes: list[hostir.HNode], next_lines: list | None = None) -> list:
        """A loop's body; `next_lines`: what a `continue` in it needs first (the NEXT of
        a FOR whose body ends with it)."""
        self.loops.append(next_lines)
        body = self.nodes(nodes)
        self.loops.pop()
        return body

    def lane_body(self, nodes: list[hostir.HNode]) -> list:
        """One iteration of an offloaded loop that the host runs again (`hostir.Replay`):
        a GOTO to the loop's NEXT is a `continue` of the loop over its iterations."""
        return self.suite(self.loop_body(nodes))

    def progress(self) -> list:
        """The first line of a loop that may never end (C++ may assume that a loop
        without I/O, volatile or atomic operations ends, and delete it; BASIC does not)."""
        return self.simple(self.syntax.progress) if self.syntax.progress else []

    def n_ForLoop(self, node: hostir.ForLoop) -> list:
        stmt = node.stmt
        next_stmt = self.a.stmts[node.next_index]
        next_comment = hostir.Simple(next_stmt, origin=next_stmt)
        if node.counted:  # a counting loop over integer constants
            start, limit = int(signed_number(stmt.start)), int(signed_number(stmt.limit))
            step = int(signed_number(stmt.step)) if stmt.step is not None else 1
            body = self.suite(self.loop_body(node.body))
            if self.syntax.next_in_counted_body:
                body += self.comment(next_comment)
            head = self.syntax.counted(self.var(stmt.var.name), start, limit, step)
            return [self.code(head, body)]
        integer = type_of_name(stmt.var.name) == "int"
        fails = self.fails(stmt.start, stmt.limit, stmt.step) or integer
        lines, start, limit, step, sign, step_const = self._for_setup(node, False)
        test = self._continues(self.var(stmt.var.name), limit, sign, step_const, node.plan.exact)
        increment, first = self._increment(stmt, step), self._start(stmt, start)
        if node.plan.zero_trip_step or self.syntax.stepped is None:
            lines += self._starting(stmt, start)
            first = ""
        if node.plan.zero_trip_step:
            lines += self._zero_trip_step(stmt, limit, step, sign, step_const)
        head = self.at_line(node, fails) + lines
        if self.syntax.stepped is None:  # a while loop whose body ends with the NEXT
            next_lines = self.comment(next_comment) + self.simple(increment)
            body = self.loop_body(node.body, self.simple(increment))
            return head + [self.code(self.syntax.while_(test), body + next_lines)]
        body = ([] if node.ends else self.progress()) + self.loop_body(node.body)
        body += self.comment(next_comment)
        if integer and self.tracks_lines:
            # a `%` variable's step can overflow: the error names the NEXT's line
            increment = f"{self.line_var} = {next_stmt.label or 0}, {increment}"
        return head + [self.code(self.syntax.stepped(first, test, increment), body)]

    def n_WhileLoop(self, node: hostir.WhileLoop) -> list:
        test, check = self.syntax.true, []
        if node.condition is not None:
            pre: list[str] = []
            test = self.expr.cond(*self.args(node.condition, pre))
            check = self.at_line(node, self.fails(node.condition)) + self.put(pre)
        if check:  # the test needs lines first, each time: at the top of an endless loop
            leave = self.code(self.syntax.if_(self.syntax.negated(test)), self.simple("break"))
            check, test = check + [leave], self.syntax.true
        body = self.suite(self.loop_body(node.body))
        return [self.code(self.syntax.while_(test), self.progress() + check + body)]

    def n_If(self, node: hostir.If) -> list:
        origins = node.origins or [node.origin] * len(node.arms)
        head: list = []
        out = []
        for n, ((condition, body), origin) in enumerate(zip(node.arms, origins)):
            if n == 0:
                pre: list[str] = []
                test = self.expr.all_of([condition, *node.merged], pre, self.line_if_fails)
                head = self.at_line(node, self.fails(condition)) + self.put(pre)
                header = self.syntax.if_(test)
            else:  # no line can go before an ELSE IF's test
                header = self.syntax.elif_(self.in_place(condition))
            if node.nan_kept:
                header += self.syntax.keeps_nan
            elsewhere = origin is not None and origin is not node.origin
            if n > 0 and elsewhere and self.syntax.header_comments:
                comment = self.comment(hostir.Simple(origin, origin=origin))
                if comment:
                    header += "  " + comment[0].text  # the IF this arm's test comes from
            out.append(self.code(header, self.block(body)))
        if node.else_body:
            out.append(self.code(self.syntax.else_(), self.block(node.else_body)))
        return head + out

    def in_place(self, condition: ast.Expr) -> str:
        """A condition where no line can go before it (C++ evaluates them in a lambda)."""
        pre: list[str] = []
        test = self.expr.cond(*self.args(condition, pre))
        lines = self.line_if_fails(condition) + pre
        return self.syntax.in_place(lines, test) if lines else test

    def n_Continue(self, node: hostir.Continue) -> list:
        return list(self.loops[-1] or []) + self.simple("continue")

    # ----------------------------------------------------------------- host IR nodes

    def n_EndProgram(self, node: hostir.EndProgram) -> list:
        lines = []
        if node.stop_line is not None:  # Microsoft BASIC's STOP
            report = f"{self.runtime('report_break')}(con, {self.string(node.stop_line)})"
            lines += self.simple(report)
        if self.in_sub:  # a function of its own: the end goes up as an exception
            self.uses_end_exception = True
            return lines + self.simple(self.end_exception)
        return lines + self.simple("return")

    def n_AtLine(self, node: hostir.AtLine) -> list:
        return self.comment_of(node.stmt) + self.at_line(hostir.Mark(origin=node.stmt), True)

    def n_Mark(self, node: hostir.Mark) -> list:
        return []  # its comment is all there is

    def n_Call(self, node: hostir.Call) -> list:
        return self.simple(f"{self.sub_names[node.subroutine]}()")

    def n_Break(self, node: hostir.Break) -> list:
        return self.simple("break")

    def n_Return(self, node: hostir.Return) -> list:
        return self.simple("return")

    # ----------------------------------------------------------------- jumps (dispatch loops)

    def _pop_check(self) -> list:
        """What RETURN checks before it pops (C++'s pop checks itself)."""
        return []

    def _goto(self, label: str | None) -> list:
        if label is None:
            return self.simple("break")  # leave the dispatch loop
        return self._set_label(label) + self.simple("continue")

    def _set_label(self, label: str | None) -> list:
        """Where the dispatch loop goes next (None: out of it; C++ leaves a case of ON's
        switch first, through the label DONE)."""
        if label is None and not self.syntax.cases_fall_through:  # `break` leaves the loop
            return self.simple("break")
        return self.simple(f"{self.label_var} = {self.label_text(label)}")

    def block_bodies(self, node: hostir.Dispatch) -> list[tuple]:
        """Each block of a dispatch loop with its lines, which end with the jump to the
        block after it unless the block ends with a jump of its own."""
        out = []
        for block in node.blocks:
            body = self.nodes(block.body)
            if not hostir.terminates(block.body):
                body += self._goto(node.fallthrough.get(block.label))
            out.append((block, body))
        return out

    def n_Jump(self, node: hostir.Jump) -> list:
        return self._goto(node.target)

    def dispatch_labels(self, node: hostir.Dispatch) -> None:
        """Names the labels of a dispatch loop's blocks first (C++'s enumerators)."""

    def case(self, value, arm: list):
        """A case of a `match` or `switch` (C++: ends with `break;` unless it jumps)."""
        jumps = bool(arm) and arm[-1].text == "continue" + self.syntax.end
        if self.syntax.cases_fall_through and not jumps:
            arm = arm + self.simple("break")
        return self.code(f"case {value}:", arm, braces=False)

    def n_Dispatch(self, node: hostir.Dispatch) -> list:
        self.dispatch_labels(node)
        self.loops.append(None)
        cases = []
        for block, body in self.block_bodies(node):
            if not self.syntax.cases_fall_through:  # its end goes round the loop anyway
                while body and body[-1].text == "continue" and body[-1].body is None:
                    body.pop()
            if node.trap is not None and self.line_var:  # ERL, the line of an error not trapped
                erl = self.simple(f"{self.line_var} = {_label_line(block.label)}")
                body = _after_comments(body, erl[0])
            cases.append(self.code(f"case {self.label_text(block.label)}:", self.suite(body)))
        self.loops.pop()
        if node.trap is not None or self.syntax.cases_fall_through:  # C++: other loops' labels
            cases.append(self.code(self.syntax.default_case, self.simple("break"), braces=False))
        switch = self.code(self.syntax.switch(self.label_var), cases)
        before, head = self.syntax.dispatch(self.label_var, self.label_text(node.entry))
        start = [self.code(line) for line in before]
        # C++: a case's `break` (the default's) leaves the switch only, then this the loop
        leave = self.simple("break") if self.syntax.cases_fall_through else []
        if node.trap is None:
            return start + [self.code(head, self.progress() + [switch] + leave)]
        # ON ERROR GOTO: a fault in a block (one statement) goes to the handler (the
        # runtime's error trap), told where RESUME NEXT goes on and the line (ERL)
        s, trap, label = self.syntax, self.trap_var, self.label_var
        named = self.label_text
        after = [(named(b.label), named(node.trap.after[b.label])) for b in node.blocks]
        line = self.line_var or f"{self.runtime('label_line')}({label})"
        caught = f"{trap}.{self.catch_method}(fault, {label}, {self.resume_var}[{label}], {line})"
        handler = self.simple(f"{label} = {s.as_label(caught)}")
        if leave:  # go round, past the `break` after the switch
            handler += self.simple("continue")
        fault = self.code(s.catch(self.runtime(self.fault_class), "fault"), handler)
        return [
            self.code(s.declare("b2t::ErrorTrap&", trap, f"{self.runtime(self.start_trap)}()")),
            self.code(s.comment + "where RESUME NEXT goes on after an error in each statement"),
            self.code(s.label_map(self.resume_var, after)),
            *start,
            self.code(head, [*self.progress(), self.code(s.try_, [switch]), fault, *leave]),
            *self.simple(f"{trap}.finish()"),
        ]

    def n_OnErrorGoto(self, node: hostir.OnErrorGoto) -> list:
        handler = self.syntax.no_label if node.handler is None else self.label_text(node.handler)
        line = [self.line_var] if self.line_var else []
        return self.simple(f"{self.trap_var}.on_error({', '.join([handler, *line])})")

    def _on(self, node, selector: ast.Expr, arms: list[list]) -> list:
        """ON ... GOTO / GOSUB: the runtime's `on_choice` numbers the arm to run.  Strict
        mode: ECMA-55's selector rounded as floor(x + 0.5), out of range fatal, as in the
        interpreter; otherwise Microsoft BASIC's rules: 0 or past the targets matches no
        arm and goes on."""
        pre: list[str] = []
        value = self.val(selector, pre)
        strict = self.syntax.flags([("strict", self.a.options.strict, False)])
        choice = f"{self.runtime('on_choice')}({', '.join([value, str(len(arms)), *strict])})"
        cases = [self.case(n, arm) for n, arm in enumerate(arms, 1)]
        switch = self.code(self.syntax.switch(choice), cases)
        return self.at_line(node, True) + self.put(pre) + [switch]

    def n_OnGosub(self, node: hostir.OnGosub) -> list:
        arms = [self.simple(f"{self.sub_names[s]}()") for s in node.subroutines]
        return self._on(node, node.selector, arms)

    def n_OnJump(self, node: hostir.OnJump) -> list:
        arms = [self._set_label(label) for label in node.targets]
        if node.falls_through:  # each case jumps; no case goes on after the statement
            jumps = [
                arm if arm[-1].text.startswith("break") else arm + self.simple("continue")
                for arm in arms
            ]
            return self._on(node, node.selector, jumps)
        return self._on(node, node.selector, arms) + self.simple("continue")

    def n_GosubJump(self, node: hostir.GosubJump) -> list:
        return self.at_line(node, True) + self._push(node.return_to) + self._goto(node.target)

    def n_OnGosubJump(self, node: hostir.OnGosubJump) -> list:
        push = self._push(node.return_to)
        if node.falls_through:  # an index out of range goes on after the statement
            arms = [push + self._goto(label) for label in node.targets]
            return self._on(node, node.selector, arms)
        arms = [self._set_label(label) for label in node.targets]
        return self._on(node, node.selector, arms) + push + self.simple("continue")

    def n_ReturnJump(self, node: hostir.ReturnJump) -> list:
        head = self.at_line(node, True)
        if not self.has_return_stack:
            return head + self.simple(self._return_fault())
        pop = f"{self.label_var} = {self.syntax.as_label(f'{self.returns_var}.pop()')}"
        return head + self._pop_check() + self.simple(pop) + self.simple("continue")

    def n_ResumeJump(self, node: hostir.ResumeJump) -> list:
        resume = _RESUMES.get(node.mode) or f"resume_at({self.label_text(node.target)})"
        jump = f"{self.label_var} = {self.syntax.as_label(f'{self.trap_var}.{resume}')}"
        return self.simple(jump) + self.simple("continue")

    def n_ToHost(self, node: hostir.ToHost) -> list:
        return self.kernels.to_host(node)

    def n_Launch(self, node: hostir.Launch) -> list:
        return self.kernels.launch(node, self)

    def n_Distributed(self, node: hostir.Distributed) -> list:
        return self.kernels.distributed(node, self)


def _reports(effects) -> bool:
    return effects.fails or bool(effects.warnings)


def _after_comments(body: list, line) -> list:
    """`line` after the comments that start `body`, in place of the same line there."""
    n = 0
    while n < len(body) and body[n].is_comment:
        n += 1
    rest = body[n + 1 :] if n < len(body) and body[n] == line else body[n:]
    return body[:n] + [line] + rest


def _label_line(label: str) -> int:
    """ERL of a statement from its dispatch label ("300", "300:2"; "_7", a line without
    a number, is 0)."""
    number = label.split(":", 1)[0]
    return int(number) if number.isdigit() else 0


# RESUME, RESUME NEXT, and RESUME to a missing line (passes/check/jumps.py): the error trap's
# methods (runtime/trap.py, b2t::ErrorTrap).
_RESUMES = {"retry": "resume()", "next": "resume_next()", "undefined": "resume_undefined()"}
