"""A scalar that one part of a distributed loop sets and a later part reads, forwarded
through the array element the earlier part stores it in (offload's `distribute`).

Gram-Schmidt's update, written with a scalar accumulator,

    FOR J = K + 1 TO N - 1
      S = 0 : FOR I = 0 TO M - 1 : S = S + Q(I,K) * A(I,J) : NEXT I
      R(K,J) = S
      FOR I = 0 TO M - 1 : A(I,J) = A(I,J) - Q(I,K) * S : NEXT I
    NEXT J

distributes into a kernel over J (the sum, then `R(K,J) = S`) and a 2-D kernel over
(J, I) only if the second part knows each J's S: it is R(K,J), which the first part
stored and nothing changes afterwards, of S's own type (so the store did not round it).
The second part reads R(K,J) where it read S.  The loop as written is what the host
replays, so BASIC's messages are unchanged."""

from __future__ import annotations

from dataclasses import fields, replace

from ...ir import ast, hostir
from ...ir.model import Analysis, type_of_name
from ..host.liveness import expression_reads


def forward_scalars(
    parts: list[list[hostir.HNode]], names: set[str], lanes: set[str], analysis: Analysis
) -> list[list[hostir.HNode]] | None:
    """`parts` with the scalars `names`, which later parts read before setting, read from
    the element an earlier part stored each in; None where one is not so stored."""
    parts = [list(p) for p in parts]
    for n in range(1, len(parts)):
        # Array stores of the scalars at the head of a part (`R(K,J) = S` before the FOR)
        # end the part before instead: the iteration runs them in the same order.
        stores = 0
        while stores < len(parts[n]) and _is_store(parts[n][stores]):
            stores += 1
        moved = [
            at + 1
            for at in range(stores)
            if expression_reads(analysis, parts[n][at].stmt.value) & names
        ]
        if moved:
            parts[n - 1] += parts[n][: moved[-1]]
            parts[n] = parts[n][moved[-1] :]
    parts = [part for part in parts if part]
    body = [node for part in parts for node in part]
    for name in sorted(names):
        for n in range(1, len(parts)):
            if name not in _reads(parts[n], analysis):
                continue
            element = _stored_element(parts[:n], name, body, lanes, analysis)
            if element is None or name in _assigned(parts[n]):
                return None
            parts[n] = _substituted(parts[n], name, element)
            if parts[n] is None:
                return None
    return parts


def _is_store(node: hostir.HNode) -> bool:
    return (
        isinstance(node, hostir.Simple)
        and isinstance(node.stmt, ast.Let)
        and isinstance(node.stmt.target, ast.Index)
    )


def _stored_element(earlier, name, body, lanes, analysis) -> ast.Index | None:
    """The element `X(f)` of the last top-level `X(f) = name` of the parts `earlier`,
    after which nothing sets `name` or X; X's elements have name's type, f reads only
    the lane variables and what the loop does not set, and X is stored only there."""
    nodes = [node for part in earlier for node in part]
    for at in range(len(nodes) - 1, -1, -1):
        node = nodes[at]
        if name in _assigned([node]):
            return None
        if not (_is_store(node) and _is_var(node.stmt.value, name)):
            continue
        target = node.stmt.target
        if type_of_name(target.name) != type_of_name(name):
            return None
        if _array_writes(body, target.name) != [node]:
            return None
        set_in_loop = _assigned(body) - lanes
        if any(expression_reads(analysis, i) & set_in_loop for i in target.indices):
            return None
        return target
    return None


def _is_var(expr: ast.Expr, name: str) -> bool:
    return isinstance(expr, ast.Var) and expr.name == name


def _array_writes(body, array: str) -> list[hostir.HNode]:
    """The statements that store into `array`, or mention it otherwise than in a read."""
    out = []
    for node in hostir.walk(body):
        if not isinstance(node, hostir.Simple):
            continue
        stmt = node.stmt
        if isinstance(stmt, ast.Let):
            if isinstance(stmt.target, ast.Index) and stmt.target.name == array:
                out.append(node)
        elif any(isinstance(n, ast.Index) and n.name == array for n in stmt.walk()):
            out.append(node)  # (READ, INPUT, SWAP...: taken as writes)
    return out


def _assigned(nodes) -> set[str]:
    """The scalars the nodes set, inner loops' control variables included."""
    out = set()
    for node in hostir.walk(nodes):
        if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            if isinstance(node.stmt.target, ast.Var):
                out.add(node.stmt.target.name)
        elif isinstance(node, hostir.Simple):
            out |= {n.name for n in node.stmt.walk() if isinstance(n, ast.Var)}
        elif isinstance(node, hostir.ForLoop):
            out.add(node.stmt.var.name)
    return out


def _reads(nodes, analysis) -> set[str]:
    out = set()
    for node in hostir.walk(nodes):
        stmt = getattr(node, "stmt", None)
        if isinstance(stmt, ast.Node):
            out |= expression_reads(analysis, stmt)
        for cond, _ in getattr(node, "arms", ()):
            out |= expression_reads(analysis, cond)
        condition = getattr(node, "condition", None)
        if isinstance(condition, ast.Node):
            out |= expression_reads(analysis, condition)
    return out


def _substituted(nodes, name: str, element: ast.Index) -> list[hostir.HNode] | None:
    """`nodes` reading `element` where they read `name`: only LETs (in FOR bodies) may
    read it; None for any other node that does."""
    out = []
    for node in nodes:
        if isinstance(node, hostir.ForLoop):
            if name in {n.name for n in node.stmt.walk() if isinstance(n, ast.Var)}:
                return None
            body = _substituted(node.body, name, element)
            if body is None:
                return None
            out.append(replace(node, body=body))
        elif isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            stmt = node.stmt
            value = _replace_var(stmt.value, name, element)
            target = stmt.target
            if isinstance(target, ast.Index):
                target = replace(
                    target, indices=[_replace_var(i, name, element) for i in target.indices]
                )
            out.append(replace(node, stmt=replace(stmt, target=target, value=value)))
        elif any(
            isinstance(n, ast.Var) and n.name == name
            for m in hostir.walk([node])
            for n in _node_exprs(m)
        ):
            return None
        else:
            out.append(node)
    return out


def _node_exprs(node):
    stmt = getattr(node, "stmt", None)
    if isinstance(stmt, ast.Node):
        yield from stmt.walk()
    for cond, _ in getattr(node, "arms", ()):
        yield from cond.walk()
    for attr in ("condition", "selector"):
        value = getattr(node, attr, None)
        if isinstance(value, ast.Node):
            yield from value.walk()


def _replace_var(expr: ast.Expr, name: str, element: ast.Index) -> ast.Expr:
    """A copy of `expr` with each read of `name` a fresh copy of `element` (at that
    read's place in the source)."""
    if isinstance(expr, ast.Var):
        if expr.name != name:
            return expr
        indices = [_replace_var(i, "", element) for i in element.indices]
        return ast.Index(element.name, indices, coord=expr.coord)
    changes = {}
    for f in fields(expr):
        if f.name == "coord":
            continue
        value = getattr(expr, f.name)
        if isinstance(value, ast.Expr):
            changes[f.name] = _replace_var(value, name, element)
        elif isinstance(value, list) and any(isinstance(v, ast.Expr) for v in value):
            changes[f.name] = [
                _replace_var(v, name, element) if isinstance(v, ast.Expr) else v for v in value
            ]
    return replace(expr, **changes) if changes else _copy(expr)


def _copy(expr: ast.Expr) -> ast.Expr:
    return replace(expr)
