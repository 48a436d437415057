"""A probe for name collisions: one program with every kind of kernel, and the harvest of
the identifiers basic2tile invents (tests/test_generated_names.py).

`probe(read)` is the program: a map, a stencil, sum and product reductions, an arg-max,
a histogram, a masked WHILE loop per element, an inner FOR, a gathered read (checked in
the kernel), an IF/ELSE, a DEF FN, 2-D nests, a matrix-product nest and MAT C = A * B.
Each loop body that can take one has the hook `{R}`, a numeric expression: `read` goes
there, so every kernel reads what `read` names.

`harvest(programs)` generates both targets for each program and returns every
identifier of the output that no BASIC name gave it: the namers record which
identifiers were BASIC names' (`Namer.basic_identifiers`), so the list cannot go stale
when a backend invents a new name.
"""

from __future__ import annotations

import io
import re
import tokenize
from contextlib import contextmanager

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.ir import naming
from transpiler.language.builtins import BUILTINS
from transpiler.language.keywords import KEYWORDS, UNSUPPORTED
from transpiler.options import Options

_HEAD = """
DIM PX(64), PY(64), PU(64), PV(64), PW(64), PH(9), PA(8, 8), PC(8, 8), PD(8, 8), PE(8, 8)
DEF FNPQ(PZ) = PZ * 2 + {R}
LET N = 64
"""
_LOOPS = """
FOR I = 1 TO N
LET PX(I) = I / N + {R}
NEXT I
FOR I = 2 TO N - 1
LET PU(I) = PX(I - 1) - 2 * PX(I) + PX(I + 1) + {R}
NEXT I
LET PS = 0
FOR I = 1 TO N
LET PS = PS + (PX(I) * {R})
NEXT I
LET PP = 1
FOR I = 1 TO N
LET PP = PP * (1 + PX(I) / 1000 + {R} / 1E6)
NEXT I
LET PM = -1E30
LET PJ = 0
FOR I = 1 TO N
IF PX(I) + {R} > PM THEN PM = PX(I) + {R} : PJ = I
NEXT I
FOR I = 1 TO N
LET PB = INT(PX(I) * 9.99)
LET PH(PB) = PH(PB) + {R}
NEXT I
FOR I = 1 TO N
LET PZ = PX(I) + 1
LET PK = 0
WHILE ABS(PZ * PZ - PX(I) - 1) > 1E-9 AND PK < 50
LET PZ = (PZ + (PX(I) + 1) / PZ) / 2
LET PK = PK + 1
WEND
LET PV(I) = PZ + PK + {R}
NEXT I
FOR I = 1 TO N
LET PT = 0
FOR PL = 1 TO 3
LET PT = PT + PX(I) * PL + {R}
NEXT PL
LET PW(I) = PT
NEXT I
FOR I = 1 TO N
LET PY(I) = PX(INT(I / 2) + 1) + {R}
NEXT I
FOR I = 1 TO N
IF PX(I) > .5 THEN PY(I) = PY(I) + {R} ELSE PY(I) = PY(I) - 1
NEXT I
FOR I = 1 TO N
LET PU(I) = FNPQ(PX(I)) + {R}
NEXT I
FOR I = 1 TO 8
FOR J = 1 TO 8
LET PA(I, J) = I + J / 8 + {R}
LET PC(I, J) = I - J + {R}
NEXT J
NEXT I
FOR I = 1 TO 8
FOR J = 1 TO 8
LET PR = 0
FOR K = 1 TO 8
LET PR = PR + PA(I, K) * PC(K, J)
NEXT K
LET PD(I, J) = PR
NEXT J
NEXT I
MAT PE = PA * PC
LET PQ = 0
FOR I = 1 TO 8
FOR J = 1 TO 8
LET PQ = PQ + (PD(I, J) + PE(I, J) + {R})
NEXT J
NEXT I
"""
_TAIL = """
PRINT PS; PP; PM; PJ; PQ
LET PF = 0
FOR I = 1 TO N
LET PF = PF + (PY(I) + PU(I) + PV(I) + PW(I))
NEXT I
PRINT PF
FOR I = 0 TO 9
PRINT PH(I);
NEXT I
PRINT
"""


def probe(read: str = "0", head: list[str] = (), body: list[str] = (), tail: list[str] = ()) -> str:
    """The probe program: `read` in every hook, `head` lines after its DIM and DEF,
    `body` lines after its loops, `tail` lines before END."""
    lines: list[str] = []
    for part in (_HEAD, *head, _LOOPS, *body, _TAIL, *tail, "END"):
        lines += [line for line in part.strip().splitlines() if line.strip()]
    numbered = (f"{10 * n} {line.replace('{R}', read)}" for n, line in enumerate(lines, 1))
    return "\n".join(numbered) + "\n"


@contextmanager
def recording_namers():
    """Collect every Namer created inside the block."""
    created: list[naming.Namer] = []
    original = naming.Namer.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        created.append(self)

    naming.Namer.__init__ = init
    try:
        yield created
    finally:
        naming.Namer.__init__ = original


def harvest(programs: dict[str, str]) -> set[str]:
    """The identifiers basic2tile invented in the code of `programs` (name -> source),
    for both targets."""
    found: set[str] = set()
    basic: set[str] = set()
    for name, text in programs.items():
        analysis = driver.front_end(SourceFile(name, text), Options())
        with recording_namers() as namers:
            python = driver.generate(analysis, "cutile")
            cpp = driver.generate(analysis, "cuda")
        for namer in namers:
            basic |= namer.basic_identifiers()
        found |= python_identifiers(python) | cpp_identifiers(cpp)
    return found - basic


def python_identifiers(code: str) -> set[str]:
    """Names a Python module binds or reads (not attributes, not keyword arguments)."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(code).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)
    ]
    out = set()
    for i, t in enumerate(tokens):
        if t.type != tokenize.NAME:
            continue
        before = tokens[i - 1].string if i else ""
        after = tokens[i + 1].string if i + 1 < len(tokens) else ""
        if before == "." or (after == "=" and before in ("(", ",")):
            continue
        out.add(t.string)
    return out


_CPP_NOISE = re.compile(
    r'//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^\s*#[^\n]*', re.MULTILINE
)
_CPP_NAME = re.compile(r"(?<![\w.])(?<!->)(?<!::)[A-Za-z_]\w*")


def cpp_identifiers(code: str) -> set[str]:
    """Names in C++ text outside comments, literals and directives (not members)."""
    return set(_CPP_NAME.findall(_CPP_NOISE.sub(" ", code)))


def probe_names() -> set[str]:
    """The BASIC names the probe itself uses."""
    analysis = driver.front_end(SourceFile("probe.bas", probe()), Options())
    return set(analysis.variables) | set(analysis.arrays) | set(analysis.functions)


def basic_spelling(identifier: str) -> str | None:
    """The BASIC variable (or FN function) whose identifier is `identifier`, or None if
    BASIC has none (upper case, a leading underscore, a keyword, a built-in or a reserved
    word of another dialect)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", identifier):
        return None
    if identifier.startswith("fn"):
        spelled = "FN" + identifier[3:].upper() if identifier.startswith("fn_") else None
    else:
        spelled = identifier.upper()
    if not spelled or spelled in KEYWORDS or spelled in BUILTINS or spelled in UNSUPPORTED:
        return None
    return spelled
