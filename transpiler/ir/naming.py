"""Every identifier of generated code comes from a `Namer`, one per scope.

A scope is one name space of a generated file: a module, a host function, a kernel.  Its
identifiers come from two sources that must never meet:

- BASIC names: `TILEM` -> `tilem`, `A$` -> `a_str`, `COUNT%` -> `count_int`, `X#` ->
  `x_dbl`, `FNA` -> `fn_a`.  A scope names them before anything else (`name`), so they keep these
  spellings wherever they can;
- names the compiler invents (loop counts, lane masks, partial results, temporaries):
  `fresh(wanted)` gives `wanted`, or `wanted_2`, `wanted_3`... when the scope holds it
  already.

In the kernel and host IRs the two are spelled apart: a BASIC name is upper case (the
lexer upper-cases every name), a generated one lower case (`valid`, `y_tile`, `map_30`,
see `generated_name`), so a BASIC variable called VALID and the lane mask `valid` are two
IR names; `ident` gives either kind its identifier.  Names the generated code needs
itself (keywords, Python builtins, `ct`, `np`, C++ keywords, CUDA built-ins, and what a
scope's template uses) are reserved: a BASIC name that is one gets a trailing
underscore, a generated one a number, so no name can shadow or inject anything.
"""

from __future__ import annotations

import builtins
import keyword
import re

from ..language.builtins import FLOAT_TILE_OPS

# Names every generated Python module uses itself.
_PYTHON_MODULE_NAMES = {
    "ct",
    "np",
    "math",
    "sys",
    "basic",
    "con",
    "data",
    "dev",
    "main",
    "run",
    "device",
    "stream",
    "argparse",
    "grid",
    "kernel",
    "tilesim",
    # tile functions the kernels call (backends/cutile/helpers.py)
    "basic_mod",
    "basic_mod_int",
    "basic_div_int",
    "basic_max",
    "basic_min",
    "linear_recurrence",
}

_CPP_KEYWORDS = set(
    """
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq main std b2t printf puts exit abs fabs floor ceil pow
fmin fmax min max threadIdx blockIdx blockDim gridDim warpSize dim3 half int32_t int64_t size_t
assert errno NULL EOF
""".split()
) | set(FLOAT_TILE_OPS)  # the kernels' C math functions (sqrt, sinh...)


def is_generated(ir_name: str) -> bool:
    """Whether an IR name is one the compiler invented (lower case) rather than a BASIC
    name (upper case: every BASIC name starts with a letter the lexer upper-cased)."""
    return not ir_name[:1].isupper()


def generated_name(*words: str) -> str:
    """The IR name of a value the compiler invents, from words that say what it is:
    BASIC names spelled as their identifiers, then plain words (`("Y", "tile")` ->
    `y_tile`, `("FNA", "x")` -> `fn_a_x`)."""
    return "_".join(word if is_generated(word) else _base(word) for word in words if word)


def base_name(basic_name: str) -> str:
    """The identifier a BASIC name wants (`N%` -> `n_int`)."""
    return _base(basic_name)


def _base(basic_name: str) -> str:
    """The lower-case spelling of a BASIC name with its suffix spelled out."""
    name = basic_name.upper()
    suffix = ""
    if name.endswith("$"):
        name, suffix = name[:-1], "_str"
    elif name.endswith("%"):
        name, suffix = name[:-1], "_int"
    elif name.endswith("#"):
        name, suffix = name[:-1], "_dbl"
    elif name.endswith("!"):
        name, suffix = name[:-1], "_sng"
    elif name.endswith("&"):
        name, suffix = name[:-1], "_lng"
    if name.startswith("FN") and len(name) > 2:
        name = "FN_" + name[2:]
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name).lower() + suffix
    if not ident or ident[0].isdigit():
        ident = "v_" + ident
    return ident


_BUILTINS = frozenset(dir(builtins))


def python_reserved(ident: str) -> bool:
    return (
        keyword.iskeyword(ident)
        or keyword.issoftkeyword(ident)
        or ident in _BUILTINS
        or ident in _PYTHON_MODULE_NAMES
    )


def cpp_reserved(ident: str) -> bool:
    return ident in _CPP_KEYWORDS or ident.startswith("__") or ident.startswith("b2t_")


class Namer:
    """Allocates unique, safe identifiers for one generated scope.

    The same (kind, BASIC name) always maps to the same identifier; different kinds
    (an array and a scalar called A, which extended BASIC allows) get different ones.
    `taken`: identifiers the scope's own code uses (its template's names).
    """

    def __init__(self, target: str = "python", taken: set[str] | None = None):
        self._reserved = python_reserved if target == "python" else cpp_reserved
        self._taken: set[str] = set(taken or ())
        self._names: dict[tuple[str, str], str] = {}
        self._generated: dict[tuple[str, str], str] = {}
        # identifier -> the first n worth trying for `identifier_n` (all below are taken,
        # and taken names stay taken): many kernels share a wanted name
        self._next: dict[str, int] = {}

    def name(self, basic_name: str, kind: str = "var") -> str:
        """The identifier of a BASIC name (of `kind`: "var", "array", "function"...)."""
        if is_generated(basic_name):
            raise ValueError(f"{basic_name!r} is a generated name, not a BASIC name")
        key = (kind, basic_name.upper())
        if key not in self._names:
            self._names[key] = self.fresh(_base(basic_name))
        return self._names[key]

    def ident(self, ir_name: str, kind: str = "var") -> str:
        """The identifier of an IR name: a BASIC name's (`name`), or for a generated
        name the identifier `fresh` gave it on its first use."""
        if not is_generated(ir_name):
            return self.name(ir_name, kind)
        key = (kind, ir_name)
        if key not in self._generated:
            self._generated[key] = self.fresh(ir_name)
        return self._generated[key]

    def fresh(self, wanted: str) -> str:
        """A new identifier based on `wanted` that collides with nothing."""
        ident = wanted
        if self._reserved(ident):
            ident += "_"
        candidate, n = ident, self._next.get(ident, 2)
        if candidate in self._taken:
            candidate = f"{ident}_{n}"
            while candidate in self._taken:
                n += 1
                candidate = f"{ident}_{n}"
            self._next[ident] = n + 1
        self._taken.add(candidate)
        return candidate

    def taken(self) -> frozenset[str]:
        """The identifiers given so far."""
        return frozenset(self._taken)

    def local(self, basic_name: str, wanted: str, free: set[str]) -> str:
        """Name `basic_name` by a local of a function of its own (a SUB's variable):
        `wanted`, unless reserved or taken (`free`: taken identifiers the function may
        shadow, those of variables it does not use)."""
        ident = wanted + "_" if self._reserved(wanted) else wanted
        candidate, n = ident, 2
        while candidate in self._taken and candidate not in free:
            candidate, n = f"{ident}_{n}", n + 1
        self._names[("var", basic_name.upper())] = candidate
        self._taken.add(candidate)  # (later identifiers avoid it)
        return candidate

    def known(self, basic_name: str, kind: str = "var") -> bool:
        return (kind, basic_name.upper()) in self._names

    def basic_identifiers(self) -> set[str]:
        """The identifiers this scope gave BASIC names (the others are generated)."""
        return set(self._names.values())


def declare_program_names(namer: Namer, analysis) -> None:
    """Name the BASIC names of a legacy program's host scope before anything else: its
    variables, arrays, DEF FN functions and their parameters (in name order)."""
    for name in sorted(analysis.variables):
        namer.name(name)
    for name in sorted(analysis.arrays):
        namer.name(name, "array")
    for name in sorted(analysis.functions):
        namer.name(name, "function")
        for param in analysis.functions[name].params:
            namer.name(param)


def kernel_namer(kernel, target: str, taken: set[str] | None = None) -> Namer:
    """The namer of one kernel (both backends): the kernel's BASIC names first, then the
    names the compiler invented, each group in order of appearance (parameters first);
    the backend then asks it for the identifiers of its own temporaries."""
    namer = Namer(target, taken)
    names = kernel_names(kernel)
    for name, kind in names:
        if not is_generated(name):
            namer.ident(name, kind)
    for name, kind in names:
        if is_generated(name):
            namer.ident(name, kind)
    return namer


def kernel_names(kernel) -> list[tuple[str, str]]:
    """(IR name, kind) of every name a kernel uses: parameters, then the body and the
    grid in order; kind is "array" or "var"."""
    from . import kernel as ir

    array_nodes = (ir.Load, ir.Gather, ir.Extent, ir.Store, ir.Scatter, ir.AtomicAdd, ir.AtomicMax)
    seen: dict[tuple[str, str], None] = {}
    for p in kernel.params:
        seen.setdefault((p.name, "array" if isinstance(p, ir.ArrayParam) else "var"))

    def visit(node) -> None:
        if isinstance(node, array_nodes):
            seen.setdefault((node.array, "array"))
        elif isinstance(node, (ir.Param, ir.ConstRef, ir.Local, ir.Let)):
            seen.setdefault((node.name, "var"))
        elif isinstance(node, ir.ForRange):
            seen.setdefault((node.var, "var"))
        for field in ir.field_names(type(node)):
            value = getattr(node, field)
            for item in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(item, (ir.KExpr, ir.KStmt, ir.ViewSlice)):
                    visit(item)

    for node in [*kernel.body, *kernel.grid]:
        visit(node)
    return list(seen)
