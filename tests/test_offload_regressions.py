"""Offload corner cases, run through the command line on both targets (CPU device):
each once produced a wrong answer or a traceback instead of BASIC's behaviour."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TARGETS = ["cutile", "cuda"]


def _basic2tile(path: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "transpiler", str(path), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prog.bas"
    path.write_text(text)
    return path


@pytest.mark.parametrize("target", TARGETS)
def test_accumulation_before_an_inner_loop_runs_once_per_outer_iteration(tmp_path, target):
    # T = T + F(I, I) sits between the FORs: collapsing the nest would add it N times.
    path = _write(
        tmp_path,
        "10 DIM F(20,20)\n20 FOR I = 1 TO 20\n30 FOR J = 1 TO 20\n40 LET F(I,J) = I + J\n"
        "50 NEXT J\n60 NEXT I\n70 LET T = 0\n80 LET S = 0\n90 FOR I = 1 TO 20\n"
        "100 LET T = T + F(I,I)\n110 FOR J = 1 TO 20\n120 LET S = S + F(I,J)\n"
        "130 NEXT J\n140 NEXT I\n150 PRINT T; S\n160 END\n",
    )
    result = _basic2tile(path, "--run", "--target", target, "--device", "cpu")
    assert result.returncode == 0, result.stderr
    assert result.stdout == " 420  8400 \n"


@pytest.mark.parametrize("target", TARGETS)
def test_a_kernel_that_only_writes_an_array_still_checks_subscripts(tmp_path, target):
    path = _write(tmp_path, "10 DIM A(10)\n20 FOR I = 1 TO 12\n30 LET A(I) = 2 * I\n40 NEXT I\n50 END\n")
    result = _basic2tile(path, "--run", "--target", target, "--device", "cpu")
    assert result.returncode == 1
    assert "line 30: subscript out of range" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("limit", ["Z", "Z - Z"], ids=["infinite", "nan"])
def test_a_loop_too_long_for_a_launch_is_a_basic_error_not_a_crash(tmp_path, target, limit):
    # The interpreter would run these for ever; a launch covers at most 2**31 - 1 lanes.
    path = _write(
        tmp_path,
        f"10 DIM A(10)\n20 LET Z = 1E300 * 1E300\n30 FOR I = 1 TO {limit}\n"
        "40 LET S = S + I\n50 NEXT I\n60 PRINT S\n70 END\n",
    )
    result = _basic2tile(path, "--run", "--target", target, "--device", "cpu")
    assert result.returncode == 1
    assert "error: " in result.stderr and "FOR loop too long for one kernel launch" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_a_loop_that_runs_zero_times_launches_nothing(tmp_path, target):
    path = _write(
        tmp_path,
        "10 DIM A(10)\n20 LET N = 0\n30 FOR I = 1 TO N\n40 LET A(I) = I\n50 LET S = S + I\n"
        "60 NEXT I\n70 PRINT A(1); I; S\n80 END\n",
    )
    result = _basic2tile(path, "--run", "--target", target, "--device", "cpu")
    assert (result.returncode, result.stdout) == (0, " 0  1  0 \n")


def test_a_program_named_like_a_python_module_still_runs(tmp_path):
    # select.py beside the generated script once hid the standard `select` module
    # (imported by subprocess, imported by cuda.tile): the run died in an import.
    path = tmp_path / "select.bas"
    path.write_text("10 DIM Y(100)\n20 FOR I = 1 TO 100\n30 LET Y(I) = I\n40 NEXT I\n50 PRINT Y(9)\n60 END\n")
    result = _basic2tile(path, "--check", "--device", "cpu")
    assert result.returncode == 0, result.stderr
    assert "check passed: cutile output matches the interpreter (1 line)" in result.stdout
    written = _basic2tile(path, "-o", str(tmp_path / "select.py"))
    assert written.returncode == 0
    assert "warning: " in written.stderr and "'select'" in written.stderr
    assert "warning" not in _basic2tile(path, "-o", str(tmp_path / "histogram.py")).stderr


RESETS_ITS_VARIABLE = (
    "10 DIM A(10)\n20 FOR I = 1 TO 10\n30 LET A(I) = I\n40 LET I = 1\n50 NEXT I\n"
    '60 PRINT "DONE"\n70 END\n'
)


@pytest.mark.usefixtures("built_as_printed")
def test_a_loop_that_resets_its_variable_stays_on_the_host_and_never_ends(tmp_path):
    # The interpreter runs until --max-steps stops it; both generated programs must loop
    # as long (a C++ compiler may delete a loop without side effects it assumes to end).
    from transpiler import driver
    from transpiler.errors import SourceFile
    from transpiler.options import Options
    from transpiler.run.outfiles import write_cuda_program
    from transpiler.verify.cpu_cuda import build_cpu

    path = _write(tmp_path, RESETS_ITS_VARIABLE)
    explained = _basic2tile(path, "--explain").stdout
    assert "host: the loop changes its own control variable I, line 40" in explained
    analysis = driver.front_end(SourceFile.read(path), Options())
    cu, py = tmp_path / "prog.cu", tmp_path / "prog.py"
    write_cuda_program(driver.generate(analysis, "cuda"), cu)
    assert "b2t::forward_progress();" in cu.read_text()
    py.write_text(driver.generate(analysis, "cutile"))
    programs = {"cuda": [str(build_cpu(cu, tmp_path / "prog"))], "cutile": [sys.executable, str(py)]}
    for target, command in programs.items():
        # The program itself, not a wrapper that would leave it running when killed.
        with pytest.raises(subprocess.TimeoutExpired):
            done = subprocess.run(command, capture_output=True, text=True, timeout=3)
            pytest.fail(f"{target}: exit status {done.returncode}, {done.stdout!r}")


def test_only_loops_that_may_not_end_mark_their_progress():
    from transpiler import driver
    from transpiler.errors import SourceFile
    from transpiler.options import Options

    text = "10 FOR I = 1 TO 3\n20 PRINT I\n30 NEXT I\n40 FOR J = 1 TO 3 STEP S\n50 NEXT J\n"
    code = driver.generate(driver.front_end(SourceFile("p.bas", text), Options()), "cuda")
    assert code.count("b2t::forward_progress();") == 1  # STEP S may be 0


@pytest.mark.parametrize("target", TARGETS)
def test_a_sum_updated_by_several_statements_is_added_once(tmp_path, target):
    # S and T are each updated by several statements (under IFs, with + and -): the kernel
    # keeps one partial sum per variable (it added S's twice: 22 instead of 11).
    path = _write(
        tmp_path,
        "10 LET S = 0\n15 LET T = 100\n20 FOR K = 1 TO 5\n30 IF K = 1 THEN LET S = S + 1\n"
        "40 IF K = 2 THEN LET S = S + 10\n42 LET T = T - K\n44 IF K > 3 THEN LET T = T + 2 * K\n"
        "50 NEXT K\n60 PRINT S; T\n70 END\n",
    )
    result = _basic2tile(path, "--run", "--target", target, "--device", "cpu")
    assert result.returncode == 0, result.stderr
    assert result.stdout == " 11  103 \n"
    explain = _basic2tile(path, "--explain")
    assert "GPU kernel reduce_20" in explain.stdout  # the case is offloaded, not kept on the host


@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_an_empty_loop_launches_no_kernel(tmp_path, target):
    # FOR ... NEXT with only a REM in it became a kernel launched for nothing.
    prog = _write(tmp_path, "10 FOR I = 1 TO 1000\n15 REM NOTHING\n20 NEXT I\n30 PRINT I\n")
    explained = _basic2tile(prog, "--explain")
    assert "host: the loop body is empty" in explained.stdout
    code = _basic2tile(prog, "--target", target, "-o", "-").stdout
    assert "ct.kernel" not in code and "__global__" not in code
    checked = _basic2tile(prog, "--check", "--target", target, "--device", "cpu")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_host_code_reading_a_kernel_array_in_a_condition_downloads_it_first(tmp_path):
    # The IF at the top of a GOSUB whose branch launches reads Q(1): the CUDA program read
    # its stale host copy (no download before a node that contains a launch) and printed
    # 0 0 0, exit 0.  On the CPU the cuTile simulator shares the host array, so only the
    # CUDA program shows it; both must download.
    prog = _write(
        tmp_path,
        "10 DIM Q(1000)\n20 FOR X = 1 TO 3\n30 GOSUB 100\n40 NEXT X\n"
        "50 PRINT Q(1); Q(2); Q(1000)\n60 END\n100 IF Q(1) > 0 THEN 150\n"
        "110 FOR S = 1 TO 1000\n120 Q(S) = 1\n130 NEXT S\n140 RETURN\n"
        "150 Q(2) = Q(2) + 1\n160 RETURN\n",
    )
    assert "GPU kernel" in _basic2tile(prog, "--explain").stdout
    run = _basic2tile(prog, "--run", "--target", "cuda", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    assert run.stdout == " 1  3  1 \n"
    code = _basic2tile(prog, "--target", "cutile", "-o", "-").stdout
    assert "dev.to_host(q" in code.split("# 100 IF")[0].split("def gosub_100")[1]


def test_host_code_after_a_gosub_that_launches_downloads_first(tmp_path):
    # The subroutine clears F in a kernel; the main program read its stale host copy after
    # the GOSUB (a GOSUB did not count as a launch): the CUDA program printed 5 (Ahl's
    # furtrader then went its own way and exited 0 where the interpreter stopped).
    prog = _write(
        tmp_path,
        "10 DIM F(400)\n20 F(1) = 5\n30 GOSUB 100\n40 PRINT F(1)\n50 END\n"
        "100 FOR J = 1 TO 400\n110 F(J) = 0\n120 NEXT J\n130 RETURN\n",
    )
    assert "GPU kernel" in _basic2tile(prog, "--explain").stdout
    run = _basic2tile(prog, "--run", "--target", "cuda", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    assert run.stdout == " 0 \n"
