"""Reserved words of the supported dialects that are not implemented: always a located
error, never an implicit array, a variable or another statement."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transpiler.builtins import BUILTINS
from transpiler.errors import BasicSyntaxError, CompileErrors, SourceFile
from transpiler.keywords import UNSUPPORTED
from transpiler.options import Options
from transpiler.parser import parse

from .conftest import ROOT

UNIMPLEMENTED_FUNCTIONS = sorted(
    name for name, b in BUILTINS.items() if b.syntax == "call" and not b.implemented
)
UNSUPPORTED_STATEMENTS = sorted(w for w, u in UNSUPPORTED.items() if u.kind == "statement")
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
        ("PRINT FRE(0)", "FRE", 10),  # printed 0
        ("RANDOMIZE TIMER", "TIMER", 14),
        ("X = CVI(A$)", "CVI", 8),
    ],
)
def test_microsoft_functions_are_located_errors_not_implicit_arrays(statement, name, column):
    err = error(f"10 {statement}\n20 END\n")
    assert described(err) == (f"unsupported function {name} (Microsoft BASIC)", column, len(name))
    assert err.notes == ()


@pytest.mark.parametrize("name", UNIMPLEMENTED_FUNCTIONS)
@pytest.mark.parametrize("std", ["extended", "ecma55"])
def test_every_unimplemented_function_is_an_error_in_every_mode(name, std):
    dialect = BUILTINS[name].dialect_name()
    err = error(f"10 LET X = {name}(1)\n20 END\n", std)
    assert described(err) == (f"unsupported function {name} ({dialect})", 12, len(name))
    err = error(KERNEL_PROGRAM.format(f"40 LET C(BID) = A(BID) + {name}(1)"))
    assert err.message == f"unsupported function {name} ({dialect})"


def test_a_function_name_used_as_a_variable_says_it_is_reserved():
    err = error("10 FRE = 3\n20 END\n")
    assert described(err) == ("unsupported function FRE (Microsoft BASIC)", 4, 3)
    assert err.notes == ("FRE is a reserved word: a variable needs another name",)
    err = error("10 LEN = 3\n20 END\n")  # implemented
    assert described(err) == ("LEN is a built-in function: a variable needs another name", 4, 3)


def test_the_command_line_reports_it_with_exit_status_1(tmp_path):
    program = tmp_path / "strs.bas"
    program.write_text('10 PRINT "A";FRE(5);"B"\n20 END\n')
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
            f"{program}:1:14: error: unsupported function FRE (Microsoft BASIC)\n"
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
        ("CLS = 3", "CLS"),  # was an assignment to a variable CLS
        ("ON ERROR GOTO 10", "ON ERROR"),  # was ON ... GOTO on a variable ERROR
        ("ON TIMER(60) GOSUB 10", "ON TIMER"),
        ('PRINT USING "##.#"; X', "PRINT USING"),
        ("DEF SEG = 0", "DEF SEG"),
        ("DEF USR0 = 0", None),  # USR0 is a name: only USR is reserved
        ("DEFINT A-Z", "DEFINT"),
        ("LINE (0, 0)-(9, 9)", "LINE"),  # graphics; LINE INPUT is implemented
        ("KEY OFF", "KEY"),
        ("END SUB", "END SUB"),
    ],
)
def test_statements_of_microsoft_basic(statement, words):
    err = error(f"10 {statement}\n")
    if words is None:
        assert "unsupported" not in err.message
    else:
        assert described(err) == (f"unsupported statement {words} (Microsoft BASIC)", 4, len(words))


def test_a_statement_after_then_or_else():
    err = error("10 IF X THEN 20 ELSE CLS\n20 END\n")
    assert described(err) == ("unsupported statement CLS (Microsoft BASIC)", 22, 3)


@pytest.mark.parametrize(
    "statement, message, column",
    [
        ("X = WIDTH + 1", "WIDTH is a reserved word of Microsoft BASIC, not a name", 8),
        ("LET LINE = 2", "LINE is a reserved word of Microsoft BASIC, not a name", 8),
        ("X = A XOR B", "unsupported operator XOR (Microsoft BASIC)", 10),
        ("IF A EQV B THEN 10", "unsupported operator EQV (Microsoft BASIC)", 9),
        ("PRINT #1, A", "file numbers ('#') are not supported (Microsoft BASIC file I/O)", 10),
        ("INPUT#1, A", "file numbers ('#') are not supported (Microsoft BASIC file I/O)", 9),
        ("X# = 1", "type suffix '#' is not supported (Microsoft BASIC double precision)", 5),
        ("X = 1#", "type suffix '#' is not supported (Microsoft BASIC double precision)", 9),
        ("X! = 2", "type suffix '!' is not supported (Microsoft BASIC single precision)", 5),
        ("X = &H1F", "'&H' and '&O' constants are not supported (Microsoft BASIC)", 8),
        ('? "HI"', "'?' for PRINT is not supported (Microsoft BASIC): write PRINT", 4),
        ("X = 7 \\ 2", "integer division '\\' is not supported (Microsoft BASIC)", 10),
    ],
)
def test_other_microsoft_syntax_is_named(statement, message, column):
    err = error(f"10 {statement}\n")
    assert (err.message, err.coord.column) == (message, column)


def test_dartmouth_words():
    assert error("10 X = DET\n").message == "unsupported function DET (Dartmouth BASIC)"
    assert error("10 CHANGE A$ TO A\n").message == "unsupported statement CHANGE (Dartmouth BASIC)"


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
