"""RND and RANDOMIZE: the generator of each dialect, which a C++ port reproduces bit for bit.

Extended and Dartmouth BASIC (and ECMA-55) use SplitMix64 (all arithmetic on unsigned
64-bit integers, wrapping modulo 2**64)::

    state = 0x853C49E6748FEA9B                  # at program start (reproducible runs)

    next_u64():
        state = state + 0x9E3779B97F4A7C15
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB
        return z ^ (z >> 31)

    RND = (next_u64() >> 11) * 2**-53           # 53 random bits: 0 <= RND < 1, exact

Plain RANDOMIZE sets `state` to the integer in the environment variable BASIC2TILE_SEED
(decimal, or hexadecimal with 0x) if it is set, else to the current time in nanoseconds,
both taken modulo 2**64.  (bas55 uses a Lehmer generator; RND values are not expected to
match it, only its properties: the NBS RND programs test uniformity, not values.)
`RANDOMIZE x` sets `state` to the 64 bits of x as an IEEE double.  `RND(x)` (extended
BASIC) takes Microsoft's argument: x > 0 gives the next number, x = 0 the last one again
(0 before the first), x < 0 restarts the sequence from x (as RANDOMIZE x) and gives its
first number.  Dartmouth BASIC ignores the argument (its RND(X) had a dummy argument).

Microsoft BASIC (--dialect ms) uses GW-BASIC's own generator, so a program draws the same
numbers as under GW-BASIC (PC-BASIC 2.0.8 is the oracle, tests/test_ms_rnd.py).  It is a
linear congruential generator on 24 bits::

    seed = 0x4FC752                              # at program start
    next: seed = (seed * 214013 + 2531011) mod 2**24
    RND = seed / 2**24                           # a single: exact

`RND` and `RND(x)` with x > 0 step it; `RND(0)` gives the current value again; `RND(-x)`
sets seed to the 24-bit mantissa of x as a single (with its leading 1: RND(-1) is
2**23), then steps.  `RANDOMIZE n` mixes n in as GW-BASIC reads the bytes of its value:
the last two bytes of n in GW-BASIC's number format (MBF, `mbf_bytes`), exclusive-ored
with the two before them for a single or a double, as a 16-bit signed integer k; then
seed = seed mod 256, one step, and seed = (seed + k * 0x43FD00) mod 2**24.  So the value
of `RANDOMIZE 1` (an integer constant) differs from `RANDOMIZE 1!` (a single) and from
`RANDOMIZE X` with X = 1.  Plain `RANDOMIZE` asks for the seed on the console, as GW-BASIC
does (`Console.ask_seed`).
"""

from __future__ import annotations

import math
import os
import struct
import time
from array import array

from .dialect import current_dialect, microsoft, on_use_dialect
from .faults import BasicFault

_F32 = array("f", [0.0])

INITIAL_STATE = 0x853C49E6748FEA9B
SEED_VARIABLE = "BASIC2TILE_SEED"
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MASK = 0xFFFFFFFFFFFFFFFF
_UNIT = 2.0**-53


class SplitMix64:
    """The generator; one per program run."""

    __slots__ = ("state",)

    def __init__(self, state: int = INITIAL_STATE):
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = z = (self.state + _GOLDEN_GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self.next_u64() >> 11) * _UNIT


def randomize_seed() -> int:
    """The seed RANDOMIZE uses: $BASIC2TILE_SEED if set, else the time."""
    text = os.environ.get(SEED_VARIABLE, "").strip()
    if not text:
        return time.time_ns() & _MASK
    try:
        return int(text, 16 if text.lower().startswith("0x") else 10) & _MASK
    except ValueError:
        raise BasicFault(f"{SEED_VARIABLE} is not an integer", f"({text})") from None


_SEED_STEP = 0x43FD00
_GW_PERIOD = 1 << 24
_GW_INITIAL = 0x4FC752


def _double_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


class _SplitMixRnd:
    """RND of extended BASIC (Microsoft's argument) and of Dartmouth BASIC (none)."""

    __slots__ = ("generator", "ignores_argument", "last")

    def __init__(self, ignores_argument: bool):
        self.generator = SplitMix64()
        self.ignores_argument = ignores_argument
        self.last = 0.0

    def draw(self, x: float | None) -> float:
        if x is not None and not self.ignores_argument:
            if x == 0.0:
                return self.last
            if x < 0.0:
                self.generator.state = _double_bits(x)
        self.last = self.generator.random()
        return self.last

    def randomize(self, seed: float | None, kind: str) -> None:
        self.generator.state = randomize_seed() if seed is None else _double_bits(seed)


class GwBasicRnd:
    """GW-BASIC's generator (see the module docstring)."""

    __slots__ = ("seed",)

    def __init__(self, seed: int = _GW_INITIAL):
        self.seed = seed

    def step(self) -> None:
        self.seed = (self.seed * 214013 + 2531011) % _GW_PERIOD

    def draw(self, x: float | None) -> float:
        if x is None:
            self.step()
        else:
            _F32[0] = x  # GW-BASIC reads the argument as a single
            x = _F32[0]
            if x < 0.0:
                self.seed = int(math.frexp(-x)[0] * _GW_PERIOD)
            if x != 0.0:
                self.step()
        return self.seed / _GW_PERIOD

    def randomize(self, seed: float | None, kind: str) -> None:
        if seed is None:
            raise ValueError("GW-BASIC's RANDOMIZE asks the console for its seed")
        raw = mbf_bytes(seed, kind)
        low, high = raw[-2], raw[-1]
        if len(raw) >= 4:
            low ^= raw[-4]
            high ^= raw[-3]
        mixed = struct.unpack("<h", bytes((low, high)))[0]
        self.seed &= 0xFF
        self.step()
        self.seed = (self.seed + mixed * _SEED_STEP) % _GW_PERIOD


def mbf_bytes(x: float, kind: str) -> bytes:
    """The bytes of x in GW-BASIC's memory: an "int" as 16-bit two's complement, a "single"
    or a "double" in Microsoft Binary Format (mantissa bytes, low first, the sign in the
    top bit of the last of them, then the exponent byte, 128 + the binary exponent of the
    mantissa read as 0.1xxx; zero is all zero bytes).  Little-endian, as in memory."""
    if kind == "int" and -32768.0 <= x <= 32767.0:
        return struct.pack("<h", int(x))
    size = 7 if kind == "double" else 3  # (an "int" beyond 16 bits: a single)
    if size == 3:
        _F32[0] = x
        x = _F32[0]
    if x == 0.0:
        return bytes(size + 1)
    fraction, exponent = math.frexp(abs(x))
    mantissa = int(fraction * (1 << (8 * size)))  # the top bit is the leading 1 ...
    mantissa &= (1 << (8 * size - 1)) - 1  # ... whose place holds the sign
    if x < 0.0:
        mantissa |= 1 << (8 * size - 1)
    return mantissa.to_bytes(size, "little") + bytes((exponent + 128,))


_generator: _SplitMixRnd | GwBasicRnd = _SplitMixRnd(ignores_argument=False)


def RND(x: float | None = None) -> float:
    """The next pseudo-random number in [0, 1), or what RND(x) gives in the dialect."""
    return _generator.draw(x)


def RANDOMIZE(seed: float | None = None, kind: str = "single") -> None:
    """RANDOMIZE, or RANDOMIZE seed; `kind` is the BASIC type of the seed expression
    ("int", "single" or "double": GW-BASIC mixes in the bytes of its value)."""
    _generator.randomize(seed, kind)


def reset_rnd(state: int = INITIAL_STATE) -> None:
    """Restart the sequence, as at program start (an interpreter running several programs),
    with the generator of the current dialect."""
    global _generator
    dialect = current_dialect()
    if microsoft():
        _generator = GwBasicRnd()
    else:
        _generator = _SplitMixRnd(ignores_argument=dialect == "dartmouth")
        _generator.generator.state = state & _MASK


on_use_dialect(reset_rnd)  # a program's dialect starts its RND sequence
