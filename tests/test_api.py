"""The Python API (`transpiler/api.py`): what the command line does, as functions that
return text and located diagnostics instead of printing them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transpiler import api

SAXPY = """\
10 DIM X(100), Y(100)
20 FOR I = 1 TO 100
30 LET X(I) = I / 100
40 LET Y(I) = 2 * X(I) + 1
50 NEXT I
60 PRINT Y(50)
"""


@pytest.mark.parametrize("target, marker", [("cutile", "@ct.kernel"), ("cuda", "__global__")])
def test_translate_gives_the_text_the_command_line_writes(tmp_path, target, marker):
    out = api.translate(SAXPY, target=target, name="saxpy.bas")
    assert out.target == target and out.kind == "legacy" and out.dialect == "extended"
    assert marker in out.code
    (tmp_path / "saxpy.bas").write_text(SAXPY)
    suffix = ".py" if target == "cutile" else ".cu"
    subprocess.run(
        [sys.executable, "-m", "transpiler", "saxpy.bas", "-o", f"saxpy{suffix}"],
        cwd=tmp_path, check=True, capture_output=True,
    )  # fmt: skip
    assert (tmp_path / f"saxpy{suffix}").read_text() == out.code


def test_warnings_and_the_pinned_dialect_are_located():
    out = api.translate("10 PRINT 7 \\ 2\n20 FOR I = 1 TO 3\n30 NEXT J\n")
    assert out.dialect == "ms"
    note, warning = out.warnings
    assert (note.severity, note.line) == ("note", 1) and "assuming --dialect ms" in note.message
    # at the NEXT that names another FOR's variable: the statement that is wrong
    assert (warning.severity, warning.line, warning.column) == ("warning", 3, 4)
    assert warning.text.splitlines()[1] == "    30 NEXT J"


def test_compile_errors_carry_every_diagnostic_with_its_place():
    with pytest.raises(api.CompileError) as raised:
        api.translate("10 PRINT (1\n", name="bad.bas")
    (error,) = raised.value.diagnostics
    assert (error.file, error.line, error.column, error.severity) == ("bad.bas", 1, 12, "error")
    assert str(raised.value).startswith("bad.bas:1:12: error: missing ')'")
    with pytest.raises(api.CompileError):
        api.interpret("10 GOTO 99\n")


def test_interpret_returns_what_the_program_printed_and_its_status():
    run = api.interpret("10 INPUT A\n20 PRINT A * 2\n", stdin="21\n")
    assert (run.stdout, run.stderr, run.status) == ("?  42 \n", "", 0)
    failed = api.interpret("10 DIM A(3)\n20 PRINT 1\n30 A(5) = 1\n")
    assert failed.stdout == " 1 \n" and failed.status == 1
    assert failed.stderr.startswith("prog.bas:3:4: error: subscript out of range A(5)")


def test_options_have_the_command_lines_names(tmp_path):
    assert api.interpret("10 PRINT 1/3\n", dialect="ms").stdout == " .3333334 \n"  # GW-BASIC
    host_only = api.translate(SAXPY, offload=False).code
    assert "@ct.kernel" not in host_only
    (tmp_path / "p.bas").write_text(SAXPY)
    assert api.translate_file(tmp_path / "p.bas", "cuda").code.startswith("// p.bas:")
    with pytest.raises(ValueError, match="target must be one of cutile, cuda"):
        api.translate(SAXPY, target="opencl")
