"""What the two host printers (cuda/host.py, cutile/host.py) share in printing a
program's module as hostcode/module_plan.py planned it: the names, the expression and
statement printers, and the pieces both write alike in their syntax (the template's
values, the DATA rows, the functions of DEF FNs, subroutines and procedures), through
the statement printer (`stmts.syntax`, `stmts.code`, `stmts.string`) or a hook below."""

from __future__ import annotations

from ..hostcode.module_plan import ModulePlan, data_rows
from ..hostcode.procedures import parameters
from ..ir import hostir
from ..ir.naming import Namer


class HostModule:
    """A subclass names its expression printers (`expr_printer`, `microsoft_printer`),
    statement printer (`statement_printer`), template and language, and gives, in its
    syntax: `doc_text(text)` (text made safe for the file's opening comment),
    `data_item(datum)` (a DATA item: its text, whether quoted), `gosub_function(sub,
    body)` (a GOSUB subroutine's function), a procedure's `param(p)` (a
    hostcode.procedures.Param) and `procedure_head(sub, params)`, and a DEF FN
    function's `function_head(fn, name)`."""

    expr_printer = None
    microsoft_printer = None
    statement_printer = None
    template = ""
    language = ""
    kernels = None  # the launch printer (hostcode/launch.py's LaunchTarget), if any

    def set_up(self, host: hostir.HostProgram, namer: Namer) -> None:
        self.plan = plan = ModulePlan(host, namer, self.language)
        self.host, self.a, self.namer = host, host.analysis, namer
        self.array_names, self.sub_names = plan.array_names, plan.sub_names
        printer = self.microsoft_printer if self.a.options.microsoft else self.expr_printer
        self.expr = printer(self.a, namer, self.array_names)
        self.expr.safe_elements = host.safe_elements
        self.stmts = self.statement_printer(self.a, namer, self.expr, self.sub_names)
        self.stmts.has_return_stack = host.return_stack
        self.stmts.static_arrays = host.static_arrays

    # ----------------------------------------------------------------- the template

    def context(self, **target) -> dict:
        """The template's values that both targets write alike, with `target`'s."""
        plan, a, string = self.plan, self.a, self.stmts.string
        return dict(
            plan.values,
            title=self.doc_text(plan.title),
            source_name=self.doc_text(a.source.name),
            source_literal=string(a.source.name),
            compile_warnings=[string(str(w)) for w in a.warnings],
            data_lines=data_rows(plan.data, self.data_item, self.data_comment),
            data_line_starts=self.data_line_starts(),
            uses_end_exception=self.stmts.uses_end_exception,
            file_precision=self.expr.runtime(plan.file_precision) if plan.file_precision else "",
            data_pool_args=self.data_pool_args(),
            tile_constants=self.kernels.constants() if self.kernels is not None else [],
            **target,
        )

    def data_comment(self, stmt) -> str:
        return self.stmts.origin_comment(stmt.label, self.stmts.texts.get(id(stmt), "DATA"))

    def data_pool_args(self) -> str:
        syntax = self.stmts.syntax
        flags = {True: syntax.true, False: syntax.false}
        pool = [syntax.named(n, flags.get(v, v)) for n, v in self.plan.data_pool]
        return ", ".join(["DATA"] + pool)

    # One DATA line and its first item in data_line_starts, in the target's syntax.
    data_line_pair = "{line}: {start}"

    def data_line_starts(self) -> str:
        """GW-BASIC's DATA line numbers, each with its first item: a dict or an
        initializer list, or "" where there are none."""
        if not self.plan.data_line_starts:
            return ""
        pair = self.data_line_pair
        pairs = ", ".join(pair.format(line=n, start=i) for n, i in self.plan.data_line_starts)
        return "{" + pairs + "}"

    # ----------------------------------------------------------------- the program's code

    def comment(self, text: str):
        return self.stmts.code(self.stmts.syntax.comment + text)

    def main_header(self) -> list:
        """The leading REMs (the program's description, printed at the top) with why
        procedures stay GOSUB-style code."""
        return self.stmts.nodes(self.plan.header) + [self.comment(n) for n in self.plan.notes]

    def main_code(self) -> list:
        """The rest of the main program."""
        return self.without_return(self.stmts.nodes(self.plan.body))  # END on the last line

    def program_functions(self) -> list[list]:
        """The functions of the DEF FNs, then of the subroutines and procedures (printed
        first: the DEF FNs they call are printed too)."""
        subs = [self.subroutine(sub) for sub in self.host.subroutines]
        return self.functions() + subs

    def without_return(self, body: list) -> list:
        """`body` without the `return` that ends it (END on the last line, END SUB, a
        subroutine's last RETURN): the function ends there anyway."""
        if body and body[-1].text == "return" + self.stmts.syntax.end and body[-1].body is None:
            body.pop()
        return body

    def begin_function(self) -> None:
        """A new function's body is printed next."""

    def function_of(self, nodes: list[hostir.HNode]) -> list:
        """`nodes` as the body of a function of a subroutine or procedure: a statement
        of it may be the main program's too (a GOSUB into its middle), each copy keeps
        its comment (which locates its errors)."""
        self.stmts.in_sub = True
        self.begin_function()
        outer, self.stmts.commented = self.stmts.commented, set()
        body = self.stmts.nodes(nodes)
        self.stmts.commented = outer
        self.stmts.in_sub = False
        return body

    def subroutine(self, sub: hostir.Subroutine) -> list:
        if sub.procedure is not None:  # a SUB or FUNCTION: a function with parameters
            return self.procedure(sub)
        return self.gosub_function(sub, self.function_of(sub.body))

    def procedure(self, sub: hostir.Subroutine) -> list:
        """A SUB or FUNCTION as a function, under the comment of its SUB line: its array
        parameters are the names of the arrays in its body."""
        proc = sub.procedure
        arrays = self.plan.proc_arrays[sub.name]
        names = dict(self.array_names)
        self.array_names.update({array: ident for _, ident, array in arrays})
        body = self.without_return(self.function_of(sub.body))  # END SUB
        self.array_names.update(names)
        params = ", ".join(self.param(p) for p in parameters(self.a, proc, arrays))
        line = self.a.source.line_text(proc.stmt.coord.line) or ""
        comment = self.stmts.code(self.stmts.origin_comment(proc.stmt.label, line.strip()))
        head = self.procedure_head(sub, params)
        return [comment, self.stmts.code(head, self.suite(self.function_start(sub) + body))]

    @staticmethod
    def suite(lines: list) -> list:
        """A function's body as the language accepts it (Python: `pass` if empty)."""
        return lines

    def function_start(self, sub: hostir.Subroutine) -> list:
        """The lines that open the body of a subroutine's or procedure's function."""
        return []

    def functions(self) -> list[list]:
        """The DEF FN functions the program calls (directly or through each other), each
        under its comment, in the program's order.  The bodies are printed in that order
        too, the first one not printed yet each time (printing one records the functions
        it calls), so that their temporaries' names do not depend on Python's hashing."""
        index = {name: fn.index for name, fn in self.a.functions.items()}
        bodies: dict = {}
        while pending := self.expr.functions_called - bodies.keys():
            name = min(pending, key=index.get)
            bodies[name] = self.function_body(self.a.functions[name])
        out = []
        for name in sorted(bodies, key=index.get):
            fn = self.a.functions[name]
            comment = self.stmts.comment(hostir.Simple(fn.stmt, origin=fn.stmt))
            head = self.function_head(fn, self.namer.name(name, "function"))
            out.append(comment + [self.stmts.code(head, bodies[name])])
        return out

    def function_body(self, fn) -> list:
        """A DEF FN function's body: the lines its value needs first (C++), and `return`
        the value stored as the function's type."""
        self.expr.params = dict(zip(fn.params, fn.param_types))
        pre: list[str] = []
        value = self.stmts.val(fn.body, pre)
        self.expr.params = {}
        return self.stmts.put(pre) + self.stmts.simple(
            f"return {self.expr.store(value, fn.result_type)}"
        )

    def array_comment(self, array) -> list:
        """The comment above an array made when the program starts (a ModulePlan's)."""
        dim = array.symbol.dim_stmt
        if dim is not None:
            return self.stmts.comment(hostir.Simple(dim, origin=dim))
        return [self.comment(array.note)] if array.note else []
