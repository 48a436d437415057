"""Pass 9: the type of every expression, and the checks that follow from it.

Types are "num", "int" and "str" (see `transpiler.ir.model`).  Strings and numbers never
mix: assignments, comparisons and arguments must agree (ECMA-55 7, 9, 10, 16).
- Arithmetic needs numbers; in extended mode `+` also joins two strings.  The result
  is "int" when both operands are "int" and the operator is + - * or MOD (the value is
  an integer; consumers may still compute it in floating point), else "num".
- Comparisons give "int" (-1 for true, 0 for false).  Strings compare with = and <>
  only in strict mode (ECMA-55 7.2); extended mode also orders them (code point order).
- AND, OR, NOT take numbers (nonzero is true) and give "int" (-1 or 0).
- Built-in functions take the parameter lists of their entry in `transpiler/language/builtins.py`
  (the functions of the program's language level only); DEF FN calls must match the
  parameters' types.
- A numeric constant too large for the number type is a warning (ECMA-55 5.5: it is
  replaced by the largest representable value, machine infinity for IEEE numbers).
- The `+` and `-` that cannot overflow (`exprutil.sum_may_overflow`) are recorded in
  `plain_sums`: the printers write them as plain operators, every other sum checked.

Microsoft BASIC (--dialect ms) has GW-BASIC's types, "num" being a single and "dbl" a
double (PC-BASIC agrees on each rule):
- a constant has the type its spelling gives (msconstants.py: `5` is an integer, `1.5`
  a single, `12345678` and `1D3` doubles); a single constant takes GW-BASIC's bits
  (msformat.single_constant);
- + - * / give a double if an operand is one, else a single (integers too: 32767 + 1 is
  32768); ^ gives a single; \\ and MOD an integer; comparisons, AND, OR, XOR, EQV, IMP
  and NOT an integer (bitwise on 16 bits); unary minus of an integer a single;
- functions give singles (GW-BASIC computes SQR, LOG... in single precision even for a
  double), except CINT and SGN (integers), CDBL (a double), INT and FIX (their
  argument's type), and VAL: the type its text has as a constant, for a constant text
  (`VAL("1.2D23")` is a double), a double where it is stored whole into a variable (the
  store converts), else a single;
- a type mismatch is reported only when the statement runs: an assignment, PRINT, DIM
  or string statement whose types do not fit compiles, with a warning, into a `Fault`
  statement that stops the program with "Type mismatch" when it runs (a program may
  never reach it); conditions, FOR and ON stay errors.
"""

from __future__ import annotations

import math
import sys

from ...errors import BasicSemanticError, BasicWarning, Coord, Diagnostics
from ...ir import ast
from ...ir.ast import is_user_function
from ...ir.model import Analysis, ValueType, type_of_name
from ...ir.statement_facts import facts_of, typed_operands
from ...language.builtins import legacy_builtin
from ...language.msconstants import constant_type
from ...language.semantics import BITWISE
from ...runtime.msformat import single_constant
from ...runtime.msnumbers import (
    DOUBLE_MAX,
    IEEE_SINGLE_MAX,
    OVERFLOW,
    SINGLE_MAX,
    SMALLEST,
    float32,
)
from ...runtime.stringfns import val_is_double
from ..exprutil import sum_may_overflow
from .run_time_faults import TYPE_MISMATCH, fault_in_place

ARITHMETIC = frozenset({"+", "-", "*", "/", "^", "MOD", "\\"})
INTEGER_PRESERVING = frozenset({"+", "-", "*", "MOD"})
COMPARISONS = frozenset({"=", "<>", "<", ">", "<=", ">="})
LOGICAL = frozenset({"AND", "OR"})


MICROSOFT_BITWISE = frozenset(BITWISE)
_TYPE_WORDS = {
    "num": "a number",
    "int": "an integer",
    "dbl": "a double",
    "str": "a string",
    "lng": "a LONG",
}


def is_numeric(t: ValueType | None) -> bool:
    return t in ("num", "int", "dbl", "lng")


def wider(left: ValueType, right: ValueType) -> ValueType:
    """Microsoft BASIC's type of + - * / of two numbers: double if either is one, else
    single (integers are added as singles: 32767 + 1 is 32768)."""
    return "dbl" if "dbl" in (left, right) else "num"


def quickbasic_wider(left: ValueType, right: ValueType) -> ValueType:
    """QuickBASIC's type of + - * of two numbers: the more precise of INTEGER, LONG,
    SINGLE, DOUBLE (QuickBASIC 4.5's reference, "Type conversion": the operands take the
    precision of the most precise one); an INTEGER or LONG result that leaves its range
    is "Overflow" (runtime msnumbers.int_result, long_result)."""
    for t in ("dbl", "num", "lng"):
        if t in (left, right):
            return t
    return "int"


def quickbasic_double_function(builtin, types: list) -> bool:
    """Whether QuickBASIC computes this call of a function that GW-BASIC computes in
    single precision (SQR, LOG, EXP, SIN, COS, TAN, ATN) in double precision: when its
    argument is a double (QuickBASIC 4.5 / BASIC PDS 7 reference, ATN: "calculated in
    single precision if numeric-expression is an integer or single-precision value ...
    in double-precision" otherwise; the same for the others)."""
    return builtin.single_precision and bool(types) and types[0] == "dbl"


def _microsoft_result(result: str, argument: ValueType | None) -> ValueType:
    """The type of a function's result in Microsoft BASIC (builtins.MicrosoftResult)."""
    if result == "same" and argument is not None:
        return argument
    if result == "float":  # (ABS of a LONG is a LONG: QuickBASIC's ABS keeps the type)
        return argument if argument in ("dbl", "lng") else "num"
    return {"int": "int", "double": "dbl", "long": "lng"}.get(result, "num")


def _is_val(e: ast.Expr) -> bool:
    return isinstance(e, ast.Call) and e.name == "VAL"


class _TypeChecker:
    def __init__(self, analysis: Analysis, diags: Diagnostics) -> None:
        self.a = analysis
        self.diags = diags
        self.types = analysis.expr_types
        self.strict = analysis.options.strict
        self.microsoft = analysis.options.microsoft
        self.qbasic = analysis.options.qbasic
        self.params: dict[str, ValueType] = {}
        # Type mismatches of the statement being checked, when they wait for run time.
        self.mismatches: list[BasicSemanticError] | None = None

    def error(self, message: str, coord: Coord) -> None:
        self.diags.error(BasicSemanticError(message, coord))

    def mismatch(self, message: str, coord: Coord) -> None:
        """A value of the wrong type: an error now, or a Fault at run time (`run`)."""
        if self.mismatches is None:
            self.error(message, coord)
        else:
            self.mismatches.append(BasicSemanticError(message, coord))

    # ----------------------------------------------------------------- expressions

    def expr(self, e: ast.Expr) -> ValueType | None:
        """The type of `e` (None after an error already reported inside it)."""
        t = self._expr(e)
        if t is not None:
            self.types[e] = t
        return t

    def _expr(self, e: ast.Expr) -> ValueType | None:
        if isinstance(e, ast.Num):
            if self.microsoft:
                return self.microsoft_constant(e)
            if math.isinf(e.value):
                self.a.warnings.append(BasicWarning("numeric constant overflow", e.coord))
            return "num"
        if isinstance(e, ast.Str):
            return "str"
        if isinstance(e, ast.Var):
            return self.params.get(e.name) or type_of_name(e.name)
        if isinstance(e, ast.Index):
            for index in e.indices:
                self.expect_number(index)
            symbol = self.a.arrays.get(e.name)
            return symbol.elem_type if symbol is not None else type_of_name(e.name)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Bid):
            return "int"
        if isinstance(e, ast.Bound):  # UBOUND (passes/quickbasic/records.py: LBOUND is a constant)
            symbol = self.a.arrays.get(e.name)
            if symbol is None:
                self.error(f"UBOUND({e.name}): the program has no array {e.name}", e.coord)
            elif e.dim > symbol.rank:
                self.error(
                    f"UBOUND({e.name}, {e.dim}): {e.name} has {symbol.rank} dimension(s)", e.coord
                )
            return "int"
        if isinstance(e, ast.UnaryOp):
            t = self.expect_number(e.operand)
            if t is None:
                return None
            if e.op == "NOT":
                return self.bitwise_type(t, t)
            if self.qbasic:
                return t  # -(-32768) is "Overflow" in QuickBASIC
            if self.microsoft and e.op == "-" and t == "int":
                return "num"  # GW-BASIC negates an integer as a single (-(-32768))
            return t
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        raise TypeError(f"unexpected expression {type(e).__name__}")

    def binop(self, e: ast.BinOp) -> ValueType | None:
        if e.op in COMPARISONS:
            left = self.expr(e.left)
            if left is None:
                self.expr(e.right)
                return None
            if left == "str":
                if self.expect_string(e.right) is None:
                    return None
                if self.strict and e.op not in ("=", "<>"):
                    self.error("strings can only be compared with = and <>", e.coord)
                    return None
            elif self.expect_number(e.right) is None:
                return None
            return "int"
        if e.op == "+" and not self.strict:
            left = self.expr(e.left)
            if left == "str":
                return "str" if self.expect_string(e.right) is not None else None
            if left is not None and not is_numeric(left):
                return None
            right = self.expect_number(e.right)
            if left is None or right is None:
                return None
            if self.qbasic:
                return quickbasic_wider(left, right)
            if self.microsoft:
                return wider(left, right)
            return "int" if left == right == "int" else "num"
        if e.op in ARITHMETIC or e.op in LOGICAL or e.op in MICROSOFT_BITWISE:
            left = self.expect_number(e.left)
            right = self.expect_number(e.right)
            if left is None or right is None:
                return None
            if e.op in LOGICAL or e.op in MICROSOFT_BITWISE:
                return self.bitwise_type(left, right)
            if self.qbasic:
                return self.quickbasic_arithmetic(e.op, left, right)
            if self.microsoft:
                return self.microsoft_arithmetic(e.op, left, right)
            if e.op in INTEGER_PRESERVING and left == right == "int":
                return "int"
            return "num"
        raise TypeError(f"unexpected operator {e.op}")

    # ----------------------------------------------------------------- Microsoft BASIC

    def bitwise_type(self, left: ValueType, right: ValueType) -> ValueType:
        """AND, OR... and NOT: on INTEGERs, in QuickBASIC on LONGs unless both operands
        are INTEGERs (a single operand is rounded to a LONG)."""
        if self.qbasic and not left == right == "int":
            return "lng"
        return "int"

    @staticmethod
    def quickbasic_arithmetic(op: str, left: ValueType, right: ValueType) -> ValueType:
        """QuickBASIC's types: \\ and MOD give an INTEGER of INTEGERs, else a LONG (the
        operands rounded to LONGs); / and ^ a single, or a double of a double (an INTEGER
        or LONG divided is a single, as is an INTEGER raised to a power); + - *
        `quickbasic_wider`."""
        if op in ("\\", "MOD"):
            return "int" if left == right == "int" else "lng"
        if op in ("/", "^"):
            return "dbl" if "dbl" in (left, right) else "num"
        return quickbasic_wider(left, right)

    def microsoft_constant(self, e: ast.Num) -> ValueType:
        """A constant's type by its spelling (msconstants.py); a single takes the float32
        GW-BASIC makes of its digits (with --precision f32, the default); beyond
        GW-BASIC's range it is the largest single (or double), with the warning GW-BASIC
        gives when it reads the line, and below it 0."""
        t = constant_type(e.text, qbasic=self.qbasic)
        single = t == "num" and self.a.number_type == "f32"
        if single and self.qbasic:
            # QuickBASIC's IEEE single nearest to the digits, in IEEE's range.
            e.value = float32(e.value) if abs(e.value) <= IEEE_SINGLE_MAX else e.value
            return self.ieee_constant(e, t, IEEE_SINGLE_MAX)
        if t == "dbl" and self.qbasic:
            return self.ieee_constant(e, t, sys.float_info.max)
        if single or t == "dbl":
            # A single takes GW-BASIC's own bits for its decimal digits.
            value = single_constant(e.text) if single else e.value
            largest = SINGLE_MAX if single else DOUBLE_MAX
            if abs(value) > largest:
                self.a.warnings.append(BasicWarning(OVERFLOW, e.coord))
                if e.coord not in self.a.load_overflows:
                    self.a.load_overflows.append(e.coord)
                value = math.copysign(largest, value)
            elif abs(value) < SMALLEST:
                value = 0.0  # below GW-BASIC's range, silently
            e.value = value
        return t

    def ieee_constant(self, e: ast.Num, t: ValueType, largest: float) -> ValueType:
        """A QuickBASIC constant beyond IEEE's range: "Overflow" where it is read, as
        GW-BASIC's (QuickBASIC's editor refuses the line)."""
        if not abs(e.value) <= largest:
            self.a.warnings.append(BasicWarning(OVERFLOW, e.coord))
            if e.coord not in self.a.load_overflows:
                self.a.load_overflows.append(e.coord)
            e.value = math.copysign(largest, e.value)
        return t

    @staticmethod
    def val_type(e: ast.Call) -> ValueType:
        """VAL's type: that of its text as a constant, for a constant text (`VAL("1D3")`
        is a double); a single otherwise, as the text is known only when the program
        runs (a VAL stored whole into a variable is a double instead: `statement`; one
        printed as it is prints with its text's type, which the runtime's VAL carries:
        stringfns.VAL)."""
        text = e.args[0]
        if isinstance(text, ast.Str) and val_is_double(text.value):
            return "dbl"
        return "num"

    @staticmethod
    def microsoft_arithmetic(op: str, left: ValueType, right: ValueType) -> ValueType:
        if op in ("\\", "MOD"):
            return "int"
        if op == "^":
            return "num"  # GW-BASIC raises to a power in single precision
        return wider(left, right)

    def call(self, e: ast.Call) -> ValueType | None:
        if is_user_function(e.name):
            fn = self.a.functions.get(e.name)
            if fn is None or len(fn.params) != len(e.args):
                for arg in e.args:  # the functions pass reported the call itself
                    self.expr(arg)
                return type_of_name(e.name)
            for arg, want in zip(e.args, fn.param_types):
                self.expect(arg, want)
            return fn.result_type
        builtin = legacy_builtin(e.name, self.strict)
        if builtin is None:
            self.error(f"unknown function {e.name}", e.coord)
            for arg in e.args:
                self.expr(arg)
            return None
        params = builtin.accepts(len(e.args))
        if self.strict and e.name == "RND" and e.args:
            params = None  # ECMA-55's RND has no argument (Microsoft's RND(x) is an extension)
        if params is None:
            arity = "0 arguments" if self.strict and e.name == "RND" else builtin.arity_text()
            self.error(f"function {e.name} takes {arity}, {len(e.args)} given", e.coord)
            for arg in e.args:
                self.expr(arg)
            return None
        types = [self.expect(arg, want) for arg, want in zip(e.args, params)]
        if self.microsoft and e.name == "VAL":
            return self.val_type(e)
        if self.qbasic and quickbasic_double_function(builtin, types):
            return "dbl"
        if self.microsoft and builtin.result == "num":
            return _microsoft_result(builtin.ms_result, types[0] if types else None)
        return builtin.result

    # ----------------------------------------------------------------- expectations

    def expect(self, e: ast.Expr, want: ValueType | str) -> ValueType | None:
        """`e` checked against a parameter type ("any": a number or a string)."""
        if want == "any":
            return self.expr(e)
        return self.expect_string(e) if want == "str" else self.expect_number(e)

    def expect_number(self, e: ast.Expr) -> ValueType | None:
        t = self.expr(e)
        if t == "str":
            self.mismatch("numeric expression expected, not a string", e.coord)
            return None
        return t

    def expect_string(self, e: ast.Expr) -> ValueType | None:
        t = self.expr(e)
        if t is not None and t != "str":
            self.mismatch("string expression expected, not a number", e.coord)
            return None
        return t

    # ----------------------------------------------------------------- statements

    def statement(self, s: ast.Stmt) -> None:
        if isinstance(s, ast.Let):
            target = self.expr(s.target)
            if target is None:
                self.expr(s.value)
            else:
                self.expect(s.value, target)
                if self.microsoft and is_numeric(target) and _is_val(s.value):
                    # Storing converts it: holding a double loses nothing of a double
                    # text, and a single text gives a single's value.
                    self.types[s.value] = "dbl"
        elif isinstance(s, ast.Print):
            self.channel(s.channel)
            if s.using is not None:
                self.expect_string(s.using)
            for item in s.items:
                if isinstance(item, ast.Tab):
                    self.expect_number(item.column)
                elif isinstance(item, ast.Spc):
                    self.expect_number(item.count)
                elif isinstance(item, ast.Expr):
                    self.expr(item)
        elif isinstance(s, ast.Input):
            self.channel(s.channel)
            for target in s.targets:
                if s.line:
                    self.expect_string(target)
                else:
                    self.expr(target)
        elif isinstance(s, ast.LineInput):
            if self.expr(s.target) not in ("str", None):
                self.mismatch("LINE INPUT reads a line into a string variable", s.target.coord)
        elif isinstance(s, ast.Swap):
            first, second = self.expr(s.first), self.expr(s.second)
            if None not in (first, second) and first != second:
                # Microsoft BASIC: "Type mismatch" (a number and an integer too).
                self.mismatch(
                    f"SWAP exchanges values of one type, not {_TYPE_WORDS[first]} and "
                    f"{_TYPE_WORDS[second]}",
                    s.coord,
                )
        elif isinstance(s, ast.Dim):
            for decl in s.arrays:
                for bound in decl.bounds:
                    self.expect_number(bound)
        elif isinstance(s, ast.DefFn):
            fn = self.a.functions.get(s.name)
            self.params = {p: type_of_name(p) for p in s.params}
            self.expect(s.body, fn.result_type if fn else type_of_name(s.name))
            self.params = {}
        elif isinstance(s, (ast.MatRead, ast.MatInput)):
            for decl in s.arrays:
                for bound in decl.bounds:
                    self.expect_number(bound)
        elif isinstance(s, ast.MatAssign):
            self.mat_assign(s)
        else:
            self.operands(s)

    def operands(self, s: ast.Stmt) -> None:
        """The operands statement_facts types, in order."""
        for operand, kind in typed_operands(s):
            if kind == "str":
                self.expect_string(operand)
            elif kind == "num":
                self.expect_number(operand)
            else:
                self.expr(operand)

    def channel(self, number: ast.Expr | None) -> None:
        """The file number of PRINT #, INPUT #, WRITE #."""
        if number is not None:
            self.expect_number(number)

    def mat_assign(self, s: ast.MatAssign) -> None:
        value = s.value
        names = [s.target]
        if isinstance(value, ast.MatFill):
            for dim in value.dims:
                self.expect_number(dim)
        elif isinstance(value, ast.MatScale):
            self.expect_number(value.factor)
            names.append(value.matrix.name)
        elif isinstance(value, ast.MatFunc):
            names.append(value.arg.name)
        elif isinstance(value, ast.MatBin):
            names += [value.left.name, value.right.name]
        elif isinstance(value, ast.MatRef):
            names.append(value.name)
        if isinstance(value, ast.MatRef):
            symbols = [self.a.arrays.get(n) for n in names]
            types = {sym.elem_type == "str" for sym in symbols if sym is not None}
            if len(types) > 1:
                self.error("MAT copies between a string array and a numeric one", s.coord)
            return
        for name in names:
            symbol = self.a.arrays.get(name)
            if symbol is not None and symbol.elem_type == "str":
                self.error(f"MAT arithmetic on the string array {name}", s.coord)


def run(analysis: Analysis, diags: Diagnostics) -> None:
    checker = _TypeChecker(analysis, diags)
    deferring = analysis.options.microsoft
    for index, stmt in enumerate(analysis.stmts):
        if not (deferring and facts_of(stmt).deferred_mismatch):
            checker.statement(stmt)
            continue
        checker.mismatches = []
        checker.statement(stmt)
        found, checker.mismatches = checker.mismatches, None
        if found:
            fault_in_place(analysis, index, TYPE_MISMATCH, found[0].message, found[0].coord)
    types = analysis.expr_types
    analysis.plain_sums = {
        node
        for node in types
        if isinstance(node, ast.BinOp)
        and node.op in ("+", "-")
        and not sum_may_overflow(node, types)
    }
