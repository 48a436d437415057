"""Microsoft BASIC's control flow outside strict mode: FOR loops on a run-time stack
(a GOTO into a loop body, NEXT inside IF ... THEN, NEXT without a variable, NEXT I, J,
a FOR on the variable of an enclosing FOR), IF ... THEN 100 : ..., ': ELSE', THEN ELSE,
and ON ... GOTO / GOSUB falling through.

The expected outputs were checked against PC-BASIC 2.0.8 (a GW-BASIC emulator; see
test_ms_flow_oracle.py, which compares with it live when it is installed).  Each program
also runs through the generated cuTile Python and CUDA C++ on the CPU, which must agree
with the interpreter exactly (stdout, exit status, warnings and errors).
"""

from __future__ import annotations

import pytest

from transpiler import driver
from transpiler.ir import hostir
from transpiler.options import Options

from .differential import Run, compare_runs, differential, interpret, run_target
from .interpreter_helpers import run_capturing, source
from .passes_helpers import analysis_of, errors_of

# Each: (name, program, what the interpreter prints, its error or None).
PROGRAMS = [
    (
        "jump_into_body",
        """
        10 FOR W=1 TO 3
        20 PRINT "W";W;
        30 IF W=2 THEN 100
        40 NEXT W
        50 PRINT "END";W
        60 END
        100 PRINT "OUT";
        110 GOTO 40
        """,
        "W 1 W 2 OUTW 3 END 4 \n",
        None,
    ),
    (
        "next_in_if_and_bare_next",
        """
        10 FOR Z=1 TO 4: IF Z<3 THEN PRINT Z;: NEXT Z: PRINT "C";Z
        20 PRINT "D";Z
        30 FOR I=1 TO 2: FOR J=1 TO 2: PRINT I*10+J;: NEXT J, I: PRINT
        40 FOR I=1 TO 2: FOR I=5 TO 6: PRINT I;: NEXT I: PRINT "/";: NEXT I: PRINT
        50 FOR I=1 TO 3
        60 FOR J=1 TO 3
        70 IF J=2 THEN 90
        80 NEXT J
        90 NEXT
        100 PRINT "B";I;J
        """,
        " 1  2 D 3 \n 11  12  21  22 \n 5  6 /\nB 4  2 \n",
        None,
    ),
    (
        "subroutine_loops",
        """
        10 DIM A(5)
        20 FOR K=1 TO 5: A(K)=K*K: NEXT K
        30 FOR N=1 TO 3: V=N*N: GOSUB 100: PRINT F;: NEXT N: PRINT
        40 V=7: GOSUB 100: PRINT F
        50 END
        100 FOR K=1 TO 5: IF A(K)<>V THEN NEXT K: F=0: RETURN
        110 F=K: RETURN
        """,
        " 1  2  3 \n 0 \n",
        None,
    ),
    (
        "next_without_for_after_the_loop",
        """
        10 FOR K=1 TO 2
        20 PRINT "K";K;
        30 NEXT K
        40 PRINT
        50 GOTO 20
        """,
        "K 1 K 2 \nK 3 \n",
        (3, "NEXT without FOR"),
    ),
    (
        "on_falls_through",
        """
        10 ON 0 GOTO 30
        20 PRINT "FELL";
        30 ON 1.5 GOTO 40,50
        40 PRINT "40";
        50 PRINT "50";
        60 ON 2.5 GOTO 70,80
        70 PRINT "70";
        80 ON -0.4 GOSUB 200
        90 ON 2 GOSUB 200,210
        100 ON 3 GOSUB 200,210
        110 PRINT
        120 ON -1 GOTO 10
        200 PRINT "S200";: RETURN
        210 PRINT "S210";: RETURN
        """,
        "FELL5070S210\n",
        (12, "Illegal function call (ON index -1)"),
    ),
    (
        "if_forms",
        """
        10 IF 1 THEN 30 : PRINT "DEAD1"
        20 PRINT "NOT HERE"
        30 IF 0 THEN 50 : PRINT "DEAD2"
        40 PRINT "A";
        50 IF 0 THEN 60 ELSE 70 : PRINT "DEAD3"
        60 PRINT "NOT HERE"
        70 IF 1 THEN ELSE PRINT "NOT HERE"
        80 IF 0 THEN ELSE PRINT "B";
        90 IF 0 THEN PRINT "NOT HERE": ELSE PRINT "C";
        100 IF 1 GOTO 120 : PRINT "DEAD4"
        110 PRINT "NOT HERE"
        120 A=1: B=0: IF A THEN IF B THEN PRINT 1 : ELSE PRINT "D"; : ELSE PRINT 3
        130 A=0: IF A THEN IF B THEN PRINT 1 ELSE PRINT 2 : ELSE PRINT "E"
        """,
        "ABCDE\n",
        None,
    ),
    (
        "for_without_next",
        """
        10 FOR I=1 TO 2
        20 PRINT I;
        30 NEXT I
        40 FOR J=1 TO 2
        50 PRINT "NEVER"
        """,
        " 1  2 \n",
        (4, "FOR without NEXT"),
    ),
]


def _program(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines()) + "\n"


@pytest.mark.parametrize("name, text, expected, error", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_interpreter_runs_microsoft_flow(name, text, expected, error):
    out, _, raised = run_capturing(_program(text))
    assert out == expected
    if error is None:
        assert raised is None
    else:
        assert raised is not None
        assert (raised.coord.line, raised.message) == error


@pytest.mark.parametrize("name, text, expected, error", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_generated_programs_agree_with_the_interpreter(name, text, expected, error):
    outcome = differential(_program(text), name, targets=("cutile", "cuda"))
    assert outcome.agrees, outcome.describe()


# Microsoft BASIC (`--dialect ms`) only: a FOR that runs zero times leaves start + step
# (PC-BASIC prints 6 after FOR I = 5 TO 1, ECMA-55 and extended BASIC 5), in blocks, in
# loops on the FOR stack and in offloaded loops (line 100; line 120 is one that runs);
# STOP prints "Break in 200" (after ending the line).
MICROSOFT_PROGRAM = """
10 FOR I=5 TO 1
20 PRINT "BODY"
30 NEXT I
40 PRINT I
50 FOR J=1 TO 3: NEXT J: PRINT J
60 FOR K=10 TO 1 STEP -2: NEXT: PRINT K
70 FOR L=3 TO 1: IF L THEN PRINT "X": NEXT L: PRINT "Y"
80 PRINT L
90 DIM A(100)
100 FOR M=1 TO 0: A(M)=1: NEXT M
110 PRINT M;
120 FOR N=1 TO 100: A(N)=N: NEXT N
130 PRINT N
140 PRINT "Z";
150 GOSUB 200
160 PRINT "NOT HERE"
200 STOP
""".lstrip()
MICROSOFT_OUTPUT = " 6 \n 4 \n 0 \nY\n 4 \n 2  101 \nZ\nBreak in 200\n"


def run_microsoft(program: str, targets=("cutile", "cuda")) -> tuple[Run, list[str]]:
    """The interpreter's run under `--dialect ms`, and its disagreements with the
    generated programs."""
    analysis = driver.front_end(source(program), Options(std="ms"))
    reference = interpret(analysis)
    problems = []
    for target in targets:
        run = run_target(analysis, target)
        problems += compare_runs(reference, run, target, analysis.number_type, analysis)
    return reference, problems


def test_microsoft_zero_trip_for_and_stop_in_every_engine():
    reference, problems = run_microsoft(MICROSOFT_PROGRAM)
    assert (reference.stdout, reference.status) == (MICROSOFT_OUTPUT, 0)
    assert not problems, problems
    analysis = driver.front_end(source(MICROSOFT_PROGRAM), Options(std="ms"))
    offloaded = {d.label for d in driver.host_program(analysis).decisions if d.offloaded}
    assert {100, 120} <= offloaded
    extended = run_capturing(MICROSOFT_PROGRAM)[0]  # start value, no Break message
    assert extended == " 5 \n 4 \n 0 \nY\n 3 \n 1  101 \nZ\n"


def test_microsoft_zero_trip_of_an_inner_loop_in_a_kernel():
    program = """
10 DIM A(50), B(50)
20 FOR I=1 TO 50
30 FOR J=1 TO 0: NEXT J
40 A(I)=J*I: B(I)=I
50 NEXT I
60 PRINT A(7); B(7)
""".lstrip()
    reference, problems = run_microsoft(program)
    assert reference.stdout == " 14  7 \n" and not problems, problems
    analysis = driver.front_end(source(program), Options(std="ms"))
    assert [d.offloaded for d in driver.host_program(analysis).decisions] == [True]


# --------------------------------------------------------------------------- the analysis


def test_pairs_that_are_blocks_stay_blocks():
    a = analysis_of("""
        10 FOR I = 1 TO 3
        20 FOR J = 1 TO 3 : PRINT J : NEXT
        30 IF I = 2 THEN 50
        40 PRINT I
        50 NEXT I
        """)
    assert a.for_next == {0: 8, 1: 3} and not a.dynamic_for and not a.loop_faults


def test_a_jump_into_a_body_puts_the_loop_and_those_around_it_on_the_stack():
    a = analysis_of("""
        10 FOR I = 1 TO 3
        20 FOR J = 1 TO 3
        30 PRINT J
        40 NEXT J
        50 NEXT I
        60 FOR K = 1 TO 2 : NEXT K
        70 GOTO 30
        """)
    assert a.dynamic_for == {0: 4, 1: 3} and a.dynamic_next == {4: 0, 3: 1}
    assert a.for_next == {5: 6}
    assert a.dynamic_reason == {1: "a jump from line 70 enters its body"} | {
        0: "a jump from line 70 enters its body"
    }
    assert a.enclosing[2] is None  # run-time loops are no blocks
    a = analysis_of("10 FOR I = 1 TO 2 : IF I = 2 THEN 30\n20 FOR J = 1 TO 2\n30 NEXT J, I\n")
    assert a.dynamic_reason == {4: "a jump from line 10 enters its body"} | {
        0: "it holds the loop of line 20"
    }


def test_next_in_an_if_branch_and_nested_loops_of_one_variable():
    a = analysis_of("10 FOR Z = 1 TO 4 : IF Z < 3 THEN NEXT Z : PRINT Z\n")
    assert a.dynamic_for == {0: 2}
    assert a.dynamic_reason[0] == "its NEXT (line 10) is in another IF branch"
    a = analysis_of("10 FOR I = 1 TO 2 : FOR I = 1 TO 3 : NEXT I : NEXT I\n")
    assert a.dynamic_for == {0: 3, 1: 2}
    assert a.dynamic_reason[1] == "the FOR of line 10 around it has its variable"


def test_a_loop_calling_a_subroutine_with_a_run_time_loop_is_one_too():
    a = analysis_of("""
        10 FOR I = 1 TO 3 : GOSUB 100 : NEXT I
        20 FOR J = 1 TO 3 : GOSUB 200 : NEXT J
        30 END
        100 FOR K = 1 TO 2 : IF K = 1 THEN NEXT K
        110 RETURN
        200 PRINT : RETURN
        """)
    assert a.dynamic_for == {0: 2, 7: 9} and a.for_next == {3: 5}
    assert a.dynamic_reason[0] == "a subroutine it calls runs a loop on the FOR stack"


def test_faults_are_run_time_errors_with_a_warning():
    a = analysis_of("10 FOR I = 1 TO 2\n20 NEXT J\n30 NEXT\n40 FOR K = 1 TO 2\n")
    faults = {0: "NEXT without FOR", 1: "NEXT without FOR", 2: "NEXT without FOR"}
    assert a.loop_faults == faults | {3: "FOR without NEXT"}
    assert [(w.coord.line, w.message) for w in a.warnings] == [
        (2, "NEXT J closes FOR I of line 10 (the error NEXT without FOR when it runs)"),
        (3, "NEXT without FOR (an error when it runs)"),
        (4, "FOR K without NEXT (the error FOR without NEXT when it runs)"),
    ]
    out, err, raised = run_capturing("10 PRINT 1\n20 FOR I = 1 TO 2\n30 NEXT J\n")
    assert out == " 1 \n" and raised.message == "NEXT without FOR" and raised.coord.line == 2
    assert "prog.bas:3:4: warning: NEXT J closes FOR I of line 20" in err


def test_strict_mode_keeps_the_static_rules():
    program = "10 GOTO 30\n20 FOR I = 1 TO 9\n30 PRINT I\n40 NEXT I\n50 END\n"
    assert errors_of(program, std="ecma55") == [
        (1, 9, "jump into the FOR I block of line 20 from outside it")
    ]
    _, _, error = run_capturing("10 ON 0 GOTO 20\n20 STOP\n30 END\n", std="ecma55")
    assert error.message == "ON index out of range (0; 1 to 1 allowed)"


def test_run_time_loops_are_explained_and_other_loops_still_offloaded():
    src = source("""
        10 DIM X(100)
        20 FOR I = 1 TO 100 : X(I) = I * 2 : NEXT I
        30 FOR K = 1 TO 3 : IF K < 2 THEN PRINT K; : NEXT K : PRINT "C"
        40 PRINT X(50)
        """)
    analysis = driver.front_end(src, Options())
    host = driver.host_program(analysis)
    launches = [n for n in hostir.walk(host.body) if isinstance(n, hostir.Launch)]
    assert len(launches) == 1
    from transpiler.reports.explain import explain

    text = explain(analysis)
    why = "runs on the run-time FOR stack: its NEXT (line 30) is in another IF branch"
    assert f"-> host: {why}" in text


def test_random_jumpy_programs_with_run_time_loops_agree_in_cuda():
    """test_structure.py runs its random programs through the cuTile Python; the first
    few of them with loops on the run-time FOR stack go through the CUDA C++ too."""
    from transpiler.errors import CompileErrors

    from .test_structure import random_program

    tried = 0
    for seed in range(100):
        text = random_program(seed)
        try:
            if not analysis_of(text).dynamic_for:
                continue
        except CompileErrors:
            continue
        outcome = differential(text, f"seed{seed}", targets=("cuda",))
        assert outcome.agrees, f"seed {seed}:\n{text}\n{outcome.describe()}"
        tried += 1
        if tried == 4:
            return
    raise AssertionError(f"only {tried} random programs with run-time loops")


UNDEFINED_LINES = """
10 READ A
20 IF A = 0 THEN 540
30 PRINT "A ="; A
40 IF A = 2 THEN GOSUB 700
50 GOTO 10
60 DATA 1, 2
""".lstrip()


def test_a_jump_to_a_missing_line_stops_only_when_it_runs_under_microsoft_basic():
    """GW-BASIC checks a GOTO when it runs ("Undefined line number in 40", PC-BASIC
    2.0.8 for `10 GOTO 540`: "Undefined line number in 10"): a game that never takes it
    runs; one that does stops there, in every engine.  Other dialects reject it."""
    a = analysis_of(UNDEFINED_LINES, std="ms")
    assert [(w.coord.line, w.coord.column, w.message) for w in a.warnings] == [
        (2, 18, "Undefined line number: jump to non-existing line 540 (Microsoft BASIC "
         "stops with it when the statement runs)"),
        (4, 24, "Undefined line number: jump to non-existing line 700 (Microsoft BASIC "
         "stops with it when the statement runs)"),
    ]  # fmt: skip
    reference, problems = run_microsoft(UNDEFINED_LINES)
    assert reference.status == 1  # the error shows as on GW-BASIC's screen, too
    assert reference.stdout == "A = 1 \nA = 2 \nUndefined line number in 40\n"
    assert "prog.bas:4:18: error: Undefined line number" in reference.stderr
    assert not problems, problems
    for std in ("extended", "dartmouth"):
        assert errors_of(UNDEFINED_LINES, std=std) == [
            (2, 18, "jump to non-existing line 540"),
            (4, 24, "jump to non-existing line 700"),
        ]
    on_goto = "10 ON 1 GOTO 20, 30\n20 END\n"  # ON keeps the compile-time check
    assert errors_of(on_goto, std="ms") == [(1, 18, "jump to non-existing line 30")]


# `IF X THEN 30` skips lines 20..29 when X is false: the structured code tests "not X",
# which must be X = 0 there, not Microsoft's bitwise NOT X (NOT 1 is -2, true).  Both
# targets ran line 20 for X = 1 before.  Oracle: PC-BASIC 2.0.8 printed this.
IF_NUMBER_JUMPS = """\
10 X=1: Y=2
15 IF X THEN 30
20 PRINT "no"
30 PRINT "yes"
40 IF Y THEN 60
50 PRINT "no2"
60 IF X-1 THEN 80
70 PRINT "c"
80 I=I+1: IF I < 3 THEN 80
90 IF NOT X THEN 110
100 PRINT "d"
110 PRINT I
"""


def test_if_a_number_then_a_line_skips_in_every_engine(tmp_path):
    from .test_ms_crosscut import interpreted_and_checked

    assert interpreted_and_checked(tmp_path, IF_NUMBER_JUMPS) == "yes\nc\n 3 \n"
