"""RND and RANDOMIZE: a SplitMix64 generator that a C++ port reproduces bit for bit.

Algorithm (all arithmetic on unsigned 64-bit integers, wrapping modulo 2**64)::

    state = 0x853C49E6748FEA9B                  # at program start (reproducible runs)

    next_u64():
        state = state + 0x9E3779B97F4A7C15
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB
        return z ^ (z >> 31)

    RND = (next_u64() >> 11) * 2**-53           # 53 random bits: 0 <= RND < 1, exact

RANDOMIZE sets `state` to the integer in the environment variable BASIC2TILE_SEED (decimal,
or hexadecimal with 0x) if it is set, else to the current time in nanoseconds, both taken
modulo 2**64.  (bas55 uses a Lehmer generator; RND values are not expected to match it,
only its properties: the NBS RND programs test uniformity, not values.)
"""

from __future__ import annotations

import os
import time

from .faults import BasicFault

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


_generator = SplitMix64()


def RND() -> float:
    """The next pseudo-random number in [0, 1)."""
    return _generator.random()


def RANDOMIZE() -> None:
    _generator.state = randomize_seed()


def reset_rnd(state: int = INITIAL_STATE) -> None:
    """Restart the sequence, as at program start (an interpreter running several programs)."""
    _generator.state = state & _MASK
