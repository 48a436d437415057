"""Identifier case in a cuTile BASIC kernel program.

NVIDIA's language reference makes identifiers case-sensitive (`X` and `x` are two
variables), while keywords and built-in functions are not; basic2tile, like every BASIC
before it, reads `x` as `X`.  A kernel program that spells one name in two ways would
therefore mean something else here than in NVIDIA's dialect (its compiler even drops a
store to `c(BID)` when the array is `C`), so it is a located error: the program must
spell each name one way, and then both readings agree.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, Diagnostics, SourceFile
from ...ir import ast


def check_identifier_case(
    program: ast.Program, source: SourceFile | None, diags: Diagnostics
) -> None:
    if source is None:
        return
    first: dict[str, tuple[str, ast.Node]] = {}
    for stmt in program.statements():
        for node in stmt.walk():
            name = _name_of(node)
            if name is None or not node.coord.line:
                continue
            line = source.line_text(node.coord.line) or ""
            start = node.coord.column - 1
            spelling = line[start : start + len(name)]
            if spelling.upper() != name.upper():
                continue  # not where the name is written (a generated node)
            seen = first.setdefault(name.upper(), (spelling, node))
            if seen[0] != spelling:
                diags.error(
                    BasicSemanticError(
                        f"{spelling} and {seen[0]} (line {seen[1].coord.line}) are two names in "
                        "cuTile BASIC, whose identifiers are case-sensitive, and one here; "
                        "spell the name one way",
                        node.coord,
                    )
                )


def _name_of(node: ast.Node) -> str | None:
    if isinstance(node, (ast.Var, ast.Index, ast.ArrayDecl, ast.TileDecl)):
        return node.name
    return None
