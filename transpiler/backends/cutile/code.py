"""A line of generated Python (or a compound statement with its body), as the statement
printers build it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Code:
    """One line of code, or a compound statement: its header line and its body."""

    text: str
    body: list[Code] | None = None
    braces: bool = True  # (C++'s: Python's blocks have none)

    @property
    def is_comment(self) -> bool:
        return self.text.startswith("#") and self.body is None


def _suite(lines: list[Code]) -> list[Code]:
    """A body Python accepts: `pass` if it has no statement (only comments)."""
    if all(line.is_comment for line in lines):
        return lines + [Code("pass")]
    return lines
