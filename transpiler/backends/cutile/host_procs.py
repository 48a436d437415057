"""QuickBASIC's SUBs and FUNCTIONs as Python functions (passes/procedure_functions.py).

By reference, the Python way: a procedure's parameters are its locals, and a call gives
back, after a FUNCTION's value, the parameters the procedure may change, which the
caller stores into the variables it passed: `x, y = swap2(x, y)`.  An argument passed
by value (an expression, a variable in parentheses) takes nothing back (`_`)."""

from __future__ import annotations

from ... import ast, hostir
from ...model import variable_type
from ..basic_origin import origin_comment
from ..host_procedures import given_back, in_order
from .code import Code, _suite

_ANNOTATIONS = {"int": "int", "lng": "int", "str": "str"}


class ProcedureStatements:
    """The statement printer's methods for the nodes of procedure functions."""

    def n_ProcCall(self, node: hostir.ProcCall) -> list:
        args = [self.proc_argument(value, param) for value, param in node.args]
        arrays = [(i, self.expr.array(name)) for i, name in node.arrays]
        call = f"{self.sub_names[node.subroutine]}({', '.join(in_order(args, arrays))})"
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
            initial = '""' if kind == "str" else "0" if kind in ("int", "lng") else "0.0"
            groups.setdefault(initial, []).append(self.var(name))
        return [self.code(" = ".join(names + [initial])) for initial, names in groups.items()]


def procedure_def(module, sub: hostir.Subroutine) -> list:
    """`def swap2(a: float, b: float) -> tuple[float, float]:` and its body, under the
    comment of its SUB line."""

    proc = sub.procedure
    stmts = module.stmts
    a = module.a
    arrays = module.proc_arrays[sub.name]
    outer, stmts.commented = stmts.commented, set()
    names = dict(module.array_names)
    module.array_names.update({array: ident for _, ident, array in arrays})
    body = stmts.nodes(sub.body)
    module.array_names.update(names)  # (the body's names for its arrays: the parameters)
    stmts.commented = outer
    if body and body[-1].text == "return" and body[-1].body is None:
        body.pop()  # END SUB
    scalars = [
        f"{stmts.var(p)}: {_annotation(a, p)}"
        for p, array in zip(proc.params, proc.array_params)
        if not array
    ]
    array_type = module.expr.need("BasicArray")
    params = in_order(scalars, [(i, f"{ident}: {array_type}") for i, ident, _ in arrays])
    back = [_annotation(a, name) for name in given_back(proc)]
    result = "None" if not back else back[0] if len(back) == 1 else f"tuple[{', '.join(back)}]"
    head = []
    if sub.assigns:
        head.append(Code("nonlocal " + ", ".join(sorted(stmts.var(n) for n in sub.assigns))))
    name = module.sub_names[sub.name]
    line = a.source.line_text(proc.stmt.coord.line) or ""
    comment = Code(origin_comment(proc.stmt.label, line.strip()))
    return [comment, Code(f"def {name}({', '.join(params)}) -> {result}:", _suite(head + body))]


def _annotation(a, name: str) -> str:
    return _ANNOTATIONS.get(variable_type(a, name), "float")
