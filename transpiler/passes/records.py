"""QuickBASIC's records (--dialect qbasic): TYPE ... END TYPE, lowered to a variable or
an array per field before any other pass reads a name.

    TYPE Employee                 DIM p AS Employee     ->  the variables P.ID%, P.PAY
        id AS INTEGER             DIM a(1 TO 9) AS ...  ->  the arrays A.ID%(1 TO 9), A.PAY(...)
        pay AS SINGLE             p.id, a(i).pay        ->  P.ID%, A.PAY(i)
    END TYPE                      p = a(i)              ->  P.ID% = A.ID%(i): P.PAY = A.PAY(i)
                                  SWAP a(i), a(j)       ->  one SWAP per field

A field's name is the record's name, `.` and the field's (a name with `.` is an
ordinary name, as in GW-BASIC), so the generated code reads `p_id_int`, `a_pay`.  A
field of a record type nests (`p.pos.x`).  The fields of a record start at 0, as its
variables do (QuickBASIC's DIM fills a record with zeros).

Not implemented (located errors): `STRING * n` fields and fixed-length strings, a record
passed to a SUB or named in SHARED (DIM SHARED works), a record used whole anywhere but
an assignment or SWAP of the same type, subscripts with effects (RND, FN) in a whole
record's assignment (they would run once per field).
"""

from __future__ import annotations

import copy
from dataclasses import fields

from .. import ast
from ..builtins import effect_of
from ..errors import BasicSemanticError, Diagnostics
from ..keywords import QBASIC_TYPES
from ..model import Analysis

# A leaf field: its name's tail (".X", ".POS.X") and its type word (INTEGER...).
Leaf = tuple[str, str]


class _Records:
    def __init__(self, diags: Diagnostics) -> None:
        self.diags = diags
        self.types: dict[str, list[Leaf]] = {}  # record type -> its leaf fields
        self.open: ast.TypeBegin | None = None  # the TYPE being read
        self.fields: list[Leaf] = []
        self.variables: dict[str, str] = {}  # record variable -> its type
        self.arrays: dict[str, str] = {}  # record array -> its type

    def error(self, message: str, node: ast.Node) -> None:
        self.diags.error(BasicSemanticError(message, node.coord))

    # ----------------------------------------------------------------- TYPE blocks

    def type_statement(self, stmt: ast.Stmt) -> bool:
        """Read TYPE, a field, END TYPE (True: `stmt` was one of them, it goes away)."""
        if isinstance(stmt, ast.TypeBegin):
            if self.open is not None:
                self.error(f"TYPE {stmt.name} inside TYPE {self.open.name}", stmt)
            elif stmt.name in self.types or stmt.name in QBASIC_TYPES:
                self.error(f"TYPE {stmt.name} is defined already", stmt)
            self.open, self.fields = stmt, []
            return True
        if isinstance(stmt, ast.TypeField):
            if self.open is None:
                self.error(f"the field {stmt.name} outside TYPE ... END TYPE", stmt)
            else:
                self.field(stmt)
            return True
        if isinstance(stmt, ast.TypeEnd):
            if self.open is None:
                self.error("END TYPE without TYPE", stmt)
            elif not self.fields:
                self.error(f"TYPE {self.open.name} has no fields", self.open)
            else:
                self.types[self.open.name] = self.fields
            self.open = None
            return True
        if self.open is not None and not isinstance(stmt, ast.Rem):
            self.error(f"only fields and comments may stand in TYPE {self.open.name}", stmt)
        return False

    def field(self, stmt: ast.TypeField) -> None:
        if stmt.length:
            self.error(
                f"the field {stmt.name} AS STRING * {stmt.length}: fixed-length strings "
                "are not supported yet",
                stmt,
            )
        elif stmt.dtype in self.types:
            self.fields += [(f".{stmt.name}{tail}", t) for tail, t in self.types[stmt.dtype]]
        elif stmt.dtype == "STRING":
            self.error(f"the field {stmt.name} AS STRING: a field's string has a length", stmt)
        elif stmt.dtype in QBASIC_TYPES:
            self.fields.append((f".{stmt.name}", stmt.dtype))
        else:
            self.error(f"AS {stmt.dtype}: no such TYPE (yet)", stmt)

    # ----------------------------------------------------------------- declarations

    def dim(self, stmt: ast.Dim) -> None:
        scalars, arrays = [], []
        for decl in stmt.scalars:
            if decl.length:
                self.error("fixed-length strings (STRING * n) are not supported yet", decl)
            if decl.dtype in self.types:
                self.variables[decl.name] = decl.dtype
                scalars += [
                    ast.ScalarDecl(decl.name + tail, t, coord=decl.coord)
                    for tail, t in self.types[decl.dtype]
                ]
            else:
                scalars.append(decl)
        for decl in stmt.arrays:
            if decl.length:
                self.error("fixed-length strings (STRING * n) are not supported yet", decl)
            if decl.dtype in self.types:
                self.arrays[decl.name] = decl.dtype
                arrays += [
                    ast.ArrayDecl(
                        decl.name + tail,
                        copy.deepcopy(decl.bounds),
                        dtype=t,
                        lows=list(decl.lows),
                        coord=decl.coord,
                    )
                    for tail, t in self.types[decl.dtype]
                ]
            else:
                arrays.append(decl)
        stmt.scalars, stmt.arrays = scalars, arrays

    # ----------------------------------------------------------------- uses

    def record_of(self, node: ast.Node) -> str | None:
        """The TYPE of a whole record `node` (a record variable or element), else None."""
        if isinstance(node, ast.Var):
            return self.variables.get(node.name)
        if isinstance(node, ast.Index):
            return self.arrays.get(node.name)
        return None

    def per_field(self, node: ast.LValue, tail: str) -> ast.LValue:
        if isinstance(node, ast.Var):
            return ast.Var(node.name + tail, coord=node.coord)
        return ast.Index(node.name + tail, copy.deepcopy(node.indices), coord=node.coord)

    def whole(self, stmt: ast.Stmt) -> list[ast.Stmt] | None:
        """A whole record assigned or swapped: one statement per field (None: `stmt` is
        no such statement)."""
        if isinstance(stmt, ast.Let):
            pair = (stmt.target, stmt.value)
        elif isinstance(stmt, ast.Swap):
            pair = (stmt.first, stmt.second)
        else:
            return None
        kinds = [self.record_of(node) for node in pair]
        if kinds == [None, None]:
            return None
        if None in kinds or kinds[0] != kinds[1]:
            wrong = pair[kinds.index(None)] if None in kinds else pair[1]
            self.error("Type mismatch: a record takes a record of its own TYPE", wrong)
            return []
        for node in pair:
            if isinstance(node, ast.Index) and _has_effects(node):
                self.error("a subscript with effects in a whole record's assignment", node)
                return []
        fields_ = self.types[kinds[0]]
        if isinstance(stmt, ast.Let):
            return [
                ast.Let(self.per_field(pair[0], t), self.per_field(pair[1], t), coord=stmt.coord)
                for t, _ in fields_
            ]
        return [
            ast.Swap(self.per_field(pair[0], t), self.per_field(pair[1], t), coord=stmt.coord)
            for t, _ in fields_
        ]

    def check_uses(self, stmt: ast.Stmt) -> None:
        """A record named whole elsewhere, or a field it does not have: errors."""
        if isinstance(stmt, (ast.SubDef, ast.DeclareSub)):
            for param in stmt.params:
                if param.dtype in self.types:
                    self.error(f"a record parameter ({param.name} AS {param.dtype})", param)
            return
        if isinstance(stmt, ast.Erase):
            stmt.names = [
                name + tail if name in self.arrays else name
                for name in stmt.names
                for tail, _ in (
                    self.types[self.arrays[name]] if name in self.arrays else [("", "")]
                )
            ]
            return
        for node in stmt.walk():
            if not isinstance(node, (ast.Var, ast.Index)):
                continue
            if self.record_of(node) is not None:
                what = "SHARED" if isinstance(stmt, ast.Shared) else "used whole"
                self.error(
                    f"the record {node.name} {what}: only its fields, and an assignment or "
                    "SWAP of the whole, are supported",
                    node,
                )
            elif "." in node.name:
                self.check_field(node)

    def check_field(self, node: ast.Var | ast.Index) -> None:
        head, _, _ = node.name.partition(".")
        kind = (self.variables if isinstance(node, ast.Var) else self.arrays).get(head)
        if kind is None:
            return  # an ordinary name with a `.`
        tail = node.name[len(head) :]
        if not any(t == tail or t.startswith(tail + ".") for t, _ in self.types[kind]):
            self.error(f"{tail[1:]} is not a field of {head} (TYPE {kind})", node)
        elif all(t != tail for t, _ in self.types[kind]):
            self.error(f"the record {node.name} used whole: only its fields are supported", node)

    # ----------------------------------------------------------------- statements

    def statements(self, stmts: list[ast.Stmt]) -> list[ast.Stmt]:
        out: list[ast.Stmt] = []
        for stmt in stmts:
            if self.type_statement(stmt):
                continue
            if isinstance(stmt, ast.Dim):
                self.dim(stmt)
            self.nested(stmt)
            lowered = self.whole(stmt)
            if lowered is not None:
                out += lowered
                continue
            self.check_uses(stmt)
            out.append(stmt)
        return out

    def nested(self, stmt: ast.Stmt) -> None:
        """The statement lists inside `stmt` (a one-line IF's branches)."""
        for f in fields(stmt):
            value = getattr(stmt, f.name)
            if isinstance(value, list) and value and all(isinstance(s, ast.Stmt) for s in value):
                setattr(stmt, f.name, self.statements(value))


def _has_effects(node: ast.Node) -> bool:
    return any(
        isinstance(n, ast.Call)
        and (effect_of(n.name) not in ("none", None) or n.name.startswith("FN"))
        for n in node.walk()
    )


def _uses_records(program: ast.Program) -> bool:
    for line in program.lines:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, (ast.TypeBegin, ast.TypeField, ast.TypeEnd)):
                    return True
                if isinstance(node, (ast.ScalarDecl, ast.ArrayDecl)) and node.length:
                    return True
    return False


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not _uses_records(analysis.program):
        return
    records = _Records(diags)
    for line in analysis.program.lines:
        line.statements = records.statements(line.statements)
    if records.open is not None:
        records.error(f"TYPE {records.open.name} without END TYPE", records.open)
