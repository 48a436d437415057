"""Running a compiled program: the names it uses, the dispatcher, GOSUB, and locating
run-time errors and warnings in the BASIC source.

The generated code (codegen.py) calls the shared runtime for everything ECMA-55 defines
(arithmetic exceptions, functions, PRINT, INPUT, DATA, RND); this module binds those
names for one run and adds what only the interpreter needs.  Errors and warnings carry
no location when they are raised; they are located afterwards from the Python line of the
generated code (a traceback for errors, the calling frame for warnings), which costs
nothing while the program runs.
"""

from __future__ import annotations

import math
import sys
from typing import TextIO

from .. import runtime
from ..collector import collector_paused
from ..errors import BasicRuntimeError, BasicWarning, Coord, InternalError
from ..ir import ast
from ..ir.model import Analysis
from ..ir.statement_facts import STATEMENT_FACTS
from ..language.builtins import BUILTINS
from ..runtime import (
    NUMBER,
    RANDOMIZE,
    STRING,
    BasicFault,
    Console,
    DataPool,
    ForStack,
    Notice,
    add,
    check_string,
    close_files,
    concat,
    div,
    field,
    field_release,
    field_swap,
    file_input,
    file_line,
    file_output,
    file_width,
    get_record,
    mid_assign,
    mid_assign_itself,
    mul,
    on_choice,
    open_file,
    power,
    put_record,
    raise_error,
    report_break,
    report_error,
    report_load_overflows,
    reset_files,
    reset_rnd,
    round_to_int,
    set_warning_hook,
    start_trap,
    sub,
)
from ..runtime import using as print_using
from ..runtime._interp_extras import MOD, to_integer
from ..runtime.stringfns import check_length
from . import mat
from .arrays import BasicArray
from .codegen import END, PAST_END, RETURN, CompiledSource
from .expressions import builtin_callee

# The runtime functions of the built-ins, by the names compiled code calls them.
_BUILTIN_FUNCTIONS = {
    builtin_callee(b): getattr(runtime, b.python)
    for b in BUILTINS.values()
    if b.syntax in ("call", "internal") and b.python and builtin_callee(b) != b.python
}
# The runtime functions of the statements that are one call (KILL, NAME, MKDIR...).
_RUNTIME_STATEMENTS = {
    "_" + facts.runtime: getattr(runtime, facts.runtime)
    for facts in STATEMENT_FACTS.values()
    if facts.runtime
}
RETURN_WITHOUT_GOSUB = "RETURN without GOSUB"
GOSUB_TOO_DEEP = "GOSUB nested too deeply"
ON_OUT_OF_RANGE = "ON index out of range"
STEP_LIMIT = "step limit exceeded"
# bas55 allows 256 nested GOSUBs; extended programs may recurse deeper.
STRICT_GOSUB_DEPTH = 256
EXTENDED_GOSUB_DEPTH = 10000


_NO_SHADOW = -(2**62)  # stays far below any array bound however long a loop runs


def shadow(x: float) -> int:
    """The exact integer shadow of a FOR variable's start value (codegen.py), or a
    value that fails every subscript check when there is none."""
    if x.is_integer() and -(2.0**52) < x < 2.0**52:
        return int(x)
    return _NO_SHADOW


def _microsoft_names(console: Console) -> dict:
    """The runtime's Microsoft arithmetic (runtime/msnumbers.py), by the names
    interpreter/microsoft.py compiles to."""
    return {
        "_sng": runtime.sng,
        "_dbl": runtime.dbl,
        "_cint": runtime.cint,
        "_sdiv": runtime.single_div,
        "_ddiv": runtime.double_div,
        "_spow": runtime.single_power,
        "_spowi": runtime.single_power_int,
        "_dpow": runtime.double_power,
        "_sfn": runtime.single_result,
        "_idiv": runtime.int_div,
        "_imod": runtime.int_mod,
        "_band": runtime.bit_and,
        "_bor": runtime.bit_or,
        "_bxor": runtime.bit_xor,
        "_beqv": runtime.bit_eqv,
        "_bimp": runtime.bit_imp,
        "_bnot": runtime.bit_not,
        "_clng": runtime.clng,
        "_iresult": runtime.int_result,
        "_lresult": runtime.long_result,
        "_ldiv": runtime.long_div,
        "_lmod": runtime.long_mod,
        "_land": runtime.long_and,
        "_lor": runtime.long_or,
        "_lxor": runtime.long_xor,
        "_leqv": runtime.long_eqv,
        "_limp": runtime.long_imp,
        "_lnot": runtime.long_not,
        "_write_double": console.write_double,
        "_Double": runtime.Double,
        "_ask_seed": console.ask_seed,
    }


class _Halt(Exception):
    """END or STOP inside a subroutine: unwinds every GOSUB."""


class Machine:
    def __init__(
        self,
        analysis: Analysis,
        compiled: CompiledSource,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
    ):
        self.analysis = analysis
        self.compiled = compiled
        self.stdout = stdout
        self.stderr = stderr
        strict = analysis.options.strict
        self.precision = getattr(print_using, analysis.using_precision)
        self.console = Console(stdout, stdin, strict, self.precision)
        microsoft = analysis.options.microsoft
        self.pool = DataPool(
            [(d.text, d.quoted) for d in analysis.data],
            strict,
            microsoft,
            lines=analysis.data_line_start if microsoft else None,
        )
        self.arrays = {name: self._make_array(symbol) for name, symbol in analysis.arrays.items()}
        self.filename = f"<basic {analysis.source.name}>"
        self.depth = 0
        strict = analysis.options.strict
        self.max_depth = STRICT_GOSUB_DEPTH if strict else EXTENDED_GOSUB_DEPTH
        self.blocks: dict = {}
        self.trap = start_trap()
        # A program that traps errors: each statement is a block (regions.py); where
        # RESUME NEXT goes on after each one, and its line for ERL.
        self.traps = analysis.traps_errors
        if self.traps:
            n = len(analysis.stmts)
            self.after = [analysis.statement_after(i) for i in range(n)]
            self.after = [i if i < n else PAST_END for i in self.after]
            self.lines = [s.label or 0 for s in analysis.stmts]

    @staticmethod
    def _make_array(symbol) -> BasicArray:
        fill = "" if symbol.elem_type == "str" else 0.0
        array = BasicArray(symbol.name, symbol.base, symbol.rank, fill)
        if symbol.upper is not None:  # else its DIM allocates it when it runs
            array.allocate(symbol.upper)
        return array

    # ----------------------------------------------------------------- the program's names

    def namespace(self) -> dict:
        console, pool, analysis = self.console, self.pool, self.analysis
        # A number read (READ, INPUT) is rounded to a float32 here, except in Microsoft
        # BASIC, where storing converts it to its variable's type (a `#` or `&` variable
        # keeps its digits, as the generated programs keep them).
        f32 = analysis.number_type == "f32" and not analysis.options.microsoft
        strict = analysis.options.strict
        for_stack = ForStack()
        machine = self

        def gosub(target: int) -> None:
            if machine.depth >= machine.max_depth:
                raise BasicFault(GOSUB_TOO_DEEP, f"({machine.max_depth} levels)")
            machine.depth += 1
            try:
                pc = machine.run_blocks(target)
            finally:
                machine.depth -= 1
            if pc in (END, PAST_END):
                raise _Halt

        def do_return() -> int:
            if machine.depth == 0:
                raise BasicFault(RETURN_WITHOUT_GOSUB)
            return RETURN

        def on(value: float, targets: tuple[int, ...]) -> int | None:
            """The target of ON ... GOTO; None: go on with the next statement."""
            if not strict:
                choice = on_choice(value, len(targets))
                return targets[choice - 1] if choice else None
            i = round_to_int(value)
            if 1 <= i <= len(targets):
                return targets[i - 1]
            raise BasicFault(ON_OUT_OF_RANGE, f"({i}; 1 to {len(targets)} allowed)")

        def fail(message: str, line: int | None = None) -> None:
            """A Fault statement, a FOR/NEXT without partner (`line`: the NEXT GW-BASIC
            names)."""
            raise BasicFault(message, line=line)

        def step_limit() -> None:
            raise BasicFault(STEP_LIMIT, f"({analysis.options.max_steps} statements)")

        def read_number() -> float:
            value = pool.read_number()
            return mat.to_f32(value) if f32 else value

        def input_reply(prompt, kinds, question=True, stay=False):
            values = console.input(prompt, kinds, question, stay)
            if f32:
                values = [mat.to_f32(v) if k == NUMBER else v for v, k in zip(values, kinds)]
            return values

        def file_input_numbers(number, kinds):
            values = file_input(number, kinds)
            if f32:
                values = [mat.to_f32(v) if k == NUMBER else v for v, k in zip(values, kinds)]
            return values

        names = {
            "__builtins__": __builtins__,
            "_INF": math.inf,
            "_add": add,
            "_sub": sub,
            "_mul": mul,
            "_div": div,
            "_power": power,
            "_MOD": MOD,
            **_BUILTIN_FUNCTIONS,
            "_RANDOMIZE": RANDOMIZE,
            "_toint": to_integer,
            "_f32": mat.to_f32,
            "_chkstr": check_string,
            "_write_string": console.write_string,
            "_write_number": console.write_number,
            "_zone": console.next_zone,
            "_tab": console.tab,
            "_spc": console.spc,
            "_newline": console.newline,
            "_input": input_reply,
            "_console": console,
            "_open_file": open_file,
            "_close_files": close_files,
            "_file_output": file_output,
            "_file_input": file_input_numbers,
            "_file_line": file_line,
            "_field": field,
            "_get_record": get_record,
            "_put_record": put_record,
            "_field_release": field_release,
            "_field_swap": field_swap,
            "_file_width": file_width,
            "_line_input": console.line_input,
            "_mid_assign": mid_assign,
            "_mid_assign_itself": mid_assign_itself,
            "_concat": concat,
            "_check_length": check_length,
            "_NUMBER": NUMBER,
            "_STRING": STRING,
            "_read_number": read_number,
            "_read_string": pool.read_string,
            "_restore": pool.restore,
            "_gosub": gosub,
            "_return": do_return,
            "_trap": self.trap,
            "_raise_error": raise_error,
            "_on": on,
            "_for_enter": for_stack.enter,
            "_for_find": for_stack.find,
            "_for_leave": for_stack.leave,
            "_loop_fault": fail,
            "_report_break": lambda line: report_break(console, line),
            "_index": BasicArray.flat_index,
            "_shadow": shadow,
            "_step_limit": step_limit,
            "_fail": fail,
            "_arrays": self.arrays,
            "_mat_read": lambda a, f: mat.mat_read(a, pool, f),
            "_mat_input": lambda a, f: mat.mat_input(a, console, f),
            "_mat_print": lambda arrays, seps: mat.mat_print(arrays, seps, console),
            "_mat_fill": mat.mat_fill,
            "_mat_copy": mat.mat_copy,
            "_change_to_codes": mat.change_to_codes,
            "_change_to_string": mat.change_to_string,
            "_mat_scale": mat.mat_scale,
            "_mat_binary": mat.mat_binary,
            "_mat_function": mat.mat_function,
            **_RUNTIME_STATEMENTS,
        }
        if analysis.options.microsoft:
            names.update(_microsoft_names(console))
        return names

    # ----------------------------------------------------------------- running

    def run(self) -> int:
        self._load()
        reset_rnd()
        reset_files(self.precision)
        if self.analysis.options.microsoft:
            report_load_overflows(self.console, len(self.analysis.load_overflows))
        previous_hook = set_warning_hook(self.on_notice)
        previous_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous_limit, 4 * self.max_depth + 1000))
        try:
            self._dispatch()
        except BasicFault as fault:
            self.console.finish()
            coord, notes = self.locate_traceback(fault.__traceback__)
            self.show_error(fault, coord)
            raise BasicRuntimeError(fault.message, coord, notes=notes) from None
        except RecursionError as exc:
            self.console.finish()
            coord, notes = self.locate_traceback(exc.__traceback__)
            self.show_error(BasicFault(GOSUB_TOO_DEEP), coord)
            raise BasicRuntimeError(GOSUB_TOO_DEEP, coord, notes=notes) from None
        except (InternalError, BasicRuntimeError, OSError):
            raise  # located already, or the streams failed (a closed pipe, a full disk)
        except Exception as exc:  # a bug in basic2tile: say where the program was
            self.console.finish()
            coord, _ = self.locate_traceback(exc.__traceback__)
            raise InternalError(f"{type(exc).__name__}: {exc}", coord) from exc
        finally:
            set_warning_hook(previous_hook)
            sys.setrecursionlimit(previous_limit)
            close_files()
        self.console.finish()
        return 0

    @collector_paused()  # compiling, not running (see collector.py)
    def _load(self) -> None:
        """Compile the generated source and make its block functions."""
        namespace = self.namespace()
        code = compile(self.compiled.text, self.filename, "exec")
        exec(code, namespace)  # noqa: S102 - our own generated code, the point of the design
        self.blocks.update(namespace["_program"]())

    def _dispatch(self) -> None:
        pc = 0 if self.analysis.stmts else END  # an empty program has no block 0
        try:
            self.run_blocks(pc)
        except _Halt:
            pass

    def run_blocks(self, pc: int) -> int:
        """Run blocks from `pc` until one returns RETURN or ends the program."""
        blocks = self.blocks
        if not self.traps:
            while pc >= 0:
                pc = blocks[pc]()
            return pc
        last = pc
        while pc >= 0:
            try:
                while pc >= 0:
                    last = pc
                    pc = blocks[pc]()
            except BasicFault as fault:  # each block is one statement: `last` failed
                pc = self.trap.catch(fault, last, self.after[last], self.lines[last])
        if pc == PAST_END:
            self._finish_trap(last)
        return pc

    def _finish_trap(self, last: int) -> None:
        """Running past the last line inside a handler is GW-BASIC's "No RESUME", at the
        statement that ran last."""
        try:
            self.trap.finish()
        except BasicFault as fault:
            self.console.finish()
            coord = self.analysis.stmts[last].coord
            self.show_error(fault, coord)
            raise BasicRuntimeError(fault.message, coord) from None

    def show_error(self, fault: BasicFault, coord: Coord) -> None:
        """Microsoft BASIC shows an error that ends the program on the screen, the
        program's output ("Out of DATA in 20")."""
        if not self.analysis.options.microsoft:
            return
        report_error(self.console, fault, self.analysis.line_number(coord))
        self.console.finish()

    # ----------------------------------------------------------------- locations

    def statement_at(self, line: int) -> ast.Stmt | None:
        table = self.compiled.line_stmt
        index = table[line] if 0 <= line < len(table) else -1
        return self.analysis.stmts[index] if index >= 0 else None

    def _coord_of(self, frames: list[tuple[str, int]]) -> tuple[Coord, tuple[str, ...]]:
        """The location for generated frames (function name, line), outermost first:
        the innermost statement frame; a DEF FN body is reported at its caller."""
        notes: list[str] = []
        for name, line in reversed(frames):
            stmt = self.statement_at(line)
            if name.startswith("fn_"):
                if stmt is not None:
                    notes.append(f"in the function {stmt.name} defined at {stmt.coord}")
                continue
            if stmt is not None:
                return stmt.coord, tuple(notes)
        return Coord(self.analysis.source.name, 0, 0), tuple(notes)

    def locate_traceback(self, tb) -> tuple[Coord, tuple[str, ...]]:
        frames = []
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                frames.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
            tb = tb.tb_next
        return self._coord_of(frames)

    def locate_caller(self) -> tuple[Coord, tuple[str, ...]]:
        frames = []
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.filename:
                frames.append((frame.f_code.co_name, frame.f_lineno))
            frame = frame.f_back
        frames.reverse()
        return self._coord_of(frames)

    def on_notice(self, notice: Notice) -> None:
        """Warnings (and rejected INPUT replies) go to stderr with their location."""
        coord, notes = self.locate_caller()
        self.stdout.flush()
        warning = BasicWarning(notice.message, coord, notes=notes)
        warning.severity = notice.severity
        self.stderr.write(warning.render(self.analysis.source) + "\n")
        self.stderr.flush()
