"""The LALR tables of the grammar (the `grammar` package): generated once, then cached
per user.

Generating the tables takes PLY about 0.15 s, too long for a compiler that starts
once per file.  They are cached as JSON in `$XDG_CACHE_HOME/basic2tile/` (default
`~/.cache/basic2tile/`; `BASIC2TILE_CACHE_DIR` overrides it), never in the working
directory or the package.  The file name carries a hash of everything the tables
depend on (PLY's version, the tokens, the precedence table, and every rule's name
and BNF), so an edited grammar can never meet stale tables; writing new tables
removes the older ones.  A missing, unreadable or unwritable cache only costs the
generation time.
"""

from __future__ import annotations

import hashlib
import json
import os
import types
from pathlib import Path

import ply
from ply import yacc

_TABLES: dict[str, types.SimpleNamespace] = {}


def load_tables(grammar: types.ModuleType) -> types.SimpleNamespace:
    """Tables for PLY's `LRParser` for the grammar namespace (once per process).  A
    variant of the grammar (kernel programs' operator precedence) names its own cache
    files with its `TABLES_PREFIX`."""
    prefix = getattr(grammar, "TABLES_PREFIX", "lalr")
    if prefix not in _TABLES:
        signature = grammar_signature(grammar)
        path = cache_dir() / f"{prefix}-{signature[:20]}.json"
        data = _read(path)
        tables = _bind(data, vars(grammar)) if data is not None else None
        if tables is None:
            data = generate(grammar)
            _write(path, data, prefix)
            tables = _bind(data, vars(grammar))
        _TABLES[prefix] = tables
    return _TABLES[prefix]


def cache_dir() -> Path:
    explicit = os.environ.get("BASIC2TILE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "basic2tile"


def grammar_signature(grammar: types.ModuleType) -> str:
    rules = sorted(
        (name, value.__doc__ or "")
        for name, value in vars(grammar).items()
        if name.startswith("p_") and callable(value)
    )
    text = repr((ply.__version__, grammar.tokens, grammar.precedence, grammar.start, rules))
    return hashlib.sha256(text.encode()).hexdigest()


def generate(grammar: types.ModuleType) -> dict:
    """Run PLY's LALR generator (no files written)."""
    parser = yacc.yacc(module=grammar, write_tables=False, debug=False, errorlog=yacc.NullLogger())
    return {
        "action": {str(k): v for k, v in parser.action.items()},
        "goto": {str(k): v for k, v in parser.goto.items()},
        "productions": [
            (p.str, p.name, p.len, p.func, os.path.basename(p.file or ""), p.line)
            for p in parser.productions
        ],
    }


def _bind(data: dict, namespace: dict) -> types.SimpleNamespace | None:
    """PLY's table object, with each production bound to its p_ function (None if the
    data do not fit this grammar, e.g. a cache file edited by hand)."""
    try:
        productions = []
        for entry in data["productions"]:
            production = yacc.MiniProduction(*entry)
            production.bind(namespace)
            productions.append(production)
        return types.SimpleNamespace(
            lr_action={int(k): v for k, v in data["action"].items()},
            lr_goto={int(k): v for k, v in data["goto"].items()},
            lr_productions=productions,
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _read(path: Path) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if isinstance(data, dict) and {"action", "goto", "productions"} <= data.keys():
            return data
    except (OSError, ValueError):
        pass
    return None


def _write(path: Path, data: dict, prefix: str) -> None:
    # Write to a temporary file and rename it, so that a process starting at the same
    # time never reads half a file.
    import tempfile  # only when the cache is (re)written: it is slow to import

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".lalr-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        for stale in path.parent.glob(f"{prefix}-*.json"):  # tables of earlier grammars
            if stale != path:
                stale.unlink(missing_ok=True)
    except OSError:
        pass
