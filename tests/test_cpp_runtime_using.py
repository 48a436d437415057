"""PRINT USING in b2t_runtime.h against the Python runtime (transpiler/runtime/using.py):
thousands of formats, numbers and strings through tests/cpp/runtime_driver.cpp."""

from __future__ import annotations

import random

import pytest

from tests.cpp.harness import d, gxx, runtime_driver, s
from tests.test_cpp_runtime import SPECIAL, check_all, random_doubles

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")

# The characters formats are made of: every field character, and a few literals.
_FORMAT_ALPHABET = "#####.,+-$$**^^^^!&\\\\  _X%é"
FIXED_FORMATS = [
    "##.##", "#,###.##", "+##.##", "##.##-", "**$##.##", "$$###.##", "#.##^^^^", ".##^^^^^",
    "##.##^^^^+", "!", "&", "\\  \\", "A## B##C", "_#_&##", "NO FIELD", "", "#" * 25, "é##é",
    "##.##.##", "$$", "**", "+.#", "\\é\\", "_é!",
]  # fmt: skip


@pytest.fixture(scope="module")
def driver():
    yield from runtime_driver()


def random_format(rng: random.Random) -> str:
    return "".join(rng.choice(_FORMAT_ALPHABET) for _ in range(rng.randrange(1, 14)))


def random_items(rng: random.Random, numbers: list[float]) -> list[str]:
    items = []
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.25:
            items.append(s(rng.choice(["", "A", "HELLO", "é", "xyzzy plugh"])))
        else:
            items.append(d(rng.choice(numbers)))
    return items


def test_print_using_matches_python(driver):
    rng = random.Random(10)
    numbers = SPECIAL + random_doubles(rng, 3000)
    requests = []
    for precision in ("single", "double", "real"):
        for fmt in FIXED_FORMATS:
            for x in SPECIAL:
                requests.append(f"using {precision} {s(fmt)} {d(x)} l")
        for _ in range(6000):
            items = " ".join(random_items(rng, numbers))
            end = rng.choice("ln")
            requests.append(f"using {precision} {s(random_format(rng))} {items} {end}")
    check_all(driver, requests)


def test_print_using_known_texts(driver):
    # Texts checked against GW-BASIC (PC-BASIC 2.0.8), so that a bug shared by both
    # runtimes cannot pass unnoticed.
    cases = [
        ("##.##", 2.675, " 2.68"),
        ("**$##.##", -1.0, "**-$1.00"),
        ("#,###", -1234.0, "%-1,234"),
        ("##", 99.5, "%100"),
        ("###.##-", -5.0, "  5.00-"),
    ]
    for fmt, x, text in cases:
        assert driver.ask(f"using real {s(fmt)} {d(x)} n") == s(text)
