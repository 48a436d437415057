"""The BASIC parser: source text -> `ast.Program`, built with PLY's `yacc`.

    from transpiler.frontend.parser import parse
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

import copy
import re

from ply import yacc

from ..collector import collector_paused
from ..errors import BasicSyntaxError, BasicWarning, CompileErrors, Coord, SourceFile
from ..ir import ast
from ..language.keywords import PARTIAL_STATEMENTS
from ..options import MICROSOFT_DIALECTS, Options
from . import grammar
from ._line_format import LineNumber, check_strict_layout, read_label, read_line_number
from ._parse_tables import load_tables
from ._syntax_messages import describe_syntax_error
from .grammar import SyntaxAbort
from .lexer import LineContext, build_lexer, start_line, sub_names

__all__ = ["ParseErrors", "parse"]


class ParseErrors(CompileErrors):
    """The syntax errors of a program, with the constructs only Microsoft BASIC has that
    it uses (`ast.Program.microsoft_pins`) and those only QuickBASIC has (`qbasic_pins`):
    they pin a dialect when none was chosen, and the program is read again with that
    dialect's reserved words."""

    def __init__(self, errors, microsoft_pins, qbasic_pins=()):
        super().__init__(errors)
        self.microsoft_pins = microsoft_pins
        self.qbasic_pins = list(qbasic_pins)


def parse(source: SourceFile, options: Options, kernel: bool = False) -> ast.Program:
    """Parse a whole program; raises CompileErrors with every syntax error found.
    `kernel`: with the operator precedence of cuTile BASIC kernel programs.

    A program with a line that only parses crunched (`_crunched_reading`) is parsed again
    reading every line so where it parses, as Microsoft's tokenizer did: `LETX=10` is then
    LET X=10 beside `IFX=0THEN9`, not a variable LETX (outside --dialect ms: an error)."""
    crunched = _Crunched()
    program = _parse(source, options, crunched, kernel)
    if crunched.first_line is None or options.strict:
        return program
    crunched.whole_program = True
    return _parse(source, options, crunched, kernel)


class _Crunched:
    """Whether a program is read crunched: the first source line that needed it."""

    __slots__ = ("first_line", "whole_program")

    def __init__(self):
        self.first_line: int | None = None
        self.whole_program = False


def _parse(
    source: SourceFile, options: Options, crunched: _Crunched, kernel: bool = False
) -> ast.Program:
    ctx = LineContext(source.name, options.strict, options.std)
    if options.std in (None, "qbasic"):
        ctx.sub_names = sub_names(source.text)  # QuickBASIC's `MySub a, b`
    lexer = build_lexer(ctx)
    lexer.else_joiner = _ElseJoiner(lexer.token)
    rules = grammar
    if kernel:
        from .grammar.kernel_precedence import kernel_grammar

        rules = kernel_grammar()
    parser = yacc.LRParser(load_tables(rules), grammar.p_error)
    lines: list[ast.Line] = []
    order = _LineOrder(ctx)
    deleted: set[int] = set()  # the source lines of lines a line number alone deleted
    with collector_paused():  # the tree is acyclic and all of it is kept
        for line_no, text in enumerate(source.lines, 1):
            if not text or text.isspace():
                continue
            ctx.start_line(line_no)
            number = read_line_number(text, ctx)
            label = read_label(text, number, ctx)  # QuickBASIC's `Start:`
            if label is not None:
                name, number = label
                if not text[number.body :].strip():  # alone on its line: labels the next one
                    lines.append(ast.Line(None, [], name=name, coord=ctx.coord(0, len(name))))
                    continue
            if order.deletes(number, text, line_no):
                deleted.update(line.coord.line for line in lines if line.number == number.value)
                lines = [line for line in lines if line.number != number.value]
                continue
            order.check(number, line_no)
            line = _parse_line(parser, lexer, text, number, ctx, crunched)
            if line is not None:
                line.name = label[0] if label is not None else None
                lines.append(line)
    if ctx.errors:
        raise ParseErrors(_one_per_position(ctx.errors), ctx.pins, ctx.qbasic_pins)
    warnings = ctx.warnings
    if order.sorting:
        kept = _editor_order(lines)
        gone = deleted | {line.coord.line for line in lines} - {line.coord.line for line in kept}
        warnings = _of_kept_lines(warnings, gone)
        lines = kept
    return ast.Program(
        lines,
        source_name=source.name,
        microsoft_pins=ctx.pins,
        qbasic_pins=ctx.qbasic_pins,
        warnings=warnings,
        coord=Coord(source.name, 1, 1),
    )


class _LineOrder:
    """Line numbers must increase down the file.  Under --dialect ms a line out of order
    or repeated is a warning instead, and the lines are put in GW-BASIC's editor order
    (`_editor_order`), as its LOAD does with an ASCII file: each line is stored as if
    typed in, in order of number, and a number typed again replaces the line."""

    __slots__ = ("ctx", "highest", "seen", "sorting", "unnumbered")

    def __init__(self, ctx: LineContext):
        self.ctx = ctx
        self.highest: tuple[int, int] | None = None  # (number, source line)
        self.seen: dict[int, int] = {}  # line number -> source line where it last stood
        self.sorting = False  # some line is out of order or repeated (ms)
        self.unnumbered = False

    def deletes(self, number: LineNumber, text: str, line_no: int) -> bool:
        """Whether the line is a line number alone that deletes the line of that number
        (GW-BASIC's editor and LOAD; PC-BASIC's LOAD agrees), under --dialect ms.  With
        no such line GW-BASIC's LOAD stops with "Undefined line number": the error
        about a line without statements stays."""
        ctx = self.ctx
        value = number.value
        if ctx.dialect != "ms" or value not in self.seen or text[number.body :].strip():
            return False
        where = self.seen.pop(value)
        self.sorting = True
        ctx.warnings.append(
            BasicWarning(
                f"line number {value} alone deletes the line {value} on line {where}",
                ctx.coord(number.column, number.length),
                notes=(_EDITOR_NOTE,),
            )
        )
        return True

    def check(self, number: LineNumber, line_no: int) -> None:
        ctx = self.ctx
        if number.value is None:
            self.unnumbered = True
            return
        value, highest = number.value, self.highest
        if highest is not None and value <= highest[0]:
            if ctx.dialect == "ms" and not self.unnumbered:
                self.sorting = True
                ctx.warnings.append(_order_warning(number, highest, self.seen.get(value), ctx))
            else:
                ctx.errors.append(_order_error(number, highest, self.seen.get(value), ctx))
        if highest is None or value >= highest[0]:
            self.highest = (value, line_no)
        self.seen[value] = line_no


def _of_kept_lines(warnings: list[BasicWarning], gone: set[int]) -> list[BasicWarning]:
    """The warnings, less those about the statements of the source lines `gone` (another
    line replaced or deleted them: their Syntax error can no longer run); the warnings
    about the order stay."""
    return [w for w in warnings if w.coord.line not in gone or w.notes == (_EDITOR_NOTE,)]


def _editor_order(lines: list[ast.Line]) -> list[ast.Line]:
    """The lines by number, the last of each number kept (GW-BASIC's program store)."""
    by_number = {line.number: line for line in lines}
    return [by_number[number] for number in sorted(by_number)]


def _parse_line(
    parser, lexer, text: str, number: LineNumber, ctx: LineContext, crunched: _Crunched
) -> ast.Line | None:
    """The statements after the line number, or None after reporting an error."""
    start_line(lexer, text, ctx.line, number.body)
    ctx.syntax_faults = {}
    joiner = lexer.else_joiner
    joiner.reset(gw_basic=ctx.dialect == "ms")
    # Lines without an ELSE (most) read the lexer directly.
    lexer.token = joiner if "ELSE" in text.upper() else joiner.next_token
    statements, stop = _statements(parser, lexer, text, number.body, ctx, crunched)
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


def _statements(parser, lexer, text: str, body: int, ctx: LineContext, crunched: _Crunched):
    """(statements or None, the column where strict character checks stop)."""
    written = text[body:].lstrip()
    rest = written if ctx.strict else written.lstrip(" \t:")  # `::` is nothing
    if not rest or rest[0] == "'":
        lexer.token()  # an apostrophe comment is recorded in ctx, not returned
        if written and not rest:  # `10 :`: only empty statements, kept as a remark
            return [ast.Rem("", coord=ctx.coord(text.index(":", body)))], len(text)
        return [], len(text)
    mark = (len(ctx.errors), len(ctx.pins), len(ctx.warnings), ctx.comment, ctx.rem_start)
    split = None  # the first reserved word found inside a word, in a crunched program
    if crunched.whole_program:
        reading = _try_crunched(parser, lexer, text, body, ctx, mark)
        if reading is not None and (ctx.dialect in MICROSOFT_DIALECTS or not reading[1]):
            return reading[0], len(text)
        if reading is not None:
            split = reading[1][0]
        _restore(ctx, mark)
        start_line(lexer, text, ctx.line, body)
    does_not_parse = False  # the parser stopped (not the lexer nor an action)
    try:
        statements = parser.parseopt_notrack(None, lexer)
        if split is None:
            return statements, len(text)
        ctx.errors.append(_ambiguous(text, *split, ctx, crunched.first_line))
        return None, len(text)
    except BasicSyntaxError as exc:
        error = exc
    except SyntaxAbort as abort:
        error = describe_syntax_error(parser, abort.token, text, ctx)
        does_not_parse = True
    if not ctx.strict:
        try:
            statements = _crunched_reading(parser, lexer, text, body, ctx, mark)
        except BasicSyntaxError as ambiguous:
            statements, error, does_not_parse = None, ambiguous, False
        if statements is not None:
            if crunched.first_line is None:
                crunched.first_line = ctx.line
            return statements, len(text)
    if does_not_parse and ctx.dialect == "ms":
        blanked = _blank_statement(text, body, error, ctx)
        if blanked is not None:
            _restore(ctx, mark)
            ctx.warnings.append(_syntax_warning(error))
            start_line(lexer, blanked, ctx.line, body)
            lexer.else_joiner.reset()
            return _statements(parser, lexer, blanked, body, ctx, crunched)
    ctx.errors.append(error)
    return None, error.coord.column - 1


# Where a statement starts or ends in GW-BASIC's text: ':' outside strings, THEN and
# ELSE (also glued to a number, as crunched lines have them: 1THEN), a comment.
_STATEMENT_MARK = re.compile(r'"[^"]*"?|:|\'|(?<![A-Z])(THEN|ELSE|REM)', re.IGNORECASE)


def _blank_statement(text: str, body: int, error: BasicSyntaxError, ctx: LineContext):
    """The line with the statement where `error` stands blanked out with NUL bytes, which
    the lexer reads as SYNTAX_FAULT (a statement that stops with GW-BASIC's Syntax error
    when it runs); None where the statement is one whose GW-BASIC forms the grammar
    implements only in part (keywords.PARTIAL_STATEMENTS): that stays a compile error,
    since GW-BASIC may well run it."""
    column = error.coord.column - 1
    start, end = body, len(text)
    for mark in _STATEMENT_MARK.finditer(text, body):
        word = mark.group(0).upper()
        if word.startswith('"'):
            continue
        if word in ("'", "REM"):
            end = min(end, mark.start()) if mark.start() >= column else end
            if mark.start() < column:
                return None  # the error is inside a comment: not ours to blank
            break
        if mark.start() < column:
            start = mark.end()
        else:
            end = mark.start()
            break
    while start < end and text[start] in " \t":
        start += 1
    while end > start and text[end - 1] in " \t":
        end -= 1
    if start >= end or start in ctx.syntax_faults:
        return None
    first = _FIRST_WORD.match(text, start)
    if first is not None and first.group(0).upper() in PARTIAL_STATEMENTS:
        return None
    ctx.syntax_faults[start] = error
    return text[:start] + "\x00" * (end - start) + text[end:]


_FIRST_WORD = re.compile(r"[A-Z]+", re.IGNORECASE)


def _syntax_warning(error: BasicSyntaxError) -> BasicWarning:
    return BasicWarning(
        f"Syntax error: {error.message} (GW-BASIC stops with it when the statement runs)",
        error.coord,
        notes=error.notes,
    )


def _crunched_reading(parser, lexer, text: str, body: int, ctx: LineContext, mark):
    """The statements of a line that does not parse with whole-word keywords, read as
    Microsoft's tokenizer of the 1970s (Altair BASIC, MBASIC) read it, finding reserved
    words inside words (`FORI=1TO3`, `IFA>BTHEN100`, `REMARKABLE`), or None if that does
    not parse either (the first reading's error is then the one reported).  GW-BASIC
    reads the first way; programs written for the older BASICs need the second.

    Outside --dialect ms, where long names are the rule, every reserved word found inside
    a word must be needed: if the line also parses with one of them left in its word
    (`IFSCORE>1THEN9`: `SCORE` or `SC OR E`), that is a located error."""
    reading = _try_crunched(parser, lexer, text, body, ctx, mark)
    if reading is None:
        return None
    statements, splits = reading
    if ctx.dialect not in MICROSOFT_DIALECTS:
        for column, length in splits:
            other = _try_crunched(parser, lexer, text, body, ctx, mark, keep_whole=column)
            if other is not None and ctx.keep_whole == -1:  # it was kept, and that parses
                _restore(ctx, mark)
                raise _ambiguous(text, column, length, ctx)
        statements, _ = _try_crunched(parser, lexer, text, body, ctx, mark)
    return statements


def _try_crunched(parser, lexer, text, body, ctx: LineContext, mark, keep_whole: int = -1):
    """(statements, the reserved words split off as (column, length)) of the crunched
    reading of the line, leaving the one at column `keep_whole` inside its word; None if
    that does not parse."""
    _restore(ctx, mark)
    ctx.crunch, ctx.keep_whole, ctx.splits, ctx.cut_at = True, keep_whole, [], -1
    start_line(lexer, text, ctx.line, body)
    lexer.else_joiner.reset()  # a reading starts with no token held back
    try:
        return parser.parseopt_notrack(None, lexer), ctx.splits
    except (BasicSyntaxError, SyntaxAbort):
        _restore(ctx, mark)
        return None
    finally:
        ctx.crunch = False


def _restore(ctx: LineContext, mark) -> None:
    """Forget what a reading of the line recorded (errors, pins, its comment)."""
    errors, pins, warnings, comment, rem_start = mark
    del ctx.errors[errors:], ctx.pins[pins:], ctx.warnings[warnings:]
    ctx.comment, ctx.rem_start = comment, rem_start


def _ambiguous(
    text: str, column: int, length: int, ctx: LineContext, crunched_line: int | None = None
) -> BasicSyntaxError:
    word = text[column : column + length].upper()
    notes = ["put spaces around the reserved words of this line"]
    if crunched_line is not None:
        notes.append(f"line {crunched_line} of the file reads reserved words inside words")
    notes.append("--dialect ms reads reserved words anywhere, as Microsoft BASIC's tokenizer did")
    return BasicSyntaxError(
        f"ambiguous without spaces: {word} here can be a reserved word or part of a name",
        ctx.coord(column, length),
        notes=tuple(notes),
    )


class _ElseJoiner:
    """The lexer's tokens with a ':' right before ELSE left out: GW-BASIC stores ELSE as
    ':ELSE', so `IF c THEN A : ELSE B` is `IF c THEN A ELSE B` (also where the ELSE of
    an outer IF follows a nested one's ELSE part)."""

    __slots__ = ("elses", "gw_basic", "held", "ifs", "last", "next_token")

    def __init__(self, next_token):
        self.next_token = next_token
        self.held = None  # a token read ahead after a ':'
        self.gw_basic = False
        self.ifs = self.elses = 0  # of the line so far
        self.last = None  # the token returned last

    def reset(self, gw_basic: bool | None = None) -> None:
        self.held = None
        self.ifs = self.elses = 0
        self.last = None
        if gw_basic is not None:
            self.gw_basic = gw_basic

    def __call__(self):
        token = self._token()
        self.last = token
        return token

    def _token(self):
        token = self.held or self.next_token()
        self.held = None
        if token is not None and token.type == "COLON":
            following = self.next_token()
            if following is not None and following.type == "ELSE":
                if not self._stray(following):
                    return following
                self.held = self._as_remark(following)
                return token
            self.held = following
        if token is not None and token.type == "IF":
            self.ifs += 1
        elif token is not None and token.type == "ELSE" and self._stray(token):
            remark = self._as_remark(token)
            if self.last is None or self.last.type == "COLON":
                return remark
            self.held = remark  # a statement of its own
            colon = copy.copy(token)
            colon.type, colon.value = "COLON", ":"
            return colon
        return token

    def _stray(self, token) -> bool:
        """GW-BASIC runs an ELSE that no IF of the line is waiting for as a REM: the rest
        of the line is skipped (`PRINT 1: ELSE PRINT 2`, a second ELSE after an IF's
        ELSE part).  An ELSE alone on its line stays the block ELSE of our extension."""
        self.elses += 1
        if not self.gw_basic or self.elses <= self.ifs:
            return False
        lexer = self.next_token.__self__
        return lexer.lexdata[token.lexpos + len(token.value) :].strip(" \t") != ""

    def _as_remark(self, token):
        """The stray ELSE as a REM statement holding the rest of the line."""
        lexer = self.next_token.__self__
        remark = copy.copy(token)
        remark.type = "REM"
        remark.value = lexer.lexdata[token.lexpos + len(token.value) :]
        lexer.lexpos = len(lexer.lexdata)
        return remark


def _stamp_labels(statements: list[ast.Stmt], label: int) -> None:
    for stmt in statements:
        stmt.label = label
        if isinstance(stmt, ast.If):
            _stamp_labels(stmt.then_body, label)
            _stamp_labels(stmt.else_body, label)


def _order_error(
    number: LineNumber, highest: tuple[int, int], again: int | None, ctx
) -> BasicSyntaxError:
    value, (before, where) = number.value, highest
    if again is not None:
        message = f"duplicate line number {value} (also on line {again})"
    else:
        message = f"line number {value} is out of order: it follows {before} (line {where})"
    notes = ("--dialect ms puts the lines in order, as GW-BASIC's LOAD does",)
    return BasicSyntaxError(message, ctx.coord(number.column, number.length), notes=notes)


def _order_warning(
    number: LineNumber, highest: tuple[int, int], again: int | None, ctx
) -> BasicWarning:
    value, (before, where) = number.value, highest
    if again is not None:
        message = f"line number {value} again: this line replaces the one on line {again}"
    else:
        message = (
            f"line number {value} is out of order: it follows {before} (line {where}); "
            "it is put in its place by number"
        )
    return BasicWarning(message, ctx.coord(number.column, number.length), notes=(_EDITOR_NOTE,))


_EDITOR_NOTE = "GW-BASIC's LOAD stores lines by number, the last of a number replacing the others"


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
