"""Every ECMA-55 exception (overflow, division by zero, domain errors, subscripts...) is
reported with the interpreter's text by every engine: the interpreter, the generated
Python and C++ host programs, and their kernels.

One table: a BASIC expression and what evaluating it reports.  Each entry is checked in
three places, a PRINT statement, a DEF FN body and the body of a loop that becomes a
kernel (three iterations: the kernel's odd lanes are rerun on the host), and on every
engine the outcome (stdout, the warnings in order, the fatal error with its BASIC line)
must be the interpreter's, whose messages the table states.  Warnings go to one program
per context; each fatal error needs a program of its own.  The C++ host programs are
built with one g++ call; programs with kernels are built one by one.
"""

from __future__ import annotations

import functools
import io

import pytest

from tests.cpp.batch import build_batch, run_program
from tests.cpp.compare import Outcome, interpret, outcome_of_run
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

# A = the largest power of ten, Z = 0, M = -2, X() has subscripts 0 to 10.
SETUP = "LET A = 1E308 : LET Z = 0 : LET M = -2 : DIM X(10)"

# (expression, the warnings it reports, in order)
WARNINGS = [
    ("A + A", ["operation overflow (+)"]),
    ("-A - A", ["operation overflow (-)"]),
    ("A * 10", ["operation overflow (*)"]),
    ("A / .1", ["operation overflow (/)"]),
    ("A ^ 2", ["operation overflow"]),
    ("(1 / A) ^ 400", ["operation overflow"]),  # underflow of ^ is reported too
    ("EXP(1000)", ["operation overflow EXP(1000)"]),
    ("EXP(-1000)", ["operation overflow EXP(-1000)"]),
    ("1 / Z", ["division by zero"]),
    ("Z ^ -1", ["zero raised to negative value (0 ^ -1)"]),
    ("1 MOD Z", ["division by zero"]),
    ("(A + A) - (A + A)", ["operation overflow (+)", "operation overflow (+)"]),
    ("EXP(1000) * (1 / Z)", ["operation overflow EXP(1000)", "division by zero"]),
    ("A * 10 + EXP(1000)", ["operation overflow (*)", "operation overflow EXP(1000)"]),
    # nothing to report
    ("-A", []),
    ("A + 1", []),
    ("A - A", []),
    ("(A + A) + 1", ["operation overflow (+)"]),
    ("(A * 10) + A", ["operation overflow (*)"]),  # INF + A is no new overflow
    ("1 / A / A", []),  # underflow of + - * / is replaced by zero silently
]
# (expression, the fatal error it reports, after these warnings)
FATAL = [
    ("LOG(Z)", "function domain error LOG(0)", []),
    ("SQR(M)", "function domain error SQR(-2)", []),
    ("M ^ .5", "negative value raised to non-integral value (-2 ^ .5)", []),
    ("X(11)", "subscript out of range X(11) [0 to 10]", []),
    ("X(A)", "subscript out of range X(1.E+308) [0 to 10]", []),
    ("SIN(A * 10)", "function domain error SIN(INF)", ["operation overflow (*)"]),
    ("A * 10 + X(11)", "subscript out of range X(11) [0 to 10]", ["operation overflow (*)"]),
    ("X(11) + A * 10", "subscript out of range X(11) [0 to 10]", []),
]
CONTEXTS = ("statement", "function", "kernel")
ITERATIONS = 3  # of a kernel's loop
# The line of the n-th expression's messages in each context (a DEF FN's caller; the
# loop's LET).
LINE_OFFSET = {"statement": 10, "function": 15, "kernel": 11}


def line_of(n: int, context: str) -> int:
    return 10 * n + LINE_OFFSET[context]


# Sums over a kernel's loop whose running total overflows: one warning, where the
# interpreter's total first overflows (the kernel's blocks cannot tell: the host adds).
REDUCTIONS = [
    ("S = S + A", ["operation overflow (+)"]),
    ("S = S - A", ["operation overflow (-)"]),
    ("S = S + (A + A)", ["operation overflow (+)"] * ITERATIONS),
]


def program(expressions: list[str], context: str) -> str:
    """Each expression evaluated on a line of its own, its value printed."""
    lines = [f"10 {SETUP} : DIM Y({ITERATIONS})"]
    for n, expr in enumerate(expressions, 1):
        if context == "statement":
            lines.append(f"{10 * n + 10} PRINT {n}; {expr}")
        elif context == "function":
            lines.append(f"{10 * n + 10} DEF FNE{n}(Q) = Q + ({expr})")
            lines.append(f"{10 * n + 15} PRINT {n}; FNE{n}(0)")
        else:
            lines.append(f"{10 * n + 10} FOR I = 1 TO {ITERATIONS}")
            lines.append(f"{10 * n + 11} LET Y(I) = {expr}")
            lines.append(f"{10 * n + 12} NEXT I")
            lines.append(f"{10 * n + 13} PRINT {n}; Y(1); Y({ITERATIONS})")
    lines.append(f"{10 * len(expressions) + 20} END")
    return "\n".join(lines) + "\n"


def reductions_program() -> str:
    lines = [f"10 {SETUP}"]
    for n, (statement, _) in enumerate(REDUCTIONS, 1):
        lines += [f"{10 * n + 10} LET S = 0", f"{10 * n + 11} FOR I = 1 TO {ITERATIONS}"]
        lines += [f"{10 * n + 12} LET {statement}", f"{10 * n + 13} NEXT I"]
        lines.append(f"{10 * n + 14} PRINT {n}; S")
    lines.append(f"{10 * len(REDUCTIONS) + 20} END")
    return "\n".join(lines) + "\n"


def programs() -> dict[str, str]:
    out = {}
    for context in CONTEXTS:
        out[f"warnings_{context}"] = program([e for e, _ in WARNINGS], context)
        for n, (expr, _, _) in enumerate(FATAL):
            out[f"fatal{n}_{context}"] = program([expr], context)
    out["reductions_kernel"] = reductions_program()
    return out


def repeated(warnings: list[str], context: str, n: int) -> list[str]:
    """What the n-th expression reports in `context` (every iteration of a kernel's
    loop), as "warning: line N: message"."""
    located = [f"warning: line {line_of(n, context)}: {w}" for w in warnings]
    return located * (ITERATIONS if context == "kernel" else 1)


@functools.cache
def analysis_of(name: str):
    return driver.front_end(SourceFile(f"{name}.bas", programs()[name]), Options())


@functools.cache
def cpp_executable():
    """The host-only programs (kernels' C names would clash in one batch)."""
    return build_batch(
        {
            name: driver.generate_host(driver.host_program(analysis_of(name)), "cuda")
            for name in programs()
            if not name.endswith("kernel")
        }
    )


def cpp_outcome(name: str) -> Outcome:
    analysis = analysis_of(name)
    if not name.endswith("kernel"):
        return outcome_of_run(run_program(cpp_executable(), name), analysis)
    run = driver.run(analysis, driver.generate(analysis, "cuda"), "cuda", "cpu")
    return outcome_of_run(run, analysis)


def python_outcome(name: str) -> Outcome:
    analysis = analysis_of(name)
    code = driver.generate(analysis, "cutile")
    return outcome_of_run(driver.run(analysis, code, "cutile", "cpu", stdin=""), analysis)


def test_the_table_states_what_the_interpreter_reports():
    for context in CONTEXTS:
        outcome = interpret(analysis_of(f"warnings_{context}"))
        expected = [w for n, (_, ws) in enumerate(WARNINGS, 1) for w in repeated(ws, context, n)]
        assert outcome.notices == expected and outcome.error is None
        for n, (_, error, warnings) in enumerate(FATAL):
            outcome = interpret(analysis_of(f"fatal{n}_{context}"))
            assert outcome.notices == repeated(warnings, context, 1)[: len(warnings)]
            line = line_of(1, context)
            assert outcome.error.endswith(f": error: line {line}: {error}"), outcome.error
    outcome = interpret(analysis_of("reductions_kernel"))
    expected = [
        f"warning: line {10 * n + 12}: {w}" for n, (_, ws) in enumerate(REDUCTIONS, 1) for w in ws
    ]
    assert outcome.notices == expected


def test_the_kernel_context_has_kernels():
    """Every loop of the kernel context runs as a kernel (else it tests nothing new), but
    those whose constant expression warns in every iteration (`EXP(1000)`): their loops
    stay on the host by design."""
    for name in programs():
        if name.endswith("kernel"):
            host = driver.host_program(analysis_of(name))
            decisions = [d for d in host.decisions if not d.offloaded]
            assert all("constant expression" in d.reason for d in decisions), name
            loops = programs()[name].count(" FOR ")
            assert len(host.kernels) == loops - len(decisions), name
            assert len(decisions) <= 4, name


@pytest.mark.parametrize("name", sorted(programs()))
def test_generated_programs_report_what_the_interpreter_reports(name: str):
    expected = interpret(analysis_of(name))
    assert python_outcome(name) == expected
    assert cpp_outcome(name) == expected


def test_check_fails_when_the_messages_differ(monkeypatch):
    """--check compares the messages, not just stdout and the exit status."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    analysis = analysis_of("warnings_statement")
    code = driver.generate(analysis, "cutile")
    report = io.StringIO()
    assert driver.check(analysis, code, "cutile", "cpu", out=report) == 0, report.getvalue()
    quiet = code.replace("add(a, a)", "(a + a)", 1)  # the same value, without the warning
    assert quiet != code
    report = io.StringIO()
    assert driver.check(analysis, quiet, "cutile", "cpu", out=report) == 1
    assert "-warning: line 20: operation overflow (+)" in report.getvalue()


TIE = """10 DIM X(1000), Z(1000)
20 LET A = 1E308
30 FOR I = 1 TO 1000
40 LET X(I) = 0
50 NEXT I
60 LET X(100) = 5 : LET X(700) = 5 : LET Z(3) = 10
70 LET M = -1 : LET J = 0
80 FOR I = 1 TO 1000
90 LET W = Z(I) * A
100 IF X(I) > M THEN M = X(I) : J = I
110 NEXT I
120 PRINT M; J
130 END
"""


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_rerun_blocks_and_arg_max_merge_in_block_order(target):
    """Lane 3 overflows, so its block (lanes 1-512) is rerun on the host; the maximum 5
    is at lanes 100 and 700: the first one wins, as in the interpreter, only if the
    rerun block is merged before the block of lane 700."""
    analysis = driver.front_end(SourceFile("tie.bas", TIE), Options())
    assert len(driver.host_program(analysis).kernels) == 2
    expected = interpret(analysis)
    assert expected.stdout == " 5  100 \n"
    assert expected.notices == ["warning: line 90: operation overflow (*)"]
    run = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert outcome_of_run(run, analysis) == expected


MATRIX_NEST = """10 DIM A(3,3), B(3,3), C(3,3)
20 FOR I = 1 TO 3
30 FOR J = 1 TO 3
40 LET A(I,J) = I * 1E300
50 LET B(I,J) = J
60 NEXT J
70 NEXT I
80 LET B(2,2) = 1E10
90 FOR J = 1 TO 3
100 FOR I = 1 TO 3
110 LET S = 0
120 FOR K = 1 TO 3
130 LET S = S + A(I,K) * B(K,J)
140 NEXT K
150 LET C(I,J) = S
160 NEXT I
170 NEXT J
180 PRINT C(1,1); C(2,2); C(3,3)
190 END
"""


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_matrix_product_kernel_reports_overflows_in_the_nests_order(target):
    """The I, J, K nest is an mma kernel; the three elements of column J = 2 overflow
    (1E300 * 1E10) and are rerun on the host, J before I as the nest runs."""
    analysis = driver.front_end(SourceFile("nest.bas", MATRIX_NEST), Options())
    assert any(k.kind == "mma" for k in driver.host_program(analysis).kernels)
    expected = interpret(analysis)
    assert expected.notices == ["warning: line 130: operation overflow (*)"] * 3
    run = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert outcome_of_run(run, analysis) == expected


NEST = """10 DIM G(40, 40)
20 FOR I = 1 TO 40
30 FOR J = 1 TO 40
40 LET G(I, J) = EXP(I * J / 2)
50 NEXT J
60 NEXT I
70 PRINT G(1, 1); G(40, 40)
80 END
"""


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_a_nest_reruns_its_blocks_in_the_loops_order(target):
    """EXP overflows where I * J > 1419, in 3 of the 4 blocks of 32 x 32 iterations: the
    host reruns them row by row, as the loops run."""
    analysis = driver.front_end(SourceFile("nest.bas", NEST), Options())
    assert [k.kind for k in driver.host_program(analysis).kernels] == ["map"]
    expected = interpret(analysis)
    overflowing = [(i, j) for i in range(1, 41) for j in range(1, 41) if i * j / 2 > 709.78]
    assert expected.notices == [
        f"warning: line 40: operation overflow EXP({i * j / 2:g})" for i, j in overflowing
    ]
    run = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert outcome_of_run(run, analysis) == expected


RUNS = {
    # The subscripts of Y run past its DIM at I = 4: before the launch the host finds
    # it, runs the iterations itself and stops where the interpreter stops, after the
    # warnings of the iterations before.
    "out of range later": (
        "10 DIM Y(3), Z(10)\n20 LET A = 1E308\n30 FOR I = 1 TO 4\n40 LET Z(I) = A * 10\n"
        "50 LET Y(I) = I\n60 NEXT I\n70 END\n"
    ),
    # Y(11) and Y(12) are never used: no error (the check before the launch used to
    # report one).
    "out of range but unused": (
        "10 DIM Y(10)\n20 FOR I = 1 TO 12\n30 IF I <= 10 THEN Y(I) = I\n40 NEXT I\n"
        "50 PRINT Y(10)\n60 END\n"
    ),
}


@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("case", sorted(RUNS))
def test_runs_past_the_bounds_report_what_the_interpreter_reports(case, target):
    analysis = driver.front_end(SourceFile("runs.bas", RUNS[case]), Options())
    assert driver.host_program(analysis).kernels
    expected = interpret(analysis)
    run = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert outcome_of_run(run, analysis) == expected
    assert (expected.error is None) == (case == "out of range but unused")
