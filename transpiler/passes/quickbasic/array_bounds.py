"""QuickBASIC's array lower bounds other than 0 and 1 (`DIM A(2 TO 5)`, `DIM B(-3 TO 3)`).

The arrays here start at OPTION BASE (0 or 1).  An array whose DIM writes another lower
bound `low` for a dimension is made to start at the base instead, `low - base` (its
offset) lower, and every subscript of that dimension is shifted by the offset:

    DIM A(2 TO 5)      ->  DIM A(0 TO 3)         (OPTION BASE 0)
    A(i) = A(i + 1)    ->  A(i - 2) = A(i + 1 - 2)
    LBOUND(A)          ->  2
    UBOUND(A)          ->  UBOUND(A) + 2

so the declared bounds are the ones checked ("Subscript out of range" below 2 or above 5)
in the interpreter and both targets, kernels included, with no runtime of its own.  It
runs first (before the records pass, whose per-field arrays then start at the base).

Not supported (located errors): DIMs and REDIMs of one array that write different lower
bounds, a lower bound that is not an integer constant (the grammar), and such an array
passed whole to a SUB or FUNCTION (`CALL S(A())`), whose body would not shift.
"""

from __future__ import annotations

from dataclasses import fields

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis

# The grammar's lower bound where none is written (OPTION BASE's).
_NOT_WRITTEN = -1


def _offsets(lines: list[ast.Line], error) -> dict[str, tuple[int, ...]]:
    """Each array's offset per dimension (0: it starts at the base or at 0 / 1 as before),
    for the arrays with at least one dimension to shift."""
    written: dict[str, list[ast.ArrayDecl]] = {}
    base = 0
    bases: dict[int, int] = {}  # id(decl) -> OPTION BASE in force
    for line in lines:
        for stmt in line.statements:
            if isinstance(stmt, (ast.SubDef, ast.DeclareSub)):
                continue  # `SUB S (a())`: a parameter
            for node in stmt.walk():
                if isinstance(node, ast.OptionBase):
                    base = node.base
                elif isinstance(node, ast.ArrayDecl) and node.lows:
                    written.setdefault(node.name, []).append(node)
                    bases[id(node)] = base
    offsets: dict[str, tuple[int, ...]] = {}
    for name, decls in written.items():
        shifts = [
            tuple(0 if low in (0, 1, _NOT_WRITTEN) else low - bases[id(d)] for low in d.lows)
            for d in decls
        ]
        if not any(any(s) for s in shifts):
            continue
        if len(set(shifts)) != 1 or len({tuple(d.lows) for d in decls}) != 1:
            error(f"the DIMs of {name} give it different lower bounds: not supported", decls[-1])
            continue
        offsets[name] = shifts[0]
    return offsets


class _Shifter:
    def __init__(self, offsets: dict[str, tuple[int, ...]], error) -> None:
        self.offsets = offsets
        self.error = error
        self.array_params: set[str] = set()  # of the procedure being read

    def shift_of(self, name: str) -> tuple[int, ...] | None:
        """The offsets of array `name`, or of the record array whose field it is
        (`p(k).x` is the element P.X(k) of record array P)."""
        if name in self.offsets:
            return self.offsets[name]
        return self.offsets.get(name.partition(".")[0]) if "." in name else None

    def statement(self, stmt: ast.Node) -> None:
        if isinstance(stmt, ast.SubDef):
            self.array_params = {p.name for p in stmt.params if isinstance(p, ast.ArrayDecl)}
            return
        if isinstance(stmt, ast.EndSub):
            self.array_params = set()
            return
        self.rewrite(stmt)

    def rewrite(self, node: ast.Node) -> None:
        for f in fields(node):
            if f.name == "coord":
                continue
            value = getattr(node, f.name)
            if isinstance(value, ast.Node):
                setattr(node, f.name, self.node(value))
            elif isinstance(value, list):
                setattr(
                    node, f.name, [self.node(v) if isinstance(v, ast.Node) else v for v in value]
                )

    def node(self, node: ast.Node) -> ast.Node:
        if isinstance(node, (ast.SubDef, ast.EndSub)):
            self.statement(node)
            return node
        self.rewrite(node)
        name = getattr(node, "name", None)
        shift = self.shift_of(name) if isinstance(name, str) else None
        if shift is None or name.partition(".")[0] in self.array_params:
            return node
        if isinstance(node, ast.ArrayDecl) and node.lows:
            node.bounds = [_minus(b, s) for b, s in zip(node.bounds, shift, strict=False)]
            node.lows = [low - s for low, s in zip(node.lows, shift, strict=False)]
        elif isinstance(node, ast.Index) and not node.indices:
            self.error(
                f"{node.name}() has a lower bound other than 0 or 1: passing it to a SUB or "
                "FUNCTION is not supported yet",
                node,
            )
        elif isinstance(node, ast.Index):
            node.indices = [_minus(i, s) for i, s in zip(node.indices, shift, strict=False)]
        elif isinstance(node, ast.Bound) and node.dim <= len(shift):
            offset = shift[node.dim - 1]
            if node.lower:
                low = ast.Num(float(offset), str(offset), coord=node.coord)
                return _plus(low, _base_low(node), offset)
            return _minus(node, -offset)
        return node


def _base_low(node: ast.Bound) -> ast.Bound:
    return ast.Bound(node.name, node.dim, lower=True, coord=node.coord)


def _plus(offset: ast.Num, low: ast.Bound, value: int) -> ast.Expr:
    """LBOUND of a shifted dimension: the offset plus the base it now starts at."""
    return ast.BinOp("+", low, offset, coord=offset.coord) if value else low


def _minus(e: ast.Expr, offset: int) -> ast.Expr:
    """`e - offset` (`e + -offset` written as `e + n`), or e itself for no offset."""
    if offset == 0:
        return e
    op, n = ("-", offset) if offset > 0 else ("+", -offset)
    return ast.BinOp(op, e, ast.Num(float(n), str(n), coord=e.coord), coord=e.coord)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not analysis.options.qbasic:
        return

    def error(message: str, node: ast.Node) -> None:
        diags.error(BasicSemanticError(message, node.coord))

    offsets = _offsets(analysis.program.lines, error)
    if not offsets:
        return
    shifter = _Shifter(offsets, error)
    for line in analysis.program.lines:
        for stmt in line.statements:
            shifter.statement(stmt)
