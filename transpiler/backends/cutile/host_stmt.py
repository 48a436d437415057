"""Host program nodes (`transpiler.ir.hostir`) as Python statements: the hooks of the
shared printer (`backends/host_statements.py`, which writes every statement) for
Python's runtime (runtime/basic2tile_runtime).  The template lays the lines out
(`templates/cutile/host_body.py.jinja` indents the blocks).
"""

from __future__ import annotations

from ...hostcode.syntax import PYTHON
from ...ir import ast
from ...ir.model import Analysis
from ...ir.naming import Namer
from ...language.builtins import effect_of
from ..basic_origin import origin_comment
from ..host_statements import GOSUB_DEPTH, Code, HostStatements
from .host_expr import ExprPrinter
from .host_procs import ProcedureStatements

# The reference interpreter's run-time messages (transpiler/interpreter/machine.py).
RETURN_WITHOUT_GOSUB = "RETURN without GOSUB"
GOSUB_TOO_DEEP = "GOSUB nested too deeply"


class StatementPrinter(ProcedureStatements, HostStatements):
    syntax = PYTHON
    origin_comment = staticmethod(origin_comment)

    end_exception = "raise EndProgram"
    backend = "cuTile Python"

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
        self.uses_return_stack = False
        self.returns_var, self.for_stack_var = namer.fresh("returns"), namer.fresh("for_stack")
        self.read_vars: set[str] = set()  # variables some emitted code reads

    # ----------------------------------------------------------------- simple statements

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(e)

    def print_value(self, item: ast.Expr) -> str:
        return self.expr.print_item(item)

    def print_piece(self, kind: str, text: str) -> str:
        if kind == "zone":
            return self.runtime("ZONE")
        return text if kind == "item" else f"{self.runtime(kind)}({text})"

    def print_chain(self, receiver: str, pieces: list[str], newline: bool) -> str:
        return f"{receiver}.print({', '.join(pieces if newline else [*pieces, 'end=' + repr('')])})"

    def print_splits(self, e: ast.Expr) -> bool:
        return self.expr.can_fail(e)

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

    # ----------------------------------------------------------------- dispatch loops

    def _push(self, return_to: str) -> list[Code]:
        self.uses_return_stack = True
        limit = GOSUB_DEPTH[self.a.options.strict]
        fault = f"raise {self.runtime('BasicFault')}({GOSUB_TOO_DEEP!r}, '({limit} levels)')"
        return [
            Code(f"if len({self.returns_var}) >= {limit}:", [Code(fault)]),
            Code(f"{self.returns_var}.append({return_to!r})"),
        ]

    label_text = staticmethod(repr)

    def _pop_check(self) -> list[Code]:
        return [Code(f"if not {self.returns_var}:", self.simple(self._return_fault()))]

    def _return_fault(self) -> str:
        return self.throw(RETURN_WITHOUT_GOSUB)
