"""Programs that run every operator and numeric built-in on edge values, for
tests/test_edge_values.py: negative, -0, 0, tiny, huge, infinite and NaN operands.

Legacy BASIC: the values arrive through DATA (special values as codes the program turns
into INF, -INF, NaN and -0 on the host), loops that the offload pass makes kernels apply
each operation to every pair (or value), and host loops print the results: first the
operations whose results are exact in IEEE arithmetic (compared as text), then after a
marker line the transcendental ones and ^ (libm, NumPy and the GPU may differ in the
last bit: compared within --check's tolerance).  Operands that the interpreter rejects
with a fatal error (SQR(-1), LOG(0), (-8) ^ (1/3), SIN(INF)) are left out here; each of
those is a program of its own (`fatal_programs`).

Kernel programs: INPUT arrays of pairs and values, one kernel with an OUTPUT array per
operation, both on whole tiles and element by element (arrays without TILE).
"""

from __future__ import annotations

import math

NAN = math.nan
INF = math.inf

# The edge values: signs, signed zeros, a tiny and a huge magnitude, infinities, NaN.
LEGACY_VALUES = [-7.0, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e-300, 1e300, -1e300, INF, -INF, NAN]
# With --precision f32 (stored values are rounded to float32): a tiny and a huge float32.
LEGACY_F32_VALUES = [-7.0, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e-30, 1e30, -1e30, INF, -INF, NAN]
# DATA cannot spell these: the program maps the codes back (subroutine 9000).
_CODES = {"inf": 90001, "-inf": 90002, "nan": 90003, "-0": 90004}
TRANSCENDENTAL_MARKER = "TRANSCENDENTAL"


def _code(x: float) -> str:
    if math.isnan(x):
        return str(_CODES["nan"])
    if math.isinf(x):
        return str(_CODES["inf" if x > 0 else "-inf"])
    if x == 0.0 and math.copysign(1.0, x) < 0:
        return str(_CODES["-0"])
    return repr(x).upper().replace("E+", "E")


def _is_integral(y: float) -> bool:
    return not math.isnan(y) and (math.isinf(y) or y == int(y))


def power_allowed(x: float, y: float) -> bool:
    """The interpreter's rule: a negative base needs an integral exponent (fatal else)."""
    return not (x < 0 and not _is_integral(y))


def log_allowed(x: float) -> bool:
    return x > 0 or math.isnan(x)


def sqr_allowed(x: float) -> bool:
    return not x < 0


def trig_allowed(x: float) -> bool:
    return not math.isinf(x)


def _padded(values: list[float], n: int) -> list[float]:
    return [values[i % len(values)] for i in range(n)]


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        self.lines.append(f"{10 * (len(self.lines) + 1)} {text}")


def legacy_program(values: list[float] = LEGACY_VALUES) -> str:
    pairs = [(x, y) for x in values for y in values]
    powers = [(x, y) for x, y in pairs if power_allowed(x, y)]
    k = len(values)
    unary_inputs = {
        "V": values,
        "VL": _padded([v for v in values if log_allowed(v)], k),
        "VS": _padded([v for v in values if sqr_allowed(v)], k),
        "VT": _padded([v for v in values if trig_allowed(v)], k),
    }
    n, npow = len(pairs), len(powers)
    w = _Lines()
    w("REM EVERY OPERATOR AND BUILT-IN ON EDGE VALUES")
    w(f"DIM X({n}), Y({n}), SUMS({n}), DIFS({n}), PRODS({n}), QUOTS({n}), MODS({n})")
    w(f"DIM MAXS({n}), MINS({n}), CMPS({n}), P({npow}), Q({npow}), POWS({npow})")
    w(f"DIM V({k}), VL({k}), VS({k}), VT({k}), ABSV({k}), NEGV({k}), INTV({k}), SGNV({k})")
    w(f"DIM SQRV({k}), ATNV({k}), EXPV({k}), LOGV({k}), SINV({k}), COSV({k}), TANV({k})")
    w("LET Z = 0")
    w("LET H = 1E300")
    # The data: READ keeps these loops on the host.
    w(f"FOR I = 1 TO {n}")
    w("READ T : GOSUB 9000 : LET X(I) = T : READ T : GOSUB 9000 : LET Y(I) = T")
    w("NEXT I")
    w(f"FOR I = 1 TO {npow}")
    w("READ T : GOSUB 9000 : LET P(I) = T : READ T : GOSUB 9000 : LET Q(I) = T")
    w("NEXT I")
    for name in unary_inputs:
        w(f"FOR I = 1 TO {k}")
        w(f"READ T : GOSUB 9000 : LET {name}(I) = T")
        w("NEXT I")
    # The kernels.
    w(f"FOR I = 1 TO {n}")
    w("LET SUMS(I) = X(I) + Y(I)")
    w("LET DIFS(I) = X(I) - Y(I)")
    w("LET PRODS(I) = X(I) * Y(I)")
    w("LET QUOTS(I) = X(I) / Y(I)")
    w("LET MODS(I) = X(I) MOD Y(I)")
    w("LET MAXS(I) = MAX(X(I), Y(I))")
    w("LET MINS(I) = MIN(X(I), Y(I))")
    w("LET C = 0")
    for bit, cond in enumerate(
        [
            "X(I) < Y(I)",
            "X(I) <= Y(I)",
            "X(I) > Y(I)",
            "X(I) >= Y(I)",
            "X(I) = Y(I)",
            "X(I) <> Y(I)",
            "X(I) < 1 AND Y(I) > 0",
            "X(I) < 1 OR Y(I) > 0",
            "NOT X(I) < Y(I)",
        ]
    ):
        w(f"IF {cond} THEN C = C + {2 ** bit}")
    w("LET CMPS(I) = C")
    w("NEXT I")
    w(f"FOR I = 1 TO {npow}")
    w("LET POWS(I) = P(I) ^ Q(I)")
    w("NEXT I")
    w(f"FOR I = 1 TO {k}")
    w("LET ABSV(I) = ABS(V(I))")
    w("LET NEGV(I) = -V(I)")
    w("LET INTV(I) = INT(V(I))")
    w("LET SGNV(I) = SGN(V(I))")
    w("LET SQRV(I) = SQR(VS(I))")
    w("LET ATNV(I) = ATN(V(I))")
    w("LET EXPV(I) = EXP(V(I))")
    w("LET LOGV(I) = LOG(VL(I))")
    w("LET SINV(I) = SIN(VT(I))")
    w("LET COSV(I) = COS(VT(I))")
    w("LET TANV(I) = TAN(VT(I))")
    w("NEXT I")
    # The results.  A zero's sign is invisible in PRINT: 1 / it shows it (as INF or -INF).
    w(f"FOR I = 1 TO {n}")
    w('PRINT "PAIR"; I; SUMS(I); DIFS(I); PRODS(I)')
    w("PRINT QUOTS(I); MODS(I); MAXS(I); MINS(I); CMPS(I)")
    w("LET T = SUMS(I) : GOSUB 9100 : LET T = DIFS(I) : GOSUB 9100")
    w("LET T = PRODS(I) : GOSUB 9100 : LET T = QUOTS(I) : GOSUB 9100")
    w("LET T = MODS(I) : GOSUB 9100 : LET T = MAXS(I) : GOSUB 9100 : LET T = MINS(I) : GOSUB 9100")
    w("PRINT")
    w("NEXT I")
    w(f"FOR I = 1 TO {k}")
    w('PRINT "VALUE"; I; ABSV(I); NEGV(I); INTV(I); SGNV(I); SQRV(I)')
    w("LET T = ABSV(I) : GOSUB 9100 : LET T = NEGV(I) : GOSUB 9100")
    w("LET T = INTV(I) : GOSUB 9100 : LET T = SQRV(I) : GOSUB 9100")
    w("PRINT")
    w("NEXT I")
    w(f'PRINT "{TRANSCENDENTAL_MARKER}"')
    w(f"FOR I = 1 TO {npow}")
    w('PRINT "POWER"; I; POWS(I)')
    w("NEXT I")
    w(f"FOR I = 1 TO {k}")
    w('PRINT "FUNCTION"; I; ATNV(I); EXPV(I); LOGV(I)')
    w("PRINT SINV(I); COSV(I); TANV(I)")
    w("NEXT I")
    w("STOP")
    lines = list(w.lines)
    # 9000: a DATA code to its special value; 9100: print the sign of a zero T.
    lines += [
        "9000 REM SPECIAL VALUES",
        f"9010 IF T = {_CODES['inf']} THEN LET T = H * H",
        f"9020 IF T = {_CODES['-inf']} THEN LET T = -(H * H)",
        f"9030 IF T = {_CODES['nan']} THEN LET T = H * H - H * H",
        f"9040 IF T = {_CODES['-0']} THEN LET T = -Z",
        "9050 RETURN",
        '9100 IF T = 0 THEN PRINT "ZERO"; SGN(1 / T);',
        "9110 RETURN",
    ]
    data = [v for pair in pairs for v in pair] + [v for pair in powers for v in pair]
    for inputs in unary_inputs.values():
        data += inputs
    number = 10000
    for i in range(0, len(data), 8):
        lines.append(f"{number} DATA " + ", ".join(_code(v) for v in data[i : i + 8]))
        number += 10
    lines.append(f"{number} END")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- kernel programs

KERNEL_FLOAT_VALUES = [-7.0, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e-30, 1e-40, 1e30, -1e30, INF, -INF, NAN]
KERNEL_INT_VALUES = [-7, -1, 0, 1, 3, 65536, 2**31 - 1, -(2**31)]

# Output array -> expression of X, Y (a pair) or V (a value); the kernel program's exact
# operations (IEEE-exact or integer), then those of libm's kind.
KERNEL_FLOAT_EXACT = {
    "SUMS": "X(@) + Y(@)",
    "DIFS": "X(@) - Y(@)",
    "PRODS": "X(@) * Y(@)",
    "QUOTS": "X(@) / Y(@)",
    "MODS": "X(@) MOD Y(@)",
    "MAXS": "MAX(X(@), Y(@))",
    "MINS": "MIN(X(@), Y(@))",
    "CMPS": "(X(@) < Y(@)) + (X(@) <= Y(@)) * 2 + (X(@) > Y(@)) * 4 + (X(@) >= Y(@)) * 8"
    " + (X(@) = Y(@)) * 16 + (X(@) <> Y(@)) * 32 + (X(@) < 1 AND Y(@) > 0) * 64"
    " + (X(@) < 1 OR Y(@) > 0) * 128 + (NOT X(@) < Y(@)) * 256",
    "ABSV": "ABS(V(@))",
    "NEGV": "-V(@)",
    "INTV": "INT(V(@))",
    "SGNV": "SGN(V(@))",
    "SQRV": "SQR(V(@))",
}
# Reductions of whole tiles (only on tiles): the largest and smallest elements, NaN skipped.
KERNEL_FLOAT_REDUCTIONS = {"TILEMAXS": "MAX(X(@))", "TILEMINS": "MIN(V(@) * Y(@))"}
KERNEL_FLOAT_LIBM = {
    "POWS": "X(@) ^ Y(@)",
    "ATNV": "ATN(V(@))",
    "EXPV": "EXP(V(@))",
    "LOGV": "LOG(V(@))",
    "SINV": "SIN(V(@))",
    "COSV": "COS(V(@))",
    "TANV": "TAN(V(@))",
}
# I32 data: Y never 0 in the divisions (an integer division by zero is undefined).
KERNEL_INT_OPS = {
    "SUMS": "X(@) + Y(@)",
    "DIFS": "X(@) - Y(@)",
    "PRODS": "X(@) * Y(@)",
    "MODS": "X(@) MOD D(@)",
    "DIVS": "INT(X(@) / D(@))",
    "MAXS": "MAX(X(@), Y(@))",
    "MINS": "MIN(X(@), Y(@))",
    "CMPS": "(X(@) < Y(@)) + (X(@) <= Y(@)) * 2 + (X(@) > Y(@)) * 4 + (X(@) >= Y(@)) * 8"
    " + (X(@) = Y(@)) * 16 + (X(@) <> Y(@)) * 32",
    "ABSV": "ABS(X(@))",
    "NEGV": "-X(@)",
    "SGNV": "SGN(X(@))",
    "QUOTS": "X(@) / D(@)",
}


def kernel_program(
    ops: dict[str, str], inputs: list[str], dtype: str | None, tiled: bool, float_outputs=()
) -> str:
    """One kernel computing `ops` element by element on INPUT arrays `inputs` of N
    elements of `dtype` ("I32", or None for the program's float type), as are the
    outputs but `float_outputs`; `tiled`: on 64-element tiles, else one element per block."""
    outputs = list(ops)
    as_type = f" AS {dtype}" if dtype else ""
    lines = [
        "REM EVERY OPERATOR AND BUILT-IN ON EDGE VALUES",
        f"INPUT N, {', '.join(f'{a}()' for a in inputs)}",
        "DIM " + ", ".join(f"{a}(N){as_type}" for a in inputs),
        "DIM " + ", ".join(f"{o}(N){'' if o in float_outputs else as_type}" for o in outputs),
    ]
    if tiled:
        lines.append("TILE " + ", ".join(f"{a}(64)" for a in inputs + outputs))
    lines += [f"LET {o}(BID) = {ops[o].replace('@', 'BID')}" for o in outputs]
    lines.append("OUTPUT " + ", ".join(outputs))
    return "\n".join(f"{10 * (i + 1)} {text}" for i, text in enumerate(lines)) + "\n"


def float_kernel_inputs(values: list[float] = KERNEL_FLOAT_VALUES, dtype=None):
    import numpy as np

    dtype = dtype or np.float32
    pairs = [(x, y) for x in values for y in values]
    n = len(pairs)
    with np.errstate(over="ignore", under="ignore"):
        x = np.array([p[0] for p in pairs], dtype)
        y = np.array([p[1] for p in pairs], dtype)
        v = np.array([values[i % len(values)] for i in range(n)], dtype)
    return n, {"X": x, "Y": y, "V": v}


def int_kernel_inputs(values: list[int] = KERNEL_INT_VALUES):
    import numpy as np

    pairs = [(x, y) for x in values for y in values]
    x = np.array([p[0] for p in pairs], np.int32)
    y = np.array([p[1] for p in pairs], np.int32)
    d = np.where(y == 0, 1, y).astype(np.int32)
    return len(pairs), {"X": x, "Y": y, "D": d}
