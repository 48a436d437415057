"""`pip install 'basic2tile[nvidia]'` brings an nvcc that builds the generated .cu (issue 23,
point 3).  The nvcc wheel alone could not: nvidia-cuda-nvcc 13.0.48 shipped no crt/ headers
(`crt/host_config.h`: nvidia-cuda-crt, a dependency of nvcc from 13.0.88 on), and no nvcc
wheel brings CCCL (`fatal error: nv/target: No such file or directory`, from cuda_fp16.h:
nvidia-cuda-cccl).  The extra asks for NVIDIA's metapackage cuda-toolkit[nvcc,cccl], which
installs the four at one release; the nvcc.profile beside that nvcc finds their headers, so
the build line of the .cu's header works with it as printed.

No GPU is needed: the programs are compiled (cubins for sm_80, sm_90 and sm_100) and linked,
not run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import cli
from transpiler.verify.nvcc import EXTRA_NVCC_FILES, extra_nvcc, missing_extra_nvcc_files

ROOT = Path(__file__).resolve().parent.parent
# A legacy program whose loops become kernels (b2t_runtime.h, b2t_launch.h) and a kernel
# program (b2t_cuda.h alone).
PROGRAMS = [ROOT / "examples" / "saxpy.bas", ROOT / "examples" / "kernels" / "vector_add.bas"]
ARCHS = ("sm_80", "sm_90", "sm_100")


def _nvidia_extra() -> list[str]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["optional-dependencies"]["nvidia"]


def _generate(source: Path, folder: Path) -> Path:
    out = folder / f"{source.stem}.cu"
    assert cli.main([str(source), "-o", str(out)]) == 0
    return out


def _header_nvcc_command(cu: Path) -> str:
    lines = [x for x in cu.read_text().splitlines() if x.startswith("//   nvcc ")]
    assert len(lines) == 1, "the header gives one nvcc command"
    return lines[0][len("//   ") :]


def _with_nvcc_first(nvcc: Path) -> dict:
    """The environment with `nvcc`'s folder first on PATH: the printed `nvcc ...` is it."""
    return dict(os.environ, PATH=f"{nvcc.parent}{os.pathsep}{os.environ['PATH']}")


def _run(command, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        check=False,
        shell=isinstance(command, str),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_nvidia_extra_asks_for_nvcc_with_its_headers():
    """The requirement that brings nvcc names the crt and CCCL wheels' extras too."""
    toolkit = [r for r in _nvidia_extra() if r.startswith("cuda-toolkit")]
    assert len(toolkit) == 1
    extras = set(re.search(r"\[([^\]]*)\]", toolkit[0]).group(1).split(","))
    assert {"nvcc", "cccl"} <= extras
    assert set(EXTRA_NVCC_FILES.values()) == {
        "nvidia-cuda-nvcc",
        "nvidia-cuda-crt",
        "nvidia-cuda-runtime",
        "nvidia-cuda-cccl",
    }


@pytest.mark.slow
@pytest.mark.skipif(
    extra_nvcc() is None,
    reason="the [nvidia] extra's nvcc is not installed here; missing: "
    + "; ".join(missing_extra_nvcc_files()),
)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_the_extras_nvcc_builds_a_generated_program_warning_free(tmp_path, program):
    """The header's own command with the extra's nvcc first on PATH (a full build, host code
    linked against the wheel's cudart), then cubins for the three architectures."""
    nvcc = extra_nvcc()
    cu = _generate(program, tmp_path)
    env = _with_nvcc_first(nvcc)
    built = _run(_header_nvcc_command(cu), tmp_path, env)
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stdout + built.stderr, built.stderr
    assert (tmp_path / program.stem).read_bytes()[:4] == b"\x7fELF"
    for arch in ARCHS:
        cubin = tmp_path / f"{program.stem}.{arch}.cubin"
        command = [nvcc, f"-arch={arch}", "-std=c++17", "-cubin", cu.name, "-o", cubin.name]
        compiled = _run(command, tmp_path, env)
        assert compiled.returncode == 0, compiled.stderr
        assert "warning" not in compiled.stdout + compiled.stderr, compiled.stderr
        assert cubin.read_bytes()[:4] == b"\x7fELF"


def _pip(*args: str, env: dict) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    return subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, timeout=900
    )


@pytest.mark.slow
def test_the_extras_nvcc_resolved_afresh_builds_a_generated_program(tmp_path):
    """pip resolves the extra's nvcc requirement (with constraints.txt's pins) into a folder
    of its own, and that nvcc, found by nothing but its path, compiles a generated .cu."""
    env = dict(os.environ, PIP_CONSTRAINT=str(ROOT / "constraints.txt"))
    probe = _pip("index", "versions", "nvidia-cuda-nvcc", env=env)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"the package index cannot be reached to install the wheels: {last}")
    toolkit = next(r for r in _nvidia_extra() if r.startswith("cuda-toolkit"))
    target = tmp_path / "site"
    installed = _pip("install", "-q", "--target", str(target), toolkit, env=env)
    assert installed.returncode == 0, installed.stderr
    root = target / "nvidia" / "cu13"
    assert [f for f in EXTRA_NVCC_FILES if not (root / f).is_file()] == []
    cu = _generate(PROGRAMS[0], tmp_path)
    nvcc = root / "bin" / "nvcc"
    command = [nvcc, "-arch=sm_90", "-std=c++17", "-c", cu.name, "-o", "saxpy.o"]
    compiled = _run(command, tmp_path, dict(os.environ))
    assert compiled.returncode == 0, compiled.stderr
    assert "warning" not in compiled.stdout + compiled.stderr, compiled.stderr
    assert (tmp_path / "saxpy.o").read_bytes()[:4] == b"\x7fELF"
