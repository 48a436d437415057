"""Kernel IR expressions as cuTile Python source text.

Parentheses are emitted only where Python's precedence needs them (as pycparser's
generator does for C).  Names go through the kernel's `Namer`, so BASIC names become
readable, safe Python identifiers and generated ones never meet them.
"""

from __future__ import annotations

from ...ir import kernel as ir
from ...ir.naming import Namer
from ..kernel_expressions import PYTHON, KernelExpressions
from ..render import py_tuple

CT_DTYPES = {
    "f16": "ct.float16",
    "bf16": "ct.bfloat16",
    "tf32": "ct.tfloat32",
    "f32": "ct.float32",
    "f64": "ct.float64",
    "i32": "ct.int32",
    "i64": "ct.int64",
    "bool": "ct.bool_",
}
NP_DTYPES = {
    "f16": "np.float16",
    "bf16": "np.float32",  # NumPy has no bfloat16: host data is f32, converted on the device
    "f32": "np.float32",
    "f64": "np.float64",
    "i32": "np.int32",
    "i64": "np.int64",
    "bool": "np.bool_",
}

_UNARY_PREC, _ATOM = PYTHON.unary, PYTHON.atom


# cuTile's default types of Python constants (its "loosely typed" scalars).
_DEFAULT_DTYPES = ("f32", "i32", "bool")
# Where a Python constant computes differently from its cuTile type (in double, without
# wrap-around), the constructor of a value of that type.
_STRICT_CONSTRUCTORS = {"f32": "ct.float32", "i32": "ct.int32"}


def is_loose(e: ir.KExpr) -> bool:
    """Whether cuTile sees `e` as a Python constant: literals and compile-time constants,
    and operators or math functions applied only to those, which it folds in Python."""
    if isinstance(e, (ir.Const, ir.ConstRef)):
        return True
    if isinstance(e, ir.Unary):
        return (e.op in PYTHON.prefix or e.op in PYTHON.math) and is_loose(e.operand)
    if isinstance(e, ir.Binary):
        return e.op in PYTHON.infix and is_loose(e.left) and is_loose(e.right)
    return False


def _exact_in_default_type(value: float | int | bool) -> bool:
    if isinstance(value, (bool, int)):
        return -(2**31) <= value < 2**31
    import numpy as np  # here, not at the top: it is most of the CLI's start-up time

    return value != value or float(np.float32(value)) == value


def python_literal(value: float | int | bool) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    value = float(value)
    if value != value:
        return 'float("nan")'
    if value in (float("inf"), float("-inf")):
        return 'float("inf")' if value > 0 else '-float("inf")'
    return repr(value)


class CutileExprPrinter(KernelExpressions):
    """Print IR expressions; `namer` (naming.kernel_namer) gives names their identifiers."""

    syntax = PYTHON

    def __init__(self, namer: Namer, kernel: ir.Kernel | None = None):
        self.namer = namer
        self.sizes = kernel.size_names() if kernel is not None else {}

    def dim(self, size: int) -> str:
        return self.name(self.sizes[size]) if size in self.sizes else str(size)

    def shape(self, shape: tuple[int, ...]) -> str:
        return py_tuple([self.dim(d) for d in shape])

    def name(self, ir_name: str) -> str:
        return self.namer.ident(ir_name)

    def array_ref(self, ir_name: str) -> str:
        return self.namer.ident(ir_name, "array")

    def __call__(self, e: ir.KExpr) -> str:
        return self.expr(e)[0]

    def index(self, index: tuple[ir.KExpr, ...]) -> str:
        return py_tuple([self(i) for i in index])

    def view(self, array: str, view: tuple[ir.ViewSlice, ...]) -> str:
        text = self.array_ref(array)
        for s in view:
            text += f".slice({s.axis}, {self(s.start)}, {self(s.stop)})"
        return text

    def typed(self, e: ir.KExpr, dtype: str) -> str:
        """`e` as text that has element type `dtype` even where cuTile would give a Python
        constant its default type (ct.atan2, ct.where... make f32 tiles of constants)."""
        if dtype in _DEFAULT_DTYPES or not is_loose(e):
            return self(e)
        return f"ct.astype({self(e)}, {CT_DTYPES[dtype]})"

    def bound(self, e: ir.KExpr) -> str:
        """`e` as the value of a local.  A Python constant bound to a name stays a Python
        constant in cuTile, and arithmetic on such constants is folded by Python: in double
        precision and without 32-bit wrap-around.  A constant f32 or i32 value is made a
        value of that type (`ct.float32(0.1)`), so it computes as the BASIC program does."""
        if is_loose(e) and e.type.dtype in _STRICT_CONSTRUCTORS:
            return f"{_STRICT_CONSTRUCTORS[e.type.dtype]}({self(e)})"
        return self(e)

    def materialized(self, e: ir.KExpr, dtype: str) -> str:
        """`e` where cuTile makes a tile of it (ct.broadcast_to, ct.reshape): a Python
        constant would become a tile of its default type."""
        if isinstance(e, ir.Const) and _exact_in_default_type(e.value):
            return self(e)
        return self.typed(e, dtype)

    def either(self, a: ir.KExpr, b: ir.KExpr, dtype: str) -> tuple[str, str]:
        """The two operands of an op that picks one of them (ct.where, ct.minimum): when
        both are Python constants, one converted to `dtype` types the result, unless the
        default type holds both exactly (1.0 and 0.0 need no conversion)."""
        exact = all(isinstance(x, ir.Const) and _exact_in_default_type(x.value) for x in (a, b))
        if is_loose(b) and not exact:
            return self.typed(a, dtype), self(b)
        return self(a), self(b)

    def name_of(self, e: ir.Param | ir.ConstRef | ir.Local) -> str:
        return self.name(e.name)

    _Local = KernelExpressions._Param  # a name, as parameters are

    def literal(self, value, dtype: ir.DType) -> str:
        return python_literal(value)

    def _BlockId(self, e: ir.BlockId, index=None):
        return f"ct.bid({e.axis})", _ATOM

    def _Load(self, e: ir.Load, index=None):
        args = [
            self.view(e.array, e.view),
            f"index={self.index(e.index)}",
            f"shape={self.shape(e.type.shape) if e.type.shape else '()'}",
        ]
        if e.order is not None:
            args.append(f"order={py_tuple([str(axis) for axis in e.order])}")
        if e.type.shape:
            args.append("padding_mode=ct.PaddingMode.ZERO")
        return f"ct.load({', '.join(args)})", _ATOM

    def _Gather(self, e: ir.Gather, index=None):
        idx = self(e.indices[0]) if len(e.indices) == 1 else self.index(e.indices)
        mask = f", mask={self(e.mask)}" if e.mask is not None else ""
        return f"ct.gather({self.array_ref(e.array)}, {idx}{mask})", _ATOM

    def _Extent(self, e: ir.Extent, index=None):
        return f"{self.array_ref(e.array)}.shape[{e.axis}]", _ATOM

    def _Arange(self, e: ir.Arange, index=None):
        return f"ct.arange({self.dim(e.type.shape[0])}, dtype=ct.int32)", _ATOM

    def _Full(self, e: ir.Full, index=None):
        dtype = CT_DTYPES[e.type.dtype]
        if e.value == 0:
            return f"ct.zeros({self.shape(e.type.shape)}, dtype={dtype})", _ATOM
        return (
            f"ct.full({self.shape(e.type.shape)}, {python_literal(e.value)}, dtype={dtype})",
            _ATOM,
        )

    def unary_call(self, e: ir.Unary, index=None):
        x = e.operand
        if e.op == "atan":
            return f"ct.atan2({self.typed(x, e.type.dtype)}, 1.0)", _ATOM
        if e.op == "sign":
            # SGN: 1 if positive, -1 if negative, 0 otherwise.
            one, zero = ("1.0", "0.0") if e.type.dtype.startswith(("f", "b")) else ("1", "0")
            inner = self.wrap(x, None, 6)
            return (
                f"ct.where({inner} > {zero}, {one}, {zero}) - ct.where({inner} < {zero}, {one}, {zero})",
                10,
            )
        return f"{PYTHON.math[e.op]}({self(x)})", _ATOM

    def binary_call(self, function: str, e: ir.Binary, index=None):
        """A tile function: two constants would make an f32 tile."""
        left, right = self.either(e.left, e.right, e.type.dtype)
        return f"{function}({left}, {right})", _ATOM

    def _Select(self, e: ir.Select, index=None):
        if_true, if_false = self.either(e.if_true, e.if_false, e.type.dtype)
        return f"ct.where({self(e.cond)}, {if_true}, {if_false})", _ATOM

    def _Cast(self, e: ir.Cast, index=None):
        return f"ct.astype({self(e.operand)}, {CT_DTYPES[e.type.dtype]})", _ATOM

    def _Reduce(self, e: ir.Reduce, index=None):
        axis = "" if e.axis is None else f", axis={e.axis}"
        keep = ", keepdims=True" if e.keepdims else ""
        return f"ct.{e.op}({self(e.operand)}{axis}{keep})", _ATOM

    def _Scan(self, e: ir.Scan, index=None):
        if e.op == "linear":  # the values of the (factor, value) pairs' scan
            pairs = f"({self(e.factor)}, {self(e.operand)})"
            identity = "(1.0, 0.0)" if e.type.dtype in ir.FLOAT_TYPES else "(1, 0)"
            scan = f"ct.scan({pairs}, axis=0, func=linear_recurrence, identity={identity})"
            return f"{scan}[1]", _ATOM
        return f"ct.cum{e.op}({self(e.operand)})", _ATOM

    def _Mma(self, e: ir.Mma, index=None):
        return f"ct.mma({self(e.a)}, {self(e.b)}, {self(e.acc)})", _ATOM

    def _Reshape(self, e: ir.Reshape, index=None):
        operand = self.materialized(e.operand, e.type.dtype)
        return f"ct.reshape({operand}, {self.shape(e.type.shape)})", _ATOM

    def _Broadcast(self, e: ir.Broadcast, index=None):
        operand = self.materialized(e.operand, e.type.dtype)
        return f"ct.broadcast_to({operand}, {self.shape(e.type.shape)})", _ATOM
