"""FOR loops are decided once for both printers (`hostir.ForPlan`, `passes/host/host_facts.py`).

The plan says how a FOR evaluates START, LIMIT and STEP and how it tests the end; the
Python and C++ printers only write it.  These tests check the plan's decisions and that
both printers follow the plan rather than deciding again.
"""

from __future__ import annotations

import dataclasses

import pytest

from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.ir import hostir
from transpiler.options import Options


def host_of(text: str, options: Options = Options()) -> hostir.HostProgram:
    analysis = driver.front_end(SourceFile("prog.bas", text), options)
    return driver.host_program(analysis, offload=False)


def for_nodes(host: hostir.HostProgram) -> list:
    return [
        n
        for n in hostir.walk(host.body)
        if isinstance(n, (hostir.ForLoop, hostir.ForInit, hostir.ForNext))
    ]


@pytest.mark.parametrize(
    "line, start_first, limit, step",
    [
        ("FOR I = 1 TO 9", False, 9.0, 1.0),
        ("FOR I = 9 TO 1 STEP -2", False, 1.0, -2.0),
        ("FOR I = A(1) TO A(2)", True, None, 1.0),  # both can fail: START first
        ("FOR I = A(1) TO N", False, None, 1.0),  # LIMIT cannot be seen to run
        ("FOR I = 1 TO N STEP S * 2", False, None, None),
    ],
)
def test_the_plan_of_a_for(line, start_first, limit, step):
    host = host_of(f"10 DIM A(5)\n20 {line}\n30 PRINT I\n40 NEXT I\n50 END\n")
    (loop,) = for_nodes(host)
    assert (loop.plan.start_first, loop.plan.limit, loop.plan.step) == (start_first, limit, step)


def test_microsoft_basic_plans_the_zero_trip_step():
    text = "10 FOR I = 5 TO 1\n20 PRINT I\n30 NEXT I\n40 PRINT I\n50 END\n"
    (extended,) = for_nodes(host_of(text))
    (microsoft,) = for_nodes(host_of(text, Options(std="ms")))
    assert not extended.plan.zero_trip_step and microsoft.plan.zero_trip_step


def test_lowered_loops_are_planned_too():
    # a jump out of the loop and back to its NEXT: not a block
    text = "10 FOR I = 1 TO 3\n20 IF I = 2 THEN 50\n30 NEXT I\n40 END\n50 PRINT I\n60 GOTO 30\n"
    host = host_of(text)
    assert {type(n) for n in for_nodes(host)} == {hostir.ForInit, hostir.ForNext}
    assert all(n.plan is not None for n in for_nodes(host))


def test_both_printers_follow_the_plan():
    """An exact loop tests `I <= 9`; a plan that says otherwise makes both printers test
    `not I > 9` instead: they read the decision, they do not take it again."""
    text = "10 FOR I = 1 TO 9\n20 PRINT I;\n30 NEXT I\n40 PRINT I\n50 END\n"
    host = host_of(text)
    (loop,) = for_nodes(host)
    assert loop.plan.exact and not loop.counted
    assert "<= 9" in driver.generate_host(host, "cutile")
    assert "<= 9" in driver.generate_host(host, "cuda")
    loop.plan = dataclasses.replace(loop.plan, exact=False)
    assert "not i > 9" in driver.generate_host(host, "cutile")
    assert "!(i > 9.0)" in driver.generate_host(host, "cuda")
