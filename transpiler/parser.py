"""The BASIC parser: source text -> `ast.Program`, built with PLY's `yacc`.

    from transpiler.parser import parse
    program = parse(source, options)      # raises CompileErrors

BASIC is line-oriented, so the grammar describes one line (after its line number)
and `parse` runs it once per source line.  A syntax error abandons that line only:
parsing goes on with the next one and every error of the file is reported together.
The tree is flat, as the text is: FOR/NEXT, WHILE/WEND and block IF/ELSE/ENDIF are
separate statements that a semantic pass pairs up.

There is one grammar for both language levels.  In strict ECMA-55 mode the grammar
actions report each extension they build (block IF, WHILE, MOD, MAT, TILE, a missing
LET, ...) as a located error without stopping the parse, so the user sees all of
them at once.

Grammar rules are `p_<nonterminal>` functions with their BNF in the docstring;
operator precedence comes from the `precedence` table.  The tables are generated
once per process, or loaded from a per-user cache (`_parse_tables.py`).
"""

from __future__ import annotations

import sys

from ply import yacc

from . import ast
from ._data_items import split_data
from ._line_format import LineNumber, check_strict_layout, read_line_number
from ._parse_tables import load_tables
from ._syntax_messages import describe_syntax_error
from .collector import collector_paused
from .errors import BasicSyntaxError, CompileErrors, Coord, SourceFile
from .lexer import (
    ECMA55_FUNCTIONS,
    LineContext,
    build_lexer,
    start_line,
    token_length,
    tokens,  # noqa: F401  (PLY reads the token list from this module)
)
from .options import Options

__all__ = ["parse"]


def parse(source: SourceFile, options: Options) -> ast.Program:
    """Parse a whole program; raises CompileErrors with every syntax error found."""
    ctx = LineContext(source.name, options.strict)
    lexer = build_lexer(ctx)
    parser = yacc.LRParser(load_tables(sys.modules[__name__]), p_error)
    lines: list[ast.Line] = []
    previous: tuple[int, int] | None = None  # (number, source line) of the last numbered line
    with collector_paused():  # the tree is acyclic and all of it is kept
        for line_no, text in enumerate(source.lines, 1):
            if not text or text.isspace():
                continue
            ctx.start_line(line_no)
            number = read_line_number(text, ctx)
            if number.value is not None:
                if previous is not None and number.value <= previous[0]:
                    ctx.errors.append(_order_error(number, previous, ctx))
                previous = (number.value, line_no)
            line = _parse_line(parser, lexer, text, number, ctx)
            if line is not None:
                lines.append(line)
    if ctx.errors:
        raise CompileErrors(_one_per_position(ctx.errors))
    return ast.Program(lines, source_name=source.name, coord=Coord(source.name, 1, 1))


def _parse_line(parser, lexer, text: str, number: LineNumber, ctx: LineContext) -> ast.Line | None:
    """The statements after the line number, or None after reporting an error."""
    start_line(lexer, text, ctx.line, number.body)
    statements, stop = _statements(parser, lexer, text, number.body, ctx)
    if ctx.strict:
        if ctx.rem_start is not None:
            stop = min(stop, ctx.rem_start)
        check_strict_layout(text, stop, ctx)
    if statements is None:
        return None
    if ctx.comment is not None:
        comment, column = ctx.comment
        statements.append(ast.Rem(comment, coord=ctx.coord(column, len(text) - column)))
    if not statements:
        ctx.errors.append(ctx.error("expected a statement after the line number", len(text)))
        return None
    if ctx.strict:
        _check_strict_conditions(statements, ctx)
    if number.value is None:
        return ast.Line(None, statements, coord=statements[0].coord)
    _stamp_labels(statements, number.value)
    return ast.Line(number.value, statements, coord=ctx.coord(number.column, number.length))


def _statements(parser, lexer, text: str, body: int, ctx: LineContext):
    """(statements or None, the column where strict character checks stop)."""
    rest = text[body:].lstrip()
    if not rest or rest[0] == "'":
        lexer.token()  # an apostrophe comment is recorded in ctx, not returned
        return [], len(text)
    try:
        return parser.parseopt_notrack(None, lexer), len(text)
    except BasicSyntaxError as error:
        ctx.errors.append(error)
        return None, error.coord.column - 1
    except _SyntaxAbort as abort:
        error = describe_syntax_error(parser, abort.token, text, ctx)
        ctx.errors.append(error)
        return None, error.coord.column - 1


class _SyntaxAbort(Exception):
    """Raised by p_error to abandon the current line (the token is None at its end)."""

    def __init__(self, token):
        super().__init__("syntax error")
        self.token = token


def _stamp_labels(statements: list[ast.Stmt], label: int) -> None:
    for stmt in statements:
        stmt.label = label
        if isinstance(stmt, ast.If):
            _stamp_labels(stmt.then_body, label)
            _stamp_labels(stmt.else_body, label)


def _order_error(number: LineNumber, previous: tuple[int, int], ctx) -> BasicSyntaxError:
    value, (before, where) = number.value, previous
    if value == before:
        message = f"duplicate line number {value} (also on line {where})"
    else:
        message = f"line number {value} is out of order: it follows {before} (line {where})"
    return ctx.error(message, number.column, number.length)


def _one_per_position(errors: list[BasicSyntaxError]) -> list[BasicSyntaxError]:
    """Drop a second report at the same place (a strict finding and a syntax error)."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for error in errors:
        key = (error.coord.line, error.coord.column)
        if key not in seen:
            seen.add(key)
            kept.append(error)
    return kept


_COMPARISONS = frozenset(("=", "<>", "<", ">", "<=", ">="))
_LOGIC = frozenset(("AND", "OR", "NOT"))  # extensions, reported where they are parsed


def _check_strict_conditions(statements: list[ast.Stmt], ctx: LineContext) -> None:
    """ECMA-55 compares only in `IF a relation b THEN`; a relation elsewhere is an extension.

    Conditions of the extension statements (block IF, WHILE) and operands of AND, OR
    and NOT are left alone: the construct around them is reported already.
    """
    allowed: set[int] = set()
    for stmt in statements:
        for node in stmt.walk():
            if isinstance(node, (ast.If, ast.IfBlock, ast.ElseIf, ast.While)):
                cond = node.condition
                allowed.add(id(cond))
                logic = isinstance(cond, (ast.BinOp, ast.UnaryOp)) and cond.op in _LOGIC
                if isinstance(node, ast.If) and not _is_relation(cond) and not logic:
                    ctx.errors.append(
                        BasicSyntaxError(
                            "ECMA-55 IF needs a comparison (=, <>, <, >, <=, >=)", cond.coord
                        )
                    )
            elif isinstance(node, ast.BinOp) and node.op in _LOGIC:
                allowed.update((id(node.left), id(node.right)))
            elif isinstance(node, ast.UnaryOp) and node.op == "NOT":
                allowed.add(id(node.operand))
            elif _is_relation(node) and id(node) not in allowed:
                ctx.errors.append(
                    BasicSyntaxError("a comparison outside IF ... THEN is not ECMA-55", node.coord)
                )


def _is_relation(node: ast.Node) -> bool:
    return isinstance(node, ast.BinOp) and node.op in _COMPARISONS


# =========================================================================== grammar
#
# Precedence, lowest first.  `^` binds tighter than unary minus (-A^B is -(A^B)) and
# is left-associative (2^3^2 is 64), as in ECMA-55.  IFX/ELSE attach a dangling ELSE
# to the nearest IF.

precedence = (
    ("nonassoc", "IFX"),
    ("nonassoc", "ELSE"),
    ("left", "OR"),
    ("left", "AND"),
    ("right", "NOT"),
    ("left", "EQ", "NE", "LT", "GT", "LE", "GE"),
    ("left", "PLUS", "MINUS"),
    ("left", "TIMES", "DIVIDE", "MOD"),
    ("right", "UMINUS"),
    ("left", "POW"),
)

start = "statements"


def p_error(token):
    raise _SyntaxAbort(token)


# --------------------------------------------------------------------------- helpers


def _coord(p, n: int) -> Coord:
    """The location of terminal `n` of production `p` (not a STRING, DATA or REM)."""
    tok = p.slice[n]
    ctx = p.lexer.ctx
    return Coord(ctx.file, ctx.line, tok.lexpos + 1, len(tok.value))


def _through(first: Coord, p, n: int) -> Coord:
    """From `first` to the end of terminal `n`."""
    tok = p.slice[n]
    end = tok.lexpos + 1 + token_length(tok)
    return Coord(first.file, first.line, first.column, end - first.column)


def _span(first: Coord, last: Coord) -> Coord:
    return Coord(first.file, first.line, first.column, last.column + last.length - first.column)


def _extension(p, n: int, what: str) -> None:
    """In strict mode, report that terminal `n` starts an extension to ECMA-55."""
    ctx = p.lexer.ctx
    if ctx.strict:
        tok = p.slice[n]
        ctx.errors.append(
            ctx.error(f"{what} is not ECMA-55 Minimal BASIC", tok.lexpos, token_length(tok))
        )


def _extension_at(p, coord: Coord, what: str) -> None:
    _strict_error(p, coord, f"{what} is not ECMA-55 Minimal BASIC")


def _strict_error(p, coord: Coord, message: str) -> None:
    if p.lexer.ctx.strict:
        p.lexer.ctx.errors.append(BasicSyntaxError(message, coord))


def _fail(p, n: int, message: str):
    tok = p.slice[n]
    raise p.lexer.ctx.error(message, tok.lexpos, token_length(tok))


def _integer(p, n: int, what: str) -> int:
    """Terminal `n` (a NUMBER) as an unsigned integer, or a located error."""
    text = p[n]
    if not text.isdigit():
        _fail(p, n, f"expected {what}, found '{text}'")
    return int(text)


# --------------------------------------------------------------------------- lines


def p_statements_list(p):
    """statements : stmt_list"""
    # Hot rules read p.slice directly: PLY's p[n] is a Python-level __getitem__.
    s = p.slice
    s[0].value = s[1].value


def p_statements_tail(p):
    """statements : stmt_list COLON tail_statement"""
    _extension(p, 2, "more than one statement on a line")
    p[1].append(p[3])
    p[0] = p[1]


def p_statements_only_tail(p):
    """statements : tail_statement"""
    p[0] = [p[1]]


def p_tail_statement(p):
    """tail_statement : if_statement
    | block_if"""
    p[0] = p[1]


def p_stmt_list_first(p):
    """stmt_list : simple_statement
    | block_statement"""
    s = p.slice
    s[0].value = [s[1].value]


def p_stmt_list_next(p):
    """stmt_list : stmt_list COLON simple_statement
    | stmt_list COLON block_statement"""
    _extension(p, 2, "more than one statement on a line")
    p[1].append(p[3])
    p[0] = p[1]


def p_empty(p):
    """empty :"""
    p[0] = None


# --------------------------------------------------------------------------- IF


def p_if_then_line(p):
    """if_statement : IF expr THEN line_ref %prec IFX"""
    p[0] = ast.If(p[2], then_line=p[4], coord=_coord(p, 1))


def p_if_then_line_else(p):
    """if_statement : IF expr THEN line_ref ELSE else_part"""
    _extension(p, 5, "ELSE")
    p[0] = _with_else(ast.If(p[2], then_line=p[4], coord=_coord(p, 1)), p[6])


def p_if_then_body(p):
    """if_statement : IF expr THEN body %prec IFX"""
    _extension(p, 3, "a statement after THEN (ECMA-55 wants a line number)")
    p[0] = ast.If(p[2], then_body=p[4], coord=_coord(p, 1))


def p_if_then_body_else(p):
    """if_statement : IF expr THEN body ELSE else_part"""
    _extension(p, 3, "a statement after THEN (ECMA-55 wants a line number)")
    _extension(p, 5, "ELSE")
    p[0] = _with_else(ast.If(p[2], then_body=p[4], coord=_coord(p, 1)), p[6])


def p_if_goto(p):
    """if_statement : IF expr GOTO line_ref %prec IFX"""
    _extension(p, 3, "IF ... GOTO")
    p[0] = ast.If(p[2], then_line=p[4], coord=_coord(p, 1))


def p_if_goto_else(p):
    """if_statement : IF expr GOTO line_ref ELSE else_part"""
    _extension(p, 3, "IF ... GOTO")
    _extension(p, 5, "ELSE")
    p[0] = _with_else(ast.If(p[2], then_line=p[4], coord=_coord(p, 1)), p[6])


def _with_else(node: ast.If, else_part) -> ast.If:
    if isinstance(else_part, ast.LineRef):
        node.else_line = else_part
    else:
        node.else_body = else_part
    return node


def p_else_part(p):
    """else_part : line_ref
    | body"""
    p[0] = p[1]


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
    _extension(p, 1, "block IF (IF ... THEN at the end of a line)")
    p[0] = ast.IfBlock(p[2], coord=_coord(p, 1))


def p_block_elseif(p):
    """block_statement : ELSEIF expr THEN"""
    _extension(p, 1, "ELSEIF")
    p[0] = ast.ElseIf(p[2], coord=_coord(p, 1))


def p_block_else(p):
    """block_statement : ELSE"""
    _extension(p, 1, "ELSE")
    p[0] = ast.Else(coord=_coord(p, 1))


def p_block_endif(p):
    """block_statement : ENDIF"""
    _extension(p, 1, "ENDIF")
    p[0] = ast.EndIf(coord=_coord(p, 1))


def p_block_end_if(p):
    """block_statement : END IF"""
    _extension(p, 1, "END IF")
    p[0] = ast.EndIf(coord=_through(_coord(p, 1), p, 2))


# --------------------------------------------------------------------------- assignment, I/O


def p_let(p):
    """simple_statement : LET lvalue EQ expr"""
    s = p.slice
    s[0].value = ast.Let(s[2].value, s[4].value, coord=_coord(p, 1))


def p_let_implicit(p):
    """simple_statement : lvalue EQ expr"""
    target = p[1]
    _extension_at(p, target.coord, "an assignment without LET")
    p[0] = ast.Let(target, p[3], coord=target.coord)


def p_lvalue_name(p):
    """lvalue : NAME"""
    s = p.slice
    s[0].value = ast.Var(s[1].value, coord=_coord(p, 1))


def p_lvalue_index(p):
    """lvalue : NAME LPAREN expr_list RPAREN"""
    p[0] = ast.Index(p[1], p[3], coord=_through(_coord(p, 1), p, 4))


def p_lvalue_list(p):
    """lvalue_list : lvalue
    | lvalue_list COMMA lvalue"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_print(p):
    """simple_statement : PRINT print_list"""
    p[0] = ast.Print(p[2], coord=_coord(p, 1))


def p_print_list_first(p):
    """print_list : print_item"""
    p[0] = [] if p[1] is None else [p[1]]


def p_print_list_next(p):
    """print_list : print_list COMMA print_item
    | print_list SEMI print_item"""
    s = p.slice
    items = s[1].value
    items.append(ast.PrintSep(s[2].value, coord=_coord(p, 2)))
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
    p[0] = ast.Tab(p[3], coord=_through(_coord(p, 1), p, 4))


def p_input(p):
    """simple_statement : INPUT input_list"""
    targets, arrays = p[2]
    p[0] = ast.Input(targets, array_params=arrays, coord=_coord(p, 1))


def p_input_prompt(p):
    """simple_statement : INPUT STRING SEMI input_list
    | INPUT STRING COMMA input_list"""
    _extension(p, 2, "an INPUT prompt")
    targets, arrays = p[4]
    p[0] = ast.Input(targets, prompt=p[2], array_params=arrays, coord=_coord(p, 1))


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


def p_input_target_array(p):
    """input_target : NAME LPAREN RPAREN"""
    # `INPUT A()`: a whole array passed to a cuTile BASIC kernel.
    coord = _through(_coord(p, 1), p, 3)
    _extension_at(p, coord, "an array parameter NAME()")
    p[0] = (ast.Var(p[1], coord=coord), True)


def p_read(p):
    """simple_statement : READ lvalue_list"""
    p[0] = ast.Read(p[2], coord=_coord(p, 1))


def p_data(p):
    """simple_statement : DATA"""
    ctx = p.lexer.ctx
    p[0] = ast.Data(split_data(p[1], ctx), coord=ctx.coord(p.slice[1].lexpos, 4))


def p_restore(p):
    """simple_statement : RESTORE"""
    p[0] = ast.Restore(coord=_coord(p, 1))


def p_restore_line(p):
    """simple_statement : RESTORE line_ref"""
    _extension_at(p, p[2].coord, "RESTORE with a line number")
    p[0] = ast.Restore(p[2].number, coord=_coord(p, 1))


# --------------------------------------------------------------------------- control


def p_line_ref(p):
    """line_ref : NUMBER"""
    p[0] = ast.LineRef(_integer(p, 1, "a line number"), coord=_coord(p, 1))


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
    p[0] = ast.Goto(p[2], coord=_coord(p, 1))


def p_gosub(p):
    """simple_statement : GOSUB line_ref"""
    p[0] = ast.Gosub(p[2], coord=_coord(p, 1))


def p_return(p):
    """simple_statement : RETURN"""
    p[0] = ast.Return(coord=_coord(p, 1))


def p_on(p):
    """simple_statement : ON expr GOTO line_ref_list
    | ON expr GOSUB line_ref_list"""
    gosub = p.slice[3].type == "GOSUB"
    if gosub:
        _extension(p, 3, "ON ... GOSUB")
    p[0] = ast.OnGoto(p[2], p[4], gosub=gosub, coord=_coord(p, 1))


def p_for(p):
    """simple_statement : FOR NAME EQ expr TO expr"""
    var = ast.Var(p[2], coord=_coord(p, 2))
    p[0] = ast.For(var, p[4], p[6], coord=_coord(p, 1))


def p_for_step(p):
    """simple_statement : FOR NAME EQ expr TO expr STEP expr"""
    var = ast.Var(p[2], coord=_coord(p, 2))
    p[0] = ast.For(var, p[4], p[6], p[8], coord=_coord(p, 1))


def p_next(p):
    """simple_statement : NEXT"""
    _extension(p, 1, "NEXT without a variable")
    p[0] = ast.Next([], coord=_coord(p, 1))


def p_next_vars(p):
    """simple_statement : NEXT var_list"""
    if len(p[2]) > 1:
        _extension_at(p, p[2][1].coord, "NEXT with several variables")
    p[0] = ast.Next(p[2], coord=_coord(p, 1))


def p_var_list(p):
    """var_list : NAME
    | var_list COMMA NAME"""
    if len(p) == 2:
        p[0] = [ast.Var(p[1], coord=_coord(p, 1))]
    else:
        p[1].append(ast.Var(p[3], coord=_coord(p, 3)))
        p[0] = p[1]


def p_while(p):
    """simple_statement : WHILE expr"""
    _extension(p, 1, "WHILE")
    p[0] = ast.While(p[2], coord=_coord(p, 1))


def p_wend(p):
    """simple_statement : WEND"""
    _extension(p, 1, "WEND")
    p[0] = ast.Wend(coord=_coord(p, 1))


def p_keyword_statement(p):
    """simple_statement : RANDOMIZE
    | STOP
    | END"""
    kind = {"RANDOMIZE": ast.Randomize, "STOP": ast.Stop, "END": ast.End}[p.slice[1].type]
    p[0] = kind(coord=_coord(p, 1))


def p_rem(p):
    """simple_statement : REM"""
    tok = p.slice[1]
    ctx = p.lexer.ctx
    length = len(p.lexer.lexdata) - tok.lexpos
    p[0] = ast.Rem(p[1], coord=ctx.coord(tok.lexpos, length))


# --------------------------------------------------------------------------- declarations


def p_dim(p):
    """simple_statement : DIM array_list"""
    p[0] = ast.Dim(p[2], coord=_coord(p, 1))


def p_array_list(p):
    """array_list : array_decl
    | array_list COMMA array_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_array_decl(p):
    """array_decl : NAME LPAREN expr_list RPAREN"""
    bounds = p[3]
    if p.lexer.ctx.strict:
        for bound in bounds:
            if not (isinstance(bound, ast.Num) and bound.text.isdigit()):
                _extension_at(p, bound.coord, "a DIM bound that is not an integer constant")
    p[0] = ast.ArrayDecl(p[1], bounds, coord=_through(_coord(p, 1), p, 4))


def p_array_decl_typed(p):
    """array_decl : NAME LPAREN expr_list RPAREN AS NAME"""
    # `DIM A(N) AS F16`: the element type, checked by the kernel-dialect pass.
    _extension(p, 5, "DIM ... AS type")
    coord = _through(_coord(p, 1), p, 6)
    p[0] = ast.ArrayDecl(p[1], p[3], dtype=p[6], coord=coord)


def p_option(p):
    """simple_statement : OPTION BASE NUMBER"""
    if p[3] not in ("0", "1"):
        _fail(p, 3, "OPTION BASE must be 0 or 1")
    p[0] = ast.OptionBase(int(p[3]), coord=_coord(p, 1))


def p_def(p):
    """simple_statement : DEF FNNAME EQ expr"""
    p[0] = ast.DefFn(p[2], [], p[4], coord=_coord(p, 1))


def p_def_params(p):
    """simple_statement : DEF FNNAME LPAREN var_list RPAREN EQ expr"""
    params = p[4]
    if p.lexer.ctx.strict:
        for param in params:
            if param.name.endswith("$"):
                _strict_error(p, param.coord, "numeric variable expected (ECMA-55 parameter)")
        if len(params) > 1:
            _strict_error(p, params[1].coord, "ECMA-55 functions have at most one parameter")
    p[0] = ast.DefFn(p[2], [v.name for v in params], p[7], coord=_coord(p, 1))


# --------------------------------------------------------------------------- MAT


def p_mat_read(p):
    """simple_statement : MAT READ mat_list"""
    _extension(p, 1, "MAT")
    p[0] = ast.MatRead(p[3], coord=_coord(p, 1))


def p_mat_input(p):
    """simple_statement : MAT INPUT mat_list"""
    _extension(p, 1, "MAT")
    p[0] = ast.MatInput(p[3], coord=_coord(p, 1))


def p_mat_print(p):
    """simple_statement : MAT PRINT mat_print_list"""
    _extension(p, 1, "MAT")
    names, seps = p[3]
    p[0] = ast.MatPrint(names, seps, coord=_coord(p, 1))


def p_mat_assign(p):
    """simple_statement : MAT NAME EQ mat_expr"""
    _extension(p, 1, "MAT")
    p[0] = ast.MatAssign(p[2], p[4], coord=_coord(p, 1))


def p_mat_list(p):
    """mat_list : mat_decl
    | mat_list COMMA mat_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_mat_decl(p):
    """mat_decl : NAME
    | NAME LPAREN expr_list RPAREN"""
    if len(p) == 2:
        p[0] = ast.ArrayDecl(p[1], [], coord=_coord(p, 1))
    else:
        p[0] = ast.ArrayDecl(p[1], p[3], coord=_through(_coord(p, 1), p, 4))


def p_mat_print_list(p):
    """mat_print_list : NAME
    | NAME COMMA
    | NAME SEMI
    | NAME COMMA mat_print_list
    | NAME SEMI mat_print_list"""
    if len(p) == 4:
        names, seps = p[3]
    else:
        names, seps = [], []
    names.insert(0, p[1])
    seps.insert(0, p[2] if len(p) > 2 else None)
    p[0] = (names, seps)


def _mat_ref(p, n: int) -> ast.MatRef:
    return ast.MatRef(p[n], coord=_coord(p, n))


_MAT_FILLS = frozenset(("ZER", "CON", "IDN"))
_MAT_FUNCS = frozenset(("TRN", "INV"))


def p_mat_expr_name(p):
    """mat_expr : NAME"""
    if p[1] in _MAT_FILLS:
        p[0] = ast.MatFill(p[1], coord=_coord(p, 1))
    else:
        p[0] = _mat_ref(p, 1)


def p_mat_expr_binary(p):
    """mat_expr : NAME PLUS NAME
    | NAME MINUS NAME
    | NAME TIMES NAME"""
    left, right = _mat_ref(p, 1), _mat_ref(p, 3)
    p[0] = ast.MatBin(p[2], left, right, coord=_span(left.coord, right.coord))


def p_mat_expr_scale(p):
    """mat_expr : LPAREN expr RPAREN TIMES NAME"""
    p[0] = ast.MatScale(p[2], _mat_ref(p, 5), coord=_through(_coord(p, 1), p, 5))


def p_mat_expr_call(p):
    """mat_expr : NAME LPAREN expr_list RPAREN"""
    name, args = p[1], p[3]
    coord = _through(_coord(p, 1), p, 4)
    if name in _MAT_FILLS:
        p[0] = ast.MatFill(name, args, coord=coord)
    elif name in _MAT_FUNCS:
        if len(args) != 1 or not isinstance(args[0], ast.Var):
            raise BasicSyntaxError(f"{name} takes one matrix name", coord)
        arg = ast.MatRef(args[0].name, coord=args[0].coord)
        p[0] = ast.MatFunc(name, arg, coord=coord)
    else:
        _fail(p, 1, f"expected ZER, CON, IDN, TRN or INV, found '{name}'")


# --------------------------------------------------------------------------- cuTile BASIC


def p_tile(p):
    """simple_statement : TILE tile_list"""
    _extension(p, 1, "TILE")
    p[0] = ast.TileStmt(p[2], coord=_coord(p, 1))


def p_tile_list(p):
    """tile_list : tile_decl
    | tile_list COMMA tile_decl"""
    if len(p) == 2:
        p[0] = [p[1]]
    else:
        p[1].append(p[3])
        p[0] = p[1]


def p_tile_decl(p):
    """tile_decl : NAME LPAREN expr_list RPAREN"""
    p[0] = ast.TileDecl(p[1], p[3], coord=_through(_coord(p, 1), p, 4))


def p_output(p):
    """simple_statement : OUTPUT var_list"""
    _extension(p, 1, "OUTPUT")
    p[0] = ast.Output([v.name for v in p[2]], coord=_coord(p, 1))


# --------------------------------------------------------------------------- expressions

_BINARY = {
    "PLUS": "+",
    "MINUS": "-",
    "TIMES": "*",
    "DIVIDE": "/",
    "POW": "^",
    "MOD": "MOD",
    "EQ": "=",
    "NE": "<>",
    "LT": "<",
    "GT": ">",
    "LE": "<=",
    "GE": ">=",
    "AND": "AND",
    "OR": "OR",
}
_BINARY_EXTENSIONS = frozenset(("MOD", "AND", "OR"))
# After one of these, ECMA-55 allows no sign: `4 ^ -2` and `A * -B` need parentheses.
_ARITHMETIC = frozenset(("PLUS", "MINUS", "TIMES", "DIVIDE", "POW", "MOD"))


def p_expr_binary(p):
    """expr : expr PLUS expr
    | expr MINUS expr
    | expr TIMES expr
    | expr DIVIDE expr
    | expr POW expr
    | expr MOD expr
    | expr EQ expr
    | expr NE expr
    | expr LT expr
    | expr GT expr
    | expr LE expr
    | expr GE expr
    | expr AND expr
    | expr OR expr"""
    s = p.slice
    kind = s[2].type
    if kind in _BINARY_EXTENSIONS:
        _extension(p, 2, kind)
    left, right = s[1].value, s[3].value
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
            _extension(p, 1, "NOT")
        elif p.stack[-1].type in _ARITHMETIC:  # the symbol before the sign
            tok = p.slice[1]
            ctx.errors.append(
                ctx.error("ECMA-55 allows no sign after an operator: add parentheses", tok.lexpos)
            )
    operand = p[2]
    p[0] = ast.UnaryOp(p[1].upper(), operand, coord=_span(_coord(p, 1), operand.coord))


def p_expr_number(p):
    """expr : NUMBER"""
    s = p.slice
    tok = s[1]
    text = tok.value
    ctx = p.lexer.ctx  # _coord inlined: this is the hottest rule with p_expr_var
    coord = Coord(ctx.file, ctx.line, tok.lexpos + 1, len(text))
    s[0].value = ast.Num(float(text), text, coord=coord)


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
    s[0].value = ast.Index(s[1].value, s[3].value, coord=_through(_coord(p, 1), p, 4))


def p_expr_call_bare(p):
    """expr : FUNC
    | FNNAME"""
    # RND, a parameterless FN, or TAN written without arguments (the semantic pass
    # reports the arity).
    if p.slice[1].type == "FUNC" and p[1] not in ECMA55_FUNCTIONS:
        _extension(p, 1, p[1])
    p[0] = ast.Call(p[1], [], coord=_coord(p, 1))


def p_expr_call(p):
    """expr : FUNC LPAREN expr_list RPAREN
    | FNNAME LPAREN expr_list RPAREN"""
    name, args = p[1], p[3]
    if p.lexer.ctx.strict:
        if p.slice[1].type == "FUNC" and name not in ECMA55_FUNCTIONS:
            _extension(p, 1, name)
        elif len(args) > 1:
            _strict_error(p, args[1].coord, "too many arguments: ECMA-55 functions take one")
    p[0] = ast.Call(name, args, coord=_through(_coord(p, 1), p, 4))


def p_expr_bid(p):
    """expr : BID"""
    _extension(p, 1, "BID")
    p[0] = ast.Bid(0, coord=_coord(p, 1))


def p_expr_bid_axis(p):
    """expr : BID LPAREN expr RPAREN"""
    _extension(p, 1, "BID")
    axis = p[3]
    if not (isinstance(axis, ast.Num) and axis.text in ("0", "1", "2")):
        raise BasicSyntaxError("the BID axis must be 0, 1 or 2", axis.coord)
    p[0] = ast.Bid(int(axis.text), coord=_through(_coord(p, 1), p, 4))


def p_expr_group(p):
    """expr : LPAREN expr RPAREN"""
    # The node keeps its type; its location grows to cover the parentheses.
    node = p[2]
    node.coord = _through(_coord(p, 1), p, 3)
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
