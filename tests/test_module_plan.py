"""A program's module is decided once for both targets (transpiler/hostcode/module_plan.py,
procedures.py): the printers only write the plan, so what the plan says shows in the
generated Python and C++ alike."""

from __future__ import annotations

import os
import subprocess
import sys

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.hostcode.module_plan import ModulePlan
from transpiler.hostcode.procedures import parameters
from transpiler.ir.naming import Namer
from transpiler.options import Options

GW_PROGRAM = """\
10 REM SQUARES FROM DATA
20 REM ONE PER LINE
30 DIM A(3)
40 FOR I = 1 TO 3: READ A(I): B(I) = A(I) * A(I): NEXT I
50 PRINT B(3)
60 DATA 1, 2
70 DATA 3
"""


def _plan(text: str, options: Options):
    analysis = driver.front_end(SourceFile("prog.bas", text), options)
    host = driver.host_program(analysis)
    return analysis, host, ModulePlan(host, Namer("python"), "Python")


def test_the_plan_decides_the_data_table_and_the_arrays_for_both_targets():
    analysis, _, plan = _plan(GW_PROGRAM, Options(std="ms"))
    assert [len(stmt.items) for stmt in plan.data] == [2, 1]
    assert plan.data_line_starts == [(60, 0), (70, 2)]  # GW-BASIC: a bad item's ERL
    assert plan.data_pool == [("strict", False), ("microsoft", True), ("lines", "DATA_LINES")]
    assert [(array.name, array.allocated) for array in plan.arrays] == [("A", True), ("B", True)]
    assert plan.arrays[0].note is None  # under its DIM's comment
    assert plan.arrays[1].note == "B() is used without DIM: subscripts 0 to 10"
    assert len(plan.header) == 2  # the leading REMs: the program's description
    assert plan.title == "prog.bas: a BASIC program translated to Python"
    python = driver.generate(analysis, "cutile")
    cpp = driver.generate(analysis, "cuda")
    assert "DATA_LINES = {60: 0, 70: 2}" in python
    assert "DATA_LINES = {{60, 0}, {70, 2}};" in cpp
    assert "DataPool(DATA, strict=False, microsoft=True, lines=DATA_LINES)" in python
    assert "b2t::DataPool data{DATA, false, true, DATA_LINES};" in cpp
    assert "# B() is used without DIM: subscripts 0 to 10" in python
    assert "// B() is used without DIM: subscripts 0 to 10" in cpp


def test_a_strict_program_without_data_has_no_table():
    _, _, plan = _plan("10 PRINT 1\n20 END\n", Options(std="ecma55"))
    assert (plan.uses_data, plan.data, plan.data_pool) == (False, [], [])


def test_a_procedure_function_takes_its_parameters_in_the_source_order():
    """SUB Scale (N, V(), K): the array in the middle, N changed (by reference), K not."""
    text = """\
DIM X(3)
M = 2
CALL Scale(M, X(), 3)
PRINT M; X(1)
SUB Scale (N, V(), K)
  N = N * K
  V(1) = N
END SUB
"""
    analysis, host, plan = _plan(text, Options(std="qbasic"))
    (sub,) = [s for s in host.subroutines if s.procedure is not None]
    params = parameters(analysis, sub.procedure, plan.proc_arrays[sub.name])
    assert [(p.array, p.by_reference) for p in params] == [
        (False, True),
        (True, False),
        (False, False),
    ]
    assert plan.sub_names[sub.name] == "scale"


DEF_FNS = """\
10 DEF FNA(X) = X * X + 1
20 DEF FNB(X, Y) = FNA(X) / Y + SQR(ABS(Y))
30 DEF FNI%(N%) = N% \\ 3 + N% MOD 2
40 PRINT FNB(2, 3); FNI%(7)
"""


def test_def_fn_bodies_are_printed_in_the_program_order(tmp_path):
    """The C++ temporaries of the DEF FN bodies are numbered in the program's order, the
    same in every run: the bodies were printed in the order of a set of names, which
    Python's string hashing changes from one process to the next (with seed 0 FNI%'s
    temporary was `tmp` and FNB's `tmp_2`)."""
    (tmp_path / "prog.bas").write_text(DEF_FNS)
    for seed in ("0", "1"):
        subprocess.run(
            [sys.executable, "-m", "transpiler", "prog.bas", "--dialect", "ms", "-o", "prog.cu"],
            cwd=tmp_path,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        cpp = (tmp_path / "prog.cu").read_text()
        assert "const auto tmp = b2t::single_div(fn_a(b2t::sng(x)), y);" in cpp
        assert "const auto tmp_2 = b2t::int_div(n_int, 3.0);" in cpp
