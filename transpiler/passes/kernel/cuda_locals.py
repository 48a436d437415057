"""What the CUDA lowering needs to know about a kernel's locals before printing it.

- each local's type (a local keeps one type: C++ declares it once);
- where it is declared: at its first binding when that is a statement of the kernel's
  top level, else at the start of the kernel (a local first bound inside a loop or an IF
  may be read after it);
- which locals are bound once, at the top level, to an expression of element indices
  only (lane numbers, block ids, parameters): such a value can be recomputed at any
  element, so broadcasting it (a (16, 1) lane tile against a (16, 16) tile) needs no
  shared memory;
- FOR variables, which C++ scopes to their loop: reading one after its loop, or binding
  it with LET, has no translation;
- FOR loops whose stop reads a local the loop assigns: C++ tests the stop at every
  iteration, so it is computed once before the loop, as Python's range does.
"""

from __future__ import annotations

from ...errors import BasicUnsupportedError
from ...ir import kernel as ir
from ...ir.cuda_plan import LocalsPlan


def plan_locals(kernel: ir.Kernel) -> LocalsPlan:
    plan = LocalsPlan()
    counting: set[str] = set()
    not_counting: set[str] = set()
    counts: dict[str, int] = {}
    first: dict[str, ir.Let] = {}
    top_level = set(kernel.body)
    for s in ir.statements(kernel.body):
        if isinstance(s, ir.ForRange):
            plan.loop_vars.add(s.var)
            if _assigns_what_it_reads(s.body, s.stop):
                plan.fixed_stops.add(s)
            up = s.step > 0 and isinstance(s.start, ir.Const) and s.start.value >= 0
            (counting if up else not_counting).add(s.var)
        if not isinstance(s, ir.Let):
            continue
        counts[s.name] = counts.get(s.name, 0) + 1
        previous = plan.types.get(s.name)
        if previous is not None and previous != s.value.type:
            raise unsupported(
                f"{s.name} holds values of two types ({_show(previous)} and {_show(s.value.type)}); "
                "a CUDA variable has one type",
                s,
            )
        plan.types[s.name] = s.value.type
        first.setdefault(s.name, s)
    for name in plan.loop_vars & set(plan.types):
        raise BasicUnsupportedError(
            f"the FOR variable {name} is also assigned with LET in a kernel"
        )
    for name, let in first.items():
        if let in top_level:
            plan.declared_at.add(let)
        else:
            plan.declared_first.append(name)
    plan.nonnegative = counting - not_counting
    plan.bound_once = {n for n, c in counts.items() if c == 1}
    for s in kernel.body:  # top level, in order: a definition sees only earlier ones
        if isinstance(s, ir.Let) and s.name in plan.bound_once and _index_only(s.value, plan):
            plan.index_values[s.name] = s.value
            if ir.nonnegative(s.value, set(), plan.nonnegative):
                plan.nonnegative.add(s.name)
    _check_loop_vars(kernel.body, set(), set())
    return plan


def _assigns_what_it_reads(body: list[ir.KStmt], e: ir.KExpr) -> bool:
    assigned = {s.name for s in ir.statements(body) if isinstance(s, ir.Let)}
    return any(isinstance(n, ir.Local) and n.name in assigned for n in ir.walk(e))


def _index_only(e: ir.KExpr, plan: LocalsPlan) -> bool:
    for node in ir.walk(e):
        if isinstance(node, ir.Local):
            if node.name not in plan.index_values:
                return False
        elif isinstance(node, ir.NOT_ELEMENTWISE):
            return False
    return True


def _check_loop_vars(stmts: list[ir.KStmt], live: set[str], ended: set[str]) -> None:
    """A FOR variable may be read only inside its loop (C++ scopes it there); `ended`
    collects the variables of loops already passed."""
    for s in stmts:
        for e in ir.operands(s):
            for node in ir.walk(e):
                if isinstance(node, ir.Local) and node.name in ended - live:
                    raise unsupported(
                        f"the FOR variable {node.name} is read after its loop; the CUDA "
                        "backend scopes it to the loop",
                        s,
                    )
        if isinstance(s, ir.ForRange):
            _check_loop_vars(s.body, live | {s.var}, ended)
            ended.add(s.var)
        else:
            for body in ir.bodies(s):
                _check_loop_vars(body, live, ended)


def unsupported(message: str, s: ir.KStmt) -> BasicUnsupportedError:
    """The error saying that statement `s` has no CUDA translation, at its BASIC line."""
    return BasicUnsupportedError(message, s.origin.coord if s.origin else None)


def _show(t: ir.TileType) -> str:
    return f"{t.dtype}{list(t.shape)}" if t.shape else t.dtype
