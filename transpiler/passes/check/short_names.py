"""Names of which only the first characters count (`--name-chars N`).

Applesoft BASIC, Commodore BASIC V2 and the other Microsoft BASICs of the 8-bit machines
keep two characters of a variable's name (and its type suffix): `SCORE` and `SC` are one
variable there, `COUNT` and `CO` too.  A published program for those machines may rely on
it, or do so by accident; read as GW-BASIC (40 characters) or extended BASIC it would run
with two variables and print something else without a word.

With `--name-chars N` this pass rewrites every variable, array and DEF FN parameter name to
its first N characters and its suffix (`SCORE` becomes `SC`, `COUNT%` becomes `CO%`), before
any pass reads a name, so that the interpreter and both targets see one variable.  Without
it, a Microsoft BASIC program (--dialect ms, chosen or pinned: the 8-bit machines' BASICs
are Microsoft's) in which two names used as variables agree in their first two characters
and suffix gets a warning at the first use of the second name.  Extended BASIC's and
QuickBASIC's programs have long names by design (`PEAK` and `PEAKBIN`), ECMA-55's and
Dartmouth's names are two characters: they get none.
"""

from __future__ import annotations

from ...errors import BasicWarning, Coord, Diagnostics
from ...ir import ast
from ...ir.model import Analysis

_SUFFIXES = "$%#!&"
# How many characters of a name the 8-bit Microsoft BASICs read (Applesoft II manual,
# "Variable names"; Commodore 64 Programmer's Reference Guide, "Variables").
EIGHT_BIT_NAME_CHARS = 2


def folded(name: str, chars: int) -> str:
    """The name as a machine that reads `chars` characters of it sees it: `SCORE` -> `SC`,
    `COUNT%` -> `CO%`, `A1$` -> `A1$`."""
    suffix = name[-1] if name[-1] in _SUFFIXES else ""
    base = name[: len(name) - len(suffix)]
    return base[:chars] + suffix


def _named_nodes(program: ast.Program):
    """(node, kind) for every node that names a variable ("scalar") or an array."""
    for line in program.lines:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, (ast.Var, ast.ScalarDecl)):
                    yield node, "scalar"
                elif isinstance(node, (ast.Index, ast.ArrayDecl, ast.MatRef, ast.Bound)):
                    yield node, "array"


def _fold_names(program: ast.Program, chars: int) -> None:
    for node, _kind in _named_nodes(program):
        node.name = folded(node.name, chars)
    for line in program.lines:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.DefFn):
                    node.params = [folded(p, chars) for p in node.params]
                elif isinstance(node, (ast.Erase, ast.MatPrint)):
                    node.names = [folded(n, chars) for n in node.names]
                elif isinstance(node, ast.MatAssign):
                    node.target = folded(node.target, chars)


def _names_used(program: ast.Program):
    """(kind, name, where) for every use of a variable ("scalar", DEF FN parameters
    included) or an array, in text order."""
    for node, kind in _named_nodes(program):
        yield kind, node.name, node.coord
    for line in program.lines:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, ast.DefFn):
                    for param in node.params:
                        yield "scalar", param, node.coord


def _collisions(program: ast.Program) -> list[tuple[str, str, str, Coord]]:
    """(kind, first name, later name, where the later one is first used) for every pair
    of names of one kind that fold to the same two characters and suffix."""
    first_name: dict[tuple[str, str], str] = {}
    seen: set[tuple[str, str]] = set()
    found: list[tuple[str, str, str, Coord]] = []
    for kind, name, coord in _names_used(program):
        if (kind, name) in seen or "." in name:
            continue  # a `.` in a name is GW-BASIC's (PLAYER.X): no 8-bit machine has it
        seen.add((kind, name))
        key = (kind, folded(name, EIGHT_BIT_NAME_CHARS))
        earlier = first_name.setdefault(key, name)
        if earlier != name:
            found.append((kind, earlier, name, coord))
    return found


_NOUN = {"scalar": "variable", "array": "array"}


def run(analysis: Analysis, diags: Diagnostics) -> None:
    if analysis.kind != "legacy":
        return
    chars = analysis.options.name_chars
    if chars is not None:
        _fold_names(analysis.program, chars)
        return
    if analysis.options.std != "ms":
        return  # extended BASIC's and QuickBASIC's programs have long names by design
    for kind, earlier, later, coord in _collisions(analysis.program):
        analysis.warnings.append(
            BasicWarning(
                f"{later} and {earlier} are one {_NOUN[kind]} in Applesoft and Commodore BASIC, "
                "which read the first two characters of a name; here they are two",
                coord,
                notes=("--name-chars 2 reads names as those machines do",),
            )
        )
