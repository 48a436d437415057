"""Building and talking to the C++ test drivers of tests/cpp (g++ only, no GPU).

`compile_cpp` builds a driver once per content (header + source + flags) into a cache
folder shared by pytest-xdist workers; `LineDriver` keeps one driver process running and
exchanges one request line for one reply line, so a test can check thousands of cases
in a second.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CUDA_TEMPLATES = ROOT / "transpiler" / "cpp_runtime"
CPP_DIR = Path(__file__).resolve().parent
CACHE = Path(tempfile.gettempdir()) / "b2t-cpp-test-cache"
CXXFLAGS = ["-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror"]


def gxx() -> str | None:
    return shutil.which("g++")


def compile_cpp(source: Path, headers: list[Path], flags: list[str] | None = None) -> Path:
    """The executable built from `source` with -I transpiler/cpp_runtime, cached by content."""
    flags = CXXFLAGS if flags is None else flags
    digest = hashlib.sha256()
    for path in [source, *headers]:
        digest.update(path.read_bytes())
    digest.update(" ".join(flags).encode())
    exe = CACHE / f"{source.stem}-{digest.hexdigest()[:16]}"
    if exe.exists():
        return exe
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = exe.with_name(f"{exe.name}.{os.getpid()}.tmp")
    command = [gxx() or "g++", *flags, f"-I{CUDA_TEMPLATES}", str(source), "-o", str(partial)]
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"g++ failed:\n{result.stderr}")
    os.replace(partial, exe)  # atomic: another worker may be building the same file
    return exe


class LineDriver:
    """A running driver: `ask(line)` sends one request and returns its reply line."""

    def __init__(self, exe: Path, env: dict[str, str] | None = None):
        self._process = subprocess.Popen(
            [str(exe)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="ascii",
            env=env,
        )

    def ask(self, line: str) -> str:
        assert "\n" not in line
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()
        reply = self._process.stdout.readline()
        if not reply:
            raise RuntimeError(f"driver died on request {line!r}")
        return reply.rstrip("\n")

    def ask_all(self, lines: list[str]) -> list[str]:
        """Many requests at once (faster than `ask` in a loop)."""
        text = "".join(line + "\n" for line in lines)

        def feed() -> None:  # from a thread: both pipes may fill up at once
            self._process.stdin.write(text)
            self._process.stdin.flush()

        writer = threading.Thread(target=feed)
        writer.start()
        replies = [self._process.stdout.readline().rstrip("\n") for _ in lines]
        writer.join()
        return replies

    def close(self) -> None:
        self._process.stdin.close()
        self._process.wait(timeout=10)


def runtime_driver() -> Iterator[LineDriver]:
    """runtime_driver.cpp, built with b2t_runtime.h and running, for the tests of one
    module (its `driver` fixture yields from this); closed after them."""
    process = LineDriver(
        compile_cpp(CPP_DIR / "runtime_driver.cpp", [CUDA_TEMPLATES / "b2t_runtime.h"])
    )
    yield process
    process.close()


# ---- the wire format of runtime_driver.cpp


def d(x: float) -> str:
    """A double as its bits."""
    bits = struct.unpack("<Q", struct.pack("<d", float(x)))[0]
    return f"d{bits:016x}"


def s(text: str) -> str:
    """A string as the hex of its UTF-8 bytes."""
    return "s" + text.encode().hex()


def h(text: str) -> str:
    return text.encode().hex()
