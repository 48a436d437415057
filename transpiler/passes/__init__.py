"""Semantic passes: AST -> `transpiler.ir.model.Analysis`.

One pass per module; each is `run(analysis, diagnostics)`, reads what earlier passes
filled in, adds its own fields and records errors in `diagnostics` instead of raising,
so that one compilation reports every error.  `analyze` raises `CompileErrors` at the
end if any pass found one.
"""

from __future__ import annotations

from ..errors import Diagnostics, SourceFile
from ..ir import ast
from ..ir.model import Analysis
from ..options import Options
from .check import (
    blocks,
    clear,
    data,
    default_types,
    devices,
    end_rules,
    expression_depth,
    flatten,
    functions,
    jump_rules,
    jumps,
    kind,
    machine_subscripts,
    short_names,
    symbols,
    typecheck,
)
from .quickbasic import array_bounds, records


def analyze(program: ast.Program, source: SourceFile, options: Options) -> Analysis:
    analysis = Analysis(program=program, source=source, options=options)
    analysis.warnings.extend(program.warnings)  # the parser's (GW-BASIC's loading)
    diags = Diagnostics()
    # 0. no expression deeper than the engines take; the passes below recurse over
    #    expressions, so a deeper one stops the analysis here.
    expression_depth.run(analysis, diags)
    diags.check()
    # 1. legacy or kernel program: decides which of the passes below apply, and the
    #    number type.
    kind.run(analysis, diags)
    # 1a. QuickBASIC's lower bounds other than 0 and 1: the array shifted to start at
    #     OPTION BASE, its subscripts with it; then TYPE records: a variable or an
    #     array per field.
    array_bounds.run(analysis, diags)
    records.run(analysis, diags)
    # 1b. Microsoft BASIC: every name written with the suffix of its type (DEFINT...),
    #     before any pass reads a name.
    default_types.run(analysis, diags)
    # 1b'. --name-chars: every name cut to the characters the program's machine reads
    #     (after 1b, which gives names their suffix); without it, a warning for names
    #     that such a machine would read as one.
    short_names.run(analysis, diags)
    # 1b''. Applesoft's and Commodore BASIC's subscripts: INT(...) around each.
    machine_subscripts.run(analysis, diags)
    # 1c. Microsoft BASIC's CLEAR after the start: the statements that reset what it
    #     resets (needs the typed names of 1b; before 2, which flattens them).
    clear.run(analysis, diags)
    # 2. the flat statement list (one-line IFs lowered to blocks, NEXT I, J split) and
    #    the line-number index: every later pass works on statement indices.
    flatten.run(analysis, diags)
    # 3. resolve every line-number reference (needs the line index).
    jumps.run(analysis, diags)
    # 4. ECMA-55's END rules (missing END, lines after END).
    end_rules.run(analysis, diags)
    # 5. pair FOR/NEXT, WHILE/WEND and IF/ELSEIF/ELSE/ENDIF textually.
    blocks.run(analysis, diags)
    # 6. no jump into a block from outside it (needs 3 and 5).
    jump_rules.run(analysis, diags)
    # 6b. screen and sound statements without effect: warnings; CLEAR only at the start
    #     (needs 3).
    devices.run(analysis, diags)
    if analysis.kind == "legacy":
        # 7. variables, arrays, DIM and OPTION BASE, in text order as ECMA-55 defines.
        symbols.run(analysis, diags)
        # 8. DEF FN: definitions, calls, arity, recursion (after 7: parameters shadow
        #    variables).
        functions.run(analysis, diags)
        # 9. the type of every expression (needs the symbols of 7 and 8).
        typecheck.run(analysis, diags)
    # 10. DATA items and RESTORE positions.
    data.run(analysis, diags)
    # Kernel programs: the cuTile BASIC declarations (INPUT, DIM, TILE, OUTPUT) are
    # checked by `kernel_dialect.analyze_kernel_program`, which the driver calls when
    # `analysis.kind == "kernel"`.
    diags.check()
    return analysis
