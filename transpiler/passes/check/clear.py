"""Pass: Microsoft BASIC's CLEAR after the program has started (--dialect ms).

GW-BASIC's CLEAR (PC-BASIC is the oracle) sets every variable to 0 or "", erases every
array (a later use makes it again with the implicit bounds, a DIM may give it new
ones), and restores DATA; the GOSUB stack stays, so a RETURN after it goes back.  Here it
becomes those statements, in its place: `LET V = 0` for each variable of the program,
`ERASE` of each array (one that does not exist yet is no error) and `RESTORE`.  It
runs before `flatten`, so the one-line IFs, jumps and blocks see ordinary statements.

What CLEAR resets and a program here cannot reset at that point is a located error,
never a guess: the DEFINT/DEFSNG/DEFDBL/DEFSTR types (applied to the text after them,
passes/check/default_types.py), DEF FN functions (forgotten: a call after it is "Undefined
user function"), OPTION BASE, RND's sequence (it starts again), error trapping (ON
ERROR, ERR and ERL), open files (GW-BASIC's manual says CLEAR closes them, PC-BASIC
keeps them open) and the FOR and WHILE loops that are running.  A CLEAR that only REMs
and no-ops come before stays a no-op (`passes/check/devices.py`); its arguments, which size
GW-BASIC's memory, are ignored with a warning.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, BasicWarning, Diagnostics
from ...ir import ast
from ...ir.model import Analysis

_ARRAY_NODES = (ast.Index, ast.ArrayDecl, ast.MatRef, ast.Bound)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    program = analysis.program
    statements = list(program.statements())
    clears = [s for s in _all_statements(statements) if isinstance(s, ast.Clear)]
    if not clears:
        return
    options = analysis.options
    starting = _starting_clear(statements)
    later = [c for c in clears if c is not starting]
    microsoft = options.microsoft and not options.qbasic
    if microsoft and later and _supported(statements, later, diags):
        _warn_sized(analysis, later)
        lower = {id(c) for c in later}
        scalars, arrays = _names(statements)
    else:  # a no-op, or an error (here, or passes/check/devices.py's under qbasic)
        lower, scalars, arrays = set(), [], []
    for line in program.lines:
        line.statements = _lowered(line.statements, lower, scalars, arrays)


def _warn_sized(analysis: Analysis, clears: list[ast.Clear]) -> None:
    for clear in clears:
        if clear.sized:
            why = "CLEAR's arguments have no effect: they size GW-BASIC's memory"
            analysis.warnings.append(BasicWarning(why, clear.coord))


def _all_statements(statements: list[ast.Stmt]):
    """Every statement, those of one-line IFs' branches included."""
    for stmt in statements:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _all_statements(stmt.then_body)
            yield from _all_statements(stmt.else_body)


def _starting_clear(statements: list[ast.Stmt]) -> ast.Clear | None:
    """The CLEAR that only REMs and no-ops come before in the text, and that no jump goes
    back to, if any: a no-op."""
    for stmt in statements:
        if isinstance(stmt, ast.Clear):
            return None if _jumped_back_to(statements, stmt.label) else stmt
        if not isinstance(stmt, ast.Rem):
            return None
    return None


def _jumped_back_to(statements: list[ast.Stmt], line: int | None) -> bool:
    """Whether a jump goes to `line` or a line before it."""
    for stmt in _all_statements(statements):
        for node in stmt.walk():
            if isinstance(node, ast.LineRef) and (line is None or node.number <= line):
                return True
    return False


# ------------------------------------------------------------------ what cannot be reset


def _supported(statements: list[ast.Stmt], later: list[ast.Clear], diags: Diagnostics) -> bool:
    """Whether every later CLEAR can be exact; a located error for each that cannot."""
    why = _program_blocker(statements)
    ok = True
    for clear in later:
        reason = why or _before_blocker(statements, clear)
        if reason is not None:
            message, note = reason
            diags.error(BasicSemanticError(message, clear.coord, notes=(note,)))
            ok = False
    return ok


_RESETS = "CLEAR after the program has started is not supported here"


def _program_blocker(statements: list[ast.Stmt]) -> tuple[str, str] | None:
    """Why no CLEAR after the start can be exact in this program, if it cannot."""
    for stmt in _all_statements(statements):
        for node in stmt.walk():
            reason = _blocker(node)
            if reason is not None:
                return f"{_RESETS}: {reason[0]}", reason[1]
    return None


def _blocker(node: ast.Node) -> tuple[str, str] | None:
    if isinstance(node, ast.DefFn):
        return ("the program has DEF FN, and CLEAR forgets the functions it defines",
                "a call of FN after CLEAR and before its DEF FN runs again is "
                "Undefined user function in GW-BASIC")  # fmt: skip
    if isinstance(node, (ast.Open, ast.Field, ast.RecordIO)):
        return ("the program opens files",
                "GW-BASIC's manual says CLEAR closes every file; PC-BASIC keeps them open: "
                "CLOSE them before CLEAR and remove the OPEN, or the CLEAR")  # fmt: skip
    if isinstance(node, ast.OptionBase):
        return ("the program has OPTION BASE, and CLEAR sets the base back to 0",
                "the arrays' lower bounds would change when CLEAR runs")  # fmt: skip
    if isinstance(node, ast.Randomize) or (isinstance(node, ast.Call) and node.name == "RND"):
        return ("the program uses RND, and CLEAR starts its sequence again",
                "that restart is not implemented")  # fmt: skip
    if isinstance(node, (ast.OnError, ast.Resume)) or (
        isinstance(node, ast.Call) and (node.name == "ERR" or node.name == "ERL")
    ):
        return ("the program traps errors, and CLEAR turns trapping off and sets ERR "
                "and ERL to 0", "that reset is not implemented")  # fmt: skip
    return None


def _before_blocker(statements: list[ast.Stmt], clear: ast.Clear) -> tuple[str, str] | None:
    """Why this CLEAR cannot be exact given the text before it, if it cannot: a DEFtype
    before it (its types would change when CLEAR runs), or a FOR or WHILE loop around it
    (CLEAR drops the loops that are running)."""
    loops = 0
    for stmt in _all_statements(statements):
        if stmt is clear:
            break
        if isinstance(stmt, ast.DefType):
            return (f"{_RESETS}: CLEAR sets the types of DEF{stmt.type.upper()} and the "
                    "other DEF statements back to single precision",
                    f"the names' types would change when CLEAR runs (the DEF statement "
                    f"at {stmt.coord.line} applies to the text after it here)")  # fmt: skip
        if isinstance(stmt, (ast.For, ast.While)):
            loops += 1
        elif isinstance(stmt, ast.Next):
            loops -= max(1, len(stmt.vars))
        elif isinstance(stmt, ast.Wend):
            loops -= 1
    if loops > 0:
        return (f"{_RESETS} inside a FOR or WHILE loop: CLEAR drops the loops that are "
                "running", "in GW-BASIC the NEXT or WEND after it stops with NEXT without "
                "FOR or WEND without WHILE")  # fmt: skip
    return None


# ------------------------------------------------------------------------------ lowering


def _names(statements: list[ast.Stmt]) -> tuple[list[str], list[str]]:
    """The program's variables and arrays, in order of first appearance."""
    scalars: dict[str, None] = {}
    arrays: dict[str, None] = {}
    for stmt in _all_statements(statements):
        for node in stmt.walk():
            if isinstance(node, ast.Var):
                scalars[node.name] = None
            elif isinstance(node, _ARRAY_NODES):
                arrays[node.name] = None
            elif isinstance(node, ast.Erase):
                arrays.update(dict.fromkeys(node.names))
    return list(scalars), list(arrays)


def _lowered(
    statements: list[ast.Stmt], lower: set[int], scalars: list[str], arrays: list[str]
) -> list[ast.Stmt]:
    """The statements with each CLEAR in `lower` (ids) lowered, the others left as: the
    NoEffect that passes/check/devices.py warns about (or rejects)."""
    out: list[ast.Stmt] = []
    for stmt in statements:
        if isinstance(stmt, ast.If):
            stmt.then_body = _lowered(stmt.then_body, lower, scalars, arrays)
            stmt.else_body = _lowered(stmt.else_body, lower, scalars, arrays)
        if isinstance(stmt, ast.Clear) and id(stmt) in lower:
            out.extend(_resets(stmt, scalars, arrays))
        elif isinstance(stmt, ast.Clear):
            out.append(ast.NoEffect("CLEAR", coord=stmt.coord, label=stmt.label))
        else:
            out.append(stmt)
    return out


def _resets(clear: ast.Clear, scalars: list[str], arrays: list[str]) -> list[ast.Stmt]:
    """The statements that do what CLEAR does here, all located at it."""
    at, label = clear.coord, clear.label
    out: list[ast.Stmt] = []
    for name in scalars:
        zero = ast.Str("", coord=at) if name.endswith("$") else ast.Num(0, "0", coord=at)
        out.append(ast.Let(ast.Var(name, coord=at), zero, coord=at, label=label))
    if arrays:
        out.append(ast.Erase(list(arrays), redim=True, coord=at, label=label))
    out.append(ast.Restore(coord=at, label=label))
    return out
