"""The pipeline in one place: source -> AST -> analysis -> interpreter or backends.

The CLI, the tests and the benchmarks all go through these functions, so each step
(parse, analyse, structure, offload, generate, format) runs in exactly one order:

    parse           PLY lexer + parser -> ast.Program
    analyze         semantic passes -> model.Analysis (names, types, structure, DATA)
    kernel programs kernel_dialect (checks) -> kernel_lowering -> ir.KernelLibrary
    legacy programs the middle end (passes/pipeline.py): structuring -> offload
                    planning -> vectorising -> host lowering -> hostir.HostProgram
    generate        the back ends' text from templates: cuTile Python or CUDA C++
    format          formatting/: Ruff's formatter (Black's style) or clang-format
    verify          verify/: NVIDIA's compilers (--emit: emit.py), builds and runs of
                    a generated .cu (--run, --check: cuda_run.py)

The compiling steps run with Python's cyclic garbage collector paused (`collector.py`)
and a recursion limit that fits the deepest expression the front end accepts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from .collector import collector_paused
from .errors import BasicError, BasicNote, CompileErrors, Coord, SourceFile
from .options import Options
from .run.process import RunResult  # noqa: F401  (callers of run() and check() read it here)


def _compiling(step):
    """Run a compiling step with the cyclic garbage collector paused (collector.py) and
    with a recursion limit that fits the deepest expression the front end accepts (the
    passes and printers recurse over expressions: passes/check/expression_depth.py)."""

    @functools.wraps(step)
    def compiling(*args, **kwargs):
        from .passes.check.expression_depth import deep_recursion

        with collector_paused(), deep_recursion():
            return step(*args, **kwargs)

    return compiling


@_compiling
def front_end(source: SourceFile, options: Options):
    """Parse and analyse; raises CompileErrors with every diagnostic found."""
    program, options, note = _program_and_dialect(source, options)
    _no_kernel_program_under_ms(program, options)
    # Imported after parsing, so a syntax error never depends on the passes importing.
    from .passes import analyze

    analysis = analyze(program, source, options)
    if note is not None:
        analysis.notes.append(note)
    return analysis


def _program_and_dialect(source: SourceFile, options: Options):
    """(the syntax tree, the options with the dialect it gets, the note saying why or
    None).  Without --dialect, a construct that only Microsoft BASIC has decides the
    dialect (docs/dialects.md, "Which dialect a program gets"); the note names the first one, where
    it stands.  Such a program is read again with Microsoft BASIC's reserved words and
    precedence where they differ (`SUM = 3`, which extended BASIC rejects, `7 MOD 2 * 3`);
    so the pins of a program that does not parse as extended BASIC count too."""
    from .frontend.parser import ParseErrors

    if options.std is not None:
        return parse_program(source, options), options, None
    try:
        program = parse_program(source, options)
        pins, qbasic_pins = program.microsoft_pins, program.qbasic_pins
    except ParseErrors as errors:
        if not errors.microsoft_pins and not errors.qbasic_pins:
            raise
        program, pins, qbasic_pins = None, errors.microsoft_pins, errors.qbasic_pins
    if qbasic_pins:
        # QuickBASIC's structured statements (DO, SELECT CASE...) pin --dialect qbasic,
        # which has Microsoft BASIC's numbers too, so they come before its pins (also
        # in a program that extended BASIC cannot parse: `DEFINT` then `DIM A(1 TO 5)`).
        what, coord = qbasic_pins[0]
        note = BasicNote(f"{what}: assuming --dialect qbasic", Coord(coord.file, coord.line, 0))
        options = dataclasses.replace(options, std="qbasic")
        return parse_program(source, options), options, note
    if not pins:
        return _dartmouth_if_mat(source, program, options)
    what, coord = pins[0]
    note = BasicNote(f"{what}: assuming --dialect ms", Coord(coord.file, coord.line, 0))
    options = dataclasses.replace(options, std="ms")
    from .frontend.lexer import reads_differently_under_ms

    if program is None or reads_differently_under_ms(source.text):
        try:
            program = parse_program(source, options)
        except CompileErrors as errors:
            raise CompileErrors([*errors.errors, note]) from None
        _check_calls_of_other_dialects(program, note)
    return program, options, note


def _dartmouth_if_mat(source: SourceFile, program, options: Options):
    """A MAT statement in a program without OPTION BASE pins --dialect dartmouth: every
    BASIC with MAT (Dartmouth, HP, Full BASIC) leaves row and column 0 out of it, where
    extended BASIC's MAT starts at OPTION BASE, 0 by default, so a Dartmouth program's
    `MAT READ A` of a `DIM A(2, 2)` would read nine numbers instead of four."""
    from .ir import ast

    if any(isinstance(node, ast.OptionBase) for node in program.walk()):
        return program, options, None
    mat = next((node for node in program.walk() if isinstance(node, (ast.MatRead, ast.MatInput, ast.MatPrint, ast.MatAssign))), None)
    if mat is None:
        return program, options, None
    note = BasicNote(
        "MAT statement: assuming --dialect dartmouth (MAT from row and column 1)",
        Coord(mat.coord.file, mat.coord.line, 0),
    )
    options = dataclasses.replace(options, std="dartmouth")
    return parse_program(source, options), options, note


def _check_calls_of_other_dialects(program, note: BasicNote) -> None:
    """In a program that a construct pinned to Microsoft BASIC, `MAX(A, B)` is an array
    element (GW-BASIC reserves no MAX), which extended BASIC reads as its function: a
    located error instead of a silent guess, unless a DIM says it is an array."""
    from .ir import ast
    from .language.builtins import BUILTINS

    dimensioned = {node.name for node in program.walk() if isinstance(node, ast.ArrayDecl)}
    errors = [
        BasicError(
            f"{node.name}(...) is an array in Microsoft BASIC, the function {node.name} in "
            f"{BUILTINS[node.name].dialect_name()}",
            node.coord,
            notes=("--dialect ms reads it as an array, as GW-BASIC does; or DIM it, or rename it",),
        )
        for node in program.walk()
        if isinstance(node, ast.Index)
        and node.name in BUILTINS
        and BUILTINS[node.name].syntax == "call"
        and node.name not in dimensioned
    ]
    if errors:
        raise CompileErrors([*errors, note])


def _no_kernel_program_under_ms(program, options: Options) -> None:
    """A cuTile BASIC kernel program is extended BASIC: under --dialect ms its words BID,
    SUM and MMA are names, as in GW-BASIC, so it is a located error there."""
    from .passes.kernel.kernel_dialect import first_kernel_statement

    if options.std != "ms":
        return
    stmt = first_kernel_statement(program)
    if stmt is not None:
        raise CompileErrors(
            [
                BasicError(
                    "a cuTile BASIC kernel program is extended BASIC, not Microsoft BASIC",
                    stmt.coord,
                    notes=("under --dialect ms, BID, SUM and MMA are names, as in GW-BASIC",),
                )
            ]
        )


def parse_program(source: SourceFile, options: Options):
    """The syntax tree; a kernel program's with NVIDIA's precedence of unary minus and
    `^` (grammar/kernel_precedence.py), so it is parsed again if it has a `^`."""
    from .frontend.parser import parse

    program = parse(source, options)
    from .passes.kernel.kernel_dialect import is_kernel_program

    if "^" in source.text and is_kernel_program(program):
        program = parse(source, options, kernel=True)
    return program


def interpret(
    analysis,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    sizes: dict | None = None,
) -> int:
    """Run with the reference interpreter; returns the exit status."""
    from .passes.check.expression_depth import deep_recursion

    if analysis.kind == "kernel":
        with deep_recursion():
            return _interpret_kernel_program(analysis, sizes, stdout or sys.stdout)
    from .interpreter import run_program

    with deep_recursion():  # compiling the program walks its expressions
        return run_program(
            analysis,
            stdin=stdin or sys.stdin,
            stdout=stdout or sys.stdout,
            stderr=stderr or sys.stderr,
        )


def program_name(source: SourceFile) -> str:
    stem = Path(source.name).stem
    ident = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in stem).strip("_").lower()
    return ident if ident and not ident[0].isdigit() else f"prog_{ident}"


@_compiling
def kernel_program(analysis):
    from .passes.kernel.kernel_dialect import analyze_kernel_program

    return analyze_kernel_program(
        analysis.program, analysis.options, program_name(analysis.source), analysis.source
    )


def kernel_library(analysis):
    from .passes.kernel.kernel_lowering import lower_kernel_program

    return lower_kernel_program(kernel_program(analysis), analysis.source)


@_compiling
def host_program(analysis, tile: tuple[int, ...] | None = None, offload: bool = True):
    """The middle end's stages after the analysis (passes/pipeline.py)."""
    from .passes.pipeline import host_program as middle_end

    return middle_end(analysis, tile, offload)


def kernels_of(analysis) -> list:
    """The kernels a generated cuTile module holds (with the default tile, offloading on),
    each with the name the module gives it: (kernel, Python name)."""
    if analysis.kind == "kernel":
        from .backends.cutile.program import library_namer

        kernel = kernel_library(analysis).kernel
        return [(kernel, library_namer(kernel).ident(kernel.name))]
    from .backends.cutile.host import kernel_def_names

    host = host_program(analysis)
    names = kernel_def_names(host)
    return [(kernel, names[kernel.name]) for kernel in host.kernels]


@_compiling
def generate(
    analysis,
    target: str,
    tile: tuple[int, ...] | None = None,
    offload: bool = True,
    file_name: str | None = None,
) -> str:
    """The generated program text for `target` ("cutile" or "cuda"): the back end's text,
    then the formatting stage; a .cu file's build commands name `file_name` (the -o
    file's name; default: the program's)."""
    return formatted(rendered(analysis, target, tile, offload, file_name), target)


@_compiling
def rendered(
    analysis,
    target: str,
    tile: tuple[int, ...] | None = None,
    offload: bool = True,
    file_name: str | None = None,
) -> str:
    """The back end's text for `target` (`generate`'s), before the formatting stage."""
    if analysis.kind != "kernel":
        return render_host(host_program(analysis, tile, offload), target, file_name)
    if target == "cutile":
        from .backends.cutile.program import render_library

        return render_library(kernel_library(analysis), analysis.source)
    from .backends.cuda.program import render_cuda_library

    return render_cuda_library(kernel_library(analysis), analysis.source, file_name)


@_compiling
def render_host(host, target: str, file_name: str | None = None) -> str:
    """The back end's text for a host program (`host_program`'s, or one a test built),
    before the formatting stage."""
    if target == "cutile":
        from .backends.cutile.host import render_program

        return render_program(host)
    from .backends.cuda.program import render_cuda_program

    return render_cuda_program(host, file_name)


def generate_host(host, target: str, file_name: str | None = None) -> str:
    """The generated program text for a host program: `render_host`, then formatted."""
    return formatted(render_host(host, target, file_name), target)


def formatted(code: str, target: str) -> str:
    """The formatting stage (formatting/): a back end's text laid out by Ruff's formatter
    in Black's style (cutile) or by clang-format (cuda)."""
    if target == "cutile":
        from .formatting.python import format_python

        return format_python(code)
    from .formatting.cpp import format_cpp

    return format_cpp(code)


def shadows_a_module(name: str) -> bool:
    """Whether a script `name`.py would hide a module it imports (Python puts the
    script's folder first on sys.path): `select.py` breaks `import subprocess`."""
    import importlib.util

    if name in sys.stdlib_module_names:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def script_name(name: str) -> str:
    return f"{name}_program" if shadows_a_module(name) else name


def _import_roots() -> list[str]:
    """The folders this compiler and its runtime are imported from (one folder, when both
    are installed; the repository and its runtime/ folder, when run from a checkout): a
    generated module the compiler runs imports the runtime the compiler uses."""
    import basic2tile_runtime

    packages = (Path(__file__), Path(basic2tile_runtime.__file__))
    return list(dict.fromkeys(str(p.resolve().parent.parent) for p in packages))


def run_generated_python(
    code: str,
    name: str,
    device: str | None,
    stdin: str | None = None,
    args: list[str] | None = None,
    capture: bool = True,
    timeout: float | None = None,
) -> RunResult:
    """Run a generated cuTile Python module as a script (kernels need a real file).
    Without `capture`, the program talks to this process's terminal directly."""
    from .run.process import run_child

    with tempfile.TemporaryDirectory(prefix="b2t-run-") as tmp:
        path = Path(tmp) / f"{script_name(name)}.py"
        path.write_text(code, encoding="utf-8")
        env = dict(os.environ)
        if device:
            env["BASIC2TILE_DEVICE"] = device
        env.setdefault("CUDA_TILE_CACHE_DIR", str(Path(tmp) / "cache"))
        env["PYTHONPATH"] = os.pathsep.join(
            _import_roots() + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        proc = run_child(
            [sys.executable, str(path), *(args or [])],
            input=stdin,
            capture=capture,
            env=env,
            timeout=timeout,
        )
    return RunResult(proc.returncode, proc.stdout, proc.stderr)


def run(
    analysis,
    code: str,
    target: str,
    device: str | None,
    sizes: dict | None = None,
    stdin: str | None = None,
    capture: bool = True,
    timeout: float | None = None,
    split: list[str] | None = None,
) -> RunResult:
    """Run generated code: a legacy program as a program, a kernel program's self-test.
    `timeout`: seconds the program may run (process.ChildTimeout after that); `split`:
    the self-test's --workers/--scheduler options (a kernel program's cuTile module)."""
    name = program_name(analysis.source)
    args = []
    if analysis.kind == "kernel":
        from .run.selftest import default_scalars

        default_scalars(kernel_program(analysis), sizes)  # located errors for bad sizes
        args = [f"{k}={v}" for k, v in (sizes or {}).items()] + list(split or [])
    if device == "gpu":
        _require_gpu()
    if target == "cutile":
        return run_generated_python(code, name, device, stdin, args, capture, timeout)
    from .backends.cuda.program import run_cuda_program

    return run_cuda_program(code, name, device, stdin, args, capture, timeout)


def _require_gpu() -> None:
    from .device import gpu_unavailable_reason

    reason = gpu_unavailable_reason()
    if reason is not None:
        raise BasicError(f"--device gpu: no usable GPU ({reason})", Coord("basic2tile", 0, 0))


@contextlib.contextmanager
def _one_clock_and_seed():
    """Both runs of --check read the same TIMER (Microsoft BASIC's clock) and the same
    seed for a plain RANDOMIZE (the other dialects' generator: runtime/rnd.py): the time
    when the check starts, unless $BASIC2TILE_TIMER or $BASIC2TILE_SEED fixes it already.
    The seed still changes from one check to the next, as a plain run's does."""
    from .runtime.msnumbers import TIMER, TIMER_VARIABLE
    from .runtime.rnd import SEED_VARIABLE

    fixed = {TIMER_VARIABLE: lambda: repr(TIMER()), SEED_VARIABLE: lambda: str(time.time_ns())}
    chosen = [name for name in fixed if not os.environ.get(name, "").strip()]
    for name in chosen:
        os.environ[name] = fixed[name]()
    try:
        yield
    finally:
        for name in chosen:
            del os.environ[name]


def check(
    analysis,
    code: str,
    target: str,
    device: str | None,
    sizes: dict | None = None,
    out: TextIO = sys.stdout,
    timeout: float | None = None,
) -> int:
    """Run the generated program and the interpreter; 0 if they agree, 1 with a diff.
    When the interpreter stops at its step limit (--max-steps) there is nothing to
    compare: the error is raised and the generated program is not run."""
    if analysis.kind == "kernel":
        result = run(analysis, code, target, device, sizes, timeout=timeout)
        out.write(result.stdout)
        if result.stderr:
            sys.stderr.write(result.stderr)
        return 0 if result.returncode == 0 else 1
    import io

    from .errors import BasicRuntimeError
    from .interpreter.machine import STEP_LIMIT
    from .run.compare import (
        compare_outputs,
        diagnostics_match,
        interpreter_diagnostics,
        program_diagnostics,
        unified_diff,
    )
    from .run.scratch import files_difference, scratch_folder, written_files

    stdin = sys.stdin.read() if not sys.stdin.isatty() else ""
    expected, errors = io.StringIO(), io.StringIO()
    error = None
    # Numbers agree within the tolerance of the number type (compare.TOLERANCES).
    tolerance = "tf32" if analysis.options.tf32_products else analysis.number_type
    # A program that uses files runs twice in scratch folders (scratch.py); others in place.
    with _one_clock_and_seed(), tempfile.TemporaryDirectory(prefix="b2t-check-") as tmp:
        folders = [Path(tmp) / "interpreter", Path(tmp) / "generated"]
        scratch = [
            scratch_folder(f) if analysis.uses_files else contextlib.nullcontext() for f in folders
        ]
        try:
            with scratch[0]:
                status = interpret(
                    analysis, stdin=io.StringIO(stdin), stdout=expected, stderr=errors
                )
        except BasicRuntimeError as exc:
            if exc.message.startswith(STEP_LIMIT):
                note = "--check compares whole runs: the generated program was not run"
                raise BasicRuntimeError(exc.message, exc.coord, notes=(*exc.notes, note)) from None
            status, error = 1, exc
        with scratch[1]:
            result = run(analysis, code, target, device, stdin=stdin, timeout=timeout)
        files_report = files_difference(*(written_files(f) for f in folders), tolerance)
    diffs = compare_outputs(expected.getvalue(), result.stdout, tolerance)
    reported = interpreter_diagnostics(analysis, errors.getvalue(), error)
    generated_reports = program_diagnostics(analysis, result.stderr)
    same_reports = diagnostics_match(reported, generated_reports, tolerance)
    if status != result.returncode:
        out.write(f"exit status differs: interpreter {status}, generated {result.returncode}\n")
        if result.stderr:
            out.write(result.stderr)
    if diffs:
        out.write(
            unified_diff(expected.getvalue(), result.stdout, "interpreter", f"generated ({target})")
        )
    if not same_reports:
        out.write("warnings and errors differ:\n")
        out.write(_diagnostics_diff(reported, generated_reports, target))
    out.write(files_report)
    if diffs or status != result.returncode or not same_reports or files_report:
        return 1
    lines = len(expected.getvalue().splitlines())
    out.write(
        f"check passed: {target} output matches the interpreter "
        f"({lines} line{'' if lines == 1 else 's'})\n"
    )
    return 0


def _diagnostics_diff(expected: list[str], actual: list[str], target: str) -> str:
    from .run.compare import unified_diff

    text = unified_diff(
        "".join(d + "\n" for d in expected),
        "".join(d + "\n" for d in actual),
        "interpreter (stderr)",
        f"generated ({target}, stderr)",
    )
    return text if text.endswith("\n") else text + "\n"


# Where --emit's compilers come from when they are missing.
NVIDIA_EXTRA = "pip install 'basic2tile[nvidia]'"


def emit_binaries(
    analysis, code: str, target: str, fmt: str, arch: str, output: str | None, protected=()
) -> list[Path]:
    """Compile the generated kernels with NVIDIA's compilers (no GPU needed) into the
    folder of `output` (else the current one), never over a `protected` file; returns the
    paths written, in the form `output` was given (relative to the current folder when
    there is no `output`)."""
    from .run.outfiles import write_output

    out_dir = Path(output).parent if output else Path()
    written = []
    with tempfile.TemporaryDirectory(prefix="b2t-emit-") as tmp:
        try:
            made = _compile_binaries(analysis, code, target, fmt, arch, Path(tmp))
        except (ImportError, FileNotFoundError) as exc:
            raise BasicError(
                f"--emit {fmt} needs NVIDIA's compilers, which are not installed here; they "
                f"come with the optional extra: {NVIDIA_EXTRA}",
                Coord("basic2tile", 0, 0),
                notes=(str(exc),),
            ) from None
        for path in made:
            name = binary_name(path.name, target)
            write_output(out_dir / name, path.read_bytes(), protected)
            written.append(out_dir / name)
    return written


# Which compiler made a cubin, in its name: cuTile's (tileiras) and NVRTC's cubins of one
# program would otherwise both be prog.sm_90.cubin, and one would overwrite the other.
_CUBIN_MAKER = {"cutile": "cutile", "cuda": "nvrtc"}


def binary_name(name: str, target: str) -> str:
    """`prog.sm_90.cubin` -> `prog.cutile.sm_90.cubin` (target cutile) or
    `prog.nvrtc.sm_90.cubin` (target cuda); other formats (Tile IR, PTX) are made by one
    compiler only and keep their names."""
    stem, arch, ext = name.rsplit(".", 2) if name.count(".") >= 2 else (name, "", "")
    if ext != "cubin":
        return name
    return f"{stem}.{_CUBIN_MAKER[target]}.{arch}.cubin"


def _compile_binaries(
    analysis, code: str, target: str, fmt: str, arch: str, folder: Path
) -> list[Path]:
    if target == "cutile":
        from .verify.emit import export_kernels

        return export_kernels(
            kernels_of(analysis), code, (fmt,), (arch,), folder, program_name(analysis.source)
        )
    from .verify.emit import compile_kernels

    return compile_kernels(code, fmt, arch, folder, program_name(analysis.source))


def _interpret_kernel_program(analysis, sizes, out: TextIO) -> int:
    from .run.kernel_interpreter import run_kernel_program
    from .run.selftest import default_scalars, make_inputs, summary

    kp = kernel_program(analysis)
    scalars = default_scalars(kp, sizes)
    inputs = make_inputs(kp, scalars)
    outputs = run_kernel_program(kp, scalars, inputs, out)
    print(", ".join(f"{k}={v}" for k, v in scalars.items()), file=out)
    print(summary(kp, outputs), file=out)
    return 0


def usage_error(source: SourceFile, message: str) -> BasicError:
    return BasicError(message, Coord(source.name, 0, 0))
