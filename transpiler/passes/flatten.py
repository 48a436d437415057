"""Pass 2: the flat statement list.

Lines become one list of statements in execution order.  Two rewrites make every later
consumer simpler: a one-line IF becomes a block IF (so there is one IF form), and
`NEXT I, J` becomes `NEXT I` followed by `NEXT J` (ECMA-55 has only the first; the
second closes two loops).  Nodes created here carry the coord and label of the
statement they come from.  In a program with TRON every numbered line starts with an
`ast.TraceLine`, which jumps to the line reach (the line index points at it).
"""

from __future__ import annotations

from .. import ast
from ..errors import BasicSemanticError, Diagnostics
from ..model import Analysis


def run(analysis: Analysis, diags: Diagnostics) -> None:
    flattener = _Flattener(analysis)
    traced = _has_tron(analysis.program)
    pending: list[int] = []  # numbers of lines with no statement: they label the next one
    for line in analysis.program.lines:
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
    for number in pending:  # trailing empty lines: a jump there ends the program
        analysis.label_index[number] = len(analysis.stmts)


def _has_tron(program: ast.Program) -> bool:
    """Whether the program can turn the line trace on: then every numbered line starts with
    an `ast.TraceLine` (the one place that decides it; programs without TRON keep none)."""
    return any(
        isinstance(node, ast.Trace) and node.on
        for stmt in program.statements()
        for node in stmt.walk()
    )


class _Flattener:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.out = analysis.stmts

    def emit(self, stmt: ast.Stmt, label: int | None) -> None:
        if stmt.label is None:
            stmt.label = label
        if isinstance(stmt, ast.If):
            self._lower_if(stmt)
        elif isinstance(stmt, ast.Next) and len(stmt.vars) > 1:
            for i, var in enumerate(stmt.vars):
                coord = stmt.coord if i == 0 else var.coord
                self.out.append(ast.Next([var], coord=coord, label=stmt.label))
        else:
            self.out.append(stmt)

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
