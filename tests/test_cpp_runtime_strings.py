"""b2t_runtime.h against the Python runtime: Microsoft's string functions, INPUT replies,
TAB and SPC, LINE INPUT and INKEY$ (stringfns.py, ms_inputs.py, console.py).

The same driver as test_cpp_runtime.py; every case is asked of both runtimes and the
answers (values, faults, notices, text printed) must be identical.  Strings include
non-ASCII characters: the C++ runtime keeps UTF-8 and counts code points.
"""

from __future__ import annotations

import random

import pytest

from tests.cpp.harness import LineDriver, d, gxx, runtime_driver, s
from tests.cpp.reference import answer

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")

TEXTS = ["", "A", "ABC", "HELLO WORLD", "a,b", " x ", "é", "aéb€", "\x00Z", "X" * 255]
NUMBERS = [
    0.0, -0.0, 0.5, 0.49999999999999994, 1.0, 1.5, 2.5, -0.5, -1.0, 3.0, 254.5, 255.0, 255.5,
    256.0, 32767.0, 32767.5, -32768.0, -32768.5, -32769.0, 65535.0, 65535.5, 1e10, -1e10,
    float("inf"), float("nan"),
]  # fmt: skip
VAL_TEXTS = [
    "", " 12", "1 2 3", "12ABC", "1.2.3", "-.5E-1X", "1D2", "1E", "1E+", "  +3", "- 5", "&H1F",
    "&hff", "&HFFFF", "&H7FFF", "&H10000", "&HFFZ", "&H FF", "&O17", "&17", "&O19", "&", "&H",
    "1E400", "-1E400", "1E-400", "0.000", "1,000", "\t5", "\n5", "\r7", "1\x1c2", "12#3",
    "12!3", "--1", "E5", ".", "-", "+", "123456789012345678901234567890", "0" * 40 + "1",
    # a single or a double by the text (stringfns.val_is_double), within GW-BASIC's range
    "1.2D23", "1E39", "-1D39", "12345678", "1.10000000", "123456789!", ".000000012345678",
    "1.1", "1.5#", " 1 2 3 4 5 6 7 8", "1.2.3.4.5.6.7.8", "-1234567.8", "1E-39", "3.4E38",
]  # fmt: skip


@pytest.fixture(scope="module")
def driver():
    yield from runtime_driver()


def check_all(driver: LineDriver, requests: list[str]) -> None:
    got = driver.ask_all(requests)
    wrong = [(r, g, answer(r)) for r, g in zip(requests, got) if g != answer(r)]
    assert not wrong, f"{len(wrong)} of {len(requests)} differ, first: {wrong[:3]}"


def strfn(name: str, *args) -> str:
    return " ".join(["strfn", name, *(s(a) if isinstance(a, str) else d(a) for a in args)])


def test_functions_of_one_argument(driver):
    requests = [strfn(f, t) for f in ("LEN", "ASC", "VAL", "UCASES", "LCASES") for t in TEXTS]
    requests += [strfn("VAL", t) for t in VAL_TEXTS]
    requests += ["ms" + strfn("VAL", t) for t in VAL_TEXTS]  # singles, doubles, Overflow
    requests += [strfn(f, x) for f in ("CHRS", "SPACES", "HEXS", "OCTS", "STRS") for x in NUMBERS]
    check_all(driver, requests)


def test_functions_of_a_string_and_numbers(driver):
    requests = []
    for text in TEXTS:
        for x in NUMBERS:
            requests += [strfn("LEFTS", text, x), strfn("RIGHTS", text, x), strfn("MIDS", text, x)]
            requests += [strfn("MIDS", text, x, 2.0), strfn("MIDS", text, 2.0, x)]
            requests += [strfn("STRINGS", x, text), strfn("STRINGS", 3.0, x)]
            requests += [strfn("INSTR", x, text, "B"), strfn("mid_assign", text, x, "QQ")]
            requests += [strfn("mid_assign", text, 1.0, x, "QQ")]
    check_all(driver, requests)


def test_instr_and_concatenation(driver):
    requests = []
    for text in TEXTS:
        for pattern in TEXTS:
            requests += [strfn("INSTR", text, pattern), strfn("concat", text, pattern)]
            requests += [strfn("INSTR", 2.0, text, pattern)]
    check_all(driver, requests)


def test_random_calls(driver):
    rng = random.Random(2026)
    alphabet = 'AB é,"x0.E&H-+ '
    requests = []
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        x = rng.choice([rng.uniform(-3, 300), float(rng.randrange(-2, 20)), rng.choice(NUMBERS)])
        name = rng.choice(["LEFTS", "RIGHTS", "MIDS", "VAL", "INSTR", "mid_assign", "LEN"])
        if name in ("VAL", "LEN"):
            requests.append(strfn(name, text))
        elif name == "INSTR":
            requests.append(strfn(name, x, text, text[1:3]))
        elif name == "mid_assign":
            requests.append(strfn(name, text, x, rng.uniform(-1, 6), text[::-1]))
        else:
            requests.append(strfn(name, text, x))
    check_all(driver, requests)


REPLIES = [
    "", " ", "1", "1,2", "1 2", "1,", ",1", "12abc", "--1", "-", ".", "1e3", "&H10", "&H10000",
    "1E400", "-1E400", '"ab"cd', '"a,b" , c d ', "  hello world  ", 'a"b', '"unterminated',
    "x\x00y", '"", ""', "1,,2", "é, ü ", "1.5.5", " 3 ", "a" * 300, '"' + "b" * 300 + '"',
]  # fmt: skip


@pytest.mark.parametrize("kinds", ["N", "S", "NN", "SN", "SSS"])
def test_microsoft_input_replies(driver, kinds):
    check_all(driver, [f"msreply {kinds} {s(reply)}" for reply in REPLIES])


def test_microsoft_input_asks_again_and_prompts(driver):
    requests = []
    for prompt in ("none", s("NAME"), s("")):
        for question in "01":
            for stay in "01":
                for stdin in ("1,x\n3,4\n", "5\n", "", "1\n", "x\n"):
                    requests.append(f"msinput {prompt} NN {s(stdin)} {question} {stay}")
    check_all(driver, requests)


def test_tab_and_spc_with_microsoft_rules(driver):
    requests = []
    for x in NUMBERS + [-1.0, -2.0, 79.0, 80.0, 81.0, 160.5, 200.0]:
        for before in ("", s("A" * 10), s("B" * 78)):
            lead = f"s:{before} " if before else ""
            requests.append(f"msconsole {lead}t:{d(x)} s:{s('X')} f")
            requests.append(f"msconsole {lead}p:{d(x)} s:{s('X')} f")
    check_all(driver, requests)


def test_inkey_and_line_input(driver):
    requests = []
    for stdin in ("", "AB\n", "é\r\nX", "x\ry\n", "a" * 300 + "\n", "\n\n"):
        for count in (0, 1, 3):
            for prompt in ("none", s("LINE? ")):
                requests.append(f"keys {s(stdin)} {count} {prompt}")
    check_all(driver, requests)
