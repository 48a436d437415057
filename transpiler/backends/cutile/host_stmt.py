"""Host program nodes (`transpiler.ir.hostir`) as Python statements: the hooks of the
shared printer (`backends/host_statements.py`, which writes every statement whose
decisions are the same in C++) and the statements whose Python shape is its own.

The template lays the lines out
(`templates/cutile/host_body.py.jinja` indents the blocks).  Semantics follow the
reference interpreter (`transpiler/interpreter/codegen.py`) statement by statement;
where its text differs, the comment on the method says why it is equivalent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...hostcode.syntax import PYTHON
from ...ir import ast, hostir
from ...ir.model import Analysis
from ...ir.naming import Namer
from ...language.builtins import effect_of
from ...language.expr_facts import signed_number
from ..basic_origin import origin_comment
from ..host_statements import GOSUB_DEPTH, HostStatements
from .code import Code, _suite
from .host_expr import ExprPrinter, number_literal
from .host_procs import ProcedureStatements

# The reference interpreter's run-time messages (transpiler/interpreter/machine.py).
RETURN_WITHOUT_GOSUB = "RETURN without GOSUB"
GOSUB_TOO_DEEP = "GOSUB nested too deeply"


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

    def number_text(self, value) -> str:
        text = number_literal(value)
        if "math" in text:
            self.need("math")
        return text

    end_exception = "raise EndProgram"
    backend = "cuTile Python"
    string = staticmethod(repr)

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
        self.loops: list[_Loop] = []
        self.uses_return_stack = False
        self.label_var = namer.fresh("label")
        self.trap_var = namer.fresh("trap")
        self.resume_var = namer.fresh("resume_next")
        self.returns_var = namer.fresh("returns")
        self.for_stack_var = namer.fresh("for_stack")
        self.reply_var = namer.fresh("reply")
        self.channel_var = namer.fresh("channel")
        self.read_vars: set[str] = set()  # variables some emitted code reads
        self.static_arrays: frozenset[str] = frozenset()  # set by the module printer

    # ----------------------------------------------------------------- helpers

    def need(self, name: str) -> str:
        return self.expr.need(name)

    runtime = need

    def block(self, nodes: list[hostir.HNode]) -> list[Code]:
        return _suite(self.nodes(nodes))

    def target(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Var):
            return self.var(target.name)
        return self.expr.element(target)

    def assign(self, target: ast.LValue, value: str, pre=None) -> list[Code]:
        """`target = value` with the store conversion.  Python evaluates the value before
        the subscripts of an element target; the interpreter the other way round.  Only
        an assignment whose subscript is out of range *and* whose value warns or fails
        could tell (it is fatal either way)."""
        value = self.expr.store(value, self.target_type(target))
        if isinstance(target, ast.Var) and value == self.var(target.name):
            return []  # LET X = X
        return [Code(f"{self.target(target)} = {value}")]

    # ----------------------------------------------------------------- simple statements

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(e)

    def throw(self, message: str, line: int | None = None) -> str:
        where = f", line={line}" if line is not None else ""
        return f"raise {self.need('BasicFault')}({message!r}{where})"

    def print_value(self, item: ast.Expr) -> str:
        return self.expr.print_item(item)

    def print_piece(self, kind: str, text: str) -> str:
        if kind == "zone":
            return self.need("ZONE")
        return text if kind == "item" else f"{self.need(kind)}({text})"

    def print_chain(self, receiver: str, pieces: list[str], newline: bool) -> str:
        return f"{receiver}.print({', '.join(pieces if newline else [*pieces, 'end=' + repr('')])})"

    def print_splits(self, e: ast.Expr) -> bool:
        return self.expr.can_fail(e)

    def receive(self, target: ast.LValue, value: str) -> list[Code]:
        if isinstance(target, ast.Var) and target.name not in self.read_vars:
            return [Code(self.expr.store(value, self.target_type(target)))]
        return self.assign(target, value)

    def place(self, target: ast.LValue, changing: set[str], pre: list[str]) -> str:
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
                pre.append(f"{temp} = {text}")
                text = temp
            subscripts.append(text)
        return f"{self.expr.array(target.name)}[{', '.join(subscripts)}]"

    def drops(self, target: ast.LValue) -> bool:
        return isinstance(target, ast.Var) and target.name not in self.read_vars

    def unpack(self, targets: list[ast.LValue], call: str) -> list[Code] | None:
        """`A, B = con.input(...)` where no target converts its value (`[A] = ...` for
        one; `_` for a variable nothing reads)."""
        if any(self.expr.store("x", self.target_type(t)) != "x" for t in targets):
            return None
        names = ", ".join("_" if self.drops(t) else self.target(t) for t in targets)
        return [Code(f"[{names}] = {call}" if len(targets) == 1 else f"{names} = {call}")]

    # ----------------------------------------------------------------- MAT statements

    def _f32(self) -> str:
        return ", f32=True" if self.expr.f32 else ""

    # ----------------------------------------------------------------- FOR loops

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
        lines, start, limit, step, sign, step_const = self._for_setup(node, False)
        lines += self._starting(stmt, start)
        test = self._continues(var, limit, sign, step_const, node.plan.exact)
        next_stmt = self.a.stmts[node.next_index]
        increment = self.comment(hostir.Simple(next_stmt, origin=next_stmt))
        increment += self.simple(self._increment(stmt, step))
        self.loops.append(_Loop("for", self.simple(self._increment(stmt, step))))
        body = self.nodes(node.body)
        self.loops.pop()
        if node.plan.zero_trip_step:
            lines += self._zero_trip_step(stmt, limit, step, sign, step_const)
        return lines + [Code(f"while {test}:", body + increment)]

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

    def case(self, n: int, arm: list[Code]) -> Code:
        return Code(f"case {n}:", arm)

    # ----------------------------------------------------------------- dispatch loops

    def _push(self, return_to: str) -> list[Code]:
        self.uses_return_stack = True
        limit = GOSUB_DEPTH[self.a.options.strict]
        fault = f"raise {self.need('BasicFault')}({GOSUB_TOO_DEEP!r}, '({limit} levels)')"
        return [
            Code(f"if len({self.returns_var}) >= {limit}:", [Code(fault)]),
            Code(f"{self.returns_var}.append({return_to!r})"),
        ]

    def n_Dispatch(self, node: hostir.Dispatch) -> list[Code]:
        self.loops.append(_Loop("dispatch"))
        cases = []
        for block, body in self.block_bodies(node):
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
    breaks_from_case = True

    def _pop_check(self) -> list[Code]:
        return [Code(f"if not {self.returns_var}:", self.simple(self._return_fault()))]

    def _return_fault(self) -> str:
        return self.throw(RETURN_WITHOUT_GOSUB)

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
