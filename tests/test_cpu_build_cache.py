"""How build_cpu (transpiler/verify/cpu_cuda.py) keeps the suite's g++ builds short: the
optimisation level B2T_CPU_OPT names (the suite sets -O0 in conftest.py), and a
precompiled header holding basic2tile's runtime for a host program, not only the emulator.
What the programs print is checked everywhere else; here, that these shortcuts are taken
where they are safe and refused where they are not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from transpiler.backends.cuda.build import header_text
from transpiler.verify import cpu_cuda
from transpiler.verify.cpu_cuda import EMULATOR, build_cpu, run_cpu

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

# A host program as basic2tile writes one: comments, b2t_cuda.h, then the runtime.
HOST_PROGRAM = """\
// hello: a BASIC program translated to CUDA C++
//   g++ -std=c++20 -O2 ... hello.cu -o hello

#include "b2t_cuda.h"

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <string>

#include "b2t_runtime.h"

int main() {
  std::printf("%s\\n", b2t::gw_message(11).c_str());
  return 0;
}
#endif
"""


def test_B2T_CPU_OPT_replaces_only_the_optimisation_level(monkeypatch):
    monkeypatch.delenv(cpu_cuda.OPT_VARIABLE, raising=False)
    assert cpu_cuda.build_flags() == cpu_cuda.FLAGS
    monkeypatch.setenv(cpu_cuda.OPT_VARIABLE, "-O1")
    assert cpu_cuda.build_flags() == tuple(
        "-O1" if flag == "-O2" else flag for flag in cpu_cuda.FLAGS
    )
    monkeypatch.setenv(cpu_cuda.OPT_VARIABLE, "-O2 -fno-wrapv")
    with pytest.raises(ValueError, match="B2T_CPU_OPT"):
        cpu_cuda.build_flags()


def test_a_host_program_gets_the_runtime_precompiled(tmp_path: Path):
    source = tmp_path / "hello.cu"
    source.write_text(HOST_PROGRAM)
    assert cpu_cuda._precompilable_headers(source) == ("b2t_cuda.h", "b2t_runtime.h")
    result = run_cpu(build_cpu(source))
    assert (result.returncode, result.stdout) == (0, "Division by zero\n")
    # g++ really reads the .gch (it would fall back to the text silently).
    flags = cpu_cuda.build_flags()
    prelude = cpu_cuda._prelude(flags, precompiled=True, source=source)
    assert Path(prelude[-1]).with_suffix(".h.gch").is_file()
    checked = subprocess.run(
        ["g++", *flags, *prelude, "-Winvalid-pch", "-fsyntax-only", "-x", "c++", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (checked.returncode, checked.stderr) == (0, "")


@pytest.mark.parametrize(
    "text",
    [
        '#include "b2t_cuda.h"\n__global__ void k() {}\nint main() {}\n',  # a kernel program
        '#define B2T_X 1\n#include "b2t_cuda.h"\n#include "b2t_runtime.h"\n',  # a #define first
        '#include "b2t_runtime.h"\n#include "b2t_cuda.h"\n',  # another order
        "int main() {}\n",  # none of ours (tests/cuda/*.cu)
    ],
    ids=["kernels-only", "define-first", "runtime-first", "none"],
)
def test_other_programs_get_the_emulator_alone(tmp_path: Path, text: str):
    source = tmp_path / "prog.cu"
    source.write_text(text)
    assert cpu_cuda._precompilable_headers(source) == (EMULATOR,)


def test_headers_beside_the_program_are_not_precompiled(tmp_path: Path):
    """`-o prog.cu` writes copies of the headers beside it, which its #includes find first:
    a precompiled copy from the include folder would define everything twice."""
    source = tmp_path / "hello.cu"
    source.write_text(HOST_PROGRAM.replace("gw_message(11)", "gw_message(5)"))
    for name in ("b2t_cuda.h", "b2t_runtime.h", EMULATOR):
        (tmp_path / name).write_text(header_text(name))
    assert cpu_cuda._precompilable_headers(source) == (EMULATOR,)
    result = run_cpu(build_cpu(source))
    assert (result.returncode, result.stdout) == (0, "Illegal function call\n")


TINY = '#include "b2t_cuda.h"\nint main() { std::printf("42\\n"); }\n'


def test_B2T_CPU_CACHE_names_the_cache_folder(tmp_path: Path, monkeypatch):
    """The suite points every basic2tile it starts at one cache, also one started with a
    TMPDIR of its own (test_cli_process.py), which would otherwise rebuild everything."""
    source = tmp_path / "tiny.cu"
    source.write_text(TINY)
    monkeypatch.setenv(cpu_cuda.CACHE_VARIABLE, str(tmp_path / "cache"))
    cpu_cuda._cache_root.cache_clear()
    try:
        exe = build_cpu(source)
    finally:
        monkeypatch.undo()
        cpu_cuda._cache_root.cache_clear()
    assert exe.is_relative_to(tmp_path / "cache")
    assert run_cpu(exe).stdout == "42\n"


def test_a_run_gets_its_own_copy_of_the_executable(tmp_path: Path):
    """--run/--check run the program from their own temporary folder (removed with it, and
    where test_cli_process.py looks for what a run left running), not from the cache."""
    from transpiler.verify.cuda_run import build

    exe = build(TINY, "tiny", "cpu", tmp_path)
    assert exe == tmp_path / "tiny"
    assert run_cpu(exe).stdout == "42\n"
