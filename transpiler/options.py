"""Options that change what a program means or how it is translated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Std = Literal["extended", "ecma55"]
Precision = Literal["f32", "f64"]


@dataclass(frozen=True, slots=True)
class Options:
    # "ecma55": strict ECMA-55 Minimal BASIC (upper case only, line numbers on every
    # line, LET required, 72-column lines, names of one letter and an optional digit).
    # "extended": the default; accepts the common extensions and cuTile BASIC.
    std: Std = "extended"
    # Element type of numeric variables and arrays.  None: f64 for legacy programs,
    # f32 for cuTile BASIC kernels (NVIDIA's dialect is f32 only).
    precision: Precision | None = None
    # Interpreter guard against runaway programs (None: unlimited).
    max_steps: int | None = None

    @property
    def strict(self) -> bool:
        return self.std == "ecma55"
