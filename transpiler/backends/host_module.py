"""What the two host printers (cuda/host.py, cutile/host.py) share in setting up a
program: the names, the expression and statement printers, and the program's parts
that do not depend on the target's syntax (the leading REMs, the DEF FNs it calls,
whether it reads DATA)."""

from __future__ import annotations

from .. import ast, hostir
from ..hostcode.simplify import simplify
from ..model import Analysis
from ..naming import Namer, declare_program_names
from .host_procedures import name_procedures


class HostModule:
    """A subclass names its expression printers (`expr_printer`, `microsoft_printer`)
    and statement printer (`statement_printer`), and gives `function_body(name)`."""

    expr_printer = None
    microsoft_printer = None
    statement_printer = None

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

    @property
    def uses_data(self) -> bool:
        return bool(self.a.data) or any(
            isinstance(s, (ast.Read, ast.Restore, ast.MatRead)) for s in self.a.stmts
        )

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

    def leading_rems(self) -> int:
        """How many REMs open the program (its description, printed at the top)."""
        body = self.host.body
        leading = 0
        while leading < len(body) and _is_rem(body[leading]):
            leading += 1
        return leading

    def functions_called(self) -> tuple[list[str], dict]:
        """The DEF FN functions the program calls (directly or through each other), in
        the program's order, and their bodies (`function_body` records the functions
        each calls in the expression printer's `functions_called`)."""
        called = set(self.expr.functions_called)
        bodies: dict = {}
        work = list(called)
        while work:
            name = work.pop()
            before = set(self.expr.functions_called)
            bodies[name] = self.function_body(name)
            for new in self.expr.functions_called - before:
                if new not in called:
                    called.add(new)
                    work.append(new)
        return sorted(called, key=lambda n: self.a.functions[n].index), bodies

    def function_body(self, name: str):
        raise NotImplementedError


def _is_rem(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)


def stem(path: str) -> str:
    """The file name of a source path (either slash)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]
