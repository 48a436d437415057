"""The flat statement list to one Python module, compiled once per run.

Layout of the generated source (see `regions.py` for what a block is)::

    def _program():
        v_X = 0.0                 # every simple variable, FOR limit... is a local of
        a_A = r_A.data            # _program, shared by the functions below as a cell
        def fn_FNA(p_X):          # one function per DEF FN
            return ...
        class _Blocks:
            def _b0():            # one function per leader: runs to the next leader
                nonlocal v_X
                ...
                return 7          # the index of the next statement to run
            ...
            table = {0: _b0, 7: _b7, ...}
        return _Blocks.table

A block function returns a statement index, -1 for RETURN, or -2 to end the program.
The block functions are defined in a class body so that their names are not locals of
`_program`: CPython's compiler copies the names bound in the enclosing functions for
each nested function, which made compiling 25,000 blocks 40 times slower than 6,250.
Every generated line is mapped back to the statement it came from (`line_stmt`), so
that run-time errors and warnings can be located from a traceback or a frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import ast
from ..ir.model import Analysis, type_of_name
from ..ir.statement_facts import facts_of, runtime_arguments
from ..language.expr_facts import copies_itself, signed_number
from ..language.semantics import RANDOMIZE_KINDS
from . import names
from .expressions import ExprCompiler, StoreConversion, Temps, number_literal
from .microsoft import MicrosoftExprCompiler
from .regions import Regions

RETURN = -1  # block result: RETURN
END = -2  # block result: END, STOP, or the end of the program
PAST_END = -3  # block result in a program that traps errors: it ran past its last line


@dataclass
class CompiledSource:
    text: str
    line_stmt: list[int]  # Python line number (1-based; index 0 unused) -> statement index
    block_names: dict[int, str]  # leader index -> function name


def static_arrays(analysis: Analysis) -> set[str]:
    """Arrays whose shape is known when compiling and never changes."""
    return {
        name
        for name, symbol in analysis.arrays.items()
        if symbol.upper is not None and not symbol.redimensioned
    }


class _Function:
    """The lines of one generated function, with the cells it assigns."""

    def __init__(self, header: str, indent: int):
        self.header = header
        self.indent = indent
        self.lines: list[tuple[str, int]] = []
        self.assigned: set[str] = set()


class Generator:
    def __init__(self, analysis: Analysis, regions: Regions):
        self.a = analysis
        self.regions = regions
        self.stmts = analysis.stmts
        self.static = static_arrays(analysis)
        self.temps = Temps()
        compiler = MicrosoftExprCompiler if analysis.options.microsoft else ExprCompiler
        self.exprs = compiler(analysis, self.static, self.temps)
        self.store = StoreConversion(analysis)
        self.count_steps = analysis.options.max_steps is not None
        self.cells: dict[str, str] = {}  # cell name -> initial value text
        self.fn: _Function | None = None
        self.current = -1  # the statement being emitted
        # structured FOR index -> its step text, for GOTOs compiled as `continue`
        self.loop_steps: dict[int, str] = {}
        # structured FOR index -> (shadow local, integer step) when it has a shadow
        self.loop_shadows: dict[int, tuple[str, int]] = {}
        for name, var in analysis.variables.items():
            self.cells[names.variable(name)] = "''" if var.type == "str" else "0.0"

    # ----------------------------------------------------------------- output helpers

    def line(self, depth: int, text: str) -> None:
        self.fn.lines.append(("    " * depth + text, self.current))

    def assign_cell(self, name: str) -> None:
        self.fn.assigned.add(name)

    # ----------------------------------------------------------------- whole program

    def generate(self) -> CompiledSource:
        functions = [self.user_function(name, fn) for name, fn in self.a.functions.items()]
        blocks: list[_Function] = []
        leaders = self.regions.ordered_leaders()
        block_names: dict[int, str] = {}
        n = len(self.stmts)
        for position, leader in enumerate(leaders):
            if leader >= n:
                continue
            end = leaders[position + 1] if position + 1 < len(leaders) else n
            name = f"_b{leader}"
            block_names[leader] = name
            self.fn = _Function(f"def {name}():", 1)
            self.current = leader
            self.steps(2, self.count_sequence(leader, end))
            self.sequence(leader, end, 2)
            self.current = end - 1
            self.line(2, f"return {self.fallthrough(end)}")
            blocks.append(self.fn)
        return self.assemble(functions, blocks, block_names)

    def assemble(
        self, functions: list[_Function], blocks: list[_Function], block_names: dict[int, str]
    ) -> CompiledSource:
        out: list[str] = ["def _program():"]
        line_stmt: list[int] = [-1, -1]
        for cell, initial in self.cells.items():
            out.append(f"    {cell} = {initial}")
            line_stmt.append(-1)
        for array in self.a.arrays:
            obj = names.array_object(array)
            out.append(f"    {obj} = _arrays[{array!r}]")
            out.append(f"    {names.array_data(array)} = {obj}.data")
            line_stmt += [-1, -1]
            if array not in self.static:
                out.append(f"    {self.index_cells(array)} = {obj}.index_cells()")
                line_stmt.append(-1)
        if self.count_steps:
            out.append("    _steps = 0")
            line_stmt.append(-1)
        for fn in functions:
            self.emit_function(fn, "", out, line_stmt)
        out.append("    class _Blocks:")
        line_stmt.append(-1)
        for fn in blocks:
            self.emit_function(fn, "    ", out, line_stmt)
        table = ", ".join(f"{index}: {name}" for index, name in block_names.items())
        out += [f"        table = {{{table}}}", "    return _Blocks.table"]
        line_stmt += [-1, -1]
        return CompiledSource("\n".join(out) + "\n", line_stmt, block_names)

    @staticmethod
    def emit_function(fn: _Function, indent: str, out: list[str], line_stmt: list[int]) -> None:
        out.append(indent + "    " + fn.header)
        line_stmt.append(fn.lines[0][1] if fn.lines else -1)
        if fn.assigned:
            out.append(indent + "        nonlocal " + ", ".join(sorted(fn.assigned)))
            line_stmt.append(-1)
        for text, stmt in fn.lines:
            out.append(indent + text)
            line_stmt.append(stmt)

    def index_cells(self, array: str) -> str:
        rank = self.a.arrays[array].rank
        cells = [names.array_limit(array, d) for d in range(rank)]
        cells += [names.array_stride(array, d) for d in range(rank)]
        cells.append(names.array_offset(array))
        for cell in cells:
            self.cells.setdefault(cell, "0")
        return ", ".join(cells)

    def refresh_shape(self, depth: int, array: str) -> None:
        """After a statement that may change an array's shape: reload its index cells."""
        if array in self.static:
            return
        text = self.index_cells(array)
        for cell in text.split(", "):
            self.assign_cell(cell)
        self.line(depth, f"{text} = {names.array_object(array)}.index_cells()")

    def user_function(self, name: str, fn) -> _Function:
        params = [names.parameter(p) for p in fn.params]
        self.fn = _Function(f"def {names.function(name)}({', '.join(params)}):", 1)
        self.current = fn.index
        self.exprs.params = dict(zip(fn.params, params))
        body = self.store.convert(self.exprs.value(fn.body), fn.result_type)
        self.exprs.params = {}
        self.line(2, f"return {body}")
        return self.fn

    # ----------------------------------------------------------------- sequences

    def fallthrough(self, end: int) -> int:
        """Where control goes when it runs past the statement before `end`."""
        if end >= len(self.stmts):
            return PAST_END if self.a.traps_errors else END
        stmt = self.stmts[end]
        if isinstance(stmt, (ast.ElseIf, ast.Else)):
            # the end of a branch of an unstructured IF: skip the other branches
            return self.a.if_parts[self.a.block_if_of[end]].endif_index + 1
        return end

    def count_sequence(self, start: int, end: int) -> int:
        """Statements run by one pass over [start, end) without entering blocks."""
        count = 0
        i = start
        while i < end:
            count += 1
            if i in self.regions.structured:
                i = self.closer(i)
            i += 1
        return count

    def steps(self, depth: int, count: int) -> None:
        if self.count_steps and count:
            self.assign_cell("_steps")
            self.line(depth, f"_steps += {count}")
            self.line(depth, f"if _steps > {self.a.options.max_steps}: _step_limit()")

    def closer(self, opener: int) -> int:
        if opener in self.a.for_next:
            return self.a.for_next[opener]
        if opener in self.a.while_wend:
            return self.a.while_wend[opener]
        return self.a.if_parts[opener].endif_index

    def sequence(self, start: int, end: int, depth: int) -> None:
        """Emit statements [start, end) at `depth`."""
        i = start
        emitted = False
        while i < end:
            self.current = i
            stmt = self.stmts[i]
            if i in self.regions.structured:
                if isinstance(stmt, ast.For):
                    self.structured_for(i, depth)
                elif isinstance(stmt, ast.While):
                    self.structured_while(i, depth)
                else:
                    self.structured_if(i, depth)
                i = self.closer(i) + 1
                emitted = True
                continue
            if isinstance(stmt, ast.Else) and i != start:
                # reached by falling out of the THEN branch of an unstructured IF
                self.line(depth, f"return {self.a.if_parts[self.a.block_if_of[i]].endif_index + 1}")
            else:
                self.statement(i, stmt, depth)
            emitted = True
            i += 1
        if not emitted:
            self.line(depth, "pass")

    # ----------------------------------------------------------------- structured blocks

    def for_setup(self, index: int, stmt: ast.For, depth: int, cells: bool):
        """Evaluate start, limit and step (in that order, once) and assign the variable.
        Returns (limit text, step text, sign text or None, step constant or None)."""
        var = names.variable(stmt.var.name)
        start = self.temps.new()
        self.line(depth, f"{start} = {self.exprs.value(stmt.start)}")
        limit = signed_number(stmt.limit)
        if limit is not None:
            limit_text = number_literal(limit)
        else:
            limit_text = names.for_limit(index) if cells else f"_lim{index}"
            if cells:
                self.assign_cell(limit_text)
                self.cells.setdefault(limit_text, "0.0")
            self.line(depth, f"{limit_text} = {self.exprs.value(stmt.limit)}")
        step = signed_number(stmt.step) if stmt.step is not None else 1.0
        sign_text = None
        if step is not None:
            step_text = number_literal(step)
        else:
            step_text = names.for_step(index)
            sign_text = names.for_sign(index)
            if cells:
                for cell in (step_text, sign_text):
                    self.assign_cell(cell)
                    self.cells.setdefault(cell, "0.0")
            self.line(depth, f"{step_text} = {self.exprs.value(stmt.step)}")
            self.line(
                depth,
                f"{sign_text} = 1.0 if {step_text} > 0.0 else (-1.0 if {step_text} < 0.0 else 0.0)",
            )
        self.assign_var(depth, stmt.var.name, start)
        self.assign_cell(var)
        return limit_text, step_text, sign_text, step

    def loop_continues(self, var: str, limit: str, sign: str | None, step) -> str:
        """ECMA-55 11.4: the loop ends when (v - limit) * SGN(step) > 0."""
        if step is None:
            return f"not ({var} - {limit}) * {sign} > 0.0"
        if step > 0:
            return f"not {var} > {limit}"
        if step < 0:
            return f"not {var} < {limit}"
        return "True"

    def increment(self, depth: int, for_index: int, step_text: str) -> None:
        stmt: ast.For = self.stmts[for_index]
        var = names.variable(stmt.var.name)
        value = self.store.convert(f"{var} + {step_text}", _var_type(stmt.var.name))
        self.assign_cell(var)
        self.line(depth, f"{var} = {value}")
        if for_index in self.loop_shadows:
            shadow, step = self.loop_shadows[for_index]
            self.line(depth, f"{shadow} += {step}")

    def structured_for(self, index: int, depth: int) -> None:
        stmt: ast.For = self.stmts[index]
        next_index = self.a.for_next[index]
        limit, step_text, sign, step = self.for_setup(index, stmt, depth, cells=False)
        var = names.variable(stmt.var.name)
        self.zero_trip_step(depth, index, limit, sign, step, step_text)
        shadow = self.shadow_name(index, stmt, step)
        if shadow is not None:
            self.line(depth, f"{shadow} = _shadow({var})")
            self.loop_shadows[index] = (shadow, int(step))
        self.loop_header(depth, self.loop_continues(var, limit, sign, step))
        self.steps(depth + 1, self.count_sequence(index + 1, next_index) + 1)
        self.loop_steps[index] = step_text
        outer = dict(self.exprs.shadows)
        if shadow is not None:
            self.exprs.shadows[stmt.var.name] = shadow
        self.sequence(index + 1, next_index, depth + 1)
        self.exprs.shadows = outer
        self.current = next_index
        self.increment(depth + 1, index, step_text)

    def zero_trip_step(self, depth, index, limit, sign, step, step_text) -> None:
        """Microsoft BASIC: a loop that runs zero times still adds the step once (GW-BASIC
        runs the NEXT to leave it; PC-BASIC prints 6 after FOR I = 5 TO 1)."""
        if not self.a.options.microsoft:
            return
        var = names.variable(self.stmts[index].var.name)
        self.line(depth, f"if not ({self.loop_continues(var, limit, sign, step)}):")
        self.increment(depth + 1, index, step_text)

    def shadow_name(self, index: int, stmt: ast.For, step: float | None) -> str | None:
        """A Python int kept equal to the FOR variable, for subscripts (see
        expressions.py): possible when the loop steps by an integer constant, nothing in
        its body can assign the variable (no assignment to it, no GOSUB), and values are
        stored unrounded (f64)."""
        if step is None or not float(step).is_integer() or _var_type(stmt.var.name) != "num":
            return None
        if self.store.f32:
            return None
        for inner in self.stmts[index + 1 : self.a.for_next[index]]:
            if isinstance(inner, ast.Gosub) or (isinstance(inner, ast.OnGoto) and inner.gosub):
                return None  # a subroutine may assign the variable
            targets: list = []
            if isinstance(inner, ast.Let):
                targets = [inner.target]
            elif isinstance(inner, (ast.Read, ast.Input)):
                targets = inner.targets
            elif isinstance(inner, ast.For):
                targets = [inner.var]
            if any(isinstance(t, ast.Var) and t.name == stmt.var.name for t in targets):
                return None
        return f"_sh{index}"

    def loop_header(self, depth: int, condition: str) -> None:
        """`while True:` and a test that breaks out: the loop then ends with an
        unconditional jump back, which is what makes CPython 3.11 specialize the code of
        a function called once (`while condition:` ends with a conditional jump, which
        does not count, and unspecialized code copies a string on every `+=`)."""
        self.line(depth, "while True:")
        if condition != "True":
            self.line(depth + 1, f"if not ({condition}):")
            self.line(depth + 2, "break")

    def structured_while(self, index: int, depth: int) -> None:
        stmt: ast.While = self.stmts[index]
        wend = self.a.while_wend[index]
        self.loop_header(depth, self.exprs.cond(stmt.condition))
        self.steps(depth + 1, self.count_sequence(index + 1, wend) + 1)
        self.sequence(index + 1, wend, depth + 1)

    def structured_if(self, index: int, depth: int) -> None:
        parts = self.a.if_parts[index]
        heads = list(parts.branch_heads)
        ends = heads[1:] + [parts.endif_index]
        for head, end in zip(heads, ends):
            self.current = head
            stmt = self.stmts[head]
            if isinstance(stmt, ast.IfBlock):
                self.line(depth, f"if {self.exprs.cond(stmt.condition)}:")
            elif isinstance(stmt, ast.ElseIf):
                self.line(depth, f"elif {self.exprs.cond(stmt.condition)}:")
            else:
                self.line(depth, "else:")
            self.sequence(head + 1, end, depth + 1)

    # ----------------------------------------------------------------- statements

    def statement(self, index: int, stmt: ast.Stmt, depth: int) -> None:
        method = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None and facts_of(stmt).runtime:
            method = self.runtime_call
        if method is None:
            raise NotImplementedError(f"statement {type(stmt).__name__}")
        method(index, stmt, depth)

    def runtime_call(self, index, stmt: ast.Stmt, depth) -> None:
        """A statement that is one call of the runtime (statement_facts' `runtime`),
        bound in the machine's namespace as `_` + its name."""
        args = ", ".join(self.exprs.value(e) for e in runtime_arguments(stmt))
        self.line(depth, f"_{facts_of(stmt).runtime}({args})")

    def assign_var(self, depth: int, name: str, value: str) -> None:
        cell = names.variable(name)
        self.assign_cell(cell)
        self.line(depth, f"{cell} = {self.store.convert(value, _var_type(name))}")

    def append_string(self, depth: int, name: str, parts: list[ast.Expr]) -> None:
        """`A$ = A$ + X + Y` as `A$ += X + Y` on a local: a variable is a cell of the
        program's function, and a string in a cell is copied whole by every `+`, so
        building a string that way took time quadratic in its length.  Taken out of its
        cell, the string has one reference and Python extends it in place."""
        cell, text = names.variable(name), self.temps.new()
        self.assign_cell(cell)
        self.line(depth, f"{text} = {cell}")
        self.line(depth, f"{cell} = None")
        for part in parts:  # each `+` checks its length, as _concat does
            self.line(depth, f"{text} += {self.exprs.operand(part)}")
            self.line(depth, f"_check_length({text})")
        self.line(depth, f"{cell} = {self.store.convert(text, 'str')}")

    def assign(self, depth: int, target: ast.LValue, value: str) -> None:
        """Assign `value` (Python text, evaluated after the target's subscripts)."""
        if isinstance(target, ast.Var):
            self.assign_var(depth, target.name, value)
            return
        symbol = self.a.arrays[target.name]
        where = self.temps.new()
        self.line(depth, f"{where} = {self.exprs.flat_index(target.name, target.indices)}")
        converted = self.store.convert(value, symbol.elem_type)
        self.line(depth, f"{names.array_data(target.name)}[{where}] = {converted}")

    def s_Let(self, index, stmt: ast.Let, depth) -> None:
        if isinstance(stmt.target, ast.Var):
            appended = _appended(stmt)
            if appended:
                self.append_string(depth, stmt.target.name, appended)
                return
            self.assign_var(depth, stmt.target.name, self.exprs.value(stmt.value))
            return
        symbol = self.a.arrays[stmt.target.name]
        where = self.temps.new()
        # ECMA-55 / bas55 order: the subscripts first, then the value.
        self.line(
            depth, f"{where} = {self.exprs.flat_index(stmt.target.name, stmt.target.indices)}"
        )
        value = self.store.convert(self.exprs.value(stmt.value), symbol.elem_type)
        self.line(depth, f"{names.array_data(stmt.target.name)}[{where}] = {value}")

    def s_Print(self, index, stmt: ast.Print, depth) -> None:
        # The console's methods are bound to names; a file's are called on its channel.
        call = "_{}"
        if stmt.channel is not None:
            channel = self.temps.new()
            self.line(depth, f"{channel} = _file_output({self.exprs.value(stmt.channel)})")
            call = channel + ".{}"
        if stmt.using is not None:
            self.print_using(stmt, depth, "_console" if stmt.channel is None else channel)
            return
        ends_line = True
        for item in stmt.items:
            ends_line = True
            if isinstance(item, ast.PrintSep):
                ends_line = False
                if item.sep == ",":
                    self.line(
                        depth, call.format("zone" if stmt.channel is None else "next_zone") + "()"
                    )
            elif isinstance(item, ast.Tab):
                self.line(depth, f"{call.format('tab')}({self.exprs.value(item.column)})")
            elif isinstance(item, ast.Spc):
                self.line(depth, f"{call.format('spc')}({self.exprs.value(item.count)})")
            elif self.a.expr_types.get(item) == "str":
                self.line(depth, f"{call.format('write_string')}({self.exprs.value(item)})")
            elif self.a.expr_types.get(item) in ("dbl", "lng"):  # a LONG: all its digits
                self.line(depth, f"{call.format('write_double')}({self.exprs.value(item)})")
            else:
                self.line(depth, f"{call.format('write_number')}({self.exprs.value(item)})")
        if ends_line:
            self.line(depth, f"{call.format('newline')}()")

    def print_using(self, stmt: ast.Print, depth: int, channel: str) -> None:
        """`channel.print_using(fmt).item(a).item(b).end()`: each item is formatted before
        the next is evaluated, as GW-BASIC does."""
        items = [i for i in stmt.items if not isinstance(i, ast.PrintSep)]
        chain = "".join(f".item({self.item_value(item)})" for item in items)
        ends_line = not isinstance(stmt.items[-1], ast.PrintSep)
        end = ".end()" if ends_line else ".end('')"
        self.line(depth, f"{channel}.print_using({self.exprs.value(stmt.using)}){chain}{end}")

    def s_Write(self, index, stmt: ast.Write, depth) -> None:
        channel = "_console"
        if stmt.channel is not None:
            channel = f"_file_output({self.exprs.value(stmt.channel)})"
        chain = "".join(f".item({self.item_value(item)})" for item in stmt.items)
        self.line(depth, f"{channel}.write_items(){chain}.end()")

    def item_value(self, item: ast.Expr) -> str:
        """An item of PRINT USING or WRITE: a double (Microsoft BASIC) is marked so, to be
        written with its 16 digits."""
        value = self.exprs.value(item)
        return f"_Double({value})" if self.a.expr_types.get(item) in ("dbl", "lng") else value

    def s_Open(self, index, stmt: ast.Open, depth) -> None:
        operands = (stmt.name, stmt.mode, stmt.number, stmt.length)
        args = ", ".join(self.exprs.value(e) for e in operands if e is not None)
        self.line(depth, f"_open_file({args})")

    def s_Field(self, index, stmt: ast.Field, depth) -> None:
        widths = ", ".join(self.exprs.value(w) for w in stmt.widths)
        self.line(depth, f"_field({self.exprs.value(stmt.channel)}, [{widths}], {stmt.names!r})")

    def s_RecordIO(self, index, stmt: ast.RecordIO, depth) -> None:
        operands = (stmt.channel, stmt.record)
        args = ", ".join(self.exprs.value(e) for e in operands if e is not None)
        self.line(depth, f"_{'put' if stmt.put else 'get'}_record({args})")

    def s_FieldRelease(self, index, stmt: ast.FieldRelease, depth) -> None:
        self.line(depth, f"_field_release({', '.join(map(repr, stmt.names))})")

    def s_FieldSwap(self, index, stmt: ast.FieldSwap, depth) -> None:
        self.line(depth, f"_field_swap({stmt.first!r}, {stmt.second!r})")

    def s_Close(self, index, stmt: ast.Close, depth) -> None:
        self.line(depth, f"_close_files({', '.join(self.exprs.value(n) for n in stmt.numbers)})")

    def s_FileWidth(self, index, stmt: ast.FileWidth, depth) -> None:
        number, width = self.exprs.value(stmt.channel), self.exprs.value(stmt.width)
        self.line(depth, f"_file_width({number}, {width})")

    def s_Trace(self, index, stmt: ast.Trace, depth) -> None:
        self.line(depth, f"_console.trace({stmt.on})")

    def s_TraceLine(self, index, stmt: ast.TraceLine, depth) -> None:
        self.line(depth, f"_console.trace_line({stmt.number})")

    def s_Input(self, index, stmt: ast.Input, depth) -> None:
        kinds = [
            "_STRING" if self.a.expr_types.get(t) == "str" else "_NUMBER" for t in stmt.targets
        ]
        reply = self.temps.new()
        if stmt.channel is not None and stmt.line:
            self.assign(depth, stmt.targets[0], f"_file_line({self.exprs.value(stmt.channel)})")
            return
        if stmt.channel is not None:
            number = self.exprs.value(stmt.channel)
            self.line(depth, f"{reply} = _file_input({number}, ({', '.join(kinds)},))")
        else:
            prompt = repr(stmt.prompt) if stmt.prompt is not None else "None"
            options = f", {stmt.question}, {stmt.stay}" if not stmt.question or stmt.stay else ""
            self.line(depth, f"{reply} = _input({prompt}, ({', '.join(kinds)},){options})")
        for position, target in enumerate(stmt.targets):
            self.assign(depth, target, f"{reply}[{position}]")

    def s_LineInput(self, index, stmt: ast.LineInput, depth) -> None:
        prompt = repr(stmt.prompt) if stmt.prompt is not None else "None"
        self.assign(depth, stmt.target, f"_line_input({prompt}, {stmt.stay})")

    def reference(self, depth: int, target: ast.LValue) -> str:
        """A variable's cell, or an array element with its subscripts computed now."""
        if isinstance(target, ast.Var):
            cell = names.variable(target.name)
            self.assign_cell(cell)
            return cell
        where = self.temps.new()
        self.line(depth, f"{where} = {self.exprs.flat_index(target.name, target.indices)}")
        return f"{names.array_data(target.name)}[{where}]"

    def s_Swap(self, index, stmt: ast.Swap, depth) -> None:
        first = self.reference(depth, stmt.first)
        second = self.reference(depth, stmt.second)
        self.line(depth, f"{first}, {second} = {second}, {first}")

    def s_MidAssign(self, index, stmt: ast.MidAssign, depth) -> None:
        target = self.reference(depth, stmt.target)
        count = self.exprs.value(stmt.count) if stmt.count is not None else "None"
        start = self.exprs.value(stmt.start)
        if copies_itself(stmt):
            self.line(depth, f"{target} = _mid_assign_itself({target}, {start}, {count})")
            return
        value = self.exprs.value(stmt.value)
        self.line(depth, f"{target} = _mid_assign({target}, {start}, {count}, {value})")

    def s_Read(self, index, stmt: ast.Read, depth) -> None:
        for target in stmt.targets:
            reader = (
                "_read_string()" if self.a.expr_types.get(target) == "str" else "_read_number()"
            )
            self.assign(depth, target, reader)

    def s_Restore(self, index, stmt: ast.Restore, depth) -> None:
        self.line(depth, f"_restore({self.a.restore_position.get(index, 0)})")

    def s_Goto(self, index, stmt: ast.Goto, depth) -> None:
        for_index = self.regions.continues.get(stmt.target)
        if for_index is not None:
            # a jump to the loop's own NEXT: increment, then test again at the top
            step_text = self.loop_steps[for_index]
            self.increment(depth, for_index, step_text)
            self.line(depth, "continue")
            return
        target = self.a.jump_target[stmt.target]
        # past the last statement (an EXIT DO of the program's last loop): the end
        self.line(depth, f"return {target if target < len(self.stmts) else END}")

    def s_Gosub(self, index, stmt: ast.Gosub, depth) -> None:
        self.line(depth, f"_gosub({self.a.jump_target[stmt.target]})")

    def s_OnGoto(self, index, stmt: ast.OnGoto, depth) -> None:
        targets = ", ".join(str(self.a.jump_target[t]) for t in stmt.targets)
        choice = f"_on({self.exprs.value(stmt.selector)}, ({targets},))"
        if self.a.options.strict:  # out of range is fatal: there is always a target
            self.line(depth, f"_gosub({choice})" if stmt.gosub else f"return {choice}")
            return
        # outside strict mode an index out of range goes on with the next statement
        target = self.temps.new()
        self.line(depth, f"{target} = {choice}")
        self.line(depth, f"if {target} is not None:")
        self.line(depth + 1, f"_gosub({target})" if stmt.gosub else f"return {target}")

    def s_Return(self, index, stmt, depth) -> None:
        # _return() is RETURN (-1) inside a GOSUB, a located fault outside one
        self.line(depth, "return _return()")

    def s_End(self, index, stmt, depth) -> None:
        self.line(depth, f"return {END}")

    def s_Stop(self, index, stmt, depth) -> None:
        if self.a.options.microsoft:  # "Break in 100"
            line = str(stmt.label) if stmt.label is not None else ""
            self.line(depth, f"_report_break({line!r})")
        self.line(depth, f"return {END}")

    def s_IfBlock(self, index, stmt: ast.IfBlock, depth) -> None:
        parts = self.a.if_parts[index]
        self.line(depth, f"if not {self.exprs.cond(stmt.condition)}:")
        self.line(depth + 1, f"return {self.false_branch(parts, index)}")

    def s_ElseIf(self, index, stmt: ast.ElseIf, depth) -> None:
        parts = self.a.if_parts[self.a.block_if_of[index]]
        self.line(depth, f"if not {self.exprs.cond(stmt.condition)}:")
        self.line(depth + 1, f"return {self.false_branch(parts, index)}")

    @staticmethod
    def false_branch(parts, head: int) -> int:
        """Where a false IF / ELSEIF condition at `head` goes: the next ELSEIF test, the
        ELSE branch, or past the END IF."""
        later = parts.later_elseif(head)
        if later is not None:
            return later
        if parts.else_index is not None:
            return parts.else_index + 1
        return parts.endif_index + 1

    def s_Else(self, index, stmt, depth) -> None:
        # reached only by falling out of the previous branch (see `sequence`)
        parts = self.a.if_parts[self.a.block_if_of[index]]
        self.line(depth, f"return {parts.endif_index + 1}")

    def s_EndIf(self, index, stmt, depth) -> None:
        self.line(depth, "pass")

    def s_For(self, index, stmt: ast.For, depth) -> None:
        fault = self.a.loop_faults.get(index)
        if fault is not None:
            # GW-BASIC evaluates the FOR, then finds it has no NEXT (or the wrong one)
            for part in (stmt.start, stmt.limit, stmt.step):
                if part is not None:
                    self.line(depth, f"{self.temps.new()} = {self.exprs.value(part)}")
            self.line(depth, f"_loop_fault({fault!r}, {self.a.loop_fault_line.get(index)})")
            return
        # unstructured FOR: test once here, NEXT tests again and jumps back to index + 1
        limit, step_text, sign, step = self.for_setup(index, stmt, depth, cells=True)
        var = names.variable(stmt.var.name)
        dynamic = index in self.a.dynamic_for
        if dynamic:
            self.line(depth, f"_for_enter({index})")
        self.line(depth, f"if not ({self.loop_continues(var, limit, sign, step)}):")
        if dynamic:
            self.line(depth + 1, "_for_leave()")
        if self.a.options.microsoft:  # see zero_trip_step
            self.increment(depth + 1, index, step_text)
        self.line(depth + 1, f"return {self.a.next_of(index) + 1}")

    def s_Next(self, index, stmt: ast.Next, depth) -> None:
        fault = self.a.loop_faults.get(index)
        if fault is not None:
            self.line(depth, f"_loop_fault({fault!r})")
            return
        for_index = self.a.for_of(index)
        for_stmt: ast.For = self.stmts[for_index]
        dynamic = index in self.a.dynamic_next
        if dynamic:
            self.line(depth, f"_for_find({for_index})")
        limit, step_text, sign, step = self.unstructured_loop(for_index)
        self.increment(depth, for_index, step_text)
        var = names.variable(for_stmt.var.name)
        self.line(depth, f"if {self.loop_continues(var, limit, sign, step)}:")
        self.line(depth + 1, f"return {for_index + 1}")
        if dynamic:
            self.line(depth, "_for_leave()")

    def unstructured_loop(self, for_index: int):
        """Limit, step and sign texts of an unstructured FOR (cells or constants)."""
        stmt: ast.For = self.stmts[for_index]
        limit = signed_number(stmt.limit)
        limit_text = number_literal(limit) if limit is not None else names.for_limit(for_index)
        step = signed_number(stmt.step) if stmt.step is not None else 1.0
        if step is not None:
            return limit_text, number_literal(step), None, step
        return limit_text, names.for_step(for_index), names.for_sign(for_index), None

    def s_While(self, index, stmt: ast.While, depth) -> None:
        self.line(depth, f"if not {self.exprs.cond(stmt.condition)}:")
        self.line(depth + 1, f"return {self.a.while_wend[index] + 1}")

    def s_Wend(self, index, stmt, depth) -> None:
        self.line(depth, f"return {self.a.wend_while[index]}")

    def s_Dim(self, index, stmt: ast.Dim, depth) -> None:
        emitted = False
        for decl in stmt.arrays:
            if decl.name in self.static:
                continue
            bounds = ", ".join(self.exprs.value(b) for b in decl.bounds)
            self.line(depth, f"{names.array_object(decl.name)}.allocate(({bounds},))")
            self.refresh_shape(depth, decl.name)
            emitted = True
        if not emitted:
            self.line(depth, "pass")

    def s_Erase(self, index, stmt: ast.Erase, depth) -> None:
        for name in stmt.names:
            redim = "redim=True" if stmt.redim else ""
            self.line(depth, f"{names.array_object(name)}.erase({redim})")
            self.refresh_shape(depth, name)

    def s_OnError(self, index, stmt: ast.OnError, depth) -> None:
        handler = self.a.jump_target[stmt.target] if stmt.target is not None else None
        self.line(depth, f"_trap.on_error({handler})")

    def s_Resume(self, index, stmt: ast.Resume, depth) -> None:
        if stmt.mode == "retry":
            self.line(depth, "return _trap.resume()")
        elif stmt.mode == "next":
            self.line(depth, "return _trap.resume_next()")
        elif stmt.mode == "undefined":  # RESUME to a missing line (passes/check/jumps.py)
            self.line(depth, "return _trap.resume_undefined()")
        else:
            self.line(depth, f"return _trap.resume_at({self.a.jump_target[stmt.target]})")

    def s_RaiseError(self, index, stmt: ast.RaiseError, depth) -> None:
        self.line(depth, f"_raise_error({self.exprs.value(stmt.code)})")

    def s_Fault(self, index, stmt: ast.Fault, depth) -> None:
        self.line(depth, f"_fail({stmt.message!r})")

    def s_Randomize(self, index, stmt: ast.Randomize, depth) -> None:
        if stmt.seed is not None:
            kind = RANDOMIZE_KINDS[self.a.expr_types[stmt.seed]]
            self.line(depth, f"_RANDOMIZE({self.exprs.value(stmt.seed)}, {kind!r})")
        elif self.a.options.microsoft:  # GW-BASIC asks for the seed
            self.line(depth, "_RANDOMIZE(_ask_seed(), 'int')")
        else:
            self.line(depth, "_RANDOMIZE()")

    def _nothing(self, index, stmt, depth) -> None:
        self.line(depth, "pass")

    s_Rem = s_NoEffect = s_Data = s_DefFn = s_OptionBase = s_DefType = _nothing

    # ----------------------------------------------------------------- MAT statements

    def s_MatRead(self, index, stmt: ast.MatRead, depth) -> None:
        self.mat_fill_from(stmt, depth, "_mat_read")

    def s_MatInput(self, index, stmt: ast.MatInput, depth) -> None:
        self.mat_fill_from(stmt, depth, "_mat_input")

    def mat_fill_from(self, stmt, depth: int, helper: str) -> None:
        for decl in stmt.arrays:
            obj = names.array_object(decl.name)
            if decl.bounds:
                bounds = ", ".join(self.exprs.value(b) for b in decl.bounds)
                self.line(depth, f"{obj}.reshape(({bounds},))")
                self.refresh_shape(depth, decl.name)
            self.line(depth, f"{helper}({obj}, {_f32_flag(self.store)})")

    def s_MatPrint(self, index, stmt: ast.MatPrint, depth) -> None:
        arrays = ", ".join(names.array_object(n) for n in stmt.names)
        self.line(depth, f"_mat_print(({arrays},), {tuple(stmt.seps)!r})")

    def s_ChangeToCodes(self, index, stmt: ast.ChangeToCodes, depth) -> None:
        array = names.array_object(stmt.array.name)
        self.line(depth, f"_change_to_codes({array}, {self.exprs.value(stmt.text)})")

    def s_ChangeToString(self, index, stmt: ast.ChangeToString, depth) -> None:
        array = names.array_object(stmt.array.name)
        self.assign(depth, stmt.target, f"_change_to_string({array})")

    def s_MatAssign(self, index, stmt: ast.MatAssign, depth) -> None:
        value = stmt.value
        target = names.array_object(stmt.target)
        f32 = _f32_flag(self.store)
        if isinstance(value, ast.MatFill):
            dims = ", ".join(self.exprs.value(d) for d in value.dims)
            dims_text = f"({dims},)" if value.dims else "None"
            self.line(depth, f"_mat_fill({target}, {value.name!r}, {dims_text})")
        elif isinstance(value, ast.MatScale):
            factor = self.exprs.value(value.factor)
            source = names.array_object(value.matrix.name)
            self.line(depth, f"_mat_scale({target}, {factor}, {source}, {f32})")
        elif isinstance(value, ast.MatFunc):
            source = names.array_object(value.arg.name)
            self.line(depth, f"_mat_function({target}, {value.name!r}, {source}, {f32})")
        elif isinstance(value, ast.MatBin):
            left = names.array_object(value.left.name)
            right = names.array_object(value.right.name)
            self.line(depth, f"_mat_binary({target}, {value.op!r}, {left}, {right}, {f32})")
        else:
            source = names.array_object(value.name)
            self.line(depth, f"_mat_copy({target}, {source})")
        self.refresh_shape(depth, stmt.target)


def _f32_flag(store: StoreConversion) -> str:
    return "True" if store.f32 else "False"


def _appended(stmt: ast.Let) -> list[ast.Expr]:
    """X, Y... when `stmt` is `LET A$ = A$ + X + Y...` and X, Y... neither read A$ nor
    call a function (which might read it): what is appended to A$, in order."""
    name = stmt.target.name
    if not name.endswith("$"):
        return []
    parts: list[ast.Expr] = []
    node = stmt.value
    while isinstance(node, ast.BinOp) and node.op == "+":
        parts.append(node.right)
        node = node.left
    if not parts or not (isinstance(node, ast.Var) and node.name == name):
        return []
    for part in parts:
        for inner in part.walk():
            if isinstance(inner, ast.Call) or (isinstance(inner, ast.Var) and inner.name == name):
                return []
    return parts[::-1]


# The type of a RANDOMIZE seed as runtime/rnd.py takes it (GW-BASIC mixes in its bytes).
def _var_type(name: str) -> str:
    return type_of_name(name)
