"""QuickBASIC's SUBs and FUNCTIONs as Python functions (passes/quickbasic/procedure_functions.py).

By reference, the Python way: a procedure's parameters are its locals, and a call gives
back, after a FUNCTION's value, the parameters the procedure may change, which the
caller stores into the variables it passed: `x, y = swap2(x, y)`.  An argument passed
by value (an expression, a variable in parentheses) takes nothing back (`_`)."""

from __future__ import annotations

from ...hostcode.procedures import call_text, given_back
from ...ir import ast, hostir
from ...ir.model import variable_type


class ProcedureStatements:
    """The statement printer's methods for the nodes of procedure functions."""

    def n_ProcCall(self, node: hostir.ProcCall) -> list:
        args = [self.proc_argument(value, param) for value, param in node.args]
        call = call_text(self, node, args)
        targets = [self.var(node.result)] if node.result else []
        targets += [self.target(t) if t is not None else "_" for t, _ in node.back]
        if all(t == "_" for t in targets):
            return [self.code(call)]
        return [self.code(f"{', '.join(targets)} = {call}")]

    def proc_argument(self, value: ast.Expr, param: str) -> str:
        """An argument as its parameter takes it (a variable of the parameter's type as
        it is)."""
        kind = variable_type(self.a, param)
        if isinstance(value, ast.Var) and variable_type(self.a, value.name) == kind:
            return self.var(value.name)
        return self.expr.store(self.expr.value(value), kind)

    def n_ProcReturn(self, node: hostir.ProcReturn) -> list:
        values = [self.var(name) for name in given_back(node.procedure)]
        return [self.code(" ".join(["return", ", ".join(values)]).rstrip())]

    def n_ProcLocals(self, node: hostir.ProcLocals) -> list:
        groups: dict[str, list[str]] = {}
        for name in node.names:
            kind = variable_type(self.a, name)
            groups.setdefault(self.syntax.zero(kind), []).append(self.var(name))
        return [self.code(" = ".join(names + [initial])) for initial, names in groups.items()]
