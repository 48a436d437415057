"""--dialect (alias --std): which dialect a program gets, and which construct pins it.

Without --dialect a program is extended BASIC unless it uses a construct that only
Microsoft BASIC has; the first such construct pins --dialect ms, with one note naming it
and its line.  A dialect chosen on the command line is never changed: there, a
Microsoft-only construct is a located error (and in strict ECMA-55 an extension error).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from transpiler import driver
from transpiler.errors import CompileErrors, SourceFile
from transpiler.frontend.lexer import reserved_word
from transpiler.language.builtins import BUILTINS
from transpiler.language.keywords import KEYWORDS, RENAME_WORD, UNSUPPORTED
from transpiler.options import Options

from .conftest import ROOT
from .pcbasic_oracle import requires_pcbasic
from .test_ms_crosscut import interpreted_and_checked


def analysed(text: str, std: str | None = None):
    return driver.front_end(SourceFile("d.bas", text), Options(std=std))


def only_error(text: str, std: str | None):
    with pytest.raises(CompileErrors) as info:
        analysed(text, std)
    [error] = info.value.errors
    return error


# (statement, what the note names, column of the construct)
MICROSOFT_ONLY = [
    ("X# = 1", "the double-precision suffix '#'", 4),
    ("X! = 1", "the single-precision suffix '!'", 4),
    ("PRINT 1000!", "a single-precision constant '!'", 10),
    ("PRINT 35660#", "a double-precision constant '#'", 10),
    ("PRINT 12%", "an integer constant '%'", 10),
    ("PRINT 1.5D3", "a double-precision exponent 'D'", 10),
    ("PRINT &H1F", "a hexadecimal or octal constant", 10),
    ("PRINT 7 \\ 2", "integer division '\\'", 12),
    ("PRINT 5 XOR 3", "the operator XOR", 12),
    ("PRINT 5 EQV 3", "the operator EQV", 12),
    ("PRINT 5 IMP 3", "the operator IMP", 12),
    ("DEFINT I-N", "DEFINT", 4),
    ("DEFDBL D", "DEFDBL", 4),
    ("PRINT CINT(2.5)", "the function CINT", 10),
    ("PRINT FIX(2.5)", "the function FIX", 10),
    ("PRINT TIMER", "the function TIMER", 10),
    ('? "HI"', "'?' for PRINT", 4),
]


@pytest.mark.parametrize("statement, what, column", MICROSOFT_ONLY)
def test_a_microsoft_only_construct_pins_the_dialect(statement, what, column):
    analysis = analysed(f"10 PRINT 1\n20 {statement}\n30 END\n")
    assert analysis.options.dialect == "ms"
    [note] = analysis.notes
    assert str(note) == f"d.bas:2: note: {what}: assuming --dialect ms"


@pytest.mark.parametrize("statement, what, column", MICROSOFT_ONLY)
@pytest.mark.parametrize("std", ["extended", "dartmouth"])
def test_a_chosen_dialect_rejects_it_where_it_stands(statement, what, column, std):
    error = only_error(f"10 {statement}\n20 END\n", std)
    name = {"extended": "extended BASIC", "dartmouth": "Dartmouth BASIC"}[std]
    assert error.message == f"{what} is Microsoft BASIC, not {name}"
    assert (error.coord.line, error.coord.column) == (1, column)
    assert error.notes == ("--dialect ms accepts it",)


@pytest.mark.parametrize("statement, what, column", MICROSOFT_ONLY)
def test_strict_ecma55_reports_it_as_an_extension(statement, what, column):
    with pytest.raises(CompileErrors) as info:
        analysed(f"10 {statement}\n20 END\n", "ecma55")
    found = [(e.coord.column, e.message) for e in info.value.errors]
    assert (column, f"{what} is not ECMA-55 Minimal BASIC") in found


@pytest.mark.parametrize("statement, what, column", MICROSOFT_ONLY)
def test_dialect_ms_takes_it_without_a_note(statement, what, column):
    analysis = analysed(f"10 {statement}\n20 END\n", "ms")
    assert analysis.options.dialect == "ms" and analysis.notes == []


@pytest.mark.parametrize(
    "program",
    [
        # A numerical program in extended style stays in double precision: RND with an
        # argument, `%` integers, MAT with OPTION BASE, long names and MOD pin nothing.
        (
            "5 OPTION BASE 1\n10 DIM A(3, 3)\n20 MAT READ A\n30 DATA 1,2,3,4,5,6,7,8,9\n"
            "40 LET TOTAL = 0\n"
            "50 FOR I% = 1 TO 3\n60 LET TOTAL = TOTAL + A(I%, I%) * RND(1) + 7 MOD 3\n"
            "70 NEXT I%\n80 PRINT TOTAL\n90 END\n"
        ),
        '10 PRINT "X \\\\ Y";\n20 REM XOR, DEFINT and &H in a remark\n30 DATA 1#, &H1F\n40 END\n',
    ],
    ids=["numerical", "text-only"],
)
def test_programs_without_microsoft_constructs_stay_extended(program):
    analysis = analysed(program)
    assert analysis.options.dialect == "extended" and analysis.options.std is None
    assert analysis.notes == [] and analysis.number_type == "f64"


def test_mat_without_option_base_pins_dartmouth():
    analysis = analysed("10 DIM A(3, 3)\n20 MAT READ A\n30 DATA 1,2,3,4,5,6,7,8,9\n40 END\n")
    assert analysis.options.dialect == "dartmouth" and analysis.number_type == "f64"
    assert [str(n) for n in analysis.notes] == [
        "d.bas:2: note: MAT statement: assuming --dialect dartmouth (MAT from row and column 1)"
    ]


def test_the_first_construct_is_the_one_noted():
    analysis = analysed("10 PRINT 1\n20 PRINT 7 \\ 2: DEFINT I\n30 X# = 1\n")
    assert [str(n) for n in analysis.notes] == [
        "d.bas:2: note: integer division '\\': assuming --dialect ms"
    ]


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "transpiler", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_note_goes_to_stderr_once_whatever_the_mode(tmp_path):
    program = tmp_path / "pin.bas"
    program.write_text("10 PRINT 1/3\n20 PRINT 7 \\ 2\n30 END\n")
    note = f"{program}:2: note: integer division '\\': assuming --dialect ms\n"
    done = _cli(str(program), "--interpret")
    assert (done.returncode, done.stdout, done.stderr) == (0, " .3333334 \n 3 \n", note)
    done = _cli(str(program), "-o", str(tmp_path / "pin.py"))
    assert (done.returncode, done.stderr) == (0, note)
    done = _cli(str(program), "--check", "--device", "cpu")
    assert done.returncode == 0 and done.stderr == note
    assert done.stdout.startswith("check passed")


@pytest.mark.parametrize("option", ["--dialect", "--std"])
def test_dialect_and_std_are_one_option(tmp_path, option):
    program = tmp_path / "p.bas"
    program.write_text("10 PRINT 1/3\n20 END\n")
    done = _cli(str(program), "--interpret", option, "ms")
    assert (done.returncode, done.stdout, done.stderr) == (0, " .3333334 \n", "")
    done = _cli(str(program), "--interpret", option, "extended")
    assert (done.returncode, done.stdout) == (0, " .33333333 \n")
    done = _cli(str(program), "--interpret", option, "basic80")
    assert done.returncode == 2 and "invalid choice: 'basic80'" in done.stderr


def test_kernel_programs_are_not_affected():
    text = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n"
    text += "40 LET C(BID) = A(BID) * 2\n50 OUTPUT C\n"
    analysis = analysed(text)
    assert analysis.kind == "kernel" and analysis.notes == []


# --------------------------------------------------------------------------- reserved words

# Words that other dialects reserve and GW-BASIC does not, used as variables; one array
# MIN is implicit (10 elements), as GW-BASIC's are.  Oracle: PC-BASIC 2.0.8 printed
# GW_NAMES_OUTPUT for this program.
GW_NAMES = """\
10 SUM = 3: PRINT SUM
20 NUM = 2: BASE = 4: MAX = 5: MIN = 1: MAT = 6: ZER = 7: DET = 8
30 OPTION BASE 1: DIM A(3): A(1) = NUM + BASE
40 PRINT NUM; BASE; MAX; MIN; MAT; ZER; DET; A(1)
50 UCASE$ = "u": LTRIM$ = "l": PRINT UCASE$; LTRIM$
60 TAB = 8: SPC = 2: PRINT TAB; SPC; TAB(12); "X"; SPC(2); "Y"
70 DIM TOTAL(3): TOTAL(2) = 5: DO = 1: LOOP = 2: SEG = 3: CASE = 4: AS = 5: OUTPUT = 6
80 PRINT TOTAL(2); DO + LOOP + SEG + CASE + AS + OUTPUT
90 MMA = 1: TILE = 2: BID = 3: ENDIF = 4: ELSEIF = 5: CHANGE = 6: UBOUND = 7
100 PRINT MMA; TILE; BID; ENDIF; ELSEIF; CHANGE; UBOUND
110 DIM MAX(4): MAX(4) = 9: PRINT MAX(4); MIN(2)
"""
GW_NAMES_OUTPUT = (
    " 3 \n 2  4  5  1  6  7  8  6 \nul\n 8  2      X  Y\n 5  21 \n 1  2  3  4  5  6  7 \n 9  0 \n"
)


def test_words_of_other_dialects_are_names_under_dialect_ms(tmp_path):
    assert interpreted_and_checked(tmp_path, GW_NAMES) == GW_NAMES_OUTPUT


def test_they_are_names_when_a_construct_pins_ms(tmp_path):
    """Extended BASIC reserves them: the program is read again as Microsoft BASIC once a
    construct (here DEFINT, after the names) pins it."""
    text = GW_NAMES.replace("; MIN(2)", "") + "120 DEFINT I\n"
    output = GW_NAMES_OUTPUT.replace(" 9  0 \n", " 9 \n")
    assert interpreted_and_checked(tmp_path, text, dialect=None) == output
    assert analysed(text).options.dialect == "ms"


def test_extended_basic_still_reserves_them_and_names_the_flag():
    error = only_error("10 SUM = 3\n20 PRINT SUM\n", None)
    assert error.message == "SUM is a built-in function: a variable needs another name"
    assert error.notes == ("--dialect ms reads SUM as a variable, as GW-BASIC does",)
    error = only_error("10 LEN = 3\n", None)  # GW-BASIC's too: no note
    assert error.notes == ()


def test_a_pinned_program_that_calls_another_dialects_function_is_an_error():
    """GW-BASIC reads MAX(A, B) as an array element, extended BASIC as its function: in a
    program pinned to ms the guess would be silent, so it is a located error."""
    with pytest.raises(CompileErrors) as info:
        analysed("10 PRINT 7 \\ 2\n20 PRINT MAX(1, 2)\n")
    note, error = info.value.errors  # in line order
    assert error.message == (
        "MAX(...) is an array in Microsoft BASIC, the function MAX in extended BASIC"
    )
    assert (error.coord.line, error.coord.column) == (2, 10)
    assert str(note) == "d.bas:1: note: integer division '\\': assuming --dialect ms"
    # --dialect ms says which: an array, as in GW-BASIC; a DIM says it too
    assert analysed("10 PRINT 7 \\ 2\n20 PRINT MAX(1, 2)\n", "ms").options.dialect == "ms"
    analysed("10 DIM MAX(3)\n20 PRINT 7 \\ 2, MAX(1)\n")


@pytest.mark.parametrize(
    "statement, message",
    [
        ("DO", "expected '=', found end of line"),
        ("LOOP UNTIL X > 3", "expected '=', found name 'UNTIL'"),
    ],
)
def test_a_qbasic_statement_under_ms_is_a_syntax_error_that_says_so(statement, message):
    """GW-BASIC stops with Syntax error when such a line runs (test_ms_loading.py): a
    warning here, whose note says why the statement did not parse."""
    [warning] = analysed(f"10 {statement}\n", "ms").warnings
    assert warning.message == (
        f"Syntax error: {message} (GW-BASIC stops with it when the statement runs)"
    )
    word = statement.split()[0]
    assert warning.notes == (
        f"{word} is a QuickBASIC statement (--dialect qbasic): a name in Microsoft BASIC",
    )


def test_a_kernel_program_under_dialect_ms_says_it_is_extended_basic():
    text = "10 INPUT N, A()\n20 DIM A(N), C(N)\n30 TILE A(16), C(16)\n"
    text += "40 LET C(BID) = A(BID) * 2\n50 OUTPUT C\n"
    error = only_error(text, "ms")
    assert error.message == "a cuTile BASIC kernel program is extended BASIC, not Microsoft BASIC"
    assert (error.coord.line, error.coord.column) == (1, 4)
    assert analysed(text).kind == "kernel"


def test_def_seg_is_still_gw_basics_statement():
    error = only_error("10 DEF SEG = 0\n", "ms")
    assert error.message == "unsupported statement DEF SEG (Microsoft BASIC)"


def _gw_reserved_words() -> set[str]:
    """GW-BASIC's reserved words, from PC-BASIC's token table (`TAB(` and `SPC(` are
    tokens with their parenthesis: names without it)."""
    from pcbasic.basic.base import tokens

    words = {word.decode() for word in tokens.KEYWORDS.values() if word[:1].isalpha()}
    return {word for word in words if not word.endswith("(")} - {"FN"}


@requires_pcbasic
def test_dialect_ms_reserves_exactly_gw_basics_words():
    """Every word any dialect of ours reserves is reserved under --dialect ms iff
    GW-BASIC (PC-BASIC's tokenizer) reserves it; `ENVIRON$`, `INPUT$`... are reserved
    there as ENVIRON and INPUT are."""
    gw = _gw_reserved_words()
    ours = KEYWORDS | BUILTINS.keys() | UNSUPPORTED.keys() | {RENAME_WORD}
    reserved = {word for word in ours if reserved_word(word, "ms")}
    prefixed = {word for word in reserved if word.endswith("$") and word[:-1] in gw}
    assert reserved - prefixed == gw
    assert {word for word in ours if not reserved_word(word, "ms")} & gw == set()


# --------------------------------------------------------------------------- more evidence

# Constructs that extended BASIC accepts too but that only programs written for Microsoft
# BASIC use: without --dialect they pin ms (statement, what the note names); with
# --dialect extended they are accepted as before, without a note.
MICROSOFT_EVIDENCE = [
    ("PRINT N AND 1", "AND of a number, not of a comparison (bitwise in Microsoft BASIC)"),
    ("PRINT A OR 4", "OR of a number, not of a comparison (bitwise in Microsoft BASIC)"),
    ("IF NOT X THEN 20", "NOT of a number, not of a comparison (bitwise in Microsoft BASIC)"),
    ("IF A > 1 AND B THEN 20", "AND of a number, not of a comparison (bitwise in Microsoft BASIC)"),
    ("CLS", "the statement CLS"),
    ("COLOR 7, 0", "the statement COLOR"),
    ("KEY OFF", "the statement KEY"),
    ("WIDTH 80", "the statement WIDTH"),
    ("SCREEN 0", "the statement SCREEN"),
    ("BEEP", "the statement BEEP"),
    ("SWAP A, B", "the statement SWAP"),
    ('LPRINT "X"', "the statement LPRINT"),
    ("WRITE 1, 2", "the statement WRITE"),
    ("LINE INPUT A$", "the statement LINE INPUT"),
    ('OPEN "O", #1, "F.TXT"', "OPEN with a mode letter"),
    ("K$ = INKEY$", "the function INKEY$"),
    ('MID$(A$, 1, 1) = "X"', "the MID$ statement"),
    ('PRINT "N="N', "PRINT items without a separator"),
]


@pytest.mark.parametrize("statement, what", MICROSOFT_EVIDENCE)
def test_evidence_of_microsoft_basic_pins_the_dialect(statement, what):
    analysis = analysed(f"10 PRINT 1\n20 {statement}\n30 END\n")
    assert analysis.options.dialect == "ms"
    [note] = analysis.notes
    assert str(note) == f"d.bas:2: note: {what}: assuming --dialect ms"


@pytest.mark.parametrize("statement, what", MICROSOFT_EVIDENCE)
def test_extended_basic_chosen_accepts_the_evidence(statement, what):
    analysis = analysed(f"10 {statement}\n20 END\n", "extended")
    assert analysis.options.dialect == "extended"
    assert [str(n) for n in analysis.notes] == []


@pytest.mark.parametrize(
    "statement",
    [
        "IF A > 1 AND B < 2 THEN 20",
        "IF NOT (A = B) OR C <> 1 THEN 20",
        "X = (A > 1) OR (B < 2 AND NOT C = 3)",
        'WHILE A < 3 AND B$ <> "Y": A = A + 1: WEND',
        'OPEN "F.TXT" FOR OUTPUT AS #1: PRINT #1, 1: CLOSE #1: KILL "F.TXT"',
    ],
)
def test_truth_values_and_files_do_not_pin(statement):
    analysis = analysed(f"10 {statement}\n20 END\n")
    assert analysis.options.dialect == "extended" and analysis.notes == []


# Oracle: PC-BASIC 2.0.8 printed these outputs.  As extended BASIC (logical AND) the first
# printed "-5 IS EVEN" and " 7 IS EVEN", the second " 0  1  0  0  0".
EVEN_ODD = """\
10 FOR K = 1 TO 3
20 READ N
30 IF (N AND 1) = 1 THEN PRINT N; "IS ODD" ELSE PRINT N; "IS EVEN"
40 NEXT K
50 DATA -5, 4, 7
"""
BIT_ADDER = """\
10 REM THE BITS OF A + B, ADDED ONE BIT AT A TIME
20 A = 11: B = 6: C = 0
30 FOR I = 0 TO 4
40 X = SGN(A AND 2 ^ I): Y = SGN(B AND 2 ^ I)
50 S = X + Y + C: C = INT(S / 2)
60 PRINT S - 2 * C;
70 NEXT I
80 PRINT
"""


@pytest.mark.parametrize(
    "text, output",
    [
        (EVEN_ODD, "-5 IS ODD\n 4 IS EVEN\n 7 IS ODD\n"),
        (BIT_ADDER, " 1  0  0  0  1 \n"),
    ],
    ids=["even-odd", "bit-adder"],
)
def test_gw_basic_programs_with_bitwise_and_print_as_gw_basic_without_a_flag(
    tmp_path, text, output
):
    assert interpreted_and_checked(tmp_path, text, dialect=None) == output
