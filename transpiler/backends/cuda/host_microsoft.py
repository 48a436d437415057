"""Microsoft BASIC expressions (--dialect ms) as C++ text for generated host programs:
hostcode/microsoft.py's printer through b2t_runtime.h's port of runtime/msnumbers.py.  A
single is a `float` variable, a double a `double`; `b2t::sng(a + b)` rounds exactly as
float arithmetic would, within GW-BASIC's range; a single constant written `0.1` is the
float literal `0.1f`.
"""

from __future__ import annotations

from ...hostcode.microsoft import MicrosoftExpressions
from .host_expr import Code, ExprPrinter


class MicrosoftExprPrinter(MicrosoftExpressions, ExprPrinter):
    int_store, long_store = "to_int16", "to_int32_long"

    def single_literal(self, written: str) -> Code:
        return Code(f"{written}f", self.syntax.atom_prec, "float")

    def double_item(self, text: str) -> str:
        return f"b2t::Double{{{text}}}"

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        # A total held at the largest single overflows again at every later term: where
        # the block's sum leaves the range, the host runs its iterations (b2t::fits).
        single = "true" if self._single(name) else "false"
        return f"b2t::fits({self.var(name)} {op} {part}, {single})"

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        single = "true" if self._single(name) else "false"
        subtract = "true" if op == "-" else "false"
        return f"{parts}.totals_fit({self.var(name)}, {single}, {subtract})"
