"""A program's module lowered once, for both targets: what the host printers
(backends/cuda/host.py, backends/cutile/host.py) write, decided here and written there
each in its syntax.

`ModulePlan(host, namer, language)` names the program's variables, arrays and
procedure functions, splits off the leading REMs (the program's description), and
decides whether the program reads DATA (and which DATA statements make the table),
which arrays it makes and under which comment, and the values of the template's main()
that do not depend on the target.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import __version__
from ..ir import ast, hostir
from ..ir.naming import Namer, declare_program_names
from .procedures import name_procedures, procedure_notes
from .simplify import simplify

DATA_WIDTH = 92  # the DATA items' rows, before the formatter indents them


@dataclass
class ArrayPlan:
    """An array the program makes when it starts, under the comment of its DIM
    (`symbol.dim_stmt`) or else `note`, why it has the bounds it has."""

    name: str  # BASIC's
    ident: str  # the target's
    symbol: object  # its ArraySymbol: elements' type, base, rank, bounds
    note: str | None

    @property
    def allocated(self) -> bool:
        """Its bounds are constants (else its DIM statement allocates it)."""
        return self.symbol.upper is not None


class ModulePlan:
    """The decisions, as plain attributes; `array_names` is the dict the expression
    printer reads (a procedure's printer renames its array parameters in it)."""

    def __init__(self, host: hostir.HostProgram, namer: Namer, language: str):
        simplify(host)  # the host passes: both targets print their result
        a = host.analysis
        declare_program_names(namer, a)
        self.array_names = {name: namer.name(name, "array") for name in sorted(a.arrays)}
        self.sub_names = {sub.name: namer.ident(sub.name) for sub in host.subroutines}
        # each procedure function's array parameters
        self.proc_arrays = name_procedures(host, namer, self.sub_names)
        leading = 0  # the REMs the program starts with: its description, at the top
        while leading < len(host.body) and _is_rem(host.body[leading]):
            leading += 1
        self.header, self.body = host.body[:leading], host.body[leading:]
        self.notes = procedure_notes(host)  # comments after the header
        self.arrays = _arrays(host, self.array_names)
        self._plan_data(a)
        precision = a.using_precision  # PRINT USING's and the files' digits, if not REAL
        self.console_precision = precision if precision != "REAL" and a.uses_print_using else None
        self.file_precision = precision if a.uses_files and precision != "REAL" else None
        self.title = f"{stem(a.source.name)}: a BASIC program translated to {language}"
        self.values = {  # the template's values, written as they are
            "version": __version__,
            "load_overflows": len(a.load_overflows) if a.options.microsoft else 0,
            "uses_data": self.uses_data,
            "uses_files": a.uses_files,
            "runtime_dialect": a.runtime_dialect(),
            "screen_errors": a.options.microsoft,  # fatal errors on GW-BASIC's screen
        }

    def _plan_data(self, a) -> None:
        """Whether the program reads DATA; then the DATA statements whose items make the
        table, GW-BASIC's DATA lines each with the index of its first item (a bad
        item's ERL), and the DataPool's arguments after the table."""
        self.uses_data = reads = bool(a.data) or any(
            isinstance(s, (ast.Read, ast.Restore, ast.MatRead)) for s in a.stmts
        )
        microsoft = a.options.microsoft
        self.data = [s for s in a.stmts if isinstance(s, ast.Data) and s.read] if reads else []
        self.data_line_starts = list(a.data_line_start.items()) if reads and microsoft else []
        self.data_pool = _data_pool(a.options.strict, microsoft, bool(self.data_line_starts))


def _data_pool(strict: bool, microsoft: bool, lines: bool) -> list[tuple[str, object]]:
    """The DataPool's arguments after the DATA table: outside --strict the rules of READ
    (Microsoft BASIC's, with each DATA line's first item)."""
    if strict:
        return []
    args: list[tuple[str, object]] = [("strict", False)]
    if microsoft:
        args.append(("microsoft", True))
        if lines:
            args.append(("lines", "DATA_LINES"))
    return args


def _arrays(host: hostir.HostProgram, names: dict[str, str]) -> list[ArrayPlan]:
    """The arrays the program uses, in the order of their DIMs, each with its comment:
    its DIM's, or why it has the bounds it has."""
    used = [kv for kv in host.analysis.arrays.items() if kv[0] not in host.unused_arrays]
    out = []
    for name, symbol in sorted(used, key=lambda kv: (kv[1].coord.line, kv[1].coord.column)):
        note = None
        if symbol.dim_stmt is None and name in host.static_arrays:
            note = f"{name}() is used without DIM: subscripts {symbol.base} to 10"
        out.append(ArrayPlan(name, names[name], symbol, note))
    return out


def data_rows(
    data: list[ast.Data], entry: Callable[[ast.Datum], str], comment: Callable[[ast.Data], str]
) -> list[str]:
    """Each DATA statement's `comment`, then its items (`entry`: one in the target's
    syntax) in rows of at most DATA_WIDTH characters."""
    lines = []
    for stmt in data:
        lines.append(comment(stmt))
        row = ""
        for datum in stmt.items:
            text = entry(datum)
            if row and len(row) + 1 + len(text) > DATA_WIDTH:
                lines.append(row)
                row = ""
            row = f"{row} {text}" if row else text
        if row:
            lines.append(row)
    return lines


def variable_rows(
    host: hostir.HostProgram, namer: Namer, names, group_of, groups: tuple[str, ...]
) -> list[tuple[str, list[str]]]:
    """The program's variables among `names` (a SUB's are locals of its function), as
    (group, names) rows of up to eight, group by group (`group_of(name)`)."""
    named: dict[str, list[str]] = {group: [] for group in groups}
    for name in names:
        if name not in host.procedure_locals:
            named[group_of(name)].append(namer.name(name))
    return [(g, named[g][i : i + 8]) for g in groups for i in range(0, len(named[g]), 8)]


def _is_rem(node: hostir.HNode) -> bool:
    return isinstance(node, hostir.Simple) and isinstance(node.stmt, ast.Rem)


def stem(path: str) -> str:
    """The file name of a source path (either slash)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]
