"""What the QuickBASIC procedure passes share (passes/quickbasic/procedures.py lowers SUBs and
FUNCTIONs, procedure_calls.py their calls in expressions, procedure_arrays.py their
array parameters): a procedure as the lowering sees it, and walks over its calls."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...ir import ast


@dataclass
class Proc:
    """A SUB or FUNCTION: its definition, its body's lines, and what the lowering found."""

    stmt: ast.SubDef
    body: list[ast.Line] = field(default_factory=list)
    end: ast.EndSub | None = None
    shared: set[str] = field(default_factory=set)  # the module's names it uses
    statics: set[str] = field(default_factory=set)  # STATIC x: keeps its value
    locals: list[str] = field(default_factory=list)  # mangled names, in order of use
    arrays: set[str] = field(default_factory=set)  # its own arrays
    temps: int = 0  # temporaries made so far
    scratch: list[str] = field(default_factory=list)  # those that are no locals (call results)
    bound: set[str] = field(default_factory=set)  # the arrays its array parameters are
    # A copy for the arrays a call passes (passes/quickbasic/procedure_arrays.py): its template's
    # name, and (position among the template's parameters, parameter, array) of each.
    template: str | None = None
    array_args: list[tuple[int, str, str]] = field(default_factory=list)
    # The template reaches an array it is called with another way too (SHARED), or
    # asks the lower bound of an array parameter (folded per copy).
    array_bound_twice: bool = False

    @property
    def name(self) -> str:
        return self.stmt.name

    @property
    def prefix(self) -> str:
        """The name without its type suffix: the prefix of its variables."""
        return self.name.rstrip("$%#!&")

    def mangle(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    @property
    def result(self) -> str:
        """A FUNCTION's result variable."""
        return self.mangle(self.name)

    @property
    def params(self) -> list[str]:
        return [self.mangle(p.name) for p in self.stmt.params]

    def frame(self) -> list[str]:
        """The variables one activation owns (what a recursive call saves)."""
        names = list(self.params)
        names += [n for n in self.locals if n not in self.statics and n not in names]
        if self.stmt.function:
            names.append(self.result)
        return names


def rewrite(node: ast.Node, replace) -> None:
    """Replace, in place, every node below `node` by `replace(node)`: children first,
    left to right (the order QuickBASIC evaluates an expression's calls in)."""
    for name in ast._child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, ast.Node):
            rewrite(value, replace)
            setattr(node, name, replace(value))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.Node):
                    rewrite(item, replace)
                    value[i] = replace(item)


def calls_in(node: ast.Node | None, functions) -> list[ast.Call]:
    if node is None:
        return []
    return [n for n in node.walk() if isinstance(n, ast.Call) and n.name in functions]


def callees(proc: Proc, procs: dict[str, Proc]) -> set[str]:
    """The procedures `proc` calls (SUBs by CALL, FUNCTIONs in expressions)."""
    names = set()
    for line in proc.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, (ast.CallSub, ast.Call)) and node.name in procs:
                    names.add(node.name)
    return names


def reach(procs: dict[str, Proc]) -> dict[str, set[str]]:
    """Procedure name -> every procedure a call of it may run (itself excluded unless
    it is recursive)."""
    direct = {name: callees(proc, procs) for name, proc in procs.items()}
    reached = {}
    for name in procs:
        seen, todo = set(), list(direct[name])
        while todo:
            callee = todo.pop()
            if callee not in seen:
                seen.add(callee)
                todo.extend(direct[callee])
        reached[name] = seen
    return reached


def copy_of(expr: ast.Expr) -> ast.Expr:
    return copy.deepcopy(expr)
