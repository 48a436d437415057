"""Pass 2: the flat statement list.

Lines become one list of statements in execution order.  Two rewrites make every later
consumer simpler: a one-line IF becomes a block IF (so there is one IF form), and
`NEXT I, J` becomes `NEXT I` followed by `NEXT J` (ECMA-55 has only the first; the
second closes two loops).  Nodes created here carry the coord and label of the
statement they come from.  In a program with TRON every numbered line starts with an
`ast.TraceLine`, which jumps to the line reach (the line index points at it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from ...language import builtins
from ..exprutil import negation
from ..quickbasic import procedures


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if procedures.uses_procedures(analysis.program):
        procedures.lower(analysis, diags)  # QuickBASIC's SUBs: GOSUB subroutines
    flattener = _Flattener(analysis, diags)
    flattener.field_names = field_variables(analysis.program)
    traced = _has_tron(analysis.program)
    pending: list[int] = []  # numbers of lines with no statement: they label the next one
    names: list[str] = []  # likewise QuickBASIC's labels
    for line in analysis.program.lines:
        if line.name is not None:
            if line.name in analysis.name_index or line.name in names:
                diags.error(BasicSemanticError(f"label {line.name} used twice", line.coord))
            else:
                names.append(line.name)
        if line.number is not None:
            if line.number in analysis.label_index or line.number in pending:
                diags.error(BasicSemanticError(f"line number {line.number} used twice", line.coord))
            else:
                pending.append(line.number)
        if not line.statements:
            continue
        start = len(analysis.stmts)
        if traced and line.number is not None:
            coord = line.statements[0].coord
            analysis.stmts.append(ast.TraceLine(line.number, coord=coord, label=line.number))
        for stmt in line.statements:
            flattener.emit(stmt, line.number)
        for number in pending:
            analysis.label_index[number] = start
        pending.clear()
        for name in names:
            analysis.name_index[name] = start
        names.clear()
    for number in pending:  # trailing empty lines: a jump there ends the program
        analysis.label_index[number] = len(analysis.stmts)
    for name in names:
        analysis.name_index[name] = len(analysis.stmts)
    flattener.check_constants()
    for select in flattener.selects:
        diags.error(BasicSemanticError("SELECT CASE without END SELECT", select.stmt.coord))


@dataclass
class _Select:
    """A SELECT CASE block being lowered: what its CASEs compare (the selector's
    variable, or the temporary holding its value)."""

    stmt: ast.SelectCase
    name: str
    cases: int = 0
    has_else: bool = False


def field_variables(program: ast.Program) -> list[str]:
    """The string variables that some FIELD statement makes FIELD variables, in order."""
    names: dict[str, None] = {}
    for stmt in program.statements():
        for node in stmt.walk():
            if isinstance(node, ast.Field):
                names.update(dict.fromkeys(node.names))
    return list(names)


def _has_tron(program: ast.Program) -> bool:
    """Whether the program can turn the line trace on: then every numbered line starts with
    an `ast.TraceLine` (the one place that decides it; programs without TRON keep none)."""
    return any(
        isinstance(node, ast.Trace) and node.on
        for stmt in program.statements()
        for node in stmt.walk()
    )


class _Flattener:
    def __init__(self, analysis: Analysis, diags: Diagnostics) -> None:
        self.analysis = analysis
        self.diags = diags
        self.out = analysis.stmts
        self.selects: list[_Select] = []  # the SELECT CASE blocks open, innermost last
        self.names: set[str] | None = None  # every variable name (for temporaries)
        self.constants: dict[str, ast.Const] = {}  # QuickBASIC's CONST names
        self.const_lets: set[int] = set()  # the assignments CONST stands for
        self.field_names: list[str] = []  # `field_variables`

    def emit(self, stmt: ast.Stmt, label: int | None) -> None:
        if stmt.label is None:
            stmt.label = label
        before_cases = self.selects and not self.selects[-1].cases
        if before_cases and not isinstance(stmt, (ast.Case, ast.EndSelect, ast.Rem)):
            self.diags.error(
                BasicSemanticError("only comments may stand before the first CASE", stmt.coord)
            )
        if isinstance(stmt, (ast.SelectCase, ast.Case, ast.EndSelect)):
            self._lower_select(stmt)
        elif isinstance(stmt, ast.Const):
            self._lower_const(stmt)
        elif isinstance(stmt, ast.Dim) and stmt.scalars:
            # QuickBASIC's typed scalars are declarations (their names have the type now)
            if stmt.arrays:
                self._lowered(ast.Dim(stmt.arrays, coord=stmt.coord, label=stmt.label), stmt)
            else:
                self._lowered(ast.Rem("", coord=stmt.coord, label=stmt.label), stmt)
        elif isinstance(stmt, ast.If):
            self._lower_if(stmt)
        elif isinstance(stmt, (ast.Do, ast.Loop, ast.Exit)):
            self._lower_structured(stmt)
        elif isinstance(stmt, ast.Next) and len(stmt.vars) > 1:
            for i, var in enumerate(stmt.vars):
                coord = stmt.coord if i == 0 else var.coord
                self.out.append(ast.Next([var], coord=coord, label=stmt.label))
        else:
            self.out.append(stmt)
            if self.field_names:
                self._field_effects(stmt)

    # ------------------------------------------------------------ FIELD variables

    def _field_effects(self, stmt: ast.Stmt) -> None:
        """What a statement does to the FIELD variables, as statements after it: FIELD,
        GET, LSET and RSET of a FIELD variable and the MID$ statement on one change a
        record buffer, so every FIELD variable is assigned its value again (the bytes of
        its buffer, or the value it has: `field_value`); SWAP exchanges their places; any
        other assignment makes its variables ordinary ones."""
        where = {"coord": stmt.coord, "label": stmt.label}
        fields = self.field_names
        if isinstance(stmt, ast.Field) or (isinstance(stmt, ast.RecordIO) and not stmt.put):
            self._refresh_fields(where)
        elif isinstance(stmt, ast.Swap):
            names = [t.name for t in (stmt.first, stmt.second) if isinstance(t, ast.Var)]
            if len(names) == 2 and set(names) & set(fields):
                self._lowered(ast.FieldSwap(*names, **where), None)
        elif isinstance(stmt, ast.MidAssign):
            if isinstance(stmt.target, ast.Var) and stmt.target.name in fields:
                name = stmt.target.name
                store = _field_call(builtins.FIELD_STORE, name, stmt.coord)
                self._lowered(ast.Let(ast.Var(name, coord=stmt.coord), store, **where), None)
                self._refresh_fields(where)
        elif _justifies(stmt):
            if stmt.target.name in fields:
                self._refresh_fields(where)
        else:
            written = [name for name in _assigned_names(stmt) if name in fields]
            if written:
                self._lowered(ast.FieldRelease(written, **where), None)

    def _refresh_fields(self, where: dict) -> None:
        for name in self.field_names:
            value = _field_call(builtins.FIELD_VALUE, name, where["coord"])
            self._lowered(ast.Let(ast.Var(name, coord=where["coord"]), value, **where), None)

    def _lower_if(self, stmt: ast.If) -> None:
        label = stmt.label
        self.analysis.lowered_if[len(self.out)] = stmt
        self.out.append(ast.IfBlock(stmt.condition, coord=stmt.coord, label=label))
        self._branch(stmt.then_body, stmt.then_line, label)
        if stmt.else_body or stmt.else_line is not None:
            if stmt.else_line is not None:
                else_coord = stmt.else_line.coord
            else:
                else_coord = stmt.else_body[0].coord
            self.out.append(ast.Else(coord=else_coord, label=label))
            self._branch(stmt.else_body, stmt.else_line, label)
        self.out.append(ast.EndIf(coord=stmt.coord, label=label))

    def _branch(self, body: list[ast.Stmt], line: ast.LineRef | None, label: int | None) -> None:
        if line is not None:
            self.out.append(ast.Goto(line, coord=line.coord, label=label))
        for inner in body:
            self.emit(inner, label)

    # ------------------------------------------------------------ QuickBASIC's DO loops

    def _lower_structured(self, stmt: ast.Do | ast.Loop | ast.Exit) -> None:
        """DO [WHILE c | UNTIL c] is `WHILE c` (`WHILE NOT c`; `WHILE -1` for a bare DO),
        LOOP is its WEND, after `IF <leave> THEN EXIT DO` when LOOP tests; EXIT is a
        GOTO whose target passes/check/blocks.py finds."""
        where = {"coord": stmt.coord, "label": stmt.label}
        if isinstance(stmt, ast.Do):
            if stmt.condition is None:
                test: ast.Expr = ast.Num(-1.0, "-1", coord=stmt.coord)
            elif stmt.until:
                test = negation(stmt.condition)
            else:
                test = stmt.condition
            self._lowered(ast.While(test, **where), stmt)
        elif isinstance(stmt, ast.Loop):
            if stmt.condition is not None:
                leave = stmt.condition if stmt.until else negation(stmt.condition)
                self._lowered(ast.IfBlock(leave, **where), stmt)
                self._exit(ast.Exit("DO", **where), None)
                self._lowered(ast.EndIf(**where), stmt)
            self._lowered(ast.Wend(**where), stmt)
        else:
            self._exit(stmt, stmt)

    def _exit(self, exit: ast.Exit, source: ast.Stmt | None) -> None:
        ref = ast.LineRef(0, coord=exit.coord)
        self.analysis.loop_exits[ref] = exit
        self._lowered(ast.Goto(ref, coord=exit.coord, label=exit.label), source)

    def _lowered(self, stmt: ast.Stmt, source: ast.Stmt | None) -> None:
        """Append `stmt`, lowered from `source` (None: a part of it that the text of
        `source` should not be quoted above again, as the EXIT of a LOOP's test)."""
        if source is not None:
            self.analysis.lowered_from[len(self.out)] = source
        self.out.append(stmt)

    # ------------------------------------------------------------ QuickBASIC's SELECT CASE

    def _lower_select(self, stmt: ast.SelectCase | ast.Case | ast.EndSelect) -> None:
        """SELECT CASE e is `T = e` (nothing when e is a variable: T is e); its CASEs are
        `IF <T matches> THEN`, `ELSEIF ...`, CASE ELSE an ELSE, END SELECT an END IF."""
        where = {"coord": stmt.coord, "label": stmt.label}
        if isinstance(stmt, ast.SelectCase):
            if isinstance(stmt.selector, ast.Var):
                name = stmt.selector.name
            else:
                name = self._temporary(_is_string(stmt.selector))
                target = ast.Var(name, coord=stmt.selector.coord)
                self._lowered(ast.Let(target, stmt.selector, **where), stmt)
            self.selects.append(_Select(stmt, name))
            return
        if not self.selects:
            word = "CASE" if isinstance(stmt, ast.Case) else "END SELECT"
            self.diags.error(BasicSemanticError(f"{word} without SELECT CASE", stmt.coord))
            return
        select = self.selects[-1]
        if isinstance(stmt, ast.EndSelect):
            self.selects.pop()
            if select.cases:
                self._lowered(ast.EndIf(**where), stmt)
            return
        if select.has_else:
            self.diags.error(BasicSemanticError("CASE after CASE ELSE", stmt.coord))
            return
        select.cases += 1
        if not stmt.items:
            select.has_else = True
        if not stmt.items and select.cases == 1:  # only CASE ELSE: always
            self._lowered(ast.IfBlock(ast.Num(-1.0, "-1", coord=stmt.coord), **where), stmt)
        elif not stmt.items:
            self._lowered(ast.Else(**where), stmt)
        else:
            test = _case_test(select.name, stmt.items)
            head = ast.IfBlock if select.cases == 1 else ast.ElseIf
            self._lowered(head(test, **where), stmt)

    # ------------------------------------------------------------ QuickBASIC's CONST

    def _lower_const(self, stmt: ast.Const) -> None:
        """CONST N = v is N = v, and N may not be assigned anywhere else."""
        for var, value in zip(stmt.names, stmt.values, strict=True):
            if var.name in self.constants:
                self.diags.error(BasicSemanticError(f"CONST {var.name} given twice", var.coord))
                continue
            self.constants[var.name] = stmt
            let = ast.Let(var, value, coord=stmt.coord, label=stmt.label)
            self.const_lets.add(id(let))
            self._lowered(let, stmt)

    def check_constants(self) -> None:
        """A located error for every assignment to a CONST's name but its own."""
        if not self.constants:
            return
        for stmt in self.out:
            if id(stmt) in self.const_lets:
                continue
            for target in _assigned(stmt):
                if isinstance(target, ast.Var) and target.name in self.constants:
                    where = self.analysis.line_name(self.constants[target.name].coord)
                    message = (
                        f"{target.name} is a constant (CONST at {where}): it cannot be assigned"
                    )
                    self.diags.error(BasicSemanticError(message, target.coord))

    def _temporary(self, string: bool) -> str:
        """A variable name no statement of the program uses: SELECT_1#, SELECT_2$..."""
        if self.names is None:
            self.names = {
                node.name
                for line in self.analysis.program.lines
                for top in line.statements
                for node in top.walk()
                if isinstance(node, (ast.Var, ast.Index))
            }
        k = 1
        while True:
            name = f"SELECT_{k}" + ("$" if string else "#")
            if name not in self.names:
                self.names.add(name)
                return name
            k += 1


def _assigned(stmt: ast.Stmt) -> list[ast.Node]:
    """The variables and elements a statement of the flat list assigns."""
    if isinstance(stmt, ast.Let):
        return [stmt.target]
    if isinstance(stmt, ast.For):
        return [stmt.var]
    if isinstance(stmt, (ast.Input, ast.Read)):
        return list(stmt.targets)
    if isinstance(stmt, ast.LineInput):
        return [stmt.target]
    if isinstance(stmt, ast.Swap):
        return [stmt.first, stmt.second]
    return []


def _field_call(function: str, name: str, coord) -> ast.Call:
    """`function("N$", N$)`."""
    args: list[ast.Expr] = [ast.Str(name, coord=coord), ast.Var(name, coord=coord)]
    return ast.Call(function, args, coord=coord)


def _justifies(stmt: ast.Stmt) -> bool:
    """Whether `stmt` is LSET or RSET of a simple variable (grammar/files.py)."""
    return (
        isinstance(stmt, ast.Let)
        and isinstance(stmt.target, ast.Var)
        and isinstance(stmt.value, ast.Call)
        and stmt.value.name in (builtins.LSET, builtins.RSET)
    )


def _assigned_names(stmt: ast.Stmt) -> list[str]:
    """The simple variables a statement assigns."""
    return [t.name for t in _assigned(stmt) if isinstance(t, ast.Var)]


def _is_string(e: ast.Expr) -> bool:
    """Whether an expression is a string (names carry their suffix here)."""
    if isinstance(e, ast.Str):
        return True
    if isinstance(e, (ast.Var, ast.Index, ast.Call)):
        return e.name.endswith("$")
    if isinstance(e, ast.BinOp) and e.op == "+":
        return _is_string(e.left)
    return False


def _case_test(name: str, items: list[ast.CaseItem]) -> ast.Expr:
    """The condition of `CASE items` on the variable `name`: the items' tests joined by
    OR (of truth values: Microsoft's bitwise OR agrees)."""
    test: ast.Expr | None = None
    for item in items:
        where = {"coord": item.coord}
        if item.op == "TO":
            low = ast.BinOp(">=", ast.Var(name, **where), item.value, **where)
            high = ast.BinOp("<=", ast.Var(name, **where), item.high, **where)
            one: ast.Expr = ast.BinOp("AND", low, high, **where)
        else:
            one = ast.BinOp(item.op, ast.Var(name, **where), item.value, **where)
        test = one if test is None else ast.BinOp("OR", test, one, coord=test.coord)
    return test
