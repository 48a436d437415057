"""Microsoft BASIC's names (--dialect ms): every variable, array and parameter written
with the suffix of its type.

In Microsoft BASIC a name without a suffix has the type that the last DEFINT, DEFSNG,
DEFDBL or DEFSTR gave its first letter, single precision if none did; it is the same
variable as the name written with that type's suffix (after `DEFINT I`, `I` and `I%` are
one variable, and `I!` is another).  This pass rewrites the names so that the suffix says
the type everywhere after it: `I` becomes `I%`, `X!` becomes `X` (a single without a
DEF), `D` under DEFDBL D becomes `D#`.  GW-BASIC applies a DEF statement when it runs;
here it applies to the text after it, as Microsoft's compiler (BASCOM) does: the same
thing for programs that put them first, where they belong.

A user function's name takes the type of the letter after FN.  The pass runs only under --dialect ms,
before any pass reads a name.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from ...language.keywords import QBASIC_TYPES
from ...language.msconstants import LONG_MAX, constant_type

_SUFFIX = {"int": "%", "num": "", "dbl": "#", "str": "$", "lng": "&"}


class _Renamer:
    def __init__(self, diags: Diagnostics) -> None:
        self.diags = diags
        self.types: dict[str, str] = {}  # letter -> "int" | "num" | "dbl" | "str"
        # QuickBASIC: the suffix that `DIM X AS type` or `CONST X = v` gave a name
        # without one ("" for SINGLE), for variables and arrays apart.
        self.scalar_suffix: dict[str, str] = {}
        self.array_suffix: dict[str, str] = {}
        # The module's two tables while a SUB's body is renamed.
        self.module_suffixes: tuple[dict[str, str], dict[str, str]] | None = None

    def name(self, name: str, declared: dict[str, str] | None = None) -> str:
        if name[-1] in "$%#&":
            return name
        bare = name[:-1] if name[-1] == "!" else name
        if declared and bare in declared:
            return bare + declared[bare]
        # A user function's type is its name's: the letter after FN (after DEFDBL F,
        # FNF returns a double, as in GW-BASIC).
        letter = bare[2] if ast.is_user_function(bare) else bare[0]
        letter_type = self.types.get(letter, "num")
        if name[-1] == "!":  # an explicit single: the same as the bare name if that is one
            return bare if letter_type == "num" else name
        return bare + _SUFFIX[letter_type]

    def statement(self, stmt: ast.Stmt) -> None:
        if isinstance(stmt, ast.DefType):
            for letter in stmt.letters:
                self.types[letter] = stmt.type
            return
        if isinstance(stmt, (ast.Dim, ast.Const)):
            self.declare(stmt)
        elif isinstance(stmt, (ast.SubDef, ast.DeclareSub)):
            # A SUB's declarations (typed parameters, DIM ... AS) hold until its END SUB
            self.module_suffixes = (dict(self.scalar_suffix), dict(self.array_suffix))
            if stmt.function:  # FUNCTION Avg: the type of its name (AVG# after DEFDBL A)
                stmt.name = self.name(stmt.name)
            for param in stmt.params:
                if param.dtype:
                    array = isinstance(param, ast.ArrayDecl)  # `a() AS INTEGER`
                    declared = self.array_suffix if array else self.scalar_suffix
                    self.typed(param.name, param.dtype, param.coord, declared)
        elif isinstance(stmt, ast.EndSub) and self.module_suffixes is not None:
            self.scalar_suffix, self.array_suffix = self.module_suffixes
            self.module_suffixes = None
        for node in stmt.walk():
            if isinstance(node, (ast.Var, ast.ScalarDecl)):
                node.name = self.name(node.name, self.scalar_suffix)
            elif isinstance(node, (ast.Index, ast.ArrayDecl, ast.MatRef, ast.TileDecl, ast.Bound)):
                node.name = self.name(node.name, self.array_suffix)
            elif isinstance(node, ast.DefFn):
                node.name = self.name(node.name)
                node.params = [self.name(p) for p in node.params]
            elif isinstance(node, ast.Call) and ast.is_user_function(node.name):
                node.name = self.name(node.name)
            elif isinstance(node, ast.Erase):  # arrays: DIM ... AS types them
                node.names = [self.name(n, self.array_suffix) for n in node.names]
            elif isinstance(node, (ast.MatPrint, ast.Output)):
                node.names = [self.name(n) for n in node.names]
            elif isinstance(node, ast.MatAssign):
                node.target = self.name(node.target)
            elif isinstance(node, ast.Input):
                node.array_params = [self.name(n) for n in node.array_params]
        if isinstance(stmt, ast.DeclareSub) and self.module_suffixes is not None:
            self.scalar_suffix, self.array_suffix = self.module_suffixes
            self.module_suffixes = None

    # ----------------------------------------------------------------- QuickBASIC

    def declare(self, stmt: ast.Dim | ast.Const) -> None:
        """Record the types that DIM ... AS and CONST give names without a suffix."""
        if isinstance(stmt, ast.Const):
            for var, value in zip(stmt.names, stmt.values, strict=True):
                suffix = _const_suffix(value, var, self.diags, self.scalar_suffix)
                if suffix is not None and var.name[-1] not in "$%#!&":
                    self.scalar_suffix[var.name] = suffix
            return
        for decl in stmt.scalars:
            if decl.dtype:  # `DIM X` alone: the type of its name
                self.typed(decl.name, decl.dtype, decl.coord, self.scalar_suffix)
        for array in stmt.arrays:
            if array.dtype in QBASIC_TYPES:
                self.typed(array.name, array.dtype, array.coord, self.array_suffix)
                array.dtype = None  # now in its name

    def typed(self, name: str, dtype: str, coord, declared: dict[str, str]) -> None:
        suffix = QBASIC_TYPES.get(dtype)
        if suffix is None:
            self.diags.error(
                BasicSemanticError(
                    f"AS {dtype}: only INTEGER, LONG, SINGLE, DOUBLE and STRING are supported "
                    "(TYPE records are not yet)",
                    coord,
                )
            )
        elif name[-1] in "$%#!&":
            self.diags.error(
                BasicSemanticError(
                    f"{name} has a type suffix: it cannot be declared AS {dtype}", coord
                )
            )
        else:
            declared[name] = "" if suffix == "!" else suffix


def _const_suffix(
    value: ast.Expr, var: ast.Var, diags: Diagnostics, declared: dict[str, str]
) -> str | None:
    """The type QuickBASIC gives a constant written without a suffix, as a suffix: its
    value's (a string; an integer constant of INTEGER's range; a double constant, or an
    expression with one); None: the name's default type (single)."""
    number = value.operand if isinstance(value, ast.UnaryOp) and value.op == "-" else value
    if isinstance(number, ast.Num):
        text = number.text.upper()
        if "#" in text or "D" in text:
            return "#"
        if constant_type(text, qbasic=True) == "lng":
            return "&"
        if text.rstrip("%").isdigit():
            if number.value > 32768 or (number.value == 32768 and number is value):
                return "&" if number.value <= LONG_MAX + (number is not value) else "#"
            return "%"
        digits = text.split("E")[0].replace(".", "").lstrip("0")
        return "#" if len(digits) > 7 else None
    if _is_string(value):
        return "$"
    for node in value.walk():
        if isinstance(node, ast.Var) and (
            node.name.endswith("#") or declared.get(node.name) == "#"
        ):
            return "#"
        if isinstance(node, ast.Index) and node.name.endswith("#"):
            return "#"
        if isinstance(node, ast.Num) and "#" in node.text:
            return "#"
    return None


def _is_string(e: ast.Expr) -> bool:
    if isinstance(e, ast.Str):
        return True
    if isinstance(e, (ast.Var, ast.Index, ast.Call)):
        return e.name.endswith("$")
    return isinstance(e, ast.BinOp) and e.op == "+" and _is_string(e.left)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not analysis.options.microsoft:
        return
    renamer = _Renamer(diags)
    for line in analysis.program.lines:
        for stmt in line.statements:
            renamer.statement(stmt)
