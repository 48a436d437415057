"""The DATA items of a program as rows of generated source, for both host printers.

Each DATA statement's items go under its origin comment, packed into rows of at most
`WIDTH` characters; each target writes an item (`entry`) and a comment in its syntax.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ir import ast

WIDTH = 92  # the items' rows, before the formatter indents them


def data_lines(
    stmts: list[ast.Stmt],
    texts: dict[int, str],
    entry: Callable[[ast.Datum], str],
    comment: Callable[[int | None, str], str],
) -> list[str]:
    """`texts`: each statement's BASIC text by id (for its comment)."""
    lines = []
    for stmt in stmts:
        if not isinstance(stmt, ast.Data) or not stmt.read:
            continue
        lines.append(comment(stmt.label, texts.get(id(stmt), "DATA")))
        row = ""
        for datum in stmt.items:
            text = entry(datum)
            if row and len(row) + 1 + len(text) > WIDTH:
                lines.append(row)
                row = ""
            row = f"{row} {text}" if row else text
        if row:
            lines.append(row)
    return lines
