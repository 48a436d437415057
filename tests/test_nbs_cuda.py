"""The NBS Minimal BASIC programs through the CUDA C++ backend, run on the CPU.

Every program that the front end accepts (MANIFEST kind normal or exception) is
translated with `Options(std="ecma55")` to a .cu program (host code only: no loop is
offloaded, so there are no kernels), compiled with g++ and the CUDA emulator header
(several programs per g++ call, tests/cpp/batch.py) and run:

- `test_cuda_program_matches_interpreter`: its stdout equals the reference
  interpreter's byte for byte, and so do its warnings, its rejected INPUT replies and
  its fatal error (message and BASIC line).  RND programs run with the same
  BASIC2TILE_SEED on both sides (the C++ generator is bit-identical); INPUT programs get
  the replies that tests/test_nbs.py's scripted users typed to the interpreter, and
  that test's assertions grade the interpreter's run.
- `test_cuda_program_matches_bas55`: programs with an expected output (P###.ok) and no
  RND or INPUT: stdout equals bas55's exactly.  The accuracy programs whose last digits
  depend on bas55's own math library are expected failures, with test_nbs.py's reasons.
- one test compiles generated programs with nvcc, one checks that clang-format leaves
  the generated code unchanged.
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

import pytest

from tests import test_nbs
from tests.cpp.batch import build_batch, run_program
from tests.cpp.compare import interpret, outcome_of_run
from transpiler import driver
from transpiler.errors import SourceFile
from transpiler.formatting.cpp import format_cpp
from transpiler.run.outfiles import write_cuda_program
from transpiler.verify.nvcc import find_nvcc

from .conftest import NBS_DIR

STRICT = test_nbs.STRICT
MANIFEST = test_nbs.MANIFEST
PROGRAMS = [p for p, row in MANIFEST.items() if row["kind"] != "error"]
BATCHES = 4  # g++ calls: fewer is less total work, more spreads over xdist workers
SEED = "20240601"  # BASIC2TILE_SEED for RANDOMIZE, the same on both sides


def _batch_of(prog: str) -> list[str]:
    k = PROGRAMS.index(prog) % BATCHES  # interleaved, so that workers need different batches
    return PROGRAMS[k::BATCHES]


@functools.cache
def analysis_of(prog: str):
    return driver.front_end(SourceFile.read(NBS_DIR / f"P{prog}.BAS"), STRICT)


@functools.cache
def generated(prog: str) -> str:
    return driver.generate_host(driver.host_program(analysis_of(prog), offload=False), "cuda")


@functools.cache
def batch_exe(batch: tuple[str, ...]) -> Path:
    return build_batch({prog: generated(prog) for prog in batch})


@functools.cache
def run_cuda(prog: str, stdin: str, seed: str | None) -> subprocess.CompletedProcess:
    exe = batch_exe(tuple(_batch_of(prog)))
    env = {k: v for k, v in os.environ.items() if k != "BASIC2TILE_SEED"}
    if seed is not None:
        env["BASIC2TILE_SEED"] = seed
    return run_program(exe, prog, stdin, env)


def scripted_stdin(prog: str, monkeypatch) -> str:
    """What tests/test_nbs.py's grading of INPUT program `prog` types to the interpreter
    (its assertions run too: the interpreter's run must pass)."""
    typed: list[str] = []
    original = test_nbs.run_nbs

    def recording(nbs_dir, prog, stdin=None, respond=None):
        if respond is None:
            typed.append(stdin.getvalue())
            return original(nbs_dir, prog, stdin=stdin)

        def respond_and_record(new: str, printed: str) -> str:
            reply = respond(new, printed)
            typed.append(reply + "\n")
            return reply

        return original(nbs_dir, prog, respond=respond_and_record)

    with monkeypatch.context() as patch:
        patch.setattr(test_nbs, "run_nbs", recording)
        test_nbs.INPUT_PROGRAMS[prog](NBS_DIR)
    return "".join(typed)


@pytest.mark.parametrize("prog", PROGRAMS, ids=[f"P{p}" for p in PROGRAMS])
def test_cuda_program_matches_interpreter(nbs_dir, prog, monkeypatch):
    row = MANIFEST[prog]
    stdin = scripted_stdin(prog, monkeypatch) if row["uses_input"] == "y" else ""
    monkeypatch.setenv("BASIC2TILE_SEED", SEED)
    reference = interpret(analysis_of(prog), stdin)
    run = run_cuda(prog, stdin, SEED)
    assert outcome_of_run(run, analysis_of(prog)) == reference
    if row["uses_rnd"] == "y" and row["informative"] != "y":  # graded as in test_nbs.py
        assert "TEST PASSED" in run.stdout and "FAILED" not in run.stdout


def _bas55_params() -> list:
    params = []
    for prog in PROGRAMS:
        row = MANIFEST[prog]
        if row["uses_input"] == "y" or row["uses_rnd"] == "y":
            continue
        marks = []
        if prog in test_nbs.MATH_LIBRARY:
            marks.append(pytest.mark.xfail(reason=test_nbs.MATH_LIBRARY[prog], strict=False))
        params.append(pytest.param(prog, marks=marks, id=f"P{prog}"))
    return params


@pytest.mark.parametrize("prog", _bas55_params())
def test_cuda_program_matches_bas55(nbs_dir, prog):
    run = run_cuda(prog, "", SEED)
    assert run.stdout == (nbs_dir / f"P{prog}.ok").read_text()
    fatal = any(": error:" in line for line in (nbs_dir / f"P{prog}.eok").read_text().splitlines())
    assert run.returncode == (1 if fatal else 0)


@pytest.mark.parametrize("prog", ["130", "131"])
def test_rnd_repeats_only_without_randomize(nbs_dir, prog):
    # P130 (no RANDOMIZE) must repeat its numbers run after run; P131 (RANDOMIZE, here
    # seeded by the clock) must not.
    first, second = run_cuda(prog, "", None), run_cuda.__wrapped__(prog, "", None)
    assert "TEST PASSED" in first.stdout or "INFORMATIVE" in first.stdout
    assert (first.stdout == second.stdout) == (prog == "130")


def test_generated_code_is_clang_format_clean(nbs_dir):
    for prog in PROGRAMS[::3]:  # formatting is what generation does last: a sample will do
        code = generated(prog)
        assert format_cpp(code) == code, f"P{prog}"


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
def test_nvcc_compiles_generated_programs(nbs_dir, tmp_path):
    # A dispatch loop, GOSUB, DEF FN (P151); arrays, FOR loops and INPUT (P062, P108).
    # Only the .cu and the two headers written beside it: nothing else on the path.
    for prog in ["151", "108"]:
        cu = tmp_path / f"P{prog}.cu"
        write_cuda_program(generated(prog), cu)
        command = [str(find_nvcc()), "-arch=sm_90", "-c", cu.name, "-o", f"P{prog}.o"]
        done = subprocess.run(
            command, check=False, cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        assert (tmp_path / f"P{prog}.o").stat().st_size > 0
