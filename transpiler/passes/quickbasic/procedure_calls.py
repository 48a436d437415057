"""The statements of the module and of each procedure, with their calls lowered to
GOSUBs (see passes/quickbasic/procedures.py for the whole scheme).

Each statement becomes: the FUNCTION calls of its expressions, hoisted in the order
QuickBASIC evaluates them (innermost first, left to right), then the statement reading
the temporaries that hold their results.  A call is

    <param> = <arg> ...             copy in (by reference or by value)
    GOSUB SUB NAME
    <temporary> = NAME_NAME#        a FUNCTION's result
    <arg> = <param> ...             copy back the arguments passed by reference

and, when the callee may come back to the caller (recursion), the caller's frame is
pushed on `CALL_DEPTH%` before the copy in and popped after the GOSUB, the values to
copy back taken before the pop.
"""

from __future__ import annotations

from ...ir import ast
from ...ir.model import Analysis
from ...ir.procedure_records import CallRecord, ProcedureRecord
from ...ir.statement_facts import assigned
from ...language.semantics import STACK_DEPTH
from ..exprutil import negation
from .procedure_loops import Restructurer
from .procedure_model import Proc, calls_in, copy_of, reach, rewrite

DEPTH = "CALL_DEPTH%"
STACK_MESSAGE = "Out of stack space"
_OUTPUT = (ast.Print, ast.Write, ast.Input, ast.LineInput)


class Lowering:
    def __init__(
        self, analysis: Analysis, procs: dict[str, Proc], values, constants: set[str], error
    ) -> None:
        self.analysis = analysis
        self.constants = constants  # CONST names: passed by value
        self.procs = procs
        self.values = values  # id of a FUNCTION call -> which arguments are by value
        self.error = error
        self.functions = {name for name, proc in procs.items() if proc.stmt.function}
        self.reach = reach(procs)
        self.prints = {
            name for name in procs if any(_writes(procs[p]) for p in self.reach[name] | {name})
        }
        # What a call may change: the parameters each procedure assigns (or passes on by
        # reference), and the module's names it or a procedure it calls assigns.
        self.changed_params = {
            name: _changed(proc) & set(proc.params) for name, proc in procs.items()
        }
        self.changed_exactly = _changed_exactly(procs, values)
        self.changed_module = {
            name: set().union(
                *(_changed(procs[p]) & procs[p].shared for p in self.reach[name] | {name})
            )
            for name in procs
        }
        self.used = {
            node.name
            for line in analysis.program.lines
            for stmt in line.statements
            for node in stmt.walk()
            if isinstance(node, (ast.Var, ast.Index))
        }
        self.module_temps = 0
        self.saved: dict[str, str] = {}  # frame variable -> its array of saved values
        self.made_first: list[ast.ArrayDecl] = []  # procedures' arrays, DIMmed at the start
        self.inside: Proc | None = None

    # ------------------------------------------------------------------ bodies

    def module(self, lines: list[ast.Line]) -> list[ast.Line]:
        self.inside = None
        self._restructure(lines)
        for line in lines:
            line.statements = self._statements(line.statements)
        return lines

    def procedure(self, proc: Proc) -> list[ast.Line]:
        """The procedure as a subroutine: its label, its locals reset, its body, its
        RETURN."""
        self.inside = proc
        coord = proc.stmt.coord
        if proc.name in self.reach[proc.name]:
            self._refuse_local_arrays(proc)
        self._restructure(proc.body)
        if not proc.stmt.static:
            self._fresh_arrays(proc)
        body = []
        for line in proc.body:
            line.statements = self._statements(line.statements)
            body.append(line)
        resets = [
            ast.Let(ast.Var(name, coord=coord), _zero(name, coord), coord=coord)
            for name in proc.locals
            if name not in proc.statics
        ]
        if proc.stmt.function:
            resets.append(
                ast.Let(ast.Var(proc.result, coord=coord), _zero(proc.result, coord), coord=coord)
            )
        lines = [ast.Line(None, resets, name=_entry(proc.name), coord=coord)]
        lines.extend(body)
        end = proc.end or proc.stmt
        lines.append(
            ast.Line(None, [ast.Return(coord=end.coord)], name=_exit(proc.name), coord=end.coord)
        )
        self.inside = None
        record = self._record(proc)
        record.resets = {id(stmt) for stmt in resets}
        self.analysis.procedures[proc.name] = record
        return lines

    def _record(self, proc: Proc) -> ProcedureRecord:
        return ProcedureRecord(
            name=proc.name,
            function=proc.stmt.function,
            entry_label=_entry(proc.name),
            params=proc.params,
            source_params=[p.name for p in proc.stmt.params],
            array_params=[isinstance(p, ast.ArrayDecl) for p in proc.stmt.params],
            result=proc.result if proc.stmt.function else None,
            locals=[n for n in proc.locals if n not in proc.statics] + proc.scratch,
            statics=set(proc.statics),
            changed=self.changed_exactly[proc.name],
            stmt=proc.stmt,
            template=proc.template,
            array_args=list(proc.array_args),
            array_bound_twice=proc.array_bound_twice,
        )

    def _fresh_arrays(self, proc: Proc) -> None:
        """A non-STATIC procedure's DIM makes its array again, zeroed, on each call:
        `ERASE A: DIM A(n)` (A is DIMmed once before the module runs, so that ERASE
        always finds it)."""
        for line in proc.body:
            out: list[ast.Stmt] = []
            for stmt in line.statements:
                if isinstance(stmt, ast.Dim):
                    fresh = [
                        d.name
                        for d in stmt.arrays
                        if d.name in proc.arrays and d.name not in proc.statics
                    ]
                    if fresh:
                        out.append(ast.Erase(fresh, coord=stmt.coord, label=stmt.label))
                        for decl in stmt.arrays:
                            if decl.name in fresh:
                                self.made_first.append(
                                    ast.ArrayDecl(
                                        decl.name,
                                        [_num(1, decl.coord) for _ in decl.bounds],
                                        coord=decl.coord,
                                    )
                                )
                out.append(stmt)
            line.statements = out

    def _refuse_local_arrays(self, proc: Proc) -> None:
        """A recursive procedure's arrays would need saving whole: not supported."""
        for line in proc.body:
            for stmt in line.statements:
                for node in stmt.walk():
                    if isinstance(node, ast.ArrayDecl) and node.name in proc.arrays:
                        self.error(
                            f"an array of a recursive {proc.stmt.word} ({proc.stmt.name} calls "
                            "itself): not supported yet (SHARE the array)",
                            node.coord,
                        )

    def with_frames(self, lines: list[ast.Line]) -> list[ast.Line]:
        """The arrays that hold saved frames and the procedures' own arrays, DIMmed
        before the module's first statement (after its OPTION BASE, which must come
        before any DIM)."""
        if not self.saved and not self.made_first:
            return lines
        coord = lines[0].coord if lines else None
        where = {"coord": coord} if coord is not None else {}
        bound = ast.Num(float(STACK_DEPTH), str(STACK_DEPTH), **where)
        arrays = [ast.ArrayDecl(name, [copy_of(bound)], **where) for name in self.saved.values()]
        arrays += self.made_first
        dim = ast.Line(None, [ast.Dim(arrays, **where)], **where)
        self.analysis.unquoted.add(id(dim.statements[0]))
        at = 0
        for i, line in enumerate(lines):
            if any(isinstance(s, ast.OptionBase) for s in line.statements):
                at = i + 1
                break
            if any(isinstance(s, ast.End) for s in line.statements) and line.number is None:
                break
        return lines[:at] + [dim] + lines[at:]

    def _restructure(self, lines: list[ast.Line]) -> None:
        Restructurer(
            has_calls=lambda e: bool(calls_in(e, self.functions)),
            recursive=self._makes_recursive_call,
            temporary=lambda suffix: self._temporary(suffix, frame=True),
            error=self.error,
            microsoft=self.analysis.options.microsoft,
        ).lines(lines)

    def _makes_recursive_call(self, stmt: ast.Stmt) -> bool:
        proc = self.inside
        if proc is None:
            return False
        return any(
            isinstance(node, (ast.CallSub, ast.Call))
            and node.name in self.procs
            and self._recursive(node.name)
            for node in stmt.walk()
        )

    def _recursive(self, callee: str) -> bool:
        """Whether a call of `callee` from the current procedure may come back to it."""
        proc = self.inside
        return proc is not None and (callee == proc.name or proc.name in self.reach[callee])

    def _temporary(self, suffix: str, frame: bool = False) -> str:
        """A fresh variable: `NAME_1#` in procedure NAME (a name no QuickBASIC variable
        can have), `CALL_1#` in the module; `frame`: one of the procedure's locals (a
        recursive call saves it), else a call's result or argument, which a recursive
        call saves only while its statement still needs it."""
        proc = self.inside
        while True:
            if proc is None:
                self.module_temps += 1
                name = f"CALL_{self.module_temps}{suffix}"
            else:
                proc.temps += 1
                name = proc.mangle(f"{proc.temps}{suffix}")
            if name not in self.used:
                self.used.add(name)
                if proc is not None and frame:
                    proc.locals.append(name)
                elif proc is not None:
                    proc.scratch.append(name)
                return name

    # ------------------------------------------------------------------ statements

    def _statements(self, stmts: list[ast.Stmt]) -> list[ast.Stmt]:
        out: list[ast.Stmt] = []
        for stmt in stmts:
            out.extend(self._statement(stmt))
        return out

    def _statement(self, stmt: ast.Stmt) -> list[ast.Stmt]:
        where = {"coord": stmt.coord, "label": stmt.label}
        pre: list[ast.Stmt] = []
        live: list[str] = []  # call results this statement still reads
        hoist = self._hoister(pre, live, stmt)
        expression = hoist.expression
        if isinstance(stmt, ast.If):
            stmt.condition = expression(stmt.condition)
            stmt.then_body = self._statements(stmt.then_body)
            stmt.else_body = self._statements(stmt.else_body)
            return pre + [stmt]
        if isinstance(stmt, (ast.IfBlock, ast.ElseIf, ast.While)):
            if isinstance(stmt, ast.ElseIf) and calls_in(stmt.condition, self.functions):
                raise AssertionError("ELSEIF with calls is rewritten first")
            stmt.condition = expression(stmt.condition)
            return pre + [stmt]
        if isinstance(stmt, (ast.Do, ast.Loop)) and calls_in(stmt.condition, self.functions):
            test = expression(stmt.condition)
            leave = test if stmt.until else negation(test)
            exit_ = ast.If(leave, then_body=[ast.Exit("DO", **where)], **where)
            if isinstance(stmt, ast.Do):
                return [ast.Do(**where)] + pre + [exit_]
            return pre + [exit_, ast.Loop(**where)]
        if isinstance(stmt, ast.Case) and calls_in(stmt, self.functions):
            self.error(
                "a FUNCTION call in a CASE is not supported yet (call it before SELECT CASE)",
                stmt.coord,
            )
            return [stmt]
        if isinstance(stmt, (ast.Const, ast.DefFn)) and calls_in(stmt, self.functions):
            word = "CONST" if isinstance(stmt, ast.Const) else "DEF FN"
            self.error(f"a FUNCTION call in {word} is not supported", stmt.coord)
            return [stmt]
        if isinstance(stmt, ast.CallSub):
            stmt.args = [expression(arg) for arg in stmt.args]
            pre.extend(self._call(stmt.name, stmt.args, stmt.by_value, None, live, stmt))
            return pre
        if isinstance(stmt, ast.ExitSub):
            proc = self.inside
            if proc is None or proc.stmt.function != stmt.function:
                self.error(f"EXIT {stmt.word} outside a {stmt.word}", stmt.coord)
                return [ast.Rem("", **where)]
            return [ast.Goto(ast.LineRef(0, _exit(proc.name), coord=stmt.coord), **where)]
        if isinstance(stmt, ast.Shared) and self.inside is None:
            self.error("SHARED outside a SUB or FUNCTION", stmt.coord)
        if isinstance(stmt, ast.Static) and self.inside is None:
            self.error("STATIC outside a SUB or FUNCTION", stmt.coord)
        if isinstance(stmt, (ast.Shared, ast.Static, ast.DeclareSub)):
            return [ast.Rem("", **where)]
        if isinstance(stmt, ast.Let) and isinstance(stmt.target, ast.Call):
            self.error(
                f"{stmt.target.name} is a FUNCTION: only its own body assigns its value",
                stmt.target.coord,
            )
            return [stmt]
        if isinstance(stmt, ast.Print) and calls_in(stmt, self.functions):
            return self._print(stmt)
        rewrite(stmt, hoist)
        return pre + [stmt]

    def _hoister(self, pre: list[ast.Stmt], live: list[str], stmt: ast.Stmt) -> _Hoister:
        return _Hoister(self, pre, live, stmt)

    def _print(self, stmt: ast.Print) -> list[ast.Stmt]:
        """PRINT x; F(x): QuickBASIC prints each item before it evaluates the next, so x
        is printed before F runs (which may change it, or print).  The PRINT is cut
        before an item that calls a FUNCTION which may print, or change a variable an
        item before it reads: `PRINT x;` then the call, then `PRINT <result>`."""
        where = {"coord": stmt.coord, "label": stmt.label}
        pieces: list[list] = [[]]
        for item in stmt.items:
            calls = calls_in(item, self.functions)
            if calls and pieces[-1] and self._runs_after(calls, pieces[-1]):
                if stmt.using is not None:
                    self.error(
                        "a FUNCTION call in PRINT USING that may print, or change what an item "
                        "before it reads: not supported (call it before the PRINT)",
                        item.coord,
                    )
                else:
                    if not isinstance(pieces[-1][-1], ast.PrintSep):
                        pieces[-1].append(ast.PrintSep(";", coord=item.coord))
                    pieces.append([])
            pieces[-1].append(item)
        out: list[ast.Stmt] = []
        for i, items in enumerate(pieces):
            channel = stmt.channel if i == 0 else copy_of(stmt.channel)
            part = ast.Print(items, channel=channel, using=stmt.using, **where)
            pre: list[ast.Stmt] = []
            rewrite(part, self._hoister(pre, [], stmt))
            out.extend(pre + [part])
        return out

    def _runs_after(self, calls: list[ast.Call], before: list) -> bool:
        """Whether these calls must run after the PRINT items `before` are printed:
        they may print, or change a name those items read."""
        if any(call.name in self.prints for call in calls):
            return True
        read = {
            n.name for item in before for n in item.walk() if isinstance(n, (ast.Var, ast.Index))
        }
        for call in calls:
            proc = self.procs.get(call.name)
            if proc is None:
                continue
            changed = set(self.changed_module[call.name])
            for arg, param in zip(call.args, proc.params, strict=False):
                if (
                    isinstance(arg, (ast.Var, ast.Index))
                    and param in self.changed_params[call.name]
                ):
                    changed.add(arg.name)
            if changed & read:
                return True
        return False

    # ------------------------------------------------------------------ calls

    def _call(self, name, args, values, result, live, stmt: ast.Stmt) -> list[ast.Stmt]:
        """Copy in, GOSUB, take the result, copy back (saving the frame around a
        recursive call).  The statements are at `stmt`'s place, the statement they are
        made for: its comment is quoted once, above them."""
        proc = self.procs.get(name)
        coord = stmt.coord
        where = {"coord": coord}
        if proc is None or len(proc.stmt.params) != len(args):
            return [ast.Rem("", **where)]  # reported
        recursive = self._recursive(name)
        frame = self._frame(live) if recursive else []
        out: list[ast.Stmt] = []
        params = proc.params
        # The callee's parameters are the caller's variables when it calls itself: an
        # argument that reads one assigned before it is evaluated first.
        assigned: set[str] = set()
        sources: list[ast.Expr] = []
        early: list[ast.Stmt] = []
        for arg, param in zip(args, params, strict=True):
            if recursive and assigned & _reads(arg):
                held = self._temporary(_suffix(param))
                early.append(ast.Let(ast.Var(held, **where), arg, **where))
                sources.append(ast.Var(held, **where))
            else:
                sources.append(arg)
            assigned.add(param)
        out.extend(early)
        saves: list[ast.Stmt] = []
        if recursive:
            saves = self._push(frame, coord)
            out.extend(saves)
            saves = saves[2:]  # (after the depth's count and test)
        copy_in = [
            ast.Let(ast.Var(param, **where), copy_of(source), **where)
            for source, param in zip(sources, params, strict=True)
        ]
        out.extend(copy_in)
        ref = ast.LineRef(0, _entry(name), **where)
        gosub = ast.Gosub(ref, **where)
        out.append(gosub)
        record = CallRecord(name, self.inside and self.inside.name, copy_in, gosub, None, [])
        record.early = early
        back: list[tuple[ast.Expr, ast.Expr]] = []
        for arg, param, value in zip(args, params, values, strict=True):
            if (
                isinstance(arg, (ast.Var, ast.Index))
                and not value
                and arg.name not in self.constants
            ):
                back.append((arg, ast.Var(param, **where)))
        if recursive and frame:
            caught = []
            for arg, value in back:
                if value.name in frame:  # the pop would put the caller's value back
                    held = self._temporary(_suffix(value.name))
                    record.held.append(ast.Let(ast.Var(held, **where), value, **where))
                    out.append(record.held[-1])
                    value = ast.Var(held, **where)
                caught.append((arg, value))
            back = caught
        if result is not None:
            record.result = ast.Let(
                ast.Var(result, **where), ast.Var(proc.result, **where), **where
            )
            out.append(record.result)
        if recursive:
            restores = self._pop(frame, coord)
            out.extend(restores)
            record.frame = saves + restores[:-1]  # (not the depth's count)
        for arg, value in back:
            record.copy_back.append(ast.Let(copy_of(arg), value, **where))
            out.append(record.copy_back[-1])
        for made in out:
            made.label = stmt.label
        self.analysis.procedure_calls[id(gosub)] = record
        return out

    def _frame(self, live: list[str]) -> list[str]:
        proc = self.inside
        return proc.frame() + [t for t in live if t not in proc.frame()] if proc else []

    def _push(self, frame: list[str], coord) -> list[ast.Stmt]:
        where = {"coord": coord}
        depth = ast.Var(DEPTH, **where)
        out: list[ast.Stmt] = [
            ast.Let(
                depth, ast.BinOp("+", ast.Var(DEPTH, **where), _num(1, coord), **where), **where
            ),
            ast.If(
                ast.BinOp(">", ast.Var(DEPTH, **where), _num(STACK_DEPTH, coord), **where),
                then_body=[ast.Fault(STACK_MESSAGE, **where)],
                **where,
            ),
        ]
        for name in frame:
            slot = ast.Index(self._saved(name), [ast.Var(DEPTH, **where)], **where)
            out.append(ast.Let(slot, ast.Var(name, **where), **where))
        return out

    def _pop(self, frame: list[str], coord) -> list[ast.Stmt]:
        where = {"coord": coord}
        out: list[ast.Stmt] = []
        for name in frame:
            slot = ast.Index(self._saved(name), [ast.Var(DEPTH, **where)], **where)
            out.append(ast.Let(ast.Var(name, **where), slot, **where))
        less = ast.BinOp("-", ast.Var(DEPTH, **where), _num(1, coord), **where)
        out.append(ast.Let(ast.Var(DEPTH, **where), less, **where))
        return out

    def _saved(self, name: str) -> str:
        """The array that holds the saved values of frame variable `name`."""
        if name not in self.saved:
            bare, suffix = (name[:-1], name[-1]) if name[-1] in "$%#!&" else (name, "")
            self.saved[name] = f"SAVED_{bare}{suffix}"
        return self.saved[name]


def _writes(proc: Proc) -> bool:
    return any(
        isinstance(node, _OUTPUT)
        for line in proc.body
        for stmt in line.statements
        for node in stmt.walk()
    )


class _Hoister:
    """A `rewrite` callback that hoists each FUNCTION call of a statement into `pre` (the
    statements before it) and puts the temporary holding its result in its place;
    `live` collects those temporaries (a recursive call later in the statement saves
    them)."""

    def __init__(
        self, lowering: Lowering, pre: list[ast.Stmt], live: list[str], stmt: ast.Stmt
    ) -> None:
        self.lowering = lowering
        self.pre = pre
        self.live = live
        self.stmt = stmt  # the statement the calls are hoisted from

    def __call__(self, node: ast.Node) -> ast.Node:
        low = self.lowering
        if not (isinstance(node, ast.Call) and node.name in low.functions):
            return node
        # (its arguments' own calls are hoisted already: `rewrite` goes children first)
        result = low._temporary(_suffix(node.name))
        values = low.values[id(node)]
        self.pre.extend(low._call(node.name, node.args, values, result, self.live, self.stmt))
        self.live.append(result)
        return ast.Var(result, coord=node.coord)

    def expression(self, node: ast.Expr) -> ast.Expr:
        """The expression with its calls hoisted (itself too, if it is one)."""
        rewrite(node, self)
        return self(node)


def _changed(proc: Proc) -> set[str]:
    """The names the procedure's statements may change: what they assign, and the
    variables they pass by reference."""
    names: set[str] = set()
    for line in proc.body:
        for stmt in line.statements:
            for node in stmt.walk():
                if isinstance(node, (ast.CallSub, ast.Call)):
                    names |= {a.name for a in node.args if isinstance(a, (ast.Var, ast.Index))}
                for target in _targets(node):
                    names.add(target.name)
    return names


def _changed_exactly(procs: dict[str, Proc], values) -> dict[str, set[str]]:
    """The parameters each procedure may change: those its statements assign, and those
    it passes by reference to a parameter the procedure called may change (a fixed
    point: Hanoi passing its strings on to itself changes none of them)."""
    changed: dict[str, set[str]] = {}
    passed: dict[str, list[tuple[str, int, str]]] = {}  # (callee, index, parameter)
    for name, proc in procs.items():
        params = set(proc.params)
        changed[name] = set()
        passed[name] = []
        for line in proc.body:
            for stmt in line.statements:
                for node in stmt.walk():
                    changed[name] |= {t.name for t in _targets(node)} & params
                    if isinstance(node, ast.Field):  # (a GET assigns them)
                        changed[name] |= set(node.names) & params
                    if isinstance(node, (ast.CallSub, ast.Call)) and node.name in procs:
                        by_value = (
                            node.by_value
                            if isinstance(node, ast.CallSub)
                            else values.get(id(node), [])
                        )
                        for i, arg in enumerate(node.args):
                            value = by_value[i] if i < len(by_value) else True
                            if isinstance(arg, ast.Var) and arg.name in params and not value:
                                passed[name].append((node.name, i, arg.name))
    growing = True
    while growing:
        growing = False
        for name, calls in passed.items():
            for callee, i, param in calls:
                callee_params = procs[callee].params
                changes = i < len(callee_params) and callee_params[i] in changed[callee]
                if changes and param not in changed[name]:
                    changed[name].add(param)
                    growing = True
    return changed


def _targets(node: ast.Node) -> list:
    """What a statement assigns (statement_facts' stores and updates)."""
    return assigned(node) if isinstance(node, ast.Stmt) else []


def _reads(expr: ast.Expr) -> set[str]:
    return {node.name for node in expr.walk() if isinstance(node, ast.Var)}


def _suffix(name: str) -> str:
    return name[-1] if name[-1] in "$%#&!" else ""


def _zero(name: str, coord) -> ast.Expr:
    if name.endswith("$"):
        return ast.Str("", coord=coord)
    return ast.Num(0.0, "0", coord=coord)


def _num(value: int, coord) -> ast.Num:
    return ast.Num(float(value), str(value), coord=coord)


def _entry(name: str) -> str:
    return f"SUB {name}"


def _exit(name: str) -> str:
    return f"END {name}"
