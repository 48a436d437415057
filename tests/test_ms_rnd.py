"""RND and RANDOMIZE in each dialect, and TIMER.

Microsoft BASIC (--dialect ms) draws GW-BASIC's numbers: its generator is ported from
GW-BASIC's (runtime/rnd.py), so PC-BASIC 2.0.8 (tests/pcbasic_oracle.py) is an exact
oracle for every form of RND and RANDOMIZE.  The expected texts below are what PC-BASIC
printed for the same programs; `requires_pcbasic` tests run it again.  The generated
cuTile Python and CUDA C++ must draw the same numbers as the interpreter, exactly.
"""

from __future__ import annotations

import io

import pytest

from tests.differential import Run, compare_runs
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic
from transpiler import driver
from transpiler.errors import BasicRuntimeError, CompileErrors, SourceFile
from transpiler.options import Options
from transpiler.runtime import RND, rnd, use_dialect
from transpiler.runtime.dialect import running_dialect
from transpiler.runtime.msformat import format_single

from .test_ms_numbers import TARGETS


def run_everywhere(text: str, std: str = "ms", stdin: str = "") -> Run:
    """The interpreter's run (stdin given), after checking that both generated programs
    agree with it: stdout exactly, the exit status, the warnings and the error."""
    analysis = driver.front_end(SourceFile("r.bas", text), Options(std=std))
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except BasicRuntimeError as exc:  # exit status 1, as the command line
        err.write(exc.render(analysis.source) + "\n")
        status = 1
    reference = Run(status, out.getvalue(), err.getvalue())
    for target in TARGETS:
        code = driver.generate(analysis, target)
        result = driver.run(analysis, code, target, "cpu", stdin=stdin)
        generated = Run(result.returncode, result.stdout, result.stderr)
        assert generated.stdout == reference.stdout, target
        assert not compare_runs(reference, generated, target, analysis.number_type, analysis)
    return reference


FORMS = (
    "10 PRINT RND; RND(1); RND(0); RND(5); RND(.001)\n"
    "20 PRINT RND(-1); RND; RND(-3.7); RND(0); RND(-3.7)\n"
    "30 RANDOMIZE 1: PRINT RND; RND\n"
    "40 RANDOMIZE 1!: PRINT RND\n"
    "50 RANDOMIZE -7: PRINT RND\n"
    "60 X = 1: RANDOMIZE X: PRINT RND\n"
    "70 X% = 1: RANDOMIZE X%: PRINT RND\n"
    "80 RANDOMIZE 12345#: PRINT RND\n"
    "90 RANDOMIZE 40000: PRINT RND\n"
    "100 RANDOMIZE 0: PRINT RND\n"
    "110 FOR I = 1 TO 5: PRINT INT(RND * 6) + 1;: NEXT I: PRINT\n"
)
# PC-BASIC 2.0.8's output for FORMS.  The seed of RANDOMIZE depends on the type of its
# value (1 is an integer, 1! and X singles, -7 a single: unary minus of an integer).
FORMS_OUTPUT = (
    " .1213501  .651861  .651861  .8688611  .7297625 \n"
    " .65086  .6545178  .1784113  .1784113  .1784113 \n"
    " .2694506  7.041365E-02 \n"
    " .4296286 \n"
    " .299434 \n"
    " .1488776 \n"
    " .542832 \n"
    " .7635314 \n"
    " .9962404 \n"
    " .9506225 \n"
    " 5  1  2  2  3 \n"
)


def test_gw_basic_s_generator_in_every_form():
    assert run_everywhere(FORMS).stdout == FORMS_OUTPUT


@requires_pcbasic
def test_gw_basic_s_generator_against_pcbasic():
    assert pcbasic_output(FORMS) == FORMS_OUTPUT
    program = "10 FOR I = 1 TO 200: X = RND(-I / 7): Y = RND: PRINT X; Y: NEXT I\n"
    assert run_everywhere(program).stdout == pcbasic_output(program)


def test_plain_randomize_asks_for_the_seed_as_gw_basic_does():
    # PC-BASIC asks again after "abc", takes 42 and stops with "Overflow" for 70000;
    # an empty reply is 0.
    program = "10 RANDOMIZE\n20 PRINT RND\n30 RANDOMIZE\n40 PRINT RND\n50 RANDOMIZE\n"
    prompt = "Random number seed (-32768 to 32767)? "
    run = run_everywhere(program, stdin="abc\n42\n\n70000\n")
    # (PC-BASIC shows each reply after its prompt: the terminal's echo.)
    # The error shows on GW-BASIC's screen, on the line after the reply (echoed there).
    screen = f"{prompt}{prompt} 7.170654E-02 \n{prompt} .8630632 \n{prompt}Overflow in 50\n"
    assert run.stdout == screen
    assert run.status == 1 and "r.bas:5:4: error: Overflow (70000)" in run.stderr


def test_randomize_timer_is_the_same_in_both_runs_of_check(monkeypatch):
    monkeypatch.setenv("BASIC2TILE_TIMER", "43200.25")
    run = run_everywhere("10 RANDOMIZE TIMER\n20 PRINT TIMER; RND\n")
    with running_dialect("ms"):
        rnd.RANDOMIZE(43200.25, "single")  # TIMER is a single
        want = f" 43200.25 {format_single(rnd.RND())} \n"
    assert run.stdout == want


# --------------------------------------------------------------------------- other dialects


@pytest.mark.parametrize("std", [None, "extended"])
def test_extended_rnd_takes_microsoft_s_argument(std):
    program = (
        "10 A = RND(1): B = RND(0): C = RND(5): PRINT A = B; A = C\n"
        "20 X = RND(-3): Y = RND(1): Z = RND(-3): PRINT X = Z; X = Y\n"
        "30 RANDOMIZE 7: P = RND: RANDOMIZE 7: Q = RND: PRINT P = Q\n"
    )
    analysis = driver.front_end(SourceFile("r.bas", program), Options(std=std))
    assert analysis.options.dialect == "extended" and analysis.number_type == "f64"
    assert run_everywhere(program, std or "extended").stdout == "-1  0 \n-1  0 \n-1 \n"


def test_dartmouth_ignores_the_argument():
    program = "10 A = RND(0): B = RND(0): C = RND(-1): PRINT A = B; B = C\n"
    assert run_everywhere(program, "dartmouth").stdout == " 0  0 \n"
    with running_dialect("dartmouth"):
        first = RND(0)
    with running_dialect("extended"):
        assert RND(1) == first  # the same SplitMix64 sequence, from the same start


def test_ecma55_rnd_takes_no_argument():
    with pytest.raises(CompileErrors) as info:
        driver.front_end(SourceFile("r.bas", "10 LET X = RND(1)\n20 END\n"), Options(std="ecma55"))
    assert [e.message for e in info.value.errors] == ["function RND takes 0 arguments, 1 given"]


def test_each_run_starts_the_sequence_again():
    with running_dialect("ms"):
        first = [RND(), RND()]
    with running_dialect("ms"):
        assert [RND(), RND()] == first
    use_dialect("extended")
