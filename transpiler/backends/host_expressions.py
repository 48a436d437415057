"""What the two host expression printers (cuda/host_expr.py, cutile/host_expr.py) share:
names, the combination of a kernel block's sums, and Microsoft BASIC's conversion of a
value for storing.  A subclass gives `runtime(name)` (a function of its runtime, by its
name there) and `store(text, value_type)`."""

from __future__ import annotations


class HostExpressions:
    def runtime(self, name: str) -> str:
        raise NotImplementedError

    def store(self, text: str, value_type: str) -> str:
        raise NotImplementedError

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


class MicrosoftStores:
    """Microsoft BASIC: a value stored into a variable of `value_type` is converted to it
    (a `%` integer or a `&` LONG, fatal "Overflow" beyond; a single, warning "Overflow"
    beyond; a double).  `int_store`, `long_store`: the runtime's names of the integer
    conversions (for a `%`, a `&` variable)."""

    int_store = long_store = ""
    singles = True

    def store(self, text: str, value_type: str) -> str:
        if value_type == "str":
            return text
        if value_type in ("int", "lng"):
            name = self.int_store if value_type == "int" else self.long_store
        else:
            name = "sng" if value_type == "num" and self.singles else "dbl"
        return f"{self.runtime(name)}({text})"
