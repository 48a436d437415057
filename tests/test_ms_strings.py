"""Strings as Microsoft BASIC has them, through the three engines: the reference
interpreter, the generated cuTile Python and the generated CUDA C++ (both on the CPU)
must print the same text, report the same errors and read input alike.

Where PC-BASIC (a GW-BASIC emulator, tests/pcbasic_oracle.py) is installed, the programs
without INPUT also run there and must print what the interpreter prints under
`--dialect ms` (the programs print strings and small integers only, whose text does not
depend on the number format).
"""

from __future__ import annotations

import io
import shutil
import textwrap

import pytest

from tests import pcbasic_oracle
from transpiler import driver
from transpiler.errors import BasicRuntimeError, CompileErrors, SourceFile
from transpiler.options import Options

TARGETS = [
    "cutile",
    pytest.param(
        "cuda", marks=pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
    ),
]
oracle = pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)


def analyse(text: str, std: str = "ms"):
    source = SourceFile("prog.bas", textwrap.dedent(text).lstrip("\n"))
    return driver.front_end(source, Options(std=std))


def interpret(analysis, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except BasicRuntimeError as exc:
        return 1, out.getvalue(), exc.message
    return status, out.getvalue(), err.getvalue()


def engines_agree(text: str, target: str, stdin: str = "", std: str = "ms") -> str:
    """The interpreter's output, after checking that `target`'s program prints the same,
    ends the same way and reports the same error."""
    analysis = analyse(text, std)
    status, out, error = interpret(analysis, stdin)
    result = driver.run(analysis, driver.generate(analysis, target), target, "cpu", stdin=stdin)
    assert (result.returncode, result.stdout) == (status, out), result.stderr
    if status:
        assert f": {error}" in result.stderr
    return out


STRING_FUNCTIONS = """
    10 A$ = "HELLO": B$ = "WORLD"
    20 PRINT LEFT$(A$, 2); RIGHT$(A$, 3); MID$(A$, 2); MID$(A$, 2, 2); "|"; MID$(A$, 9); "|"
    30 PRINT LEN(A$ + B$); LEN(""); ASC(B$); CHR$(65); CHR$(97 + 1)
    40 PRINT INSTR(A$, "L"); INSTR(4, A$, "L"); INSTR(A$, ""); INSTR("", "")
    50 PRINT STRING$(3, "XY"); STRING$(2, 65); "|"; SPACE$(3); "|"; HEX$(255); OCT$(8); HEX$(-1)
    60 PRINT VAL("  12"); VAL("1 2 3"); VAL("&H1F"); VAL("-7X"); STR$(5); STR$(-5); "|"
    70 PRINT "A";STR$(5);"B"; CHR$(44); LEFT$(A$ + B$, 7)
    80 IF A$ < B$ AND "ABC" < "ABD" AND "a" > "B" AND "" < "A" THEN PRINT "ORDERED"
    90 PRINT A$ = "HELLO"; A$ <> "HELLO "; A$ + "!" = "HELLO!"
    100 C$ = A$: MID$(C$, 2) = "IPPO": PRINT C$: MID$(C$, 1, 1) = "ZZ": PRINT C$
    110 SWAP A$, B$: PRINT A$; " "; B$
    """


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("std", ["ms", "extended"])
def test_string_functions(target, std):
    out = engines_agree(STRING_FUNCTIONS, target, std=std)
    assert out.splitlines() == [
        "HELLOELLOEL||",
        " 10  0  87 Ab",
        " 3  4  1  0 ",
        "XXXAA|   |FF10FFFF",
        " 12  123  31 -7  5-5|",
        "A 5B,HELLOWO",
        "ORDERED",
        "-1 -1 -1 ",
        "HIPPO",
        "ZIPPO",
        "WORLD HELLO",
    ]


ARRAYS = """
    10 DIM A$(3), M$(2, 3), C$(1, 2, 2)
    20 FOR I = 0 TO 3: A$(I) = CHR$(65 + I): NEXT I
    30 FOR I = 0 TO 2: FOR J = 0 TO 3: M$(I, J) = A$(J) + STR$(I): NEXT J: NEXT I
    40 C$(1, 2, 2) = "DEEP": I$(10) = "IMPLICIT"
    50 PRINT A$(0); A$(3); M$(2, 3); C$(1, 2, 2); C$(0, 0, 0); I$(10); LEN(I$(9))
    60 I = 1: K = 0: SWAP I, K: PRINT I; K
    70 I = 2: SWAP A$(I), A$(I + 1): PRINT A$(2); A$(3)
    80 J = 1: SWAP J, N(J): PRINT J; N(1); N(0)
    90 MID$(M$(1, 1), 2) = "*": PRINT M$(1, 1)
    100 DEF FNR$(X$, N) = RIGHT$(X$, N) + LEFT$(X$, LEN(X$) - N)
    110 PRINT FNR$("ABCDE", 2); FNR$(A$(0) + A$(1), 1)
    """


@pytest.mark.parametrize("target", TARGETS)
def test_string_arrays_of_any_rank_swap_and_string_functions(target):
    out = engines_agree(ARRAYS, target)
    # SWAP J, N(J) finds N(1) before J changes, as GW-BASIC does.
    assert out.splitlines() == [
        "ADD 2DEEPIMPLICIT 0 ",
        " 0  1 ",
        "DC",
        " 0  1  0 ",
        "B*1",
        "DEABCBA",
    ]


PRINT_FORMS = """
    10 N = 5: A$ = "TOM"
    20 PRINT "X"N"Y"; -N
    30 PRINT TAB(10)"CHIEF"A$"'S THROW"SPC(3)"Z"
    40 PRINT N (1); N -1
    50 PRINT "A"; SPC(0); "B"; SPC(70); "C"
    60 PRINT "T"; TAB(-1); "U"; TAB(0); "V"; TAB(200); "W"
    """


@pytest.mark.parametrize("target", TARGETS)
def test_print_items_without_separators_spc_and_lprint(target):
    out = engines_agree(PRINT_FORMS, target)
    assert out.splitlines() == [
        "X 5 Y-5 ",
        "         CHIEFTOM'S THROW   Z",
        " 0  4 ",  # N(1) is an element of the array N, N -1 a difference
        "AB" + " " * 70 + "C",
        "T" + " " * 13 + "U",  # TAB(-1) is TAB(65535): column 15
        "V" + " " * 38 + "W",
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_lprint_prints_to_standard_output_and_spc_wraps_at_the_margin(target):
    out = engines_agree('10 LPRINT "PRINTER"; SPC(2); 5\n20 PRINT "BB"; SPC(79); "C"\n', target)
    assert out == "PRINTER   5 \nBB" + " " * 78 + "\n C\n"


INPUTS = """
    10 INPUT "NUM"; A, B: PRINT "GOT"; A; B
    20 INPUT "STR", S$: PRINT "[" S$ "]"
    30 INPUT A$, B$: PRINT "[" A$ "][" B$ "]"
    40 LINE INPUT "LINE? "; L$: PRINT "[" L$ "]"
    50 INPUT; X: PRINT "X="; X
    60 K$ = INKEY$: PRINT ASC(K$); : K$ = INKEY$: PRINT ASC(K$)
    70 LINE INPUT; M$: PRINT M$
    80 INPUT Z
    """
SCRIPT = '1,x\n1\n3,4\n  hello world  \n "a,b" , c d \nline, with "quotes"\n7\nAB\nlast\n'


@pytest.mark.parametrize("target", TARGETS)
def test_microsoft_input_line_input_and_inkey(target):
    out = engines_agree(INPUTS, target, SCRIPT)
    assert out.splitlines() == [
        "NUM? ?Redo from start",
        "NUM? ?Redo from start",
        "NUM? GOT 3  4 ",
        "STR[hello world]",
        "? [a,b][c d]",
        'LINE? [line, with "quotes"]',
        "? X= 7 ",
        " 65  66 ",
        "",  # LINE INPUT: the rest of the line INKEY$ read from
        "? ?Redo from start",  # "last" is no number
        "? ",  # and then the input ends: a fatal error
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_extended_input_keeps_its_rules_but_not_the_question_mark_after_a_comma(target):
    # ECMA-55's reply rules (bas55: upper case, messages on stderr) outside --dialect ms.
    text = '10 INPUT "P", A$: PRINT A$\n20 INPUT "Q"; B$: PRINT B$\n'
    assert engines_agree(text, target, "hello\nx\n", std="extended") == "PHELLO\nQ? X\n"


@pytest.mark.parametrize(
    "statement, message",
    [
        ('PRINT MID$("ABC", 0)', "Illegal function call"),
        ('PRINT "A"; LEFT$("ABC", 40000)', "Overflow"),
        ('A$ = STRING$(200, "X"): PRINT LEN(A$ + A$)', "String too long"),
        # A$ = A$ + ... is an in-place append in the interpreter: it checks too.
        ('A$ = STRING$(250, "A"): A$ = A$ + "0123456789"', "String too long"),
        ('A$ = STRING$(250, "A"): A$ = A$ + "012" + "345"', "String too long"),
        ('A$ = "HELLO": MID$(A$, 6) = "Z"', "Illegal function call"),
        ("PRINT CHR$(256)", "Illegal function call"),
        ('PRINT ASC("")', "Illegal function call"),
        ('PRINT VAL("&H10000")', "Overflow"),
        ('PRINT "X"; SPC(70000)', "Overflow"),
    ],
)
@pytest.mark.parametrize("target", TARGETS)
def test_microsoft_run_time_errors(statement, message, target):
    analysis = analyse(f'10 PRINT "START"\n20 {statement}\n30 PRINT "NOT REACHED"\n')
    status, out, error = interpret(analysis)
    assert (status, error) == (1, message)
    assert "NOT REACHED" not in out
    result = driver.run(analysis, driver.generate(analysis, target), target, "cpu", stdin="")
    assert (result.returncode, result.stdout) == (1, out)
    assert f"error: line 20: {message}" in result.stderr


@pytest.mark.parametrize(
    "statement, message, column",
    [
        ("LINE INPUT X", "LINE INPUT reads a line into a string variable", 15),
        ("SWAP A, B$", "SWAP exchanges values of one type, not a number and a string", 4),
        ("SWAP A, B%", "SWAP exchanges values of one type, not a number and an integer", 4),
        ('MID$(X, 1) = "A"', "string expression expected, not a number", 9),
        ("MID$(A$, 1) = 5", "string expression expected, not a number", 18),
        ('MID$(A$) = "A"', "expected MID$(variable$, start[, count]) = ...", 9),
        ('LEFT$(A$, 1) = "A"', "LEFT$ is a function: only MID$ can be assigned to", 4),
        ("PRINT LEN(5)", "string expression expected, not a number", 14),
        ('PRINT CHR$("A")', "numeric expression expected, not a string", 15),
        ('PRINT STRING$("A", 3)', "numeric expression expected, not a string", 18),
        ("PRINT INSTR(1, 2)", "string expression expected, not a number", 16),
        ('PRINT MID$("A")', "function MID$ takes 2 or 3 arguments, 1 given", 10),
        ('PRINT SPC("A")', "numeric expression expected, not a string", 14),
        ("X = INKEY$", "numeric expression expected, not a string", 8),
    ],
)
def test_located_compile_errors(statement, message, column):
    with pytest.raises(CompileErrors) as info:
        analyse(f"10 {statement}\n", "extended")
    error = info.value.errors[0]
    assert (error.message, error.coord.line, error.coord.column) == (message, 1, column)


MISMATCHES = """
    10 C5 = 5
    20 IF C5 > 10 THEN PRINT "YOU HAVE USED $"-C5" MORE."
    30 PRINT "OK"
    40 A = "X"
    50 PRINT "NOT REACHED"
    """


@pytest.mark.parametrize("target", TARGETS)
def test_microsoft_type_mismatches_stop_the_program_when_they_run(target):
    # GW-BASIC finds them only then (line 20 never runs; line 40 does).
    analysis = analyse(MISMATCHES)
    assert [(w.coord.line, w.message.split(":")[0]) for w in analysis.warnings] == [
        (2, "Type mismatch"),
        (4, "Type mismatch"),
    ]
    assert (
        engines_agree(MISMATCHES, target) == "OK\nType mismatch in 40\n"
    )  # as on GW-BASIC's screen
    assert interpret(analysis)[2] == "Type mismatch"
    with pytest.raises(CompileErrors):  # the other dialects reject the program
        analyse(MISMATCHES, "extended")


@pytest.mark.parametrize(
    "statement", ["IF A$ THEN 10", 'FOR I = 1 TO "X"', "ON A$ GOTO 10", "PRINT LEFT$(1, 2, 3)"]
)
def test_what_stays_a_compile_error_under_microsoft_rules(statement):
    # Conditions, loops and jumps (their structure is decided when translating), and
    # calls that no form of the function takes.
    with pytest.raises(CompileErrors):
        analyse(f"10 {statement}\n")


def test_loops_with_strings_stay_on_the_host_and_numeric_ones_are_offloaded():
    analysis = analyse(
        """
        10 DIM A$(100), L(100), X(100)
        20 FOR I = 1 TO 100: A$(I) = STRING$(I MOD 7, "X"): NEXT I
        30 FOR I = 1 TO 100: L(I) = LEN(A$(I)): NEXT I
        40 FOR I = 1 TO 100: X(I) = 2 * I + 1: NEXT I
        50 PRINT L(100); X(100)
        """
    )
    decisions = {d.label: d for d in driver.host_program(analysis).decisions}
    assert decisions[20].reason.startswith("the string function STRING$ stays on the host")
    assert decisions[30].reason.startswith("the string function LEN stays on the host")
    assert decisions[40].offloaded


# --------------------------------------------------------------------------- PC-BASIC


@oracle
@pytest.mark.parametrize("program", [STRING_FUNCTIONS, ARRAYS, PRINT_FORMS])
def test_interpreter_prints_what_pc_basic_prints(program):
    text = textwrap.dedent(program).lstrip("\n")
    _, out, _ = interpret(analyse(text))
    assert out == pcbasic_oracle.run(text)


def without_echo(printed: str, replies: list[str]) -> str:
    """PC-BASIC's output without the replies it echoed, as a terminal shows them (each
    with its line break, except after `INPUT;` and `LINE INPUT;`)."""
    position = 0
    for reply in replies:
        found = printed.index(reply, position)
        end = found + len(reply)
        if printed.startswith("\n", end):
            end += 1
        printed = printed[:found] + printed[end:]
        position = found
    return printed


@oracle
def test_input_reads_replies_as_pc_basic_does():
    text = textwrap.dedent(INPUTS).lstrip("\n").replace("80 INPUT Z\n", "")
    script = SCRIPT.replace("last\n", "")
    _, out, _ = interpret(analyse(text), script)
    # INKEY$ takes "A" and "B" of the last line unechoed, and LINE INPUT; its empty rest.
    replies = script.splitlines()[:-1]
    printed = pcbasic_oracle.run(text, script, timeout=30)
    assert without_echo(printed, replies) == out


@oracle
def test_a_type_mismatch_stops_where_gw_basic_stops():
    text = textwrap.dedent(MISMATCHES).lstrip("\n")
    _, out, error = interpret(analyse(text))
    # (PC-BASIC leaves a 0xFF byte after an error message.)  We show it on stdout too.
    assert out.endswith(f"{error} in 40\n")
    assert pcbasic_oracle.run(text).replace("\xff", "") == out


@oracle
def test_run_time_errors_are_gw_basic_errors():
    cases = [
        'PRINT MID$("ABC", 0)',
        'PRINT LEFT$("ABC", -1)',
        'PRINT LEFT$("A", 40000)',
        "PRINT CHR$(256)",
        'PRINT ASC("")',
        "PRINT SPACE$(256)",
        'A$ = STRING$(200, "X"): PRINT LEN(A$ + A$)',
        'PRINT INSTR(0, "ABC", "B")',
        "PRINT HEX$(65536)",
        'A$ = "HELLO": MID$(A$, 6) = "Z"',
    ]
    codes = {"Illegal function call": 5, "Overflow": 6, "String too long": 15}
    printed = pcbasic_oracle.run(pcbasic_oracle.errors_resumed(cases))
    expected = [f"{pcbasic_oracle.ERROR_MARK} {code} >" for code in _our_codes(cases, codes)]
    assert [line for line in printed.splitlines() if pcbasic_oracle.ERROR_MARK in line] == (
        expected
    )


def _our_codes(cases: list[str], codes: dict[str, int]) -> list[int]:
    found = []
    for case in cases:
        status, _, error = interpret(analyse(f"10 {case}\n"))
        assert status == 1, case
        found.append(codes[error])
    return found
