"""QuickBASIC's SUBs and FUNCTIONs lowered to functions once, for both targets
(passes/quickbasic/procedure_functions.py made them): their names and their locals'
names, their parameters in order, and the values a call gives back.  The printers
(backends/*/host.py, host_procs.py) only write them in their syntax."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import hostir
from ..ir.model import Analysis, variable_type
from ..ir.naming import Namer, base_name
from ..ir.procedure_records import ProcedureRecord, names_in

# Each procedure function's array parameters: (position, identifier, the array).
ArrayParams = list[tuple[int, str, str]]


def name_procedures(
    host: hostir.HostProgram, namer: Namer, sub_names: dict[str, str]
) -> dict[str, ArrayParams]:
    """Each procedure function's name (`swap2` for SUB Swap2, `fact` for FUNCTION
    Fact#) and its variables' (their names in the source: `a`, `n_int`; a FUNCTION's
    value `result`).  A local may shadow a program variable the procedure does not use:
    the names are given after every program name, so later identifiers avoid them."""
    subs = [sub for sub in host.subroutines if sub.procedure is not None]
    arrays: dict[str, ArrayParams] = {}
    for sub in subs:
        sub_names[sub.name] = namer.fresh(base_name(sub.procedure.name.rstrip("$%#!&")))
    taken = namer.taken()
    program_vars = {v: namer.name(v) for v in host.analysis.variables}
    locals_: set[str] = set()  # the other functions' locals
    for sub in subs:
        used = names_in(sub.body)
        free = {ident for v, ident in program_vars.items() if v not in used} & taken
        free |= locals_
        mine: set[str] = set()
        arrays[sub.name] = []
        for i, param, array in sub.array_params:  # (a key no BASIC name can be)
            ident = namer.local(f"{sub.name} {param}()", base_name(param), free - mine)
            arrays[sub.name].append((i, ident, array))
            mine.add(ident)
        for name, wanted in local_names(sub.procedure):
            mine.add(namer.local(name, wanted, free - mine))
        locals_ |= mine
    return arrays


@dataclass
class Param:
    """A parameter of a procedure's function: a scalar (`name` its variable, `kind` its
    type; `by_reference`: the procedure may change it) or an array (`name` the
    function's identifier for it, `kind` its elements' type)."""

    name: str
    kind: str
    array: bool = False
    by_reference: bool = False


def parameters(a: Analysis, proc: ProcedureRecord, arrays: ArrayParams) -> list[Param]:
    """The parameters of a procedure's function in the source's order."""
    changed = proc.changed_params()
    scalars = [
        Param(p, variable_type(a, p), by_reference=p in changed)
        for p, array in zip(proc.params, proc.array_params)
        if not array
    ]
    array_params = [(i, Param(ident, a.arrays[name].elem_type, True)) for i, ident, name in arrays]
    return in_order(scalars, array_params)


def in_order(scalars: list, arrays: list[tuple[int, object]]) -> list:
    """The parameters (or arguments) in the source's order: the scalar ones, with the
    arrays put back at their positions."""
    out = list(scalars)
    for index, item in sorted(arrays, key=lambda pair: pair[0]):
        out.insert(index, item)
    return out


def call_text(stmts, node: hostir.ProcCall, args: list[str]) -> str:
    """`swap2(x, y, a)`: the call of a procedure's function by statement printer
    `stmts`, with `args` (the scalar arguments) and the arrays at their positions."""
    arrays = [(i, stmts.expr.array(name)) for i, name in node.arrays]
    return f"{stmts.sub_names[node.subroutine]}({', '.join(in_order(args, arrays))})"


def procedure_notes(host: hostir.HostProgram) -> list[str]:
    """Why each SUB or FUNCTION that is not a function stays GOSUB-style code."""
    procs = host.analysis.procedures
    notes = [
        f"{procs[name].stmt.word} {name} is GOSUB-style code: {why}"
        for name, why in host.procedure_notes.items()
    ]
    if host.array_copies_note:
        notes.append(f"one function per array passed: {host.array_copies_note}")
    return notes


def local_names(proc: ProcedureRecord) -> list[tuple[str, str]]:
    """(lowered name, wanted identifier) of each variable a call owns."""
    prefix = proc.name.rstrip("$%#!&") + "_"
    out = []
    for name, source, array in zip(proc.params, proc.source_params, proc.array_params):
        if not array:
            out.append((name, base_name(source)))
    for name in proc.locals:
        bare = name.removeprefix(prefix)
        wanted = base_name(bare)  # a call's temporary `FACT_1#`: `call_1_dbl`
        out.append((name, wanted if bare[:1].isalpha() else "call_" + wanted[len("v_") :]))
    if proc.result:
        out.append((proc.result, "result"))
    return out


def given_back(proc: ProcedureRecord, references: bool = False) -> list[str]:
    """What a call gives back, in order: a FUNCTION's value, then the parameters the
    procedure may change (QuickBASIC passes variables by reference), unless the
    function takes them as `references` (C++'s `T&`, Param.by_reference)."""
    values = [proc.result] if proc.result else []
    return values if references else values + proc.changed_params()
