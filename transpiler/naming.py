"""Identifiers in generated code, derived from BASIC names.

Generated code must read like the BASIC it came from, so `TILEM` becomes `tilem`,
`A$` becomes `a_str`, `COUNT%` becomes `count_int`, `X#` becomes `x_dbl` and `FNA`
becomes `fn_a`.  A name that is a keyword or a name the generated module needs (Python
builtins, `ct`, `np`, C++ keywords, CUDA built-ins...) gets a trailing underscore, so no
BASIC identifier can shadow or inject anything.
"""

from __future__ import annotations

import builtins
import keyword
import re

# Names the generated Python modules use themselves.
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
    "grid",
    "kernel",
    "tilesim",
    # tile functions the kernels call (backends/cutile_helpers.py)
    "basic_mod",
    "basic_mod_int",
    "basic_div_int",
    "basic_max",
    "basic_min",
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
xor xor_eq main std b2t printf puts exit abs fabs sin cos tan atan exp log sqrt floor ceil pow
fmin fmax min max threadIdx blockIdx blockDim gridDim warpSize dim3 half int32_t int64_t size_t
assert errno NULL EOF
""".split()
)


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
    """

    def __init__(self, target: str = "python", taken: set[str] | None = None):
        self._reserved = python_reserved if target == "python" else cpp_reserved
        self._taken: set[str] = set(taken or ())
        self._names: dict[tuple[str, str], str] = {}
        # identifier -> the first n worth trying for `identifier_n` (all below are taken,
        # and taken names stay taken): many kernels share a wanted name
        self._next: dict[str, int] = {}

    def name(self, basic_name: str, kind: str = "var") -> str:
        key = (kind, basic_name.upper())
        if key not in self._names:
            self._names[key] = self.fresh(_base(basic_name))
        return self._names[key]

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

    def known(self, basic_name: str, kind: str = "var") -> bool:
        return (kind, basic_name.upper()) in self._names
