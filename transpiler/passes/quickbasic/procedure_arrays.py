"""Array parameters (`SUB Sort (a())`, `CALL Sort(b())`), passed by reference exactly:
each array a procedure is called with gets a copy of the procedure whose body names
that array itself (passes/quickbasic/procedures.py lowers the copies like any procedure).

The first array (or arrays) a procedure is called with keeps its name; another gets a
copy named `SORT_2`, `SORT_3`... with variables of its own (`SORT_2_X`).  A procedure
that passes its array parameter on, or calls itself with it (quicksort), calls the
copy for the array bound to it.  A procedure with array parameters that nothing calls
is left out (it never runs).
"""

from __future__ import annotations

import copy

from ...ir import ast
from .procedure_model import Proc


def has_array_parameters(procs: dict[str, Proc]) -> bool:
    return any(isinstance(p, ast.ArrayDecl) for proc in procs.values() for p in proc.stmt.params)


def instantiate(main: list[ast.Line], procs: dict[str, Proc], values, error) -> dict[str, Proc]:
    """The procedures, with one copy of each that takes arrays per array it is called
    with; calls renamed to the copy they run."""
    pristine = {
        name: proc for name, proc in procs.items() if any(_is_array(p) for p in proc.stmt.params)
    }
    out = {name: proc for name, proc in procs.items() if name not in pristine}
    copies: dict[tuple[str, tuple[str, ...]], str] = {}
    todo: list[Proc | None] = [None] + list(out.values())  # None: the module
    while todo:
        caller = todo.pop(0)  # the module first: its arrays keep the names
        body = main if caller is None else caller.body
        for node in _calls(body):
            template = pristine.get(node.name)
            if template is None:
                continue
            actuals = _actuals(node, template, caller, error)
            if actuals is None:
                continue
            key = (template.name, actuals)
            if key not in copies:
                made = _copy(
                    template, actuals, len([k for k in copies if k[0] == template.name]), values
                )
                copies[key] = made.name
                out[made.name] = made
                todo.append(made)
            node.name = copies[key]
            _drop_arrays(node, template, values)
    return out


def _drop_arrays(node, template: Proc, values) -> None:
    """The call passes the copy its scalar arguments only."""
    keep = [i for i, p in enumerate(template.stmt.params) if not _is_array(p)]
    node.args = [node.args[i] for i in keep]
    if isinstance(node, ast.CallSub):
        node.by_value = [node.by_value[i] for i in keep]
    else:
        values[id(node)] = [values[id(node)][i] for i in keep]


def _is_array(param) -> bool:
    return isinstance(param, ast.ArrayDecl)


def _calls(body: list[ast.Line]):
    for line in body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, (ast.CallSub, ast.Call)):
                    yield node


def _actuals(node, template: Proc, caller: Proc | None, error) -> tuple[str, ...] | None:
    """The arrays a call passes to the array parameters, as the names they will have
    (a caller's own array: the caller's name for it)."""
    params = template.stmt.params
    if len(node.args) != len(params):
        return None  # reported
    names = []
    for arg, param in zip(node.args, params, strict=True):
        if not _is_array(param):
            continue
        if not (isinstance(arg, ast.Index) and not arg.indices):
            error(f"{param.name}() is an array parameter: pass a whole array, as A()", arg.coord)
            return None
        if _suffix(arg.name) != _suffix(param.name):
            error(f"parameter type mismatch: {arg.name}() passed to {param.name}()", arg.coord)
            return None
        names.append(_named_by(arg.name, caller))
    return tuple(names)


def _named_by(name: str, caller: Proc | None) -> str:
    """The name an array of `caller` will have: its own arrays are renamed."""
    if caller is None or name in caller.shared or name in caller.bound:
        return name
    own = {
        decl.name
        for line in caller.body
        for stmt in line.statements
        for decl in stmt.walk()
        if isinstance(decl, ast.ArrayDecl)
    }
    return caller.mangle(name) if name in own else name


def _copy(template: Proc, actuals: tuple[str, ...], count: int, values) -> Proc:
    """The template's copy for these arrays: array parameters renamed to them."""
    stmt = copy.deepcopy(template.stmt)
    body = copy.deepcopy(template.body)
    for old, new in zip(_calls(template.body), _calls(body), strict=True):
        if id(old) in values:
            values[id(new)] = values[id(old)]
    if count:
        bare = template.prefix
        stmt.name = f"{bare}_{count + 1}" + template.name[len(bare) :]
    arrays = [p for p in stmt.params if _is_array(p)]
    binding = {p.name: actual for p, actual in zip(arrays, actuals, strict=True)}
    stmt.params = [p for p in stmt.params if not _is_array(p)]
    for line in body:
        for s in line.statements:
            for node in s.walk():
                if isinstance(node, ast.Var) and node.name == template.name:
                    node.name = stmt.name  # a FUNCTION's result variable
                elif (
                    isinstance(node, (ast.Index, ast.ArrayDecl, ast.Bound)) and node.name in binding
                ):
                    node.name = binding[node.name]
                elif isinstance(node, ast.Shared):
                    node.names = [v for v in node.names if v.name not in binding]
    made = Proc(stmt, body, template.end)
    made.template = template.name
    made.array_args = [
        (i, p.name, binding[p.name]) for i, p in enumerate(template.stmt.params) if _is_array(p)
    ]
    made.array_bound_twice = bool(template.shared & set(binding.values())) or any(
        isinstance(node, ast.Bound) and node.lower and node.name in binding
        for line in template.body
        for s in line.statements
        for node in s.walk()
    )
    made.bound = set(binding.values())
    made.shared = (template.shared - set(binding)) | made.bound
    return made


def _suffix(name: str) -> str:
    return name[-1] if name[-1] in "$%#" else ""
