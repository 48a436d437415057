"""The grammar of Microsoft BASIC's sequential files.

    simple_statement ::= OPEN expr FOR mode AS ['#'] expr [LEN '=' expr]
                       | OPEN expr ',' ['#'] expr ',' expr [',' expr]
                       | CLOSE [['#'] expr {',' ['#'] expr}]
                       | RESET                       (Microsoft BASIC: CLOSE)
                       | PRINT '#' expr [',' print_list]
                       | PRINT '#' expr ',' USING expr ';' using_list
                       | WRITE [write_list] | WRITE '#' expr [',' write_list]
                       | INPUT '#' expr ',' input_list
                       | LINE INPUT '#' expr ',' lvalue
                       | KILL expr | NAME expr AS expr | MKDIR expr | RMDIR expr | CHDIR expr
                       | FIELD ['#'] expr ',' expr AS lvalue {',' expr AS lvalue}
                       | GET ['#'] expr [',' expr] | PUT ['#'] expr [',' expr]
                       | LSET lvalue '=' expr | RSET lvalue '=' expr
    mode             ::= INPUT | OUTPUT | APPEND | RANDOM
    write_list       ::= expr {',' expr}

The second OPEN is the older form: `OPEN "I", #1, "DATA.TXT"` (a mode string: I, O, A
or R).  The record length (`LEN =`, the old form's fourth operand) is a random-access
file's; a sequential file ignores it (it only sizes GW-BASIC's buffers).  A FIELD
variable is a simple string variable (not an array element); LSET and RSET become
assignments of the internal functions `_LSET$` and `_RSET$` (passes/check/flatten.py writes
what FIELD variables need around them).
"""

from __future__ import annotations

import copy

from ...ir import ast
from ...language import builtins
from ._actions import extension, fail, location, microsoft_statement

_MODES = {"INPUT": "I", "OUTPUT": "O", "APPEND": "A", "RANDOM": "R"}


def p_open(p):
    """simple_statement : OPEN expr FOR open_mode AS file_number
    | OPEN expr FOR open_mode AS file_number FUNC EQ expr"""
    extension(p, 1, "OPEN")
    if len(p) > 7 and p[7] != "LEN":
        fail(p, 7, f"expected LEN = record length, found {p[7]}")
    length = p[9] if len(p) > 7 else None
    p[0] = ast.Open(p[2], p[4], p[6], length, coord=location(p, 1))


def p_open_mode(p):
    """open_mode : INPUT
    | OUTPUT
    | NAME"""
    word = p[1]
    if word not in _MODES:
        fail(p, 1, f"expected INPUT, OUTPUT, APPEND or RANDOM after FOR, found {word}")
    p[0] = ast.Str(_MODES[word], coord=location(p, 1))


def p_open_old(p):
    """simple_statement : OPEN expr COMMA file_number COMMA expr
    | OPEN expr COMMA file_number COMMA expr COMMA expr"""
    extension(p, 1, "OPEN")
    microsoft_statement(p, 1, "OPEN")
    length = p[8] if len(p) > 7 else None
    p[0] = ast.Open(p[6], p[2], p[4], length, coord=location(p, 1))


def p_file_number(p):
    """file_number : HASH expr
    | expr"""
    p[0] = p[len(p) - 1]


def p_close(p):
    """simple_statement : CLOSE
    | CLOSE file_number_list"""
    extension(p, 1, "CLOSE")
    p[0] = ast.Close(p[2] if len(p) > 2 else [], coord=location(p, 1))


def p_reset(p):
    """simple_statement : RESET"""
    coord = location(p, 1)
    p.lexer.ctx.microsoft_only("RESET", coord)
    p[0] = ast.Close([], coord=coord)  # GW-BASIC's RESET closes every file, as CLOSE does


def p_file_number_list(p):
    """file_number_list : file_number
    | file_number_list COMMA file_number"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_print_file(p):
    """simple_statement : PRINT HASH expr
    | PRINT HASH expr COMMA print_list"""
    extension(p, 2, "PRINT #")
    items = p[5] if len(p) > 4 else []
    p[0] = ast.Print(items, channel=p[3], coord=location(p, 1))


def p_print_file_using(p):
    """simple_statement : PRINT HASH expr COMMA USING expr SEMI using_list"""
    extension(p, 2, "PRINT # USING")
    p[0] = ast.Print(p[8], channel=p[3], using=p[6], coord=location(p, 1))


def p_write(p):
    """simple_statement : WRITE
    | WRITE write_list"""
    extension(p, 1, "WRITE")
    microsoft_statement(p, 1, "WRITE")
    p[0] = ast.Write(p[2] if len(p) > 2 else [], coord=location(p, 1))


def p_write_file(p):
    """simple_statement : WRITE HASH expr
    | WRITE HASH expr COMMA write_list"""
    extension(p, 1, "WRITE #")
    p[0] = ast.Write(p[5] if len(p) > 4 else [], channel=p[3], coord=location(p, 1))


def p_write_list(p):
    """write_list : expr
    | write_list COMMA expr"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_input_file(p):
    """simple_statement : INPUT HASH expr COMMA input_list"""
    extension(p, 2, "INPUT #")
    targets, arrays = p[5]
    if arrays:
        fail(p, 1, "INPUT # reads variables and array elements, not whole arrays")
    p[0] = ast.Input(targets, channel=p[3], coord=location(p, 1))


def p_line_input_file(p):
    """simple_statement : LINE INPUT HASH expr COMMA lvalue"""
    extension(p, 1, "LINE INPUT #")
    p[0] = ast.Input([p[6]], channel=p[4], line=True, coord=location(p, 1))


def p_kill(p):
    """simple_statement : KILL expr"""
    extension(p, 1, "KILL")
    p[0] = ast.Kill(p[2], coord=location(p, 1))


_FOLDER_STATEMENTS = {
    "MKDIR": ast.MakeDirectory,
    "RMDIR": ast.RemoveDirectory,
    "CHDIR": ast.ChangeDirectory,
}


def p_folder(p):
    """simple_statement : MKDIR expr
    | RMDIR expr
    | CHDIR expr"""
    extension(p, 1, p[1])
    p[0] = _FOLDER_STATEMENTS[p[1]](p[2], coord=location(p, 1))


def p_name_file(p):
    """simple_statement : NAME_FILE expr AS expr"""
    extension(p, 1, "NAME")
    p[0] = ast.Rename(p[2], p[4], coord=location(p, 1))


# --------------------------------------------------------------------------- random files


def p_field(p):
    """simple_statement : FIELD file_number COMMA field_list"""
    extension(p, 1, "FIELD")
    widths = [width for width, _ in p[4]]
    names = [target.name for _, target in p[4]]
    p[0] = ast.Field(p[2], widths, names, coord=location(p, 1))


def p_field_list(p):
    """field_list : expr AS lvalue
    | field_list COMMA expr AS lvalue"""
    target = p[len(p) - 1]
    where = (target.coord.column - 1, target.coord.length)
    if not isinstance(target, ast.Var):
        why = "a FIELD variable must be a simple string variable here, not an array element"
        raise p.lexer.ctx.error(why, *where)
    if not target.name.endswith("$"):
        raise p.lexer.ctx.error(f"FIELD needs string variables: {target.name} is a number", *where)
    if len(p) == 4:
        p[0] = [(p[1], target)]
    else:
        p[1].append((p[3], target))
        p[0] = p[1]


def p_get_put(p):
    """simple_statement : GET file_number
    | GET file_number COMMA expr
    | PUT file_number
    | PUT file_number COMMA expr"""
    word = p[1].upper()
    extension(p, 1, word)
    record = p[4] if len(p) > 3 else None
    if word == "GET" and record is None and _string_variable(p[2]):
        p[0] = _key_get(p, p[2])
        return
    p[0] = ast.RecordIO(p[2], record, put=word == "PUT", coord=location(p, 1))


def _string_variable(e: ast.Expr) -> bool:
    return isinstance(e, (ast.Var, ast.Index)) and e.name.endswith("$")


def _key_get(p, target: ast.Var | ast.Index) -> ast.Let:
    """`GET A$` (Applesoft, Commodore BASIC): the next key typed, as `A$ = INKEY$`.  A
    file number is never a string, so GW-BASIC's GET of a record cannot be meant; like
    INKEY$, it pins --dialect ms when none was chosen."""
    where = {"coord": location(p, 1)}
    ctx = p.lexer.ctx
    ctx.microsoft_evidence("GET of a key into a string", where["coord"])
    return ast.Let(target, ast.Call("INKEY$", [], **where), **where)


def p_lset(p):
    """simple_statement : LSET lvalue EQ expr
    | RSET lvalue EQ expr"""
    word = p[1].upper()
    extension(p, 1, word)
    target = p[2]
    name = target.name if isinstance(target, ast.Var) else ""  # an element is no FIELD variable
    where = {"coord": location(p, 1)}
    args = [ast.Str(name, **where), copy.deepcopy(target), p[4]]
    function = builtins.LSET if word == "LSET" else builtins.RSET
    p[0] = ast.Let(target, ast.Call(function, args, **where), **where)
