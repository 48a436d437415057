"""What the compiler sees at each stage, as text: `--dump-tokens`, `--dump-ast` and
`--dump-analyzed` (NVIDIA's compiler has the same three views of its own forms).

- tokens: one line per token, `file:line:col TYPE 'text'`, line by line as the parser
  reads them;
- AST: the statement tree, one node per line, indented, each with its location;
- analyzed: a kernel program's typed kernel IR (parameters, then statements whose
  expressions carry their type `dtype[shape]`); for a legacy program, the variables' and
  arrays' types, then the kernels its loops were offloaded to.
"""

from __future__ import annotations

import dataclasses

from ..errors import Coord, SourceFile
from ..frontend._line_format import read_line_number
from ..frontend.lexer import LineContext, build_lexer, start_line
from ..ir import ast
from ..ir import kernel as ir
from ..options import Options


def dump_tokens(source: SourceFile, options: Options) -> str:
    ctx = LineContext(source.name, options.strict)
    lexer = build_lexer(ctx)
    out: list[str] = []
    for line_no, text in enumerate(source.lines, 1):
        if not text or text.isspace():
            continue
        ctx.start_line(line_no)
        number = read_line_number(text, ctx)
        if number.value is not None:
            out.append(f"{source.name}:{line_no}:{number.column + 1} LINE_NUMBER {number.value}")
        start_line(lexer, text, line_no, number.body)
        for tok in iter(lexer.token, None):
            out.append(f"{source.name}:{line_no}:{tok.lexpos + 1} {tok.type} {_value(tok.value)}")
    return "\n".join(out) + "\n"


def _value(value) -> str:
    return repr(value) if isinstance(value, str) else repr(getattr(value, "text", value))


def dump_ast(program: ast.Program) -> str:
    out: list[str] = []
    _tree(program, 0, "", out, _ast_note)
    return "\n".join(out) + "\n"


def _ast_note(node) -> str:
    coord = getattr(node, "coord", None)
    if isinstance(coord, Coord) and coord.line:
        return f" @{coord.line}:{coord.column}"
    return ""


def dump_analyzed(analysis) -> str:
    from .. import driver

    out: list[str] = []
    if analysis.kind == "kernel":
        _kernel(driver.kernel_library(analysis).kernel, out)
        return "\n".join(out) + "\n"
    for name, var in sorted(analysis.variables.items()):
        out.append(f"variable {name}: {var.type}")
    for name, array in sorted(analysis.arrays.items()):
        bounds = "?" if array.upper is None else ", ".join(f"{array.base} TO {u}" for u in array.upper)
        out.append(f"array {name}({bounds}): {array.elem_type}")
    for kernel in driver.host_program(analysis).kernels:
        _kernel(kernel, out)
    return "\n".join(out) + "\n"


def _kernel(kernel: ir.Kernel, out: list[str]) -> None:
    out.append(f"kernel {kernel.name} ({kernel.kind}), grid {len(kernel.grid)}-D")
    for param in kernel.params:
        _tree(param, 1, "param ", out, _ir_note)
    for stmt in kernel.body:
        _tree(stmt, 1, "", out, _ir_note)


def _ir_note(node) -> str:
    typ = getattr(node, "type", None)
    if isinstance(typ, ir.TileType):
        shape = "[" + ", ".join(str(n) for n in typ.shape) + "]" if typ.shape else ""
        return f" : {typ.dtype}{shape}"
    return ""


_SKIPPED = {"coord", "type", "origin", "label"}


def _tree(node, depth: int, prefix: str, out: list[str], note) -> None:
    """`node` on one line (its plain fields), then its child nodes indented."""
    plain, children = [], []
    for f in dataclasses.fields(node):
        if f.name in _SKIPPED:
            continue
        value = getattr(node, f.name)
        if _is_node(value) or (isinstance(value, (list, tuple)) and value and any(map(_is_node, value))):
            children.append((f.name, value))
        else:
            plain.append(f"{f.name}={value!r}")
    head = "  " * depth + prefix + type(node).__name__
    out.append(head + (" " + " ".join(plain) if plain else "") + note(node))
    for name, value in children:
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if _is_node(item):
                _tree(item, depth + 1, f"{name}: ", out, note)
            else:
                out.append("  " * (depth + 1) + f"{name}: {item!r}")


def _is_node(value) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, (type, Coord, ir.TileType))
