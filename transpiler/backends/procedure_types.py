"""The type of a SUB's or FUNCTION's variable, for the printers of procedure functions."""

from __future__ import annotations

from ..model import Analysis, type_of_name


def param_type(a: Analysis, name: str) -> str:
    """ "num", "dbl", "int", "lng" or "str": the type of variable `name`."""
    symbol = a.variables.get(name)
    return symbol.type if symbol is not None else type_of_name(name)
