"""The host part of the CUDA C++ backend: a `hostir.HostProgram` as a complete .cu program.

`render_host_program(host, kernels_code)` returns a C++17 program (laid out by
clang-format next, in the formatting stage: formatting/cpp.py) that, built and run, does
what the reference interpreter does with the same program: the same standard output byte
for byte, the same warnings on stderr, and a fatal run-time error printed as
`<file>: error: line N: <message>` with exit status 1.  It is the C++ twin of
`cutile/host.py` (same tree, same decisions); the kernels (`__global__` functions) are
printed by the kernel backend and arrive as `kernels_code`, inserted after the first
include.

Layout (templates/cuda/program.cu.jinja): `#include "b2t_cuda.h"`, the kernels, then the
host code fenced from NVRTC by `#ifndef __CUDACC_RTC__`: `#include "b2t_runtime.h"` (the
C++ port of runtime/basic2tile_runtime), the DATA items, and `struct Program`, whose members are
the BASIC variables and arrays, whose member functions are the DEF FN functions, the
GOSUB subroutines and `run()`, the program itself, each statement under a
`// 40 FOR I = 1 TO N` comment.  `main()` runs it and reports a fatal error.

The headers are written beside the .cu (`run.outfiles.write_cuda_program`, and the
CLI's `-o`), the CPU emulator among them, so the nvcc and g++ commands of the file's
header comment (cuda/build.py) need nothing else; `--check` builds it with
`transpiler.verify.cpu_cuda.build_cpu` (g++ and the CUDA emulator).
"""

from __future__ import annotations

from ...formatting.cpp_pieces import SPLIT
from ...hostcode.module_plan import stem as _stem
from ...hostcode.module_plan import variable_rows
from ...hostcode.procedures import Param, given_back
from ...hostcode.syntax import CPP
from ...ir import ast, hostir
from ...ir.model import type_of_name, variable_type
from ...ir.naming import Namer
from ..host_module import HostModule
from ..host_statements import GOSUB_DEPTH, Code
from ..render import render
from . import build as cuda_build
from .host_expr import ExprPrinter
from .host_microsoft import MicrosoftExprPrinter
from .host_stmt import StatementPrinter
from .host_text import comment_text, cpp_std_string, cpp_string
from .launch import KernelLaunches

# Names the generated program uses itself, which BASIC names must not take.
# Names run() uses besides the BASIC ones: members, loop_count (now b2t_launch.h's),
# cuda/launch.py's `dim3 grid` (a BASIC GRID or LOOP_COUNT must not hide them).
_PROGRAM_NAMES = {
    "con", "data", "line", "returns", "for_stack", "run", "program", "loop_count", "grid"
}  # fmt: skip


def render_host_program(
    host: hostir.HostProgram,
    kernels_code: str = "",
    file_name: str | None = None,
    lowered: dict | None = None,
) -> str:
    """The .cu program for `host`, before clang-format (formatting/cpp.py); `kernels_code`
    holds the kernels' definitions and `lowered` the kernels as cuda_kernels lowered them
    for it (by IR kernel name; the launches lower them again without it)."""
    return _ModulePrinter(host, kernels_code, file_name, lowered).render()


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
