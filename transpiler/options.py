"""Options that change what a program means or how it is translated."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

# The BASIC dialects (docs/dialects.md): what a program's text means.
Dialect = Literal["ecma55", "extended", "ms", "dartmouth", "qbasic"]
# The 8-bit machines' Microsoft BASICs: each is --dialect ms (their statements and
# run-time rules are GW-BASIC's ancestors') with its own numbers (MACHINE_DIALECTS).
Machine = Literal["applesoft", "commodore", "msx"]
DIALECTS: tuple[str, ...] = (
    "extended", "ecma55", "ms", "dartmouth", "qbasic", "applesoft", "commodore", "msx",
)  # fmt: skip
# The dialects with Microsoft BASIC's numbers, PRINT layout and run-time rules: GW-BASIC
# and QuickBASIC / QBasic (which prints numbers as GW-BASIC does).
MICROSOFT_DIALECTS = frozenset(("ms", "qbasic"))
Precision = Literal["f32", "f64", "tf32"]


@dataclass(frozen=True, slots=True)
class MachineDialect:
    """What an 8-bit machine's BASIC changes in --dialect ms (the runtime's table
    `machines.MACHINE_NUMBERS` says how it prints numbers)."""

    # How many characters of a name count (Applesoft and Commodore: 2; None: all).
    name_chars: int | None
    # What numbers without a suffix are computed in: their 5-byte floats (9 digits) and
    # MSX's 8-byte BCD doubles (14) are closer to an IEEE double than to a float.
    precision: Precision
    # A subscript is INT of its value (`X(1.9)` is X(1)), not GW-BASIC's rounding
    # (passes/check/machine_subscripts.py).
    subscripts_take_int: bool


MACHINE_DIALECTS: dict[str, MachineDialect] = {
    "applesoft": MachineDialect(name_chars=2, precision="f64", subscripts_take_int=True),
    "commodore": MachineDialect(name_chars=2, precision="f64", subscripts_take_int=True),
    "msx": MachineDialect(name_chars=2, precision="f64", subscripts_take_int=False),
}


@dataclass(frozen=True, slots=True)
class Options:
    # The dialect (`--dialect`, alias `--std`).  "ecma55": strict ECMA-55 Minimal BASIC
    # (upper case only, line numbers on every line, LET required, 72-column lines, names
    # of one letter and an optional digit).  "extended": the common extensions and
    # cuTile BASIC.  "ms": Microsoft BASIC (GW-BASIC, MBASIC).  "dartmouth": Dartmouth
    # BASIC.  None: the user did not choose; the program is extended BASIC unless it uses
    # a construct that only one dialect has (`passes/dialect_pins.py`), which pins it.
    std: Dialect | None = None
    # Element type of numeric variables and arrays.  None: f64 for legacy programs,
    # f32 for cuTile BASIC kernels (NVIDIA's dialect is f32 only).  "tf32": f32, with the
    # operands of matrix products rounded to TensorFloat-32 (the tensor cores' format).
    precision: Precision | None = None
    # Interpreter guard against runaway programs (None: unlimited).
    max_steps: int | None = None
    # How many characters of a variable's name count (`--name-chars`; None: all).  2 is
    # Applesoft's and Commodore BASIC's: `SCORE` and `SC` are one variable there
    # (`passes/check/short_names.py`).
    name_chars: int | None = None
    # The 8-bit machine whose BASIC the program is (`--dialect applesoft`, `commodore`,
    # `msx`): `std` is then "ms", and the machine's defaults fill `name_chars` and
    # `precision` where the user gave none (`__post_init__`).
    machine: Machine | None = None

    def __post_init__(self) -> None:
        if self.std in MACHINE_DIALECTS:
            object.__setattr__(self, "machine", self.std)
            object.__setattr__(self, "std", "ms")
        if self.machine is not None:
            defaults = MACHINE_DIALECTS[self.machine]
            if self.name_chars is None:
                object.__setattr__(self, "name_chars", defaults.name_chars)
            if self.precision is None:
                object.__setattr__(self, "precision", defaults.precision)

    @property
    def tf32_products(self) -> bool:
        """Matrix products of f32 tiles take TensorFloat-32 operands (`--precision tf32`)."""
        return self.precision == "tf32"

    @property
    def dialect(self) -> Dialect:
        return self.std or "extended"

    @property
    def strict(self) -> bool:
        return self.std == "ecma55"

    @property
    def microsoft(self) -> bool:
        """Microsoft BASIC's rules where they differ from the others (GW-BASIC, MBASIC:
        numbers, PRINT's layout, INPUT replies, TAB, type mismatches at run time, the
        run-time FOR stack, ON ... GOTO falling through, STOP's message).  QuickBASIC
        (--dialect qbasic) has them too."""
        return self.std in MICROSOFT_DIALECTS

    @property
    def qbasic(self) -> bool:
        """QuickBASIC / QBasic's structured statements (DO, SELECT CASE, CONST...)."""
        return self.std == "qbasic"


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def parse_size(text: str) -> tuple[str, int | float]:
    """`N=1000` (an INPUT scalar of a kernel program) as ("N", 1000); ValueError with the
    reason for anything else.  The value is a finite number; integers stay ints."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not _NAME.fullmatch(name):
        raise ValueError(f"expected NAME=VALUE, e.g. N=1000, not {text!r}")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name}: {value.strip()!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{name}: the value must be a finite number, not {value.strip()}")
    return name.upper(), int(number) if number.is_integer() else number
