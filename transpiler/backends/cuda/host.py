"""The host part of the CUDA C++ backend: a `hostir.HostProgram` as a complete .cu program.

`generate_cuda_program(host, kernels_code)` returns a clang-formatted C++17 program that,
built and run, does what the reference interpreter does with the same program: the same
standard output byte for byte, the same warnings on stderr, and a fatal run-time error
printed as `<file>: error: line N: <message>` with exit status 1.  It is the C++ twin of
`cutile/host.py` (same tree, same decisions); the kernels (`__global__` functions) are
printed by the kernel backend and arrive as `kernels_code`, inserted after the first
include.

Layout (templates/cuda/program.cu.jinja): `#include "b2t_cuda.h"`, the kernels, then the
host code fenced from NVRTC by `#ifndef __CUDACC_RTC__`: `#include "b2t_runtime.h"` (the
C++ port of runtime/basic2tile_runtime), the DATA items, and `struct Program`, whose members are
the BASIC variables and arrays, whose member functions are the DEF FN functions, the
GOSUB subroutines and `run()`, the program itself, each statement under a
`// 40 FOR I = 1 TO N` comment.  `main()` runs it and reports a fatal error.

The headers are written beside the .cu (`write_cuda_program`, and the CLI's `-o`), the
CPU emulator among them, so the nvcc and g++ commands of the file's header comment
(cuda/build.py) need nothing else; `--check` builds it with
`transpiler.verify.cpu_cuda.build_cpu` (g++ and the CUDA emulator).
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

from ...hostcode.module_plan import stem as _stem
from ...hostcode.module_plan import variable_rows
from ...hostcode.procedures import Param, given_back
from ...hostcode.syntax import CPP
from ...ir import ast, hostir
from ...ir.model import type_of_name, variable_type
from ...ir.naming import Namer
from ..host_module import HostModule
from ..render import render
from . import build as cuda_build
from .clang_verbatim import put_back, set_aside
from .host_expr import ExprPrinter
from .host_microsoft import MicrosoftExprPrinter
from .host_stmt import GOSUB_DEPTH, Code, StatementPrinter
from .host_text import comment_text, cpp_std_string, cpp_string
from .launch import KernelLaunches

# The one clang-format style of generated C++ (kernels and host code alike).
CLANG_FORMAT_STYLE = (
    "{BasedOnStyle: Google, ColumnLimit: 100, SortIncludes: Never, ReflowComments: false, "
    "BreakStringLiterals: false, AllowShortFunctionsOnASingleLine: Empty, "
    "AllowShortIfStatementsOnASingleLine: Never, AllowShortLoopsOnASingleLine: false, "
    "AllowShortBlocksOnASingleLine: Never, AllowShortCaseLabelsOnASingleLine: false, "
    "MaxEmptyLinesToKeep: 1}"
)
# Names the generated program uses itself, which BASIC names must not take.
# Names run() uses besides the BASIC ones: members, loop_count (now b2t_launch.h's),
# cuda/launch.py's `dim3 grid` (a BASIC GRID or LOOP_COUNT must not hide them).
_PROGRAM_NAMES = {
    "con", "data", "line", "returns", "for_stack", "run", "program", "loop_count", "grid"
}  # fmt: skip


def generate_cuda_program(
    host: hostir.HostProgram,
    kernels_code: str = "",
    file_name: str | None = None,
    lowered: dict | None = None,
) -> str:
    """The .cu program for `host`; `kernels_code` holds the kernels' definitions and
    `lowered` the kernels as cuda_kernels lowered them for it (by IR kernel name; the
    launches lower them again without it)."""
    return format_cpp(_ModulePrinter(host, kernels_code, file_name, lowered).render())


def write_cuda_program(code: str, path: str | Path) -> list[Path]:
    """Write a generated program and its headers; returns the files written."""
    path = Path(path)
    written = [path]
    path.write_text(code, encoding="utf-8")
    for name in cuda_build.included_headers(code):
        header = path.parent / name
        header.write_text(cuda_build.header_text(name), encoding="utf-8")
        written.append(header)
    return written


@functools.cache
def clang_format_path() -> str:
    import clang_format

    return clang_format.get_executable("clang-format")


# A line the C++ printers write between two top-level pieces of a file (the kernels, the
# host part) in place of the blank line there: `format_cpp` may format the pieces in
# separate clang-format processes, side by side.  clang-format lays out a top-level
# definition the same whatever precedes it across a blank line (no alignment or
# indentation crosses one), so the result is what one process would write for the
# file with blank lines there; tests/test_cuda_format.py checks it.  No generated line
# can be this one: comments quoting BASIC start with a line number or a statement.
SPLIT = "// @@b2t: clang-format may split the file here@@"
_SPLIT_LINE = SPLIT + "\n"
# Below this many lines one clang-format process is quicker than several.
_PARALLEL_LINES = 4000


def join_pieces(pieces: list[str]) -> str:
    """Top-level pieces of C++ one after the other, a blank line (a SPLIT) between each
    two; blank lines at their ends are dropped (clang-format keeps at most one)."""
    kept = [p.strip("\n") + "\n" for p in pieces if p.strip()]
    return _SPLIT_LINE.join(kept)


def format_cpp(code: str, jobs: int | None = None, parallel_lines: int = _PARALLEL_LINES) -> str:
    """`code` formatted by clang-format in the backend's style; SPLIT lines become blank
    lines.  A long file is formatted in up to `jobs` (default: the CPUs) processes at
    once, cut at SPLIT lines into runs of about equal length.  What clang-format must
    leave alone (the DATA table) does not go through it (cuda/clang_verbatim.py)."""
    code, verbatim = set_aside(code, keep_with=SPLIT)
    return put_back(_format_pieces(code, jobs, parallel_lines), verbatim)


def _format_pieces(code: str, jobs: int | None, parallel_lines: int) -> str:
    pieces = [p.strip("\n") + "\n" for p in code.split(_SPLIT_LINE) if p.strip()]
    if len(pieces) <= 1:
        return _clang_format(code.replace(_SPLIT_LINE, "\n"))
    lines = [p.count("\n") for p in pieces]
    jobs = min(jobs or _cpus(), len(pieces), max(1, sum(lines) // max(parallel_lines, 1)))
    if jobs <= 1:
        return _clang_format("\n".join(pieces))
    share = sum(lines) / jobs
    runs: list[list[str]] = [[]]
    done = 0  # lines in the runs so far
    for piece, count in zip(pieces, lines):
        # a new run once this piece would lie mostly beyond the current run's share
        if runs[-1] and len(runs) < jobs and done + count / 2 > share * len(runs):
            runs.append([])
        runs[-1].append(piece)
        done += count
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(runs)) as pool:
        formatted = list(pool.map(_clang_format, ["\n".join(run) for run in runs]))
    return "\n".join(formatted)


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _clang_format(code: str) -> str:
    done = subprocess.run(
        [clang_format_path(), f"--style={CLANG_FORMAT_STYLE}", "--assume-filename=program.cu"],
        input=code,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"clang-format failed: {done.stderr}")
    return done.stdout


class _ModulePrinter(HostModule):
    expr_printer = ExprPrinter
    microsoft_printer = MicrosoftExprPrinter
    statement_printer = StatementPrinter
    template = "cuda/program.cu.jinja"
    language = "CUDA C++"
    doc_text = staticmethod(comment_text)
    data_line_pair = "{{{line}, {start}}}"  # an initializer list's element

    def __init__(
        self,
        host: hostir.HostProgram,
        kernels_code: str,
        file_name: str | None,
        lowered: dict | None = None,
    ):
        self.set_up(host, Namer("cpp", taken=_PROGRAM_NAMES))
        self.kernels_code = kernels_code.strip("\n")
        self.file_name = file_name or _stem(self.a.source.name).rsplit(".", 1)[0] + ".cu"
        self.kernels = KernelLaunches(host, self.expr, lowered)
        self.stmts.kernels = self.kernels

    # ----------------------------------------------------------------- the file

    def render(self) -> str:
        header, run_body = self.run_body()
        functions = self.program_functions()
        context = self.context(
            nvcc_command=comment_text(cuda_build.nvcc_command(self.file_name)),
            cpu_command=comment_text(cuda_build.cpu_command(self.file_name)),
            kernels_code=self.kernels_code,
            split=SPLIT,
            console_args=self.console_args(),
            launch_header=self.kernels.uses_launch_header(),
            header=header,
            members=self.members(),
            functions=functions,
            run_body=run_body,
        )
        return render(self.template, **context)

    def console_args(self) -> str:
        """The Console's constructor arguments: INPUT's strictness, PRINT USING's digits."""
        strict = "true" if self.a.options.strict else "false"
        precision = self.plan.console_precision
        if precision is not None:
            return f"{{stdout, stdin, {strict}, b2t::{precision}}}"
        return "" if self.a.options.strict else "{stdout, stdin, false}"

    def data_item(self, datum: ast.Datum) -> str:
        return f"{{{cpp_std_string(datum.text)}, {'true' if datum.quoted else 'false'}}},"

    # ----------------------------------------------------------------- struct Program

    def members(self) -> list[Code]:
        out: list[Code] = []
        kinds = ("num", "dbl", "int", "lng", "str")
        variables = sorted(self.a.variables)
        for kind, names in variable_rows(self.host, self.namer, variables, type_of_name, kinds):
            initial = "" if kind == "str" else f" = {CPP.zero(kind)}"
            declared = ", ".join(name + initial for name in names)
            out.append(Code(f"{self.expr.cpp_type(kind)} {declared};"))
        for array in self.plan.arrays:
            symbol = array.symbol
            element = self.expr.cpp_type(symbol.elem_type)
            made = f"{array.ident}{{{cpp_string(array.name)}, {symbol.base}, {symbol.rank}}}"
            out.append(Code(f"b2t::Array<{element}> {made};"))
        if self.host.return_stack:
            depth = GOSUB_DEPTH[self.a.options.strict]
            out.append(Code(f"b2t::GosubStack returns{{{depth}}};  // GOSUB return labels"))
        if self.stmts.uses_for_stack:
            stack = self.stmts.for_stack_var
            out.append(Code(f"b2t::ForStack {stack};  // FOR loops that are not blocks"))
        if self.stmts.labels:
            labels = list(self.stmts.labels) + (["DONE"] if self.stmts.uses_done_label else [])
            out.append(Code("// The blocks of the dispatch loops (GOTO targets)."))
            out.append(Code(f"enum Label {{ {', '.join(labels)} }};"))
        return out + self.kernels.members()

    def allocations(self) -> list[Code]:
        """The arrays whose bounds are constants, allocated when the program starts."""
        out: list[Code] = []
        for array in self.plan.arrays:
            if array.allocated:  # else its DIM statement allocates it
                bounds = ", ".join(str(u) for u in array.symbol.upper)
                out += self.array_comment(array)
                out.append(Code(f"{array.ident}.allocate({{{bounds}}});"))
        return out

    def run_body(self) -> tuple[list[Code], list[Code]]:
        """The leading REMs (the program's description) and the body of run()."""
        header = self.main_header()
        self.begin_function()
        allocations = self.allocations()
        body = self.main_code()
        return header, self._locals() + allocations + body

    def begin_function(self) -> None:
        self.stmts.function_locals = {}

    def _locals(self) -> list[Code]:
        """Declarations of the function's loop limits and steps shared by dispatch blocks."""
        return [
            Code(f"{ctype} {name} = 0.0;") for name, ctype in self.stmts.function_locals.items()
        ]

    def function_start(self, sub: hostir.Subroutine) -> list[Code]:
        return self._locals()

    def gosub_function(self, sub: hostir.Subroutine, body: list) -> list[Code]:
        comments = []  # the REMs before the first statement describe the subroutine
        while len(body) > 1 and body[0].is_comment and body[1].is_comment:
            comments.append(body.pop(0))
        return comments + [Code(f"void {self.sub_names[sub.name]}()", self._locals() + body)]

    # ----------------------------------------------------------------- functions

    def param(self, p: Param) -> str:
        """A parameter the procedure may change is a reference (QuickBASIC's)."""
        if p.array:
            return f"b2t::Array<{self.expr.cpp_type(p.kind)}>& {p.name}"
        return (
            f"{self.expr.cpp_type(p.kind)}{'&' if p.by_reference else ''} {self.stmts.var(p.name)}"
        )

    def procedure_head(self, sub: hostir.Subroutine, params: str) -> str:
        back = given_back(sub.procedure, references=True)  # the changed ones are T&
        result = self.expr.cpp_type(variable_type(self.a, back[0])) if back else "void"
        return f"{result} {self.sub_names[sub.name]}({params})"

    def function_head(self, fn, name: str) -> str:
        params = ", ".join(
            f"{self.expr.cpp_type(t)} {self.namer.name(p)}"
            for p, t in zip(fn.params, fn.param_types)
        )
        return f"{self.expr.cpp_type(fn.result_type)} {name}({params})"
