"""The review page's outline: one entry per loop (or the one kernel of a cuTile BASIC
program) with the --explain decision beside it, and the BASIC lines that became kernels.

Taken from the same host program and kernel library the generated code comes from, so
the page and the code agree (with --no-offload every loop is a host loop).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OutlineEntry:
    label: str | None  # the BASIC line the entry links to
    where: str  # "line 100"
    text: str  # the loop as written, or the kernel's name
    verdict: str  # "GPU kernel map_100 (map): ..." or "host: <why>"
    kernel: str | None  # the kernel's name when offloaded


def outline(analysis, tile=None, offload: bool = True) -> list[OutlineEntry]:
    from .. import driver
    from .explain import loop_text

    if analysis.kind == "kernel":
        kernel = driver.kernel_library(analysis).kernel
        labels = kernel_labels_of_body(kernel)
        first = labels[0] if labels else None
        where = f"line {first}" if first else "kernel"
        verdict = f"GPU kernel {kernel.name}: {kernel.summary}"
        return [OutlineEntry(first, where, kernel.name, verdict, kernel.name)]
    host = driver.host_program(analysis, tile, offload)
    kernels = {k.name: k for k in host.kernels}
    entries = []
    for d in sorted(host.decisions, key=lambda d: (d.coord.line, d.coord.column)):
        label = str(d.label) if d.label is not None else None
        where = f"line {d.label}" if label else f"source line {d.coord.line}"
        if d.offloaded:
            k = kernels[d.kernel]
            verdict = f"GPU kernel {k.name} ({k.kind}): {k.summary}"
        else:
            verdict = f"host: {d.reason}"
        entries.append(OutlineEntry(label, where, loop_text(analysis, d), verdict, d.kernel))
    return entries


def kernel_labels_of_body(kernel) -> list[str]:
    """The BASIC lines of a kernel's statements, in order, each once."""
    labels: list[str] = []
    stack = list(reversed(kernel.body))
    while stack:
        stmt = stack.pop()
        if stmt.origin is not None and stmt.origin.label is not None:
            label = str(stmt.origin.label)
            if label not in labels:
                labels.append(label)
        for name in ("body", "then_body", "else_body"):
            stack.extend(reversed(getattr(stmt, name, []) or []))
    return labels


def kernel_lines(analysis, entries: list[OutlineEntry]) -> dict[str, str]:
    """BASIC line -> the kernel it became (the loop's line; every statement of a cuTile
    BASIC program's kernel)."""
    from .. import driver

    marks = {e.label: e.kernel for e in entries if e.kernel and e.label}
    if analysis.kind == "kernel":
        kernel = driver.kernel_library(analysis).kernel
        marks.update(dict.fromkeys(kernel_labels_of_body(kernel), kernel.name))
    return marks
