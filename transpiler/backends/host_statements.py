"""The host statement printer of both targets: the walk over host IR nodes with each
statement's origin comment, and every statement whose decisions (conversions, checks,
temporaries, names, the shape of the lines) are the same in Python and C++.  What
differs in form only is a line of the syntax table (hostcode/syntax.py); what differs
in the runtime's interface is a hook of the target's printer (cuda/host_stmt.py,
cutile/host_stmt.py):

    syntax, code            hostcode.syntax.PYTHON or CPP; the target's Code class
    origin_comment(l, t)    the `# 40 ...` / `// 40 ...` comment of a BASIC statement
    runtime(name)           a function of the target's runtime, by its name there
    string(text)            a string literal
    number_text(value)      a number literal
    file_number(e)          a file number argument (an integer)
    throw(message, line)    the statement ending the program with a run-time error
    print_value(e)          an item of WRITE or PRINT USING, the argument of `.item()`
    print_piece(kind, t)    a piece of a PRINT chain: "item", "tab", "spc", "zone"
    print_chain(r, ps, nl)  the statement printing pieces `ps` (None: nothing to print)
    assign(t, v, pre)       `t = v` with the store conversion, after the lines `pre`
    receive(t, v)           the same for READ, INPUT and LINE INPUT (Python drops a
                            variable nothing reads)
    place(t, changing, pre) a variable or element SWAP or MID$ reads and then writes
    label_text(label)       a dispatch label as a value (None: the loop's end, C++)
    as_label(text)          an int the error trap returns as a dispatch label
    case(n, arm)            an arm of ON's `match` or `switch`
    _push(label)            a GOSUB's push of the label it returns to
    _return_fault()         RETURN without GOSUB

The hooks that only Python fills (`unpack`, `drops`, `print_splits`) keep its idioms:
`A, B = con.input(...)`, no store into a variable nothing reads.  The hooks that only
C++ fills (`at_line`, `fails`, `store_fails`, the lines `pre` an expression needs first,
`dval`) track the BASIC line its messages name; Python finds the line from the
traceback."""

from __future__ import annotations

from ..errors import BasicUnsupportedError
from ..ir import ast, hostir
from ..ir.model import Analysis, type_of_name
from ..ir.naming import Namer
from ..ir.statement_facts import facts_of, runtime_arguments
from ..language.expr_facts import copies_itself, has_effects, print_operand
from ..language.semantics import RANDOMIZE_KINDS
from .basic_origin import statement_texts

GOSUB_DEPTH = {True: 256, False: 10000}  # strict ECMA-55 (bas55's), extended


class HostStatements:
    syntax = None
    code = None
    never_past = None
    end_exception = ""  # the statement that ends the program from a subroutine
    backend = ""  # its name in the error for a statement it does not print

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

    def target_type(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Index):
            return self.a.arrays[target.name].elem_type
        return type_of_name(target.name)

    def simple(self, text: str) -> list:
        """One simple statement (C++ ends it with `;`)."""
        return [self.code(text + self.syntax.end)]

    def at_line(self, node: hostir.HNode, fails: bool) -> list:
        """What a statement that can fail or warn needs first: C++ sets the BASIC line
        its message names; Python finds it from the traceback (nothing)."""
        return []

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
        return self.val(e, pre)

    def put(self, pre: list[str]) -> list:
        """The lines an expression needs first (C++ only; complete statements)."""
        return [self.code(line) for line in pre]

    def fails(self, *exprs: ast.Expr | None) -> bool:
        """Can evaluating one of `exprs` fail or warn (only C++ sets the line for it)?"""
        return False

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
        """Can storing into `target` fail or warn (only C++ sets the line for it)?"""
        return False

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
        raise NotImplementedError

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

    breaks_from_case = False  # `break` in a case of ON leaves the dispatch loop (Python)

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
        if label is None and self.breaks_from_case:
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
        pop = f"{self.label_var} = {self.as_label(f'{self.returns_var}.pop()')}"
        return head + self._pop_check() + self.simple(pop) + self.simple("continue")

    def n_ResumeJump(self, node: hostir.ResumeJump) -> list:
        resume = _RESUMES.get(node.mode) or f"resume_at({self.label_text(node.target)})"
        jump = f"{self.label_var} = {self.as_label(f'{self.trap_var}.{resume}')}"
        return self.simple(jump) + self.simple("continue")

    def n_Launch(self, node: hostir.Launch) -> list:
        return self.kernels.launch(node, self)

    def n_Distributed(self, node: hostir.Distributed) -> list:
        return self.kernels.distributed(node, self)


# RESUME, RESUME NEXT, and RESUME to a missing line (passes/check/jumps.py): the error trap's
# methods (runtime/trap.py, b2t::ErrorTrap).
_RESUMES = {"retry": "resume()", "next": "resume_next()", "undefined": "resume_undefined()"}
