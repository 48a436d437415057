"""What the two host expression printers (cuda/host_expr.py, cutile/host_expr.py) share:
names, the conversion of a value for storing (Microsoft BASIC's too), the combination of
a kernel block's sums.  A subclass gives `runtime(name)` (a function of its runtime, by
its name there), `int_store` and `single(text)`."""

from __future__ import annotations


class HostExpressions:
    int_store = ""  # the runtime's conversion of a value stored into a `%` variable

    def runtime(self, name: str) -> str:
        raise NotImplementedError

    def single(self, text: str) -> str:
        """A value rounded to the float32 a variable of an f32 program holds."""
        raise NotImplementedError

    def store(self, text: str, value_type: str) -> str:
        """`text` converted for storing in a variable or element of `value_type`."""
        if value_type == "int":
            return f"{self.runtime(self.int_store)}({text})"
        if value_type == "str":
            return f"{self.runtime('check_string')}({text})" if self.strict else text
        return self.single(text) if self.f32 else text

    def var(self, name: str) -> str:
        return self.namer.name(name)

    def array(self, name: str) -> str:
        return self.array_names[name]

    # ----------------------------------------------------------------- block sums

    def running_total(self, name: str, op: str, part: str) -> str:
        """BASIC's `name op part` (op "+" or "-"): a kernel block's sum combined into
        the variable that accumulates, as the accumulating statement computes it (ECMA-55:
        an overflow to +-inf warns once; later additions to an infinity stay quiet)."""
        total = f"{self.runtime('add' if op == '+' else 'sub')}({self.var(name)}, {part})"
        return self.store(total, "num")

    def total_fits(self, name: str, op: str, part: str) -> str | None:
        """A test that `name op part` meets no exception, where a block's sum could meet
        one that the block's own additions would meet more than once (None: none can)."""
        return None

    def totals_fit(self, name: str, op: str, parts: str) -> str | None:
        """The same test for the sums `parts` combined one by one."""
        return None


class MicrosoftExpressions:
    """What both Microsoft BASIC printers add: the expression types, whether numbers are
    singles, and the store conversions (a `%` integer or a `&` LONG, fatal "Overflow"
    beyond; a single, warning "Overflow" beyond; a double).  `int_store`, `long_store`:
    the runtime's names of the integer conversions (for a `%`, a `&` variable)."""

    int_store = long_store = ""

    def __init__(self, analysis, namer, array_names):
        super().__init__(analysis, namer, array_names)
        self.types = analysis.expr_types
        self.singles = analysis.number_type == "f32"

    def store(self, text: str, value_type: str) -> str:
        if value_type == "str":
            return text
        if value_type in ("int", "lng"):
            name = self.int_store if value_type == "int" else self.long_store
        else:
            name = "sng" if value_type == "num" and self.singles else "dbl"
        return f"{self.runtime(name)}({text})"
