"""Host program nodes (`transpiler.ir.hostir`) as C++ statements.

The C++ twin of `cutile/host_stmt.py`: the hooks of the shared printer
(`backends/host_statements.py`, which writes every statement whose decisions are the
same in Python) and the statements whose C++ shape is its own.  The template lays the
lines out (`templates/cuda/host_body.cu.jinja`) and clang-format indents.

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

from ...errors import InternalError
from ...hostcode.syntax import CPP
from ...ir import ast, hostir
from ...ir.model import Analysis, type_of_name
from ...ir.naming import Namer
from ...language.expr_facts import signed_number
from ..host_statements import GOSUB_DEPTH, HostStatements  # noqa: F401 (cuda/host.py's)
from .code import Code
from .host_expr import ExprPrinter
from .host_procs import ProcedureStatements
from .host_text import cpp_number, cpp_std_string, cpp_string, origin_comment


class StatementPrinter(ProcedureStatements, HostStatements):
    syntax = CPP
    code = Code
    origin_comment = staticmethod(origin_comment)
    number_text = staticmethod(cpp_number)
    never_past = "false"
    backend = "CUDA C++"
    names_each_for = True
    takes_pre = True
    end_exception = "throw b2t::EndProgram()"
    string = staticmethod(cpp_std_string)  # a literal, or for text with a NUL std::string

    def runtime(self, name: str) -> str:
        return f"b2t::{name}"

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
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
            return self.put(pre) + [Code(f"{self.var(target.name)} = {converted};")]
        target_pre: list[str] = []
        element = self.expr.element(target, target_pre).text
        if target_pre:  # keep the value first
            temp = self.namer.fresh("tmp")
            pre = pre + [f"const auto {temp} = {converted};"]
            converted = temp
        lines = pre + target_pre + [f"{element} = {converted};"]
        return [Code(line) for line in lines]

    # ----------------------------------------------------------------- simple statements

    # ----------------------------------------------------------------- files, PRINT USING

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(self.expr.value_code(e, None))

    def dval(self, e: ast.Expr, pre: list[str] | None) -> str:
        return self.expr.double_value(e, pre)

    def throw(self, message: str, line: int | None = None) -> str:
        where = f".in_line({line})" if line is not None else ""
        return f"throw b2t::Fault({cpp_string(message)}){where}"

    def print_value(self, item: ast.Expr) -> str:
        kind = self.a.expr_types.get(item)
        if kind == "str":
            return self.expr.value(item, None)
        if kind in ("dbl", "lng"):  # Microsoft BASIC: 16 digits
            return self.expr.print_item(item, None)
        return self.expr.double_value(item, None)

    def print_piece(self, kind: str, text: str) -> str:
        return {"zone": "zone()", "item": f"print({text})"}.get(kind, f"{kind}({text})")

    def print_chain(self, receiver: str, pieces: list[str], newline: bool) -> str | None:
        pieces = [*pieces, "newline()"] if newline else pieces
        return f"{receiver}.{'.'.join(pieces)}" if pieces else None

    def receive(self, target: ast.LValue, value: str) -> list[Code]:
        return self.assign(target, value, [])

    def place(self, target: ast.LValue, changing: set[str], pre: list[str]) -> str:
        if isinstance(target, ast.Var):
            return self.var(target.name)
        return self.expr.element(target, pre).text

    # ----------------------------------------------------------------- FOR loops

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
        fails = (
            self.fails(stmt.start, stmt.limit, stmt.step) or type_of_name(stmt.var.name) == "int"
        )
        lines, start, limit, step, sign, step_const = self._for_setup(node, False)
        test = self._continues(var, limit, sign, step_const, node.plan.exact)
        body = ([] if node.ends else [_PROGRESS]) + self.nodes(node.body)
        body += self.comment(hostir.Simple(next_stmt, origin=next_stmt))
        first = self._start(stmt, start)
        if node.plan.zero_trip_step:
            lines += self._starting(stmt, start)
            lines += self._zero_trip_step(stmt, limit, step, sign, step_const)
            first = ""
        increment = self._increment(stmt, step)
        if type_of_name(stmt.var.name) == "int" and self.tracks_lines:
            # a `%` variable's step can overflow: the error names the NEXT's line
            increment = f"{self.line_var} = {next_stmt.label or 0}, {increment}"
        header = f"for ({first}; {test}; {increment})"
        return self.at_line(node, fails) + lines + [Code(header, body)]

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
        check = track + self.put(pre) + [leave]
        return [Code("while (true)", [_PROGRESS] + check + self.nodes(node.body))]

    def n_If(self, node: hostir.If) -> list[Code]:
        out: list[Code] = []
        head: list[Code] = []
        for n, (condition, body) in enumerate(node.arms):
            pre: list[str] = []
            if n == 0:
                test = self.expr.all_of([condition, *node.merged], pre, self._line_if_fails)
                head = self.at_line(node, self.fails(condition)) + self.put(pre)
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

    def case(self, n: int, arm: list[Code]) -> Code:
        return Code(f"case {n}:", arm + _break_unless_jumping(arm), braces=False)

    # ----------------------------------------------------------------- dispatch loops

    def label(self, label: str | None) -> str:
        if label is None:
            self.uses_done_label = True
            return "DONE"
        name = "L" + label.replace(":", "_")
        self.labels.setdefault(name)
        return name

    def _push(self, return_to: str) -> list[Code]:
        return [Code(f"{self.returns_var}.push({self.label(return_to)});")]

    def n_Dispatch(self, node: hostir.Dispatch) -> list[Code]:
        first = len(self.labels)
        for block in node.blocks:  # the enumerators in block order
            self.label(block.label)
        cases = []
        for block, body in self.block_bodies(node):
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

    def label_text(self, label: str | None) -> str:
        return self.label(label)

    def _return_fault(self) -> str:
        return "throw b2t::Fault(b2t::RETURN_WITHOUT_GOSUB)"

    def as_label(self, text: str) -> str:
        return f"static_cast<Label>({text})"

    # ----------------------------------------------------------------- kernels

    def n_ToHost(self, node: hostir.ToHost) -> list[Code]:
        return self.kernels.to_host(node)


# In each iteration of a loop that may never end: C++ lets a compiler assume that a loop
# without I/O, volatile or atomic operations ends (and delete it), BASIC does not.
_PROGRESS = Code("b2t::forward_progress();")


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
