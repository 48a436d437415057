"""MKI$, MKS$, MKD$ and CVI, CVS, CVD: numbers as the bytes GW-BASIC stores them in, for
the records of random-access files (a string of characters 0 to 255, one per byte).

An integer is 2 bytes, little-endian two's complement.  A single or double is Microsoft
Binary Format: the mantissa's bytes, least significant first (3 for a single, 7 for a
double), its top bit replaced by the sign, then the exponent byte: the value is
0.1mmm... (binary) times 2^(exponent - 128); exponent 0 is zero, whatever the rest.  Our
singles are IEEE float32 and our doubles float64 within MBF's range (msnumbers.py), so
MKS$ and MKD$ are exact; CVD rounds MBF's 56-bit mantissa to our 53 bits (to nearest;
the largest MBF doubles, which would round to 2^127, give the largest double we have),
and CVS rounds a value below 2^-126 to float32's fewer bits there.  PC-BASIC 2.0.8 is
the oracle for the bytes (`tests/test_ms_random_files.py`).
"""

from __future__ import annotations

import math

from .faults import BasicFault
from .msnumbers import DOUBLE_MAX, ILLEGAL_FUNCTION_CALL, cint, sng

_SINGLE_BITS, _DOUBLE_BITS = 24, 56


def _mbf_bytes(x: float, bits: int) -> str:
    """x (within MBF's range) as MBF with a mantissa of `bits` bits."""
    if x == 0.0:
        return "\0" * (bits // 8 + 1)
    fraction, exponent = math.frexp(abs(x))  # 0.5 <= fraction < 1
    mantissa = int(fraction * 2.0**bits)  # exact: x has at most 53 significant bits
    mantissa &= ~(1 << (bits - 1))  # the leading 1 is implicit...
    if x < 0.0:
        mantissa |= 1 << (bits - 1)  # ...its place holds the sign
    data = mantissa.to_bytes(bits // 8, "little") + bytes([exponent + 128])
    return data.decode("latin-1")


def _mbf_value(text: str, bits: int, name: str) -> float:
    """The value of MBF bytes: the first bits // 8 + 1 characters of `text`."""
    size = bits // 8 + 1
    if len(text) < size:
        raise BasicFault(ILLEGAL_FUNCTION_CALL, f"({name} of {len(text)} characters)")
    data = _bytes(text[:size], name)
    exponent = data[-1]
    if exponent == 0:
        return 0.0
    mantissa = int.from_bytes(data[:-1], "little")
    negative = mantissa >> (bits - 1)
    mantissa |= 1 << (bits - 1)
    value = math.ldexp(float(mantissa), exponent - 128 - bits)  # rounds 56 bits to 53
    value = min(value, DOUBLE_MAX)
    return -value if negative else value


def _bytes(text: str, name: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        raise BasicFault(
            ILLEGAL_FUNCTION_CALL, f"({name} of a character beyond CHR$(255))"
        ) from None


def MKIS(x: float) -> str:
    """MKI$(x): CINT(x) as 2 bytes ("Overflow" outside -32768..32767)."""
    return int(cint(x)).to_bytes(2, "little", signed=True).decode("latin-1")


def MKSS(x: float) -> str:
    """MKS$(x): x as a single ("Overflow" beyond its range), 4 bytes."""
    return _mbf_bytes(sng(x), _SINGLE_BITS)


def MKDS(x: float) -> str:
    """MKD$(x): x as 8 bytes."""
    return _mbf_bytes(x, _DOUBLE_BITS)


def CVI(text: str) -> float:
    """CVI(s): the integer of the first 2 bytes of s ("Illegal function call" if shorter)."""
    if len(text) < 2:
        raise BasicFault(ILLEGAL_FUNCTION_CALL, f"(CVI of {len(text)} characters)")
    return float(int.from_bytes(_bytes(text[:2], "CVI"), "little", signed=True))


def CVS(text: str) -> float:
    """CVS(s): the single of the first 4 bytes of s."""
    return sng(_mbf_value(text, _SINGLE_BITS, "CVS"))


def CVD(text: str) -> float:
    """CVD(s): the double of the first 8 bytes of s."""
    return _mbf_value(text, _DOUBLE_BITS, "CVD")
