"""What the two host printers (cuda/host.py, cutile/host.py) share in printing a
program's module: the names, the expression and statement printers, the decisions that
do not depend on the target's syntax (the leading REMs, the DEF FN functions it calls,
whether it reads DATA, which arrays it makes, the functions of its subroutines and
procedures, the values its template needs), each written in the target's syntax by the
statement printer (`stmts.syntax`, `stmts.code`, `stmts.string`) or a hook below."""

from __future__ import annotations

from .. import __version__
from ..hostcode.simplify import simplify
from ..ir import ast, hostir
from ..ir.model import Analysis
from ..ir.naming import Namer, declare_program_names
from .data_rows import data_lines
from .host_procedures import in_order, name_procedures, procedure_notes


class HostModule:
    """A subclass names its expression printers (`expr_printer`, `microsoft_printer`),
    statement printer (`statement_printer`), template and language, and gives, in its
    syntax: `doc_text(text)` (text made safe for the file's opening comment),
    `data_item(datum)` (a DATA item: its text, whether quoted), `gosub_function(sub,
    body)` (a GOSUB subroutine's function), a procedure's `scalar_param(proc, param)`,
    `array_param(ident, array)` and `procedure_head(sub, params)`, a DEF FN function's
    `function_head(fn, name)` and `function_body(fn)` (its lines)."""

    expr_printer = None
    microsoft_printer = None
    statement_printer = None
    template = ""
    language = ""
    kernels = None  # the launch printer (hostcode/launch.py's LaunchTarget), if any

    def set_up(self, host: hostir.HostProgram, namer: Namer) -> None:
        simplify(host)  # the host passes: both targets print their result
        self.host = host
        a: Analysis = host.analysis
        self.a = a
        self.namer = namer
        declare_program_names(namer, a)
        self.array_names = {name: namer.name(name, "array") for name in sorted(a.arrays)}
        self.sub_names = {sub.name: namer.ident(sub.name) for sub in host.subroutines}
        # SUBs and FUNCTIONs that are functions, and their array parameters
        self.proc_arrays = name_procedures(host, namer, self.sub_names)
        printer = self.microsoft_printer if a.options.microsoft else self.expr_printer
        self.expr = printer(a, namer, self.array_names)
        self.expr.safe_elements = host.safe_elements
        self.stmts = self.statement_printer(a, namer, self.expr, self.sub_names)
        self.stmts.has_return_stack = host.return_stack
        self.stmts.static_arrays = host.static_arrays

    # ----------------------------------------------------------------- the template

    def context(self, **target) -> dict:
        """The template's values that both targets compute alike, with `target`'s."""
        a = self.a
        string = self.stmts.string
        precision = a.using_precision
        title = f"{stem(a.source.name)}: a BASIC program translated to {self.language}"
        return dict(
            title=self.doc_text(title),
            version=__version__,
            source_name=self.doc_text(a.source.name),
            source_literal=string(a.source.name),
            compile_warnings=[string(str(w)) for w in a.warnings],
            data_lines=self.data_lines() if self.uses_data else [],
            data_line_starts=self.data_line_starts(),
            load_overflows=len(a.load_overflows) if a.options.microsoft else 0,
            uses_data=self.uses_data,
            uses_end_exception=self.stmts.uses_end_exception,
            uses_files=a.uses_files,
            file_precision=(
                self.expr.runtime(precision) if a.uses_files and precision != "REAL" else ""
            ),
            runtime_dialect=a.runtime_dialect(),
            screen_errors=a.options.microsoft,  # GW-BASIC's fatal errors show on its screen
            data_pool_args=self.data_pool_args(),
            tile_constants=self.kernels.constants() if self.kernels is not None else [],
            **target,
        )

    def console_precision(self) -> str | None:
        """The digits of PRINT USING's numbers, where the Console must be told them."""
        a = self.a
        return a.using_precision if a.using_precision != "REAL" and a.uses_print_using else None

    @property
    def uses_data(self) -> bool:
        return bool(self.a.data) or any(
            isinstance(s, (ast.Read, ast.Restore, ast.MatRead)) for s in self.a.stmts
        )

    def data_lines(self) -> list[str]:
        """The DATA items, each DATA statement's under its comment."""
        return data_lines(self.a.stmts, self.stmts.texts, self.data_item, self.stmts.origin_comment)

    def data_pool_args(self) -> str:
        """The DataPool's arguments: the DATA table, and outside --strict the rules of
        READ (Microsoft BASIC's, with each DATA line's first item)."""
        a, syntax = self.a, self.stmts.syntax
        args = ["DATA"] if a.options.strict else ["DATA", syntax.named("strict", syntax.false)]
        if a.options.microsoft and not a.options.strict:
            args.append(syntax.named("microsoft", syntax.true))
            if self.data_line_starts():
                args.append(syntax.named("lines", "DATA_LINES"))
        return ", ".join(args)

    # One DATA line and its first item in data_line_starts, in the target's syntax.
    data_line_pair = "{line}: {start}"

    def data_line_starts(self) -> str:
        """GW-BASIC's DATA line numbers, each with its first item (a bad item is a
        Syntax error in its line): a dict or an initializer list, or "" outside
        --dialect ms."""
        a = self.a
        if not (self.uses_data and a.options.microsoft and a.data_line_start):
            return ""
        pairs = ", ".join(
            self.data_line_pair.format(line=line, start=start)
            for line, start in a.data_line_start.items()
        )
        return "{" + pairs + "}"

    # ----------------------------------------------------------------- the program's code

    def comment(self, text: str):
        return self.stmts.code(self.stmts.syntax.comment + text)

    def main_body(self) -> tuple[list, list[hostir.HNode]]:
        """The leading REMs (the program's description, printed at the top) with why
        procedures stay GOSUB-style code, and the nodes of the rest of the program."""
        body = self.host.body
        leading = 0
        while leading < len(body) and _is_rem(body[leading]):
            leading += 1
        header = self.stmts.nodes(body[:leading])
        header += [self.comment(note) for note in procedure_notes(self.host)]
        return header, body[leading:]

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
        arrays = self.proc_arrays[sub.name]
        names = dict(self.array_names)
        self.array_names.update({array: ident for _, ident, array in arrays})
        body = self.without_return(self.function_of(sub.body))  # END SUB
        self.array_names.update(names)
        pairs = zip(proc.params, proc.array_params)
        scalars = [self.scalar_param(proc, p) for p, array in pairs if not array]
        params = in_order(scalars, [(i, self.array_param(ident, a)) for i, ident, a in arrays])
        line = self.a.source.line_text(proc.stmt.coord.line) or ""
        comment = self.stmts.code(self.stmts.origin_comment(proc.stmt.label, line.strip()))
        head = self.procedure_head(sub, ", ".join(params))
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
        under its comment, in the program's order."""
        called = set(self.expr.functions_called)
        bodies: dict = {}
        work = list(called)
        while work:  # `function_body` records the functions each calls
            name = work.pop()
            before = set(self.expr.functions_called)
            bodies[name] = self.function_body(self.a.functions[name])
            for new in self.expr.functions_called - before:
                if new not in called:
                    called.add(new)
                    work.append(new)
        out = []
        for name in sorted(called, key=lambda n: self.a.functions[n].index):
            fn = self.a.functions[name]
            comment = self.stmts.comment(hostir.Simple(fn.stmt, origin=fn.stmt))
            head = self.function_head(fn, self.namer.name(name, "function"))
            out.append(comment + [self.stmts.code(head, bodies[name])])
        return out

    def arrays_in_order(self) -> list:
        """The arrays the program uses, (name, symbol) in the order of their DIMs."""
        arrays = [kv for kv in self.a.arrays.items() if kv[0] not in self.host.unused_arrays]
        return sorted(arrays, key=lambda kv: (kv[1].coord.line, kv[1].coord.column))

    def array_comment(self, name: str, symbol) -> list:
        """The comment above an array made when the program starts: its DIM's, or why
        it has the bounds it has."""
        if symbol.dim_stmt is not None:
            return self.stmts.comment(hostir.Simple(symbol.dim_stmt, origin=symbol.dim_stmt))
        if name in self.host.static_arrays:
            return [self.comment(f"{name}() is used without DIM: subscripts {symbol.base} to 10")]
        return []

    def variable_rows(self, names, group_of, groups: tuple[str, ...]) -> list:
        """The program's variables among `names` (a SUB's are locals of its function),
        as (group, names) rows of up to eight, group by group."""
        named: dict[str, list[str]] = {group: [] for group in groups}
        for name in names:
            if name not in self.host.procedure_locals:
                named[group_of(name)].append(self.namer.name(name))
        return [(g, named[g][i : i + 8]) for g in groups for i in range(0, len(named[g]), 8)]


def _is_rem(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)


def stem(path: str) -> str:
    """The file name of a source path (either slash)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]
