"""Optimisations of a host program on its host IR, so that both printers print their result.

`simplify(host)` runs once, when a printer sets up (`backends/host_module.py`), after
structuring, offloading and `host_facts.annotate`, in this order:

1. conditions folded: an IF arm whose condition is made of constants only is decided
   here, exactly as at run time (`expr_facts.constant_truth`): a false arm goes, a true
   one becomes the ELSE (or the whole IF);
2. dead stores: an assignment to a variable that nothing reads (`host.read_vars`) keeps
   only the effects of its value (`hostir.Evaluate`), or nothing at all;
3. IF to max/min: `IF A > B THEN B = A` is `B = max(B, A)` (`hostir.MinMax`);
4. nested IFs merged: `IF a THEN IF b THEN ...` (nothing else in either) is one IF
   testing a, then b (`If.merged`: `and`, `&&` skip b when a is false);
5. subscripts in range: the elements whose subscripts are integral constants or
   variables of counted loops around them, within a DIM that never changes
   (`host.safe_elements`: their evaluation cannot fail, which both printers use).

A statement removed leaves a `hostir.Mark`, which prints its comment.  Each step is
idempotent: a second run changes nothing.
"""

from __future__ import annotations

import math

from ..ir import ast, hostir
from ..ir.model import Analysis, type_of_name
from ..language.expr_facts import constant_truth, has_effects, signed_number


def simplify(host: hostir.HostProgram) -> None:
    simplifier = _Simplifier(host)
    host.body = simplifier.nodes(host.body)
    for sub in host.subroutines:
        sub.body = simplifier.nodes(sub.body)
    host.safe_elements = frozenset(safe_elements(host))


class _Simplifier:
    def __init__(self, host: hostir.HostProgram):
        self.a: Analysis = host.analysis
        self.read_vars = host.read_vars
        self.microsoft = self.a.options.microsoft

    def nodes(self, nodes: list[hostir.HNode]) -> list[hostir.HNode]:
        out: list[hostir.HNode] = []
        for node in nodes:
            self.inside(node)
            out.extend(self.node(node))
        return out

    def inside(self, node: hostir.HNode) -> None:
        """Simplify the bodies of `node` first (bottom-up)."""
        if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
            node.body = self.nodes(node.body)
        elif isinstance(node, hostir.If):
            node.arms = [(cond, self.nodes(body)) for cond, body in node.arms]
            if node.else_body:
                node.else_body = self.nodes(node.else_body)
        elif isinstance(node, hostir.Dispatch):
            for block in node.blocks:
                block.body = self.nodes(block.body)
        elif isinstance(node, hostir.Launch) and node.replay is not None:
            node.replay.prefix = self.nodes(node.replay.prefix)
            node.replay.body = self.nodes(node.replay.body)

    def node(self, node: hostir.HNode) -> list[hostir.HNode]:
        if isinstance(node, hostir.If):
            folded = fold_if(node)
            if folded is None:
                folded = [node]
            return [m for n in folded for m in (self.if_(n) if n is node else [n])]
        if isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Let):
            return [self.dead_store(node)]
        return [node]

    # ----------------------------------------------------------------- dead stores

    def dead_store(self, node: hostir.Simple) -> hostir.HNode:
        """An assignment to a variable that nothing reads: only its effects (warnings,
        faults, RND) remain, and those of storing the value (a conversion that fails)."""
        let: ast.Let = node.stmt
        target = let.target
        if not isinstance(target, ast.Var) or target.name in self.read_vars:
            return node
        value_type = type_of_name(target.name)
        if self.conversion_fails(value_type) and not safe_constant(
            let.value, value_type, self.microsoft
        ):
            return hostir.Evaluate(let.value, value_type, origin=node.origin)
        if has_effects(let.value, self.microsoft):
            return hostir.Evaluate(let.value, value_type, origin=node.origin)
        return hostir.Mark(origin=node.origin)

    def conversion_fails(self, value_type: str) -> bool:
        """Can storing a value of `value_type` fail (a `%` out of range, a long string in
        strict mode) or warn (Microsoft BASIC: a number beyond its type's range)?"""
        if value_type == "int" or (value_type == "str" and self.a.options.strict):
            return True
        return self.microsoft and value_type != "str"

    def if_(self, node: hostir.If) -> list[hostir.HNode]:
        out = self.min_max(node)
        return merge_nested(node) if out == [node] else out

    # ----------------------------------------------------------------- IF to max/min

    def min_max(self, node: hostir.If) -> list[hostir.HNode]:
        """`IF A > B THEN B = A` as `B = max(B, A)`: exact, since both Python's and C++'s
        max(b, a) are `a if a > b else b`, NaN and signed zeros included.  With >= the
        comparison cannot be a max (a NaN A would win): the IF stays, `nan_kept`."""
        if len(node.arms) != 1 or node.else_body:
            return [node]
        condition, body = node.arms[0]
        shape = self.min_max_shape(condition, body)
        if shape is None:
            return [node]
        fn, strict, name, value = shape
        if not strict:
            node.nan_kept = True
            return [node]
        marks = [hostir.Mark(origin=n.origin) for n in body if n.origin is not None]
        return [
            hostir.Mark(origin=node.origin),
            *marks,
            hostir.MinMax(fn, name, value, origin=node.origin),
        ]

    def min_max_shape(self, condition: ast.Expr, body: list[hostir.HNode]):
        """`IF A > B THEN B = A` (A a variable, constant or element, B a variable): the
        function, whether the comparison is strict, the variable and the operand."""
        stmts = [n for n in body if not is_comment_node(n)]
        if len(stmts) != 1 or not isinstance(stmts[0], hostir.Simple):
            return None
        let = stmts[0].stmt
        if not isinstance(let, ast.Let) or not isinstance(let.target, ast.Var):
            return None
        if not isinstance(condition, ast.BinOp) or condition.op not in ("<", ">", "<=", ">="):
            return None
        name = let.target.name
        if type_of_name(name) != "num" or self.a.number_type == "f32" or self.microsoft:
            return None
        if not _plain_operand(let.value):
            return None
        left, right, op = condition.left, condition.right, condition.op
        if _same(left, let.value) and _is_var(right, name):
            bigger = op in (">", ">=")  # IF A > B THEN B = A
        elif _same(right, let.value) and _is_var(left, name):
            bigger = op in ("<", "<=")  # IF B < A THEN B = A
        else:
            return None
        return ("max" if bigger else "min"), op in ("<", ">"), name, let.value


def merge_nested(node: hostir.If) -> list[hostir.HNode]:
    """`IF a THEN IF b THEN ...` (one arm each, nothing else in the outer body but
    comments) as one IF testing a, then b; the comments between them go before it."""
    if not _single_arm(node):
        return [node]
    between: list[hostir.HNode] = []
    while True:
        condition, body = node.arms[0]
        inner = [n for n in body if not is_comment_node(n)]
        if len(inner) != 1 or not isinstance(inner[0], hostir.If) or not _single_arm(inner[0]):
            break
        nested = inner[0]
        between += [n for n in body if n is not nested] + [hostir.Mark(origin=nested.origin)]
        node.merged += [nested.arms[0][0], *nested.merged]
        node.arms = [(condition, nested.arms[0][1])]
    if not between:
        return [node]
    return [hostir.Mark(origin=node.origin), *between, node]


def _single_arm(node: hostir.If) -> bool:
    return len(node.arms) == 1 and not node.else_body and not node.nan_kept


def fold_if(node: hostir.If) -> list[hostir.HNode] | None:
    """The IF with the arms whose conditions are constants decided (a comparison of two
    constants: exactly as at run time), or None when no arm's is.  The nodes that replace
    it, a new IF or the body that runs."""
    known = [constant_truth(condition) for condition, _ in node.arms]
    if all(k is None for k in known):
        return None
    origins = node.origins or [node.origin] * len(node.arms)
    arms, kept_origins, else_body = [], [], node.else_body
    for (condition, body), origin, truth in zip(node.arms, origins, known):
        if truth is False:
            continue
        if truth is True:
            else_body = body
            break
        arms.append((condition, body))
        kept_origins.append(origin)
    if not arms:
        return [hostir.Mark(origin=node.origin), *(else_body or [])]
    node.arms, node.else_body = arms, else_body
    node.origins = kept_origins if node.origins else []
    return [node]


def safe_elements(host: hostir.HostProgram) -> set[ast.Index]:
    """The elements whose subscripts are in range for sure wherever the program evaluates
    them (an element of a subroutine copied into two paths must be safe in both)."""
    ranges = _Ranges(host.analysis)
    ranges.nodes(host.body)
    for sub in host.subroutines:
        ranges.nodes(sub.body)
    for fn in host.analysis.functions.values():  # a body runs in many places: no loop
        ranges.expr(fn.body)
    return ranges.safe - ranges.unsafe


def counted_span(stmt: ast.For) -> tuple[int, int]:
    """The values the variable of a counted loop (`for i in range`) takes: its least and
    greatest ((0, -1) when the loop runs zero times)."""
    start, limit = int(signed_number(stmt.start)), int(signed_number(stmt.limit))
    step = int(signed_number(stmt.step)) if stmt.step is not None else 1
    count = len(range(start, limit + (1 if step > 0 else -1), step))
    last = start + step * (count - 1)
    return (min(start, last), max(start, last)) if count else (0, -1)


class _Ranges:
    """The walk of `safe_elements`: the ranges of the counted loops around each node."""

    def __init__(self, analysis: Analysis):
        self.a = analysis
        self.ranges: dict[str, tuple[int, int]] = {}
        self.safe: set[ast.Index] = set()
        self.unsafe: set[ast.Index] = set()

    def nodes(self, nodes: list[hostir.HNode]) -> None:
        for node in nodes:
            self.node(node)

    def node(self, node: hostir.HNode) -> None:
        for key, value in vars(node).items():
            if isinstance(value, ast.Node) and key != "origin":  # (its comment's statement)
                self.expr(value)
        if isinstance(node, hostir.If):
            for condition, _ in node.arms:
                self.expr(condition)
        if isinstance(node, hostir.ForLoop) and node.counted:
            name = node.stmt.var.name
            saved = self.ranges.get(name)
            self.ranges[name] = counted_span(node.stmt)
            self.nodes(node.body)
            self.ranges.pop(name)
            if saved is not None:
                self.ranges[name] = saved
            return
        for body in _bodies(node):
            self.nodes(body)

    def expr(self, e: ast.Node) -> None:
        for node in e.walk():
            if isinstance(node, ast.Index):
                (self.safe if self.in_range(node) else self.unsafe).add(node)

    def in_range(self, e: ast.Index) -> bool:
        symbol = self.a.arrays[e.name]
        if symbol.upper is None or symbol.redimensioned:
            return False
        for sub, upper in zip(e.indices, symbol.upper):
            span = self.span(sub)
            if span is None or span[0] < symbol.base or span[1] > upper:
                return False
        return True

    def span(self, e: ast.Expr) -> tuple[int, int] | None:
        if isinstance(e, ast.Num) and math.isfinite(e.value) and e.value == int(e.value):
            return int(e.value), int(e.value)
        if isinstance(e, ast.Var):
            return self.ranges.get(e.name)
        return None


def _bodies(node: hostir.HNode) -> list[list[hostir.HNode]]:
    """The lists of nodes inside `node` (as hostir.walk visits them)."""
    if isinstance(node, (hostir.ForLoop, hostir.WhileLoop)):
        return [node.body]
    if isinstance(node, hostir.If):
        return [body for _, body in node.arms] + [node.else_body or []]
    if isinstance(node, hostir.Dispatch):
        return [block.body for block in node.blocks]
    if isinstance(node, hostir.Launch) and node.replay is not None:
        return [node.replay.prefix, node.replay.body]
    if isinstance(node, hostir.Distributed):
        return [[*node.parts, node.original]]
    return []


def is_comment_node(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Mark) or (
        isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)
    )


def safe_constant(e: ast.Expr, value_type: str, microsoft: bool = False) -> bool:
    """A constant whose conversion for storing cannot fail."""
    if value_type == "str":
        return isinstance(e, ast.Str) and len(e.value) <= 18
    value = signed_number(e)
    if value is None:
        return False
    if microsoft:  # CINT's 16 bits, CLNG's 32; a floating constant is in range already
        if value_type == "lng":
            return -2147483648.5 < value < 2147483647.5
        return value_type != "int" or -32768.5 < value < 32767.5
    return -2147483648.0 <= value + 0.5 < 2147483648.0


def _is_var(e: ast.Expr, name: str) -> bool:
    return isinstance(e, ast.Var) and e.name == name


def _plain_operand(e: ast.Expr) -> bool:
    """A variable, a constant or an element with such subscripts: evaluating it twice
    is evaluating it once."""
    if isinstance(e, (ast.Var, ast.Num)):
        return True
    if isinstance(e, ast.Index):
        return all(isinstance(i, (ast.Var, ast.Num)) for i in e.indices)
    return False


def _same(a: ast.Expr, b: ast.Expr) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.Var):
        return a.name == b.name
    if isinstance(a, ast.Num):
        return a.value == b.value
    if isinstance(a, ast.Index):
        return (
            a.name == b.name
            and len(a.indices) == len(b.indices)
            and all(_same(x, y) for x, y in zip(a.indices, b.indices))
        )
    return False
