"""Host program nodes (`transpiler.hostir`) as C++ statements.

The C++ twin of `cutile/host_stmt.py`: the same nodes, the same decisions, the same run-
time behaviour, in C++ idiom.  The printer decides the text of every line; the template
lays the lines out (`templates/cuda/host_body.cu.jinja`) and clang-format indents.

Differences of form, each with the same effect as the Python code:
- PRINT is one chain `con.print(a).zone().print(b).newline();` (C++17 evaluates a chain
  of member calls left to right, so each item is evaluated after the one before it is
  printed, as in the interpreter).
- A FOR loop is a C++ `for` whose increment is the NEXT (so `continue` needs nothing
  first); its limit and step are `const` locals named after the variable.
- A dispatch loop is `for (Label label = L100;;) { switch (label) { case L100: ... } break; }`;
  a jump is `label = L200; continue;`, leaving the loop is `break;`.
- A statement that can end the program with an error first sets `line`, the BASIC line
  number that `main` prints with the message (the Python module finds it from its
  traceback instead).
"""

from __future__ import annotations

from ... import ast, hostir
from ...errors import BasicUnsupportedError, InternalError
from ...expr_facts import copies_itself, has_effects, signed_number
from ...expr_facts import print_operand as _print_operand
from ...hostcode.syntax import CPP
from ...model import Analysis, type_of_name
from ...naming import Namer
from ...semantics import RANDOMIZE_KINDS
from ..host_statements import HostStatements
from .code import Code
from .host_expr import ExprPrinter
from .host_procs import ProcedureStatements
from .host_text import cpp_number, cpp_std_string, cpp_string, origin_comment

GOSUB_DEPTH = {True: 256, False: 10000}  # strict ECMA-55 (bas55's), extended


class StatementPrinter(ProcedureStatements, HostStatements):
    syntax = CPP
    code = Code
    origin_comment = staticmethod(origin_comment)
    number_text = staticmethod(cpp_number)
    never_past = "false"
    end_exception = "throw b2t::EndProgram()"
    string = staticmethod(cpp_string)

    def runtime(self, name: str) -> str:
        return f"b2t::{name}"

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
        self.has_return_stack = False
        # dispatch labels in order of first use (a dict: a list was searched on each use)
        self.labels: dict[str, None] = {}
        self.uses_done_label = False
        self.tracks_lines = any(line.number is not None for line in analysis.program.lines)
        # source line -> BASIC line number
        self.line_numbers = {
            line.coord.line: line.number for line in analysis.program.lines if line.number
        }
        self.line_var = "line"
        self.trap_var = "trap"
        self.returns_var = "returns"
        self.for_stack_var = "for_stack"
        self.label_var = namer.fresh("label")
        self.reply_var = namer.fresh("reply")
        self.channel_var = namer.fresh("channel")
        # Locals of the function being printed that outlive one statement: the limits
        # and steps of loops lowered into a dispatch loop.  name -> C++ type
        self.function_locals: dict[str, str] = {}
        self.static_arrays: set[str] = set()  # allocated at the start (module printer)

    # ----------------------------------------------------------------- helpers

    def at_line(self, node: hostir.HNode, fails: bool) -> list[Code]:
        """`line = 40;` before a statement that can end the program with an error or
        report a warning (both name the line)."""
        if not fails or not self.tracks_lines:
            return []
        label = node.origin.label if node.origin is not None else None
        return [Code(f"{self.line_var} = {label if label is not None else 0};")]

    def fails(self, *exprs: ast.Expr | None) -> bool:
        """Can evaluating one of `exprs` fail or warn (report something naming its line)?"""
        return any(e is not None and _reports(self.expr.effects(e)) for e in exprs)

    def store_fails(self, target: ast.LValue) -> bool:
        """Can storing into `target` fail (a subscript, a `%` conversion, a long string)
        or warn (Microsoft BASIC: a number beyond a single's range)?"""
        kind = self.target_type(target)
        if kind == "int" or (kind == "str" and self.expr.strict):
            return True
        if self.a.options.microsoft and kind != "str":
            return True
        return isinstance(target, ast.Index) and self.fails(target)

    def assign(self, target: ast.LValue, value: str, pre: list[str]) -> list[Code]:
        """`target = value;` with the store conversion.  C++17 evaluates the value before
        the target's subscripts, as Python does (the interpreter the other way round;
        only an assignment whose subscript is out of range *and* whose value warns could
        tell, and it is fatal either way)."""
        converted = self.expr.store(value, self.target_type(target))
        if isinstance(target, ast.Var):
            return [Code(line) for line in pre] + [Code(f"{self.var(target.name)} = {converted};")]
        target_pre: list[str] = []
        element = self.expr.element(target, target_pre).text
        if target_pre:  # keep the value first
            temp = self.namer.fresh("tmp")
            pre = pre + [f"const auto {temp} = {converted};"]
            converted = temp
        lines = pre + target_pre + [f"{element} = {converted};"]
        return [Code(line) for line in lines]

    # ----------------------------------------------------------------- simple statements

    def n_Simple(self, node: hostir.Simple) -> list[Code]:
        stmt = node.stmt
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None:
            raise BasicUnsupportedError(
                f"{type(stmt).__name__} statements are not supported by the CUDA C++ backend yet",
                stmt.coord,
            )
        return method(node, stmt)

    def s_Let(self, node, stmt: ast.Let) -> list[Code]:
        pre: list[str] = []
        value = self.expr.value(stmt.value, pre)
        fails = self.fails(stmt.value) or self.store_fails(stmt.target)
        return self.at_line(node, fails) + self.assign(stmt.target, value, pre)

    def n_Evaluate(self, node: hostir.Evaluate) -> list[Code]:
        """A value that nothing reads: evaluated, and converted, for its effects only."""
        pre: list[str] = []
        value = self.expr.store(self.expr.value(node.value, pre), node.value_type)
        head = self.at_line(node, True)  # its effects are all there is: it can report
        return head + [Code(line) for line in pre] + [Code(f"static_cast<void>({value});")]

    def n_MinMax(self, node: hostir.MinMax) -> list[Code]:
        """`B = std::max(B, A)`: `A > B ? A : B` as the IF it replaces (NaN included)."""
        pre: list[str] = []
        value = self.expr.double_value(node.value, pre)
        var = self.var(node.name)
        head = self.at_line(node, self.fails(node.value)) + [Code(line) for line in pre]
        return head + [Code(f"{var} = std::{node.fn}({var}, {value});")]

    # ----------------------------------------------------------------- files, PRINT USING

    def arg(self, e: ast.Expr) -> str:
        return self.expr.value(e, None)

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(self.expr.value_code(e, None))

    def channel(self, number: ast.Expr | None) -> str:
        """What PRINT and WRITE write to: the console, or the file numbered `number`."""
        return "con" if number is None else f"b2t::file_output({self.file_number(number)})"

    def items(self, items: list[ast.Expr]) -> str:
        """`.item(a).item(b)`: each is written before the next one is evaluated."""
        texts = []
        for item in items:
            if self.a.expr_types.get(item) == "str":
                texts.append(self.expr.value(item, None))
            elif self.a.expr_types.get(item) in ("dbl", "lng"):  # Microsoft BASIC: 16 digits
                texts.append(self.expr.print_item(item, None))
            else:
                texts.append(self.expr.double_value(item, None))
        return "".join(f".item({text})" for text in texts)

    def print_using(self, node, stmt: ast.Print) -> list[Code]:
        items = [i for i in stmt.items if not isinstance(i, ast.PrintSep)]
        end = ".end();" if not isinstance(stmt.items[-1], ast.PrintSep) else ".end(false);"
        fmt = self.expr.value(stmt.using, None)
        chain = f"{self.channel(stmt.channel)}.print_using({fmt}){self.items(items)}{end}"
        return self.at_line(node, True) + [Code(chain)]  # a format can be wrong

    def s_Write(self, node, stmt: ast.Write) -> list[Code]:
        fails = stmt.channel is not None or self.fails(*stmt.items)
        chain = f"{self.channel(stmt.channel)}.write_items(){self.items(stmt.items)}.end();"
        return self.at_line(node, fails) + [Code(chain)]

    def s_Field(self, node, stmt: ast.Field) -> list[Code]:
        widths = ", ".join(self.expr.value(w, None) for w in stmt.widths)
        names = ", ".join(f'"{name}"' for name in stmt.names)
        call = f"b2t::field({self.file_number(stmt.channel)}, {{{widths}}}, {{{names}}});"
        return self.at_line(node, True) + [Code(call)]

    def s_FieldRelease(self, node, stmt: ast.FieldRelease) -> list[Code]:
        names = ", ".join(f'"{name}"' for name in stmt.names)
        return [Code(f"b2t::field_release({{{names}}});")]

    def s_Print(self, node, stmt: ast.Print) -> list[Code]:
        if stmt.using is not None:
            return self.print_using(node, stmt)
        # The chains of calls `con.print(...)...;`, and the lines an item needs first
        # between them (they run after the items before it are printed).
        parts: list[list[str] | str] = [[]]
        fails = stmt.channel is not None  # a file that is not open
        for item in stmt.items:
            if isinstance(item, ast.PrintSep):
                if item.sep == ",":
                    parts[-1].append("zone()")
                continue
            expr = _print_operand(item)
            # TAB warns about an argument below one; SPC's is out of range
            fails = fails or isinstance(item, (ast.Tab, ast.Spc)) or self.fails(expr)
            pre: list[str] = []
            if isinstance(item, (ast.Tab, ast.Spc)):
                text = self.expr.value(expr, pre)
                call = f"{type(item).__name__.lower()}({text})"
            else:
                call = f"print({self.expr.print_item(item, pre)})"
            if pre:  # what it needs first runs after the items before it are printed
                parts += [*pre, []]
            parts[-1].append(call)
        if not stmt.items or not isinstance(stmt.items[-1], ast.PrintSep):
            parts[-1].append("newline()")
        chains = [part for part in parts if isinstance(part, list) and part]
        receiver = self.channel(stmt.channel)
        head: list[Code] = []
        if stmt.channel is not None and len(chains) > 1:  # the file number is evaluated once
            head = [Code(f"b2t::Console& {self.channel_var} = {receiver};")]
            receiver = self.channel_var
        lines = head + [
            Code(f"{receiver}.{'.'.join(part)};") if isinstance(part, list) else Code(part)
            for part in parts
            if part
        ]
        return self.at_line(node, fails) + ([Code("", lines)] if head else lines)

    def s_Input(self, node, stmt: ast.Input) -> list[Code]:
        kinds = [
            "b2t::STRING" if self.target_type(t) == "str" else "b2t::NUMBER" for t in stmt.targets
        ]
        args = "{" + ", ".join(kinds) + "}"
        if stmt.channel is not None and stmt.line:
            line = f"b2t::file_line({self.file_number(stmt.channel)})"
            return self.at_line(node, True) + self.assign(stmt.targets[0], line, [])
        if stmt.channel is not None:
            call = f"b2t::file_input({self.file_number(stmt.channel)}, {args})"
        elif stmt.prompt is not None:
            args = f"{cpp_std_string(stmt.prompt)}, {args}"
            if not stmt.question or stmt.stay:
                args += f", {_cpp_bool(stmt.question)}, {_cpp_bool(stmt.stay)}"
            call = f"con.input({args})"
        else:
            call = f"con.input({args}{', true' if stmt.stay else ''})"
        head = self.at_line(node, True)  # end of input is fatal
        fields = [".text" if k == "b2t::STRING" else ".number" for k in kinds]
        if len(stmt.targets) == 1:
            return head + self.assign(stmt.targets[0], f"{call}[0]{fields[0]}", [])
        body = [Code(f"const auto {self.reply_var} = {call};")]
        for n, (target, field_name) in enumerate(zip(stmt.targets, fields)):
            body += self.assign(target, f"{self.reply_var}[{n}]{field_name}", [])
        return head + [Code("", body)]

    def s_LineInput(self, node, stmt: ast.LineInput) -> list[Code]:
        prompt = cpp_std_string(stmt.prompt) if stmt.prompt is not None else '""'
        call = f"con.line_input({prompt}{', true' if stmt.stay else ''})"
        return self.at_line(node, True) + self.assign(stmt.target, call, [])  # end of input

    def s_Swap(self, node, stmt: ast.Swap) -> list[Code]:
        # std::swap binds both places before either changes (`SWAP I, A(I)`).
        pre: list[str] = []
        first = self._place(stmt.first, pre)
        second = self._place(stmt.second, pre)
        fails = self.fails(stmt.first, stmt.second)
        lines = [Code(line) for line in pre] + [Code(f"std::swap({first}, {second});")]
        return self.at_line(node, fails) + lines

    def s_ChangeToString(self, node, stmt: ast.ChangeToString) -> list[Code]:
        value = f"b2t::change_to_string({self.expr.array(stmt.array.name)})"
        return self.at_line(node, True) + self.assign(stmt.target, value, [])

    def s_MidAssign(self, node, stmt: ast.MidAssign) -> list[Code]:
        pre: list[str] = []
        target = self._place(stmt.target, pre)
        args = [self.expr.value(stmt.start, pre)]
        if stmt.count is not None:
            args.append(self.expr.value(stmt.count, pre))
        function = "b2t::mid_assign_itself" if copies_itself(stmt) else "b2t::mid_assign"
        if not copies_itself(stmt):
            args.append(self.expr.value(stmt.value, pre))
        head = self.at_line(node, True)  # a start or count out of range
        if isinstance(stmt.target, ast.Var):
            call = f"{function}({target}, {', '.join(args)})"
            return head + [Code(line) for line in pre] + [Code(f"{target} = {call};")]
        # An element: found once, before the arguments are evaluated.
        place = self.namer.fresh("place")
        call = f"{function}({place}, {', '.join(args)})"
        lines = [f"std::string& {place} = {target};", *pre, f"{place} = {call};"]
        return head + [Code("", [Code(line) for line in lines])]

    def _place(self, target: ast.LValue, pre: list[str]) -> str:
        if isinstance(target, ast.Var):
            return self.var(target.name)
        return self.expr.element(target, pre).text

    def s_Read(self, node, stmt: ast.Read) -> list[Code]:
        out = self.at_line(node, True)  # reading past the data is fatal
        for t in stmt.targets:
            reader = "data.read_string()" if self.target_type(t) == "str" else "data.read_number()"
            out += self.assign(t, reader, [])
        return out

    def s_Fault(self, node, stmt: ast.Fault) -> list[Code]:
        return self.at_line(node, True) + [Code(f"throw b2t::Fault({cpp_string(stmt.message)});")]

    def s_Randomize(self, node, stmt: ast.Randomize) -> list[Code]:
        # fatal only for a BASIC2TILE_SEED that is not a number (or GW-BASIC's seed reply)
        head = self.at_line(node, True)
        if stmt.seed is not None:
            pre: list[str] = []
            seed = self.expr.value(stmt.seed, pre)
            kind = RANDOMIZE_KINDS[self.a.expr_types[stmt.seed]]
            return (
                head + [Code(line) for line in pre] + [Code(f'b2t::RANDOMIZE({seed}, "{kind}");')]
            )
        if self.a.options.microsoft:  # GW-BASIC asks for the seed
            return head + [Code('b2t::RANDOMIZE(con.ask_seed(), "int");')]
        return head + [Code("b2t::RANDOMIZE();")]

    def s_Dim(self, node, stmt: ast.Dim) -> list[Code]:
        out = []
        for decl in stmt.arrays:
            if decl.name in self.static_arrays:
                continue  # allocated when the program starts
            bounds = ", ".join(self.expr.double_value(b, None) for b in decl.bounds)
            out.append(Code(f"{self.expr.array(decl.name)}.allocate({{{bounds}}});"))
        return self.at_line(node, bool(out)) + out

    def s_Erase(self, node, stmt: ast.Erase) -> list[Code]:
        redim = "true" if stmt.redim else ""
        out = [Code(f"{self.expr.array(name)}.erase({redim});") for name in stmt.names]
        return self.at_line(node, True) + out

    # ----------------------------------------------------------------- MAT statements

    def _reshape(self, name: str, bounds: list[ast.Expr]) -> list[Code]:
        dims = ", ".join(self.expr.double_value(b, None) for b in bounds)
        return [Code(f"{self.expr.array(name)}.reshape({{{dims}}});")]

    def s_MatRead(self, node, stmt: ast.MatRead) -> list[Code]:
        return self._mat_fill_from(node, stmt, "b2t::mat_read", "data")

    def s_MatInput(self, node, stmt: ast.MatInput) -> list[Code]:
        return self._mat_fill_from(node, stmt, "b2t::mat_input", "con")

    def _mat_fill_from(self, node, stmt, helper: str, source: str) -> list[Code]:
        out = self.at_line(node, True)
        for decl in stmt.arrays:
            if decl.bounds:
                out += self._reshape(decl.name, decl.bounds)
            out.append(Code(f"{helper}({self.expr.array(decl.name)}, {source});"))
        return out

    def s_MatPrint(self, node, stmt: ast.MatPrint) -> list[Code]:
        out: list[Code] = []
        for k, name in enumerate(stmt.names):
            if k > 0:
                out.append(Code("con.newline();"))  # a blank line between two arrays
            zoned = (stmt.seps[k] if k < len(stmt.seps) else None) != ";"
            call = f"b2t::mat_print(con, {self.expr.array(name)}, {'true' if zoned else 'false'});"
            out.append(Code(call))
        return self.at_line(node, False) + out

    def s_MatAssign(self, node, stmt: ast.MatAssign) -> list[Code]:
        value = stmt.value
        target = self.expr.array(stmt.target)
        out = self.at_line(node, True)
        if isinstance(value, ast.MatFill):
            if value.dims:
                out += self._reshape(stmt.target, value.dims)
            if value.name == "IDN":
                return out + [Code(f"b2t::mat_identity({target});")]
            fill = "1.0" if value.name == "CON" else "0.0"
            return out + [Code(f"b2t::mat_fill({target}, {fill});")]
        if isinstance(value, ast.MatScale):
            pre: list[str] = []
            factor = self.expr.value(value.factor, pre)
            source = self.expr.array(value.matrix.name)
            call = f"b2t::mat_scale({target}, {factor}, {source});"
            return out + [Code(line) for line in pre] + [Code(call)]
        if isinstance(value, ast.MatFunc):
            helper = "b2t::mat_transpose" if value.name == "TRN" else "b2t::mat_inverse"
            return out + [Code(f"{helper}({target}, {self.expr.array(value.arg.name)});")]
        if isinstance(value, ast.MatBin):
            helper = {"+": "b2t::mat_add", "-": "b2t::mat_sub", "*": "b2t::mat_mul"}[value.op]
            left, right = self.expr.array(value.left.name), self.expr.array(value.right.name)
            return out + [Code(f"{helper}({target}, {left}, {right});")]
        return out + [Code(f"b2t::mat_copy({target}, {self.expr.array(value.name)});")]

    # ----------------------------------------------------------------- FOR loops

    def _for_name(self, stmt: ast.For, role: str, for_index: int, lowered: bool = True) -> str:
        """`i_limit`, `i_step`...: one name per FOR statement and role (lowered or not)."""
        key = (role, for_index)
        if key not in self._for_names:
            self._for_names[key] = self.namer.fresh(f"{self.var(stmt.var.name)}_{role}")
        return self._for_names[key]

    def _for_setup(self, node: hostir.ForLoop | hostir.ForInit, lowered: bool):
        """Lines evaluating start, limit and step once (ECMA-55 11.4, in the
        interpreter's order: start, limit, step), the texts of start, limit and step, and
        the sign's name, as the node's plan says.  `lowered`: the names are locals of the
        function (a dispatch loop's blocks share them), else `const` locals declared here."""
        stmt, for_index, plan = node.stmt, node.for_index, node.plan
        lines: list[Code] = []

        def define(role: str, value: str, ctype: str) -> str:
            name = self._for_name(stmt, role, for_index)
            if lowered:
                self.function_locals[name] = ctype
                lines.append(Code(f"{name} = {value};"))
            else:
                lines.append(Code(f"const {ctype} {name} = {value};"))
            return name

        pre: list[str] = []
        start = self.expr.value(stmt.start, pre)
        limit_const, step_const = plan.limit, plan.step
        lines += [Code(line) for line in pre]
        if plan.start_first:
            start = define("start", start, "double")
        if limit_const is not None:
            limit = cpp_number(limit_const)
        else:
            pre = []
            value = self.expr.value(stmt.limit, pre)
            lines += [Code(line) for line in pre]
            limit = define("limit", value, "double")
        sign = None
        if step_const is not None:
            step = cpp_number(step_const)
        else:
            pre = []
            value = self.expr.value(stmt.step, pre)
            lines += [Code(line) for line in pre]
            step = define("step", value, "double")
            sign = define("sign", f"{step} > 0.0 ? 1.0 : ({step} < 0.0 ? -1.0 : 0.0)", "double")
        return lines, start, limit, step, sign, step_const

    def _continues(self, var: str, limit: str, sign, step_const, exact: bool) -> str:
        """The loop goes on while not (v - limit) * SGN(step) > 0 (ECMA-55 11.4).
        `exact`: the variable and the limit cannot be NaN, so `<=` says the same."""
        if step_const is None:
            return f"!(({var} - {limit}) * {sign} > 0.0)"
        if step_const > 0:
            return f"{var} <= {limit}" if exact else f"!({var} > {limit})"
        if step_const < 0:
            return f"{var} >= {limit}" if exact else f"!({var} < {limit})"
        return "true"

    def _increment(self, stmt: ast.For, step: str) -> str:
        var = self.var(stmt.var.name)
        kind = _type_of(stmt.var.name)
        if kind == "int":
            return f"{var} = {self.expr.store(f'{var} + {step}', kind)}"
        return f"{var} += {step}"  # in double, then rounded to the variable's type

    def _start(self, stmt: ast.For, start: str) -> str:
        return f"{self.var(stmt.var.name)} = {self.expr.store(start, _type_of(stmt.var.name))}"

    def n_ForLoop(self, node: hostir.ForLoop) -> list[Code]:
        stmt = node.stmt
        var = self.var(stmt.var.name)
        next_stmt = self.a.stmts[node.next_index]
        if node.counted:
            start, limit = int(signed_number(stmt.start)), int(signed_number(stmt.limit))
            step = int(signed_number(stmt.step)) if stmt.step is not None else 1
            test = f"{var} <= {limit}" if step > 0 else f"{var} >= {limit}"
            increment = {1: f"++{var}", -1: f"--{var}"}.get(step, f"{var} += {step}")
            body = self.nodes(node.body)
            body += self.comment(hostir.Simple(next_stmt, origin=next_stmt))
            return [Code(f"for ({var} = {start}; {test}; {increment})", body)]
        fails = self.fails(stmt.start, stmt.limit, stmt.step) or _type_of(stmt.var.name) == "int"
        lines, start, limit, step, sign, step_const = self._for_setup(node, False)
        test = self._continues(var, limit, sign, step_const, node.plan.exact)
        body = ([] if node.ends else [_PROGRESS]) + self.nodes(node.body)
        body += self.comment(hostir.Simple(next_stmt, origin=next_stmt))
        first = self._start(stmt, start)
        if node.plan.zero_trip_step:
            # a loop that runs zero times still adds the step once (as the interpreter's
            # zero_trip_step)
            past = self._past(var, limit, sign, step_const)
            increment = Code(self._increment(stmt, step) + ";")
            lines += [Code(first + ";"), Code(f"if ({past})", [increment])]
            first = ""
        increment = self._increment(stmt, step)
        if _type_of(stmt.var.name) == "int" and self.tracks_lines:
            # a `%` variable's step can overflow: the error names the NEXT's line
            increment = f"{self.line_var} = {next_stmt.label or 0}, {increment}"
        header = f"for ({first}; {test}; {increment})"
        return self.at_line(node, fails) + lines + [Code(header, body)]

    def n_ForInit(self, node: hostir.ForInit) -> list[Code]:
        stmt = node.stmt
        fails = self.fails(stmt.start, stmt.limit, stmt.step) or _type_of(stmt.var.name) == "int"
        lines, start, limit, step, sign, step_const = self._for_setup(node, True)
        past = self._past(self.var(stmt.var.name), limit, sign, step_const)
        lines.append(Code(self._start(stmt, start) + ";"))
        exit = self._goto(node.exit)
        if node.plan.zero_trip_step:  # a loop that runs zero times still adds the step
            exit = [Code(self._increment(stmt, step) + ";")] + exit
        if node.stack:
            self.uses_for_stack = True
            lines.append(Code(f"{self.for_stack_var}.enter({cpp_string(node.loop)});"))
            exit = [Code(f"{self.for_stack_var}.leave();")] + exit
        return self.at_line(node, fails) + lines + [Code(f"if ({past})", exit)]

    def n_ForNext(self, node: hostir.ForNext) -> list[Code]:
        stmt = node.stmt
        limit, step, sign, step_const = self._lowered_loop(node)
        test = self._continues(self.var(stmt.var.name), limit, sign, step_const, False)
        head = self.at_line(node, node.stack or _type_of(stmt.var.name) == "int")
        lines = [
            Code(self._increment(stmt, step) + ";"),
            Code(f"if ({test})", self._goto(node.body)),
        ]
        if not node.stack:
            return head + lines
        self.uses_for_stack = True
        find = Code(f"{self.for_stack_var}.find({cpp_string(node.loop)});")
        return head + [find] + lines + [Code(f"{self.for_stack_var}.leave();")]

    def n_LoopFault(self, node: hostir.LoopFault) -> list[Code]:
        """A FOR with no NEXT (or the wrong one), a NEXT with no FOR: as the
        interpreter, a FOR evaluates its parts first (only effects can be seen)."""
        lines: list[Code] = []
        parts = (node.stmt.start, node.stmt.limit, node.stmt.step) if node.stmt else ()
        for part in parts:
            if has_effects(part):
                pre: list[str] = []
                value = self.expr.value(part, pre)
                lines += [Code(line) for line in pre] + [Code(f"static_cast<void>({value});")]
        where = f".in_line({node.line})" if node.line is not None else ""
        fault = Code(f"throw b2t::Fault({cpp_string(node.message)}){where};")
        return self.at_line(node, True) + lines + [fault]

    # ----------------------------------------------------------------- other control flow

    def n_WhileLoop(self, node: hostir.WhileLoop) -> list[Code]:
        if node.condition is None:
            return [Code("while (true)", [_PROGRESS] + self.nodes(node.body))]
        pre: list[str] = []
        test = self.expr.cond(node.condition, pre)
        track = self.at_line(node, self.fails(node.condition))
        if not pre and not track:
            return [Code(f"while ({test})", [_PROGRESS] + self.nodes(node.body))]
        # The test needs lines first, each time: at the top of an endless loop.
        leave = Code(f"if ({_negated(test)})", [Code("break;")])
        check = track + [Code(line) for line in pre] + [leave]
        return [Code("while (true)", [_PROGRESS] + check + self.nodes(node.body))]

    def n_If(self, node: hostir.If) -> list[Code]:
        out: list[Code] = []
        head: list[Code] = []
        for n, (condition, body) in enumerate(node.arms):
            pre: list[str] = []
            if n == 0:
                test = self.expr.all_of([condition, *node.merged], pre, self._line_if_fails)
                head = self.at_line(node, self.fails(condition)) + [Code(line) for line in pre]
                out.append(Code(f"if ({test})", self.nodes(body)))
                continue
            test = self.expr.cond(condition, pre)
            # An ELSE IF test cannot have lines before it: they go in a lambda.
            track = self._line_of(condition) if self.fails(condition) else []
            lines = [c.text for c in track] + pre
            if lines:
                test = f"[&] {{ {' '.join(lines)} return {test}; }}()"
            out.append(Code(f"else if ({test})", self.nodes(body)))
        if node.else_body:
            out.append(Code("else", self.nodes(node.else_body)))
        return head + out

    def _line_if_fails(self, e: ast.Expr) -> list[str]:
        """`line = N;` for a condition that can fail or warn (its message names N)."""
        return [c.text for c in self._line_of(e)] if self.fails(e) else []

    def _line_of(self, e: ast.Expr) -> list[Code]:
        """`line = N;` for the BASIC line holding expression `e`."""
        if not self.tracks_lines:
            return []
        number = self.line_numbers.get(e.coord.line, 0)
        return [Code(f"{self.line_var} = {number};")]

    def n_Continue(self, node: hostir.Continue) -> list[Code]:
        return [Code("continue;")]  # a C++ `for` runs its increment (the NEXT) first

    def n_OnGosub(self, node: hostir.OnGosub) -> list[Code]:
        arms = [[Code(f"{self.sub_names[s]}();")] for s in node.subroutines]
        return self._on(node, node.selector, arms)

    def _on(self, node, selector: ast.Expr, arms: list[list[Code]]) -> list[Code]:
        """ON ... GOTO / GOSUB: the selector rounded as floor(x + 0.5); out of range is
        fatal, as in the interpreter (b2t::on_index).  Outside strict mode, Microsoft
        BASIC's rules (b2t::on_choice): 0 or past the targets matches no case, goes on."""
        pre: list[str] = []
        value = self.expr.value(selector, pre)
        cases = [
            Code(f"case {n}:", arm + _break_unless_jumping(arm), braces=False)
            for n, arm in enumerate(arms, 1)
        ]
        choose = "on_index" if self.a.options.strict else "on_choice"
        switch = Code(f"switch (b2t::{choose}({value}, {len(arms)}))", cases)
        return self.at_line(node, True) + [Code(line) for line in pre] + [switch]

    # ----------------------------------------------------------------- dispatch loops

    def label(self, label: str | None) -> str:
        if label is None:
            self.uses_done_label = True
            return "DONE"
        name = "L" + label.replace(":", "_")
        self.labels.setdefault(name)
        return name

    def _goto(self, label: str | None) -> list[Code]:
        if label is None:
            return [Code("break;")]  # leave the switch, then the dispatch loop
        return [Code(f"{self.label_var} = {self.label(label)};"), Code("continue;")]

    def n_OnJump(self, node: hostir.OnJump) -> list[Code]:
        arms = [[Code(f"{self.label_var} = {self.label(t)};")] for t in node.targets]
        if node.falls_through:  # each case jumps; no case goes on after the statement
            return self._on(node, node.selector, [arm + [Code("continue;")] for arm in arms])
        return self._on(node, node.selector, arms) + [Code("continue;")]

    def _push(self, return_to: str) -> list[Code]:
        return [Code(f"{self.returns_var}.push({self.label(return_to)});")]

    def n_GosubJump(self, node: hostir.GosubJump) -> list[Code]:
        return self.at_line(node, True) + self._push(node.return_to) + self._goto(node.target)

    def n_OnGosubJump(self, node: hostir.OnGosubJump) -> list[Code]:
        arms = [[Code(f"{self.label_var} = {self.label(t)};")] for t in node.targets]
        if node.falls_through:  # an index out of range goes on after the statement
            jumps = [arm + self._push(node.return_to) + [Code("continue;")] for arm in arms]
            return self._on(node, node.selector, jumps)
        return (
            self._on(node, node.selector, arms) + self._push(node.return_to) + [Code("continue;")]
        )

    def n_ReturnJump(self, node: hostir.ReturnJump) -> list[Code]:
        head = self.at_line(node, True)
        if not self.has_return_stack:
            return head + [Code("throw b2t::Fault(b2t::RETURN_WITHOUT_GOSUB);")]
        pop = f"{self.label_var} = static_cast<Label>({self.returns_var}.pop());"
        return head + [Code(pop), Code("continue;")]

    def n_Dispatch(self, node: hostir.Dispatch) -> list[Code]:
        first = len(self.labels)
        for block in node.blocks:  # the enumerators in block order
            self.label(block.label)
        cases = []
        for block in node.blocks:
            body = self.nodes(block.body)
            if not hostir.terminates(block.body):
                body += self._goto(node.fallthrough.get(block.label))
            if node.trap is not None:  # ERL, and the line of an error the trap does not take
                body = _after_comments(body, Code(f"{self.line_var} = {_label_line(block.label)};"))
            cases.append(Code(f"case {self.label(block.label)}:", body))
        cases.append(
            Code("default:  // DONE, or a block of another loop", [Code("break;")], braces=False)
        )
        switch = Code(f"switch ({self.label_var})", cases)
        head = f"for (Label {self.label_var} = {self.label(node.entry)};;)"
        if node.trap is not None:
            return self._trapping_dispatch(node, first, head, switch)
        return [Code(head, [_PROGRESS, switch, Code("break;")])]

    def _trapping_dispatch(self, node: hostir.Dispatch, first: int, head: str, switch: Code):
        """The dispatch loop of a program with ON ERROR GOTO: a fault in a block (one
        statement) goes to the handler; running past the last line inside the handler
        is "No RESUME" (b2t::ErrorTrap).  `resume_next` is indexed by the enumerators,
        which are this loop's blocks in order (a trapping program has no other loop)."""
        if first != 0:
            raise InternalError("a trapping dispatch loop must hold the first labels")
        after = ", ".join(self.label(node.trap.after[block.label]) for block in node.blocks)
        label = self.label_var
        catch = (
            f"{label} = static_cast<Label>({self.trap_var}.catch_fault(fault, {label}, "
            f"resume_next[{label}], {self.line_var}));"
        )
        handler = Code("catch (const b2t::Fault& fault)", [Code(catch), Code("continue;")])
        return [
            Code(f"b2t::ErrorTrap& {self.trap_var} = b2t::error_trap();"),
            Code("// where RESUME NEXT goes on after an error in each statement"),
            Code(f"static constexpr Label resume_next[] = {{{after}}};"),
            Code(head, [_PROGRESS, Code("try", [switch]), handler, Code("break;")]),
            Code(f"{self.trap_var}.finish();"),
        ]

    def n_OnErrorGoto(self, node: hostir.OnErrorGoto) -> list[Code]:
        handler = self.label(node.handler) if node.handler is not None else "-1"
        return [Code(f"{self.trap_var}.on_error({handler}, {self.line_var});")]

    def label_text(self, label: str) -> str:
        return self.label(label)

    def as_label(self, text: str) -> str:
        return f"static_cast<Label>({text})"

    # ----------------------------------------------------------------- kernels

    def n_ToHost(self, node: hostir.ToHost) -> list[Code]:
        return self.kernels.to_host(node)


# In each iteration of a loop that may never end: C++ lets a compiler assume that a loop
# without I/O, volatile or atomic operations ends (and delete it), BASIC does not.
_PROGRESS = Code("b2t::forward_progress();")


def _type_of(name: str) -> str:
    return type_of_name(name)


def _reports(effects) -> bool:
    return effects.fails or bool(effects.warnings)


def _after_comments(body: list[Code], line: Code) -> list[Code]:
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


def _cpp_bool(value: bool) -> str:
    return "true" if value else "false"


def _negated(test: str) -> str:
    """`!(test)`; for a test that is itself `!(x)` or `!x`, just x (not `!(!(x))`)."""
    if test.startswith("!") and test[1:].isidentifier():
        return test[1:]
    if test.startswith("!(") and _closing_bracket(test, 1) == len(test) - 1:
        return test[2:-1]
    return f"!({test})"


def _closing_bracket(text: str, start: int) -> int:
    """Where the bracket opened at `start` closes in C++ `text` (literals skipped), or -1."""
    depth, quote, escaped = 0, "", False
    for at in range(start, len(text)):
        ch = text[at]
        if quote:
            if ch == quote and not escaped:
                quote = ""
            escaped = ch == "\\" and not escaped
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return at
    return -1


def _break_unless_jumping(arm: list[Code]) -> list[Code]:
    """The `break;` that ends a case of a switch, unless the case jumps away."""
    return [] if arm and arm[-1].text == "continue;" else [Code("break;")]
