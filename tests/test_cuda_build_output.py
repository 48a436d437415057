"""`basic2tile prog.bas -o out.cu` writes a file that builds with the commands of its own
header comment, in a folder holding nothing else (cuda/build.py, outfiles.py): g++ with
the CPU emulator here, nvcc for sm_80, sm_90 and sm_100 where nvcc is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from transpiler import cli
from transpiler.verify.cuda_headers import b2t_include_dir
from transpiler.verify.nvcc import find_nvcc

ROOT = Path(__file__).resolve().parent.parent
LEGACY = sorted((ROOT / "examples").glob("*.bas"))
KERNELS = sorted((ROOT / "examples" / "kernels").glob("*.bas"))
ARCHS = ("sm_80", "sm_90", "sm_100")


def _translate(capsys, source: Path, out: Path) -> tuple[int, str]:
    status = cli.main([str(source), "-o", str(out)])
    return status, capsys.readouterr().err


def _build_command(cu: Path, compiler: str) -> str:
    """The command line the .cu's header comment gives for `compiler` (g++ or nvcc)."""
    for line in cu.read_text().splitlines():
        if line.startswith(f"//   {compiler} "):
            return line[len("//   ") :]
    raise AssertionError(f"no {compiler} command in the header of {cu.name}")


def _path_without_basic2tile() -> str:
    """PATH less the folders that hold a `basic2tile` (this venv's scripts among them)."""
    folders = os.environ["PATH"].split(os.pathsep)
    kept = [f for f in folders if f and not (Path(f) / "basic2tile").exists()]
    return os.pathsep.join(kept)


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    # Without `basic2tile` on PATH: the commands must not need it (issue 23, point 4).
    env = dict(os.environ, PATH=_path_without_basic2tile())
    assert shutil.which("basic2tile", path=env["PATH"]) is None
    return subprocess.run(
        command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_headers_are_written_beside_the_output(capsys, tmp_path):
    status, err = _translate(capsys, ROOT / "examples" / "saxpy.bas", tmp_path / "my_saxpy.cu")
    assert (status, err) == (0, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "b2t_cuda.h",
        "b2t_cuda_emu.h",
        "b2t_launch.h",
        "b2t_runtime.h",
        "my_saxpy.cu",
    ]
    assert (tmp_path / "b2t_cuda.h").read_text() == (b2t_include_dir() / "b2t_cuda.h").read_text()
    # The header names the -o file, not the program's.
    assert _build_command(tmp_path / "my_saxpy.cu", "nvcc").endswith("my_saxpy.cu -o my_saxpy")


def test_a_kernel_program_gets_only_the_header_it_includes(capsys, tmp_path):
    status, _ = _translate(capsys, ROOT / "examples" / "kernels" / "gemm.bas", tmp_path / "g.cu")
    assert status == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b2t_cuda.h", "b2t_cuda_emu.h", "g.cu"]
    assert "<basic2tile>" not in (tmp_path / "g.cu").read_text()


def test_a_foreign_file_of_a_header_name_is_never_overwritten(capsys, tmp_path):
    (tmp_path / "b2t_runtime.h").write_text("// my own runtime\n")
    status, err = _translate(capsys, ROOT / "examples" / "saxpy.bas", tmp_path / "s.cu")
    assert status == 1
    assert "b2t_runtime.h: error: cannot write:" in err and "not basic2tile's" in err
    assert (tmp_path / "b2t_runtime.h").read_text() == "// my own runtime\n"
    assert not (tmp_path / "s.cu").exists()  # refused before anything was written


def test_another_versions_header_is_replaced_with_a_note(capsys, tmp_path):
    (tmp_path / "b2t_cuda.h").write_text("// b2t_cuda.h -- an older basic2tile's\n")
    status, err = _translate(capsys, ROOT / "examples" / "saxpy.bas", tmp_path / "s.cu")
    assert status == 0
    assert re.fullmatch(r"basic2tile: note: replaced \S*b2t_cuda.h \(.*\)\n", err)
    assert (tmp_path / "b2t_cuda.h").read_text() == (b2t_include_dir() / "b2t_cuda.h").read_text()
    # The same header again: nothing to say.
    assert _translate(capsys, ROOT / "examples" / "saxpy.bas", tmp_path / "s.cu") == (0, "")


def test_no_headers_beside_a_special_file(capsys, tmp_path):
    assert (
        cli.main([str(ROOT / "examples" / "saxpy.bas"), "--target", "cuda", "-o", os.devnull]) == 0
    )
    assert not (Path(os.devnull).parent / "b2t_runtime.h").exists()


def test_include_dir_prints_the_headers_folder_without_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "transpiler", "--include-dir"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    assert (folder / "b2t_cuda.h").is_file() and (folder / "b2t_cuda_emu.h").is_file()


@pytest.mark.parametrize(
    "example", [ROOT / "examples" / "histogram.bas", KERNELS[0]], ids=lambda p: p.stem
)
def test_the_headers_gxx_command_builds_in_an_empty_folder(capsys, tmp_path, example):
    assert _translate(capsys, example, tmp_path / "prog.cu")[0] == 0
    built = _shell(_build_command(tmp_path / "prog.cu", "g++"), tmp_path)
    assert built.returncode == 0, built.stderr
    if example.parent.name == "examples":  # a legacy program runs as the BASIC program
        ran = subprocess.run([tmp_path / "prog"], capture_output=True, text=True, timeout=60)
        expected = ROOT / "golden" / "legacy" / f"{example.stem}.out"
        assert ran.stdout == expected.read_text()


def test_the_gxx_command_needs_no_basic2tile_from_any_folder(capsys, tmp_path):
    """The printed g++ line named `-I"$(basic2tile --include-dir)"`, which became `-I""`
    (swallowing `-x`) where basic2tile is not on PATH: the emulator is now beside the .cu,
    and a quoted #include is found beside the file that includes it, wherever g++ runs."""
    out = tmp_path / "out"
    out.mkdir()
    assert _translate(capsys, ROOT / "examples" / "saxpy.bas", out / "saxpy.cu")[0] == 0
    command = _build_command(out / "saxpy.cu", "g++")
    assert "basic2tile" not in command and " -I" not in command
    built = _shell(command.replace(" saxpy.cu -o saxpy", " out/saxpy.cu -o run_me"), tmp_path)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([tmp_path / "run_me"], capture_output=True, text=True, timeout=60)
    assert ran.stdout == (ROOT / "golden" / "legacy" / "saxpy.out").read_text()


def test_the_emulator_beside_the_program_is_one_file(capsys, tmp_path):
    assert _translate(capsys, KERNELS[0], tmp_path / "k.cu")[0] == 0
    emulator = (tmp_path / "b2t_cuda_emu.h").read_text()
    assert emulator.startswith("// b2t_cuda_emu.h -- ")
    assert '#include "' not in emulator  # every b2t_emu/ header inlined, once
    for part in sorted((b2t_include_dir() / "b2t_emu").glob("*.h")):
        assert emulator.count(f"// ---- b2t_emu/{part.name} (inlined") == 1


@pytest.mark.slow
@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
@pytest.mark.parametrize(
    "example, arch",
    [(p, ARCHS[i % len(ARCHS)]) for i, p in enumerate(LEGACY + KERNELS)],
    ids=lambda v: v.stem if isinstance(v, Path) else v,
)
def test_the_headers_nvcc_command_builds_every_example(capsys, tmp_path, example, arch):
    """Every example with the header's nvcc command, the architectures taken in turn (each
    of the three for legacy programs and for kernel programs alike), host code compiled
    with -Wall -Wextra too: no warning from nvcc or from its host compiler."""
    assert _translate(capsys, example, tmp_path / f"{example.stem}.cu")[0] == 0
    command = _build_command(tmp_path / f"{example.stem}.cu", "nvcc")
    assert "-arch=sm_90 " in command
    command = command.replace("-arch=sm_90 ", f"-arch={arch} -Xcompiler -Wall,-Wextra ")
    nvcc = find_nvcc()
    if not command.startswith(f"{nvcc} "):
        command = f"{nvcc}{command[len('nvcc') :]}"
    built = _shell(command, tmp_path)
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr, built.stderr  # nvcc's #177 on an unused `tile`
    assert (tmp_path / example.stem).read_bytes()[:4] == b"\x7fELF"


@pytest.mark.parametrize("example", LEGACY + KERNELS, ids=lambda p: p.stem)
def test_every_example_builds_warning_clean_with_gxx_wall_wextra(capsys, tmp_path, example):
    """The header's g++ command with -Wall -Wextra -Werror (syntax only: the build itself
    is tested above): no -Wparentheses, unused variables or unknown pragmas."""
    assert _translate(capsys, example, tmp_path / "prog.cu")[0] == 0
    command = _build_command(tmp_path / "prog.cu", "g++")
    command = command.replace(" -x c++", " -Wall -Wextra -Werror -fsyntax-only -x c++")
    built = _shell(command, tmp_path)
    assert built.returncode == 0, built.stderr
