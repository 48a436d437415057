"""A generator of random, valid, deterministic BASIC programs (for differential testing).

Each program is built from statement templates that exercise what basic2tile
translates: arithmetic with the built-ins, arrays, FOR loops that the offload pass
turns into kernels (maps, stencils, reductions, max/min, 2-D nests, histograms,
triangular and imperfect nests, row writes, rows swept in place by an inner loop, a
row and column filled together, gemm's distributed and interchanged nests, 3-deep nests over rank-3 arrays, sums of
several terms, scans) and
loops it must keep on the host (carried dependences, PRINT inside), IF/ELSE, WHILE,
GOTO, GOSUB and PRINT.  Values stay finite and away from the exceptional cases
(division by zero, LOG of negatives...), so every program runs to its END.

With `exceptions=True` programs also contain near misses of BASIC's run-time exceptions
in offloaded loops: inner loops that may run zero times, stencils whose out-of-range
neighbour is guarded by an IF, LOG and SQR of values that can be negative, divisions by
array elements that can be zero.  Such a program may warn, or stop with an error.

Programs use one statement per line and no MAT, so Debian's bwbasic can run them too.
"""

from __future__ import annotations

import random

SCALARS = ["A", "B", "C", "D", "E", "F"]
ARRAYS_1D = ["X", "Y", "Z"]
ARRAY_2D = "M"


class ProgramGenerator:
    def __init__(self, seed: int, statements: int = 12, exceptions: bool = False):
        self.rng = random.Random(seed)
        self.statements = statements
        self.exceptions = exceptions
        self.lines: list[str] = []
        self.subroutines: list[list[str]] = []
        self.n = self.rng.randint(12, 70)
        self.m = self.rng.randint(3, 9)

    # ------------------------------------------------------------------ expressions

    def leaf(self, index: str | None = None) -> str:
        r = self.rng.random()
        if index and r < 0.3:
            return index
        if index and r < 0.55:
            return f"{self.rng.choice(ARRAYS_1D)}({index})"
        if r < 0.75:
            return self.rng.choice(SCALARS)
        return self.number()

    def number(self) -> str:
        if self.rng.random() < 0.5:
            return str(self.rng.randint(1, 9))
        return f"{self.rng.randint(1, 99) / 10:g}"

    def expr(self, index: str | None = None, depth: int = 0) -> str:
        if depth > 2 or self.rng.random() < 0.3:
            return self.leaf(index)
        kind = self.rng.random()
        a = self.expr(index, depth + 1)
        b = self.expr(index, depth + 1)
        if kind < 0.45:
            return f"{a} {self.rng.choice(['+', '-', '*'])} {b}"
        if kind < 0.6:
            return f"({a}) / (1 + ABS({b}))"
        if kind < 0.75:
            fn = self.rng.choice(["SIN", "COS", "ATN"])
            return f"{fn}({a})"
        if kind < 0.85:
            return f"SQR(ABS({a}))"
        if kind < 0.92:
            return f"INT({a})"
        return f"LOG(1 + ABS({a}))"

    def bounded(self, e: str) -> str:
        """Keep values in a range where nothing overflows across loops."""
        return f"ATN({e}) * 10"

    # ------------------------------------------------------------------ statements

    def emit(self, text: str) -> None:
        self.lines.append(text)

    def stmt_map(self) -> None:
        a = self.rng.choice(ARRAYS_1D)
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {a}(I) = {self.bounded(self.expr('I'))}")
        self.emit("NEXT I")

    def stmt_stencil(self) -> None:
        src, dst = self.rng.sample(ARRAYS_1D, 2)
        self.emit(f"FOR I = 2 TO {self.n - 1}")
        self.emit(f"LET {dst}(I) = ({src}(I - 1) + {src}(I + 1)) / 2 - {src}(I) * {self.number()}")
        self.emit("NEXT I")

    def stmt_reduce(self) -> None:
        s = self.rng.choice(SCALARS)
        self.emit(f"LET {s} = 0")
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {s} = {s} + {self.expr('I')}")
        self.emit("NEXT I")
        self.emit(f"LET {s} = {self.bounded(s)}")
        self.emit(f'PRINT "SUM"; {s}')

    def stmt_extreme(self) -> None:
        s, j = self.rng.sample(SCALARS, 2)
        a = self.rng.choice(ARRAYS_1D)
        op = self.rng.choice([">", "<"])
        self.emit(f"LET {s} = {a}(1)")
        self.emit(f"LET {j} = 1")
        self.emit(f"FOR I = 2 TO {self.n}")
        self.emit(f"IF {a}(I) {op} {s} THEN {s} = {a}(I) : {j} = I")
        self.emit("NEXT I")
        self.emit(f'PRINT "EXTREME"; {s}; "AT"; {j}')

    def stmt_nest(self) -> None:
        self.emit(f"FOR R = 1 TO {self.m}")
        self.emit(f"FOR K = 1 TO {self.m}")
        self.emit(f"LET {ARRAY_2D}(R, K) = {self.bounded(self.expr('R') + ' * K')}")
        self.emit("NEXT K")
        self.emit("NEXT R")
        self.emit(f'PRINT "M"; {ARRAY_2D}(1, 1); {ARRAY_2D}({self.m}, {self.m})')

    def stmt_triangle(self) -> None:
        """A triangular nest (the inner start or limit is the outer variable), writing a
        row of M per outer iteration."""
        start, limit = self.rng.choice(
            [("R", str(self.m)), ("R + 1", str(self.m)), ("1", "R"), ("R - 1", "R + 1")]
        )
        self.emit(f"FOR R = 1 TO {self.m - 1}")
        self.emit(f"FOR K = {start} TO {limit}")
        self.emit(
            f"LET {ARRAY_2D}(R, K) = {self.bounded(f'{ARRAY_2D}(R, K) * {self.number()} + ' + self.expr('K'))}"
        )
        self.emit("NEXT K")
        self.emit("NEXT R")
        self.emit(f'PRINT "T"; {ARRAY_2D}(1, 2); {ARRAY_2D}({self.m - 1}, {self.m})')

    def stmt_imperfect_nest(self) -> None:
        """A statement before the inner loop (an imperfect nest) and a row write."""
        a = self.rng.choice(ARRAYS_1D)
        self.emit(f"FOR R = 1 TO {self.m}")
        self.emit(f"LET {a}(R) = {self.bounded(self.expr('R'))}")
        self.emit(f"FOR K = 1 TO {self.m}")
        self.emit(f"LET {ARRAY_2D}(R, K) = {self.bounded(f'{a}(R) * K - ' + self.expr('K'))}")
        self.emit("NEXT K")
        self.emit("NEXT R")
        self.emit(f'PRINT "N"; {ARRAY_2D}(2, 1); {a}(3)')

    def stmt_row_sweep(self) -> None:
        """Each row of M swept in place by an inner loop that carries a dependence (the
        outer loop's lanes own whole rows), or each column filled backwards."""
        c = self.number()
        if self.rng.random() < 0.5:
            outer, inner = "R", "K"
            self.emit(f"FOR R = 1 TO {self.m}")
            self.emit(f"FOR K = 2 TO {self.m}")
            previous = f"{ARRAY_2D}(R, K - 1)"
        else:
            outer, inner = "K", "R"
            self.emit(f"FOR K = 0 TO {self.m}")
            self.emit(f"FOR R = {self.m - 1} TO 0 STEP -1")
            previous = f"{ARRAY_2D}(R + 1, K)"
        self.emit(f"LET {ARRAY_2D}(R, K) = {self.bounded(f'{previous} / {c} + ' + self.expr('R'))}")
        self.emit(f"NEXT {inner}")
        self.emit(f"NEXT {outer}")
        self.emit(f'PRINT "W"; {ARRAY_2D}(1, 2); {ARRAY_2D}({self.m}, {self.m})')

    def stmt_distributed(self) -> None:
        """gemm's shape: per row, scale it, then add products over L (the loop is
        distributed, the second nest interchanged); sometimes a triangle (K up to R)."""
        limit = self.rng.choice([str(self.m), "R"])
        c = self.number()
        self.emit(f"FOR R = 1 TO {self.m}")
        self.emit(f"FOR K = 1 TO {limit}")
        self.emit(f"LET {ARRAY_2D}(R, K) = {ARRAY_2D}(R, K) / {c}")
        self.emit("NEXT K")
        self.emit(f"FOR L = 1 TO {self.m}")
        self.emit(f"FOR K = 1 TO {limit}")
        term = self.bounded(f"Q(R, L, K) + {self.expr('K')}")
        self.emit(f"LET {ARRAY_2D}(R, K) = {ARRAY_2D}(R, K) + {term} / {self.m * 10}")
        self.emit("NEXT K")
        self.emit("NEXT L")
        self.emit("NEXT R")
        self.emit(f'PRINT "G"; {ARRAY_2D}(1, 1); {ARRAY_2D}({self.m}, {self.m})')

    def stmt_symmetric(self) -> None:
        """Row and column `row` of M in one loop (covariance's symmetric fill)."""
        row = self.rng.randint(0, self.m)
        self.emit(f"FOR K = 0 TO {self.m}")
        self.emit(f"LET {ARRAY_2D}({row}, K) = {self.bounded(self.expr('K'))}")
        self.emit(f"LET {ARRAY_2D}(K, {row}) = {ARRAY_2D}({row}, K) * {self.number()}")
        self.emit("NEXT K")
        self.emit(f'PRINT "S"; {ARRAY_2D}({row}, 0); {ARRAY_2D}(0, {row})')

    def stmt_constant_row(self) -> None:
        row = self.rng.randint(0, self.m)
        self.emit(f"FOR K = 1 TO {self.m}")
        self.emit(f"LET {ARRAY_2D}({row}, K) = {self.bounded(self.expr('K'))}")
        self.emit("NEXT K")

    def stmt_deep_nest(self) -> None:
        """Three nested parallel loops over a rank-3 array."""
        self.emit(f"FOR R = 1 TO {self.m}")
        self.emit(f"FOR K = 1 TO {self.m}")
        self.emit(f"FOR L = 1 TO {self.m}")
        self.emit(f"LET Q(R, K, L) = {self.bounded(self.expr('L') + ' * R - K')}")
        self.emit("NEXT L")
        self.emit("NEXT K")
        self.emit("NEXT R")
        self.emit(f'PRINT "Q"; Q(1, 2, 3); Q({self.m}, 1, {self.m})')

    def stmt_scan(self) -> None:
        """A first-order linear recurrence, a scan: running sums, P(I) = A * P(I-1) + e,
        running products of factors below 1, forwards or backwards, with a statement
        before it (a private scalar) or after it (reading the new element); or a
        running value kept in a scalar, read after its update and after the loop."""
        if self.rng.random() < 0.3:
            self.scalar_scan()
            return
        a, b, c = self.rng.sample(ARRAYS_1D, 3)
        n = self.n
        backwards = self.rng.random() < 0.3
        previous = f"{a}(I + 1)" if backwards else f"{a}(I - 1)"
        term = f"{b}(I)" if self.rng.random() < 0.5 else self.expr("I")
        form = self.rng.choice(["sum", "sum", "linear", "linear", "prod", "terms"])
        if form == "sum":
            value = f"{previous} + {term}"
        elif form == "terms":
            value = f"{previous} - {term} + {self.leaf('I')}"
        elif form == "linear":
            factor = self.rng.choice(["0.5", "(-0.9)", f"(0.5 + 0.4 * SIN({c}(I)))"])
            value = self.rng.choice(
                [f"{factor} * {previous} + {term}", f"{term} + {previous} * {factor}"]
            )
        else:
            value = f"{previous} * (0.9 + 0.09 * COS({term}))"
        self.emit(f"FOR I = {n - 1} TO 1 STEP -1" if backwards else f"FOR I = 2 TO {n}")
        if self.rng.random() < 0.3:
            s = self.rng.choice(SCALARS)
            self.emit(f"LET {s} = {self.expr('I')}")
            value = f"{value} + {s} / 8"
        self.emit(f"LET {a}(I) = {value}")
        if self.rng.random() < 0.3:
            self.emit(f"LET {c}(I) = {a}(I) / 2")
        self.emit("NEXT I")
        self.emit(f"LET {a}(1) = {self.bounded(f'{a}({n})')}")
        self.emit(f"LET {a}({n}) = {self.bounded(f'{a}(1)')}")

    def scalar_scan(self) -> None:
        s = self.rng.choice(SCALARS)
        a = self.rng.choice(ARRAYS_1D)
        term = self.expr("I")
        update = self.rng.choice(
            [f"{s} + {term}", f"{term} + 0.5 * {s}", f"{s} - {term} + {self.leaf('I')}"]
        )
        backwards = self.rng.random() < 0.3
        self.emit(f"FOR I = {self.n} TO 1 STEP -1" if backwards else f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {s} = {update}")
        self.emit(f"LET {a}(I) = {s} / 2")
        self.emit("NEXT I")
        self.emit(f"LET {s} = {self.bounded(s)}")

    def stmt_sum_of_terms(self) -> None:
        s = self.rng.choice(SCALARS)
        self.emit(f"LET {s} = 0")
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {s} = {s} + {self.expr('I')} - {self.expr('I')}")
        self.emit("NEXT I")
        self.emit(f"LET {s} = {self.bounded(s)}")

    def stmt_carried(self) -> None:
        a = self.rng.choice(ARRAYS_1D)
        self.emit(f"FOR I = 2 TO {self.n}")
        self.emit(f"LET {a}(I) = {self.bounded(f'{a}(I - 1) + {self.leaf()}')}")
        self.emit("NEXT I")

    def stmt_print(self) -> None:
        items = [
            self.rng.choice(SCALARS),
            f"{self.rng.choice(ARRAYS_1D)}({self.rng.randint(1, self.n)})",
        ]
        sep = self.rng.choice([";", ","])
        self.emit(f'PRINT "V"{sep} {items[0]}{sep} {items[1]}')

    def stmt_if(self) -> None:
        s = self.rng.choice(SCALARS)
        self.emit(
            f"IF {self.expr()} > {self.number()} THEN {s} = {self.bounded(self.expr())} ELSE {s} = {self.number()}"
        )

    def stmt_while(self) -> None:
        self.emit("LET W = 0")
        self.emit(f"WHILE W < {self.rng.randint(1, 5)}")
        s = self.rng.choice(SCALARS)
        self.emit(f"LET {s} = {self.bounded(f'{s} + W')}")
        self.emit("LET W = W + 1")
        self.emit("WEND")

    def stmt_gosub(self) -> None:
        label = len(self.subroutines)
        s = self.rng.choice(SCALARS)
        self.subroutines.append([f"LET {s} = {self.bounded(self.expr())}", "RETURN"])
        self.emit(f"GOSUB @SUB{label}")

    def stmt_goto(self) -> None:
        s = self.rng.choice(SCALARS)
        self.emit(f"IF {s} < {self.number()} THEN @SKIP{len(self.lines)}")
        self.emit(f"LET {s} = {self.bounded(self.expr())}")
        self.emit(f'@TARGET{len(self.lines) - 2} PRINT "SKIP"; {s}')

    def stmt_histogram(self) -> None:
        a = self.rng.choice(ARRAYS_1D)
        self.emit("FOR B = 0 TO 9")
        self.emit("LET H(B) = 0")
        self.emit("NEXT B")
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET B = INT(ABS(SIN({a}(I) + I)) * 9.99)")
        self.emit("LET H(B) = H(B) + 1")
        self.emit("NEXT I")
        self.emit('PRINT "H"; H(0); H(5); H(9)')

    # ------------------------------------------------------------------ near misses

    def stmt_zero_trip_inner_loop(self) -> None:
        a, b = self.rng.sample(ARRAYS_1D, 2)
        self.emit(f"LET W = {self.rng.choice([0, 0, 1, 3])}")
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit("LET T = 0")
        self.emit("FOR J = 1 TO W")
        self.emit(f"LET T = T + {a}(J) * I")
        self.emit("NEXT J")
        self.emit(f"LET {b}(I) = {self.bounded(f'T + {a}(I)')}")
        self.emit("NEXT I")

    def stmt_guarded_stencil(self) -> None:
        src, dst = self.rng.sample(ARRAYS_1D, 2)
        self.emit(f"FOR I = 1 TO {self.n}")
        if self.rng.random() < 0.5:  # X(N + 1) does not exist
            self.emit(f"IF I < {self.n} THEN {dst}(I) = {src}(I + 1) - {src}(I)")
        else:  # nor does X(-1)
            self.emit(f"IF I > 1 THEN {dst}(I) = ({src}(I - 2) + {src}(I)) / 2")
        self.emit("NEXT I")

    def stmt_log_or_sqr(self) -> None:
        a, b = self.rng.sample(ARRAYS_1D, 2)
        fn = self.rng.choice(["LOG", "SQR"])
        # Mostly in the domain (by a hair); sometimes not: a fatal error.
        arg = f"ABS({a}(I)) + 0.001" if self.rng.random() < 0.75 else f"{a}(I) + 0.5"
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {b}(I) = {fn}({arg})")
        self.emit("NEXT I")

    def stmt_divide_by_elements(self) -> None:
        a, b = self.rng.sample(ARRAYS_1D, 2)
        self.emit(f"FOR I = 1 TO {self.n}")
        self.emit(f"LET {b}(I) = {self.bounded(f'1 / INT({a}(I) * 2)')}")  # 0 for a in [0, .5)
        self.emit("NEXT I")

    def program(self) -> str:
        self.emit(
            f"DIM X({self.n}), Y({self.n}), Z({self.n}), M({self.m}, {self.m}), H(9), Q({self.m}, {self.m}, {self.m})"
        )
        for s in SCALARS:
            self.emit(f"LET {s} = {self.number()}")
        for a in ARRAYS_1D:
            self.emit(f"FOR I = 1 TO {self.n}")
            self.emit(f"LET {a}(I) = SIN(I * {self.number()})")
            self.emit("NEXT I")
        choices = [
            self.stmt_map,
            self.stmt_stencil,
            self.stmt_reduce,
            self.stmt_extreme,
            self.stmt_nest,
            self.stmt_carried,
            self.stmt_print,
            self.stmt_if,
            self.stmt_while,
            self.stmt_gosub,
            self.stmt_goto,
            self.stmt_histogram,
            self.stmt_triangle,
            self.stmt_imperfect_nest,
            self.stmt_constant_row,
            self.stmt_row_sweep,
            self.stmt_symmetric,
            self.stmt_distributed,
            self.stmt_deep_nest,
            self.stmt_scan,
            self.stmt_sum_of_terms,
        ]
        if self.exceptions:
            choices += [
                self.stmt_zero_trip_inner_loop,
                self.stmt_guarded_stencil,
                self.stmt_log_or_sqr,
                self.stmt_divide_by_elements,
            ]
        for _ in range(self.statements):
            self.rng.choice(choices)()
        for s in SCALARS:
            self.emit(f'PRINT "{s} ="; {s}')
        self.emit(f'PRINT "X"; X(1); X({self.n}); "Y"; Y(2); "Z"; Z({self.n - 1})')
        self.emit("GOTO @END")
        for i, body in enumerate(self.subroutines):
            self.emit(f"@LABEL_SUB{i} " + body[0])
            for line in body[1:]:
                self.emit(line)
        self.emit("@LABEL_END END")
        return self._number()

    def _number(self) -> str:
        """Give every line a number and resolve the @ labels."""
        numbered: list[str] = []
        labels: dict[str, int] = {}
        for i, text in enumerate(self.lines):
            number = 10 * (i + 1)
            if text.startswith("@TARGET"):
                key, _, text = text.partition(" ")
                labels["@SKIP" + key[len("@TARGET") :]] = number
            elif text.startswith("@LABEL_"):
                key, _, text = text.partition(" ")
                labels["@" + key[len("@LABEL_") :]] = number
            numbered.append(f"{number} {text}")
        out = []
        for line in numbered:
            for key in sorted(labels, key=len, reverse=True):
                line = line.replace(key, str(labels[key]))
            out.append(line)
        return "\n".join(out) + "\n"


def random_program(seed: int, statements: int = 12, exceptions: bool = False) -> str:
    return ProgramGenerator(seed, statements, exceptions).program()
