"""Crunched lines and empty statements, as the Microsoft BASICs of the 1970s read them.

A line is read with whole-word reserved words first (as GW-BASIC reads it: `TOTAL`,
`LENGTH`, `FORMAT` are variables).  Only if that does not parse is it read as Altair
BASIC and MBASIC crunched it, finding reserved words anywhere outside strings and
remarks: `FORI=1TO3` is `FOR I=1 TO 3`.  Outside --dialect ms every reserved word found
inside a word must be needed (`IFSCORE>1THEN9` is an error there: SCORE or SC OR E?).
Locations stay those of the text as written.

Oracle: PC-BASIC 2.0.8 (tests/pcbasic_oracle.py) rejects crunched keywords, as GW-BASIC
does; it runs the hand-spaced twin of each crunched program here, and the empty
statements, `?` and `PRINT"X"` as they are.  Every program also runs through the
generated cuTile Python and CUDA C++ (on the CPU), which must agree with the interpreter.
"""

from __future__ import annotations

import pytest

from tests.differential import interpret
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic
from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.frontend.parser import parse
from transpiler.ir import ast
from transpiler.options import Options

from .test_ms_numbers import TARGETS, run_everywhere


def statements(text: str, std: str | None = None) -> list[ast.Stmt]:
    """The statements of `text`, parsed under --dialect `std` (None: not chosen)."""
    program = parse(SourceFile("c.bas", text), Options(std=std))
    return [s for line in program.lines for s in line.statements]


def same_program(crunched: str, spaced: str, std: str | None = None) -> None:
    """`crunched` parses to the tree of `spaced` (locations aside)."""

    def shape(text: str) -> list[str]:
        return [repr(s) for s in statements(text, std)]

    assert shape(crunched) == shape(spaced)


@pytest.mark.parametrize(
    "crunched, spaced",
    [
        ("10 FORI=1TO3:NEXTI\n", "10 FOR I=1 TO 3:NEXT I\n"),
        ("10 IFA>BTHEN100\n100 END\n", "10 IF A>B THEN 100\n100 END\n"),
        ("10 GOTO100\n100 END\n", "10 GOTO 100\n100 END\n"),
        ("10 GOSUB100:END\n100 RETURN\n", "10 GOSUB 100:END\n100 RETURN\n"),
        ("10 X=1ANDC1\n", "10 X=1 AND C1\n"),
        ("10 IF C1>=1ANDC1<9 THEN 20\n20 END\n", "10 IF C1>=1 AND C1<9 THEN 20\n20 END\n"),
        ("10 FORD=1TO9:NEXTD\n", "10 FOR D=1 TO 9:NEXT D\n"),
        ("10 FOR I=Q1-1TOQ1+1:NEXT I\n", "10 FOR I=Q1-1 TO Q1+1:NEXT I\n"),
        ("10 FORX1=1TO9STEP2:NEXTX1\n", "10 FOR X1=1 TO 9 STEP 2:NEXT X1\n"),
        ('10 IFX$="A"THENPRINTX$\n', '10 IF X$="A" THEN PRINT X$\n'),
        ("10 PRINTINT(X)\n", "10 PRINT INT(X)\n"),
        ("10 X=1:REMARKABLE\n", "10 X=1:REM ARKABLE\n"),
        ("10 REMARKABLE PROGRAM\n", "10 REM ARKABLE PROGRAM\n"),
        ('10 PRINT"X";A$\n', '10 PRINT "X";A$\n'),
        ("10 ON X GOTO100,200\n100 END\n200 END\n", "10 ON X GOTO 100,200\n100 END\n200 END\n"),
        # A reserved word right after another one is needed (no name can hold it).
        ("10 IFX=1THENPRINTINT(X)\n", "10 IF X=1 THEN PRINT INT(X)\n"),
        # Words of other BASICs (DO, SUB, MAT, TILE) stay in names: MBASIC had none.
        ("10 FORI=1TODOG:NEXTI\n", "10 FOR I=1 TO DOG:NEXT I\n"),
        ("10 IFSUBTL>1THEN20\n20 END\n", "10 IF SUBTL>1 THEN 20\n20 END\n"),
    ],
)
@pytest.mark.parametrize("std", [None, "extended", "ms"])
def test_crunched_lines_read_as_their_spaced_twins(crunched, spaced, std):
    same_program(crunched, spaced, std)


def test_question_mark_is_print_without_spaces():
    same_program('10 ?"X";1\n', '10 PRINT "X";1\n', "ms")
    same_program("10 FORI=1TO2:?I:NEXTI\n", "10 FOR I=1 TO 2:PRINT I:NEXT I\n", "ms")


def test_microsoft_basic_finds_reserved_words_anywhere():
    # MBASIC and Altair BASIC read IFSCORE>1THEN20 as IF SC OR E>1 THEN 20 (names had
    # two significant letters); --dialect ms reads it so.
    same_program("10 IFSCORE>1THEN20\n20 END\n", "10 IF SC OR E>1 THEN 20\n20 END\n", "ms")


@pytest.mark.parametrize("std", [None, "extended", "dartmouth"])
def test_a_reserved_word_a_name_could_hold_is_ambiguous_outside_ms(std):
    with pytest.raises(CompileErrors) as info:
        statements("10 SC=1\n20 IFSCORE>1THEN40\n40 END\n", std)
    [error] = info.value.errors
    assert (error.coord.line, error.coord.column, error.coord.length) == (2, 8, 2)
    assert error.message == (
        "ambiguous without spaces: OR here can be a reserved word or part of a name"
    )
    assert any("--dialect ms" in note for note in error.notes)


def test_whole_words_come_first():
    # GW-BASIC's reading: names that contain reserved words stay names when the line
    # parses that way (as TOTAL, FORMAT, SCORE and ONE do here; DEFFNA(X) = ... is an
    # array element in GW-BASIC too).
    [*lets] = statements("10 TOTAL=1: FORMAT=2: SCORE=3: ONE=TOTAL+FORMAT: DEFFNA(X)=X\n")
    assert [s.target.name for s in lets] == ["TOTAL", "FORMAT", "SCORE", "ONE", "DEFFNA"]


@requires_pcbasic
def test_whole_words_are_gw_basic_s_reading():
    program = "10 LETX=10:SCORE=3:PRINT LETX;X;SCORE\n"
    assert run_everywhere(program).stdout == pcbasic_output(program) == " 10  0  3 \n"


# A program of the crunched era: once one line needs reserved words inside words, every
# line is read so where it parses (LETX=10 is LET X=10, as in MBASIC).
CRUNCHED_ERA = '10 LETX=10\n20 IFX=10THEN40\n30 PRINT"NO":END\n40 PRINT"YES";X\n'


def test_a_crunched_program_is_crunched_throughout_in_ms():
    assert run_everywhere(CRUNCHED_ERA).stdout == "YES 10 \n"


@pytest.mark.parametrize("std", [None, "extended"])
def test_a_crunched_program_with_a_line_read_both_ways_is_an_error_outside_ms(std):
    with pytest.raises(CompileErrors) as info:
        statements(CRUNCHED_ERA, std)
    [error] = info.value.errors
    assert (error.coord.line, error.coord.column, error.coord.length) == (1, 4, 3)
    assert error.message.startswith("ambiguous without spaces: LET")
    assert "line 2 of the file reads reserved words inside words" in error.notes


def test_the_crunched_reading_pins_no_dialect():
    analysis = driver.front_end(SourceFile("c.bas", "10 FORI=1TO3:PRINTI:NEXTI\n"), Options())
    assert analysis.options.dialect == "extended" and analysis.notes == []


def test_when_neither_reading_parses_the_first_one_s_error_is_reported():
    with pytest.raises(CompileErrors) as info:
        statements("10 FORI=1TO3 X\n")
    [error] = info.value.errors
    assert (error.coord.column, error.message) == (10, "unexpected name 'TO3'")


def test_under_ms_a_line_neither_reading_parses_stops_when_it_runs():
    """GW-BASIC's Syntax error comes when the statement runs (tests/test_ms_loading.py):
    the statement is a Fault, located where the text is written."""
    [fault] = statements("10 FORI=1TO3 X\n", "ms")
    assert isinstance(fault, ast.Fault) and fault.message == "Syntax error"
    assert (fault.coord.column, fault.coord.length) == (4, 11)
    first, fault = statements('10 PRINT"A":X==5\n', "ms")
    assert isinstance(first, ast.Print) and isinstance(fault, ast.Fault)


def test_strict_ecma55_reads_whole_words_only():
    with pytest.raises(CompileErrors):
        statements("10 GOTO100\n100 END\n", "ecma55")


def test_locations_point_at_the_text_as_written():
    text = "10 FORI=1TO2:X=I/0:NEXTI\n20 END\n"
    run = interpret(driver.front_end(SourceFile("c.bas", text), Options()))
    assert run.stderr.count("c.bas:1:14: warning: division by zero") == 2


def test_compile_errors_in_a_crunched_line_point_at_the_text_as_written():
    source = SourceFile("c.bas", "10 FORI=1TOA$:NEXTI\n")
    with pytest.raises(CompileErrors) as info:
        driver.front_end(source, Options(std="ms"))
    [error] = info.value.errors
    assert (error.coord.column, error.coord.length) == (12, 2)
    assert "numeric expression expected" in error.message
    assert error.render(source).splitlines()[1:] == ["    10 FORI=1TOA$:NEXTI", "               ^^"]


# --------------------------------------------------------------------------- empty statements


@pytest.mark.parametrize(
    "text, spaced",
    [
        ("10 X=5::PRINT X\n", "10 X=5:PRINT X\n"),
        ("10 X=5: :PRINT X:\n", "10 X=5:PRINT X\n"),
        ("10 :PRINT X\n", "10 PRINT X\n"),
        ("10 PRINT X: ' A REMARK\n", "10 PRINT X ' A REMARK\n"),
        ("10 IF X THEN PRINT X::PRINT\n", "10 IF X THEN PRINT X:PRINT\n"),
        ("10 ::PRINT X\n", "10 PRINT X\n"),
        ("10 IF X THEN :PRINT X\n", "10 IF X THEN PRINT X\n"),
        ("10 IF X THEN 20 ELSE :PRINT X\n20 END\n", "10 IF X THEN 20 ELSE PRINT X\n20 END\n"),
    ],
)
def test_empty_statements_are_nothing(text, spaced):
    same_program(text, spaced)


def test_a_line_of_empty_statements_is_a_line_to_jump_to():
    [line] = parse(SourceFile("c.bas", "10 : :\n"), Options()).lines
    assert [(type(s).__name__, s.text, s.coord.column) for s in line.statements] == [("Rem", "", 4)]


def test_strict_ecma55_has_no_empty_statement():
    with pytest.raises(CompileErrors):
        statements("10 PRINT 1:\n20 END\n", "ecma55")


# --------------------------------------------------------------------------- running them

# Per form: (the crunched program, its hand-spaced twin for PC-BASIC, what PC-BASIC
# printed running the twin).  Empty statements, `?` and PRINT"X" PC-BASIC runs as written.
FORMS = {
    "for-to": (
        "10 FORI=1TO3:PRINTI;:NEXTI:PRINT\n20 FOR I=Q1-1TOQ1+1:PRINT I;:NEXT:PRINT\n",
        "10 FOR I=1 TO 3:PRINT I;:NEXT I:PRINT\n20 FOR I=Q1-1 TO Q1+1:PRINT I;:NEXT:PRINT\n",
        " 1  2  3 \n-1  0  1 \n",
    ),
    "ford": (
        "10 FORD=1TO9STEP4:PRINTD;:NEXTD:PRINTD\n",
        "10 FOR D=1 TO 9 STEP 4:PRINT D;:NEXT D:PRINT D\n",
        " 1  5  9  13 \n",
    ),
    "if-then-line": (
        '10 A=2:B=1:IFA>BTHEN30\n20 PRINT"NO"\n30 PRINT"YES":IFB>ATHEN20\n',
        '10 A=2:B=1:IF A>B THEN 30\n20 PRINT"NO"\n30 PRINT"YES":IF B>A THEN 20\n',
        "YES\n",
    ),
    "goto-gosub": (
        '10 GOSUB40:GOTO30\n20 PRINT"SKIPPED"\n30 PRINT"DONE":END\n40 PRINT"SUB":RETURN\n',
        '10 GOSUB 40:GOTO 30\n20 PRINT"SKIPPED"\n30 PRINT"DONE":END\n40 PRINT"SUB":RETURN\n',
        "SUB\nDONE\n",
    ),
    "and-or": (
        "10 FORC1=0TO10STEP5:IF C1>=1ANDC1<9 THEN PRINTC1;\n20 X=C1ORC1=0:NEXT:PRINTX\n",
        (
            "10 FOR C1=0 TO 10 STEP 5:IF C1>=1 AND C1<9 THEN PRINT C1;\n"
            "20 X=C1 OR C1=0:NEXT:PRINT X\n"
        ),
        " 5  10 \n",
    ),
    "remarkable": (
        "10 REMARKABLE PROGRAM BY DAVID AHL\n20 PRINT 1:REMARKS\n",
        "10 REM ARKABLE PROGRAM BY DAVID AHL\n20 PRINT 1:REM ARKS\n",
        " 1 \n",
    ),
    "empty-statements": (
        (
            "10 :\n20 X=5::PRINT X:\n30 PRINT X+1: '\n40 IF X THEN :PRINT 7\n50 : :GOTO 70\n"
            "60 PRINT 9\n70 :\n"
        ),
        None,
        " 5 \n 6 \n 7 \n",
    ),
    "question-mark": ('10 ?"X";:?1\n20 PRINT"Y"\n', None, "X 1 \nY\n"),
    # The name after GOSUB's line number is never read (GW-BASIC, and PC-BASIC on the
    # twin, where GOSUB is a word of its own).
    "glued-line-number": (
        '10 GOSUB100MEDIAN:PRINT"B":END\n100 PRINT"SUB":RETURN\n',
        '10 GOSUB 100MEDIAN:PRINT"B":END\n100 PRINT"SUB":RETURN\n',
        "SUB\nB\n",
    ),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_runs_alike_in_the_interpreter_and_both_targets(form):
    crunched, _, printed = FORMS[form]
    assert run_everywhere(crunched).stdout == printed


@requires_pcbasic
@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_prints_what_pcbasic_prints(form):
    crunched, spaced, _ = FORMS[form]
    assert run_everywhere(crunched).stdout == pcbasic_output(spaced or crunched)


def test_a_crunched_program_runs_alike_everywhere_without_a_dialect():
    crunched = (
        "10 FORI=1TO3:PRINTI;:NEXTI:PRINT\n"
        "20 A=2:B=1:IFA>BTHEN40\n"
        '30 PRINT"NO"\n'
        '40 PRINT"YES":REMARKABLE\n'
        "50 X=5::PRINT X:\n"
        "60 FOR I=X-1TOX+1:PRINT I;:NEXT:PRINT\n"
        "70 GOTO90\n"
        '80 PRINT"SKIPPED"\n'
        '90 PRINT"DONE" : \'\n'
    )
    analysis = driver.front_end(SourceFile("c.bas", crunched), Options())
    assert analysis.options.dialect == "extended"
    reference = interpret(analysis)
    assert reference.stdout == " 1  2  3 \nYES\n 5 \n 4  5  6 \nDONE\n"
    for target in TARGETS:
        code = driver.generate(analysis, target)
        assert driver.run(analysis, code, target, "cpu", stdin="").stdout == reference.stdout
