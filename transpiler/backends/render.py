"""The one Jinja environment for all generated code.

Templates live in the top-level `templates/` folder of the repository and are shipped
inside the wheel as `transpiler/templates`.  They only lay out text: every decision is
made by the passes, and every piece of user text (string literals, comments) reaches a
template as data, already escaped by the backend, never as template source.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import jinja2

from ..ir import kernel as ir


def templates_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "templates", here.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("basic2tile templates folder not found (broken installation)")


def _ir_test(cls):
    return lambda value: isinstance(value, cls)


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Compiled templates, cached per user beside the parser tables
    (`_parse_tables.cache_dir()`/templates): compiling the templates of one target takes
    about 0.1 s, a fifth of a cold start.  Jinja keys each entry by the template's name
    and file and checks its source and Jinja's version, so an edited template is
    compiled again; a missing, unreadable or unwritable cache only costs the time."""

    def __init__(self) -> None:
        from ..frontend._parse_tables import cache_dir

        super().__init__(str(cache_dir() / "templates"), "jinja-%s.cache")

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError:
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


@functools.lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        bytecode_cache=_CompiledTemplates(),
        undefined=jinja2.StrictUndefined,  # a typo in a template is an error, not empty text
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,  # templates do not change while basic2tile runs (no stat per use)
    )
    env.filters["py_tuple"] = py_tuple
    env.filters["py_str"] = repr
    for name, cls in {
        "ir_let": ir.Let,
        "ir_store": ir.Store,
        "ir_scatter": ir.Scatter,
        "ir_atomic_add": ir.AtomicAdd,
        "ir_atomic_max": ir.AtomicMax,
        "ir_for": ir.ForRange,
        "ir_while": ir.WhileLoop,
        "ir_if": ir.IfScalar,
        "ir_break": ir.Break,
        "ir_print": ir.Print,
        "array_param": ir.ArrayParam,
        "scalar_param": ir.ScalarParam,
        "const_param": ir.ConstParam,
    }.items():
        env.tests[name] = _ir_test(cls)
    return env


def py_tuple(items) -> str:
    """A Python tuple display of ready-made source texts."""
    items = list(items)
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
