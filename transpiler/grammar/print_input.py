"""The grammar of PRINT, INPUT, READ, DATA and RESTORE.

    simple_statement ::= (PRINT | LPRINT) print_list
                       | (PRINT | LPRINT) USING expr ';' using_list
                       | INPUT [STRING (';' | ',')] input_list
                       | READ lvalue_list
                       | DATA                          (its raw text: `_data_items.py`)
                       | RESTORE [line_ref]
    print_list       ::= print_item {(',' | ';') print_item}
    print_item       ::= expr | TAB '(' expr ')' | empty
    using_list       ::= expr {(',' | ';') expr} [',' | ';']

LPRINT (Microsoft BASIC's printer) writes to standard output, as PRINT does.  The
file forms (PRINT #n, INPUT #n...) are in `files.py`.
    input_list       ::= input_target {',' input_target}
    input_target     ::= lvalue | NAME '(' ')'     (the second in `kernel.py`)
"""

from __future__ import annotations

from .. import ast
from .._data_items import split_data
from ._actions import extension, extension_at, fail, location, through


def p_print(p):
    """simple_statement : PRINT print_list"""
    p[0] = ast.Print(p[2], coord=location(p, 1))


def p_lprint(p):
    """simple_statement : LPRINT print_list"""
    extension(p, 1, "LPRINT")
    p[0] = ast.Print(p[2], coord=location(p, 1))


def p_print_using(p):
    """simple_statement : PRINT USING expr SEMI using_list
    | LPRINT USING expr SEMI using_list"""
    extension(p, 2, "PRINT USING")
    p[0] = ast.Print(p[5], using=p[3], coord=location(p, 1))


def p_print_using_comma(p):
    """simple_statement : PRINT USING expr COMMA using_list
    | LPRINT USING expr COMMA using_list"""
    fail(p, 4, "PRINT USING wants ';' after its format")


def p_using_list_first(p):
    """using_list : expr"""
    p[0] = [p[1]]


def p_using_list_next(p):
    """using_list : using_list COMMA expr
    | using_list SEMI expr"""
    p[1].append(ast.PrintSep(p[2], coord=location(p, 2)))
    p[1].append(p[3])
    p[0] = p[1]


def p_using_list_open(p):
    """using_list : using_list COMMA
    | using_list SEMI"""
    p[1].append(ast.PrintSep(p[2], coord=location(p, 2)))
    p[0] = p[1]


def p_print_list_first(p):
    """print_list : print_item"""
    p[0] = [] if p[1] is None else [p[1]]


def p_print_list_next(p):
    """print_list : print_list COMMA print_item
    | print_list SEMI print_item"""
    s = p.slice
    items = s[1].value
    items.append(ast.PrintSep(s[2].value, coord=location(p, 2)))
    if s[3].value is not None:
        items.append(s[3].value)
    s[0].value = items


def p_print_item(p):
    """print_item : expr
    | empty"""
    s = p.slice
    s[0].value = s[1].value


def p_print_item_tab(p):
    """print_item : TAB LPAREN expr RPAREN"""
    p[0] = ast.Tab(p[3], coord=through(location(p, 1), p, 4))


def p_input(p):
    """simple_statement : INPUT input_list"""
    targets, arrays = p[2]
    p[0] = ast.Input(targets, array_params=arrays, coord=location(p, 1))


def p_input_prompt(p):
    """simple_statement : INPUT STRING SEMI input_list
    | INPUT STRING COMMA input_list"""
    extension(p, 2, "an INPUT prompt")
    targets, arrays = p[4]
    p[0] = ast.Input(targets, prompt=p[2], array_params=arrays, coord=location(p, 1))


def p_input_list_first(p):
    """input_list : input_target"""
    target, is_array = p[1]
    p[0] = ([target], [target.name] if is_array else [])


def p_input_list_next(p):
    """input_list : input_list COMMA input_target"""
    targets, arrays = p[1]
    target, is_array = p[3]
    targets.append(target)
    if is_array:
        arrays.append(target.name)
    p[0] = p[1]


def p_input_target(p):
    """input_target : lvalue"""
    p[0] = (p[1], False)


def p_read(p):
    """simple_statement : READ lvalue_list"""
    p[0] = ast.Read(p[2], coord=location(p, 1))


def p_data(p):
    """simple_statement : DATA"""
    ctx = p.lexer.ctx
    p[0] = ast.Data(split_data(p[1], ctx), coord=ctx.coord(p.slice[1].lexpos, 4))


def p_restore(p):
    """simple_statement : RESTORE"""
    p[0] = ast.Restore(coord=location(p, 1))


def p_restore_line(p):
    """simple_statement : RESTORE line_ref"""
    extension_at(p, p[2].coord, "RESTORE with a line number")
    p[0] = ast.Restore(p[2].number, coord=location(p, 1))
