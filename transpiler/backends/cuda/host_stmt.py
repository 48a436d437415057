"""Host program nodes (`transpiler.ir.hostir`) as C++ statements: the hooks of the
shared printer (`backends/host_statements.py`, which writes every statement) for
C++'s runtime (b2t_runtime.h).  The template lays the lines out
(`templates/cuda/host_body.cu.jinja`) and clang-format indents.

- PRINT is one chain `con.print(a).zone().print(b).newline();` (C++17 evaluates a chain
  of member calls left to right, so each item is evaluated after the one before it is
  printed, as in the interpreter).
- A dispatch label is an enumerator (`L100`; `DONE` past the loop), a GOSUB pushes it
  on `b2t::GosubStack`, which checks its depth itself.
"""

from __future__ import annotations

from ...errors import InternalError
from ...hostcode.syntax import CPP
from ...ir import ast, hostir
from ...ir.model import Analysis
from ...ir.naming import Namer
from ..host_statements import Code, HostStatements
from .host_expr import ExprPrinter
from .host_procs import ProcedureStatements
from .host_text import origin_comment


class StatementPrinter(ProcedureStatements, HostStatements):
    syntax = CPP
    origin_comment = staticmethod(origin_comment)
    never_past = "false"
    backend = "CUDA C++"
    names_each_for = True
    takes_pre = True
    end_exception = "throw b2t::EndProgram()"

    line_var = "line"
    start_trap, fault_class, catch_method = "error_trap", "Fault", "catch_fault"

    def __init__(self, analysis: Analysis, namer: Namer, expr: ExprPrinter, sub_names: dict):
        super().__init__(analysis, namer, expr, sub_names)
        # dispatch labels in order of first use (a dict: a list was searched on each use)
        self.labels: dict[str, None] = {}
        self.uses_done_label = False
        self.returns_var, self.for_stack_var = "returns", "for_stack"  # members of Program

    # ----------------------------------------------------------------- statements

    def file_number(self, e: ast.Expr) -> str:
        return self.expr.subscript(self.expr.value_code(e, None))

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

    # ----------------------------------------------------------------- dispatch loops

    def label_text(self, label: str | None) -> str:
        if label is None:
            self.uses_done_label = True
            return "DONE"
        name = "L" + label.replace(":", "_")
        self.labels.setdefault(name)
        return name

    def _push(self, return_to: str) -> list[Code]:
        return [Code(f"{self.returns_var}.push({self.label_text(return_to)});")]

    def dispatch_labels(self, node: hostir.Dispatch) -> None:
        """The enumerators in block order; a trapping loop's are the first (`resume_next`
        is indexed by them: a trapping program has no other loop)."""
        if node.trap is not None and self.labels:
            raise InternalError("a trapping dispatch loop must hold the first labels")
        for block in node.blocks:
            self.label_text(block.label)

    def _return_fault(self) -> str:
        return "throw b2t::Fault(b2t::RETURN_WITHOUT_GOSUB)"
