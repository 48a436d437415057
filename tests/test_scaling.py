"""Every stage does work linear in the size of the program (issue 13).

Each stage runs on programs of N, 2N and 4N lines in each shape of `program_shapes`,
and the lines of basic2tile's code it runs must grow linearly (`scaling.growth`).  These
counts are deterministic, but they miss work done in C: a search of a list with `in`, a
string extended by `+`, CPython's compiler, the formatters (left out here; see
tests/test_python_comment_runs.py and test_cuda_format.py).  The `slow` tests below time
those, and every mode on REM lines as the issue measured it, at sizes where a quadratic
cost stands out.
"""

from __future__ import annotations

import io
import sys

import pytest

from tests import program_shapes
from tests.scaling import (
    LINEAR_GROWTH,
    LINEAR_TIME_RATIO,
    cpu_seconds,
    growth,
    lines_run,
    time_ratio,
)
from transpiler import driver
from transpiler.reports import report
from transpiler.backends.cuda import host as cuda_host
from transpiler.errors import SourceFile
from transpiler.reports.explain import explain
from transpiler.options import Options


def _interpret(analysis) -> None:
    quiet = io.StringIO
    driver.interpret(analysis, stdin=quiet(), stdout=quiet(), stderr=quiet())


STAGES = {
    "front_end": lambda source, analysis: driver.front_end(source, Options()),
    "interpreter": lambda source, analysis: _interpret(analysis),
    "structuring": lambda source, analysis: driver.host_program(analysis),
    "cutile": lambda source, analysis: driver.generate(analysis, "cutile"),
    "cuda": lambda source, analysis: driver.generate(analysis, "cuda"),
    "explain": lambda source, analysis: explain(analysis),
    "html": lambda source, analysis: report.build_report(analysis),
}
# The random programs vary in kind as they grow; they are timed by bench/transpile.py.
SHAPES = [name for name in program_shapes.SHAPES if name != "generated"]


@pytest.fixture
def no_formatters(monkeypatch):
    """The printers' text as it is: the formatters run in their own processes."""
    monkeypatch.setattr(driver, "formatted", lambda code, target: code)


def _lines_run_at(shape: str, stage: str):
    def measure(size: int) -> int:
        source = SourceFile(f"{shape}.bas", program_shapes.SHAPES[shape](size))
        analysis = driver.front_end(source, Options())
        return lines_run(lambda: STAGES[stage](source, analysis))

    return measure


@pytest.mark.parametrize("stage", list(STAGES))
@pytest.mark.parametrize("shape", SHAPES)
def test_each_stage_is_linear_in_each_shape(shape, stage, no_formatters):
    measure = _lines_run_at(shape, stage)
    measure(50)  # imports, caches and compiled templates, once
    found, counts = growth(measure, 100)
    assert found <= LINEAR_GROWTH, f"{stage} on {shape}: lines run at 100/200/400: {counts}"


def test_the_interpreter_compiles_with_the_collector_paused(monkeypatch):
    """Collections during compilation re-scan the whole heap again and again (a
    40,000-line program compiled four times slower); the program runs with it on."""
    import gc

    from transpiler import interpreter
    from transpiler.interpreter import machine

    seen = []

    def spy(name, real):
        def wrapper(*args, **kwargs):
            seen.append((name, gc.isenabled()))
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(
        interpreter, "compile_program", spy("generate", interpreter.compile_program)
    )
    monkeypatch.setattr(machine, "compile", spy("compile", compile), raising=False)
    monkeypatch.setattr(machine.Machine, "_dispatch", spy("run", machine.Machine._dispatch))
    analysis = driver.front_end(SourceFile("p.bas", "10 PRINT 1\n20 END\n"), Options())
    _interpret(analysis)
    assert seen == [("generate", False), ("compile", False), ("run", True)]


@pytest.mark.slow
def test_the_interpreter_appends_to_a_string_in_linear_time():
    """`A$ = A$ + "X"` copied the whole string each time (a million times: 187 s).  A
    string holds at most 255 characters (it was unchecked in this statement, the
    interpreter alone), so the loop starts again from "" every 250."""

    def seconds(count: int) -> float:
        text = (
            f'10 LET A$ = ""\n20 FOR I = 1 TO {count}\n30 LET A$ = A$ + "X"\n'
            '35 IF LEN(A$) = 250 THEN A$ = ""\n40 NEXT I\n50 PRINT LEN(A$)\n'
        )
        analysis = driver.front_end(SourceFile("append.bas", text), Options())
        return cpu_seconds(lambda: _interpret(analysis))

    assert time_ratio(seconds, 250_000) <= LINEAR_TIME_RATIO


def _check(analysis) -> None:
    code = driver.generate(analysis, "cutile")
    stdin, sys.stdin = sys.stdin, io.StringIO()  # driver.check reads a piped stdin
    try:
        assert driver.check(analysis, code, "cutile", "cpu", out=io.StringIO()) == 0
    finally:
        sys.stdin = stdin


MODES = {
    "interpret": _interpret,
    "py": lambda analysis: driver.generate(analysis, "cutile"),
    "cu": lambda analysis: driver.generate(analysis, "cuda"),
    "explain": explain,
    "html": report.build_report,
    "check": _check,
}


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_every_mode_is_linear_in_rem_lines(mode):
    """2,500 REM lines took 1.2 s, 10,000 took 13 s, in every mode (the formatters and
    the generated program's run included here)."""

    def seconds(lines: int) -> float:
        source = SourceFile("rem.bas", program_shapes.rem_run(lines))
        return cpu_seconds(lambda: MODES[mode](driver.front_end(source, Options())))

    seconds(50)
    assert time_ratio(seconds, 2500) <= LINEAR_TIME_RATIO


@pytest.mark.slow
def test_the_interpreter_compiles_many_blocks_in_linear_time():
    """Each GOSUB target is a block function; nested in `_program`, each one cost
    CPython's compiler a copy of all of `_program`'s names (25,000 blocks: 20 s)."""
    from transpiler.collector import collector_paused
    from transpiler.interpreter import compile_program

    @collector_paused()  # as run_program and Machine compile
    def compiled(analysis):
        return compile(compile_program(analysis).text, "g", "exec")

    def seconds(lines: int) -> float:
        analysis = driver.front_end(SourceFile("g.bas", program_shapes.gosubs(lines)), Options())
        return cpu_seconds(lambda: compiled(analysis))

    assert time_ratio(seconds, 10_000) <= LINEAR_TIME_RATIO


@pytest.mark.slow
def test_the_cuda_printer_records_dispatch_labels_in_constant_time(monkeypatch):
    """The labels of a dispatch loop were a list searched at every use (100,000 lines
    of an IF chain entered by a GOTO: 12.6 s of the 20 s of printing)."""
    made = []
    real = cuda_host.StatementPrinter
    monkeypatch.setattr(  # the module printer makes its statement printer from this
        cuda_host._ModulePrinter,
        "statement_printer",
        staticmethod(lambda *args: made.append(real(*args)) or made[-1]),
    )
    analysis = driver.front_end(SourceFile("p.bas", "10 GOTO 10\n"), Options())
    driver.generate(analysis, "cuda")
    printer = made[0]

    def seconds(count: int) -> float:
        return cpu_seconds(lambda: [printer.label_text(f"{count}:{k}") for k in range(count)])

    assert time_ratio(seconds, 25_000, repeat=3) <= LINEAR_TIME_RATIO
