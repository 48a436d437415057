"""b2t_runtime.h against the Python runtime in Microsoft BASIC (--dialect ms): number text,
GW-BASIC's arithmetic and its messages, its RND generator, and PRINT's layout.

The C++ driver (tests/cpp/runtime_driver.cpp) runs each request under
`use_dialect(Dialect::ms)`; tests/cpp/reference.py answers it with the Python runtime in
the same dialect.  Results, warnings and faults must be identical, bit for bit.
"""

from __future__ import annotations

import math
import random

import pytest

from tests.cpp.harness import d, gxx, runtime_driver, s
from tests.test_cpp_runtime import SPECIAL, check_all, random_doubles
from tests.test_cpp_runtime_io import random_text
from transpiler.runtime import use_dialect

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")


@pytest.fixture(scope="module")
def driver():
    yield from runtime_driver()
    use_dialect("extended")


# Values around GW-BASIC's limits: 16-bit integers, rounding ties, its range.
EDGES = [
    32767.0, 32767.4, 32767.5, -32768.0, -32768.4, -32768.5, 65535.0, 0.5, -0.5, 1.5, -1.5,
    1.7014117331926443e38, 1.7014118346046923e38, 3.4e38, 2.0**-128, 2.0**-129, 1e-39,
    8388608.0, 8388607.5, 16777216.0,
]  # fmt: skip


def pool(rng: random.Random, count: int) -> list[float]:
    finite = [x for x in SPECIAL if math.isfinite(x)]
    small = [rng.uniform(-40000, 40000) for _ in range(count)]
    return finite + EDGES + small + [x for x in random_doubles(rng, count) if math.isfinite(x)]


def test_number_text_matches_python(driver):
    rng = random.Random(5)
    values = [x for x in pool(rng, 3000) if abs(x) < 1.7e38]
    requests = [f"msformat single {d(x)}" for x in values]
    requests += [f"msformat double {d(x)}" for x in values]
    check_all(driver, requests)


def test_arithmetic_matches_python(driver):
    rng = random.Random(6)
    values = EDGES + rng.sample(pool(rng, 10), 20)
    unary = ["sng", "dbl", "cint", "fix", "single_result", "bit_not"]
    unary += ["ATN", "COS", "EXP", "LOG", "SIN", "SQR", "TAN"]
    binary = ["single_div", "double_div", "int_div", "int_mod", "bit_and", "bit_or", "bit_xor"]
    binary += ["bit_eqv", "bit_imp", "single_power", "double_power"]
    requests = [f"ms {op} {d(x)}" for op in unary for x in pool(rng, 1000)]
    requests += [f"ms {op} {d(x)} {d(y)}" for op in binary for x in values for y in values]
    exponents = [float(n) for n in range(-12, 13)] + [40.0, -40.0, 127.0]
    requests += [f"ms single_power_int {d(x)} {d(n)}" for x in values for n in exponents]
    check_all(driver, requests)


def test_rnd_matches_python(driver):
    rng = random.Random(7)
    requests = []
    for _ in range(300):
        kind = rng.choice(["int", "single", "double", "none"])
        seed = float(rng.randint(-32768, 32767)) if kind == "int" else rng.uniform(-1e6, 1e6)
        draws = [rng.choice(["-", d(1.0), d(0.0), d(-rng.uniform(0, 100))]) for _ in range(20)]
        requests.append(f"msrnd {d(seed)} {kind} {' '.join(draws)}")
    check_all(driver, requests)


def test_print_layout_matches_python(driver):
    rng = random.Random(8)
    scripts = []
    for _ in range(1500):
        ops = []
        for _ in range(rng.randrange(1, 30)):
            kind = rng.choice("sssnnddzztlf")
            if kind == "s":
                ops.append(f"s:{s(random_text(rng, rng.choice([5, 20, 100, 200])))}")
            elif kind in "nd":
                ops.append(f"{kind}:{d(rng.uniform(-1e6, 1e6) / rng.choice([1, 3, 1e5]))}")
            elif kind == "t":
                ops.append(f"t:{d(rng.uniform(-5, 200))}")
            else:
                ops.append(kind)
        scripts.append("msconsole " + " ".join(ops))
    check_all(driver, scripts)


def test_print_of_control_characters_matches_python(driver):
    """GW-BASIC's screen column after CR, LF, TAB, BS, BEL, home, clear and the cursor
    keys (console.py's `_screen_column`)."""
    rng = random.Random(9)
    alphabet = "AB é\r\n\t\x07\x08\x0b\x0c\x1c\x1d\x1e\x1f\x00"
    scripts = []
    for _ in range(1500):
        ops = []
        for _ in range(rng.randrange(1, 30)):
            kind = rng.choice("sssnzztf")
            if kind == "s":
                length = rng.randrange(rng.choice([3, 20, 90]) + 1)
                ops.append(f"s:{s(''.join(rng.choice(alphabet) for _ in range(length)))}")
            elif kind == "n":
                ops.append(f"n:{d(rng.uniform(-1e6, 1e6))}")
            elif kind == "t":
                ops.append(f"t:{d(rng.uniform(-5, 200))}")
            else:
                ops.append(kind)
        scripts.append("msconsole " + " ".join(ops))
    check_all(driver, scripts)
