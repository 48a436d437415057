"""Which variables of a cuTile BASIC kernel hold floats: a variable assigned a float
anywhere is a float everywhere, from its first assignment on.

NVIDIA's analyzer widens a variable's type this way (I32 becomes F32 when any LET assigns
it a float), so `LET X = 7 : LET X = X / 2` gives 3.5, not 3.  The lowering and the
reference interpreter both read the answer from `KernelProgram.float_vars`.

The kinds follow the lowering's typing (irbuild): integer literals, BID, I32 data, INT
and comparisons are integers; `/`, `^`, the math functions and MMA give floats; + - *
MOD, ABS, SGN, MAX, MIN and the reductions keep their operands' kind.
"""

from __future__ import annotations

from ...errors import BasicSemanticError
from ...ir import ast
from ...language.builtins import BUILTINS
from .nesting import ForBlock, IfChain, Nested, WhileBlock

_INTEGER_RESULTS = ("=", "<>", "<", "<=", ">", ">=", "AND", "OR")


def float_variables(kp) -> set[str]:
    """The plain variables of `kp` that hold floats; a FOR variable assigned a float in its
    loop is a located error (a loop counts in integers)."""
    lets = _assignments(kp.body)
    loop_vars = _loop_variables(kp.body)
    floats: set[str] = set()
    changed = True
    while changed:  # a variable's kind can depend on another's: iterate to a fixed point
        changed = False
        for stmt in lets:
            name = stmt.target.name
            if name.endswith("%"):
                continue  # X% is an I32 whatever it is assigned (NVIDIA's suffix rule)
            if name not in floats and _is_float(stmt.value, kp, floats):
                if name in loop_vars:
                    raise BasicSemanticError(
                        f"FOR variable {name} is assigned a non-integer value; "
                        "a kernel loop counts in integers (use INT(...))",
                        stmt.target.coord,
                    )
                floats.add(name)
                changed = True
    return floats


def _assignments(nodes: list[Nested]) -> list[ast.Let]:
    out: list[ast.Let] = []
    for node in nodes:
        if isinstance(node, (ForBlock, WhileBlock)):
            out += _assignments(node.body)
        elif isinstance(node, IfChain):
            for arm in node.arms:
                out += _assignments(arm.body)
            out += _assignments(node.else_body or [])
        elif isinstance(node, ast.Let) and isinstance(node.target, ast.Var):
            out.append(node)
    return out


def _loop_variables(nodes: list[Nested]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ForBlock):
            out.add(node.head.var.name)
            out |= _loop_variables(node.body)
        elif isinstance(node, WhileBlock):
            out |= _loop_variables(node.body)
        elif isinstance(node, IfChain):
            for arm in node.arms:
                out |= _loop_variables(arm.body)
            out |= _loop_variables(node.else_body or [])
    return out


def _is_float(e: ast.Expr, kp, floats: set[str]) -> bool:
    if isinstance(e, ast.Num):
        return not (e.value == int(e.value) and e.text.isdigit())
    if isinstance(e, ast.Bid):
        return False
    if isinstance(e, ast.Var):
        if e.name in kp.scalars:
            return kp.scalars[e.name].dtype not in ("i32", "i64")
        if e.name in kp.tile_vars:
            return True  # TILE accumulators hold floats
        return e.name in floats
    if isinstance(e, ast.Index):
        array = kp.arrays.get(e.name)
        return array is None or array.dtype not in ("i32", "i64")
    if isinstance(e, ast.UnaryOp):
        return e.op != "NOT" and _is_float(e.operand, kp, floats)
    if isinstance(e, ast.BinOp):
        if e.op in _INTEGER_RESULTS:
            return False
        if e.op in ("/", "^"):
            return True
        return _is_float(e.left, kp, floats) or _is_float(e.right, kp, floats)
    if isinstance(e, ast.Call):
        builtin = BUILTINS.get(e.name)
        if builtin is not None and builtin.kernel_program == "to_int":
            return False
        if builtin is not None and builtin.keeps_kind:
            # MAX(A, B) of two values, or of a tile along an axis (an integer literal,
            # which cannot make the result a float).
            return any(_is_float(a, kp, floats) for a in e.args)
        return True  # SQR, EXP, SIN..., MMA
    return True


def zero_started_variables(kp) -> list[str]:
    """Variables first assigned inside an IF, FOR or WHILE at the kernel's top level:
    they start at 0, BASIC's value of an unassigned variable, so that they have a value
    after the block whether or not it assigned them (cuTile needs one on every path)."""
    defined: set[str] = set(kp.tile_vars)
    out: list[str] = []
    for node in kp.body:
        if isinstance(node, ast.Let) and isinstance(node.target, ast.Var):
            defined.add(node.target.name)
        elif isinstance(node, (ForBlock, WhileBlock, IfChain)):
            loop_vars = _loop_variables([node])
            for stmt in _assignments([node]):
                name = stmt.target.name
                if name not in defined and name not in loop_vars:
                    defined.add(name)
                    out.append(name)
    return out
