"""The grammar of control statements: IF, jumps, loops, STOP and END.

    if_statement    ::= IF expr THEN then_part [ELSE else_part]
                      | IF expr THEN ELSE else_part
                      | IF expr GOTO jump_part [ELSE else_part]
    then_part       ::= jump_part | body
    jump_part       ::= line_ref [':' body]          (the body never runs)
    else_part       ::= jump_part | body
    body            ::= simple_statement {':' simple_statement} [':' if_statement]
                      | if_statement
    block_if        ::= IF expr THEN                       (at the end of a line)
    block_statement ::= ELSEIF expr THEN | ELSE | ENDIF | END IF
    simple_statement ::= GOTO line_ref | GOSUB line_ref | RETURN
                      | ON expr (GOTO | GOSUB) line_ref {',' line_ref}
                      | FOR NAME '=' expr TO expr [STEP expr]
                      | NEXT [NAME {',' NAME}]
                      | WHILE expr | WEND | STOP | END
    line_ref        ::= NUMBER

A ':' right before ELSE is dropped by the parser's token stream, as GW-BASIC stores
ELSE as ':ELSE' (`IF c THEN A : ELSE B`, also after a nested IF's ELSE part).

ECMA-55 has IF ... THEN line, GOTO, GOSUB, RETURN, ON ... GOTO, FOR, NEXT var, STOP
and END; strict mode reports the others where they are built.  The tree stays flat:
FOR/NEXT, WHILE/WEND and block IF/ELSEIF/ELSE/ENDIF are separate statements that a
semantic pass pairs up.
"""

from __future__ import annotations

from ...ir import ast
from ._actions import extension, extension_at, fail, integer, location, through


def p_if_then(p):
    """if_statement : IF expr THEN then_part %prec IFX
    | IF expr THEN then_part ELSE else_part"""
    p[0] = _if(p, p[4], p[6] if len(p) > 5 else None)


def p_if_then_else(p):
    """if_statement : IF expr THEN ELSE else_part"""
    extension(p, 4, "IF ... THEN ELSE (an empty THEN)")
    p[0] = _if(p, ([], None), p[5])


def p_if_goto(p):
    """if_statement : IF expr GOTO jump_part %prec IFX
    | IF expr GOTO jump_part ELSE else_part"""
    extension(p, 3, "IF ... GOTO")
    p[0] = _if(p, p[4], p[6] if len(p) > 5 else None)


def _if(p, then_part, else_part) -> ast.If:
    """The If node: a part is (statements, line_ref or None); the jump comes first."""
    body, line = then_part
    if body and line is None:
        extension(p, 3, "a statement after THEN (ECMA-55 wants a line number)")
    node = ast.If(p[2], then_line=line, then_body=body, coord=location(p, 1))
    if else_part is not None:
        extension(p, len(p) - 2, "ELSE")
        node.else_body, node.else_line = else_part
    return node


def p_then_part(p):
    """then_part : jump_part
    | body"""
    p[0] = p[1] if isinstance(p[1], tuple) else (p[1], None)


def p_jump_part(p):
    """jump_part : line_ref
    | line_ref COLON body"""
    # GW-BASIC takes the statements after `THEN 100 :` for part of the branch, and never
    # runs them: the jump comes first.
    if len(p) > 2:
        extension(p, 2, "statements after THEN (or ELSE) and a line number")
    p[0] = (p[3] if len(p) > 2 else [], p[1])


def p_else_part(p):
    """else_part : jump_part
    | body"""
    p[0] = p[1] if isinstance(p[1], tuple) else (p[1], None)


def p_body_list(p):
    """body : body_list"""
    p[0] = p[1]


def p_body_list_if(p):
    """body : body_list COLON if_statement"""
    p[1].append(p[3])
    p[0] = p[1]


def p_body_if(p):
    """body : if_statement"""
    p[0] = [p[1]]


def p_body_list_first(p):
    """body_list : simple_statement"""
    p[0] = [p[1]]


def p_body_list_next(p):
    """body_list : body_list COLON simple_statement"""
    p[1].append(p[3])
    p[0] = p[1]


def p_block_if(p):
    """block_if : IF expr THEN"""
    extension(p, 1, "block IF (IF ... THEN at the end of a line)")
    p[0] = ast.IfBlock(p[2], coord=location(p, 1))


def p_block_elseif(p):
    """block_statement : ELSEIF expr THEN"""
    extension(p, 1, "ELSEIF")
    p[0] = ast.ElseIf(p[2], coord=location(p, 1))


def p_block_else(p):
    """block_statement : ELSE"""
    extension(p, 1, "ELSE")
    p[0] = ast.Else(coord=location(p, 1))


def p_block_endif(p):
    """block_statement : ENDIF"""
    extension(p, 1, "ENDIF")
    p[0] = ast.EndIf(coord=location(p, 1))


def p_block_end_if(p):
    """block_statement : END IF"""
    extension(p, 1, "END IF")
    p[0] = ast.EndIf(coord=through(location(p, 1), p, 2))


def p_line_ref(p):
    """line_ref : NUMBER"""
    p[0] = ast.LineRef(integer(p, 1, "a line number"), coord=location(p, 1))


def p_line_ref_list(p):
    """line_ref_list : line_ref
    | line_ref_list COMMA line_ref"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_goto(p):
    """simple_statement : GOTO line_ref"""
    p[0] = ast.Goto(p[2], coord=location(p, 1))


def p_gosub(p):
    """simple_statement : GOSUB line_ref"""
    p[0] = ast.Gosub(p[2], coord=location(p, 1))


def p_return(p):
    """simple_statement : RETURN"""
    p[0] = ast.Return(coord=location(p, 1))


def p_return_to_line(p):
    """simple_statement : RETURN line_ref"""
    # Microsoft BASIC's RETURN n (leave the subroutine, then GOTO n): not modelled yet.
    fail(
        p,
        1,
        "RETURN to a line number (Microsoft BASIC's RETURN n) is not supported: "
        "RETURN, then GOTO that line where the GOSUB returns",
    )


def p_on(p):
    """simple_statement : ON expr GOTO line_ref_list
    | ON expr GOSUB line_ref_list"""
    gosub = p.slice[3].type == "GOSUB"
    if gosub:
        extension(p, 3, "ON ... GOSUB")
    p[0] = ast.OnGoto(p[2], p[4], gosub=gosub, coord=location(p, 1))


def p_for(p):
    """simple_statement : FOR NAME EQ expr TO expr"""
    var = ast.Var(p[2], coord=location(p, 2))
    p[0] = ast.For(var, p[4], p[6], coord=location(p, 1))


def p_for_step(p):
    """simple_statement : FOR NAME EQ expr TO expr STEP expr"""
    var = ast.Var(p[2], coord=location(p, 2))
    p[0] = ast.For(var, p[4], p[6], p[8], coord=location(p, 1))


def p_next(p):
    """simple_statement : NEXT"""
    extension(p, 1, "NEXT without a variable")
    p[0] = ast.Next([], coord=location(p, 1))


def p_next_vars(p):
    """simple_statement : NEXT var_list"""
    if len(p[2]) > 1:
        extension_at(p, p[2][1].coord, "NEXT with several variables")
    p[0] = ast.Next(p[2], coord=location(p, 1))


def p_while(p):
    """simple_statement : WHILE expr"""
    extension(p, 1, "WHILE")
    p[0] = ast.While(p[2], coord=location(p, 1))


def p_wend(p):
    """simple_statement : WEND"""
    extension(p, 1, "WEND")
    p[0] = ast.Wend(coord=location(p, 1))


def p_stop_end(p):
    """simple_statement : STOP
    | END"""
    kind = ast.Stop if p.slice[1].type == "STOP" else ast.End
    p[0] = kind(coord=location(p, 1))
