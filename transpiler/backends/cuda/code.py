"""A line of generated C++ (or a compound statement with its body), as the statement
printers build it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Code:
    """One line of code, or a compound statement: its head (`for (...)`) and body."""

    text: str
    body: list[Code] | None = None
    braces: bool = True  # `case 1:` bodies of an ON switch go without

    @property
    def is_comment(self) -> bool:
        return self.text.startswith("//") and self.body is None
