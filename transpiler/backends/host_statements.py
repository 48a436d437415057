"""What the two host statement printers (cuda/host_stmt.py, cutile/host_stmt.py) share:
the walk over host IR nodes with each statement's origin comment, and the statements
whose only difference between Python and C++ is the syntax table (hostcode/syntax.py).

A subclass sets `syntax` (hostcode.syntax.PYTHON or CPP), `code` (its Code class) and
`origin_comment` (its `# 40 ...` / `// 40 ...` comment of a BASIC statement)."""

from __future__ import annotations

from .. import ast, hostir
from ..model import Analysis, type_of_name
from ..naming import Namer
from .basic_origin import statement_texts


class HostStatements:
    syntax = None
    code = None
    never_past = None
    end_exception = ""  # the statement that ends the program from a subroutine

    def __init__(self, analysis: Analysis, namer: Namer, expr, sub_names: dict):
        self.a = analysis
        self.namer = namer
        self.expr = expr
        self.sub_names = sub_names  # hostir subroutine name -> the target's function name
        self.texts = statement_texts(analysis)
        self.commented: set[int] = set()  # statements whose comment was printed
        self.index_of = {id(s): i for i, s in enumerate(analysis.stmts)}
        self.in_sub = False
        self.uses_end_exception = False
        self.uses_for_stack = False
        self._for_names: dict[tuple, str] = {}
        self.kernels = None  # the launch printer, set by the module printer

    @staticmethod
    def origin_comment(label, text: str) -> str:
        raise NotImplementedError

    def runtime(self, name: str) -> str:
        """A function of the target's runtime, by its name there."""
        raise NotImplementedError

    @staticmethod
    def string(text: str) -> str:
        """A string literal."""
        raise NotImplementedError

    def nodes(self, nodes: list[hostir.HNode]) -> list:
        out: list = []
        for node in nodes:
            out.extend(self.comment(node))
            out.extend(getattr(self, "n_" + type(node).__name__)(node))
        return out

    def comment(self, node: hostir.HNode) -> list:
        """The comment of the statement `node` comes from, unless printed already."""
        stmt = node.origin
        if stmt is None or id(stmt) in self.commented or id(stmt) not in self.texts:
            return []
        self.commented.add(id(stmt))
        return [self.code(self.origin_comment(stmt.label, self.texts[id(stmt)]))]

    def comment_of(self, stmt: ast.Stmt | None) -> list:
        """The comment of a statement, even if it was printed before."""
        if stmt is None or id(stmt) not in self.texts:
            return []
        return [self.code(self.origin_comment(stmt.label, self.texts[id(stmt)]))]

    def var(self, name: str) -> str:
        return self.namer.name(name)

    def target_type(self, target: ast.LValue) -> str:
        if isinstance(target, ast.Index):
            return self.a.arrays[target.name].elem_type
        return type_of_name(target.name)

    def _past(self, var: str, limit: str, sign, step_const):
        """The loop ends when (v - limit) * SGN(step) > 0 (ECMA-55 11.4); a zero step
        never ends it (`never_past`: C++'s `false`, None in Python, which drops the test)."""
        if step_const is None:
            return f"({var} - {limit}) * {sign} > 0.0"
        if step_const > 0:
            return f"{var} > {limit}"
        if step_const < 0:
            return f"{var} < {limit}"
        return self.never_past

    def _lowered_loop(self, node: hostir.ForNext):
        """The limit, step and sign of a FOR lowered into a dispatch loop (constants, or
        the names of the locals holding them) and the constant step (None if not)."""
        stmt, for_index = node.stmt, node.for_index
        limit_const, step_const = node.plan.limit, node.plan.step
        if limit_const is not None:
            limit = self.number_text(limit_const)
        else:
            limit = self._for_name(stmt, "limit", for_index, True)
        if step_const is not None:
            return limit, self.number_text(step_const), None, step_const
        step = self._for_name(stmt, "step", for_index, True)
        return limit, step, self._for_name(stmt, "sign", for_index, True), None

    def simple(self, text: str) -> list:
        """One simple statement (C++ ends it with `;`)."""
        return [self.code(text + self.syntax.end)]

    def at_line(self, node: hostir.HNode, fails: bool) -> list:
        """What a statement that can fail or warn needs first: C++ sets the BASIC line
        its message names; Python finds it from the traceback (nothing)."""
        return []

    def arg(self, e: ast.Expr) -> str:
        """The value of an argument that needs no lines before it."""
        raise NotImplementedError

    def file_number(self, e: ast.Expr) -> str:
        """A file number argument (an integer)."""
        raise NotImplementedError

    def run(self, node: hostir.HNode, fails: bool, function: str, *args: str) -> list:
        """A statement that is one call of the runtime's `function`; `fails`: the call
        can end the program with an error or warn."""
        call = f"{self.runtime(function)}({', '.join(args)})"
        return self.at_line(node, fails) + self.simple(call)

    # ----------------------------------------------------------------- BASIC statements
    # (those whose only difference between the targets is the syntax table)

    def s_Rem(self, node, stmt: ast.Stmt) -> list:
        return []  # its comment is all there is

    s_NoEffect = s_Data = s_DefFn = s_OptionBase = s_DefType = s_Rem

    def s_OnError(self, node, stmt: ast.OnError) -> list:
        return []  # ON ERROR GOTO 0 in a program that never traps: nothing to turn off

    def s_Open(self, node, stmt: ast.Open) -> list:
        args = [self.arg(stmt.name), self.arg(stmt.mode), self.file_number(stmt.number)]
        if stmt.length is not None:
            args.append(self.arg(stmt.length))
        return self.run(node, True, "open_file", *args)

    def s_RecordIO(self, node, stmt: ast.RecordIO) -> list:
        args = [self.file_number(stmt.channel)]
        if stmt.record is not None:
            args.append(self.arg(stmt.record))
        return self.run(node, True, "put_record" if stmt.put else "get_record", *args)

    def s_FieldSwap(self, node, stmt: ast.FieldSwap) -> list:
        names = self.string(stmt.first), self.string(stmt.second)
        return self.run(node, False, "field_swap", *names)

    def s_Close(self, node, stmt: ast.Close) -> list:
        numbers = [self.file_number(n) for n in stmt.numbers]
        return self.run(node, bool(numbers), "close_files", *numbers)

    def s_FileWidth(self, node, stmt: ast.FileWidth) -> list:
        number = self.file_number(stmt.channel)
        return self.run(node, True, "file_width", number, self.arg(stmt.width))

    def s_RaiseError(self, node, stmt: ast.RaiseError) -> list:
        return self.run(node, True, "raise_error", self.arg(stmt.code))

    def s_Kill(self, node, stmt: ast.Kill) -> list:
        return self.run(node, True, "kill_file", self.arg(stmt.name))

    def s_Rename(self, node, stmt: ast.Rename) -> list:
        return self.run(node, True, "rename_file", self.arg(stmt.old), self.arg(stmt.new))

    def s_Trace(self, node, stmt: ast.Trace) -> list:
        return self.simple(f"con.trace({self.syntax.true if stmt.on else self.syntax.false})")

    def s_TraceLine(self, node, stmt: ast.TraceLine) -> list:
        return self.simple(f"con.trace_line({stmt.number})")

    def s_ChangeToCodes(self, node, stmt: ast.ChangeToCodes) -> list:
        array = self.expr.array(stmt.array.name)
        return self.run(node, True, "change_to_codes", array, self.arg(stmt.text))

    def s_Restore(self, node, stmt: ast.Restore) -> list:
        position = self.a.restore_position.get(self.index_of[id(stmt)], 0)
        return self.simple(f"data.restore({position})" if position else "data.restore()")

    # ----------------------------------------------------------------- host IR nodes

    def n_EndProgram(self, node: hostir.EndProgram) -> list:
        lines = []
        if node.stop_line is not None:  # Microsoft BASIC's STOP
            report = f"{self.runtime('report_break')}(con, {self.string(node.stop_line)})"
            lines += self.simple(report)
        if self.in_sub:  # a function of its own: the end goes up as an exception
            self.uses_end_exception = True
            return lines + self.simple(self.end_exception)
        return lines + self.simple("return")

    def n_Mark(self, node: hostir.Mark) -> list:
        return []  # its comment is all there is

    def n_Call(self, node: hostir.Call) -> list:
        return self.simple(f"{self.sub_names[node.subroutine]}()")

    def n_Break(self, node: hostir.Break) -> list:
        return self.simple("break")

    def n_Return(self, node: hostir.Return) -> list:
        return self.simple("return")

    def n_Jump(self, node: hostir.Jump) -> list:
        return self._goto(node.target)

    def label_text(self, label: str) -> str:
        """A dispatch label as a value: `'200'` in Python, the enumerator `L200` in C++."""
        raise NotImplementedError

    def as_label(self, text: str) -> str:
        """A label the error trap returns (an int in C++) as the dispatch label's type."""
        raise NotImplementedError

    def n_ResumeJump(self, node: hostir.ResumeJump) -> list:
        resume = _RESUMES.get(node.mode) or f"resume_at({self.label_text(node.target)})"
        jump = f"{self.label_var} = {self.as_label(f'{self.trap_var}.{resume}')}"
        return self.simple(jump) + self.simple("continue")

    def n_Launch(self, node: hostir.Launch) -> list:
        return self.kernels.launch(node, self)

    def n_Distributed(self, node: hostir.Distributed) -> list:
        return self.kernels.distributed(node, self)


# RESUME, RESUME NEXT, and RESUME to a missing line (passes/jumps.py): the error trap's
# methods (runtime/trap.py, b2t::ErrorTrap).
_RESUMES = {"retry": "resume()", "next": "resume_next()", "undefined": "resume_undefined()"}
