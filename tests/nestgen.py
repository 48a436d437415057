"""Random affine loop nests whose dependences the offload decision must get exactly right.

Where tests/programgen.py strings together statement templates, this generator writes
nests of one to three FORs over two 2-D arrays and a 1-D one, with subscripts that are
the loop variables plus small offsets (distance vectors of 0, 1 or 2 in any direction),
swapped subscripts (`A(J, I)`), constants and differences (`A(I, J - I)`), under
rectangular, triangular (`FOR J = I TO N`, `FOR J = 3 TO I`), skewed (`FOR J = I + 1 TO
I + M`), backward (`STEP -1`) and strided (`STEP 2`) bounds, with statements between the
FORs (imperfect nests, scalar temporaries), guards, and integer loop variables (`I%`, or
`DEFINT I-K`).  Every element is printed at the end, so a loop run in parallel that
carries a dependence prints a different number than the interpreter.

Values stay bounded (averages of earlier values plus a constant), so every program runs to
its END.  `nest_program(seed)` is deterministic per seed (bench/fuzz.py --nests).
"""

from __future__ import annotations

from tests.programgen import ProgramGenerator

LOW = 3  # the smallest value of a loop variable: offsets down to -2 stay in the arrays


class NestGenerator(ProgramGenerator):
    def __init__(self, seed: int):
        super().__init__(seed, 0)
        rng = self.rng
        self.m = rng.randint(3, 7)  # trip count of a rectangular loop
        self.high = LOW + self.m - 1
        self.size = 2 * self.m + LOW + 4  # skewed loops reach high + m, offsets + 2
        self.style = rng.choice(["plain", "plain", "percent", "defint"])
        suffix = "%" if self.style == "percent" else ""
        self.vars = [f"{v}{suffix}" for v in ("I", "J", "K")]

    # ------------------------------------------------------------------ pieces

    def bounds(self, depth: int, outer: list[tuple[str, str]]) -> tuple[str, str]:
        """(FOR header, kind) of the loop at `depth` below loops `outer` ((var, kind))."""
        var = self.vars[depth]
        lo, hi = LOW, self.high
        choices = ["rect", "rect", "down", "step2"]
        if outer:
            choices += ["upper", "lower", "strict", "skew"]
        kind = self.rng.choice(choices)
        o = self.rng.choice([v for v, k in outer if k != "skew"] or [""]) if outer else ""
        if not o and kind in ("upper", "lower", "strict", "skew"):
            kind = "rect"
        header = {
            "rect": f"FOR {var} = {lo} TO {hi}",
            "down": f"FOR {var} = {hi} TO {lo} STEP -1",
            "step2": f"FOR {var} = {lo} TO {hi} STEP 2",
            "upper": f"FOR {var} = {o} TO {hi}",
            "lower": f"FOR {var} = {lo} TO {o}",
            "strict": f"FOR {var} = {o} + 1 TO {hi}",
            "skew": f"FOR {var} = {o} + 1 TO {o} + {self.rng.randint(1, self.m)}",
        }[kind]
        self.skew_of = getattr(self, "skew_of", {})
        if kind == "skew":
            self.skew_of[var] = o
        return header, kind

    def subscript(self, loop_vars: list[str]) -> str:
        r = self.rng.random()
        if r < 0.1 or not loop_vars:
            return str(self.rng.randint(LOW, self.high))
        var = self.rng.choice(loop_vars)
        if var in self.skew_of and r < 0.3:
            return f"{var} - {self.skew_of[var]}"  # 1..m
        offset = self.rng.choice([0, 0, 0, 1, -1, 2, -2])
        return var if offset == 0 else f"{var} {'+' if offset > 0 else '-'} {abs(offset)}"

    def element(self, array: str, loop_vars: list[str], write: bool = False) -> str:
        if array == "V":
            return f"V({self.subscript(loop_vars)})"
        if write and len(loop_vars) >= 2 and self.rng.random() < 0.7:
            # Mostly a permutation of two loop variables, sometimes shifted.
            a, b = self.rng.sample(loop_vars[-2:] if self.rng.random() < 0.7 else loop_vars, 2)
            if self.rng.random() < 0.3:
                a = self.subscript([a])
            return f"{array}({a}, {b})"
        return f"{array}({self.subscript(loop_vars)}, {self.subscript(loop_vars)})"

    def value(self, loop_vars: list[str], temps: list[str]) -> str:
        terms = [
            self.element(self.rng.choice(["A", "A", "B", "V"]), loop_vars)
            for _ in range(self.rng.randint(1, 3))
        ]
        if temps and self.rng.random() < 0.5:
            terms.append(self.rng.choice(temps))
        if loop_vars and self.rng.random() < 0.3:
            terms.append(f"{self.rng.choice(loop_vars)} / 10")
        # An average of the terms plus a constant: bounded, and exact in f64.
        return f"({' + '.join(terms)}) / {len(terms) + 1} + {self.rng.randint(1, 9) / 4:g}"

    def assignment(self, loop_vars: list[str], temps: list[str]) -> str:
        target = self.element(self.rng.choice(["A", "A", "B", "V"]), loop_vars, write=True)
        value = self.value(loop_vars, temps)
        if self.rng.random() < 0.2:  # an update in place
            value = f"{target} * 0.5 + {value}"
        if self.rng.random() < 0.2:
            guard = self.element(self.rng.choice(["A", "B"]), loop_vars)
            return f"IF {guard} > {self.rng.randint(1, 3)} THEN {target} = {value}"
        return f"LET {target} = {value}"

    # ------------------------------------------------------------------ nests

    def nest(self) -> None:
        depth = self.rng.choice([1, 2, 2, 2, 3, 3])
        self.skew_of = {}
        self._loop(0, depth, [], [])
        self.emit(f'PRINT "NEST"; A({LOW}, {LOW}); B({self.high}, {LOW}); V({LOW + 1})')

    def _loop(self, level: int, depth: int, outer: list[tuple[str, str]], temps: list[str]):
        header, kind = self.bounds(level, outer)
        self.emit(header)
        loop_vars = [v for v, _ in outer] + [self.vars[level]]
        inner = [*outer, (self.vars[level], kind)]
        if level + 1 < depth:
            temps = list(temps)
            if self.rng.random() < 0.35:  # a temporary or a write between the FORs
                if self.rng.random() < 0.5:
                    t = f"T{level}"
                    self.emit(f"LET {t} = {self.value(loop_vars, temps)}")
                    temps.append(t)
                else:
                    self.emit(self.assignment(loop_vars, temps))
            self._loop(level + 1, depth, inner, temps)
            if self.rng.random() < 0.2:  # a statement after the inner loop
                self.emit(self.assignment(loop_vars, temps))
        else:
            for _ in range(self.rng.randint(1, 2)):
                if self.rng.random() < 0.2:
                    self.emit(f"LET S = {self.value(loop_vars, temps)}")
                    temps = [*temps, "S"]
                self.emit(self.assignment(loop_vars, temps))
        self.emit(f"NEXT {self.vars[level]}")

    def program(self) -> str:
        if self.style == "defint":
            self.emit("DEFINT I-K")
        i, j = self.vars[0], self.vars[1]
        self.emit(f"DIM A({self.size}, {self.size}), B({self.size}, {self.size}), V({self.size})")
        self.emit(f"FOR {i} = 0 TO {self.size}")
        self.emit(f"LET V({i}) = ({i} * 5 - INT({i} * 5 / 7) * 7) / 4")
        self.emit(f"FOR {j} = 0 TO {self.size}")
        # Exact in single precision too: the engines' SIN and COS may differ by an ulp.
        self.emit(f"LET A({i}, {j}) = ({i} * 7 + {j} * 3 - INT(({i} * 7 + {j} * 3) / 11) * 11) / 4")
        self.emit(f"LET B({i}, {j}) = ({i} * 5 + {j} - INT(({i} * 5 + {j}) / 13) * 13) / 8")
        self.emit(f"NEXT {j}")
        self.emit(f"NEXT {i}")
        for _ in range(self.rng.randint(1, 3)):
            self.nest()
        self.emit(f"FOR {i} = 0 TO {self.size}")
        self.emit(f"PRINT {i}; V({i})")
        self.emit(f"FOR {j} = 0 TO {self.size}")
        self.emit(f"PRINT A({i}, {j}); B({i}, {j});")
        self.emit(f"NEXT {j}")
        self.emit("PRINT")
        self.emit(f"NEXT {i}")
        self.emit("END")
        return self._number()


def nest_program(seed: int) -> str:
    return NestGenerator(seed).program()


if __name__ == "__main__":
    import sys

    print(nest_program(int(sys.argv[1]) if len(sys.argv) > 1 else 0), end="")
