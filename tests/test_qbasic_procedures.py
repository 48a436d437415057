"""QuickBASIC / QBasic procedures (--dialect qbasic): FUNCTION, recursion, STATIC, a
procedure's own arrays.

There is no QuickBASIC interpreter here: the expected outputs are reasoned from the
QuickBASIC 4.5 / QBasic 1.1 language reference (FUNCTION ... END FUNCTION, whose name is
its result variable in its body; arguments passed by reference unless written in
parentheses of their own; a non-STATIC procedure's locals and arrays start at zero on
each call, STATIC ones keep their values; PRINT prints each item before it evaluates the
next; "Out of stack space" when recursion runs too deep), with numbers printed as
GW-BASIC prints them (the rest of --dialect qbasic).  Each comment says how its
output follows.  Every program runs through the interpreter and both generated targets
(cuTile Python and CUDA C++ on the CPU), which must agree exactly.
"""

from __future__ import annotations

import pytest

from tests.checking import basic2tile, checked_run, interpreted_and_checked, refused

# Recursion: Fibonacci and Ackermann FUNCTIONs, Towers of Hanoi (a SUB passing its
# string parameters on, by reference, in a new order), a string FUNCTION that reverses
# (MID$ of the rest, then the first letter), calls inside expressions, IF, DO WHILE and
# FOR limits; DEFINT A-Z types the names without a suffix, DECLAREs above it.
RECURSION = """\
DECLARE FUNCTION Fib (n%)
DECLARE FUNCTION Ack (m, n)
DECLARE SUB Hanoi (n%, from$, to$, via$)
DECLARE FUNCTION Rev$ (s$)
DEFINT A-Z
FOR i = 1 TO 10
    PRINT Fib(i);
NEXT
PRINT
PRINT Ack(2, 3)
Hanoi 3, "A", "C", "B"
PRINT Rev$("hello")
x = 5
PRINT Sq(x) + Sq(Sq(2)), x
IF Sq(x) > 20 THEN PRINT "big" ELSE PRINT "small"
k = 0
DO WHILE Sq(k) < 50
  k = k + 1
LOOP
PRINT "k"; k
FOR j = 1 TO Sq(2): PRINT j;: NEXT: PRINT

FUNCTION Fib (n)
    IF n <= 2 THEN
        Fib = 1
    ELSE
        Fib = Fib(n - 1) + Fib(n - 2)
    END IF
END FUNCTION

FUNCTION Ack (m, n)
    IF m = 0 THEN
        Ack = n + 1
    ELSEIF n = 0 THEN
        Ack = Ack(m - 1, 1)
    ELSE
        Ack = Ack(m - 1, Ack(m, n - 1))
    END IF
END FUNCTION

SUB Hanoi (n, from$, to$, via$)
    IF n = 0 THEN EXIT SUB
    Hanoi n - 1, from$, via$, to$
    PRINT "Move"; n; "from "; from$; " to "; to$
    Hanoi n - 1, via$, to$, from$
END SUB

FUNCTION Rev$ (s$)
    IF LEN(s$) <= 1 THEN Rev$ = s$: EXIT FUNCTION
    Rev$ = Rev$(MID$(s$, 2)) + LEFT$(s$, 1)
END FUNCTION

FUNCTION Sq (v)
    Sq = v * v
END FUNCTION
"""
# Fib(1..10); Ack(2, 3) = 2*3 + 3 = 9; Hanoi's seven moves for three disks; Sq(5) +
# Sq(Sq(2)) = 25 + 16, x still 5; 25 > 20; the first k with k*k >= 50 is 8; FOR to 4.
RECURSION_OUTPUT = """\
 1  1  2  3  5  8  13  21  34  55 
 9 
Move 1 from A to C
Move 2 from A to B
Move 1 from C to B
Move 3 from A to C
Move 1 from B to A
Move 2 from B to C
Move 1 from A to C
olleh
 41            5 
big
k 8 
 1  2  3  4 
"""


def test_recursion(tmp_path):
    assert interpreted_and_checked(tmp_path, RECURSION, dialect=None) == RECURSION_OUTPUT


# Backtracking: N queens (a recursive SUB in a FOR loop, a FUNCTION Safe% called as
# Safe), permutations (EXIT FOR in a FOR that recurses), a STATIC variable, a SUB's
# own array made again by each call, mutually recursive FUNCTIONs.
BACKTRACKING = """\
DECLARE SUB Place (row%)
DECLARE FUNCTION Safe% (row%, col%)
DECLARE SUB Perm (k%)
DIM SHARED q(8) AS INTEGER, n AS INTEGER, count AS INTEGER
DIM SHARED a(4) AS INTEGER
n = 5
Place 1
PRINT "solutions"; count
n = 3
Perm 1
FOR t = 1 TO 3: Counter: NEXT
Histogram 3
Histogram 2
PRINT Even(10); Even(7)

SUB Place (row AS INTEGER)
    FOR col% = 1 TO n
        IF Safe(row, col%) THEN
            q(row) = col%
            IF row = n THEN
                count = count + 1
                IF count = 1 THEN FOR i% = 1 TO n: PRINT q(i%);: NEXT: PRINT
            ELSE
                Place row + 1
            END IF
        END IF
    NEXT col%
END SUB

FUNCTION Safe% (row AS INTEGER, col AS INTEGER)
    Safe = -1
    FOR r% = 1 TO row - 1
        IF q(r%) = col OR ABS(q(r%) - col) = row - r% THEN Safe = 0: EXIT FUNCTION
    NEXT
END FUNCTION

SUB Perm (k%)
    IF k% > n THEN
        FOR i% = 1 TO n: PRINT a(i%);: NEXT: PRINT
        EXIT SUB
    END IF
    FOR v% = 1 TO n
        used% = 0
        FOR j% = 1 TO k% - 1
            IF a(j%) = v% THEN used% = 1: EXIT FOR
        NEXT j%
        IF used% = 0 THEN a(k%) = v%: Perm k% + 1
    NEXT v%
END SUB

SUB Counter
    STATIC ncall
    fresh = fresh + 1
    ncall = ncall + 1
    PRINT "ncall"; ncall; "fresh"; fresh
END SUB

SUB Histogram (m)
    DIM bins(5)
    FOR i = 1 TO m: bins(i) = bins(i) + i: NEXT
    PRINT bins(1); bins(2); bins(3)
END SUB

FUNCTION Even (x)
    IF x = 0 THEN Even = -1 ELSE Even = Odd(x - 1)
END FUNCTION

FUNCTION Odd (x)
    IF x = 0 THEN Odd = 0 ELSE Odd = Even(x - 1)
END FUNCTION
"""
# Five queens: 10 solutions, the first in column order 1 3 5 2 4; the permutations of
# 1..3 in lexicographic order; ncall counts 1, 2, 3 while fresh starts at 0 each call;
# bins is zero at each call (1 2 3, then 1 2 0); 10 is even (-1), 7 is not (0).
BACKTRACKING_OUTPUT = """\
 1  3  5  2  4 
solutions 10 
 1  2  3 
 1  3  2 
 2  1  3 
 2  3  1 
 3  1  2 
 3  2  1 
ncall 1 fresh 1 
ncall 2 fresh 1 
ncall 3 fresh 1 
 1  2  3 
 1  2  0 
-1  0 
"""


def test_backtracking(tmp_path):
    assert interpreted_and_checked(tmp_path, BACKTRACKING, dialect=None) == BACKTRACKING_OUTPUT


# Numeric methods with DOUBLE FUNCTIONs (suffix #) on f(x) = x^2 - 2.
NUMERIC = """\
DECLARE FUNCTION F# (x#)
DECLARE FUNCTION DF# (x#)
DECLARE FUNCTION Newton# (x0#)
DECLARE FUNCTION Simpson# (a#, b#, n%)
DECLARE FUNCTION Bisect# (lo#, hi#)
' Newton's method, Simpson's rule and bisection on f(x) = x^2 - 2
PRINT USING "##.##########"; Newton#(1#)
PRINT USING "##.##########"; Simpson#(0#, 1#, 10)
PRINT USING "##.######"; Bisect#(0#, 2#)

FUNCTION F# (x#)
    F# = x# * x# - 2
END FUNCTION

FUNCTION DF# (x#)
    DF# = 2 * x#
END FUNCTION

FUNCTION Newton# (x0#)
    x# = x0#
    DO
        dx# = F#(x#) / DF#(x#)
        x# = x# - dx#
    LOOP UNTIL ABS(dx#) < 1D-12
    Newton# = x#
END FUNCTION

FUNCTION Simpson# (a#, b#, n%)
    h# = (b# - a#) / n%
    s# = F#(a#) + F#(b#)
    FOR i% = 1 TO n% - 1
        IF i% MOD 2 = 1 THEN s# = s# + 4 * F#(a# + i% * h#) ELSE s# = s# + 2 * F#(a# + i% * h#)
    NEXT
    Simpson# = s# * h# / 3
END FUNCTION

FUNCTION Bisect# (lo#, hi#)
    DO WHILE hi# - lo# > .000001
        mid# = (lo# + hi#) / 2
        IF F#(mid#) * F#(lo#) <= 0 THEN hi# = mid# ELSE lo# = mid#
    LOOP
    Bisect# = (lo# + hi#) / 2
END FUNCTION
"""
# Newton from 1 converges to sqrt(2) = 1.41421356237...; Simpson's rule is exact for a
# quadratic: 1/3 - 2; bisection of [0, 2] to a width of 1E-6 rounds to 1.414214.
NUMERIC_OUTPUT = " 1.4142135624\n-1.6666666667\n 1.414214\n"


def test_numeric_methods(tmp_path):
    assert interpreted_and_checked(tmp_path, NUMERIC, dialect=None) == NUMERIC_OUTPUT


# Order of evaluation and passing: arguments by reference (Inc(a) twice), by value in
# parentheses, an array element; a FUNCTION that prints, called in PRINT; ELSEIF's
# call runs only when its test is reached; WHILE, LOOP WHILE, SELECT CASE and FOR
# with calls; a FUNCTION without parameters; a STRING FUNCTION; DEFDBL A-Z.
SEMANTICS = """\
DECLARE FUNCTION Inc (v)
DECLARE FUNCTION Noisy (n)
DECLARE FUNCTION Pi# ()
DECLARE FUNCTION Repeat$ (s$, n%)
DEFDBL A-Z
a = 1
b = Inc(a) + Inc(a)
PRINT a; b
DIM v(3)
PRINT Inc(v(2)); v(2); Inc((v(2))); v(2)
PRINT "x="; Noisy(2)
x = 1
IF x = 1 THEN
    PRINT "one"
ELSEIF Noisy(5) > 0 THEN
    PRINT "never"
END IF
x = 2
IF x = 1 THEN
    PRINT "one"
ELSEIF Noisy(3) > 8 THEN
    PRINT "nine"
ELSE
    PRINT "else"
END IF
k = 0
WHILE Inc(k) < 4
WEND
PRINT "k"; k
k = 10
DO
    k = k - 3
LOOP WHILE Inc((k)) > 0
PRINT "k"; k
PRINT Pi# * 2
PRINT Repeat$("ab", 3); "|"; Repeat$("-", 0); "|"
SELECT CASE Inc((k))
    CASE 0: PRINT "zero"
    CASE ELSE: PRINT "other"
END SELECT
FOR i% = 1 TO Inc((2))
    PRINT i%;
NEXT
PRINT

FUNCTION Inc (v)
    v = v + 1
    Inc = v
END FUNCTION

FUNCTION Noisy (n)
    PRINT "[noisy"; n; "]"
    Noisy = n * n
END FUNCTION

FUNCTION Pi#
    Pi# = 3.141592653589793#
END FUNCTION

FUNCTION Repeat$ (s$, n%)
    r$ = ""
    FOR i% = 1 TO n%
        r$ = r$ + s$
    NEXT
    Repeat$ = r$
END FUNCTION
"""
# a: 1 -> 2 -> 3, b = 2 + 3; Inc(v(2)) makes v(2) 1, Inc((v(2))) returns 2 leaving it;
# "x=" is printed before Noisy runs; Noisy(5) never runs; Noisy(3) = 9 > 8; Inc(k) < 4
# stops at k = 4; 10 -> 7 -> 4 -> 1 -> -2, where Inc((k)) = -1 is not > 0; 2 * pi;
# "ab" three times, "" for 0; Inc((-2)) = -1 is not 0; FOR 1 TO Inc((2)) = 3.
SEMANTICS_OUTPUT = """\
 3  5 
 1  1  2  1 
x=[noisy 2 ]
 4 
one
[noisy 3 ]
nine
k 4 
k-2 
 6.283185307179586 
ababab||
other
 1  2  3 
"""


def test_calls_in_statements(tmp_path):
    assert interpreted_and_checked(tmp_path, SEMANTICS, dialect=None) == SEMANTICS_OUTPUT


# PRINT x; Inc(x): QuickBASIC prints x before Inc runs, so the PRINT is cut there.
PRINT_ORDER = """\
x = 1
PRINT x; Inc(x); x
PRINT "v"; Inc(x)
FUNCTION Inc (v)
    v = v + 1
    Inc = v
END FUNCTION
"""


# PRINT USING with a call after a variable that the call cannot change: one PRINT.
PRINT_USING = """\
DEFINT A-Z
FOR i = 1 TO 5
    PRINT USING "## ####"; i; Fact(i)
NEXT
x = 1
PRINT x; Inc(x); x
PRINT x; Sq(x)
FUNCTION Fact (n)
    IF n <= 1 THEN Fact = 1 ELSE Fact = n * Fact(n - 1)
END FUNCTION
FUNCTION Inc (v)
    v = v + 1
    Inc = v
END FUNCTION
FUNCTION Sq (v)
    Sq = v * v
END FUNCTION
"""


def test_print_using_with_calls(tmp_path):
    assert interpreted_and_checked(tmp_path, PRINT_USING, dialect=None) == (
        " 1    1\n 2    2\n 3    6\n 4   24\n 5  120\n 1  2  2 \n 2  4 \n"
    )
    done = basic2tile(tmp_path, PRINT_USING, "-o", "-", dialect="qbasic")
    assert "con.print(x_int, call_3_int)" in done.stdout  # Sq(x) does not change x


def test_print_prints_an_item_before_the_next_call(tmp_path):
    assert interpreted_and_checked(tmp_path, PRINT_ORDER, dialect=None) == " 1  2  2 \nv 3 \n"
    done = basic2tile(tmp_path, PRINT_ORDER, "-o", "-", dialect="qbasic")
    assert 'con.print(x, end="")' in done.stdout
    assert 'con.print("v", call_2)' in done.stdout  # a literal before a call: one PRINT


# Endless recursion stops with QuickBASIC's message after 1000 nested calls.
DEEP = """\
DECLARE SUB Deep (n)
Deep 1
SUB Deep (n)
    IF n MOD 250 = 0 THEN PRINT n
    Deep n + 1
END SUB
"""


def test_out_of_stack_space(tmp_path):
    done = checked_run(tmp_path, DEEP, dialect="qbasic")
    assert done.stdout == " 250 \n 500 \n 750 \n 1000 \n"
    assert "prog.bas:5:5: error: Out of stack space" in done.stderr


def test_recursive_function_is_a_recursive_python_function(tmp_path):
    text = "PRINT F(4)\nFUNCTION F (n)\n  IF n < 2 THEN F = 1 ELSE F = n * F(n - 1)\nEND FUNCTION\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 24 \n"
    done = basic2tile(tmp_path, text, "-o", "-", dialect="qbasic")
    assert "call_1 = f(sng(sng(n - 1.0)))" in done.stdout  # its n is its own: no frame saved
    assert 'raise BasicFault("Out of stack space")' in done.stdout


_F = "\nFUNCTION F (a)\n  F = a + 1\nEND FUNCTION\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("x = F(1, 2)" + _F, "1:5: error: FUNCTION F takes 1 argument(s), not 2"),
        ("F(1) = 2" + _F, "1:1: error: F is a FUNCTION: only its own body assigns its value"),
        ("EXIT FUNCTION" + _F, "1:1: error: EXIT FUNCTION outside a FUNCTION"),
        (
            "SELECT CASE 1\nCASE F(0)\nEND SELECT" + _F,
            "2:1: error: a FUNCTION call in a CASE is not supported yet",
        ),
        ("DECLARE FUNCTION G (a)" + _F, "1:1: error: DECLARE FUNCTION G: no FUNCTION G"),
        ("FUNCTION F (a)\nEND SUB\n", "2:1: error: END SUB without SUB"),
        (
            "PRINT F(1)\nFUNCTION F (n)\n  DIM t(3)\n  F = F(n - 1)\nEND FUNCTION\n",
            "3:7: error: an array of a recursive FUNCTION",
        ),
        (
            'PRINT USING "## ##"; x; G(x)\nFUNCTION G (a)\n  a = 2\n  G = a\nEND FUNCTION\n',
            "1:25: error: a FUNCTION call in PRINT USING that may print, or change what an item",
        ),
    ],
)
def test_function_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


# A parallel FOR in a SUB of a program with FUNCTIONs is still a kernel.
KERNEL_IN_SUB = """\
DIM SHARED a(1000), b(1000)
FOR i = 1 TO 1000: a(i) = i: NEXT
Scale Half(5)
PRINT b(1); b(1000)
SUB Scale (f)
    FOR k = 1 TO 1000
        b(k) = a(k) * f
    NEXT k
END SUB
FUNCTION Half (x)
    Half = x / 2
END FUNCTION
"""


def test_loop_in_a_sub_is_still_offloaded(tmp_path):
    done = basic2tile(tmp_path, KERNEL_IN_SUB, "--explain", dialect="qbasic")
    assert "source line 6 FOR k = 1 TO 1000\n      -> GPU kernel map_l6 (map)" in done.stdout
    assert interpreted_and_checked(tmp_path, KERNEL_IN_SUB, dialect="qbasic") == " 2.5  2500 \n"


# Array parameters, by reference: quicksort of an INTEGER array (a recursive SUB that
# passes its array on), a SUB filling and a FUNCTION summing two DOUBLE arrays, and a
# SUB's own array passed from it.
ARRAY_PARAMETERS = """\
DECLARE SUB QSort (a() AS INTEGER, lo%, hi%)
DECLARE FUNCTION Total# (v#(), n%)
DECLARE SUB Fill (v#(), n%)
DIM b(8) AS INTEGER, d#(5), e#(3)
FOR i% = 1 TO 8: READ b(i%): NEXT
DATA 5, 3, 8, 1, 9, 2, 7, 4
QSort b(), 1, 8
FOR i% = 1 TO 8: PRINT b(i%);: NEXT: PRINT
Fill d#(), 5
Fill e#(), 3
PRINT Total#(d#(), 5); Total#(e#(), 3)
Work

SUB QSort (a() AS INTEGER, lo%, hi%)
    IF lo% >= hi% THEN EXIT SUB
    p% = a(hi%): i% = lo% - 1
    FOR j% = lo% TO hi% - 1
        IF a(j%) <= p% THEN i% = i% + 1: SWAP a(i%), a(j%)
    NEXT
    SWAP a(i% + 1), a(hi%)
    QSort a(), lo%, i%
    QSort a(), i% + 2, hi%
END SUB

SUB Fill (v#(), n%)
    FOR k% = 1 TO n%: v#(k%) = k% / 2: NEXT
END SUB

FUNCTION Total# (v#(), n%)
    FOR k% = 1 TO n%: s# = s# + v#(k%): NEXT
    Total# = s#
END FUNCTION

SUB Work
    DIM t#(4)
    Fill t#(), 4
    PRINT Total#(t#(), 4)
END SUB
"""
# Sorted; 1/2 + 2/2 + ... + 5/2 = 7.5, 1/2 + 1 + 3/2 = 3; 1/2 + ... + 4/2 = 5.
ARRAY_PARAMETERS_OUTPUT = " 1  2  3  4  5  7  8  9 \n 7.5  3 \n 5 \n"


def test_array_parameters(tmp_path):
    assert interpreted_and_checked(tmp_path, ARRAY_PARAMETERS, dialect=None) == (
        ARRAY_PARAMETERS_OUTPUT
    )


def test_each_array_gets_its_copy_of_the_procedure(tmp_path):
    done = basic2tile(tmp_path, ARRAY_PARAMETERS, "-o", "-", dialect="qbasic")
    assert "def fill(n_int: int) -> None:" in done.stdout  # the first array keeps FILL's name
    assert "d_dbl[k_int] = " in done.stdout
    assert "def fill_2(n_int: int) -> None:" in done.stdout
    assert "e_dbl[k_int] = " in done.stdout


@pytest.mark.parametrize(
    "text, message",
    [
        ("x = 1\nCALL S(x)\nSUB S (a())\nEND SUB\n", "2:8: error: A() is an array parameter"),
        (
            "DIM b%(2)\nCALL S(b%())\nSUB S (a())\nEND SUB\n",
            "2:8: error: parameter type mismatch: B%() passed to A()",
        ),
        (
            "DIM b(2)\nCALL S(b())\nSUB S (a)\nEND SUB\n",
            "2:8: error: B() is an array: A is not an array parameter",
        ),
    ],
)
def test_array_parameter_errors_are_located(tmp_path, text, message):
    refused(tmp_path, text, message)


def test_a_constant_is_passed_by_value(tmp_path):
    """A CONST argument is an expression: never copied back (nor a type mismatch)."""
    text = "CONST N = 3\nCALL S(N)\nPRINT N\nSUB S (a)\n  a = a + 1\n  PRINT a\nEND SUB\n"
    assert interpreted_and_checked(tmp_path, text, dialect=None) == " 4 \n 3 \n"


# A recursive-descent calculator: mutually recursive DOUBLE FUNCTIONs without
# parameters (Expr# -> Term# -> Factor# -> Expr#) on SHARED text, calls in DO WHILE,
# WHILE, SELECT CASE branches and one-line IF ... ELSE.
CALCULATOR = """\
DECLARE FUNCTION Expr# ()
DECLARE FUNCTION Term# ()
DECLARE FUNCTION Factor# ()
DECLARE FUNCTION Peek$ ()
DIM SHARED text$, pos%
FOR k% = 1 TO 3
    READ text$
    pos% = 1
    PRINT text$; " ="; Expr#
NEXT
DATA "1+2*3", "(1+2)*3", "2*(3+4*(5-1))/4-1"

FUNCTION Peek$
    IF pos% <= LEN(text$) THEN Peek$ = MID$(text$, pos%, 1)
END FUNCTION

FUNCTION Expr#
    v# = Term#
    DO WHILE Peek$ = "+" OR Peek$ = "-"
        op$ = Peek$: pos% = pos% + 1
        SELECT CASE op$
            CASE "+": v# = v# + Term#
            CASE "-": v# = v# - Term#
        END SELECT
    LOOP
    Expr# = v#
END FUNCTION

FUNCTION Term#
    v# = Factor#
    WHILE Peek$ = "*" OR Peek$ = "/"
        op$ = Peek$: pos% = pos% + 1
        IF op$ = "*" THEN v# = v# * Factor# ELSE v# = v# / Factor#
    WEND
    Term# = v#
END FUNCTION

FUNCTION Factor#
    IF Peek$ = "(" THEN
        pos% = pos% + 1
        Factor# = Expr#
        pos% = pos% + 1
    ELSE
        start% = pos%
        DO WHILE pos% <= LEN(text$) AND INSTR("0123456789", Peek$) > 0
            pos% = pos% + 1
        LOOP
        Factor# = VAL(MID$(text$, start%, pos% - start%))
    END IF
END FUNCTION
"""
# Usual precedence: 1 + 6; 3 * 3; 2 * (3 + 16) / 4 - 1.
CALCULATOR_OUTPUT = "1+2*3 = 7 \n(1+2)*3 = 9 \n2*(3+4*(5-1))/4-1 = 8.5 \n"


def test_recursive_descent(tmp_path):
    assert interpreted_and_checked(tmp_path, CALCULATOR, dialect=None) == CALCULATOR_OUTPUT


# A reduction in a FUNCTION is a kernel too.
KERNEL_IN_FUNCTION = """\
DIM SHARED x(2000), y(2000)
FOR i = 1 TO 2000: x(i) = i / 1000: y(i) = 2: NEXT
PRINT Dot#(2000)
FUNCTION Dot# (n)
    FOR k = 1 TO n
        s# = s# + x(k) * y(k)
    NEXT
    Dot# = s#
END FUNCTION
"""


def test_reduction_in_a_function_is_offloaded(tmp_path):
    done = basic2tile(tmp_path, KERNEL_IN_FUNCTION, "--explain", dialect="qbasic")
    assert "source line 5 FOR k = 1 TO n\n      -> GPU kernel reduce_l5 (reduce)" in done.stdout
    # sum of 2 * i / 1000 for i = 1..2000 in singles, added in a double
    assert interpreted_and_checked(tmp_path, KERNEL_IN_FUNCTION, dialect="qbasic") == (
        " 4002.000000032829 \n"
    )


# A SUB's own CONST and DIM ... AS, and a GOSUB to a label inside it.
SUB_DECLARATIONS = """\
DECLARE SUB Report (n AS INTEGER)
Report 3
Report 4
SUB Report (n AS INTEGER)
    CONST W = 2
    DIM total AS DOUBLE, k AS INTEGER
    FOR k = 1 TO n
        total = total + k / W
    NEXT
    GOSUB Show
    EXIT SUB
Show:
    PRINT "total"; total
    RETURN
END SUB
"""


def test_const_dim_and_gosub_in_a_sub(tmp_path):
    """total starts at 0 on each call: 1/2 + 2/2 + 3/2, then 1/2 + ... + 4/2."""
    assert interpreted_and_checked(tmp_path, SUB_DECLARATIONS, dialect=None) == (
        "total 3 \ntotal 5 \n"
    )


# Euclid's GCD and a binary STRING FUNCTION, both recursive, typed by DEFINT A-Z (the
# DECLAREs write the suffixes, the FUNCTIONs do not); calls on both sides of AND.
GCD_AND_BINARY = """\
DECLARE FUNCTION Gcd% (a%, b%)
DECLARE FUNCTION Bin$ (n%)
DEFINT A-Z
CLS
FOR i = 1 TO 4
    PRINT Gcd(12 * i, 18); Bin$(i * 5)
NEXT i
IF Gcd(7, 3) = 1 AND Bin$(2) = "10" THEN PRINT "coprime"
x = 10: y = 4
SWAP x, y
PRINT Gcd(x, y) * Gcd(y, x)

FUNCTION Gcd (a, b)
    IF b = 0 THEN
        Gcd = a
    ELSE
        Gcd = Gcd(b, a MOD b)
    END IF
END FUNCTION

FUNCTION Bin$ (n)
    IF n < 2 THEN Bin$ = CHR$(48 + n): EXIT FUNCTION
    Bin$ = Bin$(n \\ 2) + CHR$(48 + n MOD 2)
END FUNCTION
"""
# gcd(12, 18) = 6, gcd(24, 18) = 6, gcd(36, 18) = 18, gcd(48, 18) = 6; 5, 10, 15, 20
# in binary; gcd(4, 10) * gcd(10, 4) = 2 * 2.
GCD_AND_BINARY_OUTPUT = " 6 101\n 6 1010\n 18 1111\n 6 10100\ncoprime\n 4 \n"


def test_gcd_and_binary(tmp_path):
    assert interpreted_and_checked(tmp_path, GCD_AND_BINARY, dialect=None) == GCD_AND_BINARY_OUTPUT


# Labels are local to their procedure: the module and two SUBs each have a Done:.
LOCAL_LABELS = """\
A
B
Done:
PRINT "module done"
END
SUB A
    GOTO Done
    PRINT "skipped"
Done:
    PRINT "A done"
END SUB
SUB B
    GOSUB Done
    EXIT SUB
Done:
    PRINT "B done"
    RETURN
END SUB
"""


def test_labels_are_local_to_their_procedure(tmp_path):
    assert interpreted_and_checked(tmp_path, LOCAL_LABELS, dialect=None) == (
        "A done\nB done\nmodule done\n"
    )


# LBOUND and UBOUND of an array parameter are those of the array each call passes
# (QBasic 1.1 help, "LBOUND, UBOUND": "useful for determining the size of an array
# passed to a procedure"); DEFINT and `AS DOUBLE` give the arrays their suffixes.
BOUNDS_OF_PARAMETERS = """\
DECLARE SUB Show (a() AS DOUBLE)
DEFINT I-N
DIM one(1 TO 3) AS DOUBLE, zero(0 TO 2) AS DOUBLE
FOR i = 1 TO 3: one(i) = i * 10: zero(i - 1) = 4 - i: NEXT
Show one()
Show zero()
SUB Show (a() AS DOUBLE)
  PRINT LBOUND(a); UBOUND(a); ":";
  FOR k = LBOUND(a) TO UBOUND(a): PRINT a(k);: NEXT
  PRINT
END SUB
"""


def test_bounds_of_an_array_parameter(tmp_path):
    out = interpreted_and_checked(tmp_path, BOUNDS_OF_PARAMETERS, dialect=None)
    assert out == " 1  3 : 10  20  30 \n 0  2 : 3  2  1 \n"
