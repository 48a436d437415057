"""`basic2tile prog.bas --explain`: what became a kernel, and why the rest did not.

One entry per FOR loop (nest) of a legacy program, by BASIC line:

    line 150  FOR I = 1 TO N   -> GPU kernel map_150 (map): elementwise map over I; ...
                                  grid: ceil(i_count / 512) blocks, tile 512, f64
    line 140  FOR I = 2 TO N   -> host: loop-carried dependence: P(I - 1) reads ...
                                  flow dependence on P: line 150 writes P(I, J), ...
                                  to run it on the GPU: interchange: ...

and for a cuTile BASIC program, its one kernel (parameters, tiles, grid).  Parameters in
upper case are BASIC's variables and arrays, those in lower case the kernel's own (loop
counts, partial results, the blocks' flags).
"""

from __future__ import annotations

from ..ir import kernel as ir
from ..passes.show import show_expr


def explain(analysis, tile: tuple[int, ...] | None = None, offload: bool = True) -> str:
    from .. import driver

    if analysis.kind == "kernel":
        return _explain_library(driver.kernel_library(analysis))
    host = driver.host_program(analysis, tile, offload)
    return explain_decisions(analysis, host.decisions, host.kernels) + _procedures(host)


def _procedures(host) -> str:
    """QuickBASIC's SUBs and FUNCTIONs: each a function of the generated code, or why
    not (it stays GOSUB-style code)."""
    lines = []
    for name, proc in host.analysis.procedures.items():
        where = f"{proc.stmt.word} {name} (source line {proc.stmt.coord.line})"
        if any(sub.procedure is proc for sub in host.subroutines):
            lines.append(f"  {where}\n      -> a function with its parameters")
        elif name in host.procedure_notes:
            lines.append(f"  {where}\n      -> GOSUB-style code: {host.procedure_notes[name]}")
    return "".join("\n" + line for line in lines)


def explain_decisions(analysis, decisions: list[ir.LoopDecision], kernels: list[ir.Kernel]) -> str:
    by_name = {k.name: k for k in kernels}
    lines = [
        f"{analysis.source.name}: {len(decisions)} loop(s), {len(kernels)} offloaded to GPU kernels"
    ]
    for d in sorted(decisions, key=lambda d: (d.coord.line, d.coord.column)):
        where = f"line {d.label}" if d.label is not None else f"source line {d.coord.line}"
        text = loop_text(analysis, d)
        if d.offloaded:
            k = by_name[d.kernel]
            lines.append(f"  {where:<10} {text}")
            lines.append(f"      -> GPU kernel {k.name} ({k.kind}): {k.summary}")
            lines.append(f"         grid: {grid_text(k)}; parameters: {params_text(k)}")
        else:
            lines.append(f"  {where:<10} {text}")
            lines.append(f"      -> host: {d.reason}")
            if d.dependence:
                lines.append(f"         {d.dependence}")
            if d.advice:
                lines.append(f"         to run it on the GPU: {d.advice}")
    return "\n".join(lines)


def loop_text(analysis, d: ir.LoopDecision) -> str:
    line = analysis.source.line_text(d.coord.line) or ""
    text = line[d.coord.column - 1 :].split(":")[0].strip() if d.coord.column else line.strip()
    return text


def grid_text(k: ir.Kernel) -> str:
    parts = [_kexpr(g) for g in k.grid]
    if parts == ["1"]:  # a scan: one block, a tile at a time
        return "1 block, tiles of " + "x".join(map(str, k.tile)) + f" ({k.dtype})"
    return " x ".join(parts) + " blocks of " + "x".join(map(str, k.tile)) + f" ({k.dtype})"


def params_text(k: ir.Kernel) -> str:
    out = []
    for p in k.params:
        if isinstance(p, ir.ArrayParam):
            rw = "in/out" if p.reads and p.writes else "out" if p.writes else "in"
            out.append(f"{p.name}() {p.dtype} {p.ndim}-D {rw}")
        elif isinstance(p, ir.ScalarParam):
            out.append(f"{p.name} {p.dtype}")
        else:
            out.append(f"{p.name}={p.value}")
    return ", ".join(out)


def _kexpr(e: ir.KExpr) -> str:
    if isinstance(e, (ir.Param, ir.Local, ir.ConstRef)):
        return e.name
    if isinstance(e, ir.Const):
        return str(e.value)
    if isinstance(e, ir.Binary):
        if e.op == "cdiv":
            return f"ceil({_kexpr(e.left)} / {_kexpr(e.right)})"
        symbol = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//"}.get(e.op, e.op)
        return f"{_kexpr(e.left)} {symbol} {_kexpr(e.right)}"
    return type(e).__name__


def _explain_library(lib: ir.KernelLibrary) -> str:
    k = lib.kernel
    lines = [
        f"cuTile BASIC kernel program: one kernel, {k.name}",
        f"  INPUT {', '.join(lib.inputs)} -> OUTPUT {', '.join(lib.outputs)}",
        f"  grid: {grid_text(k)}",
        f"  parameters: {params_text(k)}",
    ]
    for a in lib.arrays:
        dims = ", ".join(_kexpr(e) for e in a.extents)
        lines.append(f"  array {a.name}({dims}) {a.dtype}, {a.role}")
    return "\n".join(lines)


__all__ = ["explain", "explain_decisions", "show_expr"]
