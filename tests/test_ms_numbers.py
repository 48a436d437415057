"""Microsoft BASIC numbers (--dialect ms): GW-BASIC's types, arithmetic and PRINT text.

Oracle: PC-BASIC 2.0.8 (a GW-BASIC emulator, tests/pcbasic_oracle.py).  The tests marked
`requires_pcbasic` run it; the others hold what it printed for the same programs (noted
where they do), so that they keep their teeth without it.  Every program also runs
through the generated cuTile Python and CUDA C++ (on the CPU), which must agree with the
interpreter exactly: stdout, warnings and errors.
"""

from __future__ import annotations

import math
import random
import struct

import pytest
from transpiler.runtime.msformat import format_double, format_single, single_constant

from tests.checking import TARGETS
from tests.differential import Run, compare_runs, interpret
from tests.pcbasic_oracle import pcbasic_output, requires_pcbasic
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.runtime import msnumbers

# Generated CUDA runs on the CPU through g++ and the emulation header.


def analysed(text: str, precision: str | None = None):
    return driver.front_end(SourceFile("m.bas", text), Options(std="ms", precision=precision))


def run_everywhere(text: str, precision: str | None = None, offload: bool = True):
    """The interpreter's run, after checking that both generated programs agree with it:
    stdout exactly, the exit status, the warnings and the error."""
    analysis = analysed(text, precision)
    reference = interpret(analysis)
    for target in TARGETS:
        code = driver.generate(analysis, target, offload=offload)
        result = driver.run(analysis, code, target, "cpu", stdin="")
        generated = Run(result.returncode, result.stdout, result.stderr)
        assert generated.stdout == reference.stdout, target
        assert not compare_runs(reference, generated, target, analysis.number_type, analysis)
    return reference


def warnings_of(run) -> list[str]:
    return [
        line.split("warning: ", 1)[1] for line in run.stderr.splitlines() if "warning: " in line
    ]


# --------------------------------------------------------------------------- PRINT text


def _mbf_single(x: float) -> bytes:
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    sign, exponent, mantissa = bits >> 31, (bits >> 23) & 0xFF, bits & 0x7FFFFF
    return struct.pack("<I", mantissa | (sign << 23))[:3] + bytes([exponent + 2])


def _mbf_double(x: float) -> bytes:
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    sign, exponent, mantissa = bits >> 63, (bits >> 52) & 0x7FF, bits & ((1 << 52) - 1)
    return struct.pack("<Q", (mantissa << 3) | (sign << 55))[:7] + bytes([exponent - 1023 + 129])


def _samples(seed: int, count: int) -> list[float]:
    rng = random.Random(seed)
    values = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.3:
            x = rng.uniform(-1e6, 1e6)
        elif kind < 0.6:
            x = math.copysign(10 ** rng.uniform(-37, 37), rng.random() - 0.5)
        elif kind < 0.8:
            x = rng.randint(-(10**8), 10**8) / 10 ** rng.randint(0, 9)
        else:
            x = 10.0 ** rng.randint(-37, 37) * rng.choice([1, 1.5, 2, 9.999999, 0.5, 1 / 3])
        values.append(x)
    return values


@requires_pcbasic
def test_number_text_is_pcbasic_s_for_singles_and_doubles():
    # PC-BASIC's own conversion of the same binary values (its MBF numbers carry the
    # same mantissa bits as our float32 and float64).
    from pcbasic.basic.values import numbers, values

    context = values.Values(None, double_math=False)
    for x in _samples(2026, 4000):
        single = struct.unpack("<f", struct.pack("<f", x))[0]
        want = numbers.Single(None, context).from_bytes(_mbf_single(single))
        _same_text(format_single(single), want, single)
        want = numbers.Double(None, context).from_bytes(_mbf_double(x))
        _same_text(format_double(x), want, x)


@requires_pcbasic
def test_single_constants_take_the_bits_pcbasic_gives_them():
    # About one decimal constant in 80 is not the float32 nearest to its value.
    from pcbasic.basic.values import numbers, values

    context = values.Values(None, double_math=False)
    rng = random.Random(2027)
    for _ in range(5000):
        digits = rng.randint(1, 7)
        text = f"{rng.randint(10 ** (digits - 1), 10**digits - 1)}E{rng.randint(-12, 12)}"
        _, mantissa, exponent = numbers.str_to_decimal(text.encode())
        want = numbers.Single(None, context).from_decimal(mantissa, exponent).to_value()
        assert single_constant(text) == want, text


def _same_text(ours: str, want, x: float) -> None:
    """Our text is PC-BASIC's, except where PC-BASIC's rounding carries its mantissa to
    10^D (a value just under a power of ten, such as the double nearest 1E-16): PC-BASIC
    then prints a number ten times too small (1D-17).  Ours prints the power of ten the
    value rounds to, as PC-BASIC does for the same constants read from a program
    (PROGRAMS["powers of ten"])."""
    mantissa, _ = want.to_decimal(want.digits)
    if abs(mantissa) < 10**want.digits:
        assert ours == want.to_str(True, False).decode(), x
    else:
        assert float(ours.replace("D", "E")) == pytest.approx(x, rel=1e-6), x


def test_a_value_that_rounds_up_to_a_power_of_ten_prints_that_power():
    # The double nearest 1E-16 is 9.99999999999999979E-17 (PC-BASIC prints 1D-17).
    assert format_double(1e-16) == " .0000000000000001"
    assert format_double(1e-6) == " .000001"
    assert format_double(1e28) == " 1D+28"
    assert format_single(1e-7) == " .0000001"


@pytest.mark.parametrize(
    "value, text",
    [
        # PC-BASIC 2.0.8's PRINT text of these singles (GW-BASIC's decimal conversion:
        # 1/3 is .3333334, not the correctly rounded .3333333).
        (1 / 3, " .3333334"),
        (2 / 3, " .6666667"),
        (1e10, " 1E+10"),
        (1234567.0, " 1234567"),
        (12345678.0, " 1.234568E+07"),
        (1.5e-7, " 1.5E-07"),
        (1.5e-6, " .0000015"),
        (1e-7, " .0000001"),
        (-0.5, "-.5"),
        (0.0, " 0"),
        (msnumbers.SINGLE_MAX, " 1.701412E+38"),
    ],
)
def test_single_text(value, text):
    assert format_single(value) == text


@pytest.mark.parametrize(
    "value, text",
    [(1 / 3, " .3333333333333333"), (123456789.0, " 123456789"), (1e16, " 1D+16")],
)
def test_double_text(value, text):
    assert format_double(value) == text


# --------------------------------------------------------------------------- programs

PROGRAMS = {
    "arithmetic": (
        "10 PRINT 32767+1, 1/3, 2/3, 100000*3, 1E10\n"
        "20 PRINT 123456789, 1234567, 12345678, .1+.2, 1.5E-10\n"
        "30 PRINT 1/7#, 123456789#, 1D10, 1/4#\n"
        "40 FOR I = -9 TO 9 STEP 3\n"
        "50 PRINT I; 10^I; 1.234567*10^I; -1/3*10^I; 10#^I\n"
        "60 NEXT I\n"
    ),
    "integers": (
        "10 PRINT CINT(2.5); CINT(3.5); CINT(-2.5); CINT(-.5); FIX(-2.7); INT(-2.7)\n"
        "20 A%=2.5: B%=-2.5: C%=32767.4: PRINT A%; B%; C%\n"
        "30 PRINT 7 MOD 3; -7 MOD 3; 7.6 MOD 3; 7 MOD -3; -7.5 MOD 2\n"
        "40 PRINT -7\\2; 7.6\\2; 7\\-2; 200*200; 32767*32767\n"
        "50 PRINT 5 AND 3; 5 OR 3; 5 XOR 3; NOT 5; 5 EQV 3; 5 IMP 3; -1 AND 255\n"
        "60 PRINT &H1F; &O17; &17; &HFFFF; &H8000; 1000!; 35660#; 12%\n"
        "70 PRINT 3>2; 2>3; NOT 0; (1=1)+(2=2)\n"
    ),
    "types": (
        "10 DEFINT I-N: DEFDBL D: DEFSTR S\n"
        '20 I = 7.7: D = 1/3#: S = "TEXT": X = 1/3\n'
        "30 PRINT I; I%; D; D#; S; S$; X; X!\n"
        "40 X# = 1/3: Y# = 1/3#: PRINT X#; Y#; CDBL(1/3); CSNG(Y#)\n"
        "50 PRINT SQR(2); SQR(2#); ATN(1)*4; EXP(1); LOG(10); SIN(1); 2^.5; 10^-11\n"
    ),
    # A user function's type is the letter after FN (DEFDBL F makes FNF a double).
    "function types": (
        "10 DEFDBL F: DEFINT K: DEFSTR S\n"
        "20 DEF FNF(X#) = X# / 3: DEF FNG(X#) = X# / 3: DEF FNK(X) = X / 3\n"
        '30 DEF FNS(X) = STR$(X) + "!": DEF FNG#(X#) = X# / 3\n'
        "40 PRINT FNF(1#); FNG(1#); FNG#(1#); FNK(7); FNS(2)\n"
    ),
    # Powers of ten whose mantissa rounds up to 10^D: one decade more, not a digit less.
    "powers of ten": (
        "10 X#=1D-06:PRINT X#;1D-20;1#/1000000#;STR$(X#)\n"
        "20 PRINT 1D+28; 1D-16; 1D-7; 1D-11; 1D-12; 1D-19; 1D-29; 1D-38\n"
        "30 PRINT 1D+31; 1D+33; 1D+35; 1D+37; 1D+38\n"
        "40 PRINT 1E-06; 1E-20; 1E+28; 1E-7; 1E-11; 1E+37\n"
    ),
    # Constants whose GW-BASIC bits are not the nearest float32's (3.14159, .017).
    "constant bits": ("10 PRINT 3.154-3.14159\n20 X=.017:PRINT X*1000-17; .0746 - .07459\n"),
    # Constants beyond GW-BASIC's range overflow when the line is read, doubles too.
    "constants out of range": (
        "10 PRINT 1E+39/1E+38\n20 PRINT 1D+39/1D+38\n30 X#=1D+39:PRINT X#\n"
    ),
    # READ takes GW-BASIC's constants from DATA; an empty item is "" or 0.
    "data items": (
        '10 READ A,B$,C:PRINT A;"[";B$;"]";C\n'
        "20 DATA 1,,3\n"
        "30 READ A,B%,C#,D,E,F$\n"
        "40 DATA &H1F,&O17, 1.5D3 ,1 2,\n"
        '50 PRINT A;B%;C#;D;E;"[";F$;"]"\n'
        "60 DATA\n"
    ),
    # One exception per PRINT, first: GW-BASIC writes its message where the cursor is.
    "exceptions": (
        "10 PRINT 1E38*10\n"
        "20 X = -1E38: X = X * 2: PRINT X\n"
        "30 PRINT 1/0: PRINT -1/0: PRINT 0/0: PRINT 5\\0: PRINT -5 MOD 0\n"
        "40 PRINT 0^-1: PRINT 2^127: PRINT EXP(100): PRINT -2^127\n"
        "50 PRINT 1E-39; 1E-38*1E-5\n"
    ),
    # VAL has the type its text has as a constant (a D exponent or more than 7 digits: a
    # double); a VAL stored whole into a variable keeps a double text's digits.
    "val": (
        '10 PRINT VAL("1.2D23"); VAL("1.1"); VAL("12345678"); VAL("  12 34"); VAL("&H10")\n'
        '20 PRINT VAL("1.5E"); VAL("1.10000000"); VAL("123456789!"); VAL("-1234567.8")\n'
        '30 PRINT VAL("1E39")\n'
        '40 PRINT VAL("-1D39")\n'
        '50 X = VAL("1.23456789D0"): Y# = VAL("1.23456789D0"): PRINT X; Y#\n'
        '60 A$ = "1.1": X# = VAL(A$): A$ = "123456789": Y# = VAL(A$): Z% = VAL(" 1 2 ")\n'
        '70 PRINT X#; Y#; Z%; STR$(VAL("1.5D3")); STR$(VAL("1.5")); VAL(".000000012345678")\n'
        '80 WRITE VAL("1.2D23"), VAL("2.5")\n'
        '90 PRINT USING "##.##^^^^"; VAL("1.2D23"); VAL("1.2E23")\n'
    ),
    # A text known only at run time: its type too, where VAL is printed as it is.
    "val at run time": (
        '10 A$ = "1.2D23": B$ = "1.1": C$ = "12345678"\n'
        "20 PRINT VAL(A$); VAL(B$); VAL(C$); STR$(VAL(A$)); STR$(VAL(B$))\n"
        "30 WRITE VAL(A$), VAL(B$), VAL(C$)\n"
        '40 PRINT USING "##.##^^^^"; VAL(A$); VAL(B$)\n'
        '50 OPEN "T.TXT" FOR OUTPUT AS #1: PRINT #1, VAL(A$); VAL(B$): CLOSE #1\n'
        '60 OPEN "T.TXT" FOR INPUT AS #1: LINE INPUT #1, L$: PRINT L$: CLOSE #1: KILL "T.TXT"\n'
    ),
    "layout": (
        "10 FOR I=1 TO 30: PRINT I;: NEXT I: PRINT\n"
        '20 PRINT "A","B","C","D","E","F","G"\n'
        "30 FOR I=1 TO 8: PRINT 1234567!*I*I,: NEXT\n"
        "40 PRINT\n"
        '50 PRINT TAB(70);"AB";TAB(10);"C"\n'
        '60 PRINT TAB(0);"Z";TAB(85);"Y"\n'
        '70 PRINT "------------------------------------------------------------------","Q"\n'
        '80 PRINT "12345678901234567890123456789012345678901234567890123456789012345678901234567890"\n'
        '90 PRINT "END"\n'
    ),
}

# What PC-BASIC 2.0.8 printed for four of them.  Its "Overflow" and "Division by zero"
# lines are on the screen, the program's output, as ours are (and they are located
# warnings on stderr too).
RECORDED = {
    "integers": (
        " 3  4 -3 -1 -2 -3 \n"
        " 3 -3  32767 \n"
        " 1 -1  2  1  0 \n"
        "-3  4 -3  40000  1.073676E+09 \n"
        " 1  7  6 -6 -7 -5  255 \n"
        " 31  15  15 -1 -32768  1000  35660  12 \n"
        "-1  0 -1 -2 \n"
    ),
    "data items": " 1 [] 3 \n 31  15  1500  12  0 []\n",
    "powers of ten": (
        " .000001  1D-20  .000001  .000001\n"
        " 1D+28  .0000000000000001  .0000001  .00000000001  .000000000001  1D-19  1D-29 \n"
        " 1D-38 \n"
        " 1D+31  1D+33  1D+35  1D+37  1D+38 \n"
        " .000001  1E-20  1E+28  .0000001  1E-11  1E+37 \n"
    ),
    "exceptions": (
        "Overflow\n 1.701412E+38 \nOverflow\n-1.701412E+38 \n"
        "Division by zero\n 1.701412E+38 \nDivision by zero\n-1.701412E+38 \n"
        "Division by zero\n 1.701412E+38 \nDivision by zero\n 1.701412E+38 \n"
        "Division by zero\n-1.701412E+38 \nDivision by zero\n 1.701412E+38 \n"
        "Overflow\n 1.701412E+38 \nOverflow\n 1.701412E+38 \nOverflow\n-1.701412E+38 \n"
        " 0  0 \n"
    ),
}
RECORDED["val"] = (
    " 1.2D+23  1.1  12345678  1234  16 \n"
    " 1.5  1.1  1.234568E+08 -1234567.8 \n"
    "Overflow\n 1.701412E+38 \n"
    "Overflow\n-1.701411834604692D+38 \n"
    " 1.234568  1.23456789 \n"
    " 1.100000023841858  123456789  12  1500 1.5 .000000012345678 \n"
    "1.2D+23,2.5\n"
    " 1.20D+23 1.20E+23\n"
)
RECORDED["val at run time"] = (
    " 1.2D+23  1.1  12345678  1.2D+23 1.1\n"
    "1.2D+23,1.1,12345678\n"
    " 1.20D+23 1.10E+00\n"
    " 1.2D+23  1.1 \n"
)
GW_MESSAGES = ("Overflow", "Division by zero")


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_programs_print_what_pcbasic_printed(name):
    assert run_everywhere(PROGRAMS[name]).stdout == RECORDED[name]


def test_val_out_of_range_warns_and_gives_the_largest_number():
    assert warnings_of(run_everywhere(PROGRAMS["val"])) == ["Overflow"] * 2


def test_overflow_and_division_by_zero_warn_and_go_on():
    run = run_everywhere(PROGRAMS["exceptions"])
    assert warnings_of(run) == ["Overflow"] * 2 + ["Division by zero"] * 6 + ["Overflow"] * 3


@requires_pcbasic
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_against_pcbasic(name):
    oracle = pcbasic_output(PROGRAMS[name])
    messages = [line for line in oracle.splitlines() if line in GW_MESSAGES]
    # (constants out of range: GW-BASIC's Overflow when it loads the line, then a
    # compile-time warning on stderr here too)
    run = run_everywhere(PROGRAMS[name])
    assert run.stdout == oracle
    assert warnings_of(run) == messages


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "statement, column, message",
    [
        ("A% = 40000", 4, "Overflow (40000)"),
        ("A% = 32767: A% = A% + 1", 16, "Overflow (32768)"),
        ("PRINT 40000 AND 1", 4, "Overflow (40000)"),
        ("PRINT 100000 \\ 3", 4, "Overflow (100000)"),
        ("PRINT -32768 \\ -1", 4, "Overflow (-32768 \\ -1)"),
        ("PRINT CINT(-32768.5)", 4, "Overflow (-32768.5)"),
        ("PRINT SQR(-1)", 4, "Illegal function call SQR(-1)"),
        ("PRINT LOG(0)", 4, "Illegal function call LOG(0)"),
        ("PRINT (-8)^(1/3)", 4, "Illegal function call (-8 ^ .3333334)"),
    ],
)
def test_fatal_errors_are_gw_basic_s_and_located(statement, column, message):
    # PC-BASIC stops each of these with the same condition ("Overflow in 20",
    # "Illegal function call in 20"), on its screen as here; the located message on
    # stderr names the operand too.
    run = run_everywhere(f'10 PRINT "BEFORE"\n20 {statement}\n30 PRINT "AFTER"\n')
    screen = message.split(" (")[0].split(" SQR")[0].split(" LOG")[0]
    assert run.status == 1 and run.stdout == f"BEFORE\n{screen} in 20\n"
    assert f"m.bas:2:{column}: error: {message}" in run.stderr


def test_double_precision_with_precision_f64_prints_singles_as_singles():
    # --precision f64 computes singles in double; they still print as singles.
    text = "10 X = 1/3: Y = X * 3 - 1: PRINT X; Y; 1/3#\n"
    assert run_everywhere(text).stdout == " .3333334  0  .3333333333333333 \n"
    assert run_everywhere(text, precision="f64").stdout == " .3333334  0  .3333333333333333 \n"
    # ... and accumulate like doubles (the loop on the host: a kernel adds in its order)
    text = "10 FOR I = 1 TO 10: S = S + .1: NEXT I: PRINT S - 1\n"
    assert run_everywhere(text, offload=False).stdout == " 1.192093E-07 \n"
    assert run_everywhere(text, precision="f64", offload=False).stdout == "-1.110223E-16 \n"
