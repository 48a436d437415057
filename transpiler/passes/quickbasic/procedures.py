"""QuickBASIC's SUB and FUNCTION procedures, lowered to GOSUB subroutines (run by
passes/check/flatten.py before it flattens the lines).

- the module's lines come first, then an END, then each procedure's body, which starts
  at the label `SUB name` and ends with a RETURN labelled `END name` (EXIT SUB and EXIT
  FUNCTION go there);
- the parameters and local variables are variables of their own, `NAME_X` for X in SUB
  NAME (generated code: `name_x`); a FUNCTION's name is its result variable in its body
  (`FACT_FACT#` in `FUNCTION Fact#`); the locals start at 0 or "" on each call, as in
  QuickBASIC, unless `SUB ... STATIC` or the `STATIC x` statement keeps them; SHARED
  names and the module's CONSTs are the module's variables; an array DIMmed in a
  procedure is one of its own (`NAME_A`), made again by each call;
- `CALL NAME(a, b)` (or `NAME a, b`) assigns each argument to its parameter, GOSUBs the
  SUB, and copies each parameter back into its argument when that is a variable or an
  array element (QuickBASIC passes those by reference; an expression, or a variable in
  parentheses of its own, by value).  Copying in and out is passing by reference as long
  as the procedure does not reach the same variable another way (SHARED, or passed
  twice): that is a located error;
- a FUNCTION call in an expression is hoisted into statements before the statement that
  holds it: its arguments, the GOSUB, the result into a fresh temporary (`CALL_1#` in the
  module, `NAME_1#` in a procedure), which the expression reads instead.  Calls run
  left to right, innermost first, before the statement, as QuickBASIC evaluates them
  (it does not short-circuit AND and OR).  A condition tested more than once (DO WHILE,
  LOOP UNTIL, WHILE, ELSEIF) is rewritten so that its calls run where it is tested
  (passes/quickbasic/procedure_loops.py, passes/quickbasic/procedure_calls.py);
- recursion: a call that may come back to the procedure making it saves that
  procedure's frame (its parameters, locals, result and the call results the statement
  still needs) in arrays `SAVED_NAME_X(CALL_DEPTH%)` before the GOSUB and puts it back
  after it; more than `STACK_DEPTH` nested calls stop with QuickBASIC's `Out of stack
  space`.

What is not implemented is a located error.
"""

from __future__ import annotations

import dataclasses

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from .procedure_model import Proc, reach, rewrite


def uses_procedures(program: ast.Program) -> bool:
    kinds = (
        ast.SubDef, ast.EndSub, ast.ExitSub, ast.CallSub, ast.DeclareSub, ast.Shared,
        ast.Static,
    )  # fmt: skip
    return any(isinstance(stmt, kinds) for stmt in program.statements())


def lower(analysis: Analysis, diags: Diagnostics) -> None:
    """Rewrite `analysis.program.lines`: the module, END, then the procedures as
    subroutines."""
    # (imported here: procedure_loops needs expr_facts, which imports the passes package)
    from .procedure_arrays import has_array_parameters, instantiate
    from .procedure_calls import Lowering

    error = _reporter(diags)
    main, procs = _split(analysis.program.lines, error)
    _check_declarations(main, procs, error)
    functions = {name for name, proc in procs.items() if proc.stmt.function}
    values: dict[int, list[bool]] = {}  # id of a FUNCTION call -> by_value of its args
    _mark_calls(main, functions, None, analysis.source.lines, values, error)
    for proc in procs.values():
        _mark_calls(proc.body, functions, proc.name, analysis.source.lines, values, error)
    constants = {
        var.name
        for line in main
        for stmt in line.statements
        if isinstance(stmt, ast.Const)
        for var in stmt.names
    }
    module_shared = _dim_shared(main)
    for proc in procs.values():
        proc.shared = {
            var.name
            for line in proc.body
            for stmt in line.statements
            if isinstance(stmt, ast.Shared)
            for var in stmt.names
        }
        proc.shared |= module_shared & _names_used(proc.body)
    reached = _shared_reached(procs)
    for proc in procs.values():
        _check_calls(proc.body, procs, reached, values, constants, error)
    _check_calls(main, procs, reached, values, constants, error)
    if has_array_parameters(procs):
        procs = instantiate(main, procs, values, error)
    for proc in procs.values():
        _rename(proc, constants, error)
    _fold_lower_bounds(main, procs, error)
    lowering = Lowering(analysis, procs, values, constants, error)
    lines = lowering.module(main)
    if procs:
        first = next(iter(procs.values())).stmt
        lines.append(ast.Line(None, [ast.End(coord=first.coord)], coord=first.coord))
    for proc in procs.values():
        lines.extend(lowering.procedure(proc))
    analysis.program.lines = lowering.with_frames(lines)


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


def _split(lines: list[ast.Line], error) -> tuple[list[ast.Line], dict[str, Proc]]:
    """The module's lines, and each procedure with the lines of its body."""
    main: list[ast.Line] = []
    procs: dict[str, Proc] = {}
    current: Proc | None = None
    for line in lines:
        head = line.statements[0] if line.statements else None
        if isinstance(head, ast.SubDef):
            if current is not None:
                error(
                    f"{head.word} {head.name} inside {current.stmt.word} {current.name}", head.coord
                )
            elif head.name in procs or head.name.rstrip("$%#!&") in {
                p.prefix for p in procs.values()
            }:
                error(f"{head.word} {head.name} defined twice", head.coord)
            else:
                current = procs[head.name] = Proc(head)
            _alone(line, error)
            continue
        if isinstance(head, ast.EndSub):
            if current is None or current.stmt.function != head.function:
                error(f"END {head.word} without {head.word}", head.coord)
            else:
                current.end = head
                current = None
            _alone(line, error)
            continue
        for stmt in line.statements[1:]:
            if isinstance(stmt, (ast.SubDef, ast.EndSub)):
                error(
                    f"{stmt.word} and END {stmt.word} must stand alone on their lines", stmt.coord
                )
        (current.body if current is not None else main).append(line)
    if current is not None:
        error(
            f"{current.stmt.word} {current.name} without END {current.stmt.word}",
            current.stmt.coord,
        )
    return main, procs


def _alone(line: ast.Line, error) -> None:
    head = line.statements[0]
    for stmt in line.statements[1:]:
        if not isinstance(stmt, ast.Rem):
            error(f"{head.word} and END {head.word} must stand alone on their lines", stmt.coord)


def _bare(name: str) -> str:
    return name.rstrip("$%#!&")


def _check_declarations(main: list[ast.Line], procs: dict[str, Proc], error) -> None:
    """DECLARE names a procedure of the program, of the same kind, with as many
    parameters.  (The IDE writes DECLAREs above the DEFINT that types the procedure's
    names, so they are compared without their suffixes.)"""
    by_bare = {proc.prefix: proc for proc in procs.values()}
    for line in main:
        for stmt in line.statements:
            if not isinstance(stmt, ast.DeclareSub):
                continue
            proc = by_bare.get(_bare(stmt.name))
            if proc is None or proc.stmt.function != stmt.function:
                error(
                    f"DECLARE {stmt.word} {stmt.name}: no {stmt.word} {stmt.name} in the program",
                    stmt.coord,
                )
            elif [_bare(p.name) for p in stmt.params] != [_bare(p.name) for p in proc.stmt.params]:
                error(
                    f"DECLARE {stmt.word} {stmt.name} does not match its {stmt.word}'s parameters",
                    stmt.coord,
                )


# ------------------------------------------------------------------ FUNCTION calls


def _mark_calls(
    lines: list[ast.Line], functions: set[str], inside: str | None, text, values, error
) -> None:
    """Make every use of a FUNCTION's name a `Call` node: `F(x)`, and `F` alone
    outside F's own body, where it is F's result variable (with arguments it is a
    recursive call).  `values[id(call)]`: which arguments are in parentheses of their
    own (`F((x))`: passed by value), read in the source `text` as CALL's are."""
    if not functions:
        return
    by_bare = {_bare(name): name for name in functions}

    def function(name: str) -> str | None:
        """The FUNCTION a name stands for: its own, or written without the suffix that
        a DEFtype or its definition gave it (`Safe(r, c)` for `FUNCTION Safe%`)."""
        if name in functions:
            return name
        return by_bare.get(name) if name == _bare(name) else None

    def call(node: ast.Node) -> ast.Node:
        if not isinstance(node, (ast.Index, ast.Var)):
            return node
        name = function(node.name)
        if name is None:
            return node
        if isinstance(node, ast.Index):
            made = ast.Call(name, node.indices, coord=node.coord)
            values[id(made)] = [_in_parentheses(arg, text) for arg in node.indices]
            return made
        if name == inside:
            node.name = name  # the result variable
            return node
        made = ast.Call(name, [], coord=node.coord)
        values[id(made)] = []
        return made

    for line in lines:
        for stmt in line.statements:
            rewrite(stmt, call)
            for node in stmt.walk():
                if (
                    isinstance(node, (ast.ArrayDecl, ast.Dim))
                    and getattr(node, "name", None) in functions
                ):
                    error(f"{node.name} is a FUNCTION: it cannot be an array", node.coord)


def _in_parentheses(arg: ast.Expr, text) -> bool:
    """Whether the node starts at a '(' (an expression in parentheses of its own)."""
    where = arg.coord
    if not where.line or where.line > len(text):
        return False
    line = text[where.line - 1]
    return 0 < where.column <= len(line) and line[where.column - 1] == "("


def _shared_reached(procs: dict[str, Proc]) -> dict[str, set[str]]:
    """Procedure name -> the module's names it or a procedure it calls SHAREs."""
    reached = reach(procs)
    return {
        name: procs[name].shared.union(*(procs[c].shared for c in reached[name])) for name in procs
    }


def _check_calls(lines: list[ast.Line], procs, reached, values, constants, error) -> None:
    for line in lines:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.CallSub):
                    _check_call(node, node.args, node.by_value, procs, reached, constants, error)
                elif isinstance(node, ast.Call) and node.name in procs:
                    _check_call(node, node.args, values[id(node)], procs, reached, constants, error)


def _check_call(node, args, values, procs, reached, constants, error) -> None:
    proc = procs.get(node.name)
    if proc is None or (isinstance(node, ast.CallSub) and proc.stmt.function):
        error(f"CALL of SUB {node.name}, which the program does not define", node.coord)
        return
    params = proc.stmt.params
    if len(args) != len(params):
        error(
            f"{proc.stmt.word} {node.name} takes {len(params)} argument(s), not {len(args)}",
            node.coord,
        )
        return
    passed: set[str] = set()
    for arg, param, value in zip(args, params, values, strict=True):
        if isinstance(param, ast.ArrayDecl):
            continue  # passes/quickbasic/procedure_arrays.py
        if isinstance(arg, ast.Index) and not arg.indices:
            error(f"{arg.name}() is an array: {param.name} is not an array parameter", arg.coord)
            continue
        if isinstance(arg, (ast.Var, ast.Index)) and not value and arg.name not in constants:
            # copied in and back: right unless the procedure reaches it another way
            if arg.name in reached[node.name] or arg.name in passed:
                how = "passed twice" if arg.name in passed else f"SHARED by the {proc.stmt.word}"
                error(
                    f"{arg.name} is passed by reference and {how}: not supported "
                    "yet (pass it in parentheses, by value)",
                    arg.coord,
                )
            passed.add(arg.name)
            if _suffix(arg.name) != _suffix(param.name):
                error(
                    f"parameter type mismatch: {arg.name} passed by reference to {param.name}",
                    arg.coord,
                )


def _suffix(name: str) -> str:
    """The type suffix of a name (`x AS LONG` is X& by now); `!` is a plain name's."""
    return name[-1] if name[-1] in "$%#&" else ""


# ------------------------------------------------------------------ names


def _rename(proc: Proc, constants: set[str], error) -> None:
    """Give the procedure's parameters, locals and arrays names of their own."""
    module = proc.shared | constants
    params = {p.name for p in proc.stmt.params}
    statics = {  # STATIC names keep their values; a CONST is assigned once anyway
        var.name
        for line in proc.body
        for stmt in line.statements
        if isinstance(stmt, (ast.Static, ast.Const))
        for var in stmt.names
    }
    locals_: list[str] = []
    for line in proc.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.Var) and node.name not in module | params:
                    if node.name not in locals_ and node.name != proc.name:
                        locals_.append(node.name)
                elif isinstance(node, ast.ArrayDecl) and node.name not in module:
                    proc.arrays.add(node.name)
    for line in proc.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if (
                    isinstance(node, (ast.Index, ast.ArrayDecl, ast.Bound))
                    and node.name not in module
                ):
                    if node.name not in proc.arrays:
                        error(
                            f"array {node.name} in {proc.stmt.word} {proc.name}: DIM it in the "
                            f"{proc.stmt.word}, or SHARE it",
                            node.coord,
                        )
                    node.name = proc.mangle(node.name)
                elif isinstance(node, ast.Var) and node.name not in module:
                    node.name = proc.mangle(node.name)
    _rename_labels(proc)
    proc.arrays = {proc.mangle(n) for n in proc.arrays}
    proc.locals = [proc.mangle(n) for n in locals_ if n not in params]
    proc.statics = {proc.mangle(n) for n in statics}
    if proc.stmt.static:
        proc.statics |= set(proc.locals)


def _rename_labels(proc: Proc) -> None:
    """A procedure's labels are its own (two SUBs may each have a `Done:`): `NAME_DONE`."""
    labels = {line.name for line in proc.body if line.name is not None}
    if not labels:
        return
    for line in proc.body:
        if line.name is not None:
            line.name = proc.mangle(line.name)
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.LineRef) and node.name in labels:
                    node.name = proc.mangle(node.name)


def _fold_lower_bounds(main: list[ast.Line], procs: dict[str, Proc], error) -> None:
    """LBOUND of an array parameter, in each copy, as the bound of the array it names
    now, once every array has its final name (passes/quickbasic/records.py folds the others)."""
    from .records import declared_lows, lower_bound

    def report(message, node):
        error(message, node.coord)

    everything = main + [line for proc in procs.values() for line in proc.body]
    lows = declared_lows(everything)
    for line in everything:
        for stmt in line.statements:
            _replace_bounds(stmt, lambda node: lower_bound(node, lows, report))


def _replace_bounds(node: ast.Node, fold) -> None:
    """Every LBOUND below `node` (nested statements too) replaced by `fold(it)`."""
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            if isinstance(item, ast.Bound) and item.lower:
                items[i] = fold(item)
            elif isinstance(item, ast.Node):
                _replace_bounds(item, fold)
        if not isinstance(value, list) and items[0] is not value:
            setattr(node, f.name, items[0])
