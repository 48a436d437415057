"""PRINT USING's digits in Microsoft BASIC: GW-BASIC's own decimal conversion.

GW-BASIC converts a number for PRINT USING with the binary algorithm it prints numbers
with (1/3 is .3333334, not .3333333), and converts again with fewer digits where the
field shows fewer than its precision: that second conversion is where it rounds
(transpiler/runtime/using.py, msformat.py).

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23, tests/pcbasic_oracle.py).  The programs' texts
below are what it printed; the tests marked `requires_pcbasic` run it again, and compare
the formatter with PC-BASIC's own on the same binary values, thousands of them.  Every
program runs through the interpreter and both generated targets (interpreted_and_checked).
Where PC-BASIC's text is not a rounding of the value (0.05 with #.# prints 0.0; 9.995 with
##.##^^^^ prints 1.00E+00) ours is (tests/test_runtime_using.py: test_where_pc_basic_differs).
"""

from __future__ import annotations

import random
import struct

import pytest
from transpiler.runtime.using import DOUBLE, SINGLE, NumberField, format_number_field, parse_format

from tests.checking import interpreted_and_checked
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic
from tests.test_ms_numbers import _mbf_double, _mbf_single, _samples

# The examples of issue 25, and singles that do not fit (above 1E7, `%` before them).
EXAMPLES = """\
10 PRINT USING "#.#######";1/3;1/7
20 PRINT USING "#.#########";1/3;2/3;ATN(1);10/7
30 FOR I=1 TO 5: PRINT USING "#.#########";I/7;: NEXT: PRINT
40 PRINT USING "#.######";1/3
50 X=.7297625: PRINT USING "#.#########"; SQR(X*X)
60 PRINT USING "##.####^^^^"; 1/3; 2/3; 1E+12/7
70 PRINT USING "#,###########"; 123456789!; 1E+10/3
80 PRINT USING "####.##"; 1E+10/3; -12345.67
"""
EXAMPLES_OUTPUT = """\
0.33333340.1428572
0.3333334000.6666667000.7853982001.428572000
0.1428572000.2857143000.4285715000.5714286000.714285800
0.333333
0.729762500
 3.3333E-01 6.6667E-01 1.4286E+11
  123,456,8003,333,333,000
%3333333000.00%-12345.67
"""

# Fixed and E fields of every kind, on singles and on doubles (`#`: 16 digits).
_FORMATS = ["#.##", "###,###.##", "+##.###", "##.##-", "**###.##", "$$###.##", "**$##.##",
            "##.##^^^^", "+#.####^^^^", ".###^^^^-", "#.#######", "##.########"]  # fmt: skip


def _fields_program() -> str:
    lines = []
    for n, fmt in enumerate(_FORMATS):
        tiny = "; 5E-08/3" if "^" in fmt else ""
        singles = f"1/3; 2/3; -10/7; 1000/7; 7/100; 123456.7; 1E+12/7{tiny}"
        doubles = f"1/3#; 2/3#; -10#/7; 1000#/7; 7#/100; 123456.7#; 1D+12/7{tiny.replace('E', 'D')}"
        lines.append(f'{20 * n + 10} PRINT USING "{fmt}|"; {singles}')
        lines.append(f'{20 * n + 20} PRINT USING "{fmt}|"; {doubles}')
    return "\n".join(lines) + "\n"


FIELDS = _fields_program()
# PC-BASIC's output (its screen is 80 columns wide: long lines wrap, as ours do).
FIELDS_OUTPUT = """\
0.33|0.67|%-1.43|%142.86|0.07|%123456.70|%142857100000.00|
0.33|0.67|%-1.43|%142.86|0.07|%123456.70|%142857142857.14|
      0.33|      0.67|     -1.43|    142.86|      0.07|123,456.70|
%142,857,100,000.00|
      0.33|      0.67|     -1.43|    142.86|      0.07|123,456.70|
%142,857,142,857.14|
 +0.333| +0.667| -1.429|%+142.857| +0.070|%+123456.700|%+142857100000.000|
 +0.333| +0.667| -1.429|%+142.857| +0.070|%+123456.700|%+142857142857.143|
 0.33 | 0.67 | 1.43-|%142.86 | 0.07 |%123456.70 |%142857100000.00 |
 0.33 | 0.67 | 1.43-|%142.86 | 0.07 |%123456.70 |%142857142857.14 |
****0.33|****0.67|***-1.43|**142.86|****0.07|%123456.70|%142857100000.00|
****0.33|****0.67|***-1.43|**142.86|****0.07|%123456.70|%142857142857.14|
    $.33|    $.67|  -$1.43| $142.86|    $.07|%$123456.70|%$142857100000.00|
    $.33|    $.67|  -$1.43| $142.86|    $.07|%$123456.70|%$142857142857.14|
****$.33|****$.67|**-$1.43|*$142.86|****$.07|%$123456.70|%$142857100000.00|
****$.33|****$.67|**-$1.43|*$142.86|****$.07|%$123456.70|%$142857142857.14|
 3.33E-01| 6.67E-01|-1.43E+00| 1.43E+02| 7.00E-02| 1.23E+05| 1.43E+11| 1.67E-08|

 3.33D-01| 6.67D-01|-1.43D+00| 1.43D+02| 7.00D-02| 1.23D+05| 1.43D+11| 1.67D-08|

+3.3333E-01|+6.6667E-01|-1.4286E+00|+1.4286E+02|+7.0000E-02|+1.2346E+05|
+1.4286E+11|+1.6667E-08|
+3.3333D-01|+6.6667D-01|-1.4286D+00|+1.4286D+02|+7.0000D-02|+1.2346D+05|
+1.4286D+11|+1.6667D-08|
.333E+00 |.667E+00 |.143E+01-|.143E+03 |.700E-01 |.123E+06 |.143E+12 |.167E-07 |

.333D+00 |.667D+00 |.143D+01-|.143D+03 |.700D-01 |.123D+06 |.143D+12 |.167D-07 |

0.3333334|0.6666667|%-1.4285720|%142.8572000|0.0700000|%123456.7000000|
%142857100000.0000000|
0.3333333|0.6666667|%-1.4285714|%142.8571429|0.0700000|%123456.7000000|
%142857142857.1429000|
 0.33333340| 0.66666670|-1.42857200|%142.85720000| 0.07000000|%123456.70000000|
%142857100000.00000000|
 0.33333333| 0.66666667|-1.42857143|%142.85714286| 0.07000000|%123456.70000000|
%142857142857.14290000|
"""

# Integers (singles to PRINT USING), singles of 8 digits and more (their 7 digits, then
# zeros), and VAL's doubles in files, WRITE # and STR$.
WIDE = """\
10 A% = 12345: B% = -32768: C% = 7
20 PRINT USING "#####|"; A%; B%; C%
30 PRINT USING "##.##|"; A%; C%
40 PRINT USING "#.##^^^^|"; A%; B%; C%
50 PRINT USING "###,###|"; 12345678!; 1E+10; 99999999!; 123456.5
60 PRINT USING "#########.#|"; 12345678!; 987654321!; 1E+9/7
70 PRINT USING "##|"; 1E+7; 9.99E+6; 12345678#
80 OPEN "T.TXT" FOR OUTPUT AS #1
90 PRINT #1, VAL("1.2D23"); VAL("1.1"); VAL("12345678")
100 WRITE #1, VAL("1.2D23"), VAL("1.1"), VAL("12345678")
110 PRINT #1, USING "##.##^^^^"; VAL("1.5D20")
120 CLOSE #1
130 OPEN "T.TXT" FOR INPUT AS #1
140 WHILE NOT EOF(1): LINE INPUT #1, L$: PRINT L$: WEND
150 CLOSE #1: KILL "T.TXT"
160 PRINT STR$(VAL("1.2D23")); STR$(VAL("-.5")); STR$(VAL("1.23456789"))
"""
WIDE_OUTPUT = """\
12345|%-32768|    7|
%12345.00| 7.00|
0.12E+05|-.33E+05|0.70E+01|
%12,345,680|%10,000,000,000|%100,000,000|123,457|
 12345680.0|987654300.0|142857100.0|
%10000000|%9990000|%12345678|
 1.2D+23  1.1  12345678 
1.2D+23,1.1,12345678
 1.50D+20
 1.2D+23-.5 1.23456789
"""

PROGRAMS = {
    "examples": (EXAMPLES, EXAMPLES_OUTPUT),
    "fields": (FIELDS, FIELDS_OUTPUT),
    "wide": (WIDE, WIDE_OUTPUT),
}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("precision", [(), ("--precision", "f64")], ids=["f32", "f64"])
def test_programs_print_what_gw_basic_prints(tmp_path, name, precision):
    """Singles print GW-BASIC's digits also when computed in double (--precision f64)."""
    text, output = PROGRAMS[name]
    assert interpreted_and_checked(tmp_path, text, *precision) == output


@requires_pcbasic
@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_against_pcbasic(name):
    text, output = PROGRAMS[name]
    assert pcbasic_output(text) == output


# ------------------------------------------------------------- the formatter, value by value

_SWEEP_FORMATS = ["#", "####", "#.#", "##.##", "#.#######", "#.#########", ".####", "+##.###",
                  "###,###,###.##", "##.##-", "**##.##", "$$####.##", "**$#,###.#", "#.##^^^^",
                  "##.####^^^^", "+.###^^^^", "#^^^^", "###.^^^^-", "#.################",
                  "##.##############^^^^"]  # fmt: skip


def _pcbasic_value(x: float, double: bool):
    from pcbasic.basic.values import numbers, values

    context = values.Values(None, double_math=False)
    kind, bits = (numbers.Double, _mbf_double) if double else (numbers.Single, _mbf_single)
    return kind(None, context).from_bytes(bits(x))


def _pcbasic_quirk(fmt: str, x: float, double: bool) -> bool:
    """Where PC-BASIC's text is not a rounding of the value (see the module docstring),
    by its own conversion: a fixed field whose second conversion has no digit left (the
    first significant digit is the one that rounds), or an E field whose rounding
    carries into a new digit."""
    field = parse_format(fmt)[0]
    assert isinstance(field, NumberField)
    value = _pcbasic_value(abs(x), double)
    if value.is_zero():
        return False
    _, e10 = value.to_decimal(value.digits)
    if not field.exponent:
        return value.digits + e10 + field.decimals <= 0
    sign_position = not (field.leading_sign or field.trailing or field.dollar)
    work = min(value.digits, max(field.before - sign_position, 0) + field.decimals)
    return work > 0 and value.to_decimal(work)[0] >= 10**work


def _pcbasic_text(fmt: str, x: float, double: bool) -> str:
    from pcbasic.basic.base import codestream
    from pcbasic.basic.devices.formatter import NumberField as PcField

    value = _pcbasic_value(x, double)
    return PcField(codestream.CodeStream(fmt.encode())).format(value).decode()


def _near_a_tie(x: float) -> bool:
    """A double whose 16 digits are on a tie, or one unit of the 16th digit from one, at
    some digit a field may round to: ours round the 16 digits (a decimal constant on a
    tie, 2.675#, has GW-BASIC's 56 bits there, ours 53), PC-BASIC its binary value."""
    from transpiler.runtime.msformat import DOUBLE as DOUBLE_FORMAT

    digits = str(DOUBLE_FORMAT.decimal(abs(x))[0])
    return any((digits[k:] + "000").startswith(("5000", "4999")) for k in range(1, 16))


@requires_pcbasic
@pytest.mark.parametrize("double", [False, True], ids=["single", "double"])
def test_the_formatter_is_pcbasic_s_on_the_same_bits(double):
    rng = random.Random(25)
    samples = _samples(2025, 600) + [rng.randint(1, 999) / rng.randint(1, 999) for _ in range(300)]
    precision = DOUBLE if double else SINGLE
    compared = wrong = 0
    failures = []
    for x in samples:
        if not double:
            x = struct.unpack("<f", struct.pack("<f", x))[0]
        for fmt in _SWEEP_FORMATS:
            if _pcbasic_quirk(fmt, x, double) or (double and _near_a_tie(x)):
                continue
            field = parse_format(fmt)[0]
            ours = format_number_field(field, x, precision)
            compared += 1
            if ours != _pcbasic_text(fmt, x, double):
                wrong += 1
                failures.append((fmt, x, _pcbasic_text(fmt, x, double), ours))
    assert compared > 12000
    assert not failures, f"{wrong} of {compared} differ: {failures[:5]}"
