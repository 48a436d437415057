"""Every stage does work linear in the size of the program (issue 13).

Each stage runs on programs of N, 2N and 4N lines in each shape of `program_shapes`,
and the lines of basic2tile's code it runs must grow linearly (`scaling.growth`).  These
counts are deterministic, but they miss work done in C: a search of a list with `in`, a
string extended by `+`, CPython's compiler, the formatters (left out here; see
tests/test_python_comment_runs.py and test_cuda_format.py).  bench/linear_time.py times
those, and every mode on REM lines as the issue measured it, at sizes where a quadratic
cost stands out: a time is a benchmark's to print, never a test's to assert.
"""

from __future__ import annotations

import io

import pytest

from tests import program_shapes
from tests.scaling import (
    LINEAR_GROWTH,
    growth,
    lines_run,
)
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports import report
from transpiler.reports.explain import explain


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
