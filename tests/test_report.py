"""The --html review page, checked in a real headless browser (Debian's chromium)."""

from __future__ import annotations

import html
import re
import shutil

import pytest

from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.options import Options
from transpiler.reports.report import (
    _CPP_ORIGIN,
    _PY_ORIGIN,
    _basic_lexer,
    build_report,
    highlight_lines,
    link_lines,
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def test_generated_lines_link_to_their_basic_line():
    code = "def k():\n    # 50 LET C = 1\n    c = 1\n    d = 2\n    # 60 LET E = 2\n    e = 2\n\n\ndef run():\n    pass\n"
    assert link_lines(code, _PY_ORIGIN) == [
        None,
        "50",
        "50",
        "50",
        "60",
        "60",
        None,
        None,
        None,
        None,
    ]


def test_a_pragma_does_not_end_a_statement_and_a_block_returns_to_its_loop():
    """`#pragma unroll` at column 0 ended the statement (saxpy's CUDA: 109 of 413 lines
    linked); the host lines after a nested statement's block belong to the loop again."""
    code = """__global__ void k() {
  // 256 threads per block
  // 110 LET X(I) = I / N
  double x_tile[2];
#pragma unroll
  for (int slot = 0; slot < 2; ++slot) {
    x_tile[slot] = 1.0;
  }
}
void run() {
  // 100 FOR I = 1 TO N
  {
    launch();
    for (int i = 0; i < n; ++i) {
      // 110 LET X(I) = I / N
      x(i) = 1.0;
    }
    i = 1 + n;
  }
}
"""
    links = link_lines(code, _CPP_ORIGIN, {"100", "110"})
    assert links == [None, None, "110", "110", "110", "110", "110", "110", None, None] + [
        "100",
        "100",
        "100",
        "100",
        "110",
        "110",
        "100",
        "100",
        "100",
        None,
    ]


def _code_links(page: str, pane: int) -> list[str | None]:
    """data-basic of each row of code pane `pane` (2: cuTile Python, 3: CUDA C++)."""
    start = page.index(f'id="pane-{pane}"')
    end = page.find(f'id="pane-{pane + 1}"')
    end = end if end > 0 else page.find('<details class="folded">')
    rows = re.findall(
        r'<div class="ln" id="[^"]+"(?: data-basic="(\d+)")?[^>]*>',
        page[start : end if end > 0 else None],
    )
    return [number or None for number in rows]


def test_every_translated_line_of_saxpy_is_linked_in_both_panes():
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "saxpy.bas"), Options())
    page = build_report(analysis)
    for pane, target in ((2, "cutile"), (3, "cuda")):
        code = driver.generate(analysis, target).splitlines()
        links = _code_links(page, pane)
        assert len(links) == len(code)
        # the statements that do the work, in the kernel and in the host code
        for needle, line in (
            ("x_tile[slot] = static_cast", "110"),
            ("x_tile = ct.astype", "110"),
            ("B2T_LAUNCH(::map_100", "100"),
            ("map_100,", "100"),
            ("y[at_3] = y_tile[slot]", "160"),
            ("s_acc_sum = b2t_block_sum", "290"),
        ):
            rows = [k for k, text in enumerate(code) if needle in text]
            assert all(links[k] == line for k in rows), (needle, [links[k] for k in rows])
        # no line outside a BASIC statement is linked: the runtime helpers and main()
        for k, text in enumerate(code):
            if text.startswith(("template", "int main", "def main", "class DeviceArray")):
                assert links[k] is None, text


def test_no_offload_page_shows_the_code_without_kernels():
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "saxpy.bas"), Options())
    page = build_report(analysis, offload=False)
    assert "map_100" not in page and "__global__" not in page and "ct.kernel" not in page
    assert "0 offloaded" in page
    assert "map_100" in build_report(analysis)


def test_tile_ir_and_ptx_of_the_kernels_are_folded_below_with_each_entry_linked():
    # tileirdisasm and NVRTC come with the test extras (the `nvidia` extra); without them
    # the page has no such section.
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "matmul.bas"), Options())
    page = build_report(analysis)
    tileir, ptx = re.findall(r'<details class="folded">(.*?)</details>', page, re.DOTALL)
    assert "Tile IR" in tileir and "PTX" in ptx
    entries = re.findall(
        r'<div class="ln" id="[^"]+" data-basic="(\d+)">entry @([a-z]+_\d+)_', tileir
    )
    assert entries == [("70", "map_70"), ("140", "mma_140"), ("320", "reduce_320")]
    entries = re.findall(r'<div class="ln" id="[^"]+" data-basic="(\d+)">[^<]*\.entry (\w+)\(', ptx)
    assert entries == [("70", "map_70"), ("140", "mma_140"), ("320", "reduce_320")]
    assert "<details" not in build_report(analysis, offload=False)


def test_outline_gives_each_loop_its_decision_and_marks_the_kernel_lines():
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "matmul.bas"), Options())
    page = build_report(analysis)
    buttons = re.findall(
        r'<button type="button" class="(\w+)" data-line="(\d+)">(.*?)</button>', page
    )
    assert [(cls, line) for cls, line, _ in buttons] == [
        ("kernel", "70"),
        ("kernel", "140"),
        ("kernel", "320"),
    ]
    assert "GPU kernel mma_140 (mma): matrix product C = A * B" in html.unescape(buttons[1][2])
    pane = page[page.index('id="pane-1"') : page.index('id="pane-2"')]
    marked = re.findall(r'data-basic="(\d+)" data-kernel="(\w+)"', pane)
    assert marked == [("70", "map_70"), ("140", "mma_140"), ("320", "reduce_320")]
    # --no-offload: no decision was made, no kernel exists, no line is marked
    page = build_report(analysis, offload=False)
    assert '<nav id="outline"' not in page
    assert "data-kernel=" not in page.replace(".ln[data-kernel]", "")


def _basic_rows(page: str) -> list[tuple[str | None, str]]:
    """(data-basic, text) of each row of the BASIC pane."""
    pane = page[page.index('id="pane-1"') : page.index('id="pane-2"')]
    rows = re.findall(r'<div class="ln" id="[^"]+"(?: data-basic="(\d+)")?[^>]*>(.*?)</div>', pane)
    return [(number or None, html.unescape(re.sub("<[^>]+>", "", text))) for number, text in rows]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_basic_rows_keep_their_lines_around_blank_lines(newline):
    """Pygments dropped the blank lines at the start, so every row showed (and linked)
    the line after its own."""
    lines = ["", "", "10 LET A = 1", "", "20 PRINT A", "30 END", "", ""]
    analysis = driver.front_end(SourceFile("b.bas", newline.join(lines)), Options())
    rows = _basic_rows(build_report(analysis))
    numbers = [line.split()[0] if line else None for line in lines[:-1]]
    assert rows == list(zip(numbers, lines[:-1]))


def test_basic_highlighting_keeps_the_text_and_colours_the_words():
    lines = ['  10 PRINT "A"; FNA(X) : REM NOTE', "20 LET A$=1.5E3 ' WHY", "30 REMARK = 2"]
    lexer = _basic_lexer()
    examples = [(EXAMPLES / name).read_text().splitlines() for name in ("saxpy.bas", "dot.bas")]
    for text in [lines, *examples]:
        rows = highlight_lines(text, lexer)
        assert [html.unescape(re.sub("<[^>]+>", "", row)) for row in rows] == text
    classes = re.findall(r'class="(\w+)">([^<]*)<', "".join(highlight_lines(lines, lexer)))
    assert ("nl", "10") in classes and ("nl", "20") in classes  # line numbers
    assert ("k", "PRINT") in classes and ("nf", "FNA") in classes
    assert ("c1", " NOTE") in classes and ("c1", "&#x27; WHY") in classes
    assert ("nv", "REMARK") in classes  # a name in extended BASIC, not a comment


def test_report_is_self_contained_and_escapes_source(tmp_path):
    text = '10 PRINT "<script>alert(1)</script> & {{ x }}"\n20 END\n'
    analysis = driver.front_end(SourceFile("x.bas", text), Options())
    page = build_report(analysis)
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;" in page
    assert "http://" not in page and "https://" not in page  # no external resources


def test_every_row_of_every_pane_has_a_stable_anchor():
    """A reviewer cites `report.html#L12` (BASIC row 12) or `#py-L40`, `#cu-L40`,
    `#tileir-L3`, `#ptx-L3`: each id unique, row k of a pane is its k-th line."""
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "saxpy.bas"), Options())
    page = build_report(analysis)
    ids = re.findall(r'<div class="ln" id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for prefix in ("L", "py-L", "cu-L", "tileir-L", "ptx-L"):
        rows = [int(i[len(prefix) :]) for i in ids if re.fullmatch(rf"{prefix}\d+", i)]
        assert rows == list(range(1, len(rows) + 1)) and rows, prefix
    row = analysis.source.text.splitlines().index("150 FOR I = 1 TO N") + 1
    assert re.search(rf'id="L{row}" data-basic="150"[^>]*><span[^>]*>150</span>', page)


def test_a_section_whose_compilers_are_missing_says_so(monkeypatch):
    from transpiler.reports import report
    from transpiler.verify import emit

    def no_nvrtc(*args, **kwargs):
        raise ImportError("no NVRTC")

    monkeypatch.setattr(report, "_tileirdisasm", lambda: None)
    monkeypatch.setattr(emit, "compile_kernels", no_nvrtc)
    analysis = driver.front_end(SourceFile.read(EXAMPLES / "saxpy.bas"), Options())
    folded = re.findall(r'<details class="folded">(.*?)</details>', build_report(analysis), re.S)
    assert len(folded) == 2
    for section, what in zip(folded, ("Tile IR", "PTX")):
        assert what in section and "(not shown)" in section
        assert "pip install &#x27;basic2tile[nvidia]&#x27;" in section


@pytest.fixture
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip(
            "chromium and chromedriver are not installed (apt install chromium chromium-driver)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,900",
    ):
        opts.add_argument(flag)
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield drv
    drv.quit()


def test_report_in_headless_browser(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    analysis = driver.front_end(SourceFile.read(EXAMPLES / "kernels" / "gemm.bas"), Options())
    page = tmp_path / "report.html"
    page.write_text(build_report(analysis))
    browser.get(page.as_uri())
    panes = browser.find_elements(By.CSS_SELECTOR, ".pane h2")
    assert [p.text for p in panes] == ["BASIC", "cuTile Python", "CUDA C++"]
    assert "one kernel, gemm" in browser.find_element(By.ID, "decisions").text
    basic_line = browser.find_element(By.CSS_SELECTOR, '#pane-1 .ln[data-basic="110"]')
    linked = browser.find_elements(By.CSS_SELECTOR, '#pane-2 .ln[data-basic="110"]')
    assert linked, "the MMA line must be linked in the cuTile pane"
    ActionChains(browser).move_to_element(basic_line).perform()
    assert "hl" in linked[0].get_attribute("class")
    basic_line.click()
    assert "pinned" in linked[0].get_attribute("class")
    assert "pinned" in basic_line.get_attribute("class")
    # keyboard: n pins the outline's first entry (the kernel's first line), Escape unpins
    entry = browser.find_element(By.CSS_SELECTOR, "#outline button")
    marked = browser.find_elements(By.CSS_SELECTOR, "#pane-1 .ln[data-kernel]")
    assert marked and entry.get_attribute("data-line") == marked[0].get_attribute("data-basic")
    basic_line.click()  # unpin 110
    ActionChains(browser).send_keys("n").perform()
    first = entry.get_attribute("data-line")
    pinned = browser.find_elements(By.CSS_SELECTOR, ".ln.pinned")
    assert pinned and {el.get_attribute("data-basic") for el in pinned} == {first}
    assert browser.switch_to.active_element == entry
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert not browser.find_elements(By.CSS_SELECTOR, ".ln.pinned")
    entry.send_keys(Keys.ENTER)
    assert browser.find_elements(By.CSS_SELECTOR, ".ln.pinned")
    shot = tmp_path / "report.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    # An 800 px window puts the panes one above the other, each readable (not 250 px).
    browser.set_window_size(800, 900)
    widths = [p.size["width"] for p in browser.find_elements(By.CSS_SELECTOR, ".pane")]
    assert min(widths) > 600, widths
    # An anchor scrolls to its row and marks it.
    browser.get(page.as_uri() + "#py-L5")
    assert browser.find_element(By.ID, "py-L5").value_of_css_property("outline-style") == "solid"
