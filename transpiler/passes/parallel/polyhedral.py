"""Exact dependences of an affine loop nest, on isl: are the lanes of a kernel independent?

The dependence pass (passes/parallel/dependence.py) tests array accesses by their shapes: a write
at the lane's own element, a slice that only its lane touches.  Where that test refuses an
array, this module asks isl (islpy), which knows the iteration domains: lu's J loop reads
`A(I, K)` with `K < I <= J` and writes `A(I, J)`, and no iteration of it writes an element
that another one reads.

The model (PolyBench's, PPCG's): every LET of the lane body is a statement whose
instances are the integer points of its *iteration domain* (the lane loops and the inner
FORs around it: constant integer steps, bounds affine in enclosing loop variables and in
parameters), with *access relations* (instance -> element, affine subscripts) and a
*schedule* (BASIC's order: the 2d+1 form, position among siblings, loop variable, ...).
Parameters are the scalars the nest reads but never sets, when they only ever hold
integers (a subscript or a bound made of them is then an integer).  A write under an IF
may happen (a may-write, which kills no earlier value); reads in IF conditions are reads.

`lanes_independent(array)` computes, for one array, the value-based (dataflow) flow
dependences (`isl.UnionAccessInfo.compute_flow`: a read depends on the last write before
it, not on every earlier one), and the memory-based anti and output dependences (the
kernel writes the array in place, so a lane may not overwrite what another still reads,
nor write what another writes), and answers whether all of them stay within one lane.
Then the lanes touch disjoint elements (but for reads), in any order: the kernel's
gathers and scatters are exact.  Anything not affine answers None with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import islpy as isl

from ...ir import ast, hostir
from ...ir.model import Analysis
from ..show import show_expr


class NotAffine(Exception):
    """What keeps a nest out of the polyhedral model, in BASIC's words."""


@dataclass
class Verdict:
    """`independent`: True (no dependence between two lanes), False (one, named by
    `reason`), None (not affine: `reason` says what)."""

    independent: bool | None
    reason: str = ""
    # For a dependence (False): the statement pair, the array and the distance over the
    # lanes ("dependence: ..."), and the change to the BASIC that removes it, if any.
    dependence: str = ""
    advice: str = ""


@dataclass(eq=False)
class _Access:
    array: str
    subscripts: list[dict[str, int]]  # linear forms over iterator/parameter names, "" = const
    write: bool
    must: bool  # a write that surely happens when its statement runs
    node: ast.Node
    statement: str = ""  # the isl name of its statement


@dataclass(eq=False)
class _Statement:
    name: str
    iterators: list[str]  # isl names, the lane loops' first
    constraints: list[str]
    schedule: list[str]
    accesses: list[_Access] = field(default_factory=list)
    line: str = ""


class NestModel:
    """The polyhedral model of lanes `fors` (the nest's FOR statements, outermost
    first) running `body`; built lazily, once per lane plan."""

    def __init__(
        self,
        fors: list[ast.For],
        body: list[hostir.HNode],
        analysis: Analysis,
        parameters_ok: frozenset[str],
    ):
        self.fors = fors
        self.body = body
        self.analysis = analysis
        self.parameters_ok = parameters_ok
        self._built = False
        self.not_affine: str | None = None
        self.bad_arrays: dict[str, str] = {}  # array -> why an access is not affine
        self.statements: list[_Statement] = []
        self.names: dict[str, str] = {}  # BASIC variable -> isl name
        self.parameters: list[str] = []

    # ----------------------------------------------------------------------- queries

    def lanes_independent(self, array: str) -> Verdict:
        self._build()
        if self.not_affine is not None:
            return Verdict(None, f"not affine: {self.not_affine}")
        if array in self.bad_arrays:
            return Verdict(None, f"not affine: {self.bad_arrays[array]}")
        try:
            return self._independent(array)
        except isl.Error as error:  # an isl limit: the old test decides
            return Verdict(None, f"not affine: isl could not decide ({error})")

    # ----------------------------------------------------------------------- building

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        try:
            iterators, constraints = [], []
            for stmt in self.fors:
                var = self._iterator(stmt.var.name)
                constraints.extend(self._bounds(stmt, var, iterators))
                iterators.append(var)
            self.lanes = len(iterators)
            counter = [0]
            schedule = []
            for stmt, var in zip(self.fors, iterators):
                schedule += ["0", _ordered(var, stmt)]
            self._block(self.body, iterators, constraints, schedule, counter, guarded=False)
        except NotAffine as why:
            self.not_affine = str(why)

    def _iterator(self, basic_name: str) -> str:
        name = f"i{len(self.names)}"
        self.names[basic_name] = name
        return name

    def _bounds(self, stmt: ast.For, var: str, iterators: list[str]) -> list[str]:
        """`start <= var <= limit` (reversed for a negative step), and var = start +
        k * step for a step other than 1 or -1."""
        step = _integer_constant(stmt.step) if stmt.step is not None else 1
        if step is None or step == 0:
            raise NotAffine(f"the STEP of FOR {stmt.var.name} is not a constant integer")
        start = self._form(stmt.start, iterators, f"the start of FOR {stmt.var.name}")
        limit = self._form(stmt.limit, iterators, f"the limit of FOR {stmt.var.name}", whole=False)
        if not _integral(start):
            raise NotAffine(f"the start of FOR {stmt.var.name} may not be an integer")
        const = limit.get("", 0)
        # var <= limit with an integer var is var <= floor(limit) (ceil for var >= limit).
        limit[""] = int(const // 1) if step > 0 else -int(-const // 1)
        s, l = _show(start), _show(limit)
        out = [f"{s} <= {var} <= {l}"] if step > 0 else [f"{l} <= {var} <= {s}"]
        if abs(step) != 1:
            out.append(f"exists (t : {var} = {s} + {step} * t)")
        return out

    def _form(
        self, expr: ast.Expr, iterators: list[str], what: str, whole: bool = True
    ) -> dict[str, int]:
        """The linear form of `expr` over the nest's iterators and parameters; `whole`:
        every coefficient and the constant are integers (the limit's constant may not be)."""
        form = _linear(expr, self._name_of)
        if form is None:
            raise NotAffine(
                f"{what} is not an affine expression of loop variables and integer variables"
            )
        unknown = [n for n in form if n and n not in iterators and n not in self.parameters]
        if unknown:
            raise NotAffine(f"{what} uses a variable set inside the loop")
        if not all(float(c).is_integer() for n, c in form.items() if n) or (
            whole and not float(form.get("", 0)).is_integer()
        ):
            raise NotAffine(f"{what} has a coefficient that is not an integer")
        return {n: (int(c) if n else c) for n, c in form.items()}

    def _name_of(self, basic_name: str) -> str | None:
        if basic_name in self.names:
            return self.names[basic_name]
        if basic_name in self.parameters_ok:
            name = f"p{len(self.parameters)}"
            self.names[basic_name] = name
            self.parameters.append(name)
            return name
        return None

    def _block(self, nodes, iterators, constraints, schedule, counter, guarded) -> None:
        for node in nodes:
            position = str(counter[0])
            counter[0] += 1
            if isinstance(node, hostir.Simple):
                stmt = node.stmt
                if isinstance(stmt, ast.Rem):
                    continue
                if not isinstance(stmt, ast.Let):
                    raise NotAffine(f"{type(stmt).__name__.upper()} inside the loop")
                statement = self._statement(iterators, constraints, schedule + [position], stmt)
                self._reads(statement, stmt.value)
                target = stmt.target
                if isinstance(target, ast.Index):
                    for index in target.indices:
                        self._reads(statement, index)
                    self._access(statement, target, write=True, must=not guarded)
            elif isinstance(node, hostir.If):
                statement = self._statement(
                    iterators, constraints, schedule + [position], node.origin
                )
                for cond, _ in node.arms:
                    self._reads(statement, cond)
                for _, arm in node.arms:
                    self._block(arm, iterators, constraints, schedule, counter, guarded=True)
                self._block(
                    node.else_body or [], iterators, constraints, schedule, counter, guarded=True
                )
            elif isinstance(node, hostir.ForLoop):
                stmt = node.stmt
                if _sets(node.body, stmt.var.name):
                    raise NotAffine(f"the body of FOR {stmt.var.name} sets its variable")
                statement = self._statement(iterators, constraints, schedule + [position], stmt)
                for e in (stmt.start, stmt.limit, stmt.step):
                    if e is not None:
                        self._reads(statement, e)
                if stmt.var.name in self.names:
                    raise NotAffine(f"FOR {stmt.var.name} inside a loop over {stmt.var.name}")
                var = self._iterator(stmt.var.name)
                inner = constraints + self._bounds(stmt, var, iterators)
                self._block(
                    node.body,
                    iterators + [var],
                    inner,
                    schedule + [position, _ordered(var, stmt)],
                    [0],
                    guarded,
                )
                # After the loop its variable is a scalar the body may read: not affine.
                del self.names[stmt.var.name]
                self.names[f"{stmt.var.name} (FOR line {node.stmt.coord})"] = var
            else:
                raise NotAffine(f"{type(node).__name__} inside the loop (not a FOR, IF or LET)")

    def _statement(self, iterators, constraints, schedule, origin) -> _Statement:
        statement = _Statement(
            f"S{len(self.statements)}", list(iterators), list(constraints), schedule
        )
        statement.line = _line_of(origin)
        self.statements.append(statement)
        return statement

    def _reads(self, statement: _Statement, expr: ast.Expr) -> None:
        for node in expr.walk():
            if isinstance(node, ast.Index):
                self._access(statement, node, write=False, must=False)

    def _access(self, statement: _Statement, node: ast.Index, write: bool, must: bool) -> None:
        subscripts = []
        for index in node.indices:
            try:
                subscripts.append(
                    self._form(index, statement.iterators, f"the subscript of {node.name}")
                )
            except NotAffine as why:
                self.bad_arrays.setdefault(node.name, str(why))
                return
        statement.accesses.append(_Access(node.name, subscripts, write, must, node, statement.name))

    # ----------------------------------------------------------------------- isl

    def _independent(self, array: str) -> Verdict:
        params = f"[{', '.join(self.parameters)}] -> " if self.parameters else ""
        ctx = isl.DEFAULT_CONTEXT
        depth = max(len(s.schedule) for s in self.statements)
        empty = isl.UnionMap(f"{params}{{ }}", context=ctx)
        reads, must, may = empty, empty, empty
        domain = isl.UnionSet(f"{params}{{ }}", context=ctx)
        schedule = empty
        to_lanes = empty
        relations: list[tuple[_Access, isl.UnionMap]] = []  # each access of `array`
        for s in self.statements:
            tuple_ = f"{s.name}[{', '.join(s.iterators)}]"
            where = " and ".join(s.constraints) or "true"
            domain = domain.union(isl.UnionSet(f"{params}{{ {tuple_} : {where} }}", context=ctx))
            times = s.schedule + ["0"] * (depth - len(s.schedule))
            schedule = schedule.union(
                isl.UnionMap(f"{params}{{ {tuple_} -> [{', '.join(times)}] }}", context=ctx)
            )
            lanes = ", ".join(s.iterators[: self.lanes])
            to_lanes = to_lanes.union(
                isl.UnionMap(f"{params}{{ {tuple_} -> L[{lanes}] }}", context=ctx)
            )
            for a in s.accesses:
                if a.array != array:
                    continue
                element = ", ".join(_show(f) for f in a.subscripts)
                rel = isl.UnionMap(f"{params}{{ {tuple_} -> A[{element}] }}", context=ctx)
                relations.append((a, rel.intersect_domain(domain)))
                if not a.write:
                    reads = reads.union(rel)
                elif a.must:
                    must = must.union(rel)
                else:
                    may = may.union(rel)
        reads, must, may = (m.intersect_domain(domain) for m in (reads, must, may))
        schedule = schedule.intersect_domain(domain)
        writes = must.union(may)
        flow = _flow(reads, must, may, schedule)
        anti = _flow(writes, empty, reads, schedule)
        output = _flow(writes, empty, writes, schedule)
        lanes = ", ".join(f"l{k}" for k in range(self.lanes))
        same = isl.UnionMap(f"{params}{{ L[{lanes}] -> L[{lanes}] }}", context=ctx)
        for kind, deps in (("flow", flow), ("anti", anti), ("output", output)):
            across = deps.apply_domain(to_lanes).apply_range(to_lanes).subtract(same)
            if not across.is_empty():
                verdict = Verdict(False, self._describe(kind, deps, to_lanes, same, array))
                vector = self._name_dependence(
                    verdict, kind, deps, to_lanes, same, array, relations
                )
                every = flow.union(anti).union(output)
                every = every.apply_domain(to_lanes).apply_range(to_lanes).subtract(same)
                loop_names = [stmt.var.name for stmt in self.fors]
                every_vector = _distance(every.deltas(), self.lanes)
                verdict.advice = _advice(kind, array, loop_names, vector, every_vector)
                return verdict
        return Verdict(True, "isl: no dependence between iterations")

    def _name_dependence(self, verdict, kind, deps, to_lanes, same, array, relations) -> list[str]:
        """Fill in `verdict.dependence` (the pair of accesses, their lines, the distance
        over the lanes), from the first pair of accesses whose dependence crosses lanes;
        return that distance (see `_distance`)."""
        source_writes = kind in ("flow", "output")
        sink_writes = kind in ("anti", "output")
        for src, src_rel in relations:
            if src.write != source_writes:
                continue
            for dst, dst_rel in relations:
                if dst.write != sink_writes:
                    continue
                # The instances of the dependence where these two accesses meet.
                pair = deps.intersect(src_rel.apply_range(dst_rel.reverse()))
                across = pair.apply_domain(to_lanes).apply_range(to_lanes).subtract(same)
                if across.is_empty():
                    continue
                vector = _distance(across.deltas(), self.lanes)
                lanes = [stmt.var.name for stmt in self.fors]
                lines = {s.name: s.line for s in self.statements}
                what = {"flow": "writes", "anti": "reads", "output": "writes"}
                then = {"flow": "reads", "anti": "writes", "output": "writes"}
                over = ", ".join(lanes)
                verdict.dependence = (
                    f"{kind} dependence on {array}: line {lines[src.statement]} "
                    f"{what[kind]} {_basic(src.node)}, line {lines[dst.statement]} "
                    f"{then[kind]} {_basic(dst.node)} in another iteration; "
                    f"{'distance' if all(v.lstrip('-').isdigit() for v in vector) else 'direction'}"
                    f" ({over}) = ({', '.join(vector)})"
                )
                return vector
        return []

    def _describe(self, kind, deps, to_lanes, same, array) -> str:
        lines = {s.name: s.line for s in self.statements}
        maps = []
        deps.foreach_map(maps.append)
        for m in maps:
            src = m.get_tuple_name(isl.dim_type.in_)
            dst = m.get_tuple_name(isl.dim_type.out)
            across = (
                isl.UnionMap.from_map(m).apply_domain(to_lanes).apply_range(to_lanes).subtract(same)
            )
            if not across.is_empty():
                return {
                    "flow": f"isl: line {lines[src]} writes an element of {array} that another "
                    f"iteration reads at line {lines[dst]}",
                    "anti": f"isl: line {lines[src]} reads an element of {array} that another "
                    f"iteration writes at line {lines[dst]}",
                    "output": f"isl: lines {lines[src]} and {lines[dst]} write one element of "
                    f"{array} in two iterations",
                }[kind]
        return f"isl: a {kind} dependence on {array} between iterations"


def every_row_runs(
    fors: list[ast.For], inner: ast.For, analysis: Analysis, parameters_ok: frozenset[str]
) -> bool:
    """Whether FOR `inner` (bounds affine in the loop variables of `fors`, the lane
    loops, outermost first) runs at least once in every iteration of the lane loops:
    `FOR J = 0 TO I` below `FOR I = 0 TO N - 1` does, `FOR J = I + 1 TO N - 1` does not
    (its last row is empty).  False when isl cannot tell."""
    model = NestModel(fors, [], analysis, parameters_ok)
    try:
        iterators, constraints = [], []
        for stmt in fors:
            var = model._iterator(stmt.var.name)
            constraints.extend(model._bounds(stmt, var, iterators))
            iterators.append(var)
        var = model._iterator(inner.var.name)
        rows = constraints + model._bounds(inner, var, iterators)
    except NotAffine:
        return False
    params = f"[{', '.join(model.parameters)}] -> " if model.parameters else ""
    lanes = ", ".join(iterators)
    where = " and ".join(constraints) or "true"
    try:
        outer = isl.Set(f"{params}{{ [{lanes}] : {where} }}")
        runs = isl.Set(f"{params}{{ [{lanes}, {var}] : {' and '.join(rows)} }}")
        return outer.subtract(runs.project_out(isl.dim_type.set, len(iterators), 1)).is_empty()
    except isl.Error:
        return False


def _distance(deltas: isl.UnionSet, lanes: int) -> list[str]:
    """Each lane dimension of a dependence's distances (sink minus source): the number
    when it is the same for every dependence, else its sign ("+", "-", ">= 0", "<= 0",
    "any")."""
    sets = []
    deltas.foreach_set(sets.append)
    delta = sets[0]
    for s in sets[1:]:
        delta = delta.union(s)
    out = []
    for k in range(lanes):
        value = delta.sample_point().get_coordinate_val(isl.dim_type.set, k).to_python()
        if _within(delta, k, value + 1, None).union(_within(delta, k, None, value - 1)).is_empty():
            out.append(str(value))
            continue
        up = not _within(delta, k, 1, None).is_empty()
        down = not _within(delta, k, None, -1).is_empty()
        zero = not _within(delta, k, 0, 0).is_empty()
        sign = {(True, False): "+", (False, True): "-"}.get((up, down), "any")
        if zero and sign != "any":
            sign = ">= 0" if sign == "+" else "<= 0"
        out.append(sign)
    return out


def _within(delta: isl.Set, k: int, low: int | None, high: int | None) -> isl.Set:
    """The distances whose dimension `k` lies in [low, high] (None: unbounded)."""
    ctx = delta.get_ctx()
    if low is not None:
        delta = delta.lower_bound_val(isl.dim_type.set, k, isl.Val.int_from_si(ctx, low))
    if high is not None:
        delta = delta.upper_bound_val(isl.dim_type.set, k, isl.Val.int_from_si(ctx, high))
    return delta


def _advice(kind: str, array: str, lanes: list[str], vector: list[str], every: list[str]) -> str:
    """The change to the BASIC that removes the dependence, when one keeps the results:
    a second array for an anti dependence, a subscript per lane for an output one,
    an interchange where an inner loop carries none (`every`: the direction of all the
    dependences on the array across lanes, `vector` the named one's)."""
    if not vector:
        return ""
    if kind == "anti":
        return (
            f"write the new values into a second array (not {array}) and copy them back "
            f"after the loop: then no iteration overwrites an element another still reads"
        )
    free = [v for v, d in zip(lanes, vector) if d != "0"]
    if kind == "output":
        return (
            f"iterations that differ in {', '.join(free)} write one element of {array}: "
            f"give the element written a subscript in {', '.join(free)} (each iteration its "
            f"own element)"
        )
    independent = [v for v, d in zip(lanes, every) if d == "0"]
    if independent and lanes[0] not in independent:
        return (
            f"interchange: no dependence on {array} crosses the iterations over "
            f"{independent[0]}; with FOR {independent[0]} outside FOR {lanes[0]} (if the "
            f"other arrays allow it) they can be the kernel's lanes"
        )
    return ""


def _basic(node: ast.Index) -> str:
    return show_expr(node)


def _flow(sink, must, may, schedule) -> isl.UnionMap:
    info = isl.UnionAccessInfo.from_sink(sink)
    info = info.set_must_source(must).set_may_source(may).set_schedule_map(schedule)
    return info.compute_flow().get_may_dependence()


def linear_form(expr: ast.Expr) -> dict[str, float] | None:
    """`expr` as {BASIC variable: coefficient, "": constant}, or None if not affine."""
    return _linear(expr, lambda name: name)


def _linear(expr: ast.Expr, name_of) -> dict[str, float] | None:
    """`expr` as {isl name: coefficient, "": constant}, or None."""
    if isinstance(expr, ast.Num):
        return {"": expr.value}
    if isinstance(expr, ast.Var):
        name = name_of(expr.name)
        return None if name is None else {name: 1}
    if isinstance(expr, ast.UnaryOp) and expr.op in "+-":
        inner = _linear(expr.operand, name_of)
        if inner is None:
            return None
        return inner if expr.op == "+" else {n: -c for n, c in inner.items()}
    if isinstance(expr, ast.BinOp) and expr.op in ("+", "-"):
        left, right = _linear(expr.left, name_of), _linear(expr.right, name_of)
        if left is None or right is None:
            return None
        sign = 1 if expr.op == "+" else -1
        out = dict(left)
        for n, c in right.items():
            out[n] = out.get(n, 0) + sign * c
        return out
    if isinstance(expr, ast.BinOp) and expr.op == "*":
        left, right = _linear(expr.left, name_of), _linear(expr.right, name_of)
        if left is None or right is None:
            return None
        for factor, other in ((left, right), (right, left)):
            if set(factor) <= {""}:
                k = factor.get("", 0)
                return {n: c * k for n, c in other.items()}
    return None


def _ordered(var: str, stmt: ast.For) -> str:
    """The schedule's term of a loop: its variable, negated when it counts down."""
    step = _integer_constant(stmt.step) if stmt.step is not None else 1
    return var if step > 0 else f"-{var}"


def _integer_constant(expr: ast.Expr) -> int | None:
    form = _linear(expr, lambda _: None)
    if form is None or set(form) - {""} or not float(form.get("", 0)).is_integer():
        return None
    return int(form.get("", 0))


def _integral(form: dict[str, float]) -> bool:
    return all(float(c).is_integer() for c in form.values())


def _show(form: dict[str, int]) -> str:
    terms = [f"{c} * {n}" for n, c in form.items() if n and c]
    const = form.get("", 0)
    terms.append(str(int(const)))
    return " + ".join(terms).replace("+ -", "- ")


def _sets(nodes: list[hostir.HNode], var: str) -> bool:
    for node in hostir.walk(nodes):
        if isinstance(node, hostir.ForLoop) and node.stmt.var.name == var:
            return True
        if (
            isinstance(node, hostir.Simple)
            and isinstance(node.stmt, ast.Let)
            and isinstance(node.stmt.target, ast.Var)
            and node.stmt.target.name == var
        ):
            return True
    return False


def _line_of(node) -> str:
    coord = getattr(node, "coord", None)
    line = getattr(coord, "line", None)
    label = getattr(node, "label", None)
    return str(label) if label is not None else f"source line {line}"
