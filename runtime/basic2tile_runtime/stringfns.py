"""Microsoft BASIC's string functions, with GW-BASIC's rules (checked against PC-BASIC).

Strings are Python strs: a character is a code point, so `LEN` counts characters and
`CHR$(n)` for 0..255 is the code point n (Latin-1, not the IBM PC's code page 437).  The
C++ runtime keeps UTF-8 in `std::string` and counts code points the same way.

Numeric arguments are GW-BASIC integers: rounded halves away from zero (2.5 is 3, -0.5 is
-1), and "Overflow" outside -32768..32767 (`to_int16`).  Then a count (LEFT$, RIGHT$,
MID$'s length, SPACE$, STRING$, CHR$'s code) outside 0..255, or a position (MID$'s and
INSTR's start) outside 1..255, is "Illegal function call"; so is `ASC("")`.  A result
longer than 255 characters (a concatenation) is "String too long".  HEX$ and OCT$ take
-32768..65535 (a negative number is its 16-bit two's complement).

`VAL` reads a number as GW-BASIC does: blanks (space, TAB, line feed) are ignored
anywhere, so `VAL(" 1 2")` is 12; `&H`/`&O`/`&` introduce hexadecimal and octal 16-bit
integers; `D` is an exponent letter like `E`; reading stops at the first character that
cannot continue the number (`VAL("12ABC")` is 12, `VAL("ABC")` 0).  The INPUT statement
reads numbers with the same rules, except that such a character makes the reply
invalid (`number_value(text, whole=True)`).

In Microsoft BASIC VAL's value has the type its text would have as a constant
(`val_is_double`): a double with a `D` exponent, a `#`, or more than 7 significant
digits (trailing zeros after the point do not count, a `!` makes it a single), else a
single (an integer too): `VAL("1.2D23")` is a double and prints ` 1.2D+23`.  A single
is rounded to float32 (the nearest, not GW-BASIC's own bits of the digits); beyond
GW-BASIC's range VAL warns "Overflow" and gives the largest single or double with the
sign (`msnumbers.sng`, `dbl`).  Which type the program computes with is decided when it
is translated (passes/check/typecheck.py: the text's type for a constant text); a double is
returned as a `Double`, so that printed as it is (PRINT, STR$, WRITE, PRINT USING) it
has its 16 digits even where the text was known only at run time.

Two deliberate differences from PC-BASIC (whose hexadecimal and octal digits go through
Python's int()): `VAL("&HFFZ")` is 255 here (digits stop at the first other character, as
for decimal numbers), where PC-BASIC says "Illegal function call"; and `HEX$(-32769)` is
"Overflow" (GW-BASIC's range), where PC-BASIC wraps it to "7FFF".
"""

from __future__ import annotations

import math

from .dialect import microsoft
from .faults import BasicFault
from .msformat import Double
from .msnumbers import dbl, sng
from .numformat import number_text

MAX_LENGTH = 255
ILLEGAL_FUNCTION_CALL = "Illegal function call"
OVERFLOW = "Overflow"
STRING_TOO_LONG = "String too long"

_BLANKS = " \t\n"
_SEPARATORS = "\x1c\x1d\x1f"  # ASCII separators make a number 0 (GW-BASIC)
_DIGITS = {8: "01234567", 16: "0123456789ABCDEF"}
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


# --------------------------------------------------------------------------- arguments


def round_half_away(x: float) -> float:
    """`x` rounded to an integer, halves away from zero (exact for every double)."""
    magnitude = abs(x)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:
        whole += 1
    return math.copysign(whole, x)


def to_int16(x: float) -> int:
    """A numeric argument as a GW-BASIC integer; "Overflow" outside -32768..32767."""
    if not -32768.5 < x < 32767.5:  # NaN too
        raise BasicFault(OVERFLOW)
    return int(round_half_away(x))


def _count(x: float) -> int:
    n = to_int16(x)
    if not 0 <= n <= MAX_LENGTH:
        raise BasicFault(ILLEGAL_FUNCTION_CALL)
    return n


def _position(x: float) -> int:
    n = to_int16(x)
    if not 1 <= n <= MAX_LENGTH:
        raise BasicFault(ILLEGAL_FUNCTION_CALL)
    return n


def to_word(x: float) -> int:
    """HEX$, OCT$, TAB and SPC's argument: -32768..65535, as an unsigned 16-bit value."""
    if not -32768.5 < x < 65535.5:
        raise BasicFault(OVERFLOW)
    n = int(round_half_away(x))
    return n + 0x10000 if n < 0 else n


# --------------------------------------------------------------------------- functions


def concat(a: str, b: str) -> str:
    """`A$ + B$`."""
    joined = a + b
    if len(joined) > MAX_LENGTH:
        raise BasicFault(STRING_TOO_LONG)
    return joined


def check_length(text: str) -> None:
    """A string a `+` has just made (the interpreter's `A$ += X`) is at most 255 long."""
    if len(text) > MAX_LENGTH:
        raise BasicFault(STRING_TOO_LONG)


def LEFTS(s: str, n: float) -> str:
    return s[: _count(n)]


def RIGHTS(s: str, n: float) -> str:
    count = _count(n)
    return s[max(len(s) - count, 0) :] if count else ""


def MIDS(s: str, start: float, n: float | None = None) -> str:
    first = _position(start) - 1
    if n is None:
        return s[first:]
    return s[first : first + _count(n)]


def LEN(s: str) -> float:
    return float(len(s))


def ASC(s: str) -> float:
    if not s:
        raise BasicFault(ILLEGAL_FUNCTION_CALL)
    return float(ord(s[0]))


def CHRS(x: float) -> str:
    return chr(_count(x))


def change_codes(text: str) -> list[float]:
    """`CHANGE A$ TO A` (Dartmouth BASIC): the values of A(0), A(1)...: the length of the
    string, then the code of each character."""
    return [float(len(text)), *(float(ord(ch)) for ch in text)]


def change_text(count: float, code_at) -> str:
    """`CHANGE A TO A$`: the string of `count` (A(0)) characters whose codes are
    code_at(1), code_at(2)...; the count and the codes follow CHR$'s rules."""
    return "".join(CHRS(code_at(i)) for i in range(1, _count(count) + 1))


def SPACES(n: float) -> str:
    return " " * _count(n)


def STRINGS(n: float, character: float | str) -> str:
    """STRING$(n, code) or STRING$(n, text): n copies of a character (text's first)."""
    count = _count(n)
    if isinstance(character, str):
        return character[:1] * count
    return chr(_count(character)) * count


def INSTR(a: float | str, b: str, c: str | None = None) -> float:
    """INSTR([start,] text, pattern): the position of `pattern` in `text` from `start`
    (default 1), 0 if absent; an empty pattern is found at `start` if that is inside
    `text`."""
    if c is None:
        start, text, pattern = 1, a, b
    else:
        start, text, pattern = _position(a), b, c
    if not text or start > len(text):
        return 0.0
    return float(text.find(pattern, start - 1) + 1)


def STRS(x: float) -> str:
    """The PRINT text of `x` without the space PRINT puts after it (a `Double`, Microsoft
    BASIC's double, has its 16 digits)."""
    return number_text(x)


def HEXS(x: float) -> str:
    return f"{to_word(x):X}"


def OCTS(x: float) -> str:
    return f"{to_word(x):o}"


def UCASES(s: str) -> str:
    """ASCII letters to upper case (QBasic's UCASE$; other characters unchanged)."""
    return s.translate(_UPPER)


def LTRIMS(s: str) -> str:
    """QBasic's LTRIM$: the string without its leading spaces (only spaces)."""
    return s.lstrip(" ")


def RTRIMS(s: str) -> str:
    """QBasic's RTRIM$: the string without its trailing spaces (only spaces)."""
    return s.rstrip(" ")


def LCASES(s: str) -> str:
    return s.translate(_LOWER)


def VAL(s: str) -> float:
    if microsoft():  # a double keeps its type for PRINT, STR$, WRITE and PRINT USING
        value = number_value(s)
        return Double(dbl(value)) if val_is_double(s) else sng(value)
    value = number_value(s)
    if math.isinf(value):
        raise BasicFault(OVERFLOW)
    return value


def val_is_double(text: str) -> bool:
    """Whether Microsoft BASIC's VAL gives a double for `text`: the type the number at
    its start would have as a constant (see the module docstring)."""
    word = text.lstrip(" \n").upper()
    if word.startswith("&"):
        return False
    significant = trailing_zeros = 0
    point = sign_seen = False
    for c in word:
        if c in _BLANKS:
            continue
        if c in _SEPARATORS:  # the number is 0
            return False
        if not sign_seen:
            sign_seen = True
            if c in "+-":
                continue
        if "0" <= c <= "9":
            if significant or c != "0":
                significant += 1
                trailing_zeros = trailing_zeros + 1 if point and c == "0" else 0
        elif c == ".":  # a second point is ignored, as in GW-BASIC
            point = True
        elif c in "D#":
            return True
        else:  # E, !, or the end of the number
            return c != "!" and significant - trailing_zeros > 7
    return significant - trailing_zeros > 7


def mid_assign(target: str, start: float, n: float | None, value: str) -> str:
    """`MID$(T$, start[, n]) = V$`: T$ with the characters from `start` replaced by those
    of V$ (at most n of them, and never past T$'s end, whose length does not change)."""
    first = _position(start) - 1
    if first >= len(target):
        raise BasicFault(ILLEGAL_FUNCTION_CALL)
    count = len(value) if n is None else min(_count(n), len(value))
    count = min(count, len(target) - first)
    return target[:first] + value[:count] + target[first + count :]


def mid_assign_itself(target: str, start: float, n: float | None) -> str:
    """`MID$(T$, start[, n]) = T$`: GW-BASIC copies character by character from the
    string it is changing, so characters already overwritten are copied again
    (`MID$(A$, 4) = A$` on "12345678" makes "12312312")."""
    first = _position(start) - 1
    if first >= len(target):
        raise BasicFault(ILLEGAL_FUNCTION_CALL)
    count = len(target) if n is None else min(_count(n), len(target))
    count = min(count, len(target) - first)
    chars = list(target)
    for i in range(count):
        chars[first + i] = chars[i]
    return "".join(chars)


# --------------------------------------------------------------------------- numbers in text


def number_value(text: str, whole: bool = False) -> float | None:
    """The number at the start of `text`, read as GW-BASIC's VAL reads it (an infinity if
    it is too large for a double).  `whole`: INPUT's rules, None if a character that
    cannot belong to the number follows it, or a hexadecimal or octal number passes
    &HFFFF."""
    word = text.lstrip(" \n").upper()
    if word.startswith("&"):
        if word.startswith("&H"):
            return _radix(word[2:], 16, whole)
        return _radix(word[2:] if word.startswith("&O") else word[1:], 8, whole)
    return _decimal(word, whole)


def _radix(digits: str, base: int, whole: bool) -> float | None:
    allowed = _DIGITS[base]
    value, i, end = 0, 0, len(digits)
    while i < end and digits[i] in _BLANKS:
        i += 1
    while i < end and digits[i] in allowed:
        value = value * base + allowed.index(digits[i])
        i += 1
    if whole and digits[i:].strip(_BLANKS):
        return None
    if value > 0xFFFF:
        if whole:
            return None
        raise BasicFault(OVERFLOW)
    return float(value - 0x10000 if value > 0x7FFF else value)


def _decimal(word: str, whole: bool) -> float | None:
    mantissa, exponent, scale = 0, 0, 0
    negative = exponent_negative = False
    sign_seen = point = in_exponent = exponent_sign_seen = False
    for c in word:
        if c in _BLANKS:
            continue
        if c in _SEPARATORS:
            return 0.0
        if not sign_seen:
            sign_seen = True
            if c in "+-":
                negative = c == "-"
                continue
        if not in_exponent:
            if "0" <= c <= "9":
                mantissa = mantissa * 10 + ord(c) - 48
                scale -= point
                continue
            if c == ".":
                point = True  # a second point is ignored, as in GW-BASIC
                continue
            if c in "ED":
                in_exponent = True
                continue
            if c in "!#":  # a type suffix ends the number
                break
            if whole:
                return None
            break
        if not exponent_sign_seen:
            exponent_sign_seen = True
            if c in "+-":
                exponent_negative = c == "-"
                continue
        if "0" <= c <= "9":
            exponent = exponent * 10 + ord(c) - 48
            continue
        if whole:
            return None
        break
    if mantissa == 0:
        return 0.0
    scale += -exponent if exponent_negative else exponent
    return float(f"{'-' if negative else ''}{mantissa}e{scale}")
