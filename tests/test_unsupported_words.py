"""Reserved words of the supported dialects that are not implemented: always a located
error, never an implicit array, a variable or another statement."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transpiler.errors import BasicSyntaxError, CompileErrors, SourceFile
from transpiler.frontend.parser import parse
from transpiler.language.builtins import BUILTINS
from transpiler.language.keywords import KEYWORDS, REASONS, UNSUPPORTED
from transpiler.options import Options

from .conftest import ROOT

UNIMPLEMENTED_FUNCTIONS = sorted(
    name for name, b in BUILTINS.items() if b.syntax == "call" and not b.implemented
)
# (TIMER is also a function, implemented: the statement is TIMER ON, OFF or STOP.)
# CALL is QuickBASIC's statement too (a keyword); GW-BASIC's CALL stays an error under
# --dialect ms (test_qbasic.py).
UNSUPPORTED_STATEMENTS = sorted(
    w
    for w, u in UNSUPPORTED.items()
    if u.kind == "statement" and w not in BUILTINS and w not in KEYWORDS
)
KERNEL_PROGRAM = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n{}\n50 OUTPUT C\n"


def error(text: str, std: str = "extended") -> BasicSyntaxError:
    with pytest.raises(CompileErrors) as info:
        parse(SourceFile("e.bas", text), Options(std=std))
    [only] = info.value.errors
    return only


def described(err: BasicSyntaxError) -> tuple[str, int, int]:
    return err.message, err.coord.column, err.coord.length


# --------------------------------------------------------------------------- functions


@pytest.mark.parametrize(
    "statement, name, column",
    [
        ("PRINT PEEK(0)", "PEEK", 10),  # printed 0
        ("PRINT CSRLIN", "CSRLIN", 10),
        ("X$ = ENVIRON$(A$)", "ENVIRON$", 9),
    ],
)
def test_microsoft_functions_are_located_errors_not_implicit_arrays(statement, name, column):
    err = error(f"10 {statement}\n20 END\n")
    assert described(err) == (f"unsupported function {name} (Microsoft BASIC)", column, len(name))
    # a note says why where the name does not (PEEK: the memory of an IBM PC)
    assert err.notes == ((f"{name} is not supported: {REASONS[name]}",) if name in REASONS else ())


@pytest.mark.parametrize("name", UNIMPLEMENTED_FUNCTIONS)
@pytest.mark.parametrize("std", ["extended", "ecma55"])
def test_every_unimplemented_function_is_an_error_in_every_mode(name, std):
    dialect = BUILTINS[name].dialect_name()
    err = error(f"10 LET X = {name}(1)\n20 END\n", std)
    assert described(err) == (f"unsupported function {name} ({dialect})", 12, len(name))
    err = error(KERNEL_PROGRAM.format(f"40 LET C(BID) = A(BID) + {name}(1)"))
    assert err.message == f"unsupported function {name} ({dialect})"


def test_a_function_name_used_as_a_variable_says_it_is_reserved():
    err = error("10 PEEK = 3\n20 END\n")
    assert described(err) == ("unsupported function PEEK (Microsoft BASIC)", 4, 4)
    assert err.notes == (
        "PEEK is a reserved word: a variable needs another name",
        "PEEK is not supported: it reads or writes the memory or ports of an IBM PC",
    )
    err = error("10 LEN = 3\n20 END\n")  # implemented
    assert described(err) == ("LEN is a built-in function: a variable needs another name", 4, 3)


def test_the_command_line_reports_it_with_exit_status_1(tmp_path):
    program = tmp_path / "strs.bas"
    program.write_text('10 PRINT "A";CSRLIN;"B"\n20 END\n')
    for mode in (["--interpret"], ["-o", str(tmp_path / "strs.py")], ["--target", "cuda"]):
        done = subprocess.run(
            [sys.executable, "-m", "transpiler", str(program), *mode],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert done.returncode == 1, mode
        assert done.stdout == ""
        assert done.stderr.startswith(
            f"{program}:1:14: error: unsupported function CSRLIN (Microsoft BASIC)\n"
        )
    assert not (tmp_path / "strs.py").exists()


# --------------------------------------------------------------------------- statements


@pytest.mark.parametrize("word", UNSUPPORTED_STATEMENTS)
def test_every_unsupported_statement_is_an_error(word):
    dialect = UNSUPPORTED[word].dialect
    for text, column in ((f"10 {word}\n", 4), (f"10 X = 1: {word} 1, 2\n", 11)):
        assert described(error(text)) == (
            f"unsupported statement {word} ({dialect})",
            column,
            len(word),
        )
    err = error(f"10 IF X THEN {word} = 1\n", "ecma55")
    assert described(err) == (f"unsupported statement {word} ({dialect})", 14, len(word))


@pytest.mark.parametrize(
    "statement, words",
    [
        ("LOCATE = 3", "LOCATE"),  # was an assignment to a variable LOCATE
        ("ON COM(1) GOSUB 10", "ON COM"),  # was ON ... GOSUB on an array COM
        ("ON TIMER(60) GOSUB 10", "ON TIMER"),
        ("LINE (1, 1)-(5, 5)", "LINE"),  # graphics; LINE INPUT is implemented
        ("POKE 1047, 0", "POKE"),
        ("DEF SEG = 0", "DEF SEG"),
        ("DEF USR0 = 0", None),  # USR0 is a name: only USR is reserved
        ("RUN", "RUN"),
    ],
)
def test_statements_of_microsoft_basic(statement, words):
    err = error(f"10 {statement}\n")
    if words is None:
        assert "unsupported" not in err.message
    else:
        assert described(err) == (f"unsupported statement {words} (Microsoft BASIC)", 4, len(words))


@pytest.mark.parametrize(
    "statement, words, column",
    [
        ("TIMER ON", "TIMER", 4),
        ("X = 1: TIMER STOP", "TIMER", 11),
        ("ON TIMER(60) GOSUB 10", "ON TIMER", 4),
    ],
)
def test_timer_the_statement_is_unsupported_timer_the_function_is_not(statement, words, column):
    err = error(f"10 {statement}\n")
    assert described(err) == (
        f"unsupported statement {words} (Microsoft BASIC)",
        column,
        len(words),
    )
    analysis = parse(SourceFile("t.bas", "10 PRINT TIMER > 0\n"), Options())
    assert analysis.microsoft_pins[0][0] == "the function TIMER"


def test_a_statement_after_then_or_else():
    err = error("10 IF X THEN 20 ELSE LOCATE 1, 1\n20 END\n")
    assert described(err) == ("unsupported statement LOCATE (Microsoft BASIC)", 22, 6)


@pytest.mark.parametrize(
    "statement, note",
    [
        ("POKE 1047, 0", "POKE is not supported: it reads or writes the memory or ports of an IBM PC"),
        ("DEF SEG = 0", "DEF SEG is not supported: it reads or writes the memory or ports of an IBM PC"),
        ("CALL X", "CALL is not supported: it calls machine code"),
        ('CHAIN "NEXT.BAS"', "CHAIN is not supported: it loads or runs another program"),
        ("X = PEEK(1047)", "PEEK is not supported: it reads or writes the memory or ports of an IBM PC"),
        ("LOCATE 1, 1", "LOCATE is not supported: it moves the cursor of a screen: the output here is a text stream"),
    ],
)  # fmt: skip
def test_machine_statements_say_why_they_are_not_supported(statement, note):
    assert error(f"10 {statement}\n20 END\n").notes[-1] == note


@pytest.mark.parametrize(
    "statement, message, column",
    [
        ("X = LOCATE + 1", "LOCATE is a reserved word of Microsoft BASIC, not a name", 8),
        ("X = WIDTH + 1", "expected expression, found WIDTH", 8),
        ("PRINT NAME", "NAME is a reserved word of Microsoft BASIC, not a name", 10),
        ("X = PLAY(1)", "unsupported function PLAY (Microsoft BASIC)", 8),
        ("LET LINE = 2", "LINE is a reserved word of Microsoft BASIC, not a name", 8),
    ],
)
def test_other_microsoft_syntax_is_named(statement, message, column):
    err = error(f"10 {statement}\n")
    assert (err.message, err.coord.column) == (message, column)


def test_dartmouth_words():
    assert error("10 X = NUM\n").message == "unsupported function NUM (Dartmouth BASIC)"


# --------------------------------------------------------------------------- names


def test_names_that_contain_a_reserved_word_are_variables():
    # As in GW-BASIC: reserved words are whole names only.
    program = parse(
        SourceFile("ok.bas", "10 LENGTH = 1: TOTAL = 2: PRINTER = 3: CLSX = LENGTH + TOTAL\n"),
        Options(),
    )
    targets = [stmt.target.name for stmt in program.lines[0].statements]
    assert targets == ["LENGTH", "TOTAL", "PRINTER", "CLSX"]


def test_reserved_words_inside_strings_remarks_and_data_are_text():
    parse(
        SourceFile(
            "ok.bas", '10 PRINT "CLS STR$(1)"\n20 REM SWAP A, B\n30 DATA CLS, LEN\n40 END\n'
        ),
        Options(),
    )
