"""BASIC programs of a given size in the shapes that large real programs take, for the
scaling tests and `bench/transpile.py`.

Each shape is a function of the number of lines wanted (the programs have that many
lines, give or take a few) and returns a valid, deterministic program that runs to its
END in time linear in its length (loops have fixed trip counts), so every mode of
`basic2tile` can be timed or counted on it:

    rem_run     one long run of REM lines (a commented-out listing, a long banner)
    commented   short routines, each under a block of REM lines (4 of every 7 lines)
    data        DATA lines of 8 numbers each, summed by one READ loop
    host        scalar host code: LET, IF ... THEN, PRINT, an occasional GOSUB
    gotos       many GOTO targets: forward jumps over lines and backward GOTO loops
    if_chain    long chains of one-line IFs in a loop, and a block IF with many ELSEIFs
                whose ELSE may jump out of the loop or back to the first ELSEIF
    gosubs      many subroutines, each called once, each able to call the next
    strings     all 286 string variables of ECMA-55 (A$ to Z9$), assigned, joined, printed
    one_line    the whole computation on one line of `:`-separated statements
    data_line   one DATA line of 10 items for each line asked for, summed by READ
    generated   the random programs of the differential tests (arrays, kernels, ...)
"""

from __future__ import annotations

from tests.programgen import random_program


def _numbered(body: list[str]) -> str:
    return "".join(f"{10 * (k + 1)} {text}\n" for k, text in enumerate(body))


def rem_run(lines: int) -> str:
    body = ["LET S = 1"]
    body += [
        f"REM {k:5d} THE OLD VERSION OF THIS ROUTINE, KEPT FOR REFERENCE" for k in range(lines - 3)
    ]
    return _numbered(body + ["PRINT S", "END"])


def commented(lines: int) -> str:
    body = ["DIM X(20)", "LET S = 0"]
    for k in range((lines - 4) // 7):
        body += [
            "REM ---------------------------------------------",
            f"REM STEP {k}: ADD THE MULTIPLES OF {k % 7 + 1}",
            "REM (ONE LOOP OVER THE TABLE, THEN THE TOTAL)",
            "REM ---------------------------------------------",
            "FOR I = 1 TO 20",
            f"LET X(I) = I * {k % 7 + 1}",
            f"NEXT I : LET S = S + X({k % 20 + 1})",
        ]
    return _numbered(body + ["PRINT S", "END"])


def data(lines: int) -> str:
    rows = max(1, lines - 7)
    body = ["LET S = 0", f"FOR I = 1 TO {8 * rows}", "READ V", "LET S = S + V", "NEXT I"]
    body += ["PRINT S"]
    body += ["DATA " + ", ".join(str((8 * r + j) % 97) for j in range(8)) for r in range(rows)]
    return _numbered(body + ["END"])


def host(lines: int) -> str:
    body = ["LET A = 1", "LET B = 2", "LET C = 0", "GOTO 70", "LET C = C + 1", "RETURN"]
    for k in range((lines - 8) // 5):
        body += [
            f"LET A = A + {k % 9 + 1}",
            "LET B = B * 0.5 + A",
            "IF A > 1000 THEN LET A = A - 1000",
            "GOSUB 50" if k % 10 == 0 else f"LET C = C + {k % 3}",
            "PRINT A; B; C" if k % 10 == 9 else "LET C = C - 1",
        ]
    return _numbered(body + ["PRINT A; B; C", "END"])


def gotos(lines: int) -> str:
    body = ["LET S = 0"]
    for k in range((lines - 3) // 6):
        here = 10 * (len(body) + 1)
        body += [
            "LET C = 0",
            f"LET C = C + 1 : LET S = S + {k % 5}",
            f"IF C < 3 THEN GOTO {here + 10}",
            f"IF S > {k} THEN GOTO {here + 60}",
            f"LET S = S + {k}",
            'PRINT "PASSED"; S',
        ]
    return _numbered(body + ["PRINT S", "END"])


def if_chain(lines: int) -> str:
    arms = (lines - 10) // 4
    body = ["LET S = 0", "FOR K = 1 TO 5"]
    body += [f"IF K = {k % 5 + 1} THEN LET S = S + {k}" for k in range(arms)]
    body += ["PRINT S;", "NEXT K", "PRINT", "FOR K = 1 TO 3", "IF K = 0 THEN"]
    for k in range(arms):
        body += [f"LET S = S - {k}", f"ELSEIF K = {k % 7} THEN"]
    back = 10 * (len(body) - 2 * arms + 2)  # the first ELSEIF
    exit_line = 10 * (len(body) + 8)  # the PRINT S after the loop
    body += ["LET S = S + 1", "ELSE", f"IF S > 1E30 THEN GOTO {exit_line}"]
    body += [f"IF S < -1E30 THEN GOTO {back}", "LET S = -S", "END IF", "NEXT K", "PRINT S", "END"]
    return _numbered(body)


def gosubs(lines: int) -> str:
    """The main program calls each subroutine once, the last one first; each subroutine
    may call the next one (it never does at run time), so that they also form one long
    chain, at whose end the last one sets T."""
    count = (lines - 4) // 4
    first = 10 * (count + 4)  # the line number of the first subroutine
    calls = [f"GOSUB {first + 30 * k}" for k in reversed(range(count))]
    body = ["LET S = 0", *calls, "PRINT S", "STOP"]
    for k in range(count):
        call = f"IF S < 0 THEN GOSUB {first + 30 * (k + 1)}" if k + 1 < count else "LET T = S"
        body += [f"LET S = S + {k}", call, "RETURN"]
    return _numbered(body + ["END"])


def strings(lines: int) -> str:
    """Every string variable ECMA-55 allows (A$ to Z9$, 286 of them), assigned, joined,
    compared and printed."""
    names = [f"{letter}{digit}$" for digit in ("", *"0123456789") for letter in _LETTERS]
    body = []
    for k in range(lines - 1):
        # b: the variable the first statement of each group of four sets to a constant
        # (so that no string grows with the length of the program)
        a, b = names[(7 * k + 3) % len(names)], names[(7 * (k - k % 4) + 3) % len(names)]
        body.append(
            (
                f'LET {b} = "{k}"',
                f'LET {a} = {b} + "-"',
                f"PRINT {a}; {b}",
                f"IF {a} < {b} THEN LET {a} = {b}",
            )[k % 4]
        )
    return _numbered(body + ["END"])


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def one_line(lines: int) -> str:
    """`lines` statements on line 20 (the line count of this shape is its statements)."""
    statements = [f"LET S = S + {k % 10}" if k % 8 else "PRINT S;" for k in range(lines)]
    return f"10 LET S = 0\n20 {' : '.join(statements)}\n30 PRINT S\n40 END\n"


def data_line(lines: int) -> str:
    """One DATA line of `10 * lines` items (about 40 bytes per line counted)."""
    items = 10 * lines
    listed = ", ".join(str(k % 1000) for k in range(items))
    return (
        f"10 LET S = 0\n20 FOR I = 1 TO {items}\n30 READ V\n40 LET S = S + V\n50 NEXT I\n"
        f"60 PRINT S\n70 DATA {listed}\n80 END\n"
    )


def generated(lines: int) -> str:
    """(One seed for every size: a longer program starts as a shorter one does.)"""
    return random_program(seed=1, statements=max(1, lines // 5))


SHAPES = {
    "rem_run": rem_run,
    "commented": commented,
    "data": data,
    "host": host,
    "gotos": gotos,
    "if_chain": if_chain,
    "gosubs": gosubs,
    "strings": strings,
    "one_line": one_line,
    "data_line": data_line,
    "generated": generated,
}
