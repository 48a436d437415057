"""The lexer on single lines: token kinds, values, positions and lexical errors."""

from __future__ import annotations

import pytest

from transpiler.errors import BasicSyntaxError
from transpiler.frontend.lexer import KEYWORDS, DataText, tokenize
from transpiler.language.builtins import FUNCTION_NAMES


def kinds(text: str, **kw) -> list[str]:
    return [t.type for t in tokenize(text, **kw)]


def values(text: str, **kw) -> list:
    return [t.value for t in tokenize(text, **kw)]


def lex_error(text: str, **kw) -> BasicSyntaxError:
    with pytest.raises(BasicSyntaxError) as info:
        tokenize(text, **kw)
    return info.value


@pytest.mark.parametrize("text", ["1", "1.5", ".5", "1E10", "1.5E-3", "5.", "30.E-1", "2e+7"])
def test_numeric_constants_are_one_token_keeping_their_spelling(text):
    [tok] = tokenize(text)
    assert (tok.type, tok.value) == ("NUMBER", text)


def test_a_number_glued_to_a_keyword_ends_before_it():
    # `X=10THEN 330` is accepted by bas55 (NBS program 190).
    assert kinds("X=10THEN 330") == ["NAME", "EQ", "NUMBER", "THEN", "NUMBER"]
    assert values("1E5E")[0] == "1E5"


def test_keywords_and_names_are_case_insensitive_and_upper_cased():
    toks = tokenize("print Total, a$; fnSq(x)")
    assert [(t.type, t.value) for t in toks] == [
        ("PRINT", "PRINT"),
        ("NAME", "TOTAL"),
        ("COMMA", ","),
        ("NAME", "A$"),
        ("SEMI", ";"),
        ("FNNAME", "FNSQ"),
        ("LPAREN", "("),
        ("NAME", "X"),
        ("RPAREN", ")"),
    ]


def test_name_suffixes_and_underscores():
    assert values("COUNT% = MY_VAR1 + A1$") == ["COUNT%", "=", "MY_VAR1", "+", "A1$"]
    assert kinds("PRINTX") == ["NAME"]  # no keyword hidden inside a longer name


def test_builtin_function_names_are_reserved():
    assert {"SIN", "RND", "MMA", "SUM", "MAX", "MIN"} <= FUNCTION_NAMES
    assert [(t.type, t.value) for t in tokenize("sin rnd mma")] == [
        ("FUNC", "SIN"),
        ("FUNC", "RND"),
        ("FUNC", "MMA"),
    ]
    assert "SIN" not in KEYWORDS


def test_strings_keep_case_and_spaces_without_quotes():
    [tok] = tokenize('"Hello, World!  "')
    assert (tok.type, tok.value, tok.lexpos) == ("STRING", "Hello, World!  ", 0)
    assert values('""') == [""]


def test_go_to_and_go_sub_may_be_spelled_with_spaces():
    assert kinds("GO TO 10") == ["GOTO", "NUMBER"]
    assert kinds("GO     SUB 10") == ["GOSUB", "NUMBER"]
    assert kinds("GOTO 10 : GOSUB 20") == ["GOTO", "NUMBER", "COLON", "GOSUB", "NUMBER"]
    assert kinds("GO = 1") == ["NAME", "EQ", "NUMBER"]


def test_operators_longest_first():
    assert kinds("<= >= <> < 1 > 2 = + - * / ^ ( ) , ; : 1") == [
        "LE",
        "GE",
        "NE",
        "LT",
        "NUMBER",
        "GT",
        "NUMBER",
        "EQ",
        "PLUS",
        "MINUS",
        "TIMES",
        "DIVIDE",
        "POW",
        "LPAREN",
        "RPAREN",
        "COMMA",
        "SEMI",
        "COLON",
        "NUMBER",
    ]


def test_token_positions_are_0_based_offsets_in_the_line():
    assert [t.lexpos for t in tokenize("10 LET AB = 1")] == [0, 3, 7, 10, 12]


def test_rem_takes_the_rest_of_the_line_as_text():
    toks = tokenize("REM  This: \"is\" all 'one' remark ")
    assert [(t.type, t.value) for t in toks] == [("REM", "This: \"is\" all 'one' remark")]
    assert kinds("X = 1 : REM X: Y") == ["NAME", "EQ", "NUMBER", "COLON", "REM"]


def test_remark_glued_to_rem_is_a_comment_only_in_strict_mode():
    assert kinds("REMARK", strict=True) == ["REM"]
    assert values("REMARK", strict=True) == ["ARK"]
    assert kinds("REMARK = 1") == ["NAME", "EQ", "NUMBER"]


def test_apostrophe_comment_produces_no_token():
    assert kinds("PRINT X ' the value: of X") == ["PRINT", "NAME"]


def test_data_is_read_raw_to_a_colon_outside_quotes_in_extended_mode():
    toks = tokenize('DATA ABC, D E F, "X:Y" : PRINT')
    assert kinds('DATA ABC, D E F, "X:Y" : PRINT') == ["DATA", "COLON", "PRINT"]
    data = toks[0].value
    assert isinstance(data, DataText)
    assert (data.text, data.start) == (' ABC, D E F, "X:Y" ', 4)


def test_data_runs_to_the_end_of_the_line_in_strict_mode():
    [tok] = tokenize("DATA 1, 2 : 3", strict=True)
    assert tok.value.text == " 1, 2 : 3"


def test_doubled_quote_inside_a_string_is_an_error():
    err = lex_error('PRINT "A""B"')
    assert "cannot contain a quote" in err.message
    assert (err.coord.column, err.coord.length) == (9, 2)


def test_unterminated_string_points_at_its_opening_quote():
    err = lex_error('PRINT "ABC', strict=True)
    assert err.message == "unterminated string"
    assert (err.coord.line, err.coord.column, err.coord.length) == (1, 7, 4)


@pytest.mark.parametrize("dialect", [None, "ms", "extended", "dartmouth"])
def test_a_string_left_open_ends_at_the_end_of_the_line(dialect):
    """As in GW-BASIC, Applesoft and Commodore BASIC (PC-BASIC prints `PRINT "Q` as Q)."""
    [_, tok] = tokenize('PRINT "A: B', dialect=dialect)
    assert (tok.type, tok.value) == ("STRING", "A: B")


@pytest.mark.parametrize(
    "text, kind",
    [("=>", "GE"), ("> =", "GE"), ("= >", "GE"), ("=<", "LE"), ("<\t=", "LE"),
     ("= <", "LE"), ("< >", "NE"), ("><", "NE"), ("> <", "NE")],
)  # fmt: skip
def test_relations_as_gw_basic_combines_them(text, kind):
    """GW-BASIC reads `<`, `=` and `>` together however written (PC-BASIC: `IF 2 = > 1`,
    `IF 1 >< 2`, `IF 3> =2` and `IF 2< >3` hold)."""
    assert [(t.type, t.value) for t in tokenize(f"1 {text} 2")] == [
        ("NUMBER", "1"), (kind, {"GE": ">=", "LE": "<=", "NE": "<>"}[kind]), ("NUMBER", "2"),
    ]  # fmt: skip


def test_brackets_are_parentheses():
    """PC-BASIC: `A[2) = 7: PRINT A(2)` prints 7."""
    assert kinds("A[1]") == ["NAME", "LPAREN", "NUMBER", "RPAREN"]


def test_a_lone_point_is_zero_in_microsoft_basic():
    """PC-BASIC: `PRINT .` prints 0."""
    assert values("PRINT .", dialect="ms")[1] == "0"
    assert values("X = .5")[2] == ".5"
    # A `.` inside a name is part of it (PC-BASIC: `A.B = 1: PRINT A.B` prints 1)
    assert values("A.B = .5", dialect="ms")[:3] == ["A.B", "=", ".5"]


def test_qbasic_long_suffix_and_record_field():
    assert kinds("X& = 1&", dialect="qbasic") == ["NAME", "EQ", "NUMBER"]
    assert values("A(1).X.Y = &HFF&", dialect="qbasic")[4:] == [".X.Y", "=", "&HFF&"]


def test_double_star_is_not_a_power_operator():
    err = lex_error("LET A=5**2")
    assert "use '^'" in err.message
    assert (err.coord.column, err.coord.length) == (8, 2)


@pytest.mark.parametrize("text, column, shown", [("A = 1 @ 2", 7, "@"), ("X = Y & 1", 7, "&")])
def test_illegal_character(text, column, shown):
    err = lex_error(text)
    assert err.message == f"unexpected character '{shown}'"
    assert err.coord.column == column


def test_control_characters_are_shown_escaped():
    assert lex_error("A = \x01").message == "unexpected character '\\x01'"


@pytest.mark.parametrize("name", ["LETX", "AB", "A1$", "COUNT%", "X_1"])
def test_strict_names_are_a_letter_and_a_digit_or_dollar(name):
    err = lex_error(f"{name} = 1", strict=True)
    assert f"'{name}' is not an ECMA-55 name" in err.message
    assert (err.coord.column, err.coord.length) == (1, len(name))


@pytest.mark.parametrize("name", ["A", "Z9", "B$"])
def test_strict_accepts_ecma55_names(name):
    assert kinds(f"{name} = 1", strict=True) == ["NAME", "EQ", "NUMBER"]


def test_function_names():
    assert values("FNA FNSQUARE FN") == ["FNA", "FNSQUARE", "FN"]
    assert kinds("FNA FNSQUARE FN") == ["FNNAME", "FNNAME", "NAME"]
    assert kinds("FNZ", strict=True) == ["FNNAME"]
    assert "not an ECMA-55 function name" in lex_error("FNSQ", strict=True).message
