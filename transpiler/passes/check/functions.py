"""Pass 8: DEF FN functions (ECMA-55 16).

Each function is defined once; every call names a defined function with the right
number of arguments; no function calls itself, directly or through others.  Strict
mode also requires the DEF to come before every call in the text (16.4; bas55 agrees),
which makes recursion impossible.  In extended mode a function may be called from
anywhere (the DEF need not have run): definitions are static, like line numbers.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.ast import is_user_function
from ...ir.model import Analysis, FunctionSymbol, type_of_name
from ...runtime.gwerrors import gw_message
from .run_time_faults import fault_in_place

UNDEFINED_FUNCTION = gw_message(18)


def _calls(expr: ast.Expr) -> list[ast.Call]:
    return [n for n in expr.walk() if isinstance(n, ast.Call) and is_user_function(n.name)]


def run(analysis: Analysis, diags: Diagnostics) -> None:
    def error(message: str, coord) -> None:
        diags.error(BasicSemanticError(message, coord))

    # Definitions first: in extended mode a call may precede its DEF.
    for index, stmt in enumerate(analysis.stmts):
        if not isinstance(stmt, ast.DefFn):
            continue
        old = analysis.functions.get(stmt.name)
        if old is not None:
            error(
                f"function {stmt.name} defined twice (first at {analysis.line_name(old.stmt.coord)})",
                stmt.coord,
            )
            continue
        if len(set(stmt.params)) != len(stmt.params):
            error(f"function {stmt.name} has two parameters of the same name", stmt.coord)
        analysis.functions[stmt.name] = FunctionSymbol(
            name=stmt.name,
            params=list(stmt.params),
            param_types=[type_of_name(p) for p in stmt.params],
            result_type=type_of_name(stmt.name),
            body=stmt.body,
            stmt=stmt,
            index=index,
            calls=[c.name for c in _calls(stmt.body)],
        )

    undefined: dict[int, ast.Call] = {}
    for index, stmt in enumerate(analysis.stmts):
        inside = stmt.name if isinstance(stmt, ast.DefFn) else None
        for node in stmt.walk():
            if not (isinstance(node, ast.Call) and is_user_function(node.name)):
                continue
            fn = analysis.functions.get(node.name)
            if fn is None and _undefined_at_run_time(analysis, stmt):
                undefined.setdefault(index, node)
            elif fn is None:
                error(f"undefined function {node.name}", node.coord)
            elif node.name == inside:
                error(f"function {node.name} calls itself (DEF FN cannot recurse)", node.coord)
            elif analysis.options.strict and fn.index > index:
                error(
                    f"function {node.name} used before its DEF ({analysis.line_name(fn.stmt.coord)})",
                    node.coord,
                )
            elif len(node.args) != len(fn.params):
                error(
                    f"function {node.name} takes {_count(len(fn.params))}, {len(node.args)} given",
                    node.coord,
                )

    for index, call in undefined.items():
        why = f"undefined function {call.name}"
        fault_in_place(analysis, index, UNDEFINED_FUNCTION, why, call.coord)
    _check_indirect_recursion(analysis, error)


def _undefined_at_run_time(analysis: Analysis, stmt: ast.Stmt) -> bool:
    """GW-BASIC: a call of a function no DEF FN defines is "Undefined user function" when
    it runs.  So here for a simple statement (not a DEF FN, whose body runs at its calls,
    nor one that opens or closes a block)."""
    options = analysis.options
    if not (options.microsoft and not options.qbasic):
        return False
    return not isinstance(stmt, _NOT_SIMPLE)


_NOT_SIMPLE = (
    ast.DefFn, ast.IfBlock, ast.ElseIf, ast.Else, ast.EndIf, ast.For, ast.Next, ast.While,
    ast.Wend,
)  # fmt: skip


def _count(n: int) -> str:
    return "no argument" if n == 0 else f"{n} argument" + ("s" if n > 1 else "")


def _check_indirect_recursion(analysis: Analysis, error) -> None:
    """A cycle FNA -> FNB -> ... -> FNA through two or more functions (a direct
    self-call is reported at the call)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    reported: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        path.append(name)
        for callee in analysis.functions[name].calls:
            if callee == name or callee not in analysis.functions:
                continue
            if state.get(callee) == 1:
                cycle = path[path.index(callee) :] + [callee]
                if callee not in reported:
                    reported.update(cycle)
                    fn = analysis.functions[callee]
                    error(
                        "recursive functions: " + " -> ".join(cycle) + " (DEF FN cannot recurse)",
                        fn.stmt.coord,
                    )
            elif callee not in state:
                visit(callee, path)
        path.pop()
        state[name] = 2

    for name in analysis.functions:
        if name not in state:
            visit(name, [])
