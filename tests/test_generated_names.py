"""Identifiers basic2tile invents never collide with BASIC names (issue 13).

Every identifier of the generated code that no BASIC name gave it (a loop count, a lane
mask, a partial result, a CUDA thread's slot, a template's `con` or `grid`...) is
harvested from the code generated for the examples and for a probe program that has
every kind of kernel (tests/names_probe.py).  Each one is then declared as a BASIC name
in the probe: a variable that every kernel reads, an array, a loop variable; both
targets must still print what the interpreter prints.  The names are split into shards
(one program each), small enough for the CUDA emulator's launch templates.
"""

from __future__ import annotations

import functools
import re

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options

from .conftest import EXAMPLES
from .differential import differential
from .names_probe import basic_spelling, harvest, probe, probe_names

SHARDS = 10


@functools.cache
def harvested_names() -> tuple[str, ...]:
    """The BASIC spellings of the invented identifiers, minus the probe's own names."""
    files = sorted(EXAMPLES.glob("*.bas")) + sorted((EXAMPLES / "kernels").glob("*.bas"))
    programs = {f.name: f.read_text() for f in files}
    programs["probe.bas"] = probe()
    own = probe_names()
    spelled = {basic_spelling(identifier) for identifier in harvest(programs)}
    return tuple(sorted(s for s in spelled if s and s not in own))


def test_the_harvest_holds_invented_names_only():
    names = set(harvested_names())
    # invented by the passes, the kernel backends, the host printers and the templates
    for invented in ("VALID", "I_COUNT", "PX_TILE", "PX_I", "PS_PARTIAL", "DONE", "EXCEPTIONS", "TILE_K"):
        assert invented in names
    for invented in ("SLOT", "ELEM", "DEV", "PROGRAM", "GRID", "VALUE", "LOOP_COUNT"):
        assert invented in names
    # BASIC names of the examples are not invented ones
    assert not {"NVALUES", "CHECKSUM", "PEAKBIN", "SUMX"} & names


def names_program(names: list[str]) -> str:
    """The probe with `names` as variables that every kernel reads (their values count
    in what it prints), as arrays a kernel writes and another reads, and as loop
    variables; FN names become functions the kernels call."""
    functions = [n for n in names if n.startswith("FN")]
    variables = [n for n in names if not n.startswith("FN")]
    terms = variables + [f"{f}(1)" for f in functions]
    read = f"({' + '.join(terms)}) / 1E6"
    head = [f"LET {n} = {k} / 1000" for k, n in enumerate(variables, 1)]
    head += [f"DEF {f}(Z) = Z / 1000 + {k}" for k, f in enumerate(functions, 1)]
    body = ["FOR I = 1 TO 8", *(f"LET {n}(I) = I + {k}" for k, n in enumerate(variables, 1))]
    body += ["NEXT I", "LET PG = 0", "FOR I = 1 TO 8"]
    body += [f"LET PG = PG + ({' + '.join(f'{n}(I)' for n in variables)})", "NEXT I"]
    body += _print_lines(variables)
    for n in variables:
        body += [f"FOR {n} = 1 TO 8", f"LET PW({n}) = PX({n}) * 2 + {n}", f"NEXT {n}"]
    return probe(read, head=head, body=body, tail=["PRINT PG", *_print_lines(variables)])


def _print_lines(names: list[str]) -> list[str]:
    return ["PRINT " + "; ".join(names[i : i + 8]) for i in range(0, len(names), 8)]


def _kernel_count(program: str) -> int:
    analysis = driver.front_end(SourceFile("count.bas", program), Options())
    return len(driver.host_program(analysis).kernels)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_invented_names_declared_in_basic(shard: int):
    names = list(harvested_names()[shard::SHARDS])
    variables = [n for n in names if not n.startswith("FN")]
    program = names_program(names)
    # every loop of the probe is still a kernel (else the names never reach one), plus
    # the array writes and reads and the loops over each name
    assert _kernel_count(program) == _kernel_count(probe()) + 2 + len(variables)
    outcome = differential(program, f"names{shard}", targets=("cutile", "cuda"))
    assert outcome.agrees, outcome.describe()


# ---------------------------------------------------------------------- the issue's cases

ISSUE_CASES = {
    # a BASIC variable named like the loop count, the lane mask and tiles, read in kernels
    "read": """
10 DIM X(100), Y(100), Q(100)
20 LET I_COUNT = 7 : LET VALID = 3 : LET Q_TILE = 2 : LET X_I = 5 : LET Y_TILE = 11
30 FOR I = 1 TO 100
40 LET X(I) = I / 100
50 NEXT I
60 FOR I = 1 TO 100
70 LET Y(I) = 2 * X(I) + I + I_COUNT + VALID + Q_TILE + X_I + Y_TILE
80 LET Q(I) = Y(I) - Q_TILE
90 NEXT I
100 LET S = 0
110 FOR I = 1 TO 100
120 LET S = S + Y(I) * VALID + I_COUNT
130 NEXT I
140 PRINT S, Q(7), I_COUNT, VALID, Q_TILE, X_I, Y_TILE
150 END
""",
    # VALID as the loop variable, then as a variable private to the iterations
    "loop variable": """
10 DIM X(100), Y(100)
20 FOR VALID = 1 TO 100
30 LET X(VALID) = VALID * 2
40 NEXT VALID
50 LET S = 0
60 FOR I = 1 TO 100
70 IF X(I) > 50 THEN LET VALID = X(I) ELSE LET VALID = 1
80 LET S = S + VALID
90 NEXT I
100 FOR I_LANE = 1 TO 100
110 LET Y(I_LANE) = X(I_LANE) + I_LANE
120 NEXT I_LANE
130 PRINT S, Y(9)
140 END
""",
    # TILE_K is the matrix product's slice width, VALID the lane mask (TILE itself is a
    # keyword, so no BASIC name can be the tile size `tile`)
    "tile sizes": """
10 DIM X(100), A(70, 70), B(70, 70), C(70, 70)
20 TILE_K = 3
30 VALID = 2
40 FOR I = 1 TO 100
50 X(I) = TILE_K * I + VALID
60 NEXT I
70 PRINT X(5), X(100)
80 MAT A = CON
90 MAT B = CON
100 MAT C = A * B
110 PRINT C(1, 1) + TILE_K, C(70, 70) * VALID
120 END
""",
    # K and VALUE are the host's loop over the blocks' arg-max results
    "host": """
10 DIM X(100)
20 LET K = 5 : LET VALUE = 6
30 FOR I = 1 TO 100
40 LET X(I) = SIN(I)
50 NEXT I
60 LET M = -2 : LET J = 0
70 FOR I = 1 TO 100
80 IF X(I) > M THEN M = X(I) : J = I
90 NEXT I
100 PRINT M, J, K, VALUE
110 END
""",
}


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_the_issue_programs(case: str):
    program = ISSUE_CASES[case].lstrip()
    assert _kernel_count(program) >= 2
    outcome = differential(program, case.replace(" ", "_"), targets=("cutile", "cuda"))
    assert outcome.agrees, outcome.describe()


def test_kernel_program_input_named_like_the_program(tmp_path):
    """A cuTile BASIC program `va.bas` with INPUT VA: the kernel is `va` no more."""
    source = re.sub(r"\bN\b", "VA", (EXAMPLES / "kernels" / "vector_add.bas").read_text())
    analysis = driver.front_end(SourceFile("va.bas", source), Options())
    for target in ("cutile", "cuda"):
        code = driver.generate(analysis, target)
        result = driver.run(analysis, code, target, "cpu")
        assert result.returncode == 0, result.stderr
        assert "verification: PASSED" in result.stdout


def test_cutile_helper_functions_are_reserved():
    """No BASIC name takes the name of a tile function the generated module defines
    (templates/cutile/helpers.py.jinja): a kernel local `linear_recurrence` would hide the
    function its linear scan calls.  That one was missing from the reserved names."""
    from transpiler.ir.naming import Namer

    template = EXAMPLES.parent / "templates" / "cutile" / "helpers.py.jinja"
    defined = re.findall(r"^def (\w+)\(", template.read_text(), re.MULTILINE)
    assert "linear_recurrence" in defined
    namer = Namer("python")
    assert [name for name in defined if namer.ident(name.upper()) == name] == []
