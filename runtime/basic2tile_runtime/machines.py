"""Numbers as the 8-bit machines' Microsoft BASICs print them (--dialect applesoft,
commodore, msx): one row of `MACHINE_NUMBERS` per machine, read by numformat.py
(PRINT, STR$) and console.py (the comma's zones).

Applesoft and Commodore BASIC V2 keep numbers in 5-byte floats (a 32-bit mantissa) and
print them rounded to 9 significant digits (Commodore 64 User's Guide: "when a number is
printed, only nine digits are displayed"; "numbers between 0.01 and 999,999,999 are
printed using standard notation", the others in scientific notation: ``?.009`` prints
``9E-03``, ``?.01`` prints ``.01``, ``?999999998.9`` prints ``999999999`` and
``?999999999.6`` prints ``1E+09``, VIC-20 Programmer's Reference Guide).  The exponent
has a sign and two digits; the mantissa drops its trailing zeros and, with one digit
left, its point (``1E+09``, ``1.23E+17``).  A Commodore writes a space before a number
that is not negative and a cursor-right (a space) after every number; STR$ keeps the
leading space.  Applesoft writes neither space (``PRINT 1;2`` is ``12``) and its STR$
has none.  MSX BASIC's numbers without a suffix are 8-byte BCD doubles of 14 digits,
printed as GW-BASIC prints them (a sign or space before, a space after).

The value printed is an IEEE double (arithmetic is done in double, not in the 40-bit
float), rounded to the machine's digits: in rare cases the last digit differs from the
machine's, whose 32-bit mantissa rounds each operation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MachineNumbers:
    """How one machine prints and converts numbers.  A field left at its default is as
    GW-BASIC does it (but `fatal`: all these machines stop where GW-BASIC warns), so a
    row names only where its machine differs."""

    digits: int  # significant digits printed
    smallest_fixed_exponent: int = -2  # 10**this is the smallest magnitude printed unscaled
    positive_sign: str = " "  # before a number that is not negative
    after: str = " "  # PRINT writes it after every number (STR$ does not)
    zone_width: int = 14  # the comma's zones
    # A number stored into a % variable (or used as one: subscripts, AND, OR) loses its
    # fraction toward minus infinity, as INT does (Applesoft, Commodore: `A% = -7.9` is
    # -8), instead of GW-BASIC's rounding (msnumbers.cint).
    integers_floor: bool = False
    # The number of the screen's leftmost column for TAB and POS: GW-BASIC's 1, the
    # Commodore's 0 (`PRINT TAB(5);"X"` writes 5 spaces before X there, 4 in GW-BASIC).
    first_column: int = 1
    # What INPUT writes to ask for the reply, and whether it writes it after the
    # program's prompt too (Applesoft: `INPUT A` writes "?", `INPUT "AGE";A` only "AGE").
    input_question: str = "? "
    question_after_prompt: bool = True
    # The conditions that GW-BASIC reports and goes on from (msnumbers.py's warnings)
    # but that stop these machines' programs (`?DIVISION BY ZERO ERROR`, `?OVERFLOW
    # ERROR`): faults.warn raises them.
    fatal: frozenset[str] = frozenset(("Division by zero", "Overflow"))


MACHINE_NUMBERS: dict[str, MachineNumbers] = {
    "applesoft": MachineNumbers(
        digits=9,
        positive_sign="",
        after="",
        zone_width=16,
        integers_floor=True,
        input_question="?",
        question_after_prompt=False,
    ),
    "commodore": MachineNumbers(digits=9, zone_width=10, integers_floor=True, first_column=0),
    "msx": MachineNumbers(digits=14),
}


def stops_on(machine: str | None, what: str) -> bool:
    """Whether the condition `what`, a warning in GW-BASIC, stops the machine's program."""
    return machine is not None and what in MACHINE_NUMBERS[machine].fatal


def first_column(machine: str | None) -> int:
    """The number of the leftmost column for TAB and POS (GW-BASIC's 1 for None)."""
    return MACHINE_NUMBERS[machine].first_column if machine is not None else 1


def input_question(machine: str | None, prompt: str | None, question: bool) -> str:
    """What INPUT writes after the program's `prompt` (None: it has none) to ask for the
    reply: GW-BASIC's "? " unless `question` is false (`INPUT "prompt", A`), the
    machine's own otherwise."""
    row = MACHINE_NUMBERS[machine] if machine is not None else None
    mark = row.input_question if row is not None else "? "
    if prompt is None:
        return mark
    if not question or (row is not None and not row.question_after_prompt):
        return ""
    return mark


def machine_number_text(x: float, machine: MachineNumbers) -> str:
    """`x` as the machine prints it, without the space PRINT writes after it (STR$'s text):
    Commodore's `` .333333333``, Applesoft's ``.333333333``, ``-1.5E-03``, ``1E+09``."""
    if x == 0:
        return machine.positive_sign + "0"
    sign = "-" if x < 0 else machine.positive_sign
    mantissa, _, exponent = f"{abs(x):.{machine.digits - 1}e}".partition("e")
    e = int(exponent)
    digits = (mantissa[0] + mantissa[2:]).rstrip("0")
    if machine.smallest_fixed_exponent <= e < 0:
        return f"{sign}.{'0' * (-e - 1)}{digits}"
    if 0 <= e < machine.digits:
        if len(digits) <= e + 1:
            return sign + digits + "0" * (e + 1 - len(digits))
        return f"{sign}{digits[: e + 1]}.{digits[e + 1 :]}"
    point = "." + digits[1:] if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{point}E{'+' if e > 0 else '-'}{abs(e):02d}"
