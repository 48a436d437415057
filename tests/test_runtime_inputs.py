"""INPUT reply parsing.  The NBS INPUT programs (P107-P112) have no bas55 output in the
corpus, so the expected results below follow ECMA-55 section 13 and bas55 2.0's INPUT
code (vm.c input_*_op, datalex.c), and were checked against a build of bas55 2.0."""

from __future__ import annotations

import pytest

from transpiler.runtime import NUMBER, STRING, ReplyRejected, parse_reply

N, S = NUMBER, STRING


@pytest.mark.parametrize(
    "reply, kinds, values",
    [
        ("1", [N], [1.0]),
        ("  -2.5 ,  +.5,1E5  ", [N, N, N], [-2.5, 0.5, 100000.0]),
        ("1E-999", [N], [0.0]),  # underflow: zero (P111)
        ("HELLO WORLD  , 12", [S, S], ["HELLO WORLD", "12"]),  # unquoted: trailing spaces go
        ('" A, B ",3', [S, N], [" A, B ", 3.0]),  # quoted: kept as is, commas too
        ('""', [S], [""]),
        ("abc", [S], ["ABC"]),  # folded to upper case
        ('"it"', [S], ["IT"]),  # even inside quotes
        ("+-.", [S], ["+-."]),
        ("X" * 18, [S], ["X" * 18]),
    ],
)
def test_accepted_replies(reply, kinds, values):
    assert parse_reply(reply, kinds) == values


@pytest.mark.parametrize(
    "reply, kinds, message",
    [
        ("", [N], "insuficient input data"),  # bas55's spelling
        ("1", [N, N], "insuficient input data"),
        ("1,", [N, N], "insuficient input data"),
        ("1,2", [N], "too much input data"),
        ("1,", [N], "too much input data"),
        ("ABC", [N], "type mismatch for variable"),
        ('"1"', [N], "type mismatch for variable"),
        ("-", [N], "type mismatch for variable"),
        ("1 2", [N], "syntax error"),
        ("1.2.3", [N], "syntax error"),
        ("3E2X", [N], "syntax error"),
        (",1", [N], "syntax error"),
        ("1,,2", [N, N], "syntax error"),
        ("(1)", [N], "syntax error"),
        ('"AB"C', [S], "syntax error"),
        ("IT'S", [S], "syntax error"),
        ("@", [S], "invalid characters found (@)"),
        ("A\tB", [S], "invalid characters found (\t)"),
        ("É", [S], "invalid characters found (É)"),
        ("1E999", [N], "numeric constant overflow (1E999)"),
        ("2,  -1E999", [N, N], "numeric constant overflow (  -1E999)"),  # with its spaces
        ('"ABC', [S], "string not terminated"),
        ("X" * 19, [S], "string datum contains too many characters"),
        ("1" * 73, [S], "line too long"),
    ],
)
def test_rejected_replies(reply, kinds, message):
    with pytest.raises(ReplyRejected) as caught:
        parse_reply(reply, kinds)
    assert str(caught.value) == message


def test_a_72_character_reply_is_not_too_long():
    assert parse_reply("1" + " " * 71, [N]) == [1.0]


def test_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError):
        parse_reply("1", ["integer"])
