"""`basic2tile prog.bas --html report.html`: a self-contained review page.

The BASIC source sits beside the generated cuTile Python and CUDA C++.  Every
generated line belongs to the BASIC line named by the nearest `# 50 ...` / `// 50 ...`
comment above it, so hovering or clicking a line highlights the same BASIC line in all
three panes.  The offload decisions (--explain) head the page.  Syntax highlighting is
Pygments' (the BASIC with basic_highlight.py's lexer); the page has no external
resources.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

from pygments.formatters import HtmlFormatter
from pygments.lexers import CppLexer, PythonLexer
from pygments.token import STANDARD_TYPES, Token

from .backends.render import render
from .basic_highlight import BasicLexer

_PY_ORIGIN = re.compile(r"^\s*# (\d+) ")
_CPP_ORIGIN = re.compile(r"^\s*// (\d+) ")
# A generated line that starts a new top-level definition ends the current BASIC line.
_PY_TOP = re.compile(r"^(def |class |@|\S)")
_CPP_TOP = re.compile(r"^(extern |static |int main|}|#|\S)")


@dataclass
class Pane:
    title: str
    lines: list[tuple[str | None, str]]  # (BASIC line number or None, highlighted HTML)
    error: str = ""


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


def link_lines(code: str, origin: re.Pattern, top: re.Pattern) -> list[str | None]:
    """The BASIC line each generated line belongs to (None outside translated code)."""
    current: str | None = None
    out: list[str | None] = []
    for line in code.splitlines():
        m = origin.match(line)
        if m:
            current = m.group(1)
        elif top.match(line) and not line.startswith((" ", "\t")):
            current = None
        out.append(current)
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


def code_pane(title: str, code: str, lexer, origin, top) -> Pane:
    highlighted = highlight_lines(code.splitlines(), lexer)
    return Pane(title, list(zip(link_lines(code, origin, top), highlighted)))


def build_report(analysis, tile=None) -> str:
    from . import driver
    from .explain import explain

    panes = [basic_pane(analysis.source)]
    for title, target, lexer, origin, top in (
        ("cuTile Python", "cutile", PythonLexer(stripnl=False), _PY_ORIGIN, _PY_TOP),
        ("CUDA C++", "cuda", CppLexer(stripnl=False), _CPP_ORIGIN, _CPP_TOP),
    ):
        try:
            code = driver.generate(analysis, target, tile)
            panes.append(code_pane(title, code, lexer, origin, top))
        except Exception as exc:  # noqa: BLE001 - a failing backend is shown, not fatal
            panes.append(Pane(title, [], error=f"{type(exc).__name__}: {exc}"))
    try:
        decisions = explain(analysis, tile=tile)
    except Exception as exc:  # noqa: BLE001
        decisions = f"(offload analysis failed: {exc})"
    return render(
        "report/report.html.jinja",
        title=html.escape(analysis.source.name),
        decisions=html.escape(decisions),
        panes=panes,
        css=HtmlFormatter(style="default").get_style_defs(".code"),
        escape=html.escape,
    )


def write_report(analysis, path, tile=None, protected=()) -> None:
    """Write the page to `path`, never over a `protected` file (outfiles.py)."""
    from .outfiles import write_output

    write_output(path, build_report(analysis, tile), protected)


__all__ = ["build_report", "write_report", "Token"]
