"""A program's module is decided once for both targets (transpiler/hostcode/module_plan.py,
procedures.py): the printers only write the plan, so what the plan says shows in the
generated Python and C++ alike."""

from __future__ import annotations

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
