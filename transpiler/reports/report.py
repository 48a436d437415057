"""`basic2tile prog.bas --html report.html`: a self-contained review page.

The BASIC source sits beside the generated cuTile Python and CUDA C++, with line
numbers (and, where NVIDIA's compilers are installed, the kernels' Tile IR and PTX,
folded below the panes).  Every generated line belongs to the BASIC statement whose `# 50 ...` /
`// 50 ...` comment opens the block it sits in (link_lines), so hovering or clicking a
line highlights the same BASIC line in all three panes.  An outline lists every loop
with its --explain decision (report_outline.py); BASIC lines that became kernels are
marked.  Keyboard: Tab to an outline entry and Enter pins its line; n / p pin the next
or previous entry, Escape unpins.  Syntax highlighting is Pygments' (the BASIC with
basic_highlight.py's lexer); the page has no external resources.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pygments.formatters import HtmlFormatter
from pygments.lexers import CppLexer, PythonLexer
from pygments.token import STANDARD_TYPES, Token

from ..backends.render import render
from .basic_highlight import BasicLexer
from .report_outline import kernel_lines, outline

_PY_ORIGIN = re.compile(r"^\s*# (\d+) ")
_CPP_ORIGIN = re.compile(r"^\s*// (\d+) ")


@dataclass
class Pane:
    title: str
    lines: list[tuple[str | None, str]]  # (BASIC line number or None, highlighted HTML)
    error: str = ""
    marks: dict[str, str] = field(default_factory=dict)  # BASIC line -> kernel it became
    # Row k of the pane has the id `{anchor}k` (`report.html#L12`, `#py-L40`): a
    # reviewer cites a line by it.
    anchor: str = ""
    note: str = ""  # why a section has no lines (its compilers are not installed)


def highlight_lines(lines: list[str], lexer) -> list[str]:
    """Pygments HTML, one string per line of `lines` (tokens spanning lines are split).
    The lexer must keep blank lines at the start and end (`stripnl=False`): Pygments
    drops them by default, and every row after them would belong to the wrong line."""
    rows: list[list[str]] = [[]]
    for token, value in lexer.get_tokens("\n".join(lines)):
        css = _css_class(token)
        for i, part in enumerate(value.split("\n")):
            if i:
                rows.append([])
            if part:
                text = html.escape(part)
                rows[-1].append(f'<span class="{css}">{text}</span>' if css else text)
    # Joined once per line: adding each token to a string was quadratic in a long line.
    highlighted = ["".join(row) for row in rows[: len(lines)]]
    return highlighted + [""] * (len(lines) - len(highlighted))


@functools.cache
def _css_class(token) -> str:
    while token not in STANDARD_TYPES and token.parent is not None:
        token = token.parent
    return STANDARD_TYPES.get(token, "")


def link_lines(code: str, origin: re.Pattern, labels: set[str] | None = None) -> list[str | None]:
    """The BASIC line each generated line belongs to (None outside translated code).

    A statement's comment opens a scope at its indentation: the lines after it belong
    to it until a comment at the same or a lower indentation starts the next statement,
    or the code returns to a lower indentation than the comment (its block ended, and
    the enclosing statement's scope, if any, takes over again).  Only comments naming
    one of `labels` (the program's line numbers) are statements: `// 256 threads per
    block` is not.  Preprocessor lines (`#pragma unroll`) and blank lines never end a
    scope (blank lines link nowhere); code at column 0 (a new definition) ends them all."""
    scopes: list[tuple[int, str]] = []  # (indentation, BASIC line), innermost last
    out: list[str | None] = []
    for line in code.splitlines():
        stripped = line.lstrip()
        depth = len(line) - len(stripped)
        m = origin.match(line)
        if m and (labels is None or m.group(1) in labels):
            while scopes and scopes[-1][0] >= depth:
                scopes.pop()
            scopes.append((depth, m.group(1)))
        elif stripped and not stripped.startswith("#pragma"):
            if depth == 0 and not stripped.startswith(("}", ")", "]")):
                scopes.clear()
            while scopes and scopes[-1][0] > depth:
                scopes.pop()
        out.append(scopes[-1][1] if scopes and stripped else None)
    return out


def basic_pane(source) -> Pane:
    lines = []
    highlighted = highlight_lines(list(source.lines), _basic_lexer())
    for text, html_line in zip(source.lines, highlighted):
        m = re.match(r"\s*(\d+)", text)
        lines.append((m.group(1) if m else None, html_line))
    return Pane("BASIC", lines)


def _basic_lexer():
    return BasicLexer(stripnl=False)


def code_pane(title: str, code: str, lexer, origin, labels: set[str]) -> Pane:
    highlighted = highlight_lines(code.splitlines(), lexer)
    return Pane(title, list(zip(link_lines(code, origin, labels), highlighted)))


def build_report(analysis, tile=None, offload: bool = True) -> str:
    """The page for `analysis` as the CLI would generate it (`offload` False is
    --no-offload: the panes and the decisions show host loops, as the code has them)."""
    from .. import driver
    from .explain import explain

    panes = [basic_pane(analysis.source)]
    labels = {number for number, _ in panes[0].lines if number is not None}
    codes: dict[str, str] = {}
    for title, target, lexer, origin in (
        ("cuTile Python", "cutile", PythonLexer(stripnl=False), _PY_ORIGIN),
        ("CUDA C++", "cuda", CppLexer(stripnl=False), _CPP_ORIGIN),
    ):
        try:
            code = codes[target] = driver.generate(analysis, target, tile, offload=offload)
            panes.append(code_pane(title, code, lexer, origin, labels))
        except Exception as exc:  # noqa: BLE001 - a failing backend is shown, not fatal
            panes.append(Pane(title, [], error=f"{type(exc).__name__}: {exc}"))
    try:
        decisions = explain(analysis, tile=tile, offload=offload)
        entries = outline(analysis, tile, offload)
        panes[0].marks = kernel_lines(analysis, entries)
    except Exception as exc:  # noqa: BLE001
        decisions = f"(offload analysis failed: {exc})"
        entries = []
    for pane, anchor in zip(panes, ("L", "py-L", "cu-L")):
        pane.anchor = anchor
    folded = []  # what NVIDIA's compilers make of the kernels, where they are installed
    if panes[0].marks:  # a program with kernels
        if "cutile" in codes and tile is None and offload:  # as --emit tileir compiles it
            folded.append(
                tileir_pane(analysis, codes["cutile"], panes[0].marks)
                or _missing(TILEIR_TITLE, "NVIDIA's tileiras and tileirdisasm")
            )
        if "cuda" in codes:
            folded.append(ptx_pane(codes["cuda"], panes[0].marks) or _missing(PTX_TITLE, "NVRTC"))
    for pane, anchor in zip(folded, ("tileir-L", "ptx-L") if len(folded) == 2 else ("ptx-L",)):
        pane.anchor = anchor
    return render(
        "report/report.html.jinja",
        title=html.escape(analysis.source.name),
        decisions=html.escape(decisions),
        outline=entries,
        panes=panes,
        folded=folded,
        css=HtmlFormatter(style="default").get_style_defs(".code"),
        escape=html.escape,
    )


PTX_ARCH = "sm_90"
PTX_TITLE = f"PTX ({PTX_ARCH}, NVRTC): what --emit ptx writes for the CUDA kernels"
TILEIR_TITLE = "Tile IR: what --emit tileir writes for the cuTile kernels (tileirdisasm)"


def _missing(title: str, compilers: str) -> Pane:
    """A section whose compilers are not installed: said on the page, not left out."""
    return Pane(
        f"{title} (not shown)",
        [],
        note=f"{compilers} are not installed where this page was made; they come with "
        "the optional extra: pip install 'basic2tile[nvidia]'",
    )


def ptx_pane(cuda_code: str, marks: dict[str, str]) -> Pane | None:
    """The PTX that NVRTC makes of the CUDA pane's kernels (what `--emit ptx` writes),
    each `.entry` linked to the loop its kernel came from; None where NVRTC is not
    installed (the optional `nvidia` extra)."""
    from pygments.lexers import TextLexer

    from ..errors import BasicError
    from ..verify.emit import compile_kernels

    title = PTX_TITLE
    with tempfile.TemporaryDirectory(prefix="b2t-report-") as tmp:
        try:
            (path,) = compile_kernels(cuda_code, "ptx", PTX_ARCH, tmp, "report")
        except (ImportError, FileNotFoundError):
            return None
        except BasicError as exc:
            return Pane(title, [], error=str(exc))
        text = Path(path).read_text(errors="replace")
    lines = text.splitlines()
    links: list[str | None] = []
    for line in lines:
        entry = ".entry" in line and next((b for b, k in marks.items() if k in line), None)
        links.append(entry or None)
    return Pane(title, list(zip(links, highlight_lines(lines, TextLexer(stripnl=False)))))


def tileir_pane(analysis, cutile_code: str, marks: dict[str, str]) -> Pane | None:
    """The Tile IR of the cuTile pane's kernels (the bytecode `--emit tileir` writes, as
    text by NVIDIA's `tileirdisasm`), each `entry` linked to the loop its kernel came
    from; None where the `nvidia` extra is not installed."""
    from pygments.lexers import TextLexer

    from .. import driver
    from ..verify.emit import export_kernels

    disassembler = _tileirdisasm()
    if disassembler is None:
        return None
    title = TILEIR_TITLE
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="b2t-report-") as tmp:
        try:
            made = export_kernels(
                driver.kernels_of(analysis), cutile_code, ("tileir",), (), tmp, "report"
            )
            for path in made:
                shown = subprocess.run(
                    [disassembler, str(path)], check=True, capture_output=True, text=True
                )
                lines += shown.stdout.splitlines() + [""]
        except ImportError:
            return None
        except Exception as exc:  # noqa: BLE001 - shown on the page, like a backend's
            return Pane(title, [], error=f"{type(exc).__name__}: {exc}")
    links: list[str | None] = []
    for line in lines:
        entry = line.startswith("entry @") and next(
            (b for b, k in marks.items() if line.startswith(f"entry @{k}_")), None
        )
        links.append(entry or None)
    return Pane(title, list(zip(links, highlight_lines(lines, TextLexer(stripnl=False)))))


def _tileirdisasm() -> str | None:
    """NVIDIA's Tile IR disassembler: on PATH, or installed beside tileiras by
    `cuda-tile[tileiras]` (site-packages/nvidia/cu13/bin)."""
    found = shutil.which("tileirdisasm")
    if found:
        return found
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(root) / "cu13" / "bin" / "tileirdisasm"
        if candidate.is_file():
            return str(candidate)
    return None


def write_report(analysis, path, tile=None, protected=(), offload: bool = True) -> None:
    """Write the page to `path`, never over a `protected` file (outfiles.py)."""
    from ..run.outfiles import write_output

    write_output(path, build_report(analysis, tile, offload), protected)


__all__ = ["build_report", "write_report", "Token"]
