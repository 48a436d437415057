"""QuickBASIC's SUB procedures, lowered to GOSUB subroutines (run by passes/flatten.py
before it flattens the lines).

A first version, for SUBs that are not recursive and take scalar parameters:

- the module's lines come first, then an END, then each SUB's body, which starts at the
  label `SUB name` and ends with a RETURN labelled `END name` (EXIT SUB goes there);
- the SUB's parameters and local variables are variables of their own, `NAME_X` for X
  in SUB NAME (generated code: `name_x`); the locals start at 0 or "" on each call, as
  in QuickBASIC; SHARED names and the module's CONSTs are the module's variables;
- `CALL NAME(a, b)` assigns each argument to its parameter, GOSUBs the SUB, and copies
  each parameter back into its argument when that is a variable or an array element
  (QuickBASIC passes those by reference; an expression, or a variable in parentheses of
  its own, by value).  Copying in and out is passing by reference as long as the SUB does
  not reach the same variable another way (SHARED, or passed twice).

Anything else (recursion, array parameters, arrays that are not SHARED, FUNCTION, a
SUB called without CALL) is a located error.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .. import ast
from ..errors import BasicSemanticError, Diagnostics
from ..model import Analysis


@dataclass
class _Sub:
    stmt: ast.SubDef
    body: list[ast.Line] = field(default_factory=list)
    end: ast.EndSub | None = None
    shared: set[str] = field(default_factory=set)
    calls: list[ast.CallSub] = field(default_factory=list)


def uses_procedures(program: ast.Program) -> bool:
    kinds = (ast.SubDef, ast.EndSub, ast.ExitSub, ast.CallSub, ast.DeclareSub, ast.Shared)
    return any(isinstance(stmt, kinds) for stmt in program.statements())


def lower(analysis: Analysis, diags: Diagnostics) -> None:
    """Rewrite `analysis.program.lines`: the module, END, then the SUBs as subroutines."""
    error = _reporter(diags)
    main, subs = _split(analysis.program.lines, error)
    constants = {
        var.name
        for line in main
        for stmt in line.statements
        if isinstance(stmt, ast.Const)
        for var in stmt.names
    }
    _check_declarations(main, subs, error)
    module_shared = _dim_shared(main)
    for sub in subs.values():
        sub.shared = {
            var.name
            for line in sub.body
            for stmt in line.statements
            if isinstance(stmt, ast.Shared)
            for var in stmt.names
        }
        sub.shared |= module_shared & _names_used(sub.body)
    reached = _shared_reached(subs)
    for sub in subs.values():
        _check_calls(sub.body, subs, reached, error)
    _check_calls(main, subs, reached, error)
    _check_recursion(subs, error)
    lines = [_lowered_line(line, subs, None, error) for line in main]
    if subs:
        first = next(iter(subs.values())).stmt
        lines.append(ast.Line(None, [ast.End(coord=first.coord)], coord=first.coord))
    for sub in subs.values():
        lines.extend(_sub_lines(sub, subs, constants, error))
    analysis.program.lines = lines


def _dim_shared(main: list[ast.Line]) -> set[str]:
    """The names that the module's `DIM SHARED` gives every SUB."""
    names: set[str] = set()
    for line in main:
        for stmt in line.statements:
            if isinstance(stmt, ast.Dim) and stmt.shared:
                names |= {d.name for d in stmt.arrays} | {d.name for d in stmt.scalars}
    return names


def _names_used(lines: list[ast.Line]) -> set[str]:
    return {
        node.name
        for line in lines
        for stmt in line.statements
        for node in stmt.walk()
        if isinstance(node, (ast.Var, ast.Index))
    }


def _reporter(diags: Diagnostics):
    def error(message: str, coord) -> None:
        diags.error(BasicSemanticError(message, coord))

    return error


def _split(lines: list[ast.Line], error) -> tuple[list[ast.Line], dict[str, _Sub]]:
    """The module's lines, and each SUB with the lines of its body."""
    main: list[ast.Line] = []
    subs: dict[str, _Sub] = {}
    current: _Sub | None = None
    for line in lines:
        head = line.statements[0] if line.statements else None
        if isinstance(head, ast.SubDef):
            if current is not None:
                error(f"SUB {head.name} inside SUB {current.stmt.name}", head.coord)
            elif head.name in subs:
                error(f"SUB {head.name} defined twice", head.coord)
            else:
                current = subs[head.name] = _Sub(head)
            _alone(line, error)
            continue
        if isinstance(head, ast.EndSub):
            if current is None:
                error("END SUB without SUB", head.coord)
            else:
                current.end = head
                current = None
            _alone(line, error)
            continue
        for stmt in line.statements[1:]:
            if isinstance(stmt, (ast.SubDef, ast.EndSub)):
                error("SUB and END SUB must stand alone on their lines", stmt.coord)
        (current.body if current is not None else main).append(line)
    if current is not None:
        error(f"SUB {current.stmt.name} without END SUB", current.stmt.coord)
    return main, subs


def _alone(line: ast.Line, error) -> None:
    for stmt in line.statements[1:]:
        if not isinstance(stmt, ast.Rem):
            error("SUB and END SUB must stand alone on their lines", stmt.coord)


def _check_declarations(main: list[ast.Line], subs: dict[str, _Sub], error) -> None:
    for line in main:
        for stmt in line.statements:
            if isinstance(stmt, ast.DeclareSub):
                sub = subs.get(stmt.name)
                if sub is None:
                    error(f"DECLARE SUB {stmt.name}: no SUB {stmt.name} in the program", stmt.coord)
                elif [p.name for p in stmt.params] != [p.name for p in sub.stmt.params]:
                    error(
                        f"DECLARE SUB {stmt.name} does not match its SUB's parameters", stmt.coord
                    )


def _callees(sub: _Sub) -> set[str]:
    return {
        s.name
        for line in sub.body
        for s in _statements(line.statements)
        if isinstance(s, ast.CallSub)
    }


def _shared_reached(subs: dict[str, _Sub]) -> dict[str, set[str]]:
    """SUB name -> the module's names it or a SUB it calls (transitively) SHAREs."""
    reached = {}
    for name in subs:
        seen, todo, names = {name}, [name], set()
        while todo:
            sub = subs[todo.pop()]
            names |= sub.shared
            for callee in _callees(sub) - seen:
                if callee in subs:
                    seen.add(callee)
                    todo.append(callee)
        reached[name] = names
    return reached


def _check_calls(lines: list[ast.Line], subs: dict[str, _Sub], reached, error) -> None:
    for line in lines:
        for stmt in _statements(line.statements):
            if not isinstance(stmt, ast.CallSub):
                continue
            sub = subs.get(stmt.name)
            if sub is None:
                error(f"CALL of SUB {stmt.name}, which the program does not define", stmt.coord)
                continue
            if len(stmt.args) != len(sub.stmt.params):
                error(
                    f"SUB {stmt.name} takes {len(sub.stmt.params)} argument(s), not "
                    f"{len(stmt.args)}",
                    stmt.coord,
                )
                continue
            passed: set[str] = set()
            for arg, param, by_value in zip(stmt.args, sub.stmt.params, stmt.by_value, strict=True):
                if isinstance(arg, (ast.Var, ast.Index)) and not by_value:
                    # copied in and back: right unless the SUB reaches it another way
                    if arg.name in reached[stmt.name] or arg.name in passed:
                        how = "passed twice" if arg.name in passed else "SHARED by the SUB"
                        error(
                            f"{arg.name} is passed by reference and {how}: not supported "
                            "yet (pass it in parentheses, by value)",
                            arg.coord,
                        )
                    passed.add(arg.name)
                    if _suffix(arg.name) != _suffix(param.name):
                        error(
                            f"parameter type mismatch: {arg.name} passed by reference to "
                            f"{param.name}",
                            arg.coord,
                        )


def _statements(stmts: list[ast.Stmt]):
    """The statements, one-line IF branches included."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _statements(stmt.then_body)
            yield from _statements(stmt.else_body)


def _check_recursion(subs: dict[str, _Sub], error) -> None:
    calls = {name: _callees(sub) for name, sub in subs.items()}
    for name, sub in subs.items():
        seen, todo = set(), list(calls[name])
        while todo:
            callee = todo.pop()
            if callee == name:
                error(
                    f"SUB {name} calls itself: recursive SUBs are not supported yet", sub.stmt.coord
                )
                break
            if callee not in seen and callee in calls:
                seen.add(callee)
                todo.extend(calls[callee])


def _suffix(name: str) -> str:
    return name[-1] if name[-1] in "$%#" else ""


def _mangle(sub: str, name: str) -> str:
    return f"{sub}_{name}"


def _entry(name: str) -> ast.LineRef:
    return ast.LineRef(0, f"SUB {name}")


def _sub_lines(sub: _Sub, subs, constants: set[str], error) -> list[ast.Line]:
    """The SUB as a subroutine: its label, its locals reset, its body, its RETURN."""
    name, coord = sub.stmt.name, sub.stmt.coord
    module = sub.shared | constants
    params = {p.name for p in sub.stmt.params}
    locals_: list[str] = []
    for line in sub.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.Var) and node.name not in module | params:
                    if node.name not in locals_:
                        locals_.append(node.name)
                elif isinstance(node, (ast.Index, ast.ArrayDecl)) and node.name not in module:
                    error(
                        f"array {node.name} in SUB {name}: only SHARED arrays are supported "
                        "in a SUB yet",
                        node.coord,
                    )
    resets = (
        []
        if sub.stmt.static
        else [  # STATIC: locals keep their values
            ast.Let(
                ast.Var(_mangle(name, local), coord=coord),
                ast.Str("", coord=coord) if local.endswith("$") else ast.Num(0.0, "0", coord=coord),
                coord=coord,
            )
            for local in locals_
        ]
    )
    lines = [ast.Line(None, resets, name=_entry(name).name, coord=coord)]
    renamed = (params | set(locals_)) - module
    for line in sub.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.Var) and node.name in renamed:
                    node.name = _mangle(name, node.name)
        lines.append(_lowered_line(line, subs, name, error))
    end = sub.end or sub.stmt
    lines.append(ast.Line(None, [ast.Return(coord=end.coord)], name=f"END {name}", coord=end.coord))
    return lines


def _lowered_line(line: ast.Line, subs: dict[str, _Sub], inside: str | None, error) -> ast.Line:
    line.statements = _lowered(line.statements, subs, inside, error)
    return line


def _lowered(stmts: list[ast.Stmt], subs, inside: str | None, error) -> list[ast.Stmt]:
    out: list[ast.Stmt] = []
    for stmt in stmts:
        where = {"coord": stmt.coord}
        if isinstance(stmt, ast.If):
            stmt.then_body = _lowered(stmt.then_body, subs, inside, error)
            stmt.else_body = _lowered(stmt.else_body, subs, inside, error)
            out.append(stmt)
        elif isinstance(stmt, ast.CallSub):
            out.extend(_call(stmt, subs))
        elif isinstance(stmt, ast.ExitSub):
            if inside is None:
                error("EXIT SUB outside a SUB", stmt.coord)
            out.append(ast.Goto(ast.LineRef(0, f"END {inside}", **where), **where))
        elif isinstance(stmt, ast.Shared):
            if inside is None:
                error("SHARED outside a SUB", stmt.coord)
            out.append(ast.Rem("", **where))
        elif isinstance(stmt, ast.DeclareSub):
            out.append(ast.Rem("", **where))
        else:
            out.append(stmt)
    return out


def _call(stmt: ast.CallSub, subs: dict[str, _Sub]) -> list[ast.Stmt]:
    """Copy the arguments in, GOSUB, copy the variables passed by reference back."""
    sub = subs.get(stmt.name)
    where = {"coord": stmt.coord}
    if sub is None or len(sub.stmt.params) != len(stmt.args):
        return [ast.Rem("", **where)]  # reported
    out: list[ast.Stmt] = []
    back: list[ast.Stmt] = []
    for arg, param, by_value in zip(stmt.args, sub.stmt.params, stmt.by_value, strict=True):
        local = _mangle(sub.stmt.name, param.name)
        out.append(ast.Let(ast.Var(local, **where), arg, **where))
        if isinstance(arg, (ast.Var, ast.Index)) and not by_value:
            back.append(ast.Let(copy.deepcopy(arg), ast.Var(local, **where), **where))
    ref = _entry(sub.stmt.name)
    ref.coord = stmt.coord
    return out + [ast.Gosub(ref, **where)] + back
