"""The grammar with the operator precedence of NVIDIA's cuTile BASIC, for kernel
programs: unary minus binds tighter than `^` (-2^2 is (-2)^2 = 4) and `^` is
right-associative (2^3^2 is 2^9 = 512), as its parser does.  Legacy programs keep
ECMA-55's (`grammar.precedence`)."""

from __future__ import annotations

import types

from .. import grammar

TABLES_PREFIX = "kernel-lalr"


def kernel_grammar() -> types.ModuleType:
    variant = types.ModuleType(__name__ + ".variant")
    variant.__dict__.update({k: v for k, v in vars(grammar).items() if not k.startswith("__")})
    variant.__file__ = grammar.__file__  # PLY reads it (no tables are written)
    variant.__package__ = grammar.__package__
    variant.precedence = tuple(
        level for level in grammar.precedence if level[1] not in ("UMINUS", "POW")
    ) + (("right", "POW"), ("right", "UMINUS"))
    variant.TABLES_PREFIX = TABLES_PREFIX
    return variant
