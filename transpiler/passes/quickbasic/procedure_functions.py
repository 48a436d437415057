"""QuickBASIC's SUBs and FUNCTIONs as functions of the generated program.

passes/quickbasic/procedures.py lowers each procedure to a GOSUB subroutine over variables of its
own (`SWAP2_A`), which the interpreter and every analysis run.  Once the host program
is built, a procedure that became a structured `Subroutine` is printed as a function
with its parameters, its variables its locals (`procedure` set), and each call of it,
with its copies in and out, becomes one `ProcCall`:

- the arguments are passed in order (by value in Python, where a call gives back the
  by-reference parameters the procedure may change, `x, y = swap2(x, y)`; a `T&` in
  C++ for those parameters);
- a recursive call saved the caller's locals in `SAVED_...` arrays and put them back:
  a function's locals are its own, so those statements go; the count of nested calls
  and its "Out of stack space" stay;
- END SUB and EXIT SUB become a `ProcReturn` (`return x, y`).

A procedure stays a GOSUB subroutine when this cannot be done exactly: its body is
not a structured piece of code (it is in the main dispatch loop), a call of it is not
(its statements are not in one block), or a procedure that stays one calls it back
recursively (its own frame must then be restored after the call).  Its reason is
`HostProgram.procedure_notes[name]`, shown by --explain and in the generated code.
"""

from __future__ import annotations

from ...ir import ast, hostir
from ...ir.model import Analysis, variable_type
from ...ir.procedure_records import CallRecord, ProcedureRecord, names_in


class _Site:
    """One call in the host tree: the body list holding it and its `Call` node."""

    def __init__(self, body: list[hostir.HNode], call: hostir.Call, record: CallRecord):
        self.body = body
        self.call = call
        self.record = record


def make_functions(host: hostir.HostProgram) -> None:
    a = host.analysis
    if not a.procedures:
        return
    subs = {sub.name: sub for sub in host.subroutines}
    sites = list(_sites(host, a.procedure_calls))
    entries = {s.record.proc: s.call.subroutine for s in sites if s.call.subroutine in subs}
    notes = _reasons_first(host, entries, subs)
    candidates = _functions(sites, set(entries) - set(notes), notes, _statement_owners(host), a)
    _replace_calls(host, sites, candidates)
    _merge_copies(host, candidates, entries, subs, notes)
    local_names = {n for name in candidates for n in a.procedures[name].own()}
    for sub in host.subroutines:  # (a call no longer assigns the parameters)
        sub.assigns = [n for n in sub.assigns if n not in local_names]
    for name in candidates:
        sub = subs[entries[name]]
        sub.procedure = a.procedures[name]
        _rewrite_body(sub, sub.procedure)
    host.procedure_locals = frozenset(local_names)
    host.procedure_notes = {
        name: notes[name] for name in a.procedures if name in notes and name not in candidates
    }


def _reasons_first(host: hostir.HostProgram, entries: dict, subs: dict) -> dict[str, str]:
    """Why each procedure that is not a structured subroutine, or GOSUBs one of its own,
    stays GOSUB-style code."""
    a = host.analysis
    notes: dict[str, str] = {}
    for name in a.procedures:
        if name in entries:
            if _gosubs(subs[entries[name]].body, a.procedure_calls):
                notes[name] = "it GOSUBs a subroutine of its own, which uses its variables"
        elif a.traps_errors:
            notes[name] = "the program traps errors (ON ERROR): its code is one dispatch loop"
        elif _jumped_to(host, name, a.procedure_calls):
            notes[name] = "its body is not one structured piece of code (a GOTO out of it?)"
    return notes


def _functions(sites, candidates: set[str], notes: dict, owners, a: Analysis) -> set[str]:
    """The procedures that become functions: the candidates, less (until none is left)
    those a call of which cannot be a call of a function."""
    changed = True
    while changed:
        changed = False
        for site in sites:
            proc = site.record.proc
            if proc not in candidates:
                continue
            why = _why_not(site, candidates, owners, a.procedures[proc], a)
            if why:
                candidates.discard(proc)
                notes[proc] = why
                changed = True
    return candidates


def _replace_calls(host: hostir.HostProgram, sites, candidates: set[str]) -> None:
    """Each call of a function: one ProcCall; the arrays that held the saved frames of
    recursive calls go when nothing else uses them."""
    saved: set[str] = set()
    for site in sites:
        if site.record.proc not in candidates:
            continue
        _replace_call(site, host.analysis.procedures[site.record.proc], candidates)
        if site.record.caller in candidates:
            host.recursive_procedures |= bool(site.record.frame)
            saved |= {
                n.name for s in site.record.frame for n in s.walk() if isinstance(n, ast.Index)
            }
    host.unused_arrays = frozenset(saved - _arrays_used(host))


def _sites(host: hostir.HostProgram, calls: dict[int, CallRecord]):
    for body in _bodies(host):
        for node in body:
            if isinstance(node, hostir.Call) and id(node.origin) in calls:
                yield _Site(body, node, calls[id(node.origin)])


def _bodies(host: hostir.HostProgram):
    """Every list of nodes of the host tree (a loop's body, an arm, a block...)."""
    for root in [host.body] + [sub.body for sub in host.subroutines]:
        yield from _lists(root)


def _jumped_to(host: hostir.HostProgram, proc: str, calls: dict[int, CallRecord]) -> bool:
    """Is the procedure called by a GOSUB of a dispatch loop (it is not a subroutine)?"""
    return any(
        isinstance(node, hostir.GosubJump)
        and id(node.origin) in calls
        and calls[id(node.origin)].proc == proc
        for body in _bodies(host)
        for node in body
    )


def _gosubs(body: list[hostir.HNode], calls: dict[int, CallRecord]) -> bool:
    """Does the body GOSUB a subroutine (a call of a procedure aside)?"""
    for node in hostir.walk(body):
        if isinstance(node, hostir.Call) and id(node.origin) not in calls:
            return True
        if isinstance(node, (hostir.OnGosub, hostir.GosubJump, hostir.OnGosubJump)):
            return True
    return False


def _statement_owners(host: hostir.HostProgram) -> dict[int, list]:
    """id of a statement -> the body lists holding a node printed from it."""
    owners: dict[int, list] = {}
    for body in _bodies(host):
        for node in body:
            if isinstance(node, hostir.Simple):
                owners.setdefault(id(node.stmt), []).append(body)
    return owners


def _why_not(site: _Site, candidates: set[str], owners, proc: ProcedureRecord, a) -> str | None:
    record = site.record
    if record.frame and record.caller not in candidates:
        return (
            f"{record.caller} calls it recursively and stays a GOSUB subroutine "
            "(its saved variables are put back after the call)"
        )
    for let in record.copy_in + record.held + record.copy_back + [record.result]:
        if let is None:
            continue
        held = owners.get(id(let), [])
        if any(body is not site.body for body in held):
            return "a call of it is not one piece of code"
    for let in record.copy_back:
        param = _param_of(let, record)
        if param in proc.changed and variable_type(a, let.target) != variable_type(a, param):
            return "an argument of another type is passed by reference"
    return None


def _param_of(let: ast.Let, record: CallRecord) -> str:
    """The parameter a copy back gives back (through the temporary that held it)."""
    name = let.value.name
    for held in record.held:
        if held.target.name == name:
            return held.value.name
    return name


def _replace_call(site: _Site, proc: ProcedureRecord, candidates: set[str]) -> None:
    record = site.record
    gone = {id(s) for s in record.copy_in + record.held + record.copy_back}
    if record.result is not None:
        gone.add(id(record.result))
    if record.caller in candidates:  # a function's locals are its own
        gone |= {id(s) for s in record.frame}
    held: dict[str, ast.Expr] = {}  # a variable read before the copies in: as it is
    if record.caller in candidates:  # (a function's parameters are not assigned by a call)
        for let in record.early:
            if isinstance(let.value, ast.Var):
                held[let.target.name] = let.value
                gone.add(id(let))
    body = site.body
    removed = [n for n in body if isinstance(n, hostir.Simple) and id(n.stmt) in gone]
    first = next(n for n in body if n is site.call or any(n is r for r in removed))
    args = [(_unheld(let.value, held), let.target.name) for let in record.copy_in]
    targets = {_param_of(let, record): let.target for let in record.copy_back}
    back = [(targets.get(p), p) for p in proc.changed_params()]
    result = record.result.target.name if record.result is not None else None
    call = hostir.ProcCall(site.call.subroutine, proc, args, result, back, origin=first.origin)
    kept = [n for n in body if not any(n is r for r in removed)]
    if first is not site.call and any(first is r for r in removed):
        # the statement's comment goes on the first node left (the call depth's count)
        at = next(i for i, n in enumerate(body) if n is first)
        carrier = next(n for n in body[at:] if not any(n is r for r in removed))
        if carrier is not site.call:
            carrier.origin, call.origin = first.origin, site.call.origin
    body[:] = [call if n is site.call else n for n in kept]


def _unheld(value: ast.Expr, held: dict[str, ast.Expr]) -> ast.Expr:
    if isinstance(value, ast.Var) and value.name in held:
        return held[value.name]
    return value


def _rewrite_body(sub: hostir.Subroutine, proc: ProcedureRecord) -> None:
    """Its RETURNs give back its values; its locals are declared where it starts."""
    body = sub.body
    resets = [n for n in body if isinstance(n, hostir.Simple) and id(n.stmt) in proc.resets]
    body[:] = [n for n in body if not any(n is r for r in resets)]
    used = names_in(body)
    names = [n for n in proc.locals if n in used] + ([proc.result] if proc.result else [])
    if names:
        body.insert(0, hostir.ProcLocals(names))
    for nodes in _lists(body):
        for i, node in enumerate(nodes):
            if isinstance(node, hostir.Return):
                nodes[i] = hostir.ProcReturn(proc, origin=node.origin)
    if not hostir.terminates(body):
        body.append(hostir.ProcReturn(proc))


def _lists(body: list[hostir.HNode]):
    todo = [body]
    while todo:
        nodes = todo.pop()
        yield nodes
        for node in nodes:
            if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
                todo.append(node.body)
            elif isinstance(node, hostir.If):
                todo.extend(b for _, b in node.arms)
                if node.else_body:
                    todo.append(node.else_body)
            elif isinstance(node, hostir.Dispatch):
                todo.extend(block.body for block in node.blocks)


def _arrays_used(host: hostir.HostProgram) -> set[str]:
    """The arrays the statements left in the host tree name."""
    used: set[str] = set()
    for body in _bodies(host):
        for node in body:
            if isinstance(node, hostir.Simple):
                used |= {
                    n.name for n in node.stmt.walk() if isinstance(n, (ast.Index, ast.ArrayDecl))
                }
    return used


# ------------------------------------------------------------------ array parameters

_RESHAPING = (ast.Dim, ast.Redim, ast.Erase, ast.MatRead, ast.MatAssign, ast.MatInput)


def _merge_copies(host, candidates: set[str], entries: dict, subs: dict, notes: dict) -> None:
    """The copies of a procedure made for each array it is called with (`fill`,
    `fill_2`) as one function taking the arrays as parameters: the first copy, whose
    body's names for its arrays become the parameters.  All or none: a copy that passes
    its array on calls the other procedure's copy for that array."""
    procs = host.analysis.procedures
    copies = [name for name, proc in procs.items() if proc.template is not None]
    if not copies:
        return
    why = _why_copies_stay(host, copies, candidates, entries, subs)
    if why:  # each copy is a function of its own, its arrays the ones it names
        host.array_copies_note = why
        return
    first: dict[str, str] = {}  # template -> the copy that is the function
    for name in copies:
        first.setdefault(procs[name].template, name)
    kept = {entries[name] for name in first.values()}
    for name in first.values():
        sub = subs[entries[name]]
        sub.array_params = list(procs[name].array_args)
    dropped = {entries[name] for name in copies} - kept
    host.subroutines[:] = [sub for sub in host.subroutines if sub.name not in dropped]
    for body in _bodies(host):
        for node in body:
            if isinstance(node, hostir.ProcCall) and node.procedure.template is not None:
                node.subroutine = entries[first[node.procedure.template]]
                node.arrays = [(i, array) for i, _, array in node.procedure.array_args]


def _why_copies_stay(host, copies, candidates, entries, subs) -> str | None:
    procs = host.analysis.procedures
    if host.kernels:  # (a kernel's copies of the arrays are the program's, by name)
        return "the program has GPU kernels"
    for name in copies:
        proc = procs[name]
        if name not in candidates:
            return "a copy of a procedure with array parameters is GOSUB-style code"
        if proc.array_bound_twice:
            return "it reaches an array it is passed another way too (SHARED, LBOUND)"
        bound = {array for _, _, array in proc.array_args}
        for node in hostir.walk(subs[entries[name]].body):
            stmt = node.stmt if isinstance(node, hostir.Simple) else None
            if (
                stmt is not None
                and any(isinstance(n, _RESHAPING) for n in stmt.walk())
                and bound & names_in([node])
            ):
                return "it DIMs, REDIMs or ERASEs an array it is passed"
    return None
