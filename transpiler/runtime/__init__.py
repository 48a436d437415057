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
from .console import MARGIN, POS, ZONE, ZONE_WIDTH, Console, Tab, tab
from .data import DataItem, DataPool
from .dialect import use_dialect
from .extended import MAX, MIN, MOD, loop_count, to_integer
from .faults import ERROR, WARNING, BasicFault, Notice, set_warning_hook, warn
from .files import (
    EOF,
    LOF,
    close_files,
    file_input,
    file_line,
    file_output,
    kill_file,
    open_file,
    rename_file,
    reset_files,
)
from .inputs import NUMBER, STRING, ReplyRejected, parse_reply
from .msformat import Double
from .msnumbers import (
    CDBL,
    CINT,
    CSNG,
    FIX,
    TIMER,
    bit_and,
    bit_eqv,
    bit_imp,
    bit_not,
    bit_or,
    bit_xor,
    cint,
    dbl,
    double_div,
    double_power,
    int_div,
    int_mod,
    single_div,
    single_power,
    single_power_int,
    single_result,
    sng,
)
from .numformat import format_number, format_number_trimmed, parse_number
from .rnd import RANDOMIZE, RND, SplitMix64, reset_rnd
from .strings import STRING_MAX_LENGTH, check_string
from .using import DOUBLE, REAL, SINGLE, UsingPrecision

__all__ = [
    "ABS",
    "ATN",
    "CDBL",
    "CINT",
    "COS",
    "CSNG",
    "DOUBLE",
    "EOF",
    "ERROR",
    "EXP",
    "FIX",
    "INT",
    "LOF",
    "LOG",
    "MARGIN",
    "MAX",
    "MIN",
    "MOD",
    "NUMBER",
    "POS",
    "RANDOMIZE",
    "REAL",
    "RND",
    "SGN",
    "SIN",
    "SINGLE",
    "SQR",
    "STRING",
    "STRING_MAX_LENGTH",
    "TAN",
    "TIMER",
    "WARNING",
    "ZONE",
    "ZONE_WIDTH",
    "BasicFault",
    "Console",
    "DataItem",
    "DataPool",
    "Double",
    "Notice",
    "ReplyRejected",
    "SplitMix64",
    "Tab",
    "UsingPrecision",
    "bit_and",
    "bit_eqv",
    "bit_imp",
    "bit_not",
    "bit_or",
    "bit_xor",
    "check_string",
    "cint",
    "close_files",
    "dbl",
    "div",
    "double_div",
    "double_power",
    "file_input",
    "file_line",
    "file_output",
    "format_number",
    "format_number_trimmed",
    "int_div",
    "int_mod",
    "kill_file",
    "loop_count",
    "mul",
    "open_file",
    "parse_number",
    "parse_reply",
    "power",
    "rename_file",
    "reset_files",
    "reset_rnd",
    "round_to_int",
    "run_command",
    "set_warning_hook",
    "single_div",
    "single_power",
    "single_power_int",
    "single_result",
    "sng",
    "tab",
    "to_integer",
    "use_dialect",
    "warn",
]
