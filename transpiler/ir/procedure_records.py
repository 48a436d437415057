"""What the QuickBASIC procedure lowering (passes/quickbasic/procedures.py, procedure_calls.py)
tells the host printers about each SUB and FUNCTION and each call of one, so that a
procedure can become a function of the generated program (passes/quickbasic/procedure_functions.py)
while the interpreter and the analyses run the GOSUB subroutine it was lowered to.

Statements are named by `id()`: the lowering makes them, the flat statement list holds
the same objects, and each host node keeps the statement it prints (`origin`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from . import ast


@dataclass(eq=False)
class ProcedureRecord:
    """A SUB or FUNCTION as the lowering made it: its label and its variables (their
    lowered names, `SWAP2_A` for A in SUB Swap2)."""

    name: str  # as declared: "FACT#"
    function: bool
    entry_label: str  # the label of its first statement
    params: list[str]  # in order; an array parameter is bound, not passed (None here)
    source_params: list[str]  # the names the source gives them ("A", "N%")
    array_params: list[bool]  # which parameters are arrays
    result: str | None  # a FUNCTION's result variable ("FACT_FACT#")
    locals: list[str]  # the variables each call starts afresh (parameters not included)
    statics: set[str]  # STATIC variables: they keep their values between calls
    changed: set[str]  # the parameters a call may change (given back to the caller)
    stmt: ast.SubDef  # its SUB or FUNCTION line
    resets: set[int] = field(default_factory=set)  # ids of the Lets that start its locals
    # A copy of a procedure with array parameters for the arrays a call passes: its
    # template's name, (position among all parameters, parameter, array) of each array;
    # whether it cannot take them as parameters (it reaches one another way too).
    template: str | None = None
    array_args: list[tuple[int, str, str]] = field(default_factory=list)
    array_bound_twice: bool = False

    def changed_params(self) -> list[str]:
        """The scalar parameters a call may change, in order (an array parameter names
        the array the call passes)."""
        return [
            p for p, array in zip(self.params, self.array_params) if not array and p in self.changed
        ]

    def own(self) -> list[str]:
        """The variables one call owns: its parameters, locals and result."""
        names = [p for p, array in zip(self.params, self.array_params) if not array]
        names += self.locals
        return names + ([self.result] if self.result else [])


@dataclass(eq=False)
class CallRecord:
    """One call as the lowering wrote it: copy in, GOSUB, result, copy back, and
    around a recursive call the caller's frame saved and restored."""

    proc: str
    caller: str | None  # the procedure making the call (None: the module)
    copy_in: list[ast.Let]  # `param = argument`, one per scalar parameter, in order
    gosub: ast.Gosub
    result: ast.Let | None  # `temporary = result variable` of a FUNCTION
    copy_back: list[ast.Let]  # `argument = param` (or its held value), in order
    held: list[ast.Let] = field(default_factory=list)  # `held = param` before a restore
    # `held = argument` before the copies in, for an argument reading a parameter that
    # a copy before it assigns (a recursive call's own parameters)
    early: list[ast.Let] = field(default_factory=list)
    frame: list[ast.Stmt] = field(default_factory=list)  # saves and restores of the caller


def names_in(body: list) -> set[str]:
    """The variables and arrays host nodes (hostir) read or write, whatever their kind."""
    found: set[str] = set()
    seen: set[int] = set()
    todo: list = list(body)
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, ast.Node):
            for node in value.walk():
                if isinstance(node, (ast.Var, ast.Index)):
                    found.add(node.name)
        elif isinstance(value, (list, tuple)):
            todo.extend(value)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            if isinstance(value, ProcedureRecord):
                continue
            fields = [f.name for f in dataclasses.fields(value) if f.name != "origin"]
            todo.extend(getattr(value, name) for name in fields)  # (an origin is a comment)
        elif isinstance(value, str):
            found.add(value)  # a ProcCall's parameter or result
    return found
