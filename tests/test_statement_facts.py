"""transpiler/ir/statement_facts.py: one row per statement class, naming real fields.

The passes read what a statement reads, writes and needs from that table (issue 20): a
statement class without a row, or a row naming a field the class lacks, would make them
guess."""

from __future__ import annotations

import dataclasses

from transpiler.ir import ast
from transpiler.ir.statement_facts import STATEMENT_FACTS


def _statement_classes() -> set[type]:
    found, work = set(), [ast.Stmt]
    while work:
        for sub in work.pop().__subclasses__():
            work.append(sub)
            if getattr(ast, sub.__name__, None) is sub:  # not a class `slots=True` replaced
                found.add(sub)
    return found


def test_every_statement_class_has_a_row():
    assert _statement_classes() == set(STATEMENT_FACTS)


def test_each_row_names_fields_of_its_class():
    for cls, facts in STATEMENT_FACTS.items():
        names = {f.name for f in dataclasses.fields(cls)}
        named = set(facts.types) | set(facts.stores + facts.updates + facts.lists)
        assert named <= names, (cls.__name__, named - names)


def test_a_runtime_statement_names_its_arguments():
    """A statement printed as one runtime call passes its typed operands: it has some."""
    for cls, facts in STATEMENT_FACTS.items():
        if facts.runtime:
            assert facts.types and not facts.stores + facts.updates, cls.__name__
