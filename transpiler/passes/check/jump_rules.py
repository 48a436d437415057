"""Pass 6: no jump into a block from outside it.

ECMA-55 11.4 forbids transferring control into a FOR block from outside; we extend the
rule to WHILE and IF blocks, so that every block is entered only through its first
statement and the blocks can be translated to structured loops and ifs.  Jumping out of
a block, or within it, is allowed.  A GOSUB is a jump too (bas55 agrees).
"""

from __future__ import annotations

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from .jumps import line_refs


def containing_blocks(analysis: Analysis, index: int) -> list[int]:
    """Openers (FOR / WHILE / IfBlock indices) of the blocks containing a statement,
    innermost first.  An index past the last statement is in no block."""
    chain = []
    opener = analysis.enclosing[index] if index < len(analysis.enclosing) else None
    while opener is not None:
        chain.append(opener)
        opener = analysis.enclosing[opener]
    return chain


def run(analysis: Analysis, diags: Diagnostics) -> None:
    for index, stmt in enumerate(analysis.stmts):
        refs = line_refs(stmt)
        if not refs:
            continue
        source_blocks = set(containing_blocks(analysis, index))
        for ref in refs:
            target = analysis.jump_target.get(ref)
            if target is None:
                continue
            for opener in containing_blocks(analysis, target):
                if opener not in source_blocks:
                    block = analysis.stmts[opener]
                    what = (
                        f"FOR {block.var.name}"
                        if isinstance(block, ast.For)
                        else ("WHILE" if isinstance(block, ast.While) else "IF")
                    )
                    diags.error(
                        BasicSemanticError(
                            f"jump into the {what} block of {analysis.line_name(block.coord)} "
                            "from outside it",
                            ref.coord,
                        )
                    )
                    break
