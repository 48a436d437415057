"""The control-flow graph of a legacy program, over statement indices.

`successors(analysis)[i]` lists where control can go after statement i of
`Analysis.stmts`; index `len(stmts)` stands for "the program ends".  GOSUB goes to
its target, and every RETURN may go back to any statement after a GOSUB (the return
stack is not modelled: that is safe for the analyses built on this graph, which only
need a superset of the real paths).  Every RETURN shares one list of return points
(do not modify it), so the graph costs as much as its RETURNs plus its GOSUBs.  In a
program that traps errors every statement may also go to each handler, and a RESUME to
any statement.
"""

from __future__ import annotations

from ...ir import ast
from ...ir.model import Analysis


def successors(analysis: Analysis) -> list[list[int]]:
    stmts = analysis.stmts
    end = len(stmts)
    return_points = [
        i + 1
        for i, s in enumerate(stmts)
        if isinstance(s, ast.Gosub) or (isinstance(s, ast.OnGoto) and s.gosub)
    ]
    # Error trapping: any statement may fail into a handler, a RESUME go on anywhere.
    handlers = sorted(analysis.error_handlers)
    anywhere = list(range(end + 1)) if handlers else []
    succ: list[list[int]] = []
    for i, stmt in enumerate(stmts):
        nxt = i + 1
        if isinstance(stmt, ast.Resume):
            succ.append(anywhere)
            continue
        if isinstance(stmt, ast.RaiseError):
            out = [end]
        elif isinstance(stmt, ast.Goto):
            out = [analysis.jump_target[stmt.target]]
        elif isinstance(stmt, ast.Gosub):
            out = [analysis.jump_target[stmt.target]]
        elif isinstance(stmt, ast.OnGoto):
            # Out-of-range selectors are fatal errors in strict mode, so only the targets
            # follow; Microsoft BASIC goes on with the next statement.
            out = [analysis.jump_target[t] for t in stmt.targets]
            if not analysis.options.strict:
                out.append(nxt)
        elif isinstance(stmt, ast.Return):
            succ.append(return_points)
            continue
        elif isinstance(stmt, (ast.End, ast.Stop)) or i in analysis.loop_faults:
            out = [end]
        elif isinstance(stmt, ast.For):
            out = [nxt, analysis.next_of(i) + 1]
        elif isinstance(stmt, ast.Next):
            out = [analysis.for_of(i) + 1, nxt]
        elif isinstance(stmt, ast.While):
            out = [nxt, analysis.while_wend[i] + 1]
        elif isinstance(stmt, ast.Wend):
            out = [analysis.wend_while[i]]
        elif isinstance(stmt, (ast.IfBlock, ast.ElseIf)):
            parts = analysis.if_parts[analysis.block_if_of.get(i, i)]
            following = parts.later_elseif(i)
            if following is None:
                following = parts.endif_index if parts.else_index is None else parts.else_index
            # True: into this branch.  False: the next ELSEIF test, the ELSE branch's
            # first statement, or past the ENDIF.
            if following == parts.else_index:
                following += 1
            out = [nxt, following]
            if isinstance(stmt, ast.ElseIf):
                # Falling off the previous branch also lands here and skips to ENDIF;
                # a statement-level graph cannot tell the two apart, so allow both.
                out.append(parts.endif_index)
        elif isinstance(stmt, ast.Else):
            # Reached by falling off the end of the previous branch: skip to ENDIF.
            out = [analysis.if_parts[analysis.block_if_of[i]].endif_index]
        else:
            out = [nxt]
        succ.append(sorted(set(min(t, end) for t in out + handlers)))
    return succ
