"""The manual (docs/, built by MkDocs) and the README's links into it.

- The manual builds with `mkdocs build --strict`, as `make docs` does: any warning (a link
  to a page or an anchor that does not exist, a page left out of the navigation) fails.
- Every relative link in README.md and docs/*.md names a file that exists, and its
  `#anchor` a heading of that file under both slug rules that render it: GitHub's (the
  README and the pages read on GitHub) and MkDocs' (the built manual).  So a link works
  in both places; MkDocs alone would not check the README, which is outside docs/.
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# [text](target) and [text](target "title"); images too.  Reference-style links are not used.
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^(```|~~~)")
_CODE_SPAN = re.compile(r"(`+).*?\1")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of the lines outside fenced code blocks."""
    lines, in_fence = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if _FENCE.match(line.lstrip()):
            in_fence = not in_fence
        elif not in_fence:
            lines.append((number, line))
    return lines


def headings(path: Path) -> list[str]:
    return [m.group(2) for _, line in prose_lines(path) if (m := _HEADING.match(line))]


def _heading_text(heading: str) -> str:
    """What a heading shows: link targets, code and emphasis marks dropped."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").replace("*", "")


def github_slug(heading: str) -> str:
    """GitHub's anchor: lower case; letters, digits, '-', '_' and spaces kept; each space a '-'."""
    text = _heading_text(heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def mkdocs_slug(heading: str) -> str:
    """Python-Markdown's toc.slugify, MkDocs' default: ASCII, runs of '-' and spaces one '-'."""
    text = unicodedata.normalize("NFKD", _heading_text(heading))
    text = text.encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def relative_links(path: Path) -> list[tuple[int, str]]:
    links = []
    for number, line in prose_lines(path):
        for target in _LINK.findall(_CODE_SPAN.sub("", line)):
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                links.append((number, target))
    return links


def broken_link(source: Path, target: str) -> str | None:
    """Why `target`, a link in `source`, does not resolve; None when it does."""
    file_part, _, anchor = target.partition("#")
    destination = (source.parent / file_part).resolve() if file_part else source
    if not destination.exists():
        return f"no file {file_part}"
    if not anchor:
        return None
    if destination.suffix != ".md":
        return f"an anchor into {destination.name}, which is not a page"
    titles = headings(destination)
    if anchor not in {github_slug(t) for t in titles}:
        return f"no heading of {destination.name} has GitHub's anchor #{anchor}"
    if anchor not in {mkdocs_slug(t) for t in titles}:
        return f"no heading of {destination.name} has MkDocs' anchor #{anchor}"
    return None


def test_every_relative_link_resolves():
    problems = []
    for path in markdown_files():
        for number, target in relative_links(path):
            if why := broken_link(path, target):
                problems.append(f"{path.relative_to(ROOT)}:{number}: ({target}) {why}")
    assert not problems, "\n".join(problems)


def test_readme_links_every_page_of_the_manual():
    """The README is the way in: each page of docs/ is one link away from it."""
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for _, target in relative_links(ROOT / "README.md")
    }
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked]
    assert not missing, f"README.md does not link {missing}"


def test_the_readme_is_a_front_page():
    """Issue 23, point 8: the README was 1,142 lines (reference, semantics, benchmarks and
    history in one page).  It keeps what a newcomer needs, the manual the rest."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    sections = [h for h in headings(ROOT / "README.md") if not h.startswith("basic2tile")]
    assert sections == ["The two commands", "A worked example", "The manual"]
    assert "make demo" in text and "make test" in text


def test_link_check_can_fail(tmp_path):
    """The checker itself: a missing file, a missing anchor and a slug only GitHub makes."""
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## QuickBASIC / QBasic\n\n## Microsoft BASIC's numbers\n")
    assert broken_link(page, "nowhere.md") == "no file nowhere.md"
    assert "GitHub's anchor #nope" in broken_link(page, "page.md#nope")
    assert "MkDocs' anchor #quickbasic--qbasic" in broken_link(page, "#quickbasic--qbasic")
    assert broken_link(page, "page.md#microsoft-basics-numbers") is None
    assert relative_links(page) == []


def test_manual_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="MkDocs is in the docs extra (make test installs it)")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output, output
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "semantics.html").is_file()
