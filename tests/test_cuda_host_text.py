"""BASIC text in generated C++: string literals must give the exact bytes, comments must
stay one comment.  Checked by compiling random texts with g++ (trigraphs on, the
strictest reading) and running the result.
"""

from __future__ import annotations

import random
import subprocess

import pytest

from tests.cpp.harness import gxx
from transpiler.backends.cuda.host_text import comment_text, cpp_number, cpp_string

pytestmark = pytest.mark.skipif(gxx() is None, reason="g++ not installed")

ALPHABET = ['"', "\\", "?", "?", "=", "/", "'", "(", ")", "!", "<", ">", "-", "*", "a", "7",
            "F", " ", "\t", "\n", "\r", "\x00", "\x01", "\x1b", "\x7f", "é", "€", "😀",
            "\u2028", "\x85", "x", "0", "9"]  # fmt: skip


def random_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = ["", "??=", "??/", "??/\n", "a??'b", "\\", "\\\\", "*/", "/*", "\x01" + "23", "\x0178"]
    for _ in range(count):
        texts.append("".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, 30))))
    return texts


def compile_and_run(source: str, tmp_path) -> bytes:
    cpp = tmp_path / "t.cpp"
    cpp.write_text(source, encoding="utf-8")
    exe = tmp_path / "t"
    # -trigraphs: even a compiler that reads ??/ as a backslash must see the same text
    command = [gxx(), "-std=c++17", "-trigraphs", "-Werror=trigraphs", str(cpp), "-o", str(exe)]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return subprocess.run([str(exe)], check=True, capture_output=True).stdout


def test_string_literals_give_the_exact_bytes(tmp_path):
    texts = random_texts(1, 400)
    lines = ["#include <cstdio>", "#include <string>", "int main() {"]
    for text in texts:
        size = len(text.encode("utf-8"))
        lines.append(f"  {{ const std::string s({cpp_string(text)}, {size});")
        lines.append("    std::fwrite(s.data(), 1, s.size(), stdout); std::fputc(0xFF, stdout); }")
    lines.append("}")
    output = compile_and_run("\n".join(lines) + "\n", tmp_path)
    pieces = output.split(b"\xff")[:-1]  # 0xFF never occurs in UTF-8
    assert pieces == [t.encode("utf-8") for t in texts]


def test_comments_stay_one_comment(tmp_path):
    # If a comment swallowed the next line (a final backslash, a trigraph ??/) or ended
    # early (*/ in a block comment is not an issue for //, but a newline is), the count
    # would be wrong or the program would not compile.
    texts = random_texts(2, 400)
    lines = ["#include <cstdio>", "int main() {", "  int count = 0;"]
    for text in texts:
        safe = comment_text(text)
        assert "\n" not in safe and "*/" not in safe and "??" not in safe
        lines.append(f"  // {safe}")
        lines.append("  ++count;")
    lines.append('  std::printf("%d", count);')
    lines.append("}")
    output = compile_and_run("\n".join(lines) + "\n", tmp_path)
    assert output == str(len(texts)).encode()


def test_number_literals_are_exact(tmp_path):
    rng = random.Random(3)
    values = [0.0, 0.1, 1e30, 5e-324, 1.7976931348623157e308, 2.5, 1e16, 123456789.0]
    values += [rng.uniform(0, 1) * 10.0 ** rng.randrange(-300, 300) for _ in range(200)]
    lines = ["#include <cstdio>", "int main() {"]
    lines += [f'  std::printf("%a\\n", {cpp_number(v)});' for v in values]
    lines.append("}")
    output = compile_and_run("\n".join(lines) + "\n", tmp_path).decode().split()
    assert [float.fromhex(x) for x in output] == values


def test_infinite_constants_use_the_runtime_name():
    assert cpp_number(float("inf")) == "b2t::INF"
    assert cpp_number(float("-inf")) == "-b2t::INF"
