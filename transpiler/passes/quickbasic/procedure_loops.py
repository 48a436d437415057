"""Block rewrites that FUNCTION calls and recursion need before a procedure becomes a
GOSUB subroutine (passes/quickbasic/procedures.py).

A condition holding a FUNCTION call is evaluated where it is tested, by statements
before its test; where a block has no room for those statements the block is rewritten
first:

- `ELSEIF c THEN` becomes `ELSE` + `IF c THEN`, and the block's END IF one more END IF
  (the calls of c then run only when the branches before it were not taken);
- `WHILE c ... WEND` becomes `DO WHILE c ... LOOP` (passes/quickbasic/procedure_calls.py puts the
  calls of a DO's or LOOP's condition inside the loop).

A FOR loop whose body makes a call that may come back to its procedure becomes a DO
loop on variables of the procedure's frame (the generated code keeps a FOR's limit and
step once per FOR statement, where each activation needs its own):

    FOR v = a TO b STEP s          LIM# = b: STP# = s: v = a
                                   IF NOT <v within LIM#> THEN v = v + STP#   (GW-BASIC's
    ...                     ->     DO WHILE <v within LIM#>                    zero trip)
    NEXT v                           ...
                                     v = v + STP#
                                   LOOP

A constant limit or step is written in place.  EXIT FOR of such a loop becomes EXIT DO;
an EXIT that the rewrite would send to another loop is a located error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...ir import ast
from ...language.expr_facts import signed_number


@dataclass
class _Open:
    """A block open at this point of the text."""

    kind: str  # "IF", "WHILE", "DO", "FOR"
    converted: bool = False  # WHILE: now a DO; FOR: now a DO
    extra_ends: int = 0  # IF: END IFs to add for ELSEIFs made ELSE + IF
    stmt: ast.Stmt | None = None
    step: ast.Expr | None = None  # converted FOR: what NEXT adds


@dataclass
class Restructurer:
    """Rewrites the blocks of one body (the module's lines or a procedure's)."""

    has_calls: Callable[[ast.Expr | None], bool]
    recursive: Callable[[ast.Stmt], bool]  # holds a call that may re-enter the body
    temporary: Callable[[str], str]  # a fresh variable of the body, with this suffix
    error: Callable
    stack: list[_Open] = field(default_factory=list)
    microsoft: bool = True

    def lines(self, lines: list[ast.Line]) -> None:
        converted = self._fors_to_convert(lines)
        for line in lines:
            out: list[ast.Stmt] = []
            for stmt in line.statements:
                out.extend(self._statement(stmt, converted))
            line.statements = out

    def _fors_to_convert(self, lines: list[ast.Line]) -> set[int]:
        """The FOR statements (ids) whose bodies make a recursive call."""
        flat = [stmt for line in lines for stmt in line.statements]
        opened: list[tuple[ast.For, bool]] = []
        chosen: set[int] = set()
        for stmt in flat:
            if isinstance(stmt, ast.For):
                opened.append((stmt, False))
                continue
            if isinstance(stmt, ast.Next):
                for _ in stmt.vars or [None]:
                    if opened:
                        loop, marked = opened.pop()
                        if marked:
                            chosen.add(id(loop))
                            if opened:  # the loop around it holds the call too
                                opened[-1] = (opened[-1][0], True)
                continue
            if opened and self.recursive(stmt):
                opened[-1] = (opened[-1][0], True)
        return chosen

    def _statement(self, stmt: ast.Stmt, converted: set[int]) -> list[ast.Stmt]:
        where = {"coord": stmt.coord, "label": stmt.label}
        if isinstance(stmt, ast.IfBlock):
            self.stack.append(_Open("IF"))
        elif isinstance(stmt, ast.ElseIf) and self.has_calls(stmt.condition):
            top = self._innermost("IF")
            if top is not None:
                top.extra_ends += 1
                return [ast.Else(**where), ast.IfBlock(stmt.condition, **where)]
        elif isinstance(stmt, ast.EndIf):
            top = self._pop("IF")
            if top is not None and top.extra_ends:
                return [stmt] + [ast.EndIf(**where) for _ in range(top.extra_ends)]
        elif isinstance(stmt, ast.While):
            calls = self.has_calls(stmt.condition)
            self.stack.append(_Open("WHILE", converted=calls))
            if calls:
                return [ast.Do(stmt.condition, **where)]
        elif isinstance(stmt, ast.Wend):
            top = self._pop("WHILE")
            if top is not None and top.converted:
                return [ast.Loop(**where)]
        elif isinstance(stmt, ast.Do):
            self.stack.append(_Open("DO"))
        elif isinstance(stmt, ast.Loop):
            self._pop("DO")
        elif isinstance(stmt, ast.For):
            if id(stmt) in converted:
                return self._for(stmt)
            self.stack.append(_Open("FOR", stmt=stmt))
        elif isinstance(stmt, ast.Next):
            return self._next(stmt)
        elif isinstance(stmt, ast.Exit):
            return [self._exit(stmt)]
        elif isinstance(stmt, ast.If):
            stmt.then_body = [
                s for inner in stmt.then_body for s in self._statement(inner, converted)
            ]
            stmt.else_body = [
                s for inner in stmt.else_body for s in self._statement(inner, converted)
            ]
        return [stmt]

    def _innermost(self, kind: str) -> _Open | None:
        for block in reversed(self.stack):
            if block.kind == kind:
                return block
        return None

    def _pop(self, kind: str) -> _Open | None:
        """Close the innermost block when it is of this kind (a mismatch is
        passes/check/blocks.py's to report)."""
        if self.stack and self.stack[-1].kind == kind:
            return self.stack.pop()
        return None

    # ------------------------------------------------------------------ FOR as DO

    def _for(self, stmt: ast.For) -> list[ast.Stmt]:
        where = {"coord": stmt.coord, "label": stmt.label}
        var = stmt.var
        out: list[ast.Stmt] = []
        limit = self._held(stmt.limit, out, where)
        step = self._held(stmt.step or ast.Num(1.0, "1", coord=stmt.coord), out, where)
        out.append(ast.Let(ast.Var(var.name, coord=var.coord), stmt.start, **where))
        within = _within(var, limit, step)
        if self.microsoft:
            out.append(ast.If(_not(within), then_body=[_add(var, step, where)], **where))
        out.append(ast.Do(within, **where))
        self.stack.append(_Open("FOR", converted=True, stmt=stmt, step=step))
        return out

    def _held(self, expr: ast.Expr, out: list[ast.Stmt], where) -> ast.Expr:
        """A constant as it is; else a fresh double of the frame holding its value (a
        double holds an INTEGER's or a SINGLE's value exactly)."""
        if signed_number(expr) is not None:
            return expr
        name = self.temporary("#")
        out.append(ast.Let(ast.Var(name, coord=expr.coord), expr, **where))
        return ast.Var(name, coord=expr.coord)

    def _next(self, stmt: ast.Next) -> list[ast.Stmt]:
        names = stmt.vars or [None]
        out: list[ast.Stmt] = []
        plain: list[ast.Var] = []
        for var in names:
            top = self._pop("FOR")
            if top is not None and top.converted:
                if plain:
                    out.append(ast.Next(plain, coord=stmt.coord, label=stmt.label))
                    plain = []
                where = {"coord": stmt.coord, "label": stmt.label}
                out.append(_add(top.stmt.var, top.step, where))
                out.append(ast.Loop(**where))
            elif var is not None:
                plain.append(var)
        if not out:
            return [stmt]
        if plain:
            out.append(ast.Next(plain, coord=stmt.coord, label=stmt.label))
        return out

    def _exit(self, stmt: ast.Exit) -> ast.Stmt:
        """EXIT FOR of a FOR made a DO is EXIT DO; refuse an EXIT that a rewritten block
        would catch."""
        loops = [b for b in self.stack if b.kind in ("FOR", "DO", "WHILE")]
        if stmt.block == "FOR":
            for i in range(len(loops) - 1, -1, -1):
                if loops[i].kind == "FOR":
                    if not loops[i].converted:
                        return stmt
                    if any(
                        b.kind in ("DO", "WHILE") and (b.kind == "DO" or b.converted)
                        for b in loops[i + 1 :]
                    ):
                        self.error(
                            "EXIT FOR across a DO loop out of a FOR loop that makes a recursive "
                            "call: not supported (use a GOTO past its NEXT)",
                            stmt.coord,
                        )
                        return stmt
                    return ast.Exit("DO", coord=stmt.coord, label=stmt.label)
            return stmt
        for block in reversed(loops):
            if block.kind == "DO":
                return stmt
            if block.converted:
                self.error(
                    "EXIT DO inside a loop that makes a FUNCTION call in its condition or a "
                    "recursive call: not supported (use a GOTO past the LOOP)",
                    stmt.coord,
                )
                return stmt
        return stmt


def _within(var: ast.Var, limit: ast.Expr, step: ast.Expr) -> ast.Expr:
    """The test that keeps a FOR running: (v - limit) * SGN(step) <= 0."""
    where = {"coord": var.coord}
    value = ast.Var(var.name, **where)
    sign = signed_number(step)
    if sign is not None and sign > 0:
        return ast.BinOp("<=", value, limit, **where)
    if sign is not None and sign < 0:
        return ast.BinOp(">=", value, limit, **where)
    if sign == 0:
        return ast.Num(-1.0, "-1", **where)
    distance = ast.BinOp("-", value, limit, **where)
    signum = ast.Call("SGN", [step], **where)
    product = ast.BinOp("*", distance, signum, **where)
    return ast.BinOp("<=", product, ast.Num(0.0, "0", **where), **where)


def _not(test: ast.Expr) -> ast.Expr:
    return ast.UnaryOp("NOT", test, coord=test.coord)


def _add(var: ast.Var, step: ast.Expr, where) -> ast.Let:
    total = ast.BinOp("+", ast.Var(var.name, coord=var.coord), step, coord=var.coord)
    return ast.Let(ast.Var(var.name, coord=var.coord), total, **where)
