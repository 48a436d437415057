"""PRINT USING's formatter (transpiler/runtime/using.py).

Oracle: PC-BASIC 2.0.8 (GW-BASIC 3.23), through tests/pcbasic_oracle.py.  The table
test runs a thousand formats x numbers through it once per session, in single and in
double precision, and compares them with the formatter, then the single-precision
table with the interpreter, the generated Python and the generated C++ (--precision
f32); the known texts below were checked against it the same way and need no oracle.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests import pcbasic_oracle
from transpiler.runtime import BasicFault
from transpiler.runtime.using import (
    DOUBLE,
    REAL,
    SINGLE,
    NumberField,
    UsingWriter,
    decimal_digits,
    parse_format,
)


class _Text:
    """A channel that collects what PRINT USING writes."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write_string(self, text: str) -> None:
        self.parts.append(text)

    def newline(self) -> None:
        self.parts.append("\n")

    @property
    def text(self) -> str:
        return "".join(self.parts)


def using(fmt: str, *items, precision=REAL, end: str = "\n") -> str:
    channel = _Text()
    writer = UsingWriter(channel, fmt, precision)
    for item in items:
        writer.item(item)
    writer.end(end)
    return channel.text.removesuffix("\n")


# (format, items, text): GW-BASIC's output (PC-BASIC), one statement each.
KNOWN = [
    ("##.##", [3.14159], " 3.14"),
    ("##", [123.0], "%123"),
    ("##", [99.5], "%100"),
    ("##", [-5.0, -10.0], "-5%-10"),
    ("####", [2.5, 3.5, -2.5, 0.5], "   3   4  -3   1"),
    ("##.##", [2.675, -0.5], " 2.68-0.50"),
    (".##", [0.5, -0.5], ".50%-.50"),
    ("#.##", [0.5], "0.50"),
    ("+##.##-", [-1.5, 2.5], " -1.50- +2.50-"),
    ("###.##-", [-5.0, 5.0], "  5.00-  5.00 "),
    ("-##", [5.0], "- 5"),
    ("**##", [5.0, -5.0], "***5**-5"),
    ("$$##.##", [5.0, -5.0, 12345.0], "  $5.00 -$5.00%$12345.00"),
    ("**$##.##", [12.5, -1.0], "**$12.50**-$1.00"),
    ("#,###", [1234.0, -1234.0], "1,234%-1,234"),
    ("##,##.#", [12345.6], "%12,345.6"),
    ("###,.##", [1234567.891], "%1,234,567.89"),
    ("##.##^^^^", [12345.0], " 1.23E+04"),
    ("#.##^^^^", [0.0], "0.00E+00"),
    ("+.##^^^^", [-99.0], "-.99E+02"),
    ("!", ["HELLO"], "H"),
    ("!", [""], " "),
    ("\\  \\", ["HELLO"], "HELL"),
    ("\\   \\", ["HI"], "HI   "),
    ("&!", ["AB", "CD"], "ABC"),
    ("[&]", ["A", "B", "C"], "[A][B][C]"),
    ("A## B##C", [1.0], "A 1 B"),
    ("A## B##C", [1.0, 2.0], "A 1 B 2C"),
    ("A## B##C", [1.0, 2.0, 3.0], "A 1 B 2CA 3 B"),
    ("_#_&_!##", [5.0], "#&! 5"),
    ("##_", [5.0], " 5_"),
    ("$ 5 ##", [7.0], "$ 5  7"),
    ("##.##.##", [1.5, 2.5], " 1.50%2.50"),
    ("(###)", [-5.0, 6.0], "( -5)(  6)"),
    ("#^^^", [5.0], "5^^^"),
]


@pytest.mark.parametrize("fmt, items, text", KNOWN)
def test_known_texts(fmt, items, text):
    assert using(fmt, *items) == text


def test_precisions():
    # 7 digits for single precision, 16 for Microsoft's double (with D), 15 for the IEEE
    # doubles of the other dialects, which gives back what a short constant says.
    assert using("#.##########", float(np.float32(2 / 3)), precision=SINGLE) == "0.6666667000"
    assert using("#.##################", 1 / 3, precision=DOUBLE) == "0.333333333333333300"
    assert using("#.##################", 1 / 3, precision=REAL) == "0.333333333333333000"
    assert using("##.##", 9.995, precision=REAL) == "10.00"
    assert using("#.##^^^^", 0.0, precision=DOUBLE) == "0.00D+00"
    assert using("##^^^^", 0.0, precision=DOUBLE) == " 0D+00"  # GW-BASIC's
    assert using("##^^^^", 0.0, precision=SINGLE) == "  E+00"


def test_where_pc_basic_differs():
    # A value whose first significant digit is the one rounded: half away from zero (PC-
    # BASIC prints -0.00 and 0.0 for these); a rounding that carries in E format moves
    # the exponent (PC-BASIC prints 1.00E+00 for 9.995).
    assert using("##.##", -0.005) == "-0.01"
    assert using("#.#", 0.05) == "0.1"
    assert using("##.##^^^^", 9.9951) == " 1.00E+01"


def test_exponent_of_three_digits():
    # ^^^^^ (QBasic's) shows three exponent digits; ^^^^ shows two, or does not fit.
    assert using("##.##^^^^^", 1e10) == " 1.00E+010"
    assert using("+#.##^^^^", 1e100) == "%+1.00E+100"


def test_infinities_and_nan_never_fit():
    assert using("##.##", math.inf, -math.inf, math.nan) == "%INF%-INF%NAN"


def test_errors():
    with pytest.raises(BasicFault, match="Illegal function call"):
        using("")
    with pytest.raises(BasicFault, match="Illegal function call"):
        using("NO FIELD", 1.0)
    with pytest.raises(BasicFault, match="Type mismatch"):
        using("##", "A")
    with pytest.raises(BasicFault, match="Type mismatch"):
        using("&", 5.0)
    with pytest.raises(BasicFault, match="Illegal function call"):
        using("#" * 25, 1.0)
    channel = _Text()
    with pytest.raises(BasicFault):
        UsingWriter(channel, "NO FIELD", REAL)
    assert channel.text == "NO FIELD"  # printed before the error, as GW-BASIC does


def test_end_without_newline():
    assert using("##;", 5.0, end="") == " 5;"


def test_parse_format_pieces():
    pieces = parse_format("X=+$$#,###.##^^^^ !")
    assert pieces[0] == "X="
    field = pieces[1]
    assert isinstance(field, NumberField)
    assert (field.before, field.decimals, field.comma, field.dollar) == (6, 2, True, True)
    assert field.leading_sign and field.exponent == 2 and field.width == 15


# ---------------------------------------------------------------------------- the oracle

ORACLE_FORMATS = [
    "#", "##", "####", "#####.##", "#.#", "##.##", ".##", "#.###", "+##.##", "##.##+", "##.##-",
    "+#.#", "**##", "**##.##", "$$##.##", "**$##.##", "$$#", "**$#", "#,###", "##,###.##", "#,#",
    "###,.##", "#.##^^^^", "##.##^^^^", ".##^^^^", "+.##^^^^", "#^^^^", "##^^^^", "###.^^^^",
    "#.#^^^^-", "+#.##^^^^", "**#.#^^^^", "$$#.##^^^^", "##.", "+.#", "$$.##", "**.##",
    "#.##########", "##,###,###,###", "####.####-", "+$$###.##", "**$#,###.##", "$$#,###.##-",
    "#.##+", "#####,", ".#", "#.",
]  # fmt: skip
ORACLE_VALUES = [
    "0", "1", "-1", "0.5", "-0.5", "0.05", "2.675", "2.665", "123.456", "-123.456", "-9876.543",
    "1E10", "1.5E-5", "-2.5", "3.5", "0.4999", "999999", "1E20", "0.1", "1/3", "2/3", "100",
    "99.5", "-99.5", "5E37",
]  # fmt: skip
CHUNK = 300  # PC-BASIC's 64 KB of program memory


def _value(text: str, single: bool) -> float:
    x = float(text) if "/" not in text else float(text.split("/")[0]) / float(text.split("/")[1])
    return float(np.float32(x)) if single else x


def _literal(text: str, single: bool) -> str:
    """The number as a GW-BASIC constant (D exponents and # for double precision)."""
    if single:
        return text
    if "/" in text:
        a, b = text.split("/")
        return f"{a}#/{b}#"
    return text.replace("E", "D") if "E" in text else text + "#"


def _pcbasic_quirk(fmt: str, x: float, precision) -> str | None:
    """Why PC-BASIC's text differs from GW-BASIC's definition here, or None.

    - A value whose first significant digit is the first one the field drops (0.05 with
      #.#): PC-BASIC does not scale it to round it, and prints 0.0 with a baked-in leading
      zero; it does round 0.5 with # to 1.
    - Rounding that carries into a new digit in E format (9.995 with ##.##^^^^): PC-BASIC
      keeps the old exponent and prints 1.00E+00.
    """
    fields = [p for p in parse_format(fmt) if isinstance(p, NumberField)]
    if not fields or x == 0:
        return None
    field = fields[0]
    _, e10 = decimal_digits(abs(x), precision.digits, precision)
    if not field.exponent and precision.digits + e10 + field.decimals <= 0:
        return "a first significant digit that rounds"
    if field.exponent:
        sign_position = not (field.leading_sign or field.trailing or field.dollar)
        work = min(precision.digits, max(field.before - sign_position, 0) + field.decimals)
        if work and decimal_digits(abs(x), work, precision)[0] >= 10**work:
            return "an E-format rounding that carries"
    return None


@pytest.fixture(scope="module")
def oracle_table():
    if not pcbasic_oracle.AVAILABLE:
        pytest.skip(pcbasic_oracle.SKIP_REASON)
    table = {}
    for single in (True, False):
        cases = [(f, v) for f in ORACLE_FORMATS for v in ORACLE_VALUES]
        lines = [f'PRINT "@@": PRINT USING "{f}"; {_literal(v, single)}' for f, v in cases]
        out = ""
        for k in range(0, len(lines), CHUNK):
            out += pcbasic_oracle.run(pcbasic_oracle.errors_resumed(lines[k : k + CHUNK]))
        texts = [t.removesuffix("\n") for t in out.split("@@\n")[1:]]
        assert len(texts) == len(cases)
        table[single] = dict(zip(cases, texts))
    return table


def _compared(oracle_table, single: bool):
    """The (format, value, GW-BASIC's text) cases of the table that are compared."""
    precision = SINGLE if single else DOUBLE
    for (fmt, value), expected in oracle_table[single].items():
        if single and len(value.replace(".", "").replace("-", "").strip("0")) > 7:
            continue  # GW-BASIC reads such a constant as double precision
        if not _pcbasic_quirk(fmt, _value(value, single), precision):
            yield fmt, value, expected


def test_engines_against_gw_basic(oracle_table, tmp_path):
    """The single-precision table as one program: the interpreter prints GW-BASIC's
    lines, and --check finds the generated Python and C++ print the interpreter's."""
    from tests.test_files import GXX, basic2tile

    cases = list(_compared(oracle_table, True))
    lines = [f'{10 * (n + 1)} PRINT USING "{f}"; {v}' for n, (f, v, _) in enumerate(cases)]
    text = "\n".join(lines) + "\n"
    done = basic2tile(tmp_path, text, "--interpret", "--precision", "f32")
    assert done.returncode == 0, done.stderr
    wrong = [(c, got) for c, got in zip(cases, done.stdout.splitlines()) if c[2] != got]
    assert not wrong and len(done.stdout.splitlines()) == len(cases), wrong[:5]
    for target in ["cutile", "cuda"] if GXX else ["cutile"]:
        done = basic2tile(tmp_path, text, "--check", "--device", "cpu", "--target", target,
                          "--precision", "f32")  # fmt: skip
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr


@pytest.mark.skipif(not pcbasic_oracle.AVAILABLE, reason=pcbasic_oracle.SKIP_REASON)
def test_known_texts_are_gw_basics():
    """KNOWN's texts are PC-BASIC's, for double-precision numbers (whose exponent letter
    is D there)."""

    def literal(item) -> str:
        return f'"{item}"' if isinstance(item, str) else f"{item!r}#"

    lines = [
        f'PRINT "@@": PRINT USING "{fmt}"; {"; ".join(literal(i) for i in items)}'
        for fmt, items, _ in KNOWN
    ]
    printed = pcbasic_oracle.run(pcbasic_oracle.errors_resumed(lines)).split("@@\n")[1:]
    texts = [p.removesuffix("\n").replace("D+", "E+") for p in printed]
    assert texts == [text for _, _, text in KNOWN]


@pytest.mark.parametrize("single", [True, False], ids=["single", "double"])
def test_against_gw_basic(oracle_table, single):
    precision = SINGLE if single else DOUBLE
    cases = list(_compared(oracle_table, single))
    assert len(cases) > 900
    wrong = [
        (fmt, value, expected, got)
        for fmt, value, expected in cases
        if (got := using(fmt, _value(value, single), precision=precision)) != expected
    ]
    assert not wrong, f"{len(wrong)} differ (format, value, GW-BASIC, ours): {wrong[:5]}"
