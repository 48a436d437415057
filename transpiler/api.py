"""basic2tile as a library: translate BASIC to cuTile Python or CUDA C++, read its
diagnostics, run the reference interpreter.

    from transpiler import api

    out = api.translate("10 PRINT 1/3\\n20 END\\n", target="cuda")
    out.code              # the C++ text `basic2tile prog.bas -o prog.cu` writes
    out.warnings          # [Diagnostic(...)]: file, line, column, message, rendered text
    out.dialect           # "extended" (or the one a construct pinned: "ms", ...)

    run = api.interpret("10 INPUT A\\n20 PRINT A*2\\n", stdin="21\\n")
    run.stdout, run.stderr, run.status     # "?  42 \\n", "", 0 (INPUT's prompt, the value)

    try:
        api.translate("10 PRINT (1\\n")
    except api.CompileError as exc:
        exc.diagnostics[0].line, exc.diagnostics[0].column    # 1, 12
        print(exc)    # "prog.bas:1:12: error: ..." with the source line and a caret

Everything goes through the functions the command line uses (`driver.py`), so a program
translates and runs here exactly as `basic2tile` translates and runs it.  The functions
take the BASIC text (`translate`, `interpret`) or a path (`translate_file`); `name` is
the file name diagnostics and generated comments show.  Options are keywords with the
command line's names: `dialect` (`--dialect`), `precision`, `tile`, `offload`
(`--no-offload` is `offload=False`).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from . import driver
from .errors import BasicError, BasicRuntimeError, CompileErrors, SourceFile
from .options import Options

__all__ = [
    "CompileError",
    "Diagnostic",
    "Run",
    "Translation",
    "interpret",
    "translate",
    "translate_file",
]

TARGETS = ("cutile", "cuda")


@dataclass(frozen=True)
class Diagnostic:
    """One error, warning or note about the program, where it stands."""

    severity: str  # "error", "warning" or "note"
    message: str
    file: str
    line: int  # 1-based; 0 for the whole file
    column: int  # 1-based; 0 for the whole line
    text: str  # as the command line prints it: location, message, source line, caret

    def __str__(self) -> str:
        return self.text


class CompileError(Exception):
    """The program cannot be translated: `diagnostics` says why and where (every error
    found, in source order).  `str()` is the command line's text."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.text for d in diagnostics))


@dataclass(frozen=True)
class Translation:
    code: str  # the generated module (Python) or translation unit (C++)
    target: str  # "cutile" or "cuda"
    dialect: str  # the dialect the program was read in
    kind: str  # "legacy" (a BASIC program) or "kernel" (a cuTile BASIC kernel program)
    warnings: list[Diagnostic]  # warnings and notes, in source order


@dataclass(frozen=True)
class Run:
    stdout: str
    stderr: str  # warnings, and the fatal error if any, as the command line prints them
    status: int  # 0, or 1 after a fatal run-time error


def translate(
    text: str,
    target: str = "cutile",
    *,
    name: str = "prog.bas",
    dialect: str | None = None,
    precision: str | None = None,
    tile: tuple[int, ...] | None = None,
    offload: bool = True,
) -> Translation:
    """`text` (a BASIC program) as cuTile Python (`target="cutile"`) or CUDA C++
    (`"cuda"`); raises CompileError."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, not {target!r}")
    source = SourceFile(name, text)
    analysis = _front_end(source, Options(std=dialect, precision=precision))
    try:
        code = driver.generate(analysis, target, tile, offload, Path(name).stem + ".cu")
    except BasicError as exc:
        raise CompileError([_diagnostic(exc, source)]) from None
    return Translation(
        code=code,
        target=target,
        dialect=analysis.options.std or "extended",
        kind=analysis.kind,
        warnings=_warnings(analysis, source),
    )


def translate_file(path: str | Path, target: str | None = None, **options) -> Translation:
    """The BASIC file `path` translated; `target` None: from nothing else, cuTile."""
    path = Path(path)
    text = path.read_text(encoding="latin-1")
    return translate(text, target or "cutile", name=path.name, **options)


def interpret(
    text: str,
    stdin: str = "",
    *,
    name: str = "prog.bas",
    dialect: str | None = None,
    precision: str | None = None,
    max_steps: int | None = None,
) -> Run:
    """Run `text` with the reference interpreter (what `--interpret` prints), reading
    `stdin`; raises CompileError if it cannot be translated."""
    source = SourceFile(name, text)
    analysis = _front_end(source, Options(std=dialect, precision=precision, max_steps=max_steps))
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analysis, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    except BasicRuntimeError as exc:
        err.write(exc.render(source) + "\n")
        status = 1
    return Run(out.getvalue(), err.getvalue(), status)


def _front_end(source: SourceFile, options: Options):
    try:
        return driver.front_end(source, options)
    except CompileErrors as exc:
        raise CompileError([_diagnostic(e, source) for e in exc.errors]) from None
    except BasicError as exc:
        raise CompileError([_diagnostic(exc, source)]) from None


def _warnings(analysis, source: SourceFile) -> list[Diagnostic]:
    found = [*analysis.warnings, *analysis.notes]
    found.sort(key=lambda d: (d.coord.line, d.coord.column) if d.coord else (0, 0))
    return [_diagnostic(d, source) for d in found]


def _diagnostic(error: BasicError, source: SourceFile) -> Diagnostic:
    coord = error.coord
    return Diagnostic(
        severity=error.severity,
        message=error.message,
        file=coord.file if coord else source.name,
        line=coord.line if coord else 0,
        column=coord.column if coord else 0,
        # A note is one line on the command line too (no source line, no caret).
        text=str(error) if error.severity == "note" else error.render(source),
    )
