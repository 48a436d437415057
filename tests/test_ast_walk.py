"""`Node.walk` and `Node.children` skip the fields declared as names, numbers or flags
(transpiler/ir/ast.py, for speed: every pass walks the tree).  That is only right while no
node is ever stored in such a field: checked here on every example, the NBS corpus and
random programs, against a walk that looks into every field."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.programgen import random_program
from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.ir import ast
from transpiler.options import Options

NBS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "nbs"


def _every_field_walk(node: ast.Node):
    yield node
    for f in fields(node):
        if f.name == "coord":
            continue
        value = getattr(node, f.name)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, ast.Node):
                yield from _every_field_walk(item)


def _programs():
    paths = sorted(EXAMPLES.glob("*.bas")) + sorted((EXAMPLES / "kernels").glob("*.bas"))
    paths += sorted(NBS.glob("*.BAS")) if NBS.is_dir() else []
    for path in paths:
        yield path.name, path.read_text(encoding="latin-1")
    for seed in range(6):
        yield f"rand{seed}.bas", random_program(seed=seed, statements=80)


def test_walk_visits_every_node_in_order():
    checked = 0
    for name, text in _programs():
        for std in ("extended", "ecma55"):
            try:
                analysis = driver.front_end(SourceFile(name, text), Options(std=std))
            except CompileErrors:
                continue
            roots = [analysis.program, *analysis.stmts]
            host = driver.host_program(analysis) if analysis.kind == "legacy" else None
            if host is not None:  # conditions the structuring made (NOT, OR of IFs)
                roots += [c for n in _host_nodes(host) for c, _ in getattr(n, "arms", [])]
            for root in roots:
                assert [id(n) for n in root.walk()] == [id(n) for n in _every_field_walk(root)]
                checked += 1
    assert checked > 1000


def _host_nodes(host):
    from transpiler.ir import hostir

    nodes = list(hostir.walk(host.body))
    for sub in host.subroutines:
        nodes += list(hostir.walk(sub.body))
    return nodes


NODE_CLASSES = [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.Node)]
_PLAIN = {"list", "str", "int", "float", "bool", "None"}


@pytest.mark.parametrize("cls", NODE_CLASSES, ids=lambda c: c.__name__)
def test_only_fields_declared_as_plain_values_are_skipped(cls):
    kept = set(ast._child_fields(cls))
    for f in fields(cls):
        if f.name == "coord" or f.name in kept:
            continue
        words = re.findall(r"\w+", str(f.type).split("#")[0])
        assert set(words) <= _PLAIN, (cls.__name__, f.name, f.type)
