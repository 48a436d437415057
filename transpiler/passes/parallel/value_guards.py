"""Lanes that are independent while a value test holds: Floyd-Warshall's step K.

In
```
FOR I = 0 TO N - 1 : FOR J = 0 TO N - 1
  IF D(I, K) + D(K, J) < D(I, J) THEN D(I, J) = D(I, K) + D(K, J)
```
(K fixed: an enclosing host loop) iteration (I, J) reads column K, `D(I, K)`, which
iteration (I, K) may write, and row K, `D(K, J)`, which iteration (K, J) may write: isl
reports the flow dependence.  Yet those writes never happen when D(K, K) >= 0: iteration
(I, K) writes only if `D(I, K) + D(K, K) < D(I, K)`, and x + g < x is false for every g
>= 0 (a rounded sum never falls below x, an infinity or NaN compares false; for integers
an overflow is an exception).  That is a fact about values, not subscripts: the lanes
are independent exactly in the steps where the test holds.

The pass, for an array the dependence tests refuse (`guards_for`), in general terms:
- the lane body writes the array in one statement, at the lane's own element (each lane
  variable alone, plus a constant, on an axis of its own: `D(I, J)`, not in an inner
  loop), under IF conditions;
- every other read of the array, `D(g)`, reads the element that the *writer* lane
  σ(g) owns (σ solves own(x) = g for x: `D(I, K)` is written by lane (I, K));
- the writer lane's write condition, with σ for its lane variables and the scalar
  temporaries set before it substituted by their values (`T = D(I,K) + D(K,J) : IF T <
  D(I,J)`), is a self-comparison `X + G < X` (or `X > G + X`...) of one element X, with
  G the same in every lane (variables the nest does not set, an element of an array the
  nest does not write, or of this array: then only such writer lanes read it, which do
  not write it either);
- the guard is then `G >= 0`.
Under the guards no writer lane of an element another lane reads ever writes: the first
one to do so would have read only original values (every element another lane wrote is,
by definition, one another lane reads), so its condition is the self-comparison, false.
Every element that another lane reads keeps its value; the lanes are independent and
the array is written in place.

The kernel tests each guard in every block before its first store (the test is the same
in every lane); a block where it fails meets an exception (vectorize/launch.py): the host puts
the array back and runs the loop as written, as BASIC would (hostir.Replay).  A NaN on
the diagonal fails `D(K, K) >= 0`; so does a negative cycle's negative D(K, K).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ...ir import ast, hostir
from ...ir.model import Analysis, variable_type
from ..exprutil import same_expr
from ..show import show_expr
from .polyhedral import NestModel, linear_form

# The comparisons `a < b` and their mirror images `b > a`.
_LESS = {"<": False, ">": True}
# Operators a lane-invariant guard value may use.
_GUARD_OPERATORS = {"+", "-", "*"}


@dataclass(eq=False)
class _Write:
    """The one assignment to the array: its target and the conditions of the IF arms
    around it (it runs only when each holds); `top`: the position of the top-level node
    of the lane body that holds it."""

    target: ast.Index
    conditions: list[ast.Expr]
    top: int


@dataclass(eq=False)
class _Nest:
    """What the proof needs to know of the lane body."""

    array: str
    lanes: list[str]
    assigned: set[str]  # the scalars (and inner loop variables) it sets
    written: set[str]  # the arrays it writes


def guards_for(model: NestModel, array: str) -> list[ast.Expr] | None:
    """The tests (`G >= 0`) under which no two lanes of `model` (a lane body whose
    dependence on `array` isl found) share an element of `array` that one of them
    writes (an empty list: no test needed), or None when the pattern above does not
    hold."""
    body, analysis = model.body, model.analysis
    if analysis.arrays[array].elem_type == "str" or not _modelled(body, analysis):
        return None
    write = _the_write(body, array)
    if write is None or not write.conditions:
        return None
    nest = _Nest(array, [stmt.var.name for stmt in model.fors], *_sets(body))
    owner = _owner(write.target, nest)
    if owner is None:
        return None
    temporaries = _temporaries(body, write.top, analysis)
    guards: list[ast.Expr] = []
    for read in _reads(body, array, write.target):
        writer = _writer(read, owner, nest)
        if writer is None:
            return None
        if not writer:
            continue  # the lane's own element
        tests = [_never_true(cond, writer, temporaries, nest) for cond in write.conditions]
        found = next((test for test in tests if test is not None), None)
        if found is None:
            return None
        if found is _ALWAYS or any(same_expr(found, g) for g in guards):
            continue
        guards.append(found)
    return guards


def describe(guards: list[ast.Expr]) -> str:
    """The kernel summary's words for its guards (--explain)."""
    tests = " and ".join(show_expr(g) for g in guards)
    return (
        f"the lanes are independent only while {tests} (then no lane changes an element "
        f"another reads): each block tests it, and where it fails the host runs the loop "
        f"as written"
    )


# --------------------------------------------------------------------------- the body


def _modelled(body: list[hostir.HNode], analysis: Analysis) -> bool:
    """The body is LETs, IFs and FORs (as isl modelled it) that call no DEF FN, whose
    body could read the array unseen."""
    for node in hostir.walk(body):
        if isinstance(node, hostir.Simple):
            if not isinstance(node.stmt, (ast.Let, ast.Rem)):
                return False
        elif not isinstance(node, (hostir.If, hostir.ForLoop)) or getattr(node, "merged", None):
            return False
    return not any(
        isinstance(e, ast.Call) and e.name in analysis.functions
        for node in hostir.walk(body)
        for root in _expressions(node)
        for e in root.walk()
    )


def _expressions(node: hostir.HNode):
    if isinstance(node, hostir.Simple):
        yield node.stmt
    elif isinstance(node, hostir.If):
        for cond, _ in node.arms:
            yield cond
    elif isinstance(node, hostir.ForLoop):
        yield node.stmt
    elif isinstance(node, hostir.WhileLoop) and node.condition is not None:
        yield node.condition


def _the_write(body: list[hostir.HNode], array: str) -> _Write | None:
    """The single assignment to `array` (not in an inner loop), or None."""
    found: list[_Write] = []

    def visit(nodes, conditions, top, looping) -> bool:
        for position, node in enumerate(nodes):
            where = position if top is None else top
            if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
                target = node.stmt.target
                if isinstance(target, ast.Index) and target.name == array:
                    if looping:
                        return False
                    found.append(_Write(target, conditions, where))
            elif isinstance(node, hostir.If):
                for cond, arm in node.arms:
                    if not visit(arm, conditions + [cond], where, looping):
                        return False
                if node.else_body and not visit(node.else_body, conditions, where, looping):
                    return False
            elif isinstance(node, (hostir.ForLoop, hostir.WhileLoop)) and not visit(
                node.body, conditions, where, True
            ):
                return False
        return True

    if not visit(body, [], None, False) or len(found) != 1:
        return None
    return found[0]


def _sets(body: list[hostir.HNode]) -> tuple[set[str], set[str]]:
    """The scalars (and inner loop variables) the lane body sets, and the arrays."""
    scalars: set[str] = set()
    arrays: set[str] = set()
    for node in hostir.walk(body):
        if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            target = node.stmt.target
            (scalars if isinstance(target, ast.Var) else arrays).add(target.name)
        elif isinstance(node, hostir.ForLoop):
            scalars.add(node.stmt.var.name)
    return scalars, arrays


def _temporaries(
    body: list[hostir.HNode], before: int, analysis: Analysis
) -> dict[str, tuple[int, ast.Expr]]:
    """Scalars set once in the lane body, by a LET at its top level before position
    `before`, to a value of their own type (so reading one reads that value exactly):
    name -> (position, value)."""
    counts: dict[str, int] = {}
    for node in hostir.walk(body):
        if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            target = node.stmt.target
            if isinstance(target, ast.Var):
                counts[target.name] = counts.get(target.name, 0) + 1
    out: dict[str, tuple[int, ast.Expr]] = {}
    for position, node in enumerate(body[:before]):
        if not (isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let)):
            continue
        target, value = node.stmt.target, node.stmt.value
        if not isinstance(target, ast.Var) or counts.get(target.name) != 1:
            continue
        if analysis.expr_types.get(value) != variable_type(analysis, target):
            continue  # the assignment converts: `T% = X + Y` rounds
        out[target.name] = (position, value)
    return out


def _reads(body: list[hostir.HNode], array: str, write: ast.Index) -> list[ast.Index]:
    """Every read of `array` in the lane body (the write's target is no read)."""
    out = []
    for node in hostir.walk(body):
        for root in _expressions(node):
            for e in root.walk():
                if isinstance(e, ast.Index) and e.name == array and e is not write:
                    out.append(e)
    return out


# --------------------------------------------------------------------------- lanes


def _owner(target: ast.Index, nest: _Nest) -> dict[str, tuple[int, float]] | None:
    """Lane variable -> (axis, c) where the write's subscript on that axis is `var + c`
    (the other axes hold no lane variable and nothing the body sets), when each lane
    owns its element so; else None."""
    owner: dict[str, tuple[int, float]] = {}
    for axis, index in enumerate(target.indices):
        form = _form(index)
        if form is None or set(form) & nest.assigned:
            return None
        mine = [v for v in form if v in nest.lanes]
        if not mine:
            continue
        if len(mine) != 1 or form[mine[0]] != 1 or mine[0] in owner:
            return None
        if set(form) - {"", mine[0]}:
            return None  # `D(I + K, J)`: keep to a lane variable and a constant
        owner[mine[0]] = (axis, form.get("", 0))
    return owner if set(owner) == set(nest.lanes) else None


def _writer(
    read: ast.Index, owner: dict[str, tuple[int, float]], nest: _Nest
) -> dict[str, ast.Expr] | None:
    """The lane that owns the element `read` reads, as lane variable -> expression of the
    reading lane's variables (empty: the reading lane itself); None when a subscript is
    not affine or uses a scalar the body sets."""
    forms = [_form(index) for index in read.indices]
    if any(form is None or set(form) & nest.assigned for form in forms):
        return None
    writer: dict[str, ast.Expr] = {}
    for var, (axis, offset) in owner.items():
        index = read.indices[axis]
        if _form(index) == _nonzero({var: 1, "": offset}):
            continue
        writer[var] = index if not offset else ast.BinOp("-", index, _number(offset))
    if writer:
        for var in nest.lanes:  # a lane variable on the element's axis keeps its value
            writer.setdefault(var, ast.Var(var, coord=read.coord))
    return writer


# --------------------------------------------------------------------------- the proof

# The guard of a self-comparison whose G is a constant >= 0: none needed.
_ALWAYS = ast.Num(0.0)


def _never_true(
    cond: ast.Expr,
    writer: dict[str, ast.Expr],
    temporaries: dict[str, tuple[int, ast.Expr]],
    nest: _Nest,
) -> ast.Expr | None:
    """The guard under which `cond`, in the writer lane, is false (`_ALWAYS`: false in
    any case), or None."""
    expanded = _expand(cond, temporaries, len(temporaries) + 1)
    if expanded is None:
        return None
    if any(isinstance(e, ast.Var) and e.name in nest.assigned for e in expanded.walk()):
        return None  # a scalar whose value may change between the reads
    return _self_comparison(_substitute(expanded, writer), nest)


def _expand(
    expr: ast.Expr, temporaries: dict[str, tuple[int, ast.Expr]], depth: int, limit: int = 10**9
) -> ast.Expr | None:
    """`expr` with each temporary replaced by its value (a temporary's value may use
    those set before it: `limit`, the position of the one being expanded)."""
    if depth < 0:
        return None
    if isinstance(expr, ast.Var) and expr.name in temporaries:
        position, value = temporaries[expr.name]
        if position >= limit:
            return None
        return _expand(value, temporaries, depth - 1, position)
    return _rebuilt(expr, lambda e: _expand(e, temporaries, depth, limit))


def _substitute(expr: ast.Expr, values: dict[str, ast.Expr]) -> ast.Expr:
    """A copy of `expr` with each lane variable read as its value in `values`."""
    if isinstance(expr, ast.Var) and expr.name in values:
        return values[expr.name]
    return _rebuilt(expr, lambda e: _substitute(e, values))


def _rebuilt(expr: ast.Expr, fn) -> ast.Expr | None:
    """A copy of `expr` with `fn` applied to its sub-expressions (None if `fn` gives
    None for one)."""
    changes = {}
    for f in fields(expr):
        if f.name == "coord":
            continue
        value = getattr(expr, f.name)
        if isinstance(value, ast.Expr):
            new = fn(value)
            if new is None:
                return None
            changes[f.name] = new
        elif isinstance(value, list) and any(isinstance(v, ast.Expr) for v in value):
            items = [fn(v) if isinstance(v, ast.Expr) else v for v in value]
            if any(v is None for v in items):
                return None
            changes[f.name] = items
    return replace(expr, **changes)


def _self_comparison(cond: ast.Expr, nest: _Nest) -> ast.Expr | None:
    """`X + G < X` (or `G + X < X`, `X > X + G`...): false when G >= 0, for one element
    (or variable) X read twice and G the same in every lane: the guard `G >= 0`.
    `A AND B` is false when either is."""
    if isinstance(cond, ast.BinOp) and cond.op == "AND":
        for side in (cond.left, cond.right):
            found = _self_comparison(side, nest)
            if found is not None:
                return found
        return None
    if not isinstance(cond, ast.BinOp) or cond.op not in _LESS:
        return None
    small, large = (cond.right, cond.left) if _LESS[cond.op] else (cond.left, cond.right)
    if not isinstance(small, ast.BinOp) or small.op != "+":
        return None
    for x, g in ((small.left, small.right), (small.right, small.left)):
        if not (_same_value(x, large, nest) and _invariant(g, nest)):
            continue
        if isinstance(g, ast.Num):
            return _ALWAYS if g.value >= 0 else None
        return ast.BinOp(">=", g, _number(0), coord=cond.coord)
    return None


def _same_value(a: ast.Expr, b: ast.Expr, nest: _Nest) -> bool:
    """Two reads of one element (equal affine subscripts) or of one variable (which the
    body does not set: `_never_true`).  The element is of an array the body does not
    write, or of the array itself, whose one write comes after both reads (the lane's
    own element) or never happens (another lane's, which this lane reads)."""
    if isinstance(a, ast.Var) and isinstance(b, ast.Var):
        return a.name == b.name
    if not (isinstance(a, ast.Index) and isinstance(b, ast.Index)):
        return False
    if a.name != b.name or len(a.indices) != len(b.indices):
        return False
    if a.name != nest.array and a.name in nest.written:
        return False  # the lane may change it between the two reads
    for p, q in zip(a.indices, b.indices):
        fp, fq = _form(p), _form(q)
        if fp is None or fp != fq:
            return False
    return True


def _invariant(g: ast.Expr, nest: _Nest) -> bool:
    """`g` has one value in every lane of the launch: variables that are no lane's and
    that the body does not set, elements (at such subscripts) of arrays the body does
    not write or of the array itself (whose element only lanes that do not write read),
    and - + * of those."""
    if isinstance(g, ast.Num):
        return True
    if isinstance(g, ast.Var):
        return g.name not in nest.lanes and not g.name.endswith("$")
    if isinstance(g, ast.Index):
        if g.name != nest.array and g.name in nest.written:
            return False
        forms = [_form(i) for i in g.indices]
        return all(f is not None and not set(f) & set(nest.lanes) for f in forms)
    if isinstance(g, ast.UnaryOp) and g.op == "-":
        return _invariant(g.operand, nest)
    if isinstance(g, ast.BinOp) and g.op in _GUARD_OPERATORS:
        return _invariant(g.left, nest) and _invariant(g.right, nest)
    return False


def _form(index: ast.Expr) -> dict[str, float] | None:
    """A subscript's linear form over variable names ("": the constant), zeros left out."""
    form = linear_form(index)
    return None if form is None else _nonzero(form)


def _nonzero(form: dict[str, float]) -> dict[str, float]:
    return {n: c for n, c in form.items() if c}


def _number(value: float) -> ast.Num:
    value = float(value)
    return ast.Num(value, text=str(int(value)) if value.is_integer() else repr(value))
