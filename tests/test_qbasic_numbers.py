"""QuickBASIC's own numbers (--dialect qbasic), where they differ from GW-BASIC's.

There is no QuickBASIC interpreter here: the expected outputs are reasoned from
Microsoft's documentation, each test naming what it relies on, and computed with IEEE
float32 / float64 arithmetic (Python's), which is what QuickBASIC uses:

- QuickBASIC 4.5 reference (qb45advr.hlp), "Elementary Data Types - Floating-Point
  Numbers": "QuickBASIC uses IEEE-format floating-point numbers rather than the Microsoft
  Binary format"; KB Q35248 (IEEE singles of 32 bits, doubles of 64).
- BASIC PDS 7.1 / QuickBASIC reference, ATN (and SIN, COS, TAN, EXP, LOG, SQR alike):
  "calculated in single precision if numeric-expression is an integer or
  single-precision value"; otherwise in double precision.
- KB Q28855, "CINT/CLNG Integer Assignment Round x.5 to Nearest Even Integer": .5 converts
  to 0, 1.5 to 2, 2.5 to 2, 3.5 to 4, for CINT, CLNG, and assignments to INTEGER and LONG
  variables (the 8087's IEEE rounding).
- QuickBASIC 4.5 reference, "Run-time error codes": 6 Overflow, 11 Division by zero, both
  errors that stop the program unless ON ERROR traps them.

Every program runs through the interpreter and both generated targets (cuTile Python and
CUDA C++ on the CPU), which must agree exactly; `--dialect ms` keeps GW-BASIC's numbers
(tests/test_ms_numbers.py and the contrast below).
"""

from __future__ import annotations

from tests.checking import basic2tile, checked_run, interpreted_and_checked

# SQR(2#), LOG, EXP... of a double are doubles (16 digits); of a single, singles.  A
# single prints its float32 value correctly rounded to 7 digits (1/3 is .3333333, where
# GW-BASIC's MBF conversion gives .3333334; SQR(2) 1.414214, not PC-BASIC's 1.414213), a
# double to 16 (1/7# is .1428571428571428: float64 1/7 is 0.14285714285714284921...).
# `y# = SQR(2)` keeps the single's bits.  `2# ^ 60` is a double too (the operands take
# the precision of the most precise one).
DOUBLE_FUNCTIONS = """\
PI# = 4 * ATN(1#)
PRINT PI#; 4 * ATN(1)
x# = 2
PRINT SQR(x#); SQR(2); SQR(2!)
PRINT LOG(x#); EXP(1#); SIN(x#); COS(x#)
PRINT TAN(1#); ATN(x#)
y# = SQR(2)
PRINT y#
PRINT 1 / 3; 2 / 3; 1 / 3#; 1 / 7#; 100 / 7
PRINT 12345678!; 1234567!; 1E+07; 1.5E-07; 2# ^ 60
PRINT 1D+15; STR$(1 / 3); STR$(SQR(x#))
"""
DOUBLE_FUNCTIONS_OUTPUT = """\
 3.141592653589793  3.141593 
 1.414213562373095  1.414214  1.414214 
 .6931471805599453  2.718281828459045  .9092974268256817 -.4161468365471424 
 1.557407724654902  1.10714871779409 
 1.414213538169861 
 .3333333  .6666667  .3333333333333333  .1428571428571428  14.28571 
 1.234568E+07  1234567  1E+07  1.5E-07  1.152921504606847D+18 
 1000000000000000  .3333333 1.414213562373095
"""


def test_functions_of_a_double_are_doubles_and_numbers_print_as_ieee(tmp_path):
    assert interpreted_and_checked(tmp_path, DOUBLE_FUNCTIONS, dialect="qbasic") == (
        DOUBLE_FUNCTIONS_OUTPUT
    )


# KB Q28855: CINT, CLNG and storing into % and & round .5 to even; \ and MOD round
# their operands so first (7.5 \ 2 is 8 \ 2, 8.5 \ 2 is 8 \ 2; 9.5 MOD 4 is 10 MOD 4).
HALF_TO_EVEN = """\
PRINT CINT(2.5); CINT(3.5); CINT(-2.5); CINT(0.5); CINT(1.5); CINT(2.6); CINT(-3.5)
PRINT CLNG(2.5); CLNG(6.5); CLNG(-7.5); CLNG(100000.5)
a% = 2.5: b% = 3.5: c& = -4.5: d& = 5.5
PRINT a%; b%; c&; d&
PRINT 7.5 \\ 2; 8.5 \\ 2; 9.5 MOD 4; 10.5 MOD 4; 100000.5 \\ 3
FOR i = 0.5 TO 4.5
    k% = i
    PRINT k%;
NEXT
PRINT
"""
HALF_TO_EVEN_OUTPUT = """\
 2  4 -2  0  2  3 -4 
 2  6 -8  100000 
 2  4 -4  6 
 4  4  2  2  33333 
 0  2  2  4  4 
"""


def test_cint_clng_and_integer_stores_round_half_to_even(tmp_path):
    assert interpreted_and_checked(tmp_path, HALF_TO_EVEN, dialect="qbasic") == (
        HALF_TO_EVEN_OUTPUT
    )


def test_microsoft_basic_still_rounds_half_away_from_zero(tmp_path):
    """The contrast: GW-BASIC rounds .5 away from zero (PC-BASIC 2.0.8 printed these)."""
    program = "PRINT CINT(2.5); CINT(-2.5); 7.5 \\ 2; 9.5 MOD 4: A% = 2.5: PRINT A%; 1 / 3\n"
    assert interpreted_and_checked(tmp_path, program) == " 3 -3  4  2 \n 3  .3333334 \n"


# Division by zero and Overflow are run-time errors (ERR 11 and 6), trappable; the
# single's range is IEEE's (3E+38 is a single, 3E+38 * 10 overflows), a double's too
# (1D+300 is a double).
FATAL_ERRORS = """\
ON ERROR GOTO Trap
zero = 0
PRINT "divide"; 5 / zero
n% = 30000
PRINT "add"; n% + n%
big# = 1D+300
PRINT "double"; big# * big#
s! = 3E+38
PRINT "single"; s! * 10
PRINT "integer"; 7 \\ zero
PRINT "mod"; 7 MOD zero
PRINT "cint"; CINT(40000)
PRINT "done"; s!; big#
END
Trap:
PRINT " error"; ERR
RESUME NEXT
"""
FATAL_ERRORS_OUTPUT = """\
divide error 11 
add error 6 
double error 6 
single error 6 
integer error 11 
mod error 11 
cint error 6 
done 3E+38  1D+300 
"""


def test_division_by_zero_and_overflow_are_trappable_errors(tmp_path):
    assert interpreted_and_checked(tmp_path, FATAL_ERRORS, dialect="qbasic") == (
        FATAL_ERRORS_OUTPUT
    )


def test_division_by_zero_stops_the_program(tmp_path):
    program = 'PRINT "before"\nzero = 0\nPRINT 1 / zero\nPRINT "after"\n'
    run = checked_run(tmp_path, program, dialect="qbasic")
    assert run.returncode == 1
    assert run.stdout == "before\nDivision by zero\n"
    assert "prog.bas:3:1: error: Division by zero" in run.stderr


def test_a_long_passed_by_reference_to_another_type_is_a_parameter_type_mismatch(tmp_path):
    """QuickBASIC 4.5 reference, "Parameter type mismatch" (error): a variable passed by
    reference must have the parameter's type; a LONG (`x AS LONG`, `&`, DEFLNG) too."""
    for program in (
        "DIM x AS LONG\nx = 5\nCALL Show(x)\nSUB Show (a)\nPRINT a\nEND SUB\n",
        "DEFLNG A-Z\nx = 5\nCALL Show(x)\nSUB Show (a%)\nPRINT a%\nEND SUB\n",
    ):
        run = basic2tile(tmp_path, program, "--interpret", dialect="qbasic")
        assert run.returncode != 0
        assert "prog.bas:3:11: error: parameter type mismatch: X& passed by reference" in (
            run.stderr
        )
    # a single with its `!` is the plain name's type; a LONG by value converts
    program = "x! = 2.5\nCALL Show(x!)\ny& = 7\nCALL Show((y&))\nSUB Show (a)\nPRINT a\nEND SUB\n"
    assert interpreted_and_checked(tmp_path, program, dialect="qbasic") == " 2.5 \n 7 \n"
