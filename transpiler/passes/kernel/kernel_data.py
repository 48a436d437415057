"""READ, DATA and STOP in a cuTile BASIC kernel program.

NVIDIA's dialect reads DATA when it compiles: each READ binds constants, in the order
the READs are written, and STOP (like END) returns from the kernel.  We do the same for
what runs exactly once, the statements at the kernel's top level:
- `READ X, Y` there becomes `LET X = <item>`, `LET Y = <item>` with the next DATA items,
  spelled as in the DATA statement (`10` is an I32 as in a LET, `2.5` a float);
- a top-level `STOP` ends the kernel, as END does.
A READ inside FOR, WHILE or IF would read an item that depends on the path taken (a
counter of the items read); NVIDIA's compiler gives every pass the first item, which
is wrong, so we report a located error instead.  A STOP inside a block would need an
early return from inside it, likewise an error.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, BasicUnsupportedError, Diagnostics
from ...ir import ast
from .nesting import ForBlock, IfChain, Nested, WhileBlock


def data_items(statements: list[ast.Data], diags: Diagnostics) -> list[ast.Expr]:
    """The DATA items as constants, in program order; a string item is an error."""
    items: list[ast.Expr] = []
    for stmt in statements:
        for datum in stmt.items:
            if datum.quoted or datum.number is None:
                diags.error(
                    BasicUnsupportedError(
                        "a kernel program's DATA holds numbers only (strings have no kernel type)",
                        datum.coord,
                    )
                )
                continue
            items.append(_constant(datum))
    return items


def _constant(datum: ast.Datum) -> ast.Expr:
    text = datum.text.strip()
    negative = text.startswith("-")
    digits = text.lstrip("+-")
    num = ast.Num(abs(datum.number), digits, coord=datum.coord)
    return ast.UnaryOp("-", num, coord=datum.coord) if negative else num


def resolve_reads(body: list[Nested], items: list[ast.Expr], diags: Diagnostics) -> list[Nested]:
    """`body` with its top-level READs bound to DATA items and cut at a top-level STOP."""
    out: list[Nested] = []
    pending = iter(items)
    for node in body:
        if isinstance(node, ast.Stop):
            break
        if isinstance(node, ast.Read):
            for target in node.targets:
                item = next(pending, None)
                if item is None:
                    diags.error(BasicSemanticError("READ past the last DATA item", target.coord))
                    break
                out.append(ast.Let(target, item, coord=node.coord, label=node.label))
            continue
        _reject_nested(node, diags, top=True)
        out.append(node)
    return out


def _reject_nested(node: Nested, diags: Diagnostics, top: bool = False) -> None:
    if not top and isinstance(node, ast.Read):
        diags.error(
            BasicUnsupportedError(
                "READ inside FOR, WHILE or IF of a kernel is not supported (the item it reads "
                "would depend on the path taken; READ at the kernel's top level)",
                node.coord,
            )
        )
    elif not top and isinstance(node, ast.Stop):
        diags.error(
            BasicUnsupportedError(
                "STOP inside FOR, WHILE or IF of a kernel is not supported (only a STOP at the "
                "kernel's top level ends it)",
                node.coord,
            )
        )
    for inner in _inner(node):
        _reject_nested(inner, diags)


def _inner(node: Nested) -> list[Nested]:
    if isinstance(node, (ForBlock, WhileBlock)):
        return node.body
    if isinstance(node, IfChain):
        return [s for arm in node.arms for s in arm.body] + (node.else_body or [])
    return []
