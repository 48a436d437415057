"""basic2tile and the programs it generates as Unix processes: a reader that goes away,
closed or full standard streams, Ctrl-C and SIGTERM, time limits (process.py,
runtime/command.py, b2t::output_written)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from transpiler import cli

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["cutile", "cuda"]
MANY_LINES = "10 FOR I = 1 TO 200000\n20 PRINT I\n30 NEXT I\n"
FOREVER = "10 LET I = I + 1\n20 GOTO 10\n"
SIGPIPE_STATUS, SIGINT_STATUS, SIGTERM_STATUS = 141, 130, 143


def _env(tmp_path: Path) -> dict:
    """A private TMPDIR, to see what a run leaves behind."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    return dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT))


def _write(tmp_path: Path, text: str, name: str = "prog.bas") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _cli(*args) -> list[str]:
    return [sys.executable, "-m", "transpiler", *map(str, args)]


def _with_closed(fd: int, argv: list[str]) -> list[str]:
    """`argv` started with descriptor `fd` closed (`>&-`, `<&-`)."""
    return ["sh", "-c", f'exec "$@" {fd}>&-', "sh", *argv]


def _first_line_then_close(argv: list[str], env: dict) -> tuple[int, bytes, str]:
    """`argv | head -1`: read one line, close the pipe, wait."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    first = child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    return child.wait(300), first, err


# ---------------------------------------------------------------------- a closed pipe


@pytest.mark.parametrize(
    "mode", [["--interpret"], ["--run", "--target", "cutile"], ["--run", "--target", "cuda"]]
)
def test_a_reader_going_away_ends_basic2tile_quietly(tmp_path, mode):
    prog = _write(tmp_path, MANY_LINES)
    status, first, err = _first_line_then_close(
        _cli(prog, *mode, "--device", "cpu"), _env(tmp_path)
    )
    assert (status, first, err) == (SIGPIPE_STATUS, b" 1 \n", "")


# ---------------------------------------------------------------------- closed streams


@pytest.mark.parametrize(
    "mode",
    [
        ["--interpret"],
        ["--explain"],
        [],
        ["--run", "--target", "cutile"],
        ["--run", "--target", "cuda"],
    ],
)
def test_a_closed_stdout_is_an_error(tmp_path, mode):
    prog = _write(tmp_path, "10 FOR I = 1 TO 3\n20 PRINT I\n30 NEXT I\n")
    result = subprocess.run(
        _with_closed(1, _cli(prog, *mode, "--device", "cpu") if mode else _cli(prog)),
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=300,
    )
    who = str(prog) if "--run" in mode else "basic2tile"
    assert result.returncode == 1
    assert result.stderr == f"{who}: error: cannot write standard output: Bad file descriptor\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize(
    "mode", [["--interpret"], ["--run", "--target", "cutile"], ["--run", "--target", "cuda"]]
)
def test_a_full_disk_is_an_error(tmp_path, mode):
    prog = _write(tmp_path, MANY_LINES)
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            _cli(prog, *mode, "--device", "cpu"),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(tmp_path),
            timeout=300,
        )
    who = str(prog) if "--run" in mode else "basic2tile"
    assert result.returncode == 1
    assert result.stderr == f"{who}: error: cannot write standard output: No space left on device\n"


@pytest.mark.parametrize("mode", [["--interpret"], ["--check"], ["--run", "--target", "cuda"]])
def test_a_closed_stdin_reads_as_empty(tmp_path, mode):
    quiet = _write(tmp_path, "10 PRINT 1\n", "quiet.bas")
    result = subprocess.run(
        _with_closed(0, _cli(quiet, *mode, "--device", "cpu")),
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    asks = _write(tmp_path, "10 INPUT A\n20 PRINT A\n", "asks.bas")
    result = subprocess.run(
        _with_closed(0, _cli(asks, "--interpret")),
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=300,
    )
    assert result.returncode == 1 and "error on input stream" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------- interrupts


def _children_running_in(tmp: Path) -> list[int]:
    """Processes whose command line mentions the private temporary folder."""
    return [pid for pid, argv in _processes() if any(str(tmp) in arg for arg in argv)]


def _processes():
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            except OSError:
                continue
            yield int(entry.name), argv


def _sigint_by_default() -> None:
    """In the child before it runs: SIGINT as a terminal delivers it, also when these
    tests run from a shell's background job (which ignores SIGINT, and an ignored signal
    stays ignored across exec: the program would never see its Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _takes_sigint_by_default(pid: int) -> bool:
    """SIGINT would end `pid` as it ends a C program (no Python handler is installed)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return not int(caught.split()[1], 16) & (1 << (signal.SIGINT - 1))


def _age(pid: int) -> float:
    """Seconds since `pid` started.  A Python program takes SIGINT by default for a
    moment when it starts too, before the interpreter installs its handler (then the
    generated program restores the default): only an older one is past its start-up."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return 0.0
    return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")


def _wait_for_the_program(tmp: Path, parent: subprocess.Popen) -> None:
    """Until the generated program (not its compiler) runs, past its start-up."""
    deadline = time.monotonic() + 240
    while True:
        running = [
            pid
            for pid, argv in _processes()
            # this test's own program only: other tests run programs named prog.py too
            if argv[0].startswith(str(tmp))
            or (len(argv) > 1 and argv[1].startswith(str(tmp)) and argv[1].endswith("prog.py"))
        ]
        if running and _age(running[0]) > 1.5 and _takes_sigint_by_default(running[0]):
            return
        assert parent.poll() is None, parent.stderr.read()
        assert time.monotonic() < deadline, "the generated program never started"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    "signum, status, line",
    [
        (signal.SIGINT, SIGINT_STATUS, "basic2tile: interrupted\n"),
        (signal.SIGTERM, SIGTERM_STATUS, "basic2tile: terminated\n"),
    ],
)
def test_an_interrupted_run_stops_the_program_and_cleans_up(tmp_path, target, signum, status, line):
    prog = _write(tmp_path, FOREVER)
    env = _env(tmp_path)
    tmp = Path(env["TMPDIR"])
    parent = subprocess.Popen(
        _cli(prog, "--run", "--target", target, "--device", "cpu"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=_sigint_by_default,
    )
    try:
        _wait_for_the_program(tmp, parent)
        parent.send_signal(signum)
        assert parent.wait(60) == status
        assert parent.stderr.read() == line
        assert _children_running_in(tmp) == []
        assert [p.name for p in tmp.iterdir() if p.name.startswith(("b2t-run-", "b2t-cuda-"))] == []
    finally:
        for pid in _children_running_in(tmp):
            os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()


@pytest.mark.parametrize("target", TARGETS)
def test_timeout_stops_an_endless_program(tmp_path, target):
    prog = _write(tmp_path, FOREVER)
    env = _env(tmp_path)
    result = subprocess.run(
        _cli(prog, "--run", "--target", target, "--device", "cpu", "--timeout", "1"),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 1
    assert (
        result.stderr
        == f"{prog}: error: the generated program did not finish within 1 s (--timeout)\n"
    )
    assert _children_running_in(Path(env["TMPDIR"])) == []


def test_check_with_max_steps_does_not_run_an_endless_program(tmp_path, capsys, monkeypatch):
    import io

    prog = _write(tmp_path, FOREVER)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = cli.main([str(prog), "--check", "--device", "cpu", "--max-steps", "1000"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"{prog}:1:4: error: step limit exceeded (1000 statements)")
    assert err.endswith("  note: --check compares whole runs: the generated program was not run\n")


# ---------------------------------------------------------------------- generated programs


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The Python and the built C++ of a program printing 200,000 lines, and of one that
    loops forever: {(target, kind): argv}."""
    from transpiler.verify.cpu_cuda import build_cpu

    folder = tmp_path_factory.mktemp("generated")
    programs = {}
    for kind, text in (("many", MANY_LINES), ("forever", "10 PRINT 1\n20 GOTO 20\n")):
        source = _write(folder, text, f"{kind}.bas")
        assert cli.main([str(source), "-o", str(folder / f"{kind}.py")]) == 0
        assert cli.main([str(source), "-o", str(folder / f"{kind}.cu")]) == 0
        programs["cutile", kind] = [sys.executable, str(folder / f"{kind}.py")]
        programs["cuda", kind] = [str(build_cpu(folder / f"{kind}.cu"))]
    return programs


@pytest.mark.parametrize("target", TARGETS)
def test_a_generated_program_dies_quietly_of_a_closed_pipe(generated, tmp_path, target):
    status, first, err = _first_line_then_close(generated[target, "many"], _env(tmp_path))
    assert (status, first, err) == (-signal.SIGPIPE, b" 1 \n", "")


@pytest.mark.parametrize("target", TARGETS)
def test_a_generated_program_reports_a_closed_stdout(generated, tmp_path, target):
    result = subprocess.run(
        _with_closed(1, generated[target, "many"]),
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=300,
    )
    assert result.returncode == 1
    assert result.stderr.endswith(": error: cannot write standard output: Bad file descriptor\n")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_a_generated_program_dies_quietly_of_ctrl_c(generated, tmp_path, target):
    child = subprocess.Popen(
        generated[target, "forever"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
        preexec_fn=_sigint_by_default,
    )
    try:
        deadline = time.monotonic() + 60
        while not _takes_sigint_by_default(child.pid):
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        assert child.wait(60) == -signal.SIGINT
        assert child.stderr.read() == b""
    finally:
        if child.poll() is None:
            child.kill()
