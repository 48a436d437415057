"""The grammar of PRINT, INPUT, READ, DATA and RESTORE.

    simple_statement ::= (PRINT | LPRINT) print_list
                       | (PRINT | LPRINT) USING expr ';' using_list
                       | INPUT [';'] [STRING (';' | ',')] input_list
                       | LINE INPUT [';'] [STRING (';' | ',')] lvalue
                       | READ lvalue_list
                       | DATA                          (its raw text: `_data_items.py`)
                       | RESTORE [line_ref]
    print_list       ::= {print_value | ',' | ';'}
    print_value      ::= expr | TAB '(' expr ')' | SPC '(' expr ')'
    using_list       ::= expr {(',' | ';') expr} [',' | ';']

Two values in a row print as if `;` separated them (Microsoft BASIC: `PRINT "X"N`).
Where an expression could go on (`PRINT A -1`, `PRINT A (1)`), it does: that is one
item, as in Microsoft BASIC (`PRINT_ITEM` in the precedence table).  LPRINT (Microsoft
BASIC's printer) writes to standard output, as PRINT does.  The file forms (PRINT #n,
INPUT #n...) are in `files.py`.
    input_list       ::= input_target {',' input_target}
    input_target     ::= lvalue | NAME '(' ')'     (the second in `kernel.py`)
"""

from __future__ import annotations

from ...ir import ast
from .._data_items import split_data
from ._actions import (
    extension,
    extension_at,
    fail,
    location,
    microsoft_statement,
    strict_error,
    through,
)


def p_print(p):
    """simple_statement : PRINT print_list
    | LPRINT print_list"""
    # LPRINT (Microsoft BASIC: the printer) prints to standard output, as PRINT does.
    if p.slice[1].type == "LPRINT":
        extension(p, 1, "LPRINT")
        microsoft_statement(p, 1, "LPRINT")
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


def p_print_list_empty(p):
    """print_list : empty"""
    p[0] = []


def p_print_list(p):
    """print_list : print_body"""
    s = p.slice
    s[0].value = s[1].value


def p_print_body_first(p):
    """print_body : print_value
    | print_mark"""
    s = p.slice
    s[0].value = [s[1].value]


def p_print_body_mark(p):
    """print_body : print_body print_mark"""
    s = p.slice
    s[1].value.append(s[2].value)
    s[0].value = s[1].value


def p_print_body_value(p):
    """print_body : print_body print_value"""
    s = p.slice
    items, value = s[1].value, s[2].value
    if not isinstance(items[-1], ast.PrintSep):
        # Microsoft BASIC: items without a separator print as if `;` separated them
        # (`PRINT "X"N`, `PRINT TAB(30)"CHIEF"`).
        strict_error(p, value.coord, "expected ',' or ';' between PRINT items (ECMA-55)")
        p.lexer.ctx.microsoft_evidence("PRINT items without a separator", value.coord)
        items.append(ast.PrintSep(";", coord=value.coord))
    items.append(value)
    s[0].value = items


def p_print_mark(p):
    """print_mark : COMMA
    | SEMI"""
    p[0] = ast.PrintSep(p[1], coord=location(p, 1))


def p_print_value(p):
    """print_value : expr %prec PRINT_ITEM"""
    s = p.slice
    s[0].value = s[1].value


def p_print_value_tab(p):
    """print_value : TAB LPAREN expr RPAREN"""
    p[0] = ast.Tab(p[3], coord=through(location(p, 1), p, 4))


def p_print_value_spc(p):
    """print_value : SPC LPAREN expr RPAREN"""
    p[0] = ast.Spc(p[3], coord=through(location(p, 1), p, 4))


def p_input(p):
    """simple_statement : input_head input_list
    | input_head input_prompt input_list"""
    stay, coord = p[1]
    prompt, question = p[2] if len(p) == 4 else (None, True)
    targets, arrays = p[len(p) - 1]
    p[0] = ast.Input(
        targets, prompt=prompt, array_params=arrays, question=question, stay=stay, coord=coord
    )


def p_input_head(p):
    """input_head : INPUT
    | INPUT SEMI"""
    # `INPUT;` (Microsoft BASIC) keeps the cursor on the line of the reply.
    if len(p) == 3:
        extension(p, 2, "INPUT;")
    p[0] = (len(p) == 3, location(p, 1))


def p_input_prompt(p):
    """input_prompt : STRING SEMI
    | STRING COMMA"""
    # `INPUT "prompt"; A` asks "prompt? "; `INPUT "prompt", A` only "prompt" (Microsoft).
    extension(p, 1, "an INPUT prompt")
    p[0] = (p[1], p[2] == ";")


def p_line_input(p):
    """simple_statement : LINE INPUT lvalue
    | LINE INPUT input_prompt lvalue
    | LINE INPUT SEMI lvalue
    | LINE INPUT SEMI input_prompt lvalue"""
    extension(p, 1, "LINE INPUT")
    microsoft_statement(p, 1, "LINE INPUT")
    middle = [p[n] for n in range(3, len(p) - 1)]  # [';'] [(prompt, question)]
    stay = bool(middle) and middle[0] == ";"
    prompt = middle[-1][0] if middle and middle[-1] != ";" else None
    coord = through(location(p, 1), p, 2)
    p[0] = ast.LineInput(p[len(p) - 1], prompt=prompt, stay=stay, coord=coord)


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
    items = split_data(p[1], ctx)
    coord = ctx.coord(p.slice[1].lexpos, 4)
    p[0] = ast.Data(items, read=not p[1].after_branch_word, coord=coord)


def p_restore(p):
    """simple_statement : RESTORE"""
    p[0] = ast.Restore(coord=location(p, 1))


def p_restore_line(p):
    """simple_statement : RESTORE line_ref"""
    extension_at(p, p[2].coord, "RESTORE with a line number")
    p[0] = ast.Restore(p[2].number, coord=location(p, 1))
