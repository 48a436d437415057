"""Python names for BASIC names in the compiled program.

BASIC names are upper-case letters and digits with an optional `$`, `%`, `#` or `!`, so a prefix
per kind of symbol and a spelled-out suffix give valid, distinct Python identifiers.
Everything the compiled program binds itself starts with `_`, so nothing collides.
"""

from __future__ import annotations


def _spell(name: str) -> str:
    return name.replace("$", "_S").replace("%", "_I").replace("#", "_D").replace("!", "_F").replace("&", "_L").replace(".", "_d")


def variable(name: str) -> str:
    """A simple variable: `X` -> v_X, `A$` -> v_A_S, `N%` -> v_N_I."""
    return "v_" + _spell(name)


def parameter(name: str) -> str:
    """A DEF FN parameter (a local of the function)."""
    return "p_" + _spell(name)


def function(name: str) -> str:
    """A DEF FN function: `FNA` -> fn_FNA."""
    return "fn_" + _spell(name)


def array_data(name: str) -> str:
    """The flat element list of an array (its identity never changes)."""
    return "a_" + _spell(name)


def array_object(name: str) -> str:
    """The `BasicArray` of an array (shape, base, capacity)."""
    return "r_" + _spell(name)


def array_limit(name: str, dim: int) -> str:
    """upper bound + 1 of dimension `dim` (0-based) of an array whose shape can change."""
    return f"u{dim}_" + _spell(name)


def array_stride(name: str, dim: int) -> str:
    return f"m{dim}_" + _spell(name)


def array_offset(name: str) -> str:
    return "k_" + _spell(name)


def for_limit(index: int) -> str:
    """The limit of the FOR at statement `index`, evaluated once (ECMA-55 11.4)."""
    return f"_lim{index}"


def for_step(index: int) -> str:
    return f"_stp{index}"


def for_sign(index: int) -> str:
    return f"_sgn{index}"
