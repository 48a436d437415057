"""What each statement of the AST reads, writes and needs: one row per statement class.

The passes that must know something about every statement read it here instead of
keeping a switch of their own (a new statement is then its grammar rule, its row, the
interpreter and the runtime):

    word        how messages name it (`KILL`, `GET or PUT of a file`)
    types       the expressions it reads and writes, by field, each with the type it
                must have: "str", "num", or "any" (passes/check/typecheck.py; a field
                may hold None, an expression or a list of them)
    stores      the fields holding the variables or elements it assigns without reading
                them first (liveness: their subscripts are read, they are not)
    updates     the fields holding variables or elements it reads and then assigns
    lists       the fields naming a one-dimensional array it reads or fills (CHANGE)
    lane        a lane of a kernel can run it; any other statement keeps the loop holding
                it on the host, `host_reason` says why (--explain)
    kernel      in a cuTile BASIC kernel program: "rejected" (an error), "ignored" (an
                error: NVIDIA's compiler drops it silently), "" (the kernel pass decides)
    files       it uses the program's table of files (opened and closed around the run)
    runtime     a statement that is one call of the runtime: the function's name, called
                with the `types` fields in order (the interpreter and both targets print
                it without a rule of their own)
    deferred_mismatch  under --dialect ms a type mismatch in it is GW-BASIC's run-time
                "Type mismatch", not a compile error

Fields a row does not name are read by the passes that walk a statement whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from . import ast

OperandType = Literal["str", "num", "any"]
KernelRule = Literal["", "rejected", "ignored"]


@dataclass(frozen=True, slots=True)
class StatementFacts:
    word: str
    types: dict[str, OperandType] = field(default_factory=dict)
    stores: tuple[str, ...] = ()
    updates: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    lane: bool = False
    kernel: KernelRule = ""
    files: bool = False
    runtime: str = ""
    deferred_mismatch: bool = False

    @property
    def host_reason(self) -> str:
        """Why a loop holding the statement runs on the host (--explain)."""
        return f"{self.word} inside the loop runs on the host"


_F = StatementFacts
_FILE: dict = {"kernel": "rejected", "files": True}

# fmt: off
STATEMENT_FACTS: dict[type[ast.Stmt], StatementFacts] = {
    # assignments
    ast.Let: _F("LET", stores=("target",), lane=True, deferred_mismatch=True),
    ast.MidAssign: _F("MID$", {"target": "str", "start": "num", "count": "num",
                               "value": "str"}, updates=("target",),
                      deferred_mismatch=True),
    ast.Swap: _F("SWAP", updates=("first", "second"), deferred_mismatch=True),
    ast.Const: _F("CONST"),
    ast.Rem: _F("REM", lane=True),
    # console, DATA
    ast.Print: _F("PRINT", deferred_mismatch=True),
    ast.Input: _F("INPUT", stores=("targets",)),
    ast.LineInput: _F("LINE INPUT", stores=("target",), deferred_mismatch=True),
    ast.Read: _F("READ", {"targets": "any"}, stores=("targets",)),
    ast.Data: _F("DATA"),
    ast.Restore: _F("RESTORE", kernel="rejected"),
    ast.Write: _F("WRITE", {"channel": "num", "items": "any"}, kernel="rejected"),
    ast.NoEffect: _F("a statement without effect", lane=True),  # CLS in a loop: nothing to run
    ast.Trace: _F("TRON/TROFF", kernel="rejected"),
    ast.TraceLine: _F("the line trace of TRON"),
    # flow
    ast.Goto: _F("GOTO", kernel="ignored"),
    ast.Gosub: _F("GOSUB", kernel="ignored"),
    ast.Return: _F("RETURN", kernel="ignored"),
    ast.OnGoto: _F("ON ... GOTO", {"selector": "num"}, kernel="rejected"),
    ast.If: _F("IF"),
    ast.IfBlock: _F("IF ... THEN (a block)", {"condition": "num"}),
    ast.ElseIf: _F("ELSEIF", {"condition": "num"}),
    ast.Else: _F("ELSE"),
    ast.EndIf: _F("END IF"),
    ast.For: _F("FOR", {"var": "num", "start": "num", "limit": "num", "step": "num"},
                stores=("var",)),
    ast.Next: _F("NEXT", {"vars": "num"}, updates=("vars",)),
    ast.While: _F("WHILE", {"condition": "num"}),
    ast.Wend: _F("WEND"),
    ast.Do: _F("DO"),
    ast.Loop: _F("LOOP"),
    ast.Exit: _F("EXIT"),
    ast.SelectCase: _F("SELECT CASE"),
    ast.Case: _F("CASE"),
    ast.EndSelect: _F("END SELECT"),
    ast.End: _F("END"),
    ast.Stop: _F("STOP"),
    ast.Fault: _F("FAULT"),
    # errors
    ast.OnError: _F("ON ERROR GOTO", kernel="rejected"),
    ast.Resume: _F("RESUME", kernel="rejected"),
    ast.RaiseError: _F("ERROR", {"code": "num"}, kernel="rejected"),
    # declarations, arrays
    ast.Dim: _F("DIM", deferred_mismatch=True),
    ast.Redim: _F("REDIM"),
    ast.Erase: _F("ERASE"),
    ast.OptionBase: _F("OPTION BASE", kernel="rejected"),
    ast.DefFn: _F("DEF FN", kernel="rejected"),
    ast.DefType: _F("DEFINT/DEFSNG/DEFDBL/DEFSTR"),
    ast.Randomize: _F("RANDOMIZE", {"seed": "num"}, kernel="rejected"),
    ast.Clear: _F("CLEAR"),
    ast.MatAssign: _F("MAT", kernel="rejected"),
    ast.MatRead: _F("MAT READ", kernel="rejected"),
    ast.MatPrint: _F("MAT PRINT", kernel="rejected"),
    ast.MatInput: _F("MAT INPUT", kernel="rejected"),
    ast.ChangeToCodes: _F("CHANGE", {"text": "str"}, lists=("array",), kernel="rejected"),
    ast.ChangeToString: _F("CHANGE", {"target": "str"}, stores=("target",),
                           lists=("array",), kernel="rejected"),
    # QuickBASIC: procedures, records
    ast.SubDef: _F("SUB"),
    ast.EndSub: _F("END SUB"),
    ast.ExitSub: _F("EXIT SUB"),
    ast.DeclareSub: _F("DECLARE"),
    ast.CallSub: _F("CALL"),
    ast.Shared: _F("SHARED"),
    ast.Static: _F("STATIC"),
    ast.TypeBegin: _F("TYPE"),
    ast.TypeField: _F("a field of TYPE"),
    ast.TypeEnd: _F("END TYPE"),
    # files
    ast.Open: _F("OPEN", {"name": "str", "mode": "str", "number": "num", "length": "num"},
                 **_FILE),
    ast.Close: _F("CLOSE", {"numbers": "num"}, **_FILE),
    ast.Field: _F("FIELD", {"channel": "num", "widths": "num"}, **_FILE),
    ast.RecordIO: _F("GET or PUT of a file", {"channel": "num", "record": "num"}, **_FILE),
    ast.FieldRelease: _F("an assignment to a FIELD variable"),
    ast.FieldSwap: _F("SWAP of a FIELD variable"),
    ast.FileWidth: _F("WIDTH #", {"channel": "num", "width": "num"}, **_FILE),
    ast.Kill: _F("KILL", {"name": "str"}, runtime="kill_file", **_FILE),
    ast.Rename: _F("NAME", {"old": "str", "new": "str"}, runtime="rename_file", **_FILE),
    ast.MakeDirectory: _F("MKDIR", {"path": "str"}, runtime="make_directory", **_FILE),
    ast.RemoveDirectory: _F("RMDIR", {"path": "str"}, runtime="remove_directory", **_FILE),
    ast.ChangeDirectory: _F("CHDIR", {"path": "str"}, runtime="change_directory", **_FILE),
    # cuTile BASIC kernel programs
    ast.TileStmt: _F("TILE"),
    ast.Output: _F("OUTPUT"),
}
# fmt: on


def facts_of(stmt: ast.Stmt) -> StatementFacts:
    return STATEMENT_FACTS[type(stmt)]


def operands(stmt: ast.Stmt, names) -> Iterator[ast.Node]:
    """The nodes in the fields `names` of `stmt` (a field may hold None or a list)."""
    for name in names:
        value = getattr(stmt, name)
        if isinstance(value, list):
            yield from value
        elif value is not None:
            yield value


def typed_operands(stmt: ast.Stmt) -> Iterator[tuple[ast.Node, OperandType]]:
    """The operands of `types`, in order, each with the type it must have."""
    for name, kind in facts_of(stmt).types.items():
        for node in operands(stmt, (name,)):
            yield node, kind


def assigned(stmt: ast.Stmt) -> list[ast.LValue]:
    """The variables and elements the statement assigns (stores and updates)."""
    facts = facts_of(stmt)
    return list(operands(stmt, facts.stores + facts.updates))


def fields_in_order(stmt: ast.Stmt) -> Iterator[str]:
    """The names of the statement's own fields, in source order."""
    for f in dataclasses.fields(stmt):
        if f.name not in ("coord", "label"):
            yield f.name


def runtime_arguments(stmt: ast.Stmt) -> list[ast.Expr]:
    """The arguments of a `runtime` statement's call: its `types` operands, in order."""
    return [node for node, _ in typed_operands(stmt)]
