"""The BASIC runtime shared by the reference interpreter and the generated host programs.

Output formatting, DATA, INPUT parsing, RND and the ECMA-55 exception rules live here once,
so that both print byte-identical text.  Semantics are bas55's (the NBS corpus oracle):
IEEE doubles, 8 significant digits, zones of 16 columns, margin 80.

Generated code reads like the BASIC it came from::

    from transpiler.runtime import *
    con = Console()
    con.print("X = ", X, ZONE, power(X, 2.0), tab(30), SQR(Y))
"""

from .arith import (
    ABS,
    ATN,
    COS,
    EXP,
    INT,
    LOG,
    SGN,
    SIN,
    SQR,
    TAN,
    div,
    mul,
    power,
    round_to_int,
)
from .command import run_command
from .console import MARGIN, ZONE, ZONE_WIDTH, Console, Tab, tab
from .data import DataItem, DataPool
from .extended import MAX, MIN, MOD, loop_count, to_integer
from .faults import ERROR, WARNING, BasicFault, Notice, set_warning_hook, warn
from .flow import ForStack, on_choice, report_break
from .inputs import NUMBER, STRING, ReplyRejected, parse_reply
from .numformat import format_number, format_number_trimmed, parse_number
from .rnd import RANDOMIZE, RND, SplitMix64, reset_rnd
from .strings import STRING_MAX_LENGTH, check_string

__all__ = [
    "ABS",
    "ATN",
    "COS",
    "ERROR",
    "EXP",
    "INT",
    "LOG",
    "MARGIN",
    "MAX",
    "MIN",
    "MOD",
    "NUMBER",
    "RANDOMIZE",
    "RND",
    "SGN",
    "SIN",
    "SQR",
    "STRING",
    "STRING_MAX_LENGTH",
    "TAN",
    "WARNING",
    "ZONE",
    "ZONE_WIDTH",
    "BasicFault",
    "Console",
    "DataItem",
    "DataPool",
    "ForStack",
    "Notice",
    "ReplyRejected",
    "SplitMix64",
    "Tab",
    "check_string",
    "div",
    "format_number",
    "format_number_trimmed",
    "loop_count",
    "mul",
    "on_choice",
    "parse_number",
    "parse_reply",
    "power",
    "report_break",
    "reset_rnd",
    "round_to_int",
    "run_command",
    "set_warning_hook",
    "tab",
    "to_integer",
    "warn",
]
