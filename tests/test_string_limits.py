"""ECMA-55's 18-character string limit (and 72-character INPUT replies) hold only with
--std ecma55; extended BASIC (the default) has no such limits.  Same on every path:
the interpreter, the generated Python and the generated CUDA C++ (CPU device)."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROGRAM = (
    '10 LET A$ = "A LITERAL OF MORE THAN EIGHTEEN CHARACTERS"\n'
    "20 PRINT A$\n30 READ B$\n40 PRINT B$\n50 INPUT C$\n60 PRINT C$\n"
    '70 DATA "A DATUM OF MORE THAN EIGHTEEN CHARACTERS"\n80 END\n'
)
REPLY = "A REPLY OF MORE THAN EIGHTEEN CHARACTERS, AND LONGER THAN SEVENTY-TWO TOO"
MODES = [["--interpret"], ["--run", "--device", "cpu"], ["--run", "--target", "cuda", "--device", "cpu"]]


def _run(tmp_path, *args):
    path = tmp_path / "long.bas"
    path.write_text(PROGRAM)
    command = [sys.executable, "-m", "transpiler", str(path), *args]
    return subprocess.run(command, input=f'"{REPLY}"\n', capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("mode", MODES, ids=["interpreter", "cutile", "cuda"])
def test_extended_basic_has_no_string_length_limit(tmp_path, mode):
    result = _run(tmp_path, *mode)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "A LITERAL OF MORE THAN EIGHTEEN CHARACTERS\n"
        "A DATUM OF MORE THAN EIGHTEEN CHARACTERS\n"
        f"? {REPLY}\n"
    )


@pytest.mark.parametrize("mode", MODES, ids=["interpreter", "cutile", "cuda"])
def test_strict_ecma55_rejects_long_strings(tmp_path, mode):
    result = _run(tmp_path, *mode, "--std", "ecma55")
    assert result.returncode == 1
    assert "string datum contains too many characters" in result.stderr
