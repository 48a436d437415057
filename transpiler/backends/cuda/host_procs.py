"""QuickBASIC's SUBs and FUNCTIONs as C++ member functions (passes/procedure_functions.py).

By reference, the C++ way: a parameter the procedure may change is a `T&`, and a
variable of its type is passed as it is; any other argument of such a parameter (an
expression, a variable in parentheses, an element, a variable of another type) goes
through a temporary, whose value an element or variable passed by reference takes
back after the call (as the interpreter copies it back).  A parameter the procedure
never changes is passed by value.  C++ evaluates arguments in no set order: when more
than one can fail or has an effect, they go through temporaries, in order."""

from __future__ import annotations

from ... import ast, hostir
from ...expr_facts import has_effects
from ...model import variable_type
from ..host_procedures import in_order
from .code import Code
from .host_text import origin_comment


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
        arrays = [(i, self.expr.array(name)) for i, name in node.arrays]
        call = f"{self.sub_names[node.subroutine]}({', '.join(in_order(args, arrays))})"
        if node.result is not None:
            call = f"{self.var(node.result)} = {call}"
        fails = any(self.fails(value) for value, _ in node.args)
        lines = [self.code(line) for line in pre] + [self.code(call + ";")] + after
        if len(lines) > 1 and pre:
            lines = [self.code("", lines)]  # a block: its temporaries' scope
        return self.at_line(node, fails) + lines

    def _has_effect(self, value: ast.Expr) -> bool:
        return self.fails(value) or has_effects(value, self.a.options.microsoft)

    def n_ProcReturn(self, node: hostir.ProcReturn) -> list:
        result = node.procedure.result
        return [self.code(f"return {self.var(result)};" if result else "return;")]

    def n_ProcLocals(self, node: hostir.ProcLocals) -> list:
        out = []
        for name in node.names:
            kind = variable_type(self.a, name)
            initial = "" if kind == "str" else " = 0" if kind in ("int", "lng") else " = 0.0"
            out.append(self.code(f"{self.expr.cpp_type(kind)} {self.var(name)}{initial};"))
        return out


def _is(target: ast.LValue | None, value: ast.Expr) -> bool:
    return isinstance(target, ast.Var) and target.name == value.name


def procedure_def(module, sub: hostir.Subroutine) -> list:
    """`void swap2(float& a, float& b)` and its body, under the comment of its SUB line."""

    proc = sub.procedure
    stmts = module.stmts
    a = module.a
    stmts.in_sub = True
    stmts.function_locals = {}
    arrays = module.proc_arrays[sub.name]
    outer, stmts.commented = stmts.commented, set()
    names = dict(module.array_names)
    module.array_names.update({array: ident for _, ident, array in arrays})
    body = stmts.nodes(sub.body)
    module.array_names.update(names)  # (the body's names for its arrays: the parameters)
    stmts.commented = outer
    stmts.in_sub = False
    if body and body[-1].text == "return;" and body[-1].body is None:
        body.pop()  # END SUB
    changed = set(proc.changed_params())
    params = []
    for p, array in zip(proc.params, proc.array_params):
        if not array:
            ref = "&" if p in changed else ""
            params.append(f"{module.expr.cpp_type(variable_type(a, p))}{ref} {stmts.var(p)}")
    params = in_order(
        params,
        [
            (i, f"b2t::Array<{module.expr.cpp_type(a.arrays[array].elem_type)}>& {ident}")
            for i, ident, array in arrays
        ],
    )
    result = module.expr.cpp_type(variable_type(a, proc.result)) if proc.result else "void"
    name = module.sub_names[sub.name]
    line = a.source.line_text(proc.stmt.coord.line) or ""
    comment = Code(origin_comment(proc.stmt.label, line.strip()))
    head = f"{result} {name}({', '.join(params)})"
    return [comment, Code(head, module._locals() + body)]
