"""QuickBASIC's SUBs and FUNCTIONs as C++ member functions (passes/quickbasic/procedure_functions.py).

By reference, the C++ way: a parameter the procedure may change is a `T&`, and a
variable of its type is passed as it is; any other argument of such a parameter (an
expression, a variable in parentheses, an element, a variable of another type) goes
through a temporary, whose value an element or variable passed by reference takes
back after the call (as the interpreter copies it back).  A parameter the procedure
never changes is passed by value.  C++ evaluates arguments in no set order: when more
than one can fail or has an effect, they go through temporaries, in order."""

from __future__ import annotations

from ...hostcode.procedures import call_text, given_back
from ...ir import ast, hostir
from ...ir.model import variable_type
from ...language.expr_facts import has_effects


class ProcedureStatements:
    """The statement printer's methods for the nodes of procedure functions."""

    def n_ProcCall(self, node: hostir.ProcCall) -> list:
        proc = node.procedure
        changed = set(proc.changed_params())
        takes_back = {param: target for target, param in node.back if target is not None}
        effects = sum(1 for value, _ in node.args if self._has_effect(value))
        pre: list[str] = []
        after: list = []
        args = []
        for value, param in node.args:
            kind = variable_type(self.a, param)
            target = takes_back.get(param)
            same = isinstance(value, ast.Var) and variable_type(self.a, value.name) == kind
            if same and (param not in changed or _is(target, value)):
                args.append(self.var(value.name))  # by reference when it is changed
                continue
            text = self.expr.store(self.expr.value(value, pre), kind)
            if param in changed or (effects > 1 and self._has_effect(value)):
                temp = self.namer.fresh("arg")
                pre.append(f"{self.expr.cpp_type(kind)} {temp} = {text};")
                text = temp
                if target is not None:
                    after += self.assign(target, temp, [])
            args.append(text)
        call = call_text(self, node, args)
        if node.result is not None:
            call = f"{self.var(node.result)} = {call}"
        fails = any(self.fails(value) for value, _ in node.args)
        lines = self.put(pre) + self.simple(call) + after
        return self.at_line(node, fails) + (self.scoped(lines) if pre else lines)  # their scope

    def _has_effect(self, value: ast.Expr) -> bool:
        return self.fails(value) or has_effects(value, self.a.options.microsoft)

    def n_ProcReturn(self, node: hostir.ProcReturn) -> list:
        values = [self.var(name) for name in given_back(node.procedure, references=True)]
        return self.simple(" ".join(["return", *values]))

    def n_ProcLocals(self, node: hostir.ProcLocals) -> list:
        out = []
        for name in node.names:
            kind = variable_type(self.a, name)
            initial = f" = {self.syntax.zero(kind)}" if kind != "str" else ""
            out.append(self.code(f"{self.expr.cpp_type(kind)} {self.var(name)}{initial};"))
        return out


def _is(target: ast.LValue | None, value: ast.Expr) -> bool:
    return isinstance(target, ast.Var) and target.name == value.name
