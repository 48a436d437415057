"""A warning names its BASIC line on every engine when that line is translated twice.

A subroutine that falls through into the next lines, which the main program also
reaches by a GOSUB of their own, has those lines translated twice: in the subroutine's
function and in the main program's dispatch loop.  The Python module finds the line of
a warning from the `# N ...` comment above the row that failed, so each copy needs its
own comment: the copy without one reported an Overflow of line 440 at line 430 (issue
20, the shape of a published Sky & Telescope orbit program).  The C++ sets `line = N;`
in each copy.

Oracle: the reference interpreter, which locates each warning at its statement (the
source line quoted under `prog.bas:L:C: warning:`); `--check` compares the generated
programs' `warning: line N: ...` lines with the interpreter's, on both targets.  V*R1
is 3E+38 or more, past the largest single (1.701412E+38): Microsoft BASIC warns
"Overflow" and goes on.
"""

from __future__ import annotations

import re

import pytest

from tests.checking import checked_run

# The program: GOSUB 420 falls through 430 into the PRINT USING of 440, GOSUB
# 440 runs it alone.
INTO_PRINT_USING = """\
10 R1 = 1E38 : GOSUB 420 : GOSUB 440 : END
420 V = 3
430 R = 2
440 PRINT USING "##.##"; 1; V*R1; R
470 RETURN
"""

# In a FOR loop, each GOSUB on a line of its own (the orbit program).
FROM_A_LOOP = """\
100 R1 = 1E38
110 FOR I = 1 TO 2
120 IF I = 1 THEN GOSUB 420
130 IF I = 2 THEN GOSUB 440
140 NEXT I
150 END
420 V = 3
430 R = 2
440 PRINT USING "##.##"; I; V*R1; R
470 RETURN
"""

# GOSUBs to the start, the middle and the end of one fall-through chain, whose lines
# end in remarks; the middle one a PRINT, the last a LET.
INTO_THE_MIDDLE = """\
10 R1 = 1E38 : V = 3
20 GOSUB 500 : GOSUB 510 : GOSUB 520 : PRINT Y : END
500 R = 2 ' start
510 PRINT V*R1 ' middle
520 Y = V*R1*R ' last
530 RETURN
"""

# Falling through into a LET, reached by a GOSUB of its own too.
INTO_A_LET = """\
10 R1 = 1E38
20 GOSUB 420 : GOSUB 440 : PRINT X : END
420 V = 3
430 R = 2
440 X = V*R1 : X = X + R
470 RETURN
"""

# The same with a variable that nothing reads: its stores are dropped (dead), in the
# main program's copy too, and the subroutine's `nonlocal x` was left without a binding:
# the generated Python did not compile ("no binding for nonlocal 'x' found").
INTO_AN_UNREAD_LET = """\
10 R1 = 1E38
20 GOSUB 420 : GOSUB 440 : END
420 V = 3
430 R = 2
440 X = V*R1*R
470 RETURN
"""

SHAPES = {
    "into_print_using": (INTO_PRINT_USING, [440, 440]),
    "from_a_loop": (FROM_A_LOOP, [440, 440]),
    "into_the_middle": (INTO_THE_MIDDLE, [510, 520, 520, 510, 520, 520, 520, 520]),
    "into_a_let": (INTO_A_LET, [440, 440]),
    "into_an_unread_let": (INTO_AN_UNREAD_LET, [440, 440, 440, 440]),
}

# The line quoted under the interpreter's located warning.
_WARNED_LINE = re.compile(r": warning: Overflow\n +(\d+) ")


@pytest.mark.parametrize("name", SHAPES)
def test_a_warning_in_a_line_reached_two_ways_names_that_line(tmp_path, name):
    text, lines = SHAPES[name]
    done = checked_run(tmp_path, text)
    assert done.returncode == 0, done.stderr
    assert [int(n) for n in _WARNED_LINE.findall(done.stderr)] == lines, done.stderr
