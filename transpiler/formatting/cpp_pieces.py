"""Where clang-format may cut a generated C++ file: the line between top-level pieces.

A line the C++ printers write between two top-level pieces of a file (the kernels, the
host part) in place of the blank line there: `cpp.format_cpp` may format the pieces in
separate clang-format processes, side by side.  clang-format lays out a top-level
definition the same whatever precedes it across a blank line (no alignment or
indentation crosses one), so the result is what one process would write for the
file with blank lines there; tests/test_cuda_format.py checks it.  No generated line
can be this one: comments quoting BASIC start with a line number or a statement.
"""

from __future__ import annotations

SPLIT = "// @@b2t: clang-format may split the file here@@"
SPLIT_LINE = SPLIT + "\n"


def join_pieces(pieces: list[str]) -> str:
    """Top-level pieces of C++ one after the other, a blank line (a SPLIT) between each
    two; blank lines at their ends are dropped (clang-format keeps at most one)."""
    kept = [p.strip("\n") + "\n" for p in pieces if p.strip()]
    return SPLIT_LINE.join(kept)
