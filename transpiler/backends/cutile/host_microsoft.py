"""Microsoft BASIC expressions (--dialect ms) as Python text for generated host programs:
hostcode/microsoft.py's printer through the runtime's msnumbers.py (`sng`, `dbl`,
`single_div`, `bit_and`...).  A single constant written `0.1` is `sng(0.1)`."""

from __future__ import annotations

from ...hostcode.microsoft import MicrosoftExpressions
from .host_expr import Code, ExprPrinter


class MicrosoftExprPrinter(MicrosoftExpressions, ExprPrinter):
    int_store, long_store = "cint", "clng"

    def single_literal(self, written: str) -> Code:
        return Code(f"{self.need('sng')}({written})", self.syntax.atom_prec)

    def double_item(self, text: str) -> str:
        return f"{self.need('Double')}({text})"

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        # A total held at the largest single overflows again at every later term: where
        # the block's sum leaves the range, the host runs its iterations (msnumbers.fits).
        single = "" if self._single(name) else ", single=False"
        return f"{self.need('fits')}({self.var(name)} {op} {part}{single})"

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        options = ("" if self._single(name) else ", single=False") + (
            ", subtract=True" if op == "-" else ""
        )
        return f"{self.need('totals_fit')}({self.var(name)}, {parts}{options})"
