"""Words for a syntax error: what the parser expected where it stopped.

PLY only says which token it could not use.  The LALR action table of the state the
parser stopped in lists the tokens it could have used, which is enough to say
"expected THEN", "missing ')'" or "expected expression" instead of "syntax error".
"""

from __future__ import annotations

from ..errors import BasicSyntaxError
from ..language.keywords import QBASIC_KEYWORDS, UNSUPPORTED
from .lexer import LineContext, statement_word, token_length

# Where these are all possible, an expression is (LALR merges the lookaheads of states
# that end a name, so a lone NAME or '(' proves nothing).
_EXPRESSION_PLACE = frozenset(("NUMBER", "LPAREN"))
_PUNCTUATION = {
    "PLUS": "+",
    "MINUS": "-",
    "TIMES": "*",
    "DIVIDE": "/",
    "POW": "^",
    "EQ": "=",
    "NE": "<>",
    "LT": "<",
    "GT": ">",
    "LE": "<=",
    "GE": ">=",
    "LPAREN": "(",
    "RPAREN": ")",
    "COMMA": ",",
    "SEMI": ";",
    "COLON": ":",
}


def describe_syntax_error(parser, token, text: str, ctx: LineContext) -> BasicSyntaxError:
    """The error for `token` (None: the end of the line) rejected by PLY `parser`."""
    expected = parser.action[parser.statestack[-1]]
    if token is None:
        end = ctx.comment[1] if ctx.comment is not None else len(text)
        column = len(text[:end].rstrip())
        length = 1
        found = "end of line"
    else:
        column = token.lexpos
        length = token_length(token)
        found = describe_token(token)
    message, notes = _explain(expected, token, found, parser.symstack)
    return BasicSyntaxError(
        message,
        ctx.coord(column, length),
        notes=notes + _name_of_another_dialect(text, column, ctx),
    )


def _name_of_another_dialect(text: str, column: int, ctx: LineContext) -> tuple[str, ...]:
    """A note where the statement starts with a statement word of another dialect that
    the dialect reads as a name (`DO`, `SELECT CASE` under --dialect ms, as in GW-BASIC)."""
    word = statement_word(ctx, text, column)
    if word in QBASIC_KEYWORDS and ctx.dialect == "ms":
        return (
            f"{word} is a QuickBASIC statement (--dialect qbasic): a name in {ctx.dialect_name()}",
        )
    unsupported = UNSUPPORTED.get(word)
    if unsupported is None or unsupported.kind != "statement":
        return ()
    note = f"{word} is a {unsupported.dialect} statement (not supported): a name in {ctx.dialect_name()}"
    return (note,)


def describe_token(token) -> str:
    kind = token.type
    if kind in _PUNCTUATION:
        return f"'{_PUNCTUATION[kind]}'"
    if kind == "NAME":
        return f"name '{token.value}'"
    if kind == "NUMBER":
        return f"number {token.value}"
    if kind == "STRING":
        return f'string "{token.value}"'
    if kind == "FUNC":
        return f"function {token.value}"
    if kind == "FNNAME":
        return f"function {token.value}"
    return token.value if kind == "MOD_TIMES" else kind  # a keyword


def _explain(expected, token, found: str, symstack) -> tuple[str, tuple[str, ...]]:
    kind = None if token is None else token.type
    if "PRINT" in expected:  # the start of a statement
        return f"expected a statement, found {found}", ()
    if kind == "RPAREN" and "RPAREN" not in expected:
        if _EXPRESSION_PLACE <= expected.keys():
            return "expected expression, found ')'", ()
        return "unexpected ')'", ()
    if "RPAREN" in expected:
        opening = _open_parenthesis(symstack)
        if opening is not None:
            return "missing ')'", (f"the '(' it should close is at column {opening.lexpos + 1}",)
    # After a complete expression a binary operator may come (TIMES: PLUS and MINUS may
    # also start one; and where PRINT items may follow each other, so may NUMBER).
    after_expression = "TIMES" in expected
    if _EXPRESSION_PLACE <= expected.keys() and kind not in expected and not after_expression:
        return f"expected expression, found {found}", ()
    if after_expression:  # what was it part of?
        return _after_expression(symstack, found), ()
    if "EQ" in expected:
        return f"expected '=', found {found}", ()
    if "NUMBER" in expected and "NAME" in expected and "LPAREN" not in expected:
        # after GOTO / GOSUB (a name there is QuickBASIC's label)
        return f"expected a line number, found {found}", ()
    if "NAME" in expected:
        return f"expected a variable name, found {found}", ()
    if "FNNAME" in expected:
        return f"expected a function name (FN and a letter), found {found}", ()
    if "NUMBER" in expected:
        return f"expected a line number, found {found}", ()
    if token is None:
        return "unexpected end of line", ()
    return f"unexpected {found}", ()


# Statement keywords whose rule is still open on the stack say what comes next.
_OPENERS = frozenset(("IF", "ELSEIF", "FOR", "ON", "PRINT"))


def _after_expression(symstack, found: str) -> str:
    """LALR shares the states that end an expression between all statements, so the
    lookahead set cannot tell "expected THEN" from "expected TO"; the stack can."""
    seen: set[str] = set()
    for sym in reversed(symstack):
        kind = sym.type
        if kind in _OPENERS:
            if kind in ("IF", "ELSEIF") and not seen & {"THEN", "GOTO"}:
                return f"expected THEN, found {found}"
            if kind == "FOR" and "TO" not in seen:
                return f"expected TO, found {found}"
            if kind == "ON" and not seen & {"GOTO", "GOSUB"}:
                return f"expected GOTO or GOSUB, found {found}"
            if kind == "PRINT":
                return f"expected ',' or ';' between PRINT items, found {found}"
            break
        seen.add(kind)
    return f"unexpected {found}"


def _open_parenthesis(symstack):
    """The innermost '(' still waiting for its ')' (terminals stay on PLY's stack)."""
    for sym in reversed(symstack):
        if sym.type == "LPAREN" and hasattr(sym, "lexpos"):
            return sym
    return None
