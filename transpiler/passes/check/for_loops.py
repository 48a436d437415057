"""Pass 5 (outside strict mode): FOR and NEXT as Microsoft BASIC runs them.

GW-BASIC and MBASIC pair a FOR with a NEXT by reading the text: from the FOR on, each
FOR counts one up and each NEXT variable (`NEXT J, I` has two) one down, and the NEXT
that brings the count back to zero is the FOR's, wherever it stands (in an IF branch,
after an ELSE).  At run time a FOR pushes its loop on a stack; a NEXT finds the entry of
its own FOR on the stack, drops the entries above it (loops left by GOTO), and either
goes back to the statement after the FOR or pops the entry.  So a GOTO may enter a loop
body from outside, and the loop goes on if its entry is on the stack.  We follow
PC-BASIC (a GW-BASIC emulator, the oracle of the tests) in three details: a NEXT finds
its entry by the FOR it closes; a FOR whose NEXT names another variable is the error
"NEXT without FOR" when the FOR runs; GOSUB and RETURN leave the FOR stack alone.  And
GW-BASIC's own source in one: a FOR that runs again drops its earlier entry (so the
stack never holds one loop twice).

Most loops are blocks all the same, and stay the structured loops the engines run fast
and the offload pass can turn into kernels.  A FOR/NEXT pair is a *block* (`for_next`)
when the stack cannot tell: its NEXT names its variable (or none), both stand in one
branch of the same IF and WHILE blocks, nothing jumps into its body from outside, no
enclosing block has its variable, it holds no run-time loop, and no subroutine it calls
can run one (a block's NEXT would drop that loop's entry, a block keeps no entry).  The
other pairs run on the stack (`dynamic_for`); a FOR that no NEXT closes, a NEXT that
closes no FOR and a FOR whose NEXT names another variable are the errors above when they
run (`loop_faults`), with a warning here.  A run-time loop may not cross a WHILE block
(its jumps would enter that block from outside): that is a compile-time error.
"""

from __future__ import annotations

from ...errors import BasicSemanticError, BasicWarning, Diagnostics
from ...ir import ast
from ...ir.model import Analysis
from .jumps import line_refs

FOR_WITHOUT_NEXT = "FOR without NEXT"
NEXT_WITHOUT_FOR = "NEXT without FOR"
TYPE_MISMATCH = "Type mismatch"


def run(analysis: Analysis, diags: Diagnostics) -> None:
    stmts = analysis.stmts
    pairs, lone_fors, lone_nexts = textual_pairs(stmts)
    warnings_before = len(analysis.warnings)
    inner = _innermost_pair(len(stmts), pairs)
    dynamic = _dynamic_pairs(analysis, pairs, inner)
    gw_basic = analysis.options.microsoft and not analysis.options.qbasic
    for a, b in pairs.items():
        for_stmt, next_stmt = stmts[a], stmts[b]
        if gw_basic and for_stmt.var.name.endswith("#"):
            # GW-BASIC counts with integers and singles only (PC-BASIC: `FOR I# = 1 TO 3`
            # is Type mismatch; its NEXT then closes no FOR)
            analysis.loop_faults[a] = TYPE_MISMATCH
            analysis.loop_faults[b] = NEXT_WITHOUT_FOR
            warning = (
                f"FOR {for_stmt.var.name}: a double-precision loop variable (the error "
                f"{TYPE_MISMATCH} when it runs, as in GW-BASIC)"
            )
            analysis.warnings.append(BasicWarning(warning, for_stmt.var.coord))
        elif next_stmt.vars and next_stmt.vars[0].name != for_stmt.var.name:
            analysis.loop_faults[a] = NEXT_WITHOUT_FOR
            analysis.loop_faults[b] = NEXT_WITHOUT_FOR
            if (next_line := analysis.line_number(next_stmt.coord)) is not None:
                analysis.loop_fault_line[a] = next_line
            # located at the NEXT, the statement that is wrong (GW-BASIC names its line)
            warning = (
                f"NEXT {next_stmt.vars[0].name} closes FOR {for_stmt.var.name} of "
                f"{analysis.line_name(for_stmt.coord)} (the error {NEXT_WITHOUT_FOR} when it runs)"
            )
            analysis.warnings.append(BasicWarning(warning, next_stmt.coord))
        elif a in dynamic:
            analysis.dynamic_for[a] = b
            analysis.dynamic_next[b] = a
            analysis.dynamic_reason[a] = dynamic[a]
            _check_while_blocks(analysis, a, b, diags)
        else:
            analysis.for_next[a] = b
            analysis.next_for[b] = a
    for a in lone_fors:
        analysis.loop_faults[a] = FOR_WITHOUT_NEXT
        name = stmts[a].var.name
        warning = f"FOR {name} without NEXT (the error {FOR_WITHOUT_NEXT} when it runs)"
        analysis.warnings.append(BasicWarning(warning, stmts[a].coord))
    for b in lone_nexts:
        analysis.loop_faults[b] = NEXT_WITHOUT_FOR
        shown = f"NEXT {stmts[b].vars[0].name}" if stmts[b].vars else "NEXT"
        warning = f"{shown} without FOR (an error when it runs)"
        analysis.warnings.append(BasicWarning(warning, stmts[b].coord))
    ours = analysis.warnings[warnings_before:]
    ours.sort(key=lambda w: (w.coord.line, w.coord.column))
    analysis.warnings[warnings_before:] = ours
    _enclosing_with_for_blocks(analysis)


def textual_pairs(stmts: list[ast.Stmt]) -> tuple[dict[int, int], list[int], list[int]]:
    """FOR index -> the NEXT that closes it by counting; the FORs no NEXT closes; the
    NEXTs that close no FOR."""
    pairs: dict[int, int] = {}
    open_fors: list[int] = []
    lone_nexts: list[int] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, ast.For):
            open_fors.append(index)
        elif isinstance(stmt, ast.Next):
            if open_fors:
                pairs[open_fors.pop()] = index
            else:
                lone_nexts.append(index)
    return pairs, open_fors, lone_nexts


def _innermost_pair(n: int, pairs: dict[int, int]) -> list[int | None]:
    """For every statement, the FOR of the innermost pair whose body (after the FOR, up
    to its NEXT) holds it.  Pairs nest like brackets."""
    closes = {b: a for a, b in pairs.items()}
    inner: list[int | None] = []
    stack: list[int] = []
    for index in range(n):
        inner.append(stack[-1] if stack else None)
        if index in pairs:
            stack.append(index)
        elif index in closes:
            stack.pop()
    return inner


def _chain(inner: list[int | None], index: int) -> list[int]:
    """The pairs holding a statement, innermost first."""
    chain = []
    opener = inner[index] if index < len(inner) else None
    while opener is not None:
        chain.append(opener)
        opener = inner[opener]
    return chain


def _dynamic_pairs(analysis: Analysis, pairs: dict[int, int], inner) -> dict[int, str]:
    """The FORs of the pairs that must run on the stack (see the module docstring), each
    with the reason."""
    stmts = analysis.stmts
    line = analysis.line_name
    if analysis.traps_errors:  # an error may leave any statement, a RESUME enter it
        why = "the program traps errors (ON ERROR GOTO): a RESUME may go on in its body"
        return dict.fromkeys(pairs, why)
    dynamic: dict[int, str] = {}
    for a, b in pairs.items():
        if _context(analysis, a) != _context(analysis, b):
            dynamic[a] = f"its NEXT ({line(stmts[b].coord)}) is in another IF branch"
            continue
        for o in _chain(inner, a):
            if stmts[o].var.name == stmts[a].var.name:
                dynamic[a] = f"the FOR of {line(stmts[o].coord)} around it has its variable"
                break
    for source, stmt in enumerate(stmts):
        for ref in line_refs(stmt):
            target = analysis.jump_target.get(ref)
            if target is None:
                continue
            for opener in _chain(inner, target):
                if opener < source <= pairs[opener]:
                    break  # this pair and those around it hold the jump too
                dynamic.setdefault(opener, f"a jump from {line(ref.coord)} enters its body")
    while True:
        before = len(dynamic)
        for a in list(dynamic):
            for o in _chain(inner, a):
                dynamic.setdefault(o, f"it holds the loop of {line(stmts[a].coord)}")
        for a in _calling_run_time_loops(analysis, pairs, dynamic) if dynamic else ():
            dynamic.setdefault(a, "a subroutine it calls runs a loop on the FOR stack")
        if len(dynamic) == before:
            return dynamic


def _context(analysis: Analysis, index: int) -> tuple[int, int] | None:
    """The innermost IF or WHILE block holding a statement, and for an IF the head of
    its branch."""
    opener = analysis.enclosing[index]
    if opener is None:
        return None
    parts = analysis.if_parts.get(opener)
    if parts is None:
        return opener, opener
    return opener, max(head for head in parts.branch_heads if head < index)


def _calling_run_time_loops(
    analysis: Analysis, pairs: dict[int, int], dynamic: set[int]
) -> set[int]:
    """The pairs with a GOSUB in their body from which a run-time loop's FOR can be
    reached."""
    stmts = analysis.stmts
    reaching: dict[int, bool] = {}
    found: set[int] = set()
    for a, b in pairs.items():
        if a in dynamic:
            continue
        for g in range(a + 1, b):
            if any(
                _reaches(analysis, pairs, t, dynamic, reaching)
                for t in _gosub_targets(analysis, stmts[g])
            ):
                found.add(a)
                break
    return found


def _gosub_targets(analysis: Analysis, stmt: ast.Stmt) -> list[int]:
    if isinstance(stmt, ast.Gosub) or (isinstance(stmt, ast.OnGoto) and stmt.gosub):
        return [analysis.jump_target[r] for r in line_refs(stmt) if r in analysis.jump_target]
    return []


def _reaches(analysis, pairs, start: int, dynamic: set[int], memo: dict[int, bool]) -> bool:
    """Can control reach the FOR of a run-time loop from `start` (GOSUBs followed,
    RETURN a dead end)?"""
    if start not in memo:
        seen = _reach(analysis, pairs, start)
        memo[start] = any(a in seen for a in dynamic)
    return memo[start]


def _reach(analysis: Analysis, pairs: dict[int, int], start: int) -> set[int]:
    closes = {b: a for a, b in pairs.items()}
    n = len(analysis.stmts)
    seen: set[int] = set()
    work = [start]
    while work:
        i = work.pop()
        if i >= n or i in seen:
            continue
        seen.add(i)
        work.extend(_successors(analysis, pairs, closes, i))
    return seen


def _successors(analysis: Analysis, pairs, closes, index: int) -> list[int]:
    """Where control may go after a statement (more places than it can: enough here)."""
    stmt = analysis.stmts[index]
    targets = [analysis.jump_target[r] for r in line_refs(stmt) if r in analysis.jump_target]
    if isinstance(stmt, ast.Goto):
        return targets
    if isinstance(stmt, (ast.Return, ast.End, ast.Stop)):
        return []
    out = targets + [index + 1]  # GOSUB and ON also go on after themselves
    if index in pairs:
        out.append(pairs[index] + 1)
    elif index in closes:
        out.append(closes[index] + 1)
    elif isinstance(stmt, ast.While) and index in analysis.while_wend:
        out.append(analysis.while_wend[index] + 1)
    elif isinstance(stmt, ast.Wend) and index in analysis.wend_while:
        out.append(analysis.wend_while[index])
    elif isinstance(stmt, (ast.IfBlock, ast.ElseIf, ast.Else)):
        if_index = analysis.block_if_of.get(index, index)
        parts = analysis.if_parts.get(if_index)
        if parts is not None:
            out.extend(h + 1 for h in parts.branch_heads)
            out.append(parts.endif_index + 1)
    return out


def _whiles_around(analysis: Analysis, index: int) -> list[int]:
    found = []
    opener = analysis.enclosing[index]
    while opener is not None:
        if opener in analysis.while_wend:
            found.append(opener)
        opener = analysis.enclosing[opener]
    return found


def _check_while_blocks(analysis: Analysis, a: int, b: int, diags: Diagnostics) -> None:
    around_for, around_next = _whiles_around(analysis, a), _whiles_around(analysis, b)
    if around_for != around_next:
        for_stmt, next_stmt = analysis.stmts[a], analysis.stmts[b]
        crossed = set(around_for) ^ set(around_next)
        do = all(isinstance(analysis.lowered_from.get(w), ast.Do) for w in crossed)
        diags.error(
            BasicSemanticError(
                f"the NEXT of the FOR {for_stmt.var.name} of {analysis.line_name(for_stmt.coord)} "
                f"is not in the same {'DO' if do else 'WHILE'} block as its FOR",
                next_stmt.coord,
            )
        )


def _enclosing_with_for_blocks(analysis: Analysis) -> None:
    """`enclosing` again, now that the FOR blocks are known (they nest properly with
    the IF and WHILE blocks)."""
    closers = set(analysis.next_for) | set(analysis.wend_while)
    closers |= {parts.endif_index for parts in analysis.if_parts.values()}
    openers = set(analysis.for_next) | set(analysis.while_wend) | set(analysis.if_parts)
    stack: list[int] = []
    enclosing = analysis.enclosing
    for index in range(len(analysis.stmts)):
        enclosing[index] = stack[-1] if stack else None
        if index in openers:
            stack.append(index)
        elif index in closers and stack:  # (unbalanced only after a reported error)
            stack.pop()
