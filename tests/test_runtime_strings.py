"""Microsoft's string functions and INPUT replies in the Python runtime (stringfns.py,
ms_inputs.py, console.py), case by case.

Expected values are GW-BASIC's as PC-BASIC 2.0.8 prints them (oracle runs of these
expressions, noted 2026-12-03), except the two documented deviations in stringfns.py's
docstring, marked below.  test_cpp_runtime_strings.py holds b2t_runtime.h to the same
answers; test_ms_strings.py runs the functions through the three engines and against
PC-BASIC itself.
"""

from __future__ import annotations

import io
import math

import numpy
import pytest

from transpiler.runtime import (
    ASC,
    CHRS,
    HEXS,
    INSTR,
    LCASES,
    LEFTS,
    LEN,
    MIDS,
    NUMBER,
    OCTS,
    RIGHTS,
    SPACES,
    STRING,
    STRINGS,
    STRS,
    UCASES,
    VAL,
    BasicFault,
    Console,
    ReplyRejected,
    concat,
    mid_assign,
    set_warning_hook,
    spc,
    tab,
)
from transpiler.runtime.dialect import running_dialect
from transpiler.runtime.ms_inputs import parse_ms_reply

IFC, OVERFLOW, TOO_LONG = "Illegal function call", "Overflow", "String too long"


def fails(message: str, function, *args) -> None:
    with pytest.raises(BasicFault) as info:
        function(*args)
    assert info.value.message == message


def test_substrings():
    assert (MIDS("HELLO", 2), MIDS("HELLO", 2, 2), MIDS("HELLO", 9)) == ("ELLO", "EL", "")
    assert (MIDS("ABC", 2, 0), MIDS("ABC", 2, 255), MIDS("ABC", 255)) == ("", "BC", "")
    assert (LEFTS("AB", 5), LEFTS("ABC", 255), LEFTS("", 3)) == ("AB", "ABC", "")
    assert (RIGHTS("ABC", 0), RIGHTS("ABC", 2), RIGHTS("ABC", 5)) == ("", "BC", "ABC")
    # Counts round halves away from zero, as GW-BASIC's CINT.
    assert (LEFTS("ABCD", 2.5), LEFTS("ABCD", 1.49), RIGHTS("ABCD", 2.5)) == ("ABC", "A", "BCD")
    assert MIDS("ABCD", 1.5, 1.5) == "BC"
    assert RIGHTS("ABC", -0.4) == ""


@pytest.mark.parametrize(
    "function, args, message",
    [
        (MIDS, ("ABC", 0), IFC),
        (MIDS, ("ABC", 1, -1), IFC),
        (MIDS, ("ABC", 256), IFC),
        (MIDS, ("ABC", 2, 256), IFC),
        (LEFTS, ("ABC", -1), IFC),
        (LEFTS, ("ABC", 256), IFC),
        (LEFTS, ("A", 40000), OVERFLOW),
        (LEFTS, ("A", 32767.5), OVERFLOW),
        (LEFTS, ("A", math.nan), OVERFLOW),
        (RIGHTS, ("ABC", 256), IFC),
        (CHRS, (256,), IFC),
        (CHRS, (-1,), IFC),
        (CHRS, (-0.5,), IFC),  # rounds to -1
        (ASC, ("",), IFC),
        (SPACES, (256,), IFC),
        (SPACES, (-1,), IFC),
        (STRINGS, (256, "A"), IFC),
        (STRINGS, (2, 321), IFC),
        (INSTR, (0, "ABC", "B"), IFC),
        (INSTR, (256, "A", "A"), IFC),
        (HEXS, (65535.5,), OVERFLOW),
        (HEXS, (-32769,), OVERFLOW),  # PC-BASIC wraps this one to 7FFF (stringfns.py)
        (VAL, ("&H10000",), OVERFLOW),
        (VAL, ("1E400",), OVERFLOW),
        (concat, ("X" * 200, "Y" * 56), TOO_LONG),
        (mid_assign, ("HELLO", 6, None, "Z"), IFC),
        (mid_assign, ("HELLO", 0, None, "Z"), IFC),
        (mid_assign, ("", 1, None, "Z"), IFC),
    ],
)
def test_microsoft_errors(function, args, message):
    fails(message, function, *args)


def test_characters_and_codes():
    assert (CHRS(65.5), CHRS(65.4), CHRS(0), CHRS(255)) == ("B", "A", "\x00", "\xff")
    assert (ASC("A"), ASC("\x00"), ASC("\xff"), ASC("é")) == (65.0, 0.0, 255.0, 233.0)
    assert (LEN(""), LEN("\x00"), LEN("é€")) == (0.0, 1.0, 2.0)  # characters, not bytes
    assert (SPACES(0), SPACES(2)) == ("", "  ")
    assert (STRINGS(3, "XY"), STRINGS(2, 65), STRINGS(2, ""), STRINGS(0, "A")) == (
        "XXX",
        "AA",
        "",
        "",
    )
    assert concat("X" * 200, "Y" * 55) == "X" * 200 + "Y" * 55
    assert (UCASES("abC1é"), LCASES("DeF")) == ("ABC1é", "def")  # ASCII letters only


def test_instr():
    assert (INSTR("ABCABC", "C"), INSTR(4, "ABCABC", "C"), INSTR("ABC", "ABCD")) == (3, 6, 0)
    # An empty pattern is found at the start, if that is inside the text.
    assert (INSTR("ABC", ""), INSTR(2, "ABC", ""), INSTR(3, "ABC", "")) == (1, 2, 3)
    assert (INSTR(4, "ABC", ""), INSTR(5, "ABC", ""), INSTR("", "")) == (0, 0, 0)
    assert INSTR(255, "A", "A") == 0


def test_numbers_as_text():
    assert (STRS(5), STRS(-5), STRS(0), STRS(0.5), STRS(-0.25)) == (" 5", "-5", " 0", " .5", "-.25")
    assert (HEXS(255), HEXS(-1), HEXS(65535), HEXS(-32768), HEXS(2.5)) == (
        "FF",
        "FFFF",
        "FFFF",
        "8000",
        "3",
    )
    assert (OCTS(8), OCTS(-1), OCTS(0), HEXS(1.5)) == ("10", "177777", "0", "2")


@pytest.mark.parametrize(
    "text, value",
    [
        ("  &H1F", 31),
        ("12ABC", 12),
        (" 1 2 3", 123),  # blanks are ignored anywhere
        ("1.2.3", 1.23),  # a second point is skipped (PC-BASIC)
        ("&HFFFF", -1),
        ("&H7FFF", 32767),
        ("&H", 0),
        ("&hff", 255),
        ("&o7", 7),
        ("&17", 15),
        ("&O 17", 15),
        ("&H FF", 255),
        ("&HFFZ", 255),  # PC-BASIC: Illegal function call (stringfns.py)
        ("1D2", 100),
        ("1,000", 1),
        (".", 0),
        ("-", 0),
        ("", 0),
        ("12%", 12),
        ("12#", 12),
        ("1E", 1),
        ("1E+", 1),
        ("  +3", 3),
        (" - 5", -5),
        ("-.5E-1X", -0.05),
        ("\t5", 5),
        ("\n5", 5),
        ("\r7", 0),
        ("1\x1c2", 0),  # an ASCII separator makes it 0
        ("1E38", 1e38),
        ("1E-400", 0),
    ],
)
def test_val(text, value):
    assert VAL(text) == value


def test_the_mid_statement():
    assert mid_assign("HELLO", 2, None, "XYZW") == "HXYZW"
    assert mid_assign("HXYZW", 1, 1, "QQ") == "QXYZW"
    assert mid_assign("QXYZW", 5, None, "12") == "QXYZ1"  # never past the end
    assert mid_assign("ABC", 2, 0, "Z") == "ABC"


# --------------------------------------------------------------------------- INPUT


N, S = NUMBER, STRING


@pytest.mark.parametrize(
    "reply, kinds, values",
    [
        ("3,4", [N, N], [3, 4]),
        ("  hello world  ", [S], ["hello world"]),  # trimmed, case kept
        (' "a,b" , c d ', [S, S], ["a,b", "c d"]),
        ("1 2", [N], [12]),
        ("", [N], [0]),
        ("-", [N], [0]),
        (".", [N], [0]),
        ("1e3", [N], [1000]),
        ("&H10", [N], [16]),
        ("1d2", [N], [100]),
        ("+5", [N], [5]),
        ("1.5.5", [N], [float(numpy.float32(1.55))]),  # a single: its text's type
        (" 3 ", [N], [3]),
        ('a"b', [S], ['a"b']),  # a quote inside an unquoted string
        ("", [S], [""]),
    ],
)
def test_microsoft_replies(reply, kinds, values):
    assert parse_ms_reply(reply, kinds) == values


@pytest.mark.parametrize(
    "reply, kinds",
    [
        ("1,x", [N, N]),
        ("1", [N, N]),  # too few
        ("1,2", [N]),  # too many
        ("1,", [N]),
        (",1", [N]),
        ("12abc", [N]),
        ("--1", [N]),
        ('"ab"cd', [S]),
        ("&H10000", [N]),
    ],
)
def test_microsoft_replies_that_are_asked_again(reply, kinds):
    with pytest.raises(ReplyRejected):
        parse_ms_reply(reply, kinds)


def test_a_number_too_large_is_an_overflow_warning():
    seen = []
    previous = set_warning_hook(seen.append)
    try:
        # the texts are singles (no D, no #): GW-BASIC's largest single, as PC-BASIC
        largest = 1.7014117331926443e38
        assert parse_ms_reply("1E400, -1E400", [N, N]) == [largest, -largest]
    finally:
        set_warning_hook(previous)
    assert [n.message for n in seen] == ["Overflow", "Overflow"]


def microsoft_console(stdin: str) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    with running_dialect("ms"):  # a console made now has Microsoft's rules
        return Console(out, io.StringIO(stdin), strict=False), out


def test_redo_from_start_on_standard_output():
    console, out = microsoft_console("1,x\n1\n3,4\n")
    assert console.input("NUM", [N, N]) == [3, 4]
    assert out.getvalue() == "NUM? ?Redo from start\nNUM? ?Redo from start\nNUM? "
    assert console.column == 0


def test_prompt_forms():
    console, out = microsoft_console("A\nB\n7\n")
    console.input("STR", [S], question=False)  # INPUT "STR", A$
    console.input(None, [S])
    console.input(None, [N], stay=True)  # INPUT; X: the line goes on after the prompt
    assert out.getvalue() == "STR? ? "
    assert console.column == 2


def test_line_input_and_inkey():
    console, out = microsoft_console("AB\n" + "x" * 300 + '\nlast, "line"\n')
    assert [console.inkey(), console.inkey(), console.inkey()] == ["A", "B", "\r"]
    assert console.line_input("LI? ") == "x" * 255  # GW-BASIC's line length
    assert console.line_input(None) == 'last, "line"'
    assert console.inkey() == ""
    with pytest.raises(BasicFault):
        console.line_input(None)  # end of input
    assert out.getvalue() == "LI? "


def test_spc_and_microsofttab():
    console, out = microsoft_console("")
    console.print("A", spc(3), "B", spc(0), "C")
    console.print("X", tab(5), "Y", tab(3), "Z")
    console.print("X", tab(-1), "Y", tab(0), "Z", tab(200), "W")
    console.print("B" * 78, spc(5), "C")
    console.print(spc(-1), "D", spc(300), "E")
    assert out.getvalue().splitlines() == [
        "A   BC",
        "X   Y",
        "  Z",
        "X" + " " * 13 + "Y",  # TAB(-1) is TAB(65535): column 15
        "Z" + " " * 38 + "W",
        # Spaces past the margin go on a new line here (PC-BASIC's screen wraps there,
        # without a line break in its output stream).
        "B" * 78 + "  ",
        "   C",
        " " * 15 + "D" + " " * 60 + "E",  # SPC(-1): 65535 MOD 80
    ]
