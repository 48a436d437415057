"""The host part of the cuTile Python backend: a `hostir.HostProgram` as a Python module.

`render_program(host)` returns a module (laid out in Black's style next, in the
formatting stage: formatting/python.py) that, run as a script (or through its
`main(device=None)`), does what the reference interpreter does with the same program:
the same standard output byte for byte, the same warnings on stderr, each as
`<file>: warning: line N: <message>`, and a fatal run-time error printed as
`<file>: error: line N: <message>` with exit status 1.

Layout of the module (templates/cutile/program.py.jinja): imports of exactly the runtime
names it uses, the DATA items, the kernels (when the offload pass made some), then
`program(con, data)` whose body is the BASIC program (DEF FN functions and GOSUB
subroutines nested in it, then the arrays, the variables that need a value before they
are assigned, and the statements, each under a `# 40 FOR I = 1 TO N` comment), and
`main()`.  Names come from `Namer`: `A` -> `a`, `A$` -> `a_str`, `FNA` -> `fn_a`.
"""

from __future__ import annotations

from ...hostcode.module_plan import variable_rows
from ...hostcode.procedures import Param, given_back
from ...hostcode.syntax import PYTHON
from ...ir import ast, hostir
from ...ir.model import type_of_name, variable_type
from ...ir.naming import Namer
from ...ir.statement_facts import STATEMENT_FACTS
from ...language.builtins import BUILTINS
from ...language.semantics import STACK_DEPTH
from ..host_module import HostModule
from ..host_statements import Code
from ..render import render
from .helpers import helpers_text, helpers_used
from .host_expr import ExprPrinter
from .host_kernels import KernelPrinter
from .host_microsoft import MicrosoftExprPrinter
from .host_stmt import StatementPrinter
from .program import docstring_safe, runtime_requirement

# What the generated module may import, by module (ABS is Python's own abs).
_RUNTIME = {b.python for b in BUILTINS.values() if b.python and b.python != "abs"} | {
    "MOD", "RANDOMIZE", "ZONE", "NUMBER", "STRING", "BasicFault", "Console", "DataPool",
    "add", "add_all", "check_string", "div", "mul", "power", "reset_rnd", "round_to_int",
    "run_command", "sub", "sub_all", "tab", "to_integer", "loop_count", "Notice",
    "set_warning_hook", "concat", "mid_assign", "mid_assign_itself", "open_file", "close_files", "file_output",
    "file_input", "file_line", "file_width", "reset_files",
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
} | {facts.runtime for facts in STATEMENT_FACTS.values() if facts.runtime}  # fmt: skip
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

# The runtime names main() calls (templates/cutile/program.py.jinja), by the template
# value that has it call them (None: always).
_MAIN_NAMES = {
    None: ["Console", "BasicFault", "run_command", "Notice", "set_warning_hook"],
    "runtime_dialect": ["use_dialect"],
    "screen_errors": ["report_error"],  # a fatal error on the screen, as GW-BASIC
    "load_overflows": ["report_load_overflows"],
    "reset_rnd": ["reset_rnd"],
    "uses_files": ["reset_files", "close_files"],
}


def render_program(host: hostir.HostProgram) -> str:
    """The module for `host`, before Ruff's formatter."""
    return _ModulePrinter(host).render()


def kernel_def_names(host: hostir.HostProgram) -> dict[str, str]:
    """The names the module gives the kernels (IR kernel name -> Python name)."""
    printer = _ModulePrinter(host)
    return dict(printer.kernels.names) if printer.kernels is not None else {}


class _ModulePrinter(HostModule):
    expr_printer = ExprPrinter
    microsoft_printer = MicrosoftExprPrinter
    statement_printer = StatementPrinter
    template = "cutile/program.py.jinja"
    language = "Python"
    doc_text = staticmethod(docstring_safe)

    def suite(self, lines: list) -> list:
        return self.stmts.suite(lines)  # `pass` in a body of comments only

    def __init__(self, host: hostir.HostProgram):
        self.set_up(host, Namer("python", taken=_RUNTIME | _ARRAYS | _MODULE_NAMES))
        self.stmts.read_vars = host.read_vars
        self.kernels = KernelPrinter(host, self.expr) if host.kernels else None
        self.stmts.kernels = self.kernels

    # ----------------------------------------------------------------- the module

    def render(self) -> str:
        body = self.program_body()
        expr = self.expr
        uses_rnd = "RND" in expr.uses or "RANDOMIZE" in expr.uses
        console_args = [] if self.a.options.strict else ["strict=False"]
        precision = self.plan.console_precision
        if precision is not None:
            console_args.append(f"precision={expr.need(precision)}")
        params, args = self.program_signature()
        context = self.context(
            runtime_requirement=runtime_requirement(kernels=self.kernels is not None),
            helpers=helpers_text(helpers_used(self.host.kernels)),
            kernels=self.kernels.definitions() if self.kernels is not None else [],
            program_params=params,
            program_args=args,
            program_body=body,
            # The runtime's dialect restarts RND itself (runtime/dialect.py).
            reset_rnd=uses_rnd and not self.a.runtime_dialect(),
            console_args=console_args,
        )
        for key, names in _MAIN_NAMES.items():
            for name in names if key is None or context[key] else []:
                expr.need(name)
        uses_math, uses_numpy = "math" in expr.uses, "np" in expr.uses
        return render(
            self.template,
            imports=self.imports(),
            uses_math=uses_math,
            uses_numpy=uses_numpy,
            **context,
        )

    def program_signature(self) -> tuple[list[str], list[str]]:
        """program()'s parameters, and main()'s arguments for them."""
        params, args = ["con: Console"], ["con"]
        if self.plan.uses_data:
            params.append(f"data: {self.expr.need('DataPool')}")
            args.append(f"DataPool({self.data_pool_args()})")
        if self.kernels is not None:
            params.append("dev")
            args.append("dev")
        return params, args

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

    def data_item(self, datum: ast.Datum) -> str:
        return f"({datum.text!r}, {datum.quoted}),"

    # ----------------------------------------------------------------- program()

    def program_body(self) -> list[Code]:
        header = self.main_header()
        main = self.main_code()
        functions = [line for function in self.program_functions() for line in function]
        arrays = self.arrays()
        variables = self.variables()
        state = []
        if self.host.uses_dispatch and self.stmts.uses_return_stack:
            state.append(Code(f"{self.stmts.returns_var} = []  # GOSUB return labels"))
        if self.host.recursive_procedures:  # each BASIC call is one Python call
            state.append(Code(f"# QuickBASIC: Out of stack space after {STACK_DEPTH} nested calls"))
            state.append(
                Code(f"sys.setrecursionlimit(max(sys.getrecursionlimit(), {5 * STACK_DEPTH}))")
            )
        if self.stmts.uses_for_stack:
            stack = f"{self.stmts.for_stack_var} = {self.expr.need('ForStack')}()"
            state.append(Code(f"{stack}  # FOR loops that are not blocks"))
        return self.suite(header + functions + arrays + variables + state + main)

    def gosub_function(self, sub: hostir.Subroutine, body: list) -> list[Code]:
        comments = []
        while body and body[0].is_comment:
            comments.append(body.pop(0))
        body = comments + self.function_start(sub) + self.without_return(body)  # RETURN
        return [Code(f"def {self.sub_names[sub.name]}():", self.suite(body))]

    def function_start(self, sub: hostir.Subroutine) -> list[Code]:
        """The program's variables the function assigns (they are program()'s), but not
        one that nothing reads: its stores are dropped, in the main program too, and
        `nonlocal` needs an assignment there."""
        assigned = sorted(self.namer.name(n) for n in sub.assigns if n in self.host.read_vars)
        if not assigned:
            return []
        return [Code("nonlocal " + ", ".join(assigned))]

    def param(self, p: Param) -> str:
        if p.array:
            return f"{p.name}: {self.expr.need('BasicArray')}"
        return f"{self.stmts.var(p.name)}: {_ANNOTATIONS.get(p.kind, 'float')}"

    def procedure_head(self, sub: hostir.Subroutine, params: str) -> str:
        """`def swap2(a: float, b: float) -> tuple[float, float]:`: a call gives back
        what the procedure may change (hostcode.procedures.given_back)."""
        back = [_annotation(self.a, name) for name in given_back(sub.procedure)]
        result = "None" if not back else back[0] if len(back) == 1 else f"tuple[{', '.join(back)}]"
        return f"def {self.sub_names[sub.name]}({params}) -> {result}:"

    def function_head(self, fn, name: str) -> str:
        return f"def {name}({', '.join(self.namer.name(p) for p in fn.params)}):"

    def arrays(self) -> list[Code]:
        out = []
        for array in self.plan.arrays:
            symbol = array.symbol
            args = [repr(array.name)]
            if array.allocated:
                args += [str(u) for u in symbol.upper]
            else:
                args.append(f"rank={symbol.rank}")
            if symbol.base:
                args.append(f"base={symbol.base}")
            dtype = {"int": "i32", "lng": "i32", "str": "str", "dbl": "f64"}.get(
                symbol.elem_type, self.a.number_type
            )
            if dtype != "f64":
                args.append(f"dtype={dtype!r}")
            out += self.array_comment(array)
            out.append(Code(f"{array.ident} = {self.expr.need('BasicArray')}({', '.join(args)})"))
        return out

    def variables(self) -> list[Code]:
        """The variables the program may read before assigning: 0 and "" (as the
        interpreter starts them)."""

        def group(name: str) -> str:
            symbol = self.a.variables.get(name)
            kind = symbol.type if symbol is not None else type_of_name(name)
            return "str" if kind == "str" else "int" if kind in ("int", "lng") else "num"

        groups = ("int", "num", "str")
        rows = variable_rows(self.host, self.namer, self.host.initialized, group, groups)
        return [Code(" = ".join(names + [PYTHON.zero(kind)])) for kind, names in rows]


def _annotation(a, name: str) -> str:
    return _ANNOTATIONS.get(variable_type(a, name), "float")


_ANNOTATIONS = {"int": "int", "lng": "int", "str": "str"}


def _import_order(name: str) -> tuple:
    """isort's order: CONSTANTS, Classes, functions."""
    if name.isupper():
        return (0, name)
    if name[0].isupper():
        return (1, name)
    return (2, name)
