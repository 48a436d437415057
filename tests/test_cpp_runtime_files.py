"""INPUT #, LINE INPUT #, EOF and LOF of b2t_runtime.h against the Python runtime
(transpiler/runtime/files.py): random file contents read through
tests/cpp/runtime_driver.cpp item by item."""

from __future__ import annotations

import os
import random

import pytest

from tests.cpp.harness import CPP_DIR, CUDA_TEMPLATES, LineDriver, compile_cpp, gxx, s
from tests.cpp.reference import answer

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")

_ALPHABET = ['1', '2', '5', '.', '-', '+', 'E', 'D', 'e', 'A', 'x', ' ', ' ', ',', ',', '\n',
             '\r', '\r\n', '"', '\x1a', 'é', '\t', '\0', 'P' * 200]  # fmt: skip
CONTENTS = [
    "", "1,2,3\n", '"A,B",1.5,-2,"X"\n', "HELLO   1.5 -2 \r\n 3.1\r\n\x1a", "1E400\n", " \n \n",
    '"UNTERMINATED', "12AB 3D2 .5. -.E5 +\n", "LINE ONE\nLINE TWO", '"Q"  ,  X\n',
    "A\0B,\0\"C\",&H10\n\n" + "é" * 300 + "\n" + "Y" * 255 + "\n", '"' + "Q" * 300 + '"',
]  # fmt: skip


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    path = tmp_path_factory.mktemp("files") / "data.txt"
    os.environ["B2T_TEST_FILE"] = str(path)  # the reference reads it too
    exe = compile_cpp(CPP_DIR / "runtime_driver.cpp", [CUDA_TEMPLATES / "b2t_runtime.h"])
    process = LineDriver(exe, env=dict(os.environ))
    yield process
    process.close()
    os.environ.pop("B2T_TEST_FILE", None)


def test_reading_files_matches_python(driver):
    rng = random.Random(20)
    contents = list(CONTENTS)
    for _ in range(3000):
        contents.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 30))))
    for content in contents:
        ops = "".join(rng.choice("NNSSLEZ") for _ in range(rng.randrange(1, 8)))
        for op in ("readfile", "msreadfile"):  # msreadfile: a lone LF is a character
            request = f"{op} {s(content)} {ops}"
            assert driver.ask(request) == answer(request), (content, ops, op)


def test_known_values(driver):
    # GW-BASIC's (PC-BASIC 2.0.8) reading of these files.
    def values(content: str, ops: str) -> str:
        return driver.ask(f"readfile {s(content)} {ops}")

    from tests.cpp.harness import d, h

    assert values('"A,B",1.5,-2,"X"\n', "SNNSE") == " ".join(
        ["", s("A,B"), d(1.5), d(-2.0), s("X"), d(-1.0)]
    )
    assert values("HELLO   1.5 -2 \n", "S") == " " + s("HELLO   1.5 -2")
    assert values('"A,B"\n', "NN") == " ".join(["", d(0.0), d(0.0)])
    assert values("1\n", "NN") == f" {d(1.0)} F{h('Input past end')}"
