"""golden/: the generated code of every example, reviewed as code, and its expected
output, checked three ways:

- the transpiler still writes exactly golden/<group>/<name>.py, .cu and .explain, and
  the interpreter still prints .out (after a deliberate change: `make golden`, then
  review the diff);
- .out agrees with Debian's bwbasic (golden/bwbasic/, an independent BASIC; numbers
  within its ~7 printed decimals), and bwbasic still prints that where installed;
- every kernel of the golden code compiles with NVIDIA's compilers: cuTile's
  export_kernel to Tile IR bytecode and cubins for sm_80, sm_90 and sm_100, and NVRTC
  for the same three architectures.

That the golden programs run like the interpreter on the CPU is checked per backend
(tests/test_python_host_offload.py, tests/test_cuda_host.py, tests/test_kernel_programs.py).
"""

from __future__ import annotations

import difflib
import shutil

import pytest

from tests.bwbasic import disagreements, run_bwbasic
from tests.golden_cases import GOLDEN, ROOT, analyse, cases, generated, uses_mat
from transpiler import driver
from transpiler.verify.cutile_aot import ARCHS

CASES = cases()
IDS = [c.id for c in CASES]
BWBASIC_CASES = [c for c in CASES if c.group == "legacy" and not uses_mat(ROOT / c.source)]


def _diff(expected: str, actual: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), f"golden/{name}", "generated", lineterm=""
    )
    return "\n".join(list(lines)[:60])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden_files_are_what_the_transpiler_writes(case):
    for suffix, text in generated(case).items():
        path = case.golden(suffix)
        assert path.exists(), f"{path} is missing: run `make golden`"
        expected = path.read_text(encoding="utf-8")
        assert text == expected, (
            f"{case.id}{suffix} changed (review, then `make golden`):\n"
            + _diff(expected, text, f"{case.id}{suffix}")
        )


def test_every_example_has_golden_files():
    on_disk = {p.relative_to(GOLDEN).with_suffix("").as_posix() for p in GOLDEN.glob("*/*.py")}
    assert on_disk == set(IDS)


@pytest.mark.parametrize("case", BWBASIC_CASES, ids=[c.name for c in BWBASIC_CASES])
def test_expected_output_agrees_with_bwbasic(case):
    ours = case.golden(".out").read_text()
    theirs = (GOLDEN / "bwbasic" / f"{case.name}.out").read_text()
    assert disagreements(ours, theirs) == []


@pytest.mark.skipif(shutil.which("bwbasic") is None, reason="Debian's bwbasic is not installed")
@pytest.mark.parametrize("case", BWBASIC_CASES, ids=[c.name for c in BWBASIC_CASES])
def test_bwbasic_still_prints_the_stored_output(case):
    stored = (GOLDEN / "bwbasic" / f"{case.name}.out").read_text()
    assert run_bwbasic(ROOT / case.source) == stored


def test_the_number_comparison_can_fail():
    assert disagreements(" 1.5 \n", "1.5000000\n") == []
    assert disagreements(" 1.5 \n", "1.5000100\n") != []
    assert disagreements("X = 1\n", "Y = 1\n") != []


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden_cutile_kernels_compile_for_three_architectures(case, tmp_path):
    from transpiler.verify.emit import export_kernels

    analysis = analyse(case)
    code = case.golden(".py").read_text()
    kernels = driver.kernels_of(analysis)
    files = export_kernels(kernels, code, ("tileir", "cubin"), ARCHS, tmp_path, case.name)
    if "@ct.kernel" not in code:
        assert files == []
        return
    kernels = code.count("@ct.kernel")
    suffixes = sorted(p.name.split(".", 1)[1] for p in files)
    assert suffixes == sorted(["tileirbc", *(f"{a}.cubin" for a in ARCHS)] * kernels)
    assert all(p.stat().st_size > 0 for p in files)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden_cuda_compiles_with_nvrtc(case, arch):
    pytest.importorskip("cuda.bindings.nvrtc")
    from transpiler.verify.nvrtc import compile_cuda

    code = case.golden(".cu").read_text()
    cubin = compile_cuda(code, f"{case.name}.cu", arch=arch, output="cubin")
    assert cubin[:4] == b"\x7fELF"


def test_golden_python_is_ruff_and_black_clean():
    import subprocess
    import sys

    files = [str(p) for p in sorted(GOLDEN.glob("*/*.py"))]
    ruff = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *files], capture_output=True, text=True
    )
    assert ruff.returncode == 0, ruff.stdout
    black = subprocess.run(
        [sys.executable, "-m", "black", "--check", "-q", *files], capture_output=True, text=True
    )
    assert black.returncode == 0, black.stderr


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden_cuda_is_clang_format_clean(case):
    import subprocess

    from transpiler.formatting.cpp import CLANG_FORMAT_STYLE, clang_format_path

    path = case.golden(".cu")
    result = subprocess.run(
        [clang_format_path(), f"--style={CLANG_FORMAT_STYLE}", "--dry-run", "-Werror", str(path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[:2000]
