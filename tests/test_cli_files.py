"""The command line's files: reading the program (stdin, byte-order marks) and writing
outputs without ever losing data (outfiles.py)."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from transpiler import cli

PROGRAM = "10 PRINT 6 * 7\n20 END\n"


def _run(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    command = [sys.executable, "-m", "transpiler", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, cwd=cwd)


@pytest.fixture
def prog(tmp_path) -> Path:
    path = tmp_path / "prog.bas"
    path.write_text(PROGRAM)
    return path


def _main(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------------------------------- reading


def test_a_utf8_byte_order_mark_is_accepted(tmp_path, capsys):
    path = tmp_path / "bom.bas"
    path.write_bytes(b"\xef\xbb\xbf" + PROGRAM.encode())
    assert _main(capsys, str(path), "--interpret") == (0, " 42 \n", "")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_text_is_refused_by_name(tmp_path, capsys, encoding):
    path = tmp_path / "wide.bas"
    mark = {"utf-16": b"", "utf-16-be": b"\xfe\xff", "utf-32": b""}[encoding]
    path.write_bytes(mark + PROGRAM.encode(encoding))
    status, out, err = _main(capsys, str(path), "--interpret")
    width = encoding[:6].upper()
    assert status == 1 and out == ""
    assert err == f"{path}: error: the file is {width} text: save it as UTF-8 or ASCII\n"


def test_dash_reads_the_program_from_stdin():
    result = _run("-", "--interpret", stdin=b"\xef\xbb\xbf" + PROGRAM.encode())
    assert (result.returncode, result.stdout, result.stderr) == (0, b" 42 \n", b"")


def test_a_program_from_stdin_is_named_stdin_in_diagnostics():
    result = _run("-", "--interpret", stdin=b"10 LET X = * 2\n")
    assert result.returncode == 1
    assert result.stderr.decode().startswith("<stdin>:1:12: error:")


def test_dash_output_writes_the_code_to_stdout(prog, capsys):
    status, out, _ = _main(capsys, str(prog), "-o", "-", "--target", "cuda")
    assert status == 0 and out.startswith("// prog.bas: a BASIC program translated to CUDA C++")


def test_an_empty_program_runs_and_prints_nothing(tmp_path, capsys, monkeypatch):
    path = tmp_path / "empty.bas"
    path.write_text("")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert _main(capsys, str(path), "--interpret") == (0, "", "")
    status, out, _ = _main(capsys, str(path), "--check", "--device", "cpu")
    assert status == 0 and out == "check passed: cutile output matches the interpreter (0 lines)\n"


# ---------------------------------------------------------------------- never the input


def _refuses(capsys, prog: Path, *argv: str, named: str) -> None:
    before = prog.read_bytes()
    status, out, err = _main(capsys, str(prog), *argv)
    assert status == 1, err
    assert (
        err == f"{named}: error: cannot write: it is {prog}, which basic2tile must not overwrite\n"
    )
    assert prog.read_bytes() == before


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_no_output_option_overwrites_the_program(prog, capsys, option):
    _refuses(capsys, prog, option, str(prog), named=str(prog))


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_nor_through_a_symbolic_or_hard_link(prog, tmp_path, capsys, option):
    soft = tmp_path / "soft.py"
    soft.symlink_to(prog)
    hard = tmp_path / "hard.cu"
    os.link(prog, hard)
    for link in (soft, hard):
        _refuses(capsys, prog, option, str(link), named=str(link))


def test_emit_never_writes_over_the_program(tmp_path, capsys, monkeypatch):
    # --emit names its files after the program and the architecture: one of those names
    # may already be a link to the program.
    prog = tmp_path / "prog.bas"
    prog.write_text("10 DIM Y(100)\n20 FOR I = 1 TO 100\n30 LET Y(I) = I\n40 NEXT I\n")
    (tmp_path / "prog.sm_90.ptx").symlink_to(prog)
    monkeypatch.chdir(tmp_path)
    before = prog.read_bytes()
    status, _, err = _main(capsys, str(prog), "--emit", "ptx", "--target", "cuda")
    assert status == 1 and "prog.sm_90.ptx: error: cannot write: it is" in err
    assert prog.read_bytes() == before


def test_o_and_html_naming_one_file_is_a_usage_error(prog, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main([str(prog), "-o", str(tmp_path / "x"), "--html", str(tmp_path / "x")])
    assert exit.value.code == 2
    assert "-o and --html name the same file" in capsys.readouterr().err


# ---------------------------------------------------------------------- where outputs go


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_a_missing_folder_is_a_clear_error(prog, tmp_path, capsys, option):
    target = tmp_path / "nowhere" / "out.py"
    status, _, err = _main(capsys, str(prog), option, str(target))
    assert status == 1
    assert err == f"{target}: error: cannot write: the folder {target.parent} does not exist\n"


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_a_folder_is_a_clear_error(prog, tmp_path, capsys, option):
    status, _, err = _main(capsys, str(prog), option, str(tmp_path))
    assert (status, err) == (1, f"{tmp_path}: error: cannot write: it is a folder\n")


def test_a_symbolic_link_to_an_output_is_followed(prog, tmp_path, capsys):
    real = tmp_path / "real.py"
    real.write_text("old")
    link = tmp_path / "link.py"
    link.symlink_to(real)
    assert _main(capsys, str(prog), "-o", str(link))[0] == 0
    assert link.is_symlink() and real.read_text().startswith('"""prog.bas')


def test_an_existing_output_keeps_its_mode(prog, tmp_path, capsys):
    out = tmp_path / "out.py"
    out.write_text("old")
    out.chmod(0o640)
    assert _main(capsys, str(prog), "-o", str(out))[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_named_pipe_is_written_in_place(prog, tmp_path):
    fifo = tmp_path / "out.cu"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = _run(str(prog), "-o", str(fifo))
    reader.join(60)
    if reader.is_alive():  # nothing was written to the pipe: let the reader go
        with open(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert received and received[0].startswith(
        b"// prog.bas: a BASIC program translated to CUDA C++"
    )


def test_a_character_device_is_written_in_place(prog, tmp_path):
    # A copy of /dev/null: renaming over it would replace the device node by a file.
    node = tmp_path / "null.py"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    result = _run(str(prog), "-o", str(node))
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(node.lstat().st_mode)
    assert node.read_bytes() == b""
