"""Expressions as tile values, computed as the interpreter computes them: operators,
built-in functions (with the checks that keep their exceptions exact), DEF FN inlined,
and what Microsoft BASIC computes differently kept on the host."""

from __future__ import annotations

import math

from ....ir import ast, hostir
from ....ir import irbuild as B
from ....ir import kernel as ir
from ....ir.kernel import KExpr
from ....language.builtins import BUILTINS
from ....language.semantics import is_truth_value
from ...exprutil import constant_value
from ..dependence import NotParallel
from ..exceptions import constant_number, constant_reports

_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div", "MOD": "rem"}
_COMPARE = {"=": "eq", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
# |x| below this for EXP(x): neither overflow nor underflow to zero.
_EXP_SAFE = {"f64": 700.0, "f32": 80.0}
# From this magnitude on, a number rounds to infinity in float32 (the largest float32
# plus half an ulp).
_F32_OVERFLOW = (2.0 - 2.0**-24) * 2.0**127


class ExpressionLowering:
    """BASIC expressions and conditions as kernel expressions."""

    def value_or_cond(self, e: ast.Expr) -> KExpr:
        """An expression used as a condition: comparisons and logic stay boolean."""
        self.microsoft_check(e)
        if isinstance(e, ast.BinOp) and e.op in ("AND", "OR"):
            op = "and" if e.op == "AND" else "or"
            return B.binary(
                op,
                B.to_bool(self.value_or_cond(e.left)),
                B.to_bool(self.value_or_cond(e.right)),
                self.ndt,
            )
        if isinstance(e, ast.UnaryOp) and e.op == "NOT":
            return B.unary("not", B.to_bool(self.value_or_cond(e.operand)), self.ndt)
        if isinstance(e, ast.BinOp) and e.op in _COMPARE:
            return B.binary(_COMPARE[e.op], self.watched(e.left), self.watched(e.right), self.ndt)
        return self.value(e)

    def microsoft_check(self, e: ast.Expr) -> None:
        """What a kernel cannot compute as Microsoft BASIC does stays on the host: its
        bitwise AND, OR and NOT (of numbers that are not truth values), MOD of integers,
        and doubles in a single-precision kernel."""
        if not self.microsoft:
            return
        if self.analysis.expr_types.get(e) == "dbl" and self.ndt == "f32":
            raise NotParallel("double-precision values stay on the host", e)
        bitwise = isinstance(e, ast.BinOp) and e.op in ("AND", "OR")
        bitwise = bitwise or isinstance(e, ast.UnaryOp) and e.op == "NOT"
        if bitwise and not is_truth_value(e):
            raise NotParallel("Microsoft BASIC's bitwise AND, OR, NOT stay on the host", e)
        if isinstance(e, ast.BinOp) and e.op == "MOD":
            raise NotParallel("Microsoft BASIC's MOD (of integers) stays on the host", e)

    def value(self, e: ast.Expr) -> KExpr:
        self.microsoft_check(e)
        if isinstance(e, ast.Num):
            if not self.constant:
                self.representable(float(e.value), e)
            return B.const(float(e.value), self.ndt)
        if isinstance(e, ast.Var):
            return self.variable(e)
        if isinstance(e, ast.Index):
            return self.array_read(e)
        if isinstance(e, ast.UnaryOp):
            if e.op == "+":
                return self.value(e.operand)
            if e.op == "-":
                return B.unary("neg", self.value(e.operand), self.ndt)
            raise NotParallel("NOT used as a number stays on the host", e)
        if (
            isinstance(e, (ast.BinOp, ast.Call))
            and not self.constant
            and not self.reports(e)
            and constant_reports(e) is not None  # the same value in every iteration
        ):
            self.representable(constant_number(e), e)
            self.constant = True
            try:
                return self.value(e)
            finally:
                self.constant = False
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        raise NotParallel(f"{type(e).__name__} cannot be computed in a kernel", e)

    def representable(self, value: float | None, e: ast.Expr) -> None:
        """A constant meets the kernel's tiles in their element type: one beyond the range
        of float32 (1E300, EXP(100)) is no f32 value (cuTile rejects it; the interpreter
        computes with it in double), so its loop stays on the host."""
        if value is None or self.ndt != "f32" or not math.isfinite(value):
            return
        if abs(value) >= _F32_OVERFLOW:
            raise NotParallel(f"the constant {value:.8G} is beyond the range of f32", e)

    def variable(self, e: ast.Var) -> KExpr:
        name = e.name
        if name in self.plan.lane_vars:
            return B.cast(self.local(name), self.ndt)
        if name in self.locals and (name in self.plan.privates or name in self.uniform):
            return self.local(name)
        if name in self.plan.privates:
            raise NotParallel(f"{name} may be read before it is set in an iteration", e)
        # A `%` variable the loop only reads holds an integer of 16 bits, exact in f32.
        return self.scalar_param(name, self.ndt, hostir.HostValue("var", (name,)))

    def binop(self, e: ast.BinOp) -> KExpr:
        if e.op in _COMPARE or e.op in ("AND", "OR"):
            raise NotParallel("a comparison used as a number stays on the host", e)
        op = _BINARY.get(e.op)
        if op is None and e.op != "^":
            raise NotParallel(f"operator {e.op} stays on the host", e)
        if e.op == "^":
            exponent = constant_value(e.right)
            if exponent is not None and exponent == int(exponent) and 0 <= exponent <= 4:
                return _integer_power(self.value(e.left), int(exponent), self.ndt)
            return self.power(e)
        if op == "mod":  # x MOD inf is x
            return B.binary(op, self.watched(e.left), self.watched(e.right), self.ndt)
        left = self.value(e.left)
        right = self.watched(e.right) if op == "div" else self.value(e.right)  # x / inf is 0
        return B.binary(op, left, right, self.ndt)

    def power(self, e: ast.BinOp) -> KExpr:
        """`a ^ b` as the interpreter computes it (runtime/arith.power): 0 ^ y is +inf for
        y < 0 and +0 for y > 0 (also for a base of -0).  An underflow to 0 warns; an
        overflow (an infinity) or a negative base to a fractional power (NaN) is seen
        where the value is stored or used; infinite operands can give a finite result
        (1 ^ inf), so they are watched."""
        ndt = self.ndt
        exponent = constant_value(e.right)
        base = self.watched(e.left, "base")
        exp = self.watched(e.right, "exponent")
        if self.constant:
            return B.binary("pow", base, exp, ndt)
        zero = B.const(0.0, ndt)
        result = self.let(self.fresh("power"), B.binary("pow", base, exp, ndt))
        self.event(
            B.binary("and", B.binary("eq", result, zero, ndt), B.binary("ne", base, zero, ndt), ndt)
        )
        if exponent == 0:
            return result
        base = self.operand(B.cast(base, ndt), "base")
        at_zero = B.binary("eq", base, zero, ndt)
        if exponent is None or exponent > 0:
            positive = (
                at_zero
                if exponent is not None
                else B.binary("and", at_zero, B.binary("gt", exp, zero, ndt), ndt)
            )
            result = B.select(positive, zero, result, ndt)
        if exponent is None or exponent < 0:
            negative = (
                at_zero
                if exponent is not None
                else B.binary("and", at_zero, B.binary("lt", exp, zero, ndt), ndt)
            )
            result = B.select(negative, B.const(math.inf, ndt), result, ndt)
        return result

    def operand(self, value: KExpr, word: str) -> KExpr:
        """`value`, bound to a local first if it is an expression that would otherwise be
        printed (and computed) more than once."""
        if isinstance(value, (ir.Local, ir.Param, ir.Const, ir.Load, ir.Full)):
            return value
        return self.let(self.fresh(word), value)

    def call(self, e: ast.Call) -> KExpr:
        fn = self.analysis.functions.get(e.name)
        if fn is not None:
            return self.inline_function(fn, e)
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.kernel and len(e.args) == 1:
            if e.name == "EXP":
                return self.exp(e.args[0])
            # ATN and SGN make a finite value of an infinite one.
            arg = self.watched(e.args[0]) if builtin.bounded else self.value(e.args[0])
            arg = B.cast(arg, self.ndt)
            if e.name == "SGN":
                return self.sign(self.operand(arg, "sgn_arg"))
            return B.unary(builtin.tile_op, arg, self.ndt)
        if builtin is not None and builtin.kernel and len(e.args) == 2:
            left, right = self.watched(e.args[0]), self.watched(e.args[1])
            return B.binary(builtin.tile_op, left, right, self.ndt)
        raise NotParallel(f"{e.name} cannot be computed in a kernel", e)

    def sign(self, x: KExpr) -> KExpr:
        """SGN as the interpreter computes it: 1, 0, or -1 (also for NaN, as bas55)."""
        ndt = self.ndt
        zero = B.const(0.0, ndt)
        rest = B.select(B.binary("eq", x, zero, ndt), zero, B.const(-1.0, ndt), ndt)
        return B.select(B.binary("gt", x, zero, ndt), B.const(1.0, ndt), rest, ndt)

    def exp(self, arg_expr: ast.Expr) -> KExpr:
        """EXP warns when it overflows or underflows to 0: for an argument this large."""
        arg = B.cast(self.value(arg_expr), self.ndt)
        if self.constant:
            return B.unary("exp", arg, self.ndt)
        if not isinstance(arg, (ir.Local, ir.Param, ir.Const)):
            arg = self.let(self.fresh("exp_arg"), arg)
        size = B.unary("abs", arg, self.ndt)
        self.event_unless(B.binary("lt", size, B.const(_EXP_SAFE[self.ndt], self.ndt), self.ndt))
        return B.unary("exp", arg, self.ndt)

    def inline_function(self, fn, call: ast.Call) -> KExpr:
        bindings = {
            param: self.let(self.fresh(fn.name, param), self.value(arg))
            for param, arg in zip(fn.params, call.args)
        }
        return self._inline(fn.body, bindings)

    def _inline(self, body: ast.Expr, bindings: dict[str, KExpr]) -> KExpr:
        # Evaluate the body with parameters bound (they shadow variables of the program).
        original = self.variable

        def variable(e: ast.Var) -> KExpr:
            return bindings[e.name] if e.name in bindings else original(e)

        self.variable = variable  # type: ignore[method-assign]
        try:
            return self.value(body)
        finally:
            self.variable = original  # type: ignore[method-assign]


def _integer_power(x: KExpr, n: int, ndt) -> KExpr:
    """x ^ n for n = 0..4 by multiplication.  An odd power of -0 is -0 by multiplication
    but +0 in BASIC (runtime/arith.power): a zero base gives 0."""
    if n == 0:
        return B.const(1.0, ndt)
    result = x
    for _ in range(n - 1):
        result = B.binary("mul", result, x, ndt)
    if n % 2:
        zero = B.const(0.0, ndt)
        result = B.select(B.binary("eq", x, zero, ndt), zero, result, ndt)
    return result
