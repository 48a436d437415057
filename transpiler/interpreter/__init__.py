"""The reference interpreter: ECMA-55 Minimal BASIC (with bas55's choices, so that the
NBS corpus's expected output is an exact oracle) plus the extensions.

`run_program(analysis, stdin=, stdout=, stderr=)` compiles the analysed program to
Python once (`codegen.py`: a function per dispatch point, structured FOR/WHILE/IF blocks
as Python loops and ifs, expressions inline) and runs it (`machine.py`).  Warnings go to
`stderr` with their location; a fatal run-time error ends the line being printed,
flushes the output and raises `BasicRuntimeError` located at its statement.

Semantics chosen where ECMA-55 is silent or for the extensions (see also
`basic2tile_runtime` for PRINT, INPUT, DATA, arithmetic exceptions and RND):
- Truth values: comparisons, AND, OR and NOT give -1 (true) or 0 (false); AND, OR and
  NOT are logical (any nonzero operand is true), not bitwise, and evaluate both sides.
- `a MOD b` takes the sign of `a` (C fmod): see `runtime/_interp_extras.py`.
- `%` variables hold 32-bit integers: assignment stores floor(x + 0.5); out of range
  is fatal.
- Strings: at most 18 characters in strict mode (bas55, ECMA-55's minimum); in extended
  mode LET has no limit (READ and INPUT still apply the runtime's 18).
- `--precision f32`: every value stored in a numeric
  variable or array element is rounded to float32; arithmetic itself is done in double.
- GOSUB nests at most 256 deep in strict mode (bas55), 10000 in extended mode.
- `Options.max_steps`: the program stops with the located error "step limit exceeded"
  after about that many statements (counted per straight-line run of statements, so the
  limit can be passed by a few).
- MAT statements: see `mat.py`.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..collector import collector_paused
from ..errors import BasicUnsupportedError, Coord
from ..ir.model import Analysis
from ..runtime.dialect import running_dialect
from .codegen import CompiledSource, Generator
from .machine import Machine
from .regions import find_regions

__all__ = ["compile_program", "run_program"]


def compile_program(analysis: Analysis, structure: bool = True) -> CompiledSource:
    """The Python source the interpreter runs for `analysis` (also for inspection).
    `structure=False` compiles no block to a Python loop or if (see regions.py)."""
    from ..passes.check.expression_depth import deep_recursion

    with deep_recursion():  # the generator recurses over expressions
        return Generator(analysis, find_regions(analysis, structure)).generate()


def run_program(
    analysis: Analysis,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    structure: bool = True,
) -> int:
    """Run a legacy program; returns the exit status (0).  Raises BasicRuntimeError.
    `structure=False` runs it without structured blocks (for testing)."""
    if analysis.kind == "kernel":
        raise BasicUnsupportedError(
            "this is a cuTile BASIC kernel program: the reference interpreter runs legacy "
            "BASIC only",
            Coord(analysis.source.name, 0, 0),
        )
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    for warning in analysis.warnings:
        stderr.write(warning.render(analysis.source) + "\n")
    with collector_paused():  # compiling, not running (see collector.py)
        compiled = compile_program(analysis, structure)
    with running_dialect(analysis.runtime_dialect() or analysis.options.dialect):
        return Machine(analysis, compiled, stdin, stdout, stderr).run()
