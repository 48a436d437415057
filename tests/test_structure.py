"""passes/host/structure.py: which GOTO patterns become structured host nodes, which need a
dispatch loop, and (on random programs full of jumps) that the result always runs like
the interpreter."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from transpiler.errors import CompileErrors
from transpiler.ir import hostir
from transpiler.passes.host.structure import build_host_program

from .test_python_host import analyse, assert_same, program


def host(*lines: str) -> hostir.HostProgram:
    return build_host_program(analyse(program(*lines)))


def kinds(h: hostir.HostProgram) -> list[str]:
    nodes = list(hostir.walk(h.body))
    for sub in h.subroutines:
        nodes += list(hostir.walk(sub.body))
    return [type(n).__name__ for n in nodes]


def only(h: hostir.HostProgram, cls):
    found = [n for n in hostir.walk(h.body) if isinstance(n, cls)]
    assert len(found) == 1, kinds(h)
    return found[0]


# --------------------------------------------------------------------------- loops


def test_for_next_is_a_counted_loop_when_nothing_reads_the_variable_after() -> None:
    h = host("10 FOR I = 1 TO 10", "20 PRINT I", "30 NEXT I", "40 END")
    loop = only(h, hostir.ForLoop)
    assert loop.counted and loop.steady and loop.origin is loop.stmt
    assert "Dispatch" not in kinds(h)


def test_for_variable_read_after_the_loop_keeps_ecma_semantics() -> None:
    loop = only(host("10 FOR I = 1 TO 10", "20 NEXT I", "30 PRINT I", "40 END"), hostir.ForLoop)
    assert not loop.counted and loop.steady


def test_for_variable_assigned_in_the_body_or_a_subroutine() -> None:
    loop = only(host("10 FOR I = 1 TO 10", "20 I = I + 1", "30 NEXT I", "40 END"), hostir.ForLoop)
    assert not loop.counted and not loop.steady
    h = host(
        "10 FOR I = 1 TO 10", "20 GOSUB 100", "30 NEXT I", "40 END", "100 I = 20", "110 RETURN"
    )
    loop = only(h, hostir.ForLoop)
    assert not loop.counted and not loop.steady


def test_non_integer_or_variable_bounds_are_not_counted() -> None:
    assert not only(host("10 FOR X = 0 TO 1 STEP .5", "20 NEXT X"), hostir.ForLoop).counted
    assert not only(host("10 N = 3", "20 FOR X = 1 TO N", "30 NEXT X"), hostir.ForLoop).counted


def test_goto_next_is_continue_and_goto_after_next_is_break() -> None:
    h = host(
        "10 FOR I = 1 TO 10",
        "20 IF I = 3 THEN 50",
        "30 IF I = 7 THEN 60",
        "40 PRINT I",
        "50 NEXT I",
        "60 PRINT 0",
        "70 END",
    )
    names = kinds(h)
    assert "Continue" in names and "Break" in names and "Dispatch" not in names


def test_while_wend() -> None:
    loop = only(host("10 W = 0", "20 WHILE W < 3", "30 W = W + 1", "40 WEND"), hostir.WhileLoop)
    assert loop.stmt is not None and loop.condition is loop.stmt.condition


def test_backward_goto_is_a_while_loop_with_its_exit_test() -> None:
    h = host(
        "10 K = 0",
        "20 IF K > 5 THEN 60",
        "30 K = K + 1",
        "40 PRINT K",
        "50 GOTO 20",
        "60 END",
    )
    loop = only(h, hostir.WhileLoop)
    assert loop.stmt is not None and loop.condition is loop.stmt.condition
    assert loop.condition.op == "NOT"  # while not K > 5
    assert "Dispatch" not in kinds(h) and "Break" not in kinds(h)


def test_conditional_backward_goto_is_a_loop() -> None:
    h = host("10 K = 0", "20 K = K + 1", "30 IF K < 5 THEN 20", "40 PRINT K")
    loop = only(h, hostir.WhileLoop)
    assert loop.condition is None  # `while True` with the test at the end
    assert "Break" in kinds(h) and "Dispatch" not in kinds(h)


# --------------------------------------------------------------------------- IF and GOTO


def test_if_then_line_skipping_forward_is_if_not() -> None:
    h = host("10 IF X > 1 THEN 40", "20 PRINT 1", "30 PRINT 2", "40 PRINT 3")
    node = only(h, hostir.If)
    condition, body = node.arms[0]
    assert condition.op == "NOT" and len(body) == 2 and node.else_body is None
    eq = only(host("10 IF X = 1 THEN 30", "20 PRINT 1", "30 PRINT 3"), hostir.If)
    assert eq.arms[0][0].op == "<>"  # NOT (X = 1) is X <> 1 exactly


def test_if_goto_else_goto_is_if_else() -> None:
    h = host(
        "10 IF X > 1 THEN 50",
        "20 PRINT 1",
        "30 GOTO 60",
        "50 PRINT 2",
        "60 END",
    )
    node = only(h, hostir.If)
    assert node.else_body is not None and node.arms[0][0].op == ">"
    assert "Dispatch" not in kinds(h)


def test_if_chain_is_if_elif_else() -> None:
    h = host(
        "10 IF X = 1 THEN 100",
        "20 IF X = 2 THEN 200",
        "30 PRINT 0",
        "40 GOTO 300",
        "100 PRINT 1",
        "110 GOTO 300",
        "200 PRINT 2",
        "300 END",
    )
    node = only(h, hostir.If)
    assert len(node.arms) == 2 and node.else_body and len(node.origins) == 2


def test_ifs_to_one_place_and_to_the_default_block(tmp_path: Path) -> None:
    text = program(
        "10 READ C, A",
        "20 IF C < 1 THEN 50",
        "30 IF C > 9 THEN 50",
        "40 IF A = 55 THEN 70",
        '50 PRINT "FAILED"',
        "60 GOTO 80",
        '70 PRINT "PASSED"',
        "80 DATA 5, 55",
        "90 END",
    )
    h = build_host_program(analyse(text))
    node = only(h, hostir.If)
    assert node.else_body and len(node.arms) == 1 and "Dispatch" not in kinds(h)
    assert_same(text, tmp_path)
    text = program(
        "10 X = 2", "20 IF X > 5 THEN 50", "30 IF X = 2 THEN 60", "50 PRINT 5", "60 PRINT 6"
    )
    h = build_host_program(analyse(text))
    assert only(h, hostir.If).arms[0][0].op == "OR" and "Dispatch" not in kinds(h)
    assert_same(text, tmp_path)


def test_goto_end_is_end_program() -> None:
    h = host("10 FOR I = 1 TO 3", "20 IF I = 2 THEN 90", "30 NEXT I", "90 END")
    assert "EndProgram" in kinds(h) and "Dispatch" not in kinds(h)


def test_unreachable_code_is_dropped() -> None:
    h = host("10 GOTO 30", '20 PRINT "DEAD"', "30 END")
    assert "Simple" not in kinds(h)


# --------------------------------------------------------------------------- GOSUB


def test_gosub_region_is_a_subroutine() -> None:
    h = host("10 GOSUB 100", "20 GOSUB 100", "30 END", "100 X = X + 1", "110 RETURN")
    assert [s.name for s in h.subroutines] == ["gosub_100"]
    assert h.subroutines[0].assigns == ["X"]
    assert kinds(h).count("Call") == 2 and "Return" in kinds(h)


def test_gosub_target_reached_by_falling_through_uses_the_return_stack() -> None:
    h = host("10 GOSUB 100", "100 PRINT 1", "110 RETURN")
    assert not h.subroutines and h.return_stack
    assert "GosubJump" in kinds(h) and "ReturnJump" in kinds(h) and "Dispatch" in kinds(h)


def test_on_gosub_calls_or_jumps_to_all_of_its_targets(tmp_path: Path) -> None:
    """One of the targets is entered by falling through (a stacked target), the other
    is a clean subroutine: the ON GOSUB jumps to both (it could not structure it)."""
    text = program(
        "10 X = 2", "20 ON X GOSUB 100, 200", "30 PRINT 3",
        "100 PRINT 1 : RETURN", "200 PRINT 2 : RETURN",
    )  # fmt: skip
    h = host(*text.splitlines())
    assert not h.subroutines and "OnGosubJump" in kinds(h)
    assert_same(text, tmp_path)


def test_recursive_gosub_uses_the_return_stack() -> None:
    h = host("10 GOSUB 100", "20 END", "100 C = C + 1", "110 IF C < 3 THEN GOSUB 100", "120 RETURN")
    assert not h.subroutines and h.return_stack


def test_mutually_recursive_gosubs_and_their_callers_use_the_return_stack() -> None:
    h = host(
        "10 GOSUB 300", "20 GOSUB 400", "30 END",
        "100 C = C + 1", "110 IF C < 3 THEN GOSUB 200", "120 RETURN",
        "200 IF C < 3 THEN GOSUB 100", "210 RETURN",
        "300 GOSUB 100", "310 RETURN",
        "400 D = D + 1", "410 RETURN",
    )  # fmt: skip
    assert [s.name for s in h.subroutines] == ["gosub_400"] and h.return_stack


def test_subroutine_calling_a_stacked_one_is_not_structured() -> None:
    h = host(
        "10 GOSUB 100", "20 GOSUB 200", "30 END",
        "100 GOSUB 200", "110 RETURN",
        "200 GOTO 210", "210 RETURN",
        "300 GOTO 210",
    )  # fmt: skip
    assert not any(s.name == "gosub_100" for s in h.subroutines) or "gosub_200" in [
        s.name for s in h.subroutines
    ]


# --------------------------------------------------------------------------- dispatch


def test_irreducible_jumps_need_a_dispatch_loop() -> None:
    h = host(
        "10 IF X > 2 THEN 50",
        "30 X = X + 1",
        "40 IF X < 5 THEN 60",
        "50 X = X + 2",
        "60 IF X < 8 THEN 30",
        "70 END",
    )
    dispatch = only(h, hostir.Dispatch)
    assert {b.label for b in dispatch.blocks} >= {"30", "50"}
    assert h.uses_dispatch


def test_jump_out_of_a_loop_lowers_it() -> None:
    h = host(
        "10 FOR I = 1 TO 5",
        "20 IF I = 3 THEN 60",
        "30 NEXT I",
        '40 PRINT "NONE"',
        "50 GOTO 70",
        '60 PRINT "FOUND"; I',
        "70 END",
    )
    names = kinds(h)
    assert "ForInit" in names and "ForNext" in names and "ForLoop" not in names


def test_jump_between_if_branches_lowers_the_if(tmp_path: Path) -> None:
    text = program(
        "10 X = 1",
        "20 IF X = 1 THEN",
        '30 PRINT "THEN"',
        "40 GOTO 70",
        "50 ELSE",
        '60 PRINT "ELSE"',
        '70 PRINT "BOTH"',
        "80 END IF",
    )
    h = build_host_program(analyse(text))
    assert "Dispatch" in kinds(h)
    assert_same(text, tmp_path)


def test_every_node_has_its_statement() -> None:
    h = host(
        "10 FOR I = 1 TO 3", "20 IF I = 2 THEN 40", "30 PRINT I", "40 NEXT I",
        "50 GOSUB 100", "60 ON I GOTO 70, 80", "70 PRINT 7", "80 END",
        "100 RETURN",
    )  # fmt: skip
    for node in hostir.walk(h.body):
        # A dispatch loop is no statement of its own: its statements carry theirs.
        if not isinstance(node, (hostir.Break, hostir.Continue, hostir.Dispatch)):
            assert node.origin is not None, node


# --------------------------------------------------------------------------- random programs


def random_program(seed: int) -> str:
    """A program of random PRINTs, LETs, jumps, GOSUBs, FOR, WHILE and block IFs, with
    Microsoft BASIC's ON ... GOTO out of range, and NEXT in IF branches and into loops.

    Every jump is preceded by `C = C + 1` and `IF C > 40 THEN 9999`, and lands on the
    first line of a unit, so every cycle counts and the program ends."""
    rng = random.Random(seed)
    units: list[list[str]] = []  # each unit: its statements, one per line
    starts: list[int] = []
    jumps: list[tuple[int, int]] = []  # (unit, line within it) whose target is filled later
    depth_stack: list[str] = []
    for_vars = iter("IJKLM")

    def add(lines: list[str]) -> None:
        units.append(lines)

    for _ in range(rng.randint(6, 16)):
        roll = rng.random()
        if roll < 0.25:
            add([f'PRINT "U{len(units)}"; X; Y'])
        elif roll < 0.4:
            add([rng.choice(["X = X + 1", "Y = Y + X", "X = X - 2", "Y = 0"])])
        elif roll < 0.65:
            kind = rng.choice(["GOTO", "IF", "GOSUB", "ON", "IFGOSUB", "ONFALL"])
            add(["C = C + 1", "IF C > 40 THEN 9999", kind])
            jumps.append((len(units) - 1, 2))
        elif roll < 0.7:
            add(["RETURN"])
        elif roll < 0.75:
            add(["END"])
        elif roll < 0.85 and len(depth_stack) < 2:
            kind = rng.choice(["FOR", "WHILE", "IF"])
            var = next(for_vars, None)
            if kind == "FOR" and var:
                add([f"FOR {var} = 1 TO {rng.randint(0, 3)}"])
                depth_stack.append(f"NEXT {var}")
            elif kind == "WHILE":
                add(["WHILE C < 40", "C = C + 1"])
                depth_stack.append("WEND")
            else:
                add([f"IF X > {rng.randint(-1, 3)} THEN"])
                depth_stack.append("END IF")
                if rng.random() < 0.5:
                    depth_stack[-1] = "ELSE|END IF"
        elif depth_stack:
            closer = depth_stack.pop()
            if closer.startswith("ELSE|"):
                add(["ELSE"])
                depth_stack.append("END IF")
            elif closer.startswith("NEXT") and rng.random() < 0.4:
                # Microsoft BASIC: NEXT in an IF branch, or without its variable
                add([rng.choice([f"IF X > {rng.randint(-1, 3)} THEN {closer}", "NEXT"])])
            else:
                add([closer])
    while depth_stack:
        closer = depth_stack.pop()
        add(["END IF"] if closer.startswith("ELSE|") else [closer])
    number = 10
    for unit in units:
        starts.append(number)
        number += 10 * len(unit)
    targets = starts + [9999]
    lines = []
    for u, unit in enumerate(units):
        for k, stmt in enumerate(unit):
            if (u, k) in jumps:
                t = rng.choice(targets)
                stmt = {
                    "GOTO": f"GOTO {t}",
                    "IF": f"IF X > {rng.randint(-1, 3)} THEN {t}",
                    "GOSUB": f"GOSUB {t}",
                    "ON": f"ON (C - INT(C / 2) * 2) + 1 GOTO {t}, {rng.choice(targets)}",
                    "IFGOSUB": f"IF Y > {rng.randint(-1, 2)} THEN GOSUB {t}",
                    # out of range goes on with the next line (below 0: an error)
                    "ONFALL": f"ON X GOTO {t}, {rng.choice(targets)}",
                }[stmt]
            lines.append(f"{starts[u] + 10 * k} {stmt}")
    lines.append('9999 PRINT "END"; C; X; Y')
    return "\n".join(lines) + "\n"


SEEDS = range(180)


@pytest.mark.parametrize("chunk", range(6))
def test_random_jumpy_programs_run_like_the_interpreter(chunk: int, tmp_path: Path) -> None:
    accepted = 0
    for seed in SEEDS[chunk::6]:
        text = random_program(seed)
        try:
            analyse(text)
        except CompileErrors:
            continue  # a jump into a block: rejected by the front end
        accepted += 1
        try:
            assert_same(text, tmp_path)
        except AssertionError as failure:
            raise AssertionError(f"seed {seed}:\n{text}") from failure
    assert accepted >= 15
