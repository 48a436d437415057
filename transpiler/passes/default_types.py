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

from .. import ast
from ..errors import Diagnostics
from ..model import Analysis

_SUFFIX = {"int": "%", "num": "", "dbl": "#", "str": "$"}


class _Renamer:
    def __init__(self) -> None:
        self.types: dict[str, str] = {}  # letter -> "int" | "num" | "dbl" | "str"

    def name(self, name: str) -> str:
        if name[-1] in "$%#":
            return name
        bare = name[:-1] if name[-1] == "!" else name
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
        for node in stmt.walk():
            if isinstance(node, (ast.Var, ast.Index, ast.ArrayDecl, ast.MatRef, ast.TileDecl)):
                node.name = self.name(node.name)
            elif isinstance(node, ast.DefFn):
                node.name = self.name(node.name)
                node.params = [self.name(p) for p in node.params]
            elif isinstance(node, ast.Call) and ast.is_user_function(node.name):
                node.name = self.name(node.name)
            elif isinstance(node, (ast.MatPrint, ast.Output, ast.Erase)):
                node.names = [self.name(n) for n in node.names]
            elif isinstance(node, ast.MatAssign):
                node.target = self.name(node.target)
            elif isinstance(node, ast.Input):
                node.array_params = [self.name(n) for n in node.array_params]


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if not analysis.options.microsoft:
        return
    renamer = _Renamer()
    for line in analysis.program.lines:
        for stmt in line.statements:
            renamer.statement(stmt)
