"""Passes 1-6: kind, flattening, jumps, END rules, block pairing, jumps into blocks."""

from __future__ import annotations

from transpiler.ir import ast

from .passes_helpers import analysis_of, errors_of, kinds

# --------------------------------------------------------------------------- kind


def test_legacy_program_is_f64_and_kernel_program_is_f32():
    legacy = analysis_of("10 PRINT 1\n20 END\n")
    assert (legacy.kind, legacy.number_type) == ("legacy", "f64")
    kernel = analysis_of("""
        10 INPUT N, A(), B()
        20 DIM A(N), B(N)
        30 TILE A(128), B(128)
        40 B(BID) = A(BID) * 2
        50 OUTPUT B
        60 END
        """)
    assert (kernel.kind, kernel.number_type) == ("kernel", "f32")
    # the generic passes ran: the flat list and the line index exist
    assert kernel.label_index[40] == 3


# --------------------------------------------------------------------------- flatten


def test_one_line_if_is_lowered_to_a_block_with_coords_and_labels():
    a = analysis_of('10 X = 1\n20 IF X THEN PRINT "A" : PRINT "B" ELSE PRINT "C"\n30 END\n')
    assert kinds(a) == [
        "Let", "IfBlock", "Print", "Print", "Else", "Print", "EndIf", "End"
    ]  # fmt: skip
    if_block = a.stmts[1]
    assert a.lowered_if[1].condition is if_block.condition
    assert if_block.coord == a.lowered_if[1].coord
    assert all(s.label == 20 for s in a.stmts[1:7])
    assert a.label_index == {10: 0, 20: 1, 30: 7}
    assert a.if_parts[1].else_index == 4 and a.if_parts[1].endif_index == 6


def test_if_then_line_becomes_a_goto_keeping_the_line_ref():
    a = analysis_of("10 IF 1 < 2 THEN 30\n20 PRINT 1\n30 END\n")
    assert kinds(a)[:3] == ["IfBlock", "Goto", "EndIf"]
    goto = a.stmts[1]
    assert a.jump_target[goto.target] == a.label_index[30] == 4
    assert goto.target.coord.column == 18


def test_next_with_two_variables_closes_two_loops():
    a = analysis_of("10 FOR I = 1 TO 2\n20 FOR J = 1 TO 2\n30 NEXT J, I\n40 END\n")
    assert kinds(a) == ["For", "For", "Next", "Next", "End"]
    assert a.for_next == {0: 3, 1: 2}
    assert a.next_for == {2: 1, 3: 0}
    assert [v.name for v in a.stmts[3].vars] == ["I"]


def test_nested_one_line_ifs_and_enclosing_blocks():
    a = analysis_of("10 IF 1 THEN IF 2 THEN PRINT 3 ELSE PRINT 4\n20 END\n")
    assert kinds(a) == [
        "IfBlock", "IfBlock", "Print", "Else", "Print", "EndIf", "EndIf", "End"
    ]  # fmt: skip
    assert a.enclosing == [None, 0, 1, 1, 1, 1, 0, None]


# --------------------------------------------------------------------------- jumps


def test_jump_to_missing_line_points_at_the_line_number():
    errs = errors_of("10 GOTO 275\n20 GOSUB 30\n30 ON X GOTO 10, 99\n40 RESTORE 5\n50 END\n")
    assert errs == [
        (1, 9, "jump to non-existing line 275"),
        (3, 18, "jump to non-existing line 99"),
        (4, 4, "RESTORE to non-existing line 5"),
    ]


def test_gosub_targets_are_recorded():
    a = analysis_of("10 GOSUB 40\n20 ON 1 GOSUB 40, 50\n30 END\n40 RETURN\n50 RETURN\n")
    assert a.gosub_targets == {3, 4}


# --------------------------------------------------------------------------- END rules


def test_strict_mode_requires_end_on_the_last_line():
    assert errors_of("10 PRINT 1\n", std="ecma55") == [(1, 1, "program must have an END statement")]
    errs = errors_of("10 END\n20 PRINT 1\n30 PRINT 2\n", std="ecma55")
    assert [e[:2] for e in errs] == [(2, 1), (3, 1)]
    assert all("after the END" in e[2] for e in errs)


def test_extended_mode_allows_missing_end_and_code_after_end():
    analysis_of("10 PRINT 1\n")
    analysis_of("10 GOSUB 30\n20 END\n30 PRINT 1\n40 RETURN\n")


# --------------------------------------------------------------------------- blocks


def test_for_without_next_and_next_without_for():
    assert errors_of("10 FOR I = 1 TO 2\n20 END\n", std="ecma55") == [(1, 4, "FOR I without NEXT")]
    assert errors_of("10 NEXT I\n20 END\n", std="ecma55") == [(1, 4, "NEXT I without FOR")]


def test_mismatched_and_interleaved_for_blocks():
    errs = errors_of("10 FOR I = 1 TO 2\n20 NEXT J\n30 END\n", std="ecma55")
    assert errs[0] == (1, 4, "FOR I without NEXT")
    assert errs[1][:2] == (2, 4) and errs[1][2].startswith("NEXT J without FOR")
    program = "10 FOR I = 1 TO 2\n20 FOR J = 1 TO 2\n30 NEXT I\n40 NEXT J\n50 END\n"
    errs = errors_of(program, std="ecma55")
    assert any(e[:2] == (3, 4) and "interleaved" in e[2] for e in errs)


def test_nested_for_with_the_same_variable():
    program = "10 FOR I = 1 TO 2\n20 FOR I = 3 TO 5\n30 NEXT I\n40 NEXT I\n50 END\n"
    errs = errors_of(program, std="ecma55")
    assert errs[0] == (2, 8, "FOR I inside a FOR block with the same variable (line 10)")


def test_bare_next_closes_the_innermost_for():
    a = analysis_of("10 FOR I = 1 TO 2\n20 NEXT\n30 END\n")
    assert a.for_next == {0: 1}


def test_while_wend_and_block_if_pairing():
    a = analysis_of("""
        10 WHILE X < 3
        20 IF X = 1 THEN
        30 PRINT 1
        40 ELSEIF X = 2 THEN
        50 PRINT 2
        60 ELSE
        70 PRINT 3
        80 END IF
        90 WEND
        """)
    assert a.while_wend == {0: 8} and a.wend_while == {8: 0}
    parts = a.if_parts[1]
    assert (parts.elseifs, parts.else_index, parts.endif_index) == ((3,), 5, 7)
    assert parts.branch_heads == (1, 3, 5)
    assert a.block_if_of == {3: 1, 5: 1, 7: 1}
    assert a.enclosing[2] == 1 and a.enclosing[1] == 0 and a.enclosing[8] == 0


def test_unbalanced_while_and_if_blocks():
    assert errors_of("10 WEND\n") == [(1, 4, "WEND without WHILE")]
    assert errors_of("10 WHILE 1\n") == [(1, 4, "WHILE without WEND")]
    assert errors_of("10 IF 1 THEN\n20 PRINT\n") == [(1, 4, "IF without END IF")]
    assert errors_of("10 ELSE\n") == [(1, 4, "ELSE without IF")]
    errs = errors_of("10 IF 1 THEN\n20 ELSE\n30 ELSE\n40 END IF\n")
    assert errs == [(3, 4, "ELSE after the ELSE of the IF of line 10")]


def test_blocks_of_different_kinds_must_nest():
    errs = errors_of("10 FOR I = 1 TO 2\n20 WHILE 1\n30 NEXT I\n40 WEND\n")
    message = "the NEXT of the FOR I of line 10 is not in the same WHILE block as its FOR"
    assert errs == [(3, 4, message)]
    errs = errors_of("10 WHILE 1\n20 FOR I = 1 TO 2\n30 WEND\n40 NEXT I\n")
    assert errs == [(4, 4, message.replace("line 10", "line 20"))]


# --------------------------------------------------------------------------- jumps into blocks


def test_jump_into_a_for_block_from_outside():
    errs = errors_of("10 GOTO 30\n20 FOR I = 1 TO 9\n30 PRINT I\n40 NEXT I\n50 END\n", std="ecma55")
    assert errs == [(1, 9, "jump into the FOR I block of line 20 from outside it")]


def test_jumps_within_out_of_and_to_the_head_of_a_block_are_allowed():
    a = analysis_of("""
        10 FOR I = 1 TO 9
        20 IF I = 2 THEN 50
        30 IF I = 8 THEN 70
        40 IF I = 9 THEN 10
        50 NEXT I
        60 GOSUB 80
        70 END
        80 RETURN
        """)
    assert len(a.jump_target) == 4


def test_jump_into_while_and_if_blocks():
    errs = errors_of("10 GOTO 30\n20 WHILE 1\n30 PRINT\n40 WEND\n")
    assert errs == [(1, 9, "jump into the WHILE block of line 20 from outside it")]
    errs = errors_of("10 GOSUB 30\n20 IF 1 THEN\n30 RETURN\n40 END IF\n")
    assert errs == [(1, 10, "jump into the IF block of line 20 from outside it")]


def test_statement_nodes_keep_their_identity():
    a = analysis_of("10 LET X = 1\n20 END\n")
    assert a.stmts[0] is a.program.lines[0].statements[0]
    assert isinstance(a.stmts[1], ast.End)
    assert a.index_of(a.stmts[1]) == 1
