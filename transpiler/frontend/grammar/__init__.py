"""The BASIC grammar: PLY rules in one module per statement family, gathered here.

    lines.py         a line: statements separated by ':'
    control.py       IF (one line and block), GOTO, GOSUB, RETURN, ON, FOR/NEXT,
                     WHILE/WEND, STOP, END
    print_input.py   PRINT, INPUT, READ, DATA, RESTORE (PRINT USING, LPRINT)
    files.py         Microsoft BASIC's sequential files: OPEN, CLOSE, PRINT #, INPUT #...
    devices.py       Microsoft BASIC's screen and sound statements (CLS, COLOR...), SYSTEM
    declarations.py  LET, DIM, OPTION BASE, DEF FN, RANDOMIZE, REM
    microsoft.py     DEFINT, DEFSNG, DEFDBL, DEFSTR (Microsoft BASIC)
    structured.py    QuickBASIC's DO ... LOOP, EXIT DO / FOR
    records.py       QuickBASIC's TYPE records and STRING * n
    mat.py           Dartmouth's MAT statements
    kernel.py        cuTile BASIC: TILE, OUTPUT, INPUT A(), BID
    expressions.py   expressions, variables, array elements, function calls

Each family module holds `p_<nonterminal>` functions with their BNF in the docstring
(and the family's BNF in the module docstring); `_actions.py` has what their actions
share.  PLY reads a grammar from one namespace: this package is it.  It gathers every
`p_` function of the families into its own namespace, beside the lexer's tokens, the one
precedence table, the start symbol and `p_error`.  `parser.py` hands this module to
`_parse_tables.py`, which builds the LALR tables once and caches them per user.

The grammar describes one line after its line number; the parser runs it once per
line.  In strict ECMA-55 mode the actions report every extension they build as a located
error without stopping the parse (`_actions.extension`).
"""

from __future__ import annotations

from ..lexer import tokens  # noqa: F401  (PLY reads the token list from this module)
from . import (
    control,
    declarations,
    devices,
    expressions,
    files,
    kernel,
    lines,
    mat,
    microsoft,
    print_input,
    records,
    structured,
)

FAMILIES = (
    lines, control, print_input, files, devices, declarations, microsoft, structured, records,
    mat, kernel, expressions,
)  # fmt: skip

# Precedence, lowest first, as in Microsoft BASIC (GW-BASIC's manual): IMP, EQV, XOR,
# OR, AND, NOT, relations, + -, MOD, \ (integer division), * /, unary minus, ^; in the
# other dialects MOD binds as * and / do (the lexer's MOD_TIMES).  `^`
# binds tighter than unary minus (-A^B is -(A^B)) and is left-associative (2^3^2 is 64),
# as in ECMA-55.  IFX/ELSE attach a dangling ELSE to the nearest IF.
precedence = (
    # A PRINT item ends where no operator or subscript continues it (print_input.py):
    # lower than every operator and than the `(` after a name.
    ("nonassoc", "PRINT_ITEM"),
    ("nonassoc", "NAME", "FUNC", "FNNAME", "BID"),
    ("nonassoc", "LPAREN"),
    ("nonassoc", "IFX"),
    ("nonassoc", "ELSE"),
    ("left", "IMP"),
    ("left", "EQV"),
    ("left", "XOR"),
    ("left", "OR"),
    ("left", "AND"),
    ("right", "NOT"),
    ("left", "EQ", "NE", "LT", "GT", "LE", "GE"),
    ("left", "PLUS", "MINUS"),
    ("left", "MOD"),
    ("left", "INTDIV"),
    ("left", "TIMES", "DIVIDE", "MOD_TIMES"),
    ("right", "UMINUS"),
    ("left", "POW"),
)

start = "statements"


class SyntaxAbort(Exception):
    """Raised by p_error to abandon the current line (the token is None at its end)."""

    def __init__(self, token):
        super().__init__("syntax error")
        self.token = token


def p_error(token):
    raise SyntaxAbort(token)


def _gather_rules() -> dict:
    rules: dict = {}
    for family in FAMILIES:
        for name, value in vars(family).items():
            if name.startswith("p_"):
                if name in rules:
                    raise ImportError(f"grammar rule {name} is defined in two families")
                rules[name] = value
    return rules


globals().update(_gather_rules())
