"""The grammar of expressions, variables, array elements and function calls.

    expr        ::= expr binary_op expr | ('-' | '+' | NOT) expr | '(' expr ')'
                  | NUMBER | STRING | NAME | NAME '(' expr_list ')'
                  | FUNC ['(' expr_list ')'] | FNNAME ['(' expr_list ')']
    binary_op   ::= '+' | '-' | '*' | '/' | '^' | MOD | '\\'
                  | '=' | '<>' | '<' | '>' | '<=' | '>=' | AND | OR | XOR | EQV | IMP
    expr_list   ::= expr {',' expr}
    lvalue      ::= NAME | NAME '(' expr_list ')'
    lvalue_list ::= lvalue {',' lvalue}
    var_list    ::= NAME {',' NAME}

Operator precedence is the package's `precedence` table.  FUNC is a built-in function
of `builtins.py` (the lexer reads it from the table, so a built-in never becomes an
array); its arity and types are the type checker's.  MOD, AND, OR, NOT, relations
outside IF and the functions beyond ECMA-55's are extensions strict mode reports;
`\\`, XOR, EQV and IMP only Microsoft BASIC has (they pin --dialect ms).
"""

from __future__ import annotations

from ...errors import BasicSyntaxError, Coord
from ...ir import ast
from ...language.builtins import BUILTINS, QUICKBASIC_ONLY, microsoft_only
from ...language.msconstants import microsoft_constant
from ._actions import extension, location, span, strict_error, through

_BINARY = {
    "PLUS": "+",
    "MINUS": "-",
    "TIMES": "*",
    "DIVIDE": "/",
    "POW": "^",
    "MOD": "MOD",
    "MOD_TIMES": "MOD",
    "EQ": "=",
    "NE": "<>",
    "LT": "<",
    "GT": ">",
    "LE": "<=",
    "GE": ">=",
    "AND": "AND",
    "OR": "OR",
    "XOR": "XOR",
    "EQV": "EQV",
    "IMP": "IMP",
    "INTDIV": "\\",
}


_BINARY_EXTENSIONS = frozenset(("MOD", "MOD_TIMES", "AND", "OR"))
# Operators only Microsoft BASIC has (the lexer pins `\\` itself).
_MICROSOFT_OPERATORS = frozenset(("XOR", "EQV", "IMP"))


# AND, OR and NOT are logical in extended BASIC, bitwise in Microsoft BASIC: the same on
# truth values (comparisons and their combinations), not on other numbers (`N AND 1`,
# `NOT X`), which only a program written for Microsoft BASIC computes: they pin it.
_LOGICAL = frozenset(("AND", "OR"))
_COMPARISONS = frozenset(("=", "<>", "<", ">", "<=", ">="))


def _truth_value(node: ast.Expr) -> bool:
    """A comparison, or AND, OR, NOT of truth values (and XOR, EQV, IMP: those pin ms
    anyway)."""
    if isinstance(node, ast.BinOp):
        if node.op in _COMPARISONS:
            return True
        logical = node.op in ("AND", "OR", "XOR", "EQV", "IMP")
        return logical and _truth_value(node.left) and _truth_value(node.right)
    return isinstance(node, ast.UnaryOp) and node.op == "NOT" and _truth_value(node.operand)


def _bitwise(word: str) -> str:
    return f"{word} of a number, not of a comparison (bitwise in Microsoft BASIC)"


# After one of these, ECMA-55 allows no sign: `4 ^ -2` and `A * -B` need parentheses.
_ARITHMETIC = frozenset(("PLUS", "MINUS", "TIMES", "DIVIDE", "POW", "MOD", "MOD_TIMES"))


def p_expr_binary(p):
    """expr : expr PLUS expr
    | expr MINUS expr
    | expr TIMES expr
    | expr DIVIDE expr
    | expr POW expr
    | expr MOD expr
    | expr MOD_TIMES expr
    | expr EQ expr
    | expr NE expr
    | expr LT expr
    | expr GT expr
    | expr LE expr
    | expr GE expr
    | expr AND expr
    | expr OR expr
    | expr XOR expr
    | expr EQV expr
    | expr IMP expr
    | expr INTDIV expr"""
    s = p.slice
    kind = s[2].type
    left, right = s[1].value, s[3].value
    if kind in _BINARY_EXTENSIONS:
        extension(p, 2, _BINARY[kind])
        if kind in _LOGICAL and not (_truth_value(left) and _truth_value(right)):
            p.lexer.ctx.microsoft_evidence(_bitwise(kind), location(p, 2))
    elif kind in _MICROSOFT_OPERATORS:
        p.lexer.ctx.microsoft_only(f"the operator {kind}", location(p, 2))
    a, b = left.coord, right.coord
    coord = Coord(a.file, a.line, a.column, b.column + b.length - a.column)
    s[0].value = ast.BinOp(_BINARY[kind], left, right, coord=coord)


def p_expr_unary(p):
    """expr : MINUS expr %prec UMINUS
    | PLUS expr %prec UMINUS
    | NOT expr"""
    kind = p.slice[1].type
    ctx = p.lexer.ctx
    if ctx.strict:
        if kind == "NOT":
            extension(p, 1, "NOT")
        elif p.stack[-1].type in _ARITHMETIC:  # the symbol before the sign
            tok = p.slice[1]
            ctx.errors.append(
                ctx.error("ECMA-55 allows no sign after an operator: add parentheses", tok.lexpos)
            )
    operand = p[2]
    if kind == "NOT" and not _truth_value(operand):
        ctx.microsoft_evidence(_bitwise("NOT"), location(p, 1))
    p[0] = ast.UnaryOp(p[1].upper(), operand, coord=span(location(p, 1), operand.coord))


def p_expr_number(p):
    """expr : NUMBER"""
    s = p.slice
    tok = s[1]
    text = tok.value
    ctx = p.lexer.ctx  # _coord inlined: this is the hottest rule with p_expr_var
    coord = Coord(ctx.file, ctx.line, tok.lexpos + 1, len(text))
    try:
        value = float(text)
    except ValueError:  # only Microsoft's notations: the lexer pinned the dialect
        value = _microsoft_value(p, coord)
    s[0].value = ast.Num(value, text, coord=coord)


def _microsoft_value(p, coord: Coord) -> float:
    """The value of a constant written as only Microsoft BASIC writes it: `&H1F`, `&O17`
    and `&17` (16-bit: `&HFFFF` is -1), a `D` exponent, a suffix `!`, `#` or `%`."""
    text = p.slice[1].value.upper()
    try:
        value = microsoft_constant(text, qbasic=p.lexer.ctx.dialect == "qbasic")
    except ValueError as exc:
        raise BasicSyntaxError(f"{exc}: {text}", coord) from None
    return value


def p_expr_string(p):
    """expr : STRING"""
    tok = p.slice[1]
    p[0] = ast.Str(tok.value, coord=p.lexer.ctx.coord(tok.lexpos, len(tok.value) + 2))


def p_expr_var(p):
    """expr : NAME"""
    s = p.slice
    tok = s[1]
    name = tok.value
    ctx = p.lexer.ctx
    s[0].value = ast.Var(name, coord=Coord(ctx.file, ctx.line, tok.lexpos + 1, len(name)))


def p_expr_index(p):
    """expr : NAME LPAREN expr_list RPAREN"""
    s = p.slice
    s[0].value = ast.Index(s[1].value, s[3].value, coord=through(location(p, 1), p, 4))


def p_expr_call_bare(p):
    """expr : FUNC
    | FNNAME"""
    # RND, a parameterless FN, or TAN written without arguments (the semantic pass
    # reports the arity).
    coord = location(p, 1)
    if p.slice[1].type == "FUNC":
        _dialect_of_function(p, BUILTINS[p[1]], coord)
    p[0] = ast.Call(p[1], [], coord=coord)


def _dialect_of_function(p, builtin, coord: Coord) -> None:
    """Strict mode reports a function beyond ECMA-55's; one that only Microsoft BASIC has
    pins --dialect ms."""
    if microsoft_only(builtin):
        p.lexer.ctx.microsoft_only(f"the function {builtin.name}", coord)
    elif builtin.dialects == QUICKBASIC_ONLY:  # CLNG
        p.lexer.ctx.qbasic_only(f"the function {builtin.name}", coord)
    elif builtin.microsoft_evidence:
        p.lexer.ctx.microsoft_evidence(f"the function {builtin.name}", coord)
    elif "ecma55" not in builtin.dialects:
        extension(p, 1, builtin.name)


def p_expr_call(p):
    """expr : FUNC LPAREN expr_list RPAREN
    | FNNAME LPAREN expr_list RPAREN"""
    name, args = p[1], p[3]
    function = p.slice[1].type == "FUNC"
    if function:
        _dialect_of_function(p, BUILTINS[name], location(p, 1))
    ecma55 = not function or "ecma55" in BUILTINS[name].dialects
    if p.lexer.ctx.strict and ecma55 and len(args) > 1:
        strict_error(p, args[1].coord, "too many arguments: ECMA-55 functions take one")
    p[0] = ast.Call(name, args, coord=through(location(p, 1), p, 4))


def p_expr_group(p):
    """expr : LPAREN expr RPAREN"""
    # The node keeps its type; its location grows to cover the parentheses.
    node = p[2]
    node.coord = through(location(p, 1), p, 3)
    p[0] = node


def p_expr_list(p):
    """expr_list : expr
    | expr_list COMMA expr"""
    s = p.slice
    if len(s) == 2:
        s[0].value = [s[1].value]
    else:
        s[1].value.append(s[3].value)
        s[0].value = s[1].value


def p_lvalue_name(p):
    """lvalue : NAME"""
    s = p.slice
    s[0].value = ast.Var(s[1].value, coord=location(p, 1))


def p_lvalue_index(p):
    """lvalue : NAME LPAREN expr_list RPAREN"""
    p[0] = ast.Index(p[1], p[3], coord=through(location(p, 1), p, 4))


def p_lvalue_list(p):
    """lvalue_list : lvalue
    | lvalue_list COMMA lvalue"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_var_list(p):
    """var_list : NAME
    | var_list COMMA NAME"""
    if len(p) == 2:
        p[0] = [ast.Var(p[1], coord=location(p, 1))]
    else:
        p[1].append(ast.Var(p[3], coord=location(p, 3)))
        p[0] = p[1]
