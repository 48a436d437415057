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

Fixed-length strings (`DIM s AS STRING * 10`, and fields `name AS STRING * 10`) are
lowered here too (`_Records.fixed_strings`), and REDIM: an ERASE that tolerates an array
that does not exist yet, then a DIM.

Not implemented (located errors): fixed-length strings beyond 127 characters, a record
passed to a SUB or named in SHARED (DIM SHARED works), a record used whole anywhere but
an assignment or SWAP of the same type, subscripts with effects (RND, FN) in a whole
record's assignment (they would run once per field).
"""

from __future__ import annotations

import copy
from dataclasses import fields

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from ...language.builtins import effect_of
from ...language.keywords import QBASIC_TYPES

# A leaf field: its name's tail (".X", ".POS.X"), its type word (INTEGER...) and its
# length if it is a STRING * n (else 0).
Leaf = tuple[str, str, int]
# The longest fixed-length string: storing pads LEFT$(v, n) with n spaces, which must fit
# the 255 characters of a string.
LONGEST_FIXED = 127


class _Records:
    def __init__(self, diags: Diagnostics) -> None:
        self.diags = diags
        self.types: dict[str, list[Leaf]] = {}  # record type -> its leaf fields
        self.open: ast.TypeBegin | None = None  # the TYPE being read
        self.fields: list[Leaf] = []
        self.variables: dict[str, str] = {}  # record variable -> its type
        self.arrays: dict[str, str] = {}  # record array -> its type
        # Fixed-length strings (STRING * n), scalars and arrays apart: name -> n.
        self.fixed_scalars: dict[str, int] = {}
        self.fixed_arrays: dict[str, int] = {}
        self.lows: dict[str, list[tuple[int, ...]]] = {}  # `declared_lows`
        # The array parameters of the procedure being read: their bounds are those of
        # the array a call passes (passes/quickbasic/procedure_arrays.py folds them per copy).
        self.array_params: set[str] = set()

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
            if stmt.dtype != "STRING":
                self.error(f"AS {stmt.dtype} * n: only a STRING has a length", stmt)
            elif self.fixed_length(stmt.length, stmt):
                self.fields.append((f".{stmt.name}", "STRING", stmt.length))
        elif stmt.dtype in self.types:
            self.fields += [(f".{stmt.name}{tail}", t, n) for tail, t, n in self.types[stmt.dtype]]
        elif stmt.dtype == "STRING":
            self.error(f"the field {stmt.name} AS STRING: a field's string has a length", stmt)
        elif stmt.dtype in QBASIC_TYPES:
            self.fields.append((f".{stmt.name}", stmt.dtype, 0))
        else:
            self.error(f"AS {stmt.dtype}: no such TYPE (yet)", stmt)

    # ----------------------------------------------------------------- declarations

    def fixed_length(self, length: int, node: ast.Node) -> bool:
        if length > LONGEST_FIXED:
            self.error(
                f"STRING * {length}: fixed-length strings of more than {LONGEST_FIXED} "
                "characters are not supported yet",
                node,
            )
        return length <= LONGEST_FIXED

    def dim(self, stmt: ast.Dim) -> None:
        scalars, arrays = [], []
        for decl in stmt.scalars:
            if decl.dtype in self.types:
                self.variables[decl.name] = decl.dtype
                scalars += [
                    ast.ScalarDecl(decl.name + tail, t, n, coord=decl.coord)
                    for tail, t, n in self.types[decl.dtype]
                ]
            else:
                scalars.append(decl)
        for decl in stmt.arrays:
            if decl.dtype in self.types:
                self.arrays[decl.name] = decl.dtype
                arrays += [
                    ast.ArrayDecl(
                        decl.name + tail,
                        copy.deepcopy(decl.bounds),
                        dtype=t,
                        lows=list(decl.lows),
                        length=n,
                        coord=decl.coord,
                    )
                    for tail, t, n in self.types[decl.dtype]
                ]
            else:
                arrays.append(decl)
        stmt.scalars, stmt.arrays = scalars, arrays
        for decl in scalars:
            if decl.length and self.fixed_length(decl.length, decl):
                self.fixed_scalars[decl.name] = decl.length
        for decl in arrays:
            if decl.length and self.fixed_length(decl.length, decl):
                self.fixed_arrays[decl.name] = decl.length

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
                for t, _, _ in fields_
            ]
        return [
            ast.Swap(self.per_field(pair[0], t), self.per_field(pair[1], t), coord=stmt.coord)
            for t, _, _ in fields_
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
                for tail, _, _ in (
                    self.types[self.arrays[name]] if name in self.arrays else [("", "", 0)]
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
        if not any(t == tail or t.startswith(tail + ".") for t, _, _ in self.types[kind]):
            self.error(f"{tail[1:]} is not a field of {head} (TYPE {kind})", node)
        elif all(t != tail for t, _, _ in self.types[kind]):
            self.error(f"the record {node.name} used whole: only its fields are supported", node)

    # ----------------------------------------------------------------- statements

    def statements(self, stmts: list[ast.Stmt]) -> list[ast.Stmt]:
        out: list[ast.Stmt] = []
        for stmt in stmts:
            if self.type_statement(stmt):
                continue
            if isinstance(stmt, ast.Redim):  # ERASE (if it exists), DIM
                self.dim(stmt.dim)  # (a record array: one array per field)
                erased = [d.name + QBASIC_TYPES.get(d.dtype or "", "") for d in stmt.dim.arrays]
                erase = ast.Erase(erased, redim=True, coord=stmt.coord)
                out += [erase, stmt.dim]
                continue
            if isinstance(stmt, ast.Dim):
                self.dim(stmt)
            if isinstance(stmt, ast.SubDef):
                self.array_params = {p.name for p in stmt.params if isinstance(p, ast.ArrayDecl)}
            elif isinstance(stmt, ast.EndSub):
                self.array_params = set()
            self.nested(stmt)
            lowered = self.whole(stmt)
            if lowered is None:
                self.check_uses(stmt)
                lowered = [stmt]
            for each in lowered:
                _rewrite(each, self.bound, skip=[])
                out += self.fixed_strings(each)
        return out

    # ----------------------------------------------------------------- LBOUND, UBOUND

    def bound(self, node: ast.Expr) -> ast.Expr:
        """LBOUND: its value, the lower bound every DIM and REDIM of the array writes
        (0 or 1 here); UBOUND of a record array: that of its first field's array."""
        if not isinstance(node, ast.Bound) or node.name in self.array_params:
            return node
        if node.lower:
            return lower_bound(node, self.lows, self.error)
        if node.name in self.arrays:
            node.name += self.types[self.arrays[node.name]][0][0]
        return node

    # ----------------------------------------------------------------- STRING * n

    def length_of(self, node: ast.Node) -> int:
        """n for a fixed-length string variable or element `node`, else 0."""
        if isinstance(node, ast.Var):
            return self.fixed_scalars.get(node.name, 0)
        if isinstance(node, ast.Index):
            return self.fixed_arrays.get(node.name, 0)
        return 0

    def fixed_strings(self, stmt: ast.Stmt) -> list[ast.Stmt]:
        """QuickBASIC's fixed-length strings (Microsoft KB Q27631 and Q35245): a stored
        value is cut or padded with spaces to n characters; one never stored reads as n
        CHR$(0).  Here the variable holds "" until it is stored: a read is `x +
        STRING$(n - LEN(x), 0)`, a store `x = LEFT$(LEFT$(v, n) + SPACE$(n), n)`, and
        INPUT, READ and LINE INPUT store again what they wrote (SWAP exchanges strings
        of one length)."""
        if not (self.fixed_scalars or self.fixed_arrays) or isinstance(stmt, ast.Dim):
            return [stmt]
        targets = _targets(stmt)
        for node in list(stmt.walk()):
            if isinstance(node, ast.Index) and self.length_of(node) and _has_effects(node):
                self.error("a subscript with effects on a fixed-length string", node)
                return [stmt]
        _rewrite(stmt, self.read, skip=targets)
        before, after = [], []
        for target in targets:
            n = self.length_of(target)
            if not n:
                continue
            if isinstance(stmt, ast.Let):
                stmt.value = _stored(stmt.value, n)
            elif isinstance(stmt, ast.MidAssign):  # it overwrites the CHR$(0)s too
                before.append(ast.Let(_copy(target), self.read(_copy(target)), coord=stmt.coord))
            elif isinstance(stmt, ast.Swap):
                if self.length_of(stmt.first) != self.length_of(stmt.second):
                    self.error("SWAP of strings of different lengths is not supported", stmt)
            else:  # INPUT, READ, LINE INPUT wrote a string of any length
                stored = _stored(_copy(target), n)
                after.append(ast.Let(_copy(target), stored, coord=stmt.coord))
        return before + [stmt] + after

    def read(self, node: ast.Expr) -> ast.Expr:
        n = self.length_of(node)
        if not n:
            return node
        coord = node.coord
        length = ast.Call("LEN", [_copy(node)], coord=coord)
        missing = ast.BinOp("-", _num(n, coord), length, coord=coord)
        nuls = ast.Call("STRING$", [missing, _num(0, coord)], coord=coord)
        return ast.BinOp("+", node, nuls, coord=coord)

    def nested(self, stmt: ast.Stmt) -> None:
        """The statement lists inside `stmt` (a one-line IF's branches)."""
        for f in fields(stmt):
            value = getattr(stmt, f.name)
            if isinstance(value, list) and value and all(isinstance(s, ast.Stmt) for s in value):
                setattr(stmt, f.name, self.statements(value))


_TARGET_FIELDS = ("target", "targets", "first", "second")


def _targets(stmt: ast.Stmt) -> list[ast.Node]:
    """The variables and elements a statement stores into (LET, INPUT, READ, SWAP...)."""
    if isinstance(stmt, (ast.For, ast.Dim)):
        return []
    out: list[ast.Node] = []
    for name in _TARGET_FIELDS:
        value = getattr(stmt, name, None)
        if isinstance(value, list):
            out += [v for v in value if isinstance(v, (ast.Var, ast.Index))]
        elif isinstance(value, (ast.Var, ast.Index)):
            out.append(value)
    return out


def _rewrite(node: ast.Node, read, skip: list[ast.Node]) -> None:
    """Every expression under `node` that `read` replaces (bottom-up), except the nodes
    of `skip` themselves (their subscripts are expressions)."""
    for f in fields(node):
        if f.name == "coord":
            continue
        value = getattr(node, f.name)
        if isinstance(value, ast.Node):
            setattr(node, f.name, _rewritten(value, read, skip))
        elif isinstance(value, list):
            setattr(
                node,
                f.name,
                [_rewritten(v, read, skip) if isinstance(v, ast.Node) else v for v in value],
            )


def _rewritten(node: ast.Node, read, skip: list[ast.Node]) -> ast.Node:
    if isinstance(node, ast.Stmt):
        return node  # a nested statement list is lowered on its own
    _rewrite(node, read, skip)
    if any(node is s for s in skip) or not isinstance(node, ast.Expr):
        return node
    return read(node)


def _stored(value: ast.Expr, n: int) -> ast.Expr:
    """LEFT$(LEFT$(value, n) + SPACE$(n), n): cut or padded with spaces."""
    coord = value.coord
    cut = ast.Call("LEFT$", [value, _num(n, coord)], coord=coord)
    padded = ast.BinOp("+", cut, ast.Call("SPACE$", [_num(n, coord)], coord=coord), coord=coord)
    return ast.Call("LEFT$", [padded, _num(n, coord)], coord=coord)


def _num(n: int, coord) -> ast.Num:
    return ast.Num(float(n), str(n), coord=coord)


def _copy(node):
    return copy.deepcopy(node)


def lower_bound(node: ast.Bound, lows: dict[str, list[tuple[int, ...]]], error) -> ast.Expr:
    """LBOUND(A, dim) as its value: the lower bound every DIM and REDIM of A writes (0 or
    1 here); `error(message, node)` where they disagree or A has no such dimension."""
    declared = lows.get(node.name, [])
    if node.name not in lows:
        low = lows.get("", [(0,)])[0][0]  # an array without DIM: OPTION BASE
    elif len({d[node.dim - 1] if node.dim <= len(d) else -1 for d in declared}) != 1:
        error(f"LBOUND({node.name}): its DIMs give it different lower bounds", node)
        return node
    else:
        low = declared[0][node.dim - 1] if node.dim <= len(declared[0]) else -1
    if low < 0:
        error(f"LBOUND({node.name}, {node.dim}): Subscript out of range", node)
        return node
    return ast.Num(float(low), str(low), coord=node.coord)


def declared_lows(lines: list[ast.Line]) -> dict[str, list[tuple[int, ...]]]:
    """The lower bounds each DIM and REDIM gives each array, one tuple per declaration
    (a bound not written: the OPTION BASE in force); "" holds the last OPTION BASE."""
    lows: dict[str, list[tuple[int, ...]]] = {}
    base = 0
    for line in lines:
        for stmt in line.statements:
            if isinstance(stmt, (ast.SubDef, ast.DeclareSub)):
                continue  # `SUB S (a())`: a parameter, not an array of its own
            for node in stmt.walk():
                if isinstance(node, ast.OptionBase):
                    base = node.base
                elif isinstance(node, ast.ArrayDecl):
                    written = node.lows or [-1] * len(node.bounds)
                    lows.setdefault(node.name, []).append(
                        tuple(base if low == -1 else low for low in written)
                    )
    lows[""] = [(base,)]
    return lows


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
                if isinstance(
                    node, (ast.TypeBegin, ast.TypeField, ast.TypeEnd, ast.Redim, ast.Bound)
                ):
                    return True
                if isinstance(node, (ast.ScalarDecl, ast.ArrayDecl)) and node.length:
                    return True
    return False


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not _uses_records(analysis.program):
        return
    records = _Records(diags)
    records.lows = declared_lows(analysis.program.lines)
    for line in analysis.program.lines:
        line.statements = records.statements(line.statements)
    if records.open is not None:
        records.error(f"TYPE {records.open.name} without END TYPE", records.open)
