"""The pipeline in one place: source -> AST -> analysis -> interpreter or backends.

The CLI, the tests and the benchmarks all go through these functions.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .errors import SourceFile
from .options import Options


def front_end(source: SourceFile, options: Options):
    """Parse and analyse; raises CompileErrors with every diagnostic found."""
    from .parser import parse
    from .passes import analyze

    program = parse(source, options)
    return analyze(program, source, options)


def interpret(
    analysis,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run with the reference interpreter; returns the exit status."""
    from .interpreter import run_program

    return run_program(
        analysis,
        stdin=stdin or sys.stdin,
        stdout=stdout or sys.stdout,
        stderr=stderr or sys.stderr,
    )
