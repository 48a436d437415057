"""Long runs of comment lines, folded to one line while Ruff's formatter runs.

Ruff's formatter takes time quadratic in the number of comments between two statements
(astral-sh/ruff#17191): 10,000 `REM` lines in a row, each a `# 20 REM ...` line of the
generated module, took 8 s to format.  A run of whole-line comments at one indentation
is laid out as a block (indented as its first line, never reflowed), so `fold` replaces
each long run by one marker comment and `unfold` puts the run back where the formatter
left the marker, at the marker's indentation, with trailing spaces dropped as the
formatter drops them.  Comments that steer the formatter (`# fmt: off`), or that it would
rewrite (`#x`), are never folded (the generated ones are all `# ...`).  Runs shorter
than `LONG_RUN` are left to the formatter (they cost it little), so most modules are
never tokenized here.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

LONG_RUN = 64  # comment lines; the formatter spends well under a millisecond on 64
_MARKER = "# basic2tile-folded-comments "
# `# fmt: off` and the like steer the formatter: never folded.
_PRAGMA = re.compile(r"#\s*(fmt|yapf):")
_OPEN, _CLOSE = ("(", "[", "{"), (")", "]", "}")
_LAYOUT = (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


@dataclass
class Folded:
    code: str
    runs: list[list[str]]  # the comment lines of each run, without their indentation


def fold(code: str, shortest: int = LONG_RUN) -> Folded:
    """`code` with every run of `shortest` or more whole-line comments (consecutive
    lines, one column) replaced by a marker line."""
    lines = io.StringIO(code).readlines()  # the rows of the tokenizer
    if not _has_run(lines, shortest) or _MARKER.strip() in code:
        return Folded(code, [])
    try:
        rows = _whole_line_comments(code)
    except (tokenize.TokenError, SyntaxError):
        return Folded(code, [])  # the formatter reports what is wrong
    out: list[str] = []
    runs: list[list[str]] = []
    row = 0
    while row < len(lines):
        column = rows.get(row)
        end = row + 1
        while column is not None and rows.get(end) == column:
            end += 1
        if end - row < shortest:
            out.extend(lines[row:end])
        else:
            out.append(f"{' ' * column}{_MARKER}{len(runs)}\n")
            runs.append([line.strip() for line in lines[row:end]])  # as the formatter strips
        row = end
    return Folded("".join(out), runs)


def unfold(formatted: str, runs: list[list[str]]) -> str:
    """The formatter's output with each marker line replaced by its run of comments."""
    if not runs:
        return formatted
    out: list[str] = []
    for line in io.StringIO(formatted).readlines():
        text = line.lstrip(" ")
        if text.startswith(_MARKER):
            indent = line[: len(line) - len(text)]
            out.extend(f"{indent}{comment}\n" for comment in runs[int(text[len(_MARKER) :])])
        else:
            out.append(line)
    return "".join(out)


def _has_run(lines: list[str], shortest: int) -> bool:
    """Are there `shortest` lines in a row that look like comments (a cheap test before
    the tokenizer, which takes longer than the formatter)?"""
    count = 0
    for line in lines:
        count = count + 1 if line.lstrip().startswith("#") else 0
        if count >= shortest:
            return True
    return False


def _foldable(comment: str) -> bool:
    """A comment the formatter changes only by dropping trailing spaces (it writes
    `#x` as `# x`), and that does not steer it."""
    text = comment.rstrip()
    return (text == "#" or text.startswith("# ")) and not _PRAGMA.match(text)


def _whole_line_comments(code: str) -> dict[int, int]:
    """0-based row -> column of each foldable comment alone on its line between
    statements (the tokenizer tells them from `#` inside strings; comments inside
    brackets are left to the formatter)."""
    rows: dict[int, int] = {}
    last_row = depth = 0
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        kind = token.type
        if kind == tokenize.COMMENT and token.start[0] != last_row and depth == 0:
            if _foldable(token.string):
                rows[token.start[0] - 1] = token.start[1]
        elif kind == tokenize.OP and token.string in _OPEN:
            depth += 1
        elif kind == tokenize.OP and token.string in _CLOSE:
            depth -= 1
        if kind not in _LAYOUT:
            last_row = token.end[0]
    return rows
