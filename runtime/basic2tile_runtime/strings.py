"""The length limit of string values (ECMA-55 9.5 and 14.5: string overflow).

bas55 allows 18 characters in a string variable (ECMA-55's minimum).  A longer value is
fatal when assigned by LET (P007) or READ (P100); INPUT asks for the reply again instead
(inputs.py).  String constants in PRINT are not limited (only the 72-character line).
"""

from __future__ import annotations

from .faults import BasicFault

STRING_MAX_LENGTH = 18
STRING_TOO_LONG = "string datum contains too many characters"


def check_string(value: str) -> str:
    """`value` itself if a string variable may hold it, else a fatal `BasicFault`."""
    if len(value) > STRING_MAX_LENGTH:
        raise BasicFault(STRING_TOO_LONG)
    return value
