"""Pass 0: no expression deeper than every engine can take.

The generated Python nests a call or parentheses for most operations (`power(power(a,
b), c)`, the interpreter's overflow checks), and CPython's parser accepts at most 200
nested brackets in one statement; its compiler, and the passes here (which recurse over
expressions), also have depth limits.  So:

- *nesting*: operators, function calls and subscripts inside one another count one
  level each, at most MAX_NESTING; the left operand of a `+` or `-` that is itself a
  `+` or `-` stays on its level, because a flat sum `A + B - C + ...` prints without
  brackets in every engine;
- *depth*: any expression, flat sums included, is at most MAX_DEPTH operations deep.

A deeper expression is a located error (split it with LET), found before any other pass
walks the tree; this pass itself walks it with an explicit stack.  Passes and printers
recurse over expressions, so the driver runs them with a recursion limit that fits
MAX_DEPTH (`deep_recursion`).
"""

from __future__ import annotations

import contextlib
import sys

from ...errors import BasicSemanticError, Diagnostics
from ...ir import ast
from ...ir.model import Analysis

MAX_NESTING = 40
# Python 3.10 still spends C stack on every Python call: a shallower limit keeps the
# raised recursion limit within the main thread's stack.
MAX_DEPTH = 1000 if sys.version_info >= (3, 11) else 300
# Python frames a pass or printer may spend per level of an expression, at most.
_FRAMES_PER_LEVEL = 12
_LEAVES = (ast.Num, ast.Str, ast.Var, ast.Bid)
_FLAT = ("+", "-")


def run(analysis: Analysis, diags: Diagnostics) -> None:
    # Every level of an expression takes at least one character of its line (an operator,
    # a name, a bracket): only longer lines can hold one past the limits.
    source = analysis.source
    long_lines = [
        line
        for line in analysis.program.lines
        if len(source.line_text(line.coord.line) or "") > MAX_NESTING
    ]
    # (node, its nesting, its depth, the outermost expression holding it)
    stack: list[tuple[ast.Node, int, int, ast.Expr | None]] = [
        (line, 0, 0, None) for line in long_lines
    ]
    worst: dict[int, tuple[ast.Expr, int, int]] = {}
    while stack:
        node, nesting, depth, root = stack.pop()
        if isinstance(node, ast.Expr):
            root = root or node
            if not isinstance(node, _LEAVES):
                nesting, depth = nesting + 1, depth + 1
            _, most_nesting, most_depth = worst.get(id(root), (root, 0, 0))
            worst[id(root)] = (root, max(most_nesting, nesting), max(most_depth, depth))
        else:
            root, nesting, depth = None, 0, 0
        flat_left = isinstance(node, ast.BinOp) and node.op in _FLAT
        for child in node.children():
            if flat_left and child is node.left and _is_flat(child):
                stack.append((child, nesting - 1, depth, root))
            else:
                stack.append((child, nesting, depth, root))
    for root, nesting, depth in worst.values():
        if depth > MAX_DEPTH:
            diags.error(
                BasicSemanticError(
                    f"expression too long: {depth} operations deep (at most {MAX_DEPTH}); "
                    "compute parts of it with LET first",
                    root.coord,
                )
            )
        elif nesting > MAX_NESTING:
            diags.error(
                BasicSemanticError(
                    f"expression nested too deeply: {nesting} levels of operators, "
                    f"functions and subscripts (at most {MAX_NESTING}); compute parts of it "
                    "with LET first",
                    root.coord,
                )
            )


def _is_flat(node: ast.Node) -> bool:
    return isinstance(node, ast.BinOp) and node.op in _FLAT


@contextlib.contextmanager
def deep_recursion():
    """Within this block Python's recursion limit fits the deepest expression that this
    pass lets through (CPython 3.11+ spends no C stack on a Python-to-Python call)."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, MAX_DEPTH * _FRAMES_PER_LEVEL + 2000))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)
