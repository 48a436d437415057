"""The BASIC parser: source text -> `ast.Program`, built with PLY's `yacc`.

    from transpiler.parser import parse
    program = parse(source, options)      # raises CompileErrors

BASIC is line-oriented, so the grammar (the `grammar` package, one module per statement
family) describes one line after its line number and `parse` runs it once per source
line.  A syntax error abandons that line only: parsing goes on with the next one and
every error of the file is reported together.  The tree is flat, as the text is:
FOR/NEXT, WHILE/WEND and block IF/ELSE/ENDIF are separate statements that a semantic
pass pairs up.

There is one grammar for both language levels.  In strict ECMA-55 mode the grammar
actions report each extension they build (block IF, WHILE, MOD, MAT, TILE, a missing
LET, ...) as a located error without stopping the parse, so the user sees all of
them at once; this module adds the checks that need a whole line (line numbers in
order, comparisons only in IF).  The tables are generated once per process, or loaded
from a per-user cache (`_parse_tables.py`).
"""

from __future__ import annotations


from ply import yacc

from . import ast, grammar
from ._line_format import LineNumber, check_strict_layout, read_line_number
from ._parse_tables import load_tables
from ._syntax_messages import describe_syntax_error
from .collector import collector_paused
from .errors import BasicSyntaxError, CompileErrors, Coord, SourceFile
from .grammar import SyntaxAbort
from .lexer import LineContext, build_lexer, start_line
from .options import Options

__all__ = ["parse"]


def parse(source: SourceFile, options: Options, kernel: bool = False) -> ast.Program:
    """Parse a whole program; raises CompileErrors with every syntax error found.
    `kernel`: with the operator precedence of cuTile BASIC kernel programs."""
    ctx = LineContext(source.name, options.strict, options.std)
    lexer = build_lexer(ctx)
    lexer.else_joiner = _ElseJoiner(lexer.token)
    rules = grammar
    if kernel:
        from .grammar.kernel_precedence import kernel_grammar

        rules = kernel_grammar()
    parser = yacc.LRParser(load_tables(rules), grammar.p_error)
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
    return ast.Program(
        lines, source_name=source.name, microsoft_pins=ctx.pins, coord=Coord(source.name, 1, 1)
    )


def _parse_line(parser, lexer, text: str, number: LineNumber, ctx: LineContext) -> ast.Line | None:
    """The statements after the line number, or None after reporting an error."""
    start_line(lexer, text, ctx.line, number.body)
    joiner = lexer.else_joiner
    joiner.reset()
    # Lines without an ELSE (most) read the lexer directly.
    lexer.token = joiner if "ELSE" in text.upper() else joiner.next_token
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
    except SyntaxAbort as abort:
        error = describe_syntax_error(parser, abort.token, text, ctx)
        ctx.errors.append(error)
        return None, error.coord.column - 1


class _ElseJoiner:
    """The lexer's tokens with a ':' right before ELSE left out: GW-BASIC stores ELSE as
    ':ELSE', so `IF c THEN A : ELSE B` is `IF c THEN A ELSE B` (also where the ELSE of
    an outer IF follows a nested one's ELSE part)."""

    __slots__ = ("held", "next_token")

    def __init__(self, next_token):
        self.next_token = next_token
        self.held = None  # a token read ahead after a ':'

    def reset(self) -> None:
        self.held = None

    def __call__(self):
        token = self.held or self.next_token()
        self.held = None
        if token is not None and token.type == "COLON":
            following = self.next_token()
            if following is not None and following.type == "ELSE":
                return following
            self.held = following
        return token


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
