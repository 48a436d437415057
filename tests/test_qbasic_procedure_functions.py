"""QuickBASIC's SUBs and FUNCTIONs become functions of the generated programs: a Python
function (`def swap2(a: float, b: float) -> tuple[float, float]`) and a C++ member
function (`void swap2(float& a, float& b)`), with the procedure's parameters, its
variables its locals, recursion the host language's.

As in tests/test_qbasic_procedures.py, there is no QuickBASIC here: the expected outputs
are reasoned from the QuickBASIC 4.5 / QBasic 1.1 language reference (arguments passed
by reference unless an expression or a variable in parentheses of its own; a
FUNCTION's name is its value in its body; STATIC keeps a procedure's variables; EXIT
SUB leaves it), numbers printed as GW-BASIC prints them.  Every program runs through
the interpreter and both generated targets, which must agree exactly.
"""

from __future__ import annotations

import re

from tests.checking import basic2tile, checked_run, interpreted_and_checked

# The example: a SUB swapping its by-reference parameters, a recursive FUNCTION.
SWAP_AND_FACT = """\
DECLARE SUB Swap2 (A, B)
DECLARE FUNCTION Fact# (N%)
X = 1: Y = 2
CALL Swap2(X, Y)
PRINT X; Y; Fact#(5)
END
SUB Swap2 (A, B)
  T = A: A = B: B = T
END SUB
FUNCTION Fact# (N%)
  IF N% <= 1 THEN Fact# = 1 ELSE Fact# = N% * Fact#(N% - 1)
END FUNCTION
"""


def test_swap_and_fact_agree(tmp_path):
    assert interpreted_and_checked(tmp_path, SWAP_AND_FACT, dialect=None) == " 2  1  120 \n"


def test_a_sub_is_a_python_function_with_its_parameters(tmp_path):
    python = basic2tile(tmp_path, SWAP_AND_FACT, "-o", "-", dialect="qbasic").stdout
    assert (
        "    # SUB Swap2 (A, B)\n    def swap2(a: float, b: float) -> tuple[float, float]:\n"
        in python
    )
    assert "        t = 0.0\n        # T = A\n        t = sng(a)\n" in python  # a local
    assert "        # END SUB\n        return a, b\n" in python
    assert "    # CALL Swap2(X, Y)\n    x, y = swap2(x, y)\n" in python  # by reference
    assert "    def fact(n_int: int) -> float:\n" in python
    assert "fact(cint(int_result(n_int - 1.0)))" in python  # plain recursion
    assert "saved_" not in python and "gosub_" not in python
    assert "# PRINT X; Y; Fact#(5)\n    call_1_dbl = fact(cint(5.0))\n" in python


def test_a_sub_is_a_cpp_function_with_reference_parameters(tmp_path):
    cpp = basic2tile(
        tmp_path, SWAP_AND_FACT, "-o", "-", "--target", "cuda", dialect="qbasic"
    ).stdout
    assert "  // SUB Swap2 (A, B)\n  void swap2(float& a, float& b) {\n    float t = 0.0;\n" in cpp
    assert "  double fact(std::int32_t n_int) {\n" in cpp  # N% is passed by value: not changed
    assert "    return result;\n  }\n" in cpp
    assert "    // CALL Swap2(X, Y)\n    swap2(x, y);\n" in cpp
    assert "saved_" not in cpp and "gosub_" not in cpp and "float swap2_a" not in cpp


def test_the_generated_code_has_no_duplicate_or_empty_comment(tmp_path):
    """The DECLARE's comment once, no `#` alone above a hoisted call, the INTEGER call
    depth starting at 0 (GOSUB-style code: test_no_code_after_a_raise_in_a_dispatch_block)."""
    python = basic2tile(tmp_path, SWAP_AND_FACT, "-o", "-", dialect="qbasic").stdout
    assert python.count("# DECLARE SUB Swap2 (A, B)") == 1
    assert not re.search(r"^ *#$", python, re.MULTILINE)
    assert "call_depth_int = 0\n" in python


# By reference and by value: a variable passed is changed, a variable in parentheses or
# an expression is not; a FUNCTION changing its by-reference argument; a FUNCTION called
# in conditions (both sides of AND run: QuickBASIC does not short-circuit), STATIC, SHARED,
# EXIT SUB from a loop, arrays passed to a SUB and a FUNCTION; Hanoi, Fibonacci and
# Ackermann recursive.
BEHAVIOUR = """\
DECLARE SUB Swap2 (A, B)
DECLARE SUB AddTo (Total, Amount)
DECLARE SUB Hanoi (N%, Src$, Dst$, Via$)
DECLARE FUNCTION Fib& (N%)
DECLARE FUNCTION Ack% (M%, N%)
DECLARE FUNCTION Bump% (K%)
DECLARE SUB Counter ()
DECLARE SUB FillSquares (A() AS INTEGER, N%)
DECLARE FUNCTION SumOf% (A() AS INTEGER, N%)
DECLARE SUB EarlyOut (N%)
DIM SHARED Calls%
DIM Sq(10) AS INTEGER
X = 1: Y = 2
CALL Swap2(X, Y)
PRINT X; Y
CALL Swap2((X), Y)
PRINT X; Y
T = 10
AddTo T, 5
AddTo T + 1, 5
PRINT T
Hanoi 3, "A", "C", "B"
PRINT Fib&(20); Ack%(2, 3)
K% = 5
PRINT Bump%(K%); K%
PRINT Bump%((K%)); K%
IF Fib&(10) > 50 AND Bump%(K%) = 7 THEN PRINT "both"; K%
PRINT K%
FOR I% = 1 TO 3: Counter: NEXT I%
FillSquares Sq(), 10
PRINT SumOf%(Sq(), 10)
N% = 3: EarlyOut N%: PRINT N%
EarlyOut 30
PRINT "calls"; Calls%
END

SUB Swap2 (A, B)
  T = A: A = B: B = T
END SUB

SUB AddTo (Total, Amount)
  Total = Total + Amount
END SUB

SUB Hanoi (N%, Src$, Dst$, Via$)
  Calls% = Calls% + 1
  IF N% = 0 THEN EXIT SUB
  Hanoi N% - 1, Src$, Via$, Dst$
  PRINT Src$; "->"; Dst$; " ";
  Hanoi N% - 1, Via$, Dst$, Src$
  IF N% = 3 THEN PRINT
END SUB

FUNCTION Fib& (N%)
  IF N% < 2 THEN Fib& = N%: EXIT FUNCTION
  Fib& = Fib&(N% - 1) + Fib&(N% - 2)
END FUNCTION

FUNCTION Ack% (M%, N%)
  IF M% = 0 THEN
    Ack% = N% + 1
  ELSEIF N% = 0 THEN
    Ack% = Ack%(M% - 1, 1)
  ELSE
    Ack% = Ack%(M% - 1, Ack%(M%, N% - 1))
  END IF
END FUNCTION

FUNCTION Bump% (K%)
  K% = K% + 1
  Bump% = K% * 10
END FUNCTION

SUB Counter STATIC
  N = N + 1
  PRINT "counter"; N
END SUB

SUB FillSquares (A() AS INTEGER, N%)
  FOR I% = 1 TO N%: A(I%) = I% * I%: NEXT I%
END SUB

FUNCTION SumOf% (A() AS INTEGER, N%)
  S% = 0
  FOR I% = 1 TO N%: S% = S% + A(I%): NEXT I%
  SumOf% = S%
END FUNCTION

SUB EarlyOut (N%)
  DO
    N% = N% + 10
    IF N% > 25 THEN EXIT SUB
  LOOP
END SUB
"""
# Swap2(X, Y) swaps; Swap2((X), Y) passes a copy of X: Y takes X's 2 and X stays.
# AddTo T + 1 changes a temporary.  Hanoi 3 moves 7 disks and runs 15 times (8 with
# N% = 0).  Fib&(20) = 6765, Ack(2, 3) = 9.  Bump%(K%) makes K% 6 and gives 60;
# Bump%((K%)) gives 70 and leaves K% at 6; in the IF, Fib&(10) = 55 > 50 and Bump%(K%)
# gives 70 (K% 7), not 7: no "both", and K% is 7.  The STATIC N counts 1, 2, 3; the
# squares 1..100 sum to 385; EarlyOut N% adds 10 until past 25: 33.
BEHAVIOUR_OUTPUT = """\
 2  1 \n 2  2 \n 15 \nA->C A->B C->B A->C B->A B->C A->C \n 6765  9 \n 60  6 \n 70  6 \n 7 \n\
counter 1 \ncounter 2 \ncounter 3 \n 385 \n 33 \ncalls 15 \n"""


def test_behaviour_of_procedure_functions(tmp_path):
    assert interpreted_and_checked(tmp_path, BEHAVIOUR, dialect=None) == BEHAVIOUR_OUTPUT


def test_python_gives_back_what_a_procedure_may_change(tmp_path):
    python = basic2tile(tmp_path, BEHAVIOUR, "-o", "-", dialect="qbasic").stdout
    assert "    _, y = swap2(x, y)\n" in python  # (X): by value
    assert "    t = addto(t, sng(5.0))\n    # AddTo T + 1, 5\n    addto(" in python
    assert "    call_3_int, k_int = bump(k_int)\n" in python  # a FUNCTION changing K%
    assert "    def bump(k_int: int) -> tuple[int, int]:\n" in python
    assert "    def counter() -> None:\n        nonlocal counter_n\n" in python  # STATIC
    assert "nonlocal call_depth_int, calls_int\n" in python  # SHARED Calls%
    assert "sys.setrecursionlimit" in python


def test_cpp_passes_a_temporary_for_a_value_argument(tmp_path):
    cpp = basic2tile(tmp_path, BEHAVIOUR, "-o", "-", "--target", "cuda", dialect="qbasic").stdout
    assert "  void addto(float& total, float amount) {\n" in cpp
    assert "    addto(t, b2t::sng(5.0));\n" in cpp
    assert (
        "      float arg_2 = b2t::sng(b2t::sng(t + 1.0));\n      addto(arg_2, b2t::sng(5.0));\n"
        in cpp
    )
    assert "  std::int32_t bump(std::int32_t& k_int) {\n" in cpp


# A FUNCTION of type LONG: its value is held in a LONG temporary (it was a single's:
# 581130733 printed as 5.811308E+08).  (3^19 - 1) / 2 = 581130733.
LONG_RESULT = """\
DECLARE FUNCTION Big& (N%)
PRINT Big&(18)
FUNCTION Big& (N%)
  IF N% = 0 THEN Big& = 1 ELSE Big& = Big&(N% - 1) * 3 + 1
END FUNCTION
"""


def test_a_long_function_value_keeps_its_digits(tmp_path):
    assert interpreted_and_checked(tmp_path, LONG_RESULT, dialect=None) == " 581130733 \n"


# Deep recursion: 900 nested calls run (Python's own limit is raised), 2000 stop with
# QuickBASIC's "Out of stack space" after 1000.
DEPTH = """\
DECLARE FUNCTION Depth% (N%)
PRINT Depth%(900)
PRINT Depth%(2000)
FUNCTION Depth% (N%)
  IF N% = 0 THEN Depth% = 0 ELSE Depth% = 1 + Depth%(N% - 1)
END FUNCTION
"""


def test_deep_recursion_then_out_of_stack_space(tmp_path):
    done = checked_run(tmp_path, DEPTH, dialect="qbasic")
    assert done.stdout == " 900 \n"
    assert "error: Out of stack space" in done.stderr


# Arrays as parameters: QSort recursing on its array, Fill and Sum called with two
# arrays each, Twice passing its array on to Fill.  b() sorted; Fill c(): 3, 6 .. 15,
# sum 45; Twice: 3k doubled, 6k: b() sums 6 * 36 = 216, c() 6 * 15 = 90.
ARRAYS = """\
DECLARE SUB QSort (a() AS INTEGER, lo%, hi%)
DECLARE SUB Fill (v() AS INTEGER, n%)
DECLARE SUB Twice (w() AS INTEGER, n%)
DECLARE FUNCTION Sum% (v() AS INTEGER, n%)
DIM b(8) AS INTEGER, c(5) AS INTEGER
FOR i% = 1 TO 8: READ b(i%): NEXT
DATA 5, 3, 8, 1, 9, 2, 7, 4
QSort b(), 1, 8
FOR i% = 1 TO 8: PRINT b(i%);: NEXT: PRINT
Fill c(), 5
PRINT Sum%(c(), 5)
Twice c(), 5
Twice b(), 8
PRINT Sum%(b(), 8); Sum%(c(), 5)
END

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

SUB Fill (v() AS INTEGER, n%)
    FOR k% = 1 TO n%: v(k%) = k% * 3: NEXT
END SUB

SUB Twice (w() AS INTEGER, n%)
    Fill w(), n%
    FOR k% = 1 TO n%: w(k%) = w(k%) * 2: NEXT
END SUB

FUNCTION Sum% (v() AS INTEGER, n%)
    FOR k% = 1 TO n%: s% = s% + v(k%): NEXT
    Sum% = s%
END FUNCTION
"""


def test_arrays_are_passed_as_the_array_objects(tmp_path):
    expected = " 1  2  3  4  5  7  8  9 \n 45 \n 216  90 \n"
    assert interpreted_and_checked(tmp_path, ARRAYS, dialect=None) == expected
    python = basic2tile(tmp_path, ARRAYS, "-o", "-", dialect="qbasic").stdout
    assert "    def qsort(a_int: BasicArray, lo_int: int, hi_int: int) -> None:\n" in python
    assert "            qsort(a_int, lo_int, i_int)\n" in python  # recursion passes it on
    assert "        fill(w_int, n_int)\n" in python
    assert "    twice(b_int, cint(8.0))\n" in python
    assert "def fill_2" not in python and "def sum_2" not in python  # one function each
    cpp = basic2tile(tmp_path, ARRAYS, "-o", "-", "--target", "cuda", dialect="qbasic").stdout
    assert "  void fill(b2t::Array<std::int32_t>& v_int, std::int32_t n_int) {\n" in cpp
    assert "    call_2_int = sum(b_int, b2t::to_int16(8.0));\n" in cpp


def test_a_procedure_passing_its_parameters_on_changes_none(tmp_path):
    """Hanoi passes its strings on to itself, which never assigns them: by value."""
    python = basic2tile(tmp_path, BEHAVIOUR, "-o", "-", dialect="qbasic").stdout
    assert "def hanoi(n_int: int, src_str: str, dst_str: str, via_str: str) -> None:" in python
    cpp = basic2tile(tmp_path, BEHAVIOUR, "-o", "-", "--target", "cuda", dialect="qbasic").stdout
    assert "void hanoi(std::int32_t n_int, std::string src_str, std::string dst_str" in cpp


# COMMON SHARED: the SUB changes the program's variable (Python: `nonlocal`).
COMMON_SHARED = """\
DECLARE SUB Inc ()
COMMON SHARED Total
Total = 1
Inc
PRINT Total
SUB Inc
  Total = Total + 1
END SUB
"""


def test_common_shared_is_the_programs_variable(tmp_path):
    assert interpreted_and_checked(tmp_path, COMMON_SHARED, dialect=None) == " 2 \n"
    python = basic2tile(tmp_path, COMMON_SHARED, "-o", "-", dialect="qbasic").stdout
    assert "    def inc() -> None:\n        nonlocal total\n" in python


# A SUB that GOSUBs a subroutine of its own keeps the GOSUB lowering (the subroutine
# uses the SUB's variables): --explain and a comment of the generated code say why.
GOSUB_INSIDE = """\
DECLARE SUB Report (N)
Report 3
SUB Report (N)
  Total# = 0
  FOR I = 1 TO N: GOSUB AddOne: NEXT I
  PRINT "total"; Total#
  EXIT SUB
AddOne:
  Total# = Total# + I
  RETURN
END SUB
"""


def test_a_sub_with_gosub_inside_stays_gosub_style_code_and_says_why(tmp_path):
    assert interpreted_and_checked(tmp_path, GOSUB_INSIDE, dialect=None) == "total 6 \n"
    why = "GOSUB-style code: it GOSUBs a subroutine of its own, which uses its variables"
    explained = basic2tile(tmp_path, GOSUB_INSIDE, "--explain", dialect="qbasic").stdout
    assert f"  SUB REPORT (source line 3)\n      -> {why}\n" in explained
    python = basic2tile(tmp_path, GOSUB_INSIDE, "-o", "-", dialect="qbasic").stdout
    assert f"    # SUB REPORT is {why}\n" in python
    explained = basic2tile(tmp_path, SWAP_AND_FACT, "--explain", dialect="qbasic").stdout
    assert "  SUB SWAP2 (source line 7)\n      -> a function with its parameters\n" in explained


# A program that traps errors is one dispatch loop, its FUNCTION GOSUB-style code: its
# "Out of stack space" is the last line of its block (a `label = ...` followed it).
TRAPPED = """\
DECLARE FUNCTION Fact# (N%)
ON ERROR GOTO Handler
PRINT Fact#(5)
END
Handler:
PRINT "error"; ERR
RESUME NEXT
FUNCTION Fact# (N%)
  IF N% <= 1 THEN Fact# = 1 ELSE Fact# = N% * Fact#(N% - 1)
END FUNCTION
"""


def test_no_code_after_a_raise_in_a_dispatch_block(tmp_path):
    assert interpreted_and_checked(tmp_path, TRAPPED, dialect=None) == " 120 \n"
    python = basic2tile(tmp_path, TRAPPED, "-o", "-", dialect="qbasic").stdout
    fault = 'raise BasicFault("Out of stack space")\n'
    assert fault in python
    assert python.split(fault, 1)[1].lstrip().startswith("case ")
    assert "# FUNCTION FACT# is GOSUB-style code: the program traps errors (ON ERROR)" in python
    # the DECLARE quoted once (not above the frames' arrays too), no empty comment above
    # a hoisted call, INTEGERs starting at 0
    assert python.count("# DECLARE FUNCTION Fact# (N%)") == 1
    assert not re.search(r"^ *#$", python, re.MULTILINE)
    assert "    call_depth_int = fact_n_int = 0\n" in python
