"""GW-BASIC's error numbers: what ERR gives, what `ERROR n` raises, and the message an
untrapped error prints (GW-BASIC 3.23's manual, appendix A; PC-BASIC's
`pcbasic/basic/base/error.py`).

`MESSAGES` is GW-BASIC's table.  `CODES` maps the conditions our runtime raises (a
`BasicFault`'s `what`, or a notice's) to those numbers: under --dialect ms most of them
already carry GW-BASIC's text; the others keep bas55's wording for the located message
on stderr ("insufficient data for READ") and are GW-BASIC's error all the same (4, Out of
DATA).  A condition that is not in `CODES` has no GW-BASIC equivalent (the step limit of
--max-steps, a full MAT result...): an error trap does not catch it.
"""

from __future__ import annotations

NO_RESUME = 19
RESUME_WITHOUT_ERROR = 20
ILLEGAL_FUNCTION_CALL = 5
UNDEFINED_LINE = 8
UNPRINTABLE = "Unprintable error"

# fmt: off
MESSAGES: dict[int, str] = {
    1: "NEXT without FOR", 2: "Syntax error", 3: "RETURN without GOSUB", 4: "Out of DATA",
    5: "Illegal function call", 6: "Overflow", 7: "Out of memory",
    8: "Undefined line number", 9: "Subscript out of range", 10: "Duplicate Definition",
    11: "Division by zero", 12: "Illegal direct", 13: "Type mismatch",
    14: "Out of string space", 15: "String too long", 16: "String formula too complex",
    17: "Can't continue", 18: "Undefined user function", 19: "No RESUME",
    20: "RESUME without error", 22: "Missing operand", 23: "Line buffer overflow",
    24: "Device Timeout", 25: "Device Fault", 26: "FOR without NEXT", 27: "Out of paper",
    29: "WHILE without WEND", 30: "WEND without WHILE", 50: "FIELD overflow",
    51: "Internal error", 52: "Bad file number", 53: "File not found", 54: "Bad file mode",
    55: "File already open", 57: "Device I/O error", 58: "File already exists",
    61: "Disk full", 62: "Input past end", 63: "Bad record number", 64: "Bad file name",
    66: "Direct statement in file", 67: "Too many files", 68: "Device Unavailable",
    69: "Communication buffer overflow", 70: "Permission Denied", 71: "Disk not Ready",
    72: "Disk media error", 73: "Advanced Feature", 74: "Rename across disks",
    75: "Path/File access error", 76: "Path not found", 77: "Deadlock",
}

# Our conditions in other words than GW-BASIC's (bas55's, or more precise ones).
_OUR_WORDS: dict[str, int] = {
    "insufficient data for READ": 4,
    "reading string into numeric variable": 2,  # GW-BASIC: a Syntax error in the DATA
    "subscript out of range": 9,
    "function domain error": 5,
    "negative value raised to non-integral value": 5,
    "division by zero": 11,
    "operation overflow": 6,
    "integer overflow": 6,
    "GOSUB nested too deeply": 7,
    "invalid DIM bound": 5,
    "string datum contains too many characters": 15,
}
# fmt: on

CODES: dict[str, int] = {**{text: code for code, text in MESSAGES.items()}, **_OUR_WORDS}


def gw_code(what: str) -> int | None:
    """GW-BASIC's number of the condition `what` (None: it has none, no trap catches it)."""
    return CODES.get(what)


def gw_message(code: int) -> str:
    """What GW-BASIC prints for error `code`."""
    return MESSAGES.get(code, UNPRINTABLE)
