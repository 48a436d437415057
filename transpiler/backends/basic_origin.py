"""The BASIC text quoted in `# 40 FOR I = 1 TO N` comments of generated host code.

Each statement of a source line is quoted on its own: the text from its first column to
the next statement's (without the `:` between them).  A one-line IF is quoted whole
(`IF X > 0 THEN PRINT X : GOTO 100`) and the statements inside it get no comment of
their own.  Comments are made one printable line, so BASIC text cannot end them.
"""

from __future__ import annotations

from ..ir import kernel as ir
from ..ir.model import Analysis


def statement_texts(analysis: Analysis) -> dict[int, str]:
    """id(statement) -> its source text, for the statements of the flat list that
    stand for a statement of the source (the IfBlock of a lowered one-line IF too)."""
    texts: dict[int, str] = {}
    source = analysis.source
    for line in analysis.program.lines:
        stmts = line.statements
        for k, stmt in enumerate(stmts):
            if k and _same_place(stmts[k - 1], stmt) or id(stmt) in analysis.unquoted:
                continue  # lowered from the same statement (a CALL): quoted once, above
            row = source.line_text(stmt.coord.line) or ""
            start = max(stmt.coord.column - 1, 0)
            following = next((s for s in stmts[k + 1 :] if not _same_place(s, stmt)), None)
            if following is not None and following.coord.line == stmt.coord.line:
                end = max(following.coord.column - 1, start)
            else:
                end = len(row)
            texts[id(stmt)] = row[start:end].strip().rstrip(":").rstrip()
    for index, one_line_if in analysis.lowered_if.items():
        if id(one_line_if) in texts:
            texts[id(analysis.stmts[index])] = texts[id(one_line_if)]
    for index, source_stmt in analysis.lowered_from.items():  # QuickBASIC's DO, LOOP, EXIT
        if id(source_stmt) in texts:
            texts[id(analysis.stmts[index])] = texts[id(source_stmt)]
    return texts


def _same_place(a, b) -> bool:
    return (a.coord.line, a.coord.column) == (b.coord.line, b.coord.column)


def comment_text(text: str) -> str:
    """Text for a `#` comment: one line of printable characters."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def slash_comment_text(text: str) -> str:
    """Text for a C++ `//` comment: one printable line, not ending in a line
    continuation (a `\\` there would make the next line a comment too)."""
    text = comment_text(text).rstrip()
    return text + " ." if text.endswith("\\") else text


def origin_comment(label: int | None, text: str, opener: str = "# ", safe=comment_text) -> str:
    """The comment quoting a BASIC statement, `# 40 FOR I = 1 TO N`."""
    where = f"{label} " if label is not None else ""
    return opener + safe(where + text)


def kernel_origin_comments(
    stmts: list[ir.KStmt], opener: str = "# ", safe=comment_text
) -> dict[int, str]:
    """id(statement) -> `# 50 LET C(BID) = ...`, for the first IR statement of a kernel
    translated from each BASIC line (the later ones of the same line get none)."""
    out: dict[int, str] = {}
    last = None
    for s in ir.statements(stmts):
        o = s.origin
        if o is not None and o.coord.line != last:
            last = o.coord.line
            out[id(s)] = origin_comment(o.label, o.text, opener, safe)
    return out
