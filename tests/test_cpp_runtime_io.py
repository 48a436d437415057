"""b2t_runtime.h against the Python runtime: PRINT (zones, TAB, margin), INPUT replies and
re-asking, DATA/READ/RESTORE, and array subscripts.

Random scripts of console operations, replies and READ sequences run through the C++
driver (tests/cpp/runtime_driver.cpp) and the Python runtime (tests/cpp/reference.py);
the text written, the values, the notices and the faults must be identical.
"""

from __future__ import annotations

import math
import random

import pytest

from tests.cpp.harness import d, gxx, runtime_driver, s
from tests.cpp.reference import answer
from tests.test_cpp_runtime import check_all

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")


@pytest.fixture(scope="module")
def driver():
    yield from runtime_driver()


NUMBERS = [0.0, -1.0, 1.5, 12345.0, -0.000123, 1e30, 123456789.0, math.inf, -math.inf, math.nan]
TAB_ARGUMENTS = [1.0, 0.4, 0.5, -10.0, 15.0, 16.5, 79.0, 80.0, 81.0, 85.0, 160.6, 1e10, math.nan]


def random_text(rng: random.Random, longest: int) -> str:
    alphabet = "ABC XYZ012.,;\"'-+éü€"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(longest + 1)))


def console_script(rng: random.Random) -> str:
    ops = []
    for _ in range(rng.randrange(1, 30)):
        kind = rng.choice("sssnnnzztlf")
        if kind == "s":
            ops.append(f"s:{s(random_text(rng, rng.choice([5, 20, 100, 200])))}")
        elif kind == "n":
            x = rng.choice(NUMBERS) if rng.random() < 0.3 else rng.uniform(-1e6, 1e6)
            ops.append(f"n:{d(x)}")
        elif kind == "t":
            x = rng.choice(TAB_ARGUMENTS) if rng.random() < 0.5 else rng.uniform(-5, 200)
            ops.append(f"t:{d(x)}")
        else:
            ops.append(kind)
    return "console " + " ".join(ops)


def test_print_sequences_match_python(driver):
    rng = random.Random(11)
    check_all(driver, [console_script(rng) for _ in range(3000)])


def test_print_known_layout(driver):
    # Worked out by hand: a zone after "A" is column 16; TAB(30) is column 29.
    reply = driver.ask(f"console s:{s('A')} z n:{d(-1.5)} t:{d(30)} s:{s('B')} l").split()
    assert reply[0] == s("A" + " " * 15 + "-1.5 " + " " * 8 + "B\n")


def reply_text(rng: random.Random, kinds: str) -> str:
    """A reply that is often right and often wrong in one of the ways inputs.py lists."""
    items = []
    for kind in kinds:
        if rng.random() < 0.75:
            if kind == "N":
                item = rng.choice(["1", "-2.5", "1E5", ".5", "+3.", "1e-400", "1E400", "7 ", " 8"])
            else:
                item = rng.choice(['"HELLO, W"', "abc", "12", " X Y ", '""', "A" * 19, '"Q'])
        else:
            item = rng.choice(["", "#", "A", '"B"', "1 2", "--1", "E5", "1E", "é", "\t", ".", "1,"])
        items.append(item)
    text = rng.choice([",", ", ", " ,"]).join(items)
    if rng.random() < 0.1:
        text += rng.choice([",", " ", ",5", "x" * 80])
    return text


def test_reply_parsing_matches_python(driver):
    rng = random.Random(12)
    requests = []
    for _ in range(4000):
        kinds = "".join(rng.choice("NS") for _ in range(rng.randrange(1, 4)))
        requests.append(f"reply {kinds} {s(reply_text(rng, kinds))}")
    for length in (71, 72, 73):  # the line length limit, counted in characters
        requests += [f"reply S {s('A' * length)}", f"reply N {s('1' * length)}"]
        requests.append(f"reply S {s('é' * length)}")
    check_all(driver, requests)


def test_input_asks_again_like_python(driver):
    rng = random.Random(13)
    requests = []
    for _ in range(1500):
        kinds = "".join(rng.choice("NS") for _ in range(rng.randrange(1, 3)))
        lines = [reply_text(rng, kinds) for _ in range(rng.randrange(0, 4))]
        ending = rng.choice(["\n", "\r\n"])
        stdin = ending.join(lines) + (ending if rng.random() < 0.8 else "")
        prompt = rng.choice(["none", s(""), s("HOW MANY")])
        requests.append(f"input {prompt} {kinds} {s(stdin)}")
    check_all(driver, requests)


def test_input_messages(driver):
    reply = driver.ask(f"input none NN {s('1' + chr(10) + '1, 2' + chr(10))}").split()
    assert reply[:3] == [s("? ? "), d(1.0), d(2.0)]
    assert bytes.fromhex(reply[3][1:]).decode() == "error: insuficient input data"
    assert driver.ask(f"input none N {s('')}") == s("? ") + " F" + b"error on input stream".hex()


def data_items(rng: random.Random) -> list[str]:
    texts = ["1", " 2.5 ", "-3E2", "1E400", "-1E999", "1E-400", "ABC", " X Y ", "", "12A", "A" * 19]
    items = []
    for _ in range(rng.randrange(0, 8)):
        quoted = rng.random() < 0.3
        items.append(("q:" if quoted else "u:") + s(rng.choice(texts)))
    return items


def test_read_and_restore_match_python(driver):
    rng = random.Random(14)
    requests = []
    for _ in range(2000):
        ops = [rng.choice(["n", "n", "s", f"r:{rng.randrange(0, 4)}"]) for _ in range(10)]
        requests.append("data " + " ".join(data_items(rng) + ["--"] + ops))
    check_all(driver, requests)


def test_array_subscripts_match_python(driver):
    rng = random.Random(15)
    bounds = [0.0, 1.0, 3.0, 10.0, 2.4999, 2.5, -1.0, 0.4, math.nan, math.inf, 1e20, 20000.0]
    subscripts = [-1.0, -0.5, -0.6, 0.0, 0.49, 0.5, 1.0, 2.5, 3.49, 3.5, 9.9, 10.4, 10.5, 11.0]
    subscripts += [math.nan, math.inf, -math.inf, 1e300]
    requests = []
    for _ in range(3000):
        rank = rng.choice([1, 2])
        upper = [d(rng.choice(bounds)) for _ in range(rank)]
        groups = [
            " ".join(d(rng.choice(subscripts)) for _ in range(rank))
            for _ in range(rng.randrange(1, 5))
        ]
        requests.append(f"array {rng.choice([0, 1])} {' '.join(upper)} -- {' / '.join(groups)}")
    check_all(driver, requests)


def test_array_fault_text(driver):
    reply = driver.ask(f"array 1 {d(10)} {d(5)} -- {d(11)} {d(2)}").split()
    assert (
        bytes.fromhex(reply[1][1:]).decode() == "subscript out of range A(11,2) [1 to 10, 1 to 5]"
    )
    assert answer(f"array 1 {d(10)} {d(5)} -- {d(11)} {d(2)}").split() == reply
