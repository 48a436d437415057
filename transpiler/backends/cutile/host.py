"""The host part of the cuTile Python backend: a `hostir.HostProgram` as a Python module.

`generate_program(host)` returns a module in Black's style (Ruff's formatter) that, run
as a script (or through its `main(device=None)`), does what the reference interpreter
does with the same program: the same standard output byte for byte, the same warnings
on stderr, each as `<file>: warning: line N: <message>`, and a fatal run-time error printed
as `<file>: error: line N: <message>` with exit status 1.

Layout of the module (templates/cutile/program.py.jinja): imports of exactly the runtime
names it uses, the DATA items, the kernels (when the offload pass made some), then
`program(con, data)` whose body is the BASIC program (DEF FN functions and GOSUB
subroutines nested in it, then the arrays, the variables that need a value before they
are assigned, and the statements, each under a `# 40 FOR I = 1 TO N` comment), and
`main()`.  Names come from `Namer`: `A` -> `a`, `A$` -> `a_str`, `FNA` -> `fn_a`.
"""

from __future__ import annotations

from ... import __version__, ast, hostir
from ...builtins import BUILTINS
from ...model import type_of_name
from ...naming import Namer
from ...semantics import STACK_DEPTH
from ..basic_origin import origin_comment
from ..data_rows import data_lines
from ..host_module import HostModule
from ..host_module import stem as _stem
from ..host_procedures import procedure_notes
from ..render import render
from .helpers import helpers_text, helpers_used
from .host_expr import ExprPrinter
from .host_kernels import KernelPrinter
from .host_microsoft import MicrosoftExprPrinter
from .host_procs import procedure_def
from .host_stmt import Code, StatementPrinter, _suite
from .program import docstring_safe, format_python, runtime_requirement

# What the generated module may import, by module (ABS is Python's own abs).
_RUNTIME = {b.python for b in BUILTINS.values() if b.python and b.python != "abs"} | {
    "MOD", "RANDOMIZE", "ZONE", "NUMBER", "STRING", "BasicFault", "Console", "DataPool",
    "add", "add_all", "check_string", "div", "mul", "power", "reset_rnd", "round_to_int",
    "run_command", "sub", "sub_all", "tab", "to_integer", "loop_count", "Notice",
    "set_warning_hook", "concat", "mid_assign", "mid_assign_itself", "open_file", "close_files", "file_output",
    "file_input", "file_line", "kill_file", "file_width", "rename_file", "reset_files",
    "field", "get_record", "put_record", "field_release", "field_swap", "SINGLE", "DOUBLE",
    "REAL",
    # Microsoft BASIC (cutile/host_microsoft.py, flow.py)
    "use_dialect", "Double", "sng", "dbl", "fits", "totals_fit", "cint", "single_div", "double_div", "int_div",
    "int_mod", "bit_and", "bit_or", "bit_xor", "bit_eqv", "bit_imp", "bit_not",
    "single_power", "single_power_int", "double_power", "single_result", "ForStack",
    # QuickBASIC's INTEGER and LONG arithmetic
    "clng", "int_result", "long_result", "long_div", "long_mod", "long_and", "long_or",
    "long_xor", "long_eqv", "long_imp", "long_not",
    "on_choice", "report_break", "report_error", "report_load_overflows",
    # error trapping (runtime/trap.py)
    "start_trap", "raise_error", "label_line",
}  # fmt: skip
_ARRAYS = {
    "BasicArray", "to_f32", "mat_read", "mat_input", "mat_print", "mat_fill", "mat_copy",
    "mat_scale", "mat_binary", "mat_function", "mat_product_shape", "change_to_codes",
    "change_to_string",
}  # fmt: skip
# Names of the module and of program() that BASIC names must not take.
_MODULE_NAMES = {
    "program", "basic_line", "report_notice", "linecache", "traceback", "SOURCE_NAME", "DATA",
    "COMPILE_WARNINGS", "EndProgram", "b2t_device", "warning", "fault", "where", "previous_hook",
    "argparse", "parser", "args",
}  # fmt: skip


def generate_program(host: hostir.HostProgram) -> str:
    return format_python(_ModulePrinter(host).render())


def kernel_def_names(host: hostir.HostProgram) -> dict[str, str]:
    """The names the module gives the kernels (IR kernel name -> Python name)."""
    printer = _ModulePrinter(host)
    return dict(printer.kernels.names) if printer.kernels is not None else {}


class _ModulePrinter(HostModule):
    expr_printer = ExprPrinter
    microsoft_printer = MicrosoftExprPrinter
    statement_printer = StatementPrinter

    def __init__(self, host: hostir.HostProgram):
        self.set_up(host, Namer("python", taken=_RUNTIME | _ARRAYS | _MODULE_NAMES))
        self.stmts.read_vars = host.read_vars
        self.kernels = KernelPrinter(host, self.expr) if host.kernels else None
        self.stmts.kernels = self.kernels

    # ----------------------------------------------------------------- the module

    def render(self) -> str:
        body = self.program_body()
        a = self.a
        expr = self.expr
        expr.need("Console")
        expr.need("BasicFault")
        expr.need("run_command")
        expr.need("Notice")
        expr.need("set_warning_hook")
        uses_rnd = "RND" in expr.uses or "RANDOMIZE" in expr.uses
        # The runtime's dialect (runtime/dialect.py) where it changes what runs: Microsoft
        # BASIC's numbers, layout and RND; Dartmouth's RND.  It restarts RND itself.
        runtime_dialect = a.runtime_dialect()
        if runtime_dialect:
            expr.need("use_dialect")
            if a.options.microsoft:
                expr.need("report_error")  # a fatal error on the screen, as GW-BASIC
                if a.load_overflows:
                    expr.need("report_load_overflows")
        elif uses_rnd:
            expr.need("reset_rnd")
        params, args = ["con: Console"], ["con"]
        if self.uses_data:
            expr.need("DataPool")
            params.append("data: DataPool")
            if a.options.strict:
                args.append("DataPool(DATA)")
            elif a.options.microsoft:
                lines = ", lines=DATA_LINES" if a.data_line_start else ""
                args.append(f"DataPool(DATA, strict=False, microsoft=True{lines})")
            else:
                args.append("DataPool(DATA, strict=False)")
        if self.kernels is not None:
            params.append("dev")
            args.append("dev")
        warnings = [repr(str(w)) for w in a.warnings]
        console_args = [] if a.options.strict else ["strict=False"]
        precision = a.using_precision
        if precision != "REAL" and a.uses_print_using:
            console_args.append(f"precision={expr.need(precision)}")
        uses_files = a.uses_files
        if uses_files:
            expr.need("reset_files")
            expr.need("close_files")
            if precision != "REAL":
                expr.need(precision)
        return render(
            "cutile/program.py.jinja",
            title=f"{docstring_safe(_stem(a.source.name))}: a BASIC program translated to Python",
            version=__version__,
            runtime_requirement=runtime_requirement(kernels=self.kernels is not None),
            source_name=docstring_safe(a.source.name),
            source_literal=repr(a.source.name),
            uses_math="math" in expr.uses,
            uses_numpy="np" in expr.uses,
            imports=self.imports(),
            compile_warnings=warnings,
            data_lines=self.data_lines() if self.uses_data else [],
            data_line_starts=self.data_line_starts(),
            load_overflows=len(a.load_overflows) if a.options.microsoft else 0,
            uses_data=self.uses_data,
            uses_end_exception=self.stmts.uses_end_exception,
            helpers=helpers_text(helpers_used(self.host.kernels)),
            kernels=self.kernels.definitions() if self.kernels is not None else [],
            tile_constants=self.kernels.constants() if self.kernels is not None else [],
            program_params=params,
            program_args=args,
            program_body=body,
            uses_rnd=uses_rnd,
            console_args=console_args,
            uses_files=uses_files,
            file_precision=precision,
            runtime_dialect=runtime_dialect,
        )

    def imports(self) -> list[str]:
        uses = self.expr.uses
        lines = []
        runtime = sorted(uses & _RUNTIME, key=_import_order)
        if runtime:
            lines.append(f"from basic2tile_runtime import {', '.join(runtime)}")
        if self.kernels is not None:
            lines.append("from basic2tile_runtime import device as b2t_device")
        arrays = sorted(uses & _ARRAYS, key=_import_order)
        if arrays:
            lines.append(f"from basic2tile_runtime.arrays import {', '.join(arrays)}")
        return lines

    def data_lines(self) -> list[str]:
        """One or more lines per DATA statement, each under its comment."""

        def entry(datum: ast.Datum) -> str:
            return f"({datum.text!r}, {datum.quoted}),"

        return data_lines(self.a.stmts, self.stmts.texts, entry, origin_comment)

    # ----------------------------------------------------------------- program()

    def program_body(self) -> list[Code]:
        host = self.host
        leading = self.leading_rems()
        header = self.stmts.nodes(host.body[:leading])  # the REMs describing the program
        header += [Code("# " + note) for note in procedure_notes(host)]
        main = self.stmts.nodes(host.body[leading:])
        subs = []
        self.stmts.in_sub = True
        for sub in host.subroutines:
            if sub.procedure is not None:  # a SUB or FUNCTION: a function with parameters
                subs.extend(procedure_def(self, sub))
            else:
                subs.append(self.subroutine(sub))
        self.stmts.in_sub = False
        functions = self.functions()
        arrays = self.arrays()
        variables = self.variables()
        state = []
        if host.uses_dispatch and self.stmts.uses_return_stack:
            state.append(Code(f"{self.stmts.returns_var} = []  # GOSUB return labels"))
        if host.recursive_procedures:  # each BASIC call is one Python call
            state.append(Code(f"# QuickBASIC: Out of stack space after {STACK_DEPTH} nested calls"))
            state.append(
                Code(f"sys.setrecursionlimit(max(sys.getrecursionlimit(), {5 * STACK_DEPTH}))")
            )
        if self.stmts.uses_for_stack:
            stack = f"{self.stmts.for_stack_var} = {self.expr.need('ForStack')}()"
            state.append(Code(f"{stack}  # FOR loops that are not blocks"))
        if main and main[-1].text == "return" and main[-1].body is None:
            main.pop()  # END on the last line
        return _suite(header + functions + subs + arrays + variables + state + main)

    def subroutine(self, sub: hostir.Subroutine) -> Code:
        # A statement of a subroutine may be the main program's too (a GOSUB into the
        # middle of it): each copy keeps its `# N` comment, which locates its errors.
        outer, self.stmts.commented = self.stmts.commented, set()
        body = self.stmts.nodes(sub.body)
        self.stmts.commented = outer
        assigned = sorted(self.namer.name(n) for n in sub.assigns)
        head = []
        comments = []
        while body and body[0].is_comment:
            comments.append(body.pop(0))
        if assigned:
            head.append(Code("nonlocal " + ", ".join(assigned)))
        if body and body[-1].text == "return" and body[-1].body is None:
            body.pop()  # RETURN at the end
        return Code(f"def {self.sub_names[sub.name]}():", _suite(comments + head + body))

    def functions(self) -> list[Code]:
        """The DEF FN functions the program calls (directly or through each other)."""
        called, bodies = self.functions_called()
        out = []
        for name in called:
            fn = self.a.functions[name]
            comment = self.stmts.comment(hostir.Simple(fn.stmt, origin=fn.stmt))
            params = ", ".join(self.namer.name(p) for p in fn.params)
            body = [Code(f"return {bodies[name]}")]
            out += comment + [Code(f"def {self.namer.name(name, 'function')}({params}):", body)]
        return out

    def function_body(self, name: str) -> str:
        fn = self.a.functions[name]
        return self.expr.store(self.expr.value(fn.body), fn.result_type)

    def arrays(self) -> list[Code]:
        a = self.a
        static = self.host.static_arrays
        out = []
        for name, symbol in sorted(
            a.arrays.items(), key=lambda kv: (kv[1].coord.line, kv[1].coord.column)
        ):
            if name in self.host.unused_arrays:
                continue
            args = [repr(name)]
            if symbol.upper is not None:
                args += [str(u) for u in symbol.upper]
            else:
                args.append(f"rank={symbol.rank}")
            if symbol.base:
                args.append(f"base={symbol.base}")
            dtype = {"int": "i32", "lng": "i32", "str": "str", "dbl": "f64"}.get(
                symbol.elem_type, a.number_type
            )
            if dtype != "f64":
                args.append(f"dtype={dtype!r}")
            if symbol.dim_stmt is not None:
                out += self.stmts.comment(hostir.Simple(symbol.dim_stmt, origin=symbol.dim_stmt))
            elif name in static:
                out.append(Code(f"# {name}() is used without DIM: subscripts {symbol.base} to 10"))
            new = f"{self.array_names[name]} = {self.expr.need('BasicArray')}({', '.join(args)})"
            out.append(Code(new))
        return out

    def variables(self) -> list[Code]:
        """The variables the program may read before assigning: 0 and "" (as the
        interpreter starts them)."""
        groups: dict[str, list[str]] = {"num": [], "int": [], "str": []}
        for name in self.host.initialized:
            if name in self.host.procedure_locals:
                continue  # a SUB's variable: a local of its function
            symbol = self.a.variables.get(name)
            kind = symbol.type if symbol is not None else type_of_name(name)
            group = "str" if kind == "str" else "int" if kind in ("int", "lng") else "num"
            groups[group].append(self.namer.name(name))
        out = []
        for kind, initial in (("int", "0"), ("num", "0.0"), ("str", '""')):
            names = groups[kind]
            for i in range(0, len(names), 8):
                out.append(Code(" = ".join(names[i : i + 8] + [initial])))
        return out


def _import_order(name: str) -> tuple:
    """isort's order: CONSTANTS, Classes, functions."""
    if name.isupper():
        return (0, name)
    if name[0].isupper():
        return (1, name)
    return (2, name)
