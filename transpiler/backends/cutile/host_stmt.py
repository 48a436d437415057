"""Host program nodes (`transpiler.hostir`) as Python statements.

The printer decides the text of every line; the template lays the lines out
(`templates/cutile/host_body.py.jinja` indents the blocks).  Semantics follow the
reference interpreter (`transpiler/interpreter/codegen.py`) statement by statement;
where its text differs, the comment on the method says why it is equivalent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ast, hostir
from ...builtins import effect_of
from ...expr_facts import copies_itself, has_effects, signed_number
from ...expr_facts import print_operand as _print_operand
from ...hostcode.syntax import PYTHON
from ...model import Analysis, type_of_name
from ...naming import Namer
from ...semantics import RANDOMIZE_KINDS
from ..basic_origin import origin_comment
from ..host_statements import HostStatements
from .code import Code, _suite
from .host_expr import ExprPrinter, number_literal
from .host_procs import ProcedureStatements

# The reference interpreter's run-time messages (transpiler/interpreter/machine.py).
RETURN_WITHOUT_GOSUB = "RETURN without GOSUB"
GOSUB_TOO_DEEP = "GOSUB nested too deeply"
ON_OUT_OF_RANGE = "ON index out of range"
GOSUB_DEPTH = {True: 256, False: 10000}  # strict ECMA-55 (bas55's), extended


@dataclass
class _Loop:
    """A Python loop around the code being printed: "for", "while" or "dispatch";
    `next` are the lines a `continue` needs first (the NEXT of a while-form FOR)."""

    kind: str
    next: list[Code] | None = None


class StatementPrinter(ProcedureStatements, HostStatements):
    syntax = PYTHON
    code = Code
    origin_comment = staticmethod(origin_comment)
    number_text = staticmethod(number_literal)
    end_exception = "raise EndProgram"
    string = staticmethod(repr)

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
        self.loops: list[_Loop] = []
        self.uses_return_stack = False
        self.label_var = namer.fresh("label")
        self.trap_var = namer.fresh("trap")
        self.resume_var = namer.fresh("resume_next")
        self.returns_var = namer.fresh("returns")
        self.choice_var = namer.fresh("choice")
        self.for_stack_var = namer.fresh("for_stack")
        self.reply_var = namer.fresh("reply")
        self.channel_var = namer.fresh("channel")
        self.read_vars: set[str] = set()  # variables some emitted code reads
        self.static_arrays: frozenset[str] = frozenset()  # set by the module printer
        self._stmts_by_line: dict[int, list[ast.Stmt]] | None = None

    # ----------------------------------------------------------------- helpers

    def need(self, name: str) -> str:
        return self.expr.need(name)

    runtime = need

    def statement_holding(self, node: ast.Node) -> ast.Stmt | None:
        """The statement `node` is part of (a subscript's LET, say)."""
        if isinstance(node, ast.Stmt):
            return node
        if self._stmts_by_line is None:
            self._stmts_by_line = {}
            for stmt in self.a.stmts:
                self._stmts_by_line.setdefault(stmt.coord.line, []).append(stmt)
        for stmt in self._stmts_by_line.get(node.coord.line, ()):
            if any(sub is node for sub in stmt.walk()):
                return stmt
        return None

    def block(self, nodes: list[hostir.HNode]) -> list[Code]:
        return _suite(self.nodes(nodes))

    def store_var(self, name: str, text: str) -> str:
        return f"{self.var(name)} = {self.expr.store(text, _type_of(name))}"

    def target(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Var):
            return self.var(target.name)
        return self.expr.element(target)

    def assign(self, target: ast.LValue, text: str) -> str:
        return f"{self.target(target)} = {self.expr.store(text, self.target_type(target))}"

    # ----------------------------------------------------------------- simple statements

    def n_Simple(self, node: hostir.Simple) -> list[Code]:
        stmt = node.stmt
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None:
            raise NotImplementedError(f"{type(stmt).__name__} in a host program")
        return method(node, stmt)

    def s_Let(self, node, stmt: ast.Let) -> list[Code]:
        # Python evaluates the value before the subscripts of an element target; the
        # interpreter the other way round.  Only an assignment whose subscript is out of
        # range *and* whose value warns or fails could tell (it is fatal either way).
        target = stmt.target
        value = self.expr.store(self.expr.value(stmt.value), self.target_type(target))
        if isinstance(target, ast.Var) and value == self.var(target.name):
            return []  # LET X = X
        return [Code(f"{self.target(target)} = {value}")]

    def n_Evaluate(self, node: hostir.Evaluate) -> list[Code]:
        return [Code(f"_ = {self.expr.store(self.expr.value(node.value), node.value_type)}")]

    def n_MinMax(self, node: hostir.MinMax) -> list[Code]:
        var = self.var(node.name)
        return [Code(f"{var} = {node.fn}({var}, {self.expr.value(node.value)})")]

    def arg(self, e: ast.Expr) -> str:
        return self.expr.value(e)

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(e)

    def channel(self, number: ast.Expr | None) -> str:
        """What PRINT and WRITE write to: the console, or the file numbered `number`."""
        if number is None:
            return "con"
        return f"{self.need('file_output')}({self.expr.subscript(number)})"

    def s_Print(self, node, stmt: ast.Print) -> list[Code]:
        """One `con.print` per run of items; an item that can fail starts a new call,
        so that what the items before it print comes out first, as in the interpreter."""
        con = self.channel(stmt.channel)
        if stmt.using is not None:
            items = [i for i in stmt.items if not isinstance(i, ast.PrintSep)]
            end = ".end()" if not isinstance(stmt.items[-1], ast.PrintSep) else ".end('')"
            return [
                Code(f"{con}.print_using({self.expr.value(stmt.using)}){self._items(items)}{end}")
            ]
        calls: list[list[str]] = [[]]
        for item in stmt.items:
            if isinstance(item, ast.PrintSep):
                if item.sep == ",":
                    calls[-1].append(self.need("ZONE"))
                continue
            expr = _print_operand(item)
            if calls[-1] and self.expr.can_fail(expr):
                calls.append([])
            if isinstance(item, (ast.Tab, ast.Spc)):
                text = self.expr.value(expr)
                calls[-1].append(f"{self.need(type(item).__name__.lower())}({text})")
            else:
                calls[-1].append(self.expr.print_item(expr))
        ends_line = not stmt.items or not isinstance(stmt.items[-1], ast.PrintSep)
        out = []
        if len(calls) > 1 and stmt.channel is not None:  # the file number is evaluated once
            out.append(Code(f"{self.channel_var} = {con}"))
            con = self.channel_var
        for n, args in enumerate(calls):
            last = n == len(calls) - 1
            if last and ends_line:
                out.append(Code(f"{con}.print({', '.join(args)})"))
            else:
                out.append(Code(f"{con}.print({', '.join(args + ['end=' + repr('')])})"))
        return out

    def _items(self, items: list[ast.Expr]) -> str:
        """`.item(a).item(b)`: each is written before the next one is evaluated."""
        return "".join(f".item({self.expr.print_item(item)})" for item in items)

    def s_Write(self, node, stmt: ast.Write) -> list[Code]:
        return [Code(f"{self.channel(stmt.channel)}.write_items(){self._items(stmt.items)}.end()")]

    def s_Field(self, node, stmt: ast.Field) -> list[Code]:
        number = self.expr.subscript(stmt.channel)
        widths = ", ".join(self.expr.value(w) for w in stmt.widths)
        return [Code(f"{self.need('field')}({number}, [{widths}], {stmt.names!r})")]

    def s_FieldRelease(self, node, stmt: ast.FieldRelease) -> list[Code]:
        return [Code(f"{self.need('field_release')}({', '.join(map(repr, stmt.names))})")]

    def s_Input(self, node, stmt: ast.Input) -> list[Code]:
        kinds = [
            self.need("STRING") if self.target_type(t) == "str" else self.need("NUMBER")
            for t in stmt.targets
        ]
        if stmt.channel is not None and stmt.line:
            line = f"{self.need('file_line')}({self.expr.subscript(stmt.channel)})"
            return [Code(self.assign(stmt.targets[0], line))]
        if stmt.channel is not None:
            number = self.expr.subscript(stmt.channel)
            call = f"{self.need('file_input')}({number}, {_tuple(kinds)})"
        else:
            prompt = repr(stmt.prompt) if stmt.prompt is not None else "None"
            options = "" if stmt.question else ", question=False"
            options += ", stay=True" if stmt.stay else ""
            call = f"con.input({prompt}, ({', '.join(kinds)},){options})"
        converted = [self.expr.store("x", self.target_type(t)) != "x" for t in stmt.targets]
        if not any(converted):
            names = ", ".join(self._target_or_discard(t) for t in stmt.targets)
            if len(stmt.targets) == 1:
                names = f"[{names}]"
            return [Code(f"{names} = {call}")]
        out = [Code(f"{self.reply_var} = {call}")]
        for n, t in enumerate(stmt.targets):
            if isinstance(t, ast.Var) and t.name not in self.read_vars:
                continue
            out.append(Code(self.assign(t, f"{self.reply_var}[{n}]")))
        return out

    def s_LineInput(self, node, stmt: ast.LineInput) -> list[Code]:
        prompt = repr(stmt.prompt) if stmt.prompt is not None else "None"
        call = f"con.line_input({prompt}{', stay=True' if stmt.stay else ''})"
        return [Code(f"{self._target_or_discard(stmt.target)} = {call}")]

    def s_Swap(self, node, stmt: ast.Swap) -> list[Code]:
        """Both places are found before either changes (`SWAP I, A(I)` swaps with the
        element of the old I): such subscripts are computed first."""
        swapped = {t.name for t in (stmt.first, stmt.second) if isinstance(t, ast.Var)}
        out: list[Code] = []
        first = self._place(stmt.first, swapped, out)
        second = self._place(stmt.second, swapped, out)
        return out + [Code(f"{first}, {second} = {second}, {first}")]

    def s_ChangeToString(self, node, stmt: ast.ChangeToString) -> list[Code]:
        value = f"{self.need('change_to_string')}({self.expr.array(stmt.array.name)})"
        return [Code(self.assign(stmt.target, value))]

    def s_MidAssign(self, node, stmt: ast.MidAssign) -> list[Code]:
        out: list[Code] = []
        target = self._place(stmt.target, set(), out)
        args = [target, self.expr.value(stmt.start)]
        args.append(self.expr.value(stmt.count) if stmt.count is not None else "None")
        if copies_itself(stmt):
            call = f"{self.need('mid_assign_itself')}({', '.join(args)})"
            return out + [Code(f"{target} = {call}")]
        args.append(self.expr.value(stmt.value))
        return out + [Code(f"{target} = {self.need('mid_assign')}({', '.join(args)})")]

    def _place(self, target: ast.LValue, changing: set[str], out: list[Code]) -> str:
        """A variable or element that a statement reads and then writes: subscripts that
        read a variable in `changing`, or draw RND or INKEY$, are computed into
        temporaries first (lines appended to `out`), so both accesses see one place."""
        if isinstance(target, ast.Var):
            return self.var(target.name)
        subscripts = []
        for index in target.indices:
            text = self.expr.subscript(index)
            names = {n.name for n in index.walk() if isinstance(n, ast.Var)}
            drawn = any(
                isinstance(n, ast.Call) and effect_of(n.name) in ("random", "input")
                for n in index.walk()
            )
            if names & changing or drawn:
                temp = self.namer.fresh("subscript")
                out.append(Code(f"{temp} = {text}"))
                text = temp
            subscripts.append(text)
        return f"{self.expr.array(target.name)}[{', '.join(subscripts)}]"

    def _target_or_discard(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Var) and target.name not in self.read_vars:
            return "_"
        return self.target(target)

    def s_Read(self, node, stmt: ast.Read) -> list[Code]:
        out = []
        for t in stmt.targets:
            reader = "data.read_string()" if self.target_type(t) == "str" else "data.read_number()"
            if isinstance(t, ast.Var) and t.name not in self.read_vars:
                out.append(Code(self.expr.store(reader, self.target_type(t))))
            else:
                out.append(Code(self.assign(t, reader)))
        return out

    def s_Fault(self, node, stmt: ast.Fault) -> list[Code]:
        return [Code(f"raise {self.need('BasicFault')}({stmt.message!r})")]

    def s_Randomize(self, node, stmt: ast.Randomize) -> list[Code]:
        randomize = self.need("RANDOMIZE")
        if stmt.seed is not None:
            kind = RANDOMIZE_KINDS[self.a.expr_types[stmt.seed]]
            return [Code(f"{randomize}({self.expr.value(stmt.seed)}, {kind!r})")]
        if self.a.options.microsoft:  # GW-BASIC asks for the seed
            return [Code(f"{randomize}(con.ask_seed(), 'int')")]
        return [Code(f"{randomize}()")]

    def s_Dim(self, node, stmt: ast.Dim) -> list[Code]:
        """A DIM that runs: it allocates the arrays whose shape is not fixed (run-time
        bounds, or reshaped by MAT); the others exist from the start, as in the
        interpreter."""
        out = []
        for decl in stmt.arrays:
            if decl.name in self.static_arrays:
                continue
            bounds = ", ".join(self.expr.value(b) for b in decl.bounds)
            out.append(Code(f"{self.expr.array(decl.name)}.allocate({bounds})"))
        return out

    def s_Erase(self, node, stmt: ast.Erase) -> list[Code]:
        redim = "redim=True" if stmt.redim else ""
        return [Code(f"{self.expr.array(name)}.erase({redim})") for name in stmt.names]

    # ----------------------------------------------------------------- MAT statements

    def _f32(self) -> str:
        return ", f32=True" if self.expr.f32 else ""

    def s_MatRead(self, node, stmt: ast.MatRead) -> list[Code]:
        return self._mat_fill_from(stmt, "mat_read", "data")

    def s_MatInput(self, node, stmt: ast.MatInput) -> list[Code]:
        return self._mat_fill_from(stmt, "mat_input", "con")

    def _mat_fill_from(self, stmt, helper: str, source: str) -> list[Code]:
        out = []
        for decl in stmt.arrays:
            name = self.expr.array(decl.name)
            if decl.bounds:
                bounds = ", ".join(self.expr.value(b) for b in decl.bounds)
                out.append(Code(f"{name}.reshape({bounds})"))
            out.append(Code(f"{self.need(helper)}({name}, {source}{self._f32()})"))
        return out

    def s_MatPrint(self, node, stmt: ast.MatPrint) -> list[Code]:
        arrays = ", ".join(self.expr.array(n) for n in stmt.names)
        if len(stmt.names) == 1:
            arrays += ","
        return [Code(f"{self.need('mat_print')}(({arrays}), {tuple(stmt.seps)!r}, con)")]

    def s_MatAssign(self, node, stmt: ast.MatAssign) -> list[Code]:
        value = stmt.value
        target = self.expr.array(stmt.target)
        if isinstance(value, ast.MatFill):
            dims = ", ".join(self.expr.value(d) for d in value.dims)
            dims_text = f", ({dims},)" if value.dims else ""
            return [Code(f"{self.need('mat_fill')}({target}, {value.name!r}{dims_text})")]
        if isinstance(value, ast.MatScale):
            factor = self.expr.value(value.factor)
            source = self.expr.array(value.matrix.name)
            return [Code(f"{self.need('mat_scale')}({target}, {factor}, {source}{self._f32()})")]
        if isinstance(value, ast.MatFunc):
            source = self.expr.array(value.arg.name)
            call = f"{self.need('mat_function')}({target}, {value.name!r}, {source}{self._f32()})"
            return [Code(call)]
        if isinstance(value, ast.MatBin):
            left = self.expr.array(value.left.name)
            right = self.expr.array(value.right.name)
            call = (
                f"{self.need('mat_binary')}({target}, {value.op!r}, {left}, {right}{self._f32()})"
            )
            return [Code(call)]
        source = self.expr.array(value.name)
        return [Code(f"{self.need('mat_copy')}({target}, {source})")]

    # ----------------------------------------------------------------- FOR loops

    def _for_name(self, stmt: ast.For, role: str, for_index: int, lowered: bool) -> str:
        """`i_limit`, `i_step`...: one name per variable for structured loops (never two
        active at once in one function), one per FOR statement for lowered loops (a
        GOSUB through the return stack may run another FOR of the variable meanwhile)."""
        key = (stmt.var.name, role, for_index if lowered else None)
        if key not in self._for_names:
            self._for_names[key] = self.namer.fresh(f"{self.var(stmt.var.name)}_{role}")
        return self._for_names[key]

    def _for_setup(self, node: hostir.ForLoop | hostir.ForInit, lowered: bool):
        """Lines evaluating start, limit and step once as the node's plan says (ECMA-55
        11.4, in the interpreter's order: start, limit, step), and the texts of limit
        and step."""
        stmt, for_index, plan = node.stmt, node.for_index, node.plan
        lines: list[Code] = []
        start = self.expr.value(stmt.start)
        limit_const, step_const = plan.limit, plan.step
        if plan.start_first:
            temp = self._for_name(stmt, "start", for_index, lowered)
            lines.append(Code(f"{temp} = {start}"))
            start = temp
        if limit_const is not None:
            limit = number_literal(limit_const)
            if "math" in limit:
                self.need("math")
        else:
            limit = self._for_name(stmt, "limit", for_index, lowered)
            lines.append(Code(f"{limit} = {self.expr.value(stmt.limit)}"))
        sign = None
        if step_const is not None:
            step = number_literal(step_const)
        else:
            step = self._for_name(stmt, "step", for_index, lowered)
            sign = self._for_name(stmt, "sign", for_index, lowered)
            lines.append(Code(f"{step} = {self.expr.value(stmt.step)}"))
            lines.append(Code(f"{sign} = 1.0 if {step} > 0.0 else (-1.0 if {step} < 0.0 else 0.0)"))
        if self.expr.store(start, _type_of(stmt.var.name)) != self.var(stmt.var.name):
            lines.append(Code(self.store_var(stmt.var.name, start)))  # not FOR I = I TO ...
        return lines, limit, step, sign, step_const

    def _continues(self, var: str, limit: str, sign, step_const, exact: bool) -> str:
        """The test at the top of a while-form FOR.  `exact`: the variable and the limit
        cannot be NaN, so `<=` says the same as `not >`."""
        if exact and step_const:
            return f"{var} {'<=' if step_const > 0 else '>='} {limit}"
        past = self._past(var, limit, sign, step_const)
        return "True" if past is None else f"not {past}"

    def _increment(self, stmt: ast.For, step: str) -> Code:
        var = self.var(stmt.var.name)
        return Code(self.store_var(stmt.var.name, f"{var} + {step}"))

    def n_ForLoop(self, node: hostir.ForLoop) -> list[Code]:
        stmt = node.stmt
        var = self.var(stmt.var.name)
        if node.counted:
            start, limit = int(signed_number(stmt.start)), int(signed_number(stmt.limit))
            step = int(signed_number(stmt.step)) if stmt.step is not None else 1
            stop = limit + 1 if step > 0 else limit - 1
            if step != 1:
                args = f"{start}, {stop}, {step}"
            else:
                args = f"{start}, {stop}" if start else str(stop)
            self.loops.append(_Loop("for"))
            body = self.block(node.body)
            self.loops.pop()
            return [Code(f"for {var} in range({args}):", body)]
        lines, limit, step, sign, step_const = self._for_setup(node, False)
        test = self._continues(var, limit, sign, step_const, node.plan.exact)
        next_stmt = self.a.stmts[node.next_index]
        increment = self.comment(hostir.Simple(next_stmt, origin=next_stmt))
        increment.append(self._increment(stmt, step))
        self.loops.append(_Loop("for", [self._increment(stmt, step)]))
        body = self.nodes(node.body)
        self.loops.pop()
        if node.plan.zero_trip_step:
            lines += self._zero_trip_step(stmt, limit, step, sign, step_const)
        return lines + [Code(f"while {test}:", body + increment)]

    def _zero_trip_step(self, stmt: ast.For, limit, step, sign, step_const) -> list[Code]:
        """Microsoft BASIC: a loop that runs zero times still adds the step once (as the
        interpreter's zero_trip_step)."""
        past = self._past(self.var(stmt.var.name), limit, sign, step_const)
        return [Code(f"if {past}:", [self._increment(stmt, step)])]

    def n_ForInit(self, node: hostir.ForInit) -> list[Code]:
        stmt = node.stmt
        lines, limit, step, sign, step_const = self._for_setup(node, True)
        past = self._past(self.var(stmt.var.name), limit, sign, step_const)
        if past is None:  # STEP 0: never past the limit
            if node.stack:
                lines.append(Code(f"{self.for_stack()}.enter({node.loop!r})"))
            return lines
        exit = self._goto(node.exit)
        if node.plan.zero_trip_step:
            exit = [self._increment(stmt, step)] + exit
        if node.stack:
            lines.append(Code(f"{self.for_stack()}.enter({node.loop!r})"))
            exit = [Code(f"{self.for_stack()}.leave()")] + exit
        return lines + [Code(f"if {past}:", exit)]

    def n_ForNext(self, node: hostir.ForNext) -> list[Code]:
        stmt = node.stmt
        limit, step, sign, step_const = self._lowered_loop(node)
        test = self._continues(self.var(stmt.var.name), limit, sign, step_const, False)
        lines = [self._increment(stmt, step), Code(f"if {test}:", self._goto(node.body))]
        if not node.stack:
            return lines
        find = Code(f"{self.for_stack()}.find({node.loop!r})")
        return [find] + lines + [Code(f"{self.for_stack()}.leave()")]

    def for_stack(self) -> str:
        """The run-time FOR stack of the loops that are not blocks."""
        self.uses_for_stack = True
        return self.for_stack_var

    def n_LoopFault(self, node: hostir.LoopFault) -> list[Code]:
        """A FOR with no NEXT (or the wrong one), a NEXT with no FOR: as the
        interpreter, a FOR evaluates its parts first (only effects can be seen)."""
        parts = (node.stmt.start, node.stmt.limit, node.stmt.step) if node.stmt else ()
        lines = [Code(self.expr.value(part)) for part in parts if has_effects(part)]
        where = f", line={node.line}" if node.line is not None else ""
        return lines + [Code(f"raise {self.need('BasicFault')}({node.message!r}{where})")]

    # ----------------------------------------------------------------- other control flow

    def n_WhileLoop(self, node: hostir.WhileLoop) -> list[Code]:
        test = "True" if node.condition is None else self.expr.cond(node.condition)
        self.loops.append(_Loop("while"))
        body = self.block(node.body)
        self.loops.pop()
        return [Code(f"while {test}:", body)]

    def n_If(self, node: hostir.If) -> list[Code]:
        origins = node.origins or [node.origin] * len(node.arms)
        out = []
        for n, ((condition, body), origin) in enumerate(zip(node.arms, origins)):
            keyword = "if" if n == 0 else "elif"
            test = self.expr.all_of([condition, *node.merged])
            header = f"{keyword} {test}:"
            if node.nan_kept:
                header += "  # noqa: PLR1730 (with NaN, max/min would differ)"
            if n > 0 and origin is not None and origin is not node.origin:
                comment = self.comment(hostir.Simple(origin, origin=origin))
                if comment:
                    header += "  " + comment[0].text  # the IF this arm's test comes from
            out.append(Code(header, self.block(body)))
        if node.else_body:
            out.append(Code("else:", self.block(node.else_body)))
        return out

    def n_Continue(self, node: hostir.Continue) -> list[Code]:
        loop = self.loops[-1]
        return list(loop.next or []) + [Code("continue")]

    def n_OnGosub(self, node: hostir.OnGosub) -> list[Code]:
        arms = [[Code(f"{self.sub_names[s]}()")] for s in node.subroutines]
        return self._on(node.selector, arms)

    def _on(self, selector: ast.Expr, arms: list[list[Code]]) -> list[Code]:
        """ON ... GOTO / GOSUB: the selector rounded as floor(x + 0.5); out of range is
        fatal, as in the interpreter.  Outside strict mode, Microsoft BASIC's rules
        (`on_choice`): an index of 0 or past the targets matches no case and goes on."""
        cases = [Code(f"case {n}:", arm) for n, arm in enumerate(arms, 1)]
        if not self.a.options.strict:
            value = self.expr.value(selector)
            return [Code(f"match {self.need('on_choice')}({value}, {len(arms)}):", cases)]
        fault = (
            f"raise {self.need('BasicFault')}({ON_OUT_OF_RANGE!r}, "
            f'f"({{{self.choice_var}}}; 1 to {len(arms)} allowed)")'
        )
        cases.append(Code(f"case {self.choice_var}:", [Code(fault)]))
        selector_text = f"{self.need('round_to_int')}({self.expr.value(selector)})"
        return [Code(f"match {selector_text}:", cases)]

    # ----------------------------------------------------------------- dispatch loops

    def _goto(self, label: str | None) -> list[Code]:
        if label is None:
            return [Code("break")]  # leave the dispatch loop
        return [Code(f"{self.label_var} = {label!r}"), Code("continue")]

    def n_OnJump(self, node: hostir.OnJump) -> list[Code]:
        if node.falls_through:  # each case jumps; no case goes on after the statement
            return self._on(node.selector, [self._goto(label) for label in node.targets])
        arms = []
        for label in node.targets:
            arms.append(
                [Code("break")] if label is None else [Code(f"{self.label_var} = {label!r}")]
            )
        return self._on(node.selector, arms) + [Code("continue")]

    def _push(self, return_to: str) -> list[Code]:
        self.uses_return_stack = True
        limit = GOSUB_DEPTH[self.a.options.strict]
        fault = f"raise {self.need('BasicFault')}({GOSUB_TOO_DEEP!r}, '({limit} levels)')"
        return [
            Code(f"if len({self.returns_var}) >= {limit}:", [Code(fault)]),
            Code(f"{self.returns_var}.append({return_to!r})"),
        ]

    def n_GosubJump(self, node: hostir.GosubJump) -> list[Code]:
        return self._push(node.return_to) + self._goto(node.target)

    def n_OnGosubJump(self, node: hostir.OnGosubJump) -> list[Code]:
        if node.falls_through:  # an index out of range goes on after the statement
            arms = [self._push(node.return_to) + self._goto(label) for label in node.targets]
            return self._on(node.selector, arms)
        arms = [[Code(f"{self.label_var} = {label!r}")] for label in node.targets]
        return self._on(node.selector, arms) + self._push(node.return_to) + [Code("continue")]

    def n_ReturnJump(self, node: hostir.ReturnJump) -> list[Code]:
        fault = Code(f"raise {self.need('BasicFault')}({RETURN_WITHOUT_GOSUB!r})")
        if not self.has_return_stack:
            return [fault]
        return [
            Code(f"if not {self.returns_var}:", [fault]),
            Code(f"{self.label_var} = {self.returns_var}.pop()"),
            Code("continue"),
        ]

    def n_Dispatch(self, node: hostir.Dispatch) -> list[Code]:
        self.loops.append(_Loop("dispatch"))
        cases = []
        for block in node.blocks:
            body = self.nodes(block.body)
            if not hostir.terminates(block.body):
                body += self._goto(node.fallthrough.get(block.label))
            while body and body[-1].text == "continue" and body[-1].body is None:
                body.pop()  # the end of a case goes round the loop anyway
            cases.append(Code(f"case {block.label!r}:", _suite(body)))
        self.loops.pop()
        start = Code(f"{self.label_var} = {node.entry!r}")
        if node.trap is not None:
            return self._trapping_dispatch(node, start, cases)
        return [start, Code("while True:", [Code(f"match {self.label_var}:", cases)])]

    def _trapping_dispatch(self, node: hostir.Dispatch, start: Code, cases: list[Code]):
        """The dispatch loop of a program with ON ERROR GOTO: a fault in a block (one
        statement) goes to the handler; running past the last line inside the handler
        is "No RESUME" (runtime/trap.py)."""
        trap, label = self.trap_var, self.label_var
        after = ", ".join(f"{k!r}: {v!r}" for k, v in node.trap.after.items())
        cases.append(Code("case _:  # past the last line", [Code("break")]))
        catch = (
            f"{label} = {trap}.catch(fault, {label}, {self.resume_var}[{label}], "
            f"{self.need('label_line')}({label}))"
        )
        handler = Code(f"except {self.need('BasicFault')} as fault:", [Code(catch)])
        loop = [Code("try:", [Code(f"match {label}:", cases)]), handler]
        return [
            Code(f"{trap} = {self.need('start_trap')}()"),
            Code("# where RESUME NEXT goes on after an error in each statement"),
            Code(f"{self.resume_var} = {{{after}}}"),
            start,
            Code("while True:", loop),
            Code(f"{trap}.finish()"),
        ]

    def n_OnErrorGoto(self, node: hostir.OnErrorGoto) -> list[Code]:
        return [Code(f"{self.trap_var}.on_error({node.handler!r})")]

    label_text = staticmethod(repr)

    def as_label(self, text: str) -> str:
        return text

    # ----------------------------------------------------------------- kernels

    def lane_body(self, nodes: list[hostir.HNode]) -> list[Code]:
        """One iteration of an offloaded loop that the host runs again (`hostir.Replay`):
        a GOTO to the loop's NEXT is a `continue` of the loop over its iterations."""
        self.loops.append(_Loop("for"))
        body = self.block(nodes)
        self.loops.pop()
        return body

    def n_ToHost(self, node: hostir.ToHost) -> list[Code]:
        return [Code(f"dev.to_host({self.expr.array(name)}.data)") for name in node.arrays]


def _tuple(items: list[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _type_of(name: str) -> str:
    return type_of_name(name)
