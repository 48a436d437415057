"""`MAT C = A * B` offloaded to the matrix product kernel of the I/J/K loop nest
(passes/parallel/matmul.py `mat_product_launch`): the host checks the shapes and gives C its new
shape (`mat_product_shape`), then the `mma` kernel runs over the whole storage of A and B,
as a MAT statement covers every element from the OPTION BASE on.  Each program runs
translated to cuTile Python (kernels on the CPU through tilesim) and to CUDA C++ (g++ and
the CUDA emulator), and must print what the reference interpreter prints, fail with the
same error at the same line, and exit with the same status.  The matrices hold small
integers, so the kernel's order of summation cannot change a printed digit."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from pathlib import Path

import pytest

from transpiler import driver
from transpiler.errors import BasicRuntimeError, SourceFile
from transpiler.ir import hostir
from transpiler.options import Options
from transpiler.reports.explain import explain

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# name -> (source, {BASIC line of a MAT product: offloaded?}, BASIC line of the fatal error)
PROGRAMS: dict[str, tuple[str, dict[int, bool], int | None]] = {
    "matmat": ((EXAMPLES / "matmat.bas").read_text(), {110: True, 220: True}, None),
    # OPTION BASE 0 (the default): DIM A(2,1) is 3x2 and row/column 0 take part; C shrinks
    # from 6x6 to 3x4 (MAT PRINT and C(2,3) show it), then a subscript past it fails.
    "base0": (
        """\
10 DIM A(2,1), B(1,3), C(5,5)
20 FOR I = 0 TO 2
30 FOR J = 0 TO 1
40 LET A(I,J) = I + 2*J + 1
50 NEXT J
60 NEXT I
70 FOR I = 0 TO 1
80 FOR J = 0 TO 3
90 LET B(I,J) = 3*I - J
100 NEXT J
110 NEXT I
120 MAT C = A * B
130 MAT PRINT C;
140 PRINT C(0,0); C(2,3)
150 PRINT C(3,0)
160 END
""",
        {120: True},
        150,
    ),
    # OPTION BASE 1, non-square, in a host loop: C changes shape between launches
    # (2x2, 3x3, 2x2) within the 16 elements of its DIM.
    "base1_nonsquare": (
        """\
10 OPTION BASE 1
20 DIM A(2,3), B(3,2), C(4,4)
30 MAT READ A, B
40 FOR R = 1 TO 3
50 IF R = 2 THEN 80
60 MAT C = A * B
70 GOTO 90
80 MAT C = B * A
90 MAT PRINT C;
100 LET A(1,1) = A(1,1) + R
110 NEXT R
120 DATA 1, -2, 3, 4, 5, -6
130 DATA 7, 8, -9, 10, 11, 12
140 END
""",
        {60: True, 80: True},
        None,
    ),
    # Operands that do not conform: the error of the host statement, before any launch.
    "shape_error": (
        """\
10 OPTION BASE 1
20 DIM A(2,3), B(2,3), C(3,3)
30 MAT A = CON
40 MAT B = CON
50 PRINT "BEFORE"
60 MAT C = A * B
70 PRINT "AFTER"
80 END
""",
        {60: True},
        60,
    ),
    # A result larger than C's DIM (a 4x4 result, 9 elements): the redimensioning fails.
    "too_large": (
        """\
10 DIM A(3,4), B(4,3), C(2,2)
20 MAT A = CON
30 MAT B = CON
40 PRINT "BEFORE"
50 MAT C = A * B
60 PRINT "AFTER"
70 END
""",
        {50: True},
        50,
    ),
    # C = A * A reads one array twice (offloaded); A = A * A writes an operand, so it
    # stays on the host; a vector operand stays on the host too.
    "aliasing": (
        """\
10 OPTION BASE 1
20 DIM A(3,3), C(3,3), V(3), W(3)
30 MAT READ A
40 MAT C = A * A
50 MAT PRINT C;
60 MAT A = A * A
70 MAT PRINT A;
80 MAT V = CON
90 MAT W = A * V
100 MAT PRINT W;
110 DATA 1, 2, 0, -1, 3, 1, 2, 0, 4
120 END
""",
        {40: True, 60: False, 90: False},
        None,
    ),
}


def _analysis(name: str, options: Options | None = None):
    text = PROGRAMS[name][0]
    return driver.front_end(SourceFile(f"{name}.bas", text), options or Options())


def _interpret(analysis) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    try:
        status = driver.interpret(analysis, io.StringIO(""), out, err)
    except BasicRuntimeError as error:
        err.write(error.render(analysis.source) + "\n")
        status = 1
    return out.getvalue(), err.getvalue(), status


def _error_message(stderr: str) -> str:
    found = re.search(r"error: (.*)", stderr)
    assert found, stderr
    return found.group(1).strip()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mat_products_are_offloaded_where_safe(name: str) -> None:
    analysis = _analysis(name)
    host = driver.host_program(analysis)
    launches = {
        n.origin.label: n
        for n in hostir.walk(host.body)
        if isinstance(n, hostir.Launch) and n.shapes
    }
    expected = PROGRAMS[name][1]
    for label, offloaded in expected.items():
        assert (label in launches) == offloaded, (label, sorted(launches))
    code = driver.generate(analysis, "cutile")
    text = explain(analysis)
    for label, offloaded in expected.items():
        if offloaded:
            launch = launches[label]
            assert launch.kernel.name == f"mma_{label}" and launch.kernel.kind == "mma"
            assert re.search(rf"dev\.launch\(\s*mma_{label},", code), code
            target = launch.shapes[0].target.lower()
            assert f"mat_product_shape({target}, " in code
            assert re.search(rf"line {label}\s+MAT .*\n\s+-> GPU kernel mma_{label} \(mma\)", text)
        else:
            assert re.search(rf"line {label}\s+MAT .*\n\s+-> host: MAT product: ", text), text


@pytest.mark.parametrize("target", ["cutile", "cuda"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mat_product_runs_like_the_interpreter(name: str, target: str) -> None:
    analysis = _analysis(name)
    want_out, want_err, want_status = _interpret(analysis)
    got = driver.run(analysis, driver.generate(analysis, target), target, "cpu")
    assert got.stdout == want_out
    assert got.returncode == want_status
    error_line = PROGRAMS[name][2]
    if error_line is None:
        assert want_status == 0, want_err
        assert not got.stderr.strip(), got.stderr
    else:
        assert want_status == 1
        assert f"    {error_line} " in want_err  # the interpreter shows the failing line
        assert f"line {error_line}: {_error_message(want_err)}" in got.stderr


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_mat_product_in_f32_runs_like_the_interpreter(target: str) -> None:
    # --precision f32: the kernel's f32 tiles (128x128, 32-wide slices); small integers
    # are exact in f32, so the output must still be the interpreter's, digit for digit.
    analysis = _analysis("base1_nonsquare", Options(precision="f32"))
    code = driver.generate(analysis, target)
    assert "mma_60" in code and "mma_80" in code
    want_out, want_err, want_status = _interpret(analysis)
    got = driver.run(analysis, code, target, "cpu")
    assert (got.stdout, got.returncode) == (want_out, want_status) == (want_out, 0), want_err


def test_explain_reports_the_mat_statements_of_matmat() -> None:
    analysis = _analysis("matmat")
    text = explain(analysis)
    for label, target, left, right in ((110, "C", "A", "B"), (220, "F", "D", "E")):
        assert re.search(
            rf"line {label}\s+MAT {target} = {left} \* {right}\n"
            rf"\s+-> GPU kernel mma_{label} \(mma\): matrix product {target} = {left} \* {right};",
            text,
        ), text


def test_mat_product_kernel_compiles_with_nvidia_compiler(tmp_path: Path) -> None:
    from transpiler.verify.cutile_aot import export
    from transpiler.verify.emit import aot_param_specs

    analysis = _analysis("matmat")
    host = driver.host_program(analysis)
    kernel = next(k for k in host.kernels if k.name == "mma_220")
    path = tmp_path / "matmat_host.py"
    path.write_text(driver.generate(analysis, "cutile"))
    spec = importlib.util.spec_from_file_location("gen_matmat_host", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        files = export(getattr(module, kernel.name), aot_param_specs(kernel), tmp_path / "aot")
    finally:
        del sys.modules[spec.name]
    suffixes = sorted(f.name.split(".", 1)[1] for f in files)
    assert suffixes == ["sm_100.cubin", "sm_80.cubin", "sm_90.cubin", "tileirbc"]
    assert all(f.stat().st_size > 0 for f in files)
