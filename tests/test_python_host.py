"""The generated Python host program does what the reference interpreter does.

Each test translates a BASIC program (passes/host/structure.py, backends/cutile/host.py),
runs the generated module, and compares its stdout (byte for byte), whether it wrote to
stderr, and its exit status with the interpreter's run of the same program.  The
helpers here are shared with the other host-code tests.
"""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import subprocess
import sys
from pathlib import Path

import black
import pytest

from transpiler import driver
from transpiler.errors import BasicRuntimeError, SourceFile
from transpiler.ir import hostir
from transpiler.options import Options
from transpiler.passes.host.structure import build_host_program

from .conftest import EXAMPLES, ROOT

EXTENDED = Options(std="extended")  # (without it, `NOT 5` would pin ms)
STRICT = Options(std="ecma55")


# --------------------------------------------------------------------------- helpers


def analyse(text: str, options: Options = EXTENDED, name: str = "prog.bas"):
    return driver.front_end(SourceFile(name, text), options)


def translate(text: str, options: Options = EXTENDED, name: str = "prog.bas") -> str:
    return driver.generate_host(build_host_program(analyse(text, options, name)), "cutile")


def interpret(text: str, options: Options = EXTENDED, stdin: str = "", name: str = "prog.bas"):
    """(stdout, stderr, exit status) of the reference interpreter."""
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analyse(text, options, name), io.StringIO(stdin), out, err)
    except BasicRuntimeError as error:
        err.write(str(error) + "\n")
        status = 1
    return out.getvalue(), err.getvalue(), status


def run_module(path: Path, stdin: str = ""):
    """(stdout, stderr, exit status) of a generated module's main(), in this process."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            module = runpy.run_path(str(path), run_name="generated")
            status = module["main"]()
    finally:
        sys.stdin = saved_stdin
    return out.getvalue(), err.getvalue(), status


def run_script(path: Path, stdin: str = "", env: dict | None = None, timeout: float = 120):
    """(stdout, stderr, exit status) of a generated module run as a script."""
    environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    done = subprocess.run(  # noqa: PLW1510 - the exit status is what is tested
        [sys.executable, str(path)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=timeout,
    )
    return done.stdout, done.stderr, done.returncode


def assert_same(text: str, tmp_path: Path, stdin: str = "", options: Options = EXTENDED) -> str:
    """Translate, run, compare with the interpreter; returns the generated code."""
    code = translate(text, options)
    path = tmp_path / "generated.py"
    path.write_text(code)
    expected = interpret(text, options, stdin)
    got = run_module(path, stdin)
    assert got[0] == expected[0], code
    assert got[2] == expected[2], (got, expected)
    assert bool(got[1]) == bool(expected[1]), (got[1], expected[1])
    return code


def program(*lines: str) -> str:
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the examples


EXAMPLE_FILES = sorted(EXAMPLES.glob("*.bas"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
def test_example_runs_like_the_interpreter(path: Path, tmp_path: Path) -> None:
    text = path.read_text()
    code = translate(text, EXTENDED, path.name)
    script = tmp_path / f"{path.stem}.py"
    script.write_text(code)
    expected = interpret(text, EXTENDED, name=path.name)
    got = run_script(script)
    assert got[0] == expected[0]
    assert got[2] == expected[2] == 0
    assert got[1] == expected[1] == ""


def test_generated_code_is_black_formatted_and_ruff_clean(tmp_path: Path) -> None:
    """Examples and a sample of feature programs (the NBS corpus test checks more)."""
    sources = {p.stem: p.read_text() for p in EXAMPLE_FILES}
    sources.update(FEATURES)
    for name, text in sources.items():
        code = translate(text)
        assert black.format_str(code, mode=black.Mode(line_length=100)) == code, name
        (tmp_path / f"{name}.py").write_text(code)
    assert_ruff_clean(tmp_path)


def assert_ruff_clean(folder: Path) -> None:
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run(  # noqa: PLW1510 - the exit status is checked below
        [str(ruff), "check", "--config", str(ROOT / "pyproject.toml"), "--no-cache", str(folder)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------- features

FEATURES = {
    "strings": program(
        "10 PRINT \"NO QUOTES IN BASIC, BUT \\ BACKSLASH {BRACES} %S %d 'APOSTROPHE'\"",
        '20 A$ = "ÄÖÜ é 日本 \\n \\x00"',
        "30 PRINT A$; LEN$",
        '40 REM """ END OF DOCSTRING? \\ {x} %s',
        "50 PRINT A$ + A$",
        '60 IF A$ = "ÄÖÜ é 日本 \\n \\x00" THEN PRINT "SAME"',
        "70 END",
    ),
    "numbers": program(
        "10 PRINT 1, -2.5, 1E30, 1E-30, .1 + .2, 1/3, 2^0.5, 123456789",
        "20 X = 7 MOD 3 : Y = -7 MOD 3 : Z = 7.5 MOD 2",
        "30 PRINT X; Y; Z; MAX(1, 2); MIN(1, 2); INT(-2.5); SGN(-3); ABS(-4)",
        "40 PRINT (1 < 2); (2 < 1); NOT 0; NOT 5; (1 < 2) AND (3 < 4); 0 OR 0",
        "50 PRINT -(-3); 2 - -3; ATN(1); COS(0); EXP(1); LOG(10); SIN(1); SQR(2); TAN(1)",
        '60 IF 1 < 2 THEN PRINT "CONSTANT TRUE"',
        '70 IF 2 < 1 THEN PRINT "CONSTANT FALSE"',
        "80 END",
    ),
    "integers": program(
        "10 A% = 2.5 : B% = -2.5 : C% = 7 / 2",
        "20 PRINT A%; B%; C%; A% * B%",
        "30 DIM N%(3)",
        "40 FOR I% = 0 TO 3 : N%(I%) = I% * 1.4 : NEXT I%",
        "50 PRINT N%(0); N%(1); N%(2); N%(3); I%",
        "60 END",
    ),
    "loops": program(
        "10 FOR I = 1 TO 3 : PRINT I; : NEXT I",
        "20 PRINT I",
        "30 FOR X = 1 TO 2 STEP .25 : PRINT X; : NEXT X",
        "40 PRINT",
        "50 FOR J = 10 TO 1 STEP -3 : PRINT J; : NEXT J",
        "60 PRINT J",
        "70 S = 2 : FOR K = 1 TO 10 STEP S : S = 5 : PRINT K; : NEXT K",
        "80 PRINT",
        '90 FOR K = 5 TO 1 : PRINT "NEVER" : NEXT K',
        "100 PRINT K",
        "110 FOR I = 1 TO 5 : IF I = 3 THEN 130",
        "120 PRINT I;",
        "130 NEXT I",
        "140 FOR I = 1 TO 5 : IF I = 4 THEN 160",
        "150 PRINT I; : NEXT I",
        '160 PRINT "OUT AT"; I',
        "170 N = 3 : FOR I = 1 TO N : N = 10 : PRINT I; : NEXT I",
        "180 W = 0 : WHILE W < 3 : W = W + 1 : PRINT W; : WEND",
        "190 PRINT",
        "200 END",
    ),
    "gosub": program(
        "10 GOSUB 100 : GOSUB 100",
        "20 ON 2 GOSUB 100, 200",
        "30 X = 1",
        "40 ON X GOTO 50, 60",
        '50 PRINT "WRONG"',
        '60 PRINT "RIGHT"',
        "70 GOSUB 300",
        '80 PRINT "COUNT"; C',
        "90 END",
        '100 C = C + 1 : PRINT "SUB 100"; C : RETURN',
        '200 PRINT "SUB 200" : RETURN',
        "300 IF C > 5 THEN RETURN",
        "310 C = C + 1 : GOSUB 300 : RETURN",
    ),
    "data": program(
        '10 DATA 1, "TWO, WITH COMMA", 3E2, "  SPACED  "',
        "20 READ A, B$, C, D$",
        '30 PRINT A; B$; C; "[" + D$ + "]"',
        "40 RESTORE",
        "50 READ E : PRINT E",
        "60 RESTORE 100",
        "70 READ F : PRINT F",
        "100 DATA 42",
        "110 END",
    ),
    "arrays": program(
        "10 OPTION BASE 1",
        "20 DIM A(3, 4), B(5)",
        "30 FOR I = 1 TO 3 : FOR J = 1 TO 4 : A(I, J) = I * 10 + J : NEXT J : NEXT I",
        "40 PRINT A(2, 3); A(2.6, 3.4); A(3, 4)",
        "50 C(7) = 5 : PRINT C(7); C(10)",
        "60 N = 6 : DIM D(N) : D(6) = 1 : PRINT D(6)",
        "70 MAT B = ZER : MAT PRINT B;",
        "80 END",
    ),
    "mat": program(
        "10 OPTION BASE 1",
        "20 DIM A(2, 2), B(2, 2), C(2, 2), V(2)",
        "30 MAT READ A",
        "40 DATA 1, 2, 3, 4",
        "50 MAT B = TRN(A) : MAT C = A * B : MAT PRINT C",
        "60 MAT C = INV(A) : MAT PRINT C;",
        "70 MAT C = (2) * A : MAT C = C + A : MAT C = C - B : MAT PRINT C",
        "80 MAT C = IDN : MAT PRINT C",
        "90 MAT V = CON : MAT PRINT V",
        "100 END",
    ),
    "functions": program(
        "10 DEF FNA(X) = X * X + Y",
        '20 DEF FNB$(S$) = S$ + "!"',
        "30 DEF FNC(X, Z) = FNA(X) + Z",
        "40 Y = 1 : X = 100",
        '50 PRINT FNA(3); FNC(2, 3); FNB$("HI"); X',
        "60 END",
    ),
    "goto": program(
        "10 X = 0",
        "20 X = X + 1",
        "30 IF X < 3 THEN 20",
        "40 PRINT X",
        "50 IF X > 10 THEN 80",
        '60 PRINT "SMALL"',
        "70 GOTO 90",
        '80 PRINT "BIG"',
        "90 Y = 5",
        "100 IF Y = 1 THEN 130",
        "110 IF Y = 5 THEN 140",
        '120 PRINT "OTHER" : GOTO 150',
        '130 PRINT "ONE" : GOTO 150',
        '140 PRINT "FIVE"',
        "150 GOTO 170",
        '160 PRINT "UNREACHABLE"',
        "170 END",
    ),
    "irreducible": program(
        "10 X = 0",
        "20 IF X > 2 THEN 50",
        '30 X = X + 1 : PRINT "A"; X',
        "40 IF X < 5 THEN 60",
        '50 PRINT "B"; X : X = X + 2',
        "60 IF X < 8 THEN 30",
        "70 PRINT",
        "80 END",
    ),
}


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_feature_runs_like_the_interpreter(name: str, tmp_path: Path) -> None:
    assert_same(FEATURES[name], tmp_path)


def test_string_literals_cannot_inject_code(tmp_path: Path) -> None:
    code = assert_same(FEATURES["strings"], tmp_path)
    assert "ÄÖÜ" in code  # printed as text, through repr()
    for line in code.splitlines():
        if line.lstrip().startswith("#"):
            assert line.isprintable()


def test_fatal_error_exit_status_and_message(tmp_path: Path) -> None:
    text = program("10 DIM A(3)", '20 PRINT "BEFORE";', "30 A(4) = 1", '40 PRINT "AFTER"', "50 END")
    assert_same(text, tmp_path)
    path = tmp_path / "fail.py"
    path.write_text(translate(text))
    out, err, status = run_script(path)
    assert out == "BEFORE\n" and status == 1
    assert err == "prog.bas: error: line 30: subscript out of range A(4) [0 to 3]\n"


def test_print_keeps_what_precedes_a_failing_item(tmp_path: Path) -> None:
    text = program('10 A$ = "111"', "20 C = -3", '30 PRINT A$; TAB(C ^ 1.5); "222"', "40 END")
    assert_same(text, tmp_path)


def test_warnings_go_to_stderr_with_their_line_and_the_program_goes_on(tmp_path: Path) -> None:
    text = program(
        "10 DEF FNR(X) = 1 / X", "20 PRINT 1 / 0", "30 PRINT 2 ^ 5000", "40 PRINT FNR(0)",
        '50 PRINT "GOES ON"', "60 END",
    )  # fmt: skip
    path = tmp_path / "warn.py"
    path.write_text(translate(text))
    out, err, status = run_module(path)
    assert out == interpret(text)[0] and status == 0
    # A DEF FN body's warning is located at its caller, as the interpreter does.
    assert err == (
        "prog.bas: warning: line 20: division by zero\n"
        "prog.bas: warning: line 30: operation overflow\n"
        "prog.bas: warning: line 40: division by zero\n"
    )


def test_return_without_gosub_and_on_out_of_range(tmp_path: Path) -> None:
    assert_same(program("10 PRINT 1", "20 RETURN", "30 END"), tmp_path)
    assert_same(program("10 X = 3", "20 ON X GOTO 30, 40", "30 PRINT 3", "40 END"), tmp_path)


def test_input(tmp_path: Path) -> None:
    text = program(
        '10 INPUT "NAME"; N$',
        "20 INPUT A, B%, C(2)",
        "30 PRINT N$; A; B%; C(2)",
        "40 END",
    )
    assert_same(text, tmp_path, stdin="BOB\n1,x\n1.5, 2.5, 3\n")
    assert_same(text, tmp_path, stdin="BOB\n")  # end of input is fatal


def test_rnd_sequence_is_the_interpreters(tmp_path: Path) -> None:
    text = program("10 FOR I = 1 TO 5", "20 PRINT RND", "30 NEXT I", "40 END")
    assert_same(text, tmp_path)


def test_f32_precision(tmp_path: Path) -> None:
    text = program(
        "10 X = 1 / 3 : PRINT X * 3 - 1",
        "20 DIM A(2) : A(1) = 0.1 : PRINT A(1) * 10 - 1",
        "30 FOR T = 0 TO 1 STEP 0.1 : NEXT T : PRINT T",
        "40 END",
    )
    assert_same(text, tmp_path, options=Options(precision="f32"))


def test_strict_string_limit(tmp_path: Path) -> None:
    text = program('10 LET A$ = "12345678901234567890"', "20 PRINT A$", "30 END")
    assert_same(text, tmp_path, options=STRICT)


def test_end_inside_a_subroutine(tmp_path: Path) -> None:
    text = program("10 GOSUB 100", '20 PRINT "NOT HERE"', "30 END", '100 PRINT "SUB";', "110 STOP")
    code = assert_same(text, tmp_path)
    assert "raise EndProgram" in code


def test_names_are_readable_and_safe(tmp_path: Path) -> None:
    """BASIC names that are names the module uses (con, mul...) get other ones."""
    text = program(
        '10 CON = 2 : MUL = 3 : A$ = "S" : COUNT% = 4',
        "20 DEF FNSQ(X) = X * X",
        "30 PRINT CON; MUL; A$; COUNT%; FNSQ(3)",
        "40 END",
    )
    code = assert_same(text, tmp_path)
    assert "a_str" in code and "count_int" in code and "def fn_sq(x)" in code
    assert "con_ = 2.0" in code and "mul = 3.0" not in code and "con = 2.0" not in code


def test_no_kernel_machinery_without_kernels() -> None:
    code = translate(FEATURES["loops"])
    assert "cuda" not in code and "numpy" not in code and "dev" not in code.split()


def test_host_program_tree_is_not_changed_by_printing() -> None:
    host = build_host_program(analyse(FEATURES["goto"]))
    before = [type(n).__name__ for n in hostir.walk(host.body)]
    driver.generate_host(host, "cutile")
    assert [type(n).__name__ for n in hostir.walk(host.body)] == before


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_long_chains_of_sums_report_in_basic_order(target: str, monkeypatch) -> None:
    # Ten terms are no nest of checked calls (Python allows 200 nested parentheses, and
    # a chain may have 1000 terms): quiet terms of one operator are one add_all/sub_all,
    # others update a running total term by term, so A / Z warns after the overflow of
    # the sum before it.
    text = program(
        "10 LET A = 1E308",
        "20 LET Z = 0",
        "30 PRINT " + "+".join(["A"] * 10),
        "40 PRINT " + "+".join(["A"] * 9) + "+A/Z",
        "50 PRINT " + "-".join(["A"] * 10),
        "60 PRINT " + "A" + "+A-A" * 150,  # 300 terms, the operator changing at each
        "70 END",
    )
    stderr = interpret(text)[1]
    assert stderr.index("operation overflow (+)\n    40") < stderr.index("division by zero")
    analysis = analyse(text)
    code = driver.generate(analysis, target)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # what --check feeds both programs
    if target == "cutile":
        assert "add_all(" in code and "sub_all(" in code and "total := add(total, a)" in code
    report = io.StringIO()
    assert driver.check(analysis, code, target, "cpu", out=report) == 0, report.getvalue()
