"""What a user keeps: a generated cuTile module's command line (argparse), the arrays its
`run()` accepts and returns (NumPy, PyTorch; f64 data for an f32 kernel warns), its
imports in an environment with nothing but `pip install basic2tile`, and a plain message
when another distribution's `transpiler` package is installed over basic2tile's (generated
modules import `basic2tile_runtime` and run regardless; tests/test_runtime_distribution.py
runs them where the runtime alone is installed)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from transpiler import cli

ROOT = Path(__file__).resolve().parent.parent
VECTOR_ADD = ROOT / "examples" / "kernels" / "vector_add.bas"
SAXPY = ROOT / "examples" / "saxpy.bas"


def _generate(source: Path, out: Path) -> Path:
    assert cli.main([str(source), "-o", str(out)]) == 0
    return out


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def vector_add(tmp_path_factory):
    return _import(_generate(VECTOR_ADD, tmp_path_factory.mktemp("va") / "vadd.py"))


def _python(*args, env=None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


# ---------------------------------------------------------------------- __main__


@pytest.mark.parametrize("source", [SAXPY, VECTOR_ADD], ids=["legacy", "kernel"])
def test_generated_main_parses_its_arguments_with_argparse(tmp_path, source):
    module = _generate(source, tmp_path / "prog.py")
    shown = _python(module, "--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: ") and "--device {cpu,gpu}" in shown.stdout
    wrong = _python(module, "--no-such-option")
    assert wrong.returncode == 2
    assert "error: unrecognized arguments: --no-such-option" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def test_a_kernel_module_takes_sizes_and_a_device(tmp_path):
    module = _generate(VECTOR_ADD, tmp_path / "va.py")
    done = _python(module, "--device", "cpu", "N=70")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "va: N=70"
    assert "verification: PASSED" in done.stdout


# ---------------------------------------------------------------------- run()'s arrays


def test_f64_data_for_an_f32_kernel_warns(vector_add):
    a, b = np.arange(5, dtype=np.float64), np.ones(5, dtype=np.float32)
    with pytest.warns(RuntimeWarning, match=r"^A is float64 data, rounded to the kernel's float32"):
        c = vector_add.run(5, a, b, device="cpu")
    assert c.dtype == np.float32 and list(c) == [1, 2, 3, 4, 5]


def test_f32_data_converts_silently_and_returns_numpy(vector_add):
    a, b = np.arange(5, dtype=np.float32), np.ones(5, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = vector_add.run(5, a, b, device="cpu", stream=None)
    assert type(c) is np.ndarray and list(c) == [1, 2, 3, 4, 5]


def test_torch_tensors_in_torch_tensors_out(vector_add):
    torch = pytest.importorskip("torch")
    a = torch.arange(6, dtype=torch.float32)
    b = torch.full((6,), 0.5, dtype=torch.bfloat16)  # NumPy has no bfloat16: read as f32
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = vector_add.run(6, a, b, device="cpu")
    assert isinstance(c, torch.Tensor) and c.device == a.device
    assert c.tolist() == [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]
    with pytest.warns(RuntimeWarning, match="^B is float64 data"):
        vector_add.run(6, a, b.double(), device="cpu")


# ---------------------------------------------------------------------- the package


def test_a_foreign_transpiler_package_is_named_plainly(tmp_path):
    """Another distribution's transpiler/__init__.py over ours (pip mixes the files)."""
    mixed = tmp_path / "site"
    shutil.copytree(ROOT / "transpiler", mixed / "transpiler")
    (mixed / "transpiler" / "__init__.py").write_text('"""Someone else\'s transpiler."""\n')
    env = dict(os.environ, PYTHONPATH=str(mixed))
    command = _python("-m", "transpiler", "--version", env=env, cwd=tmp_path)
    assert command.returncode == 1
    assert command.stderr.startswith("basic2tile: error: the Python package 'transpiler' (")
    assert "is not basic2tile's" in command.stderr and "Traceback" not in command.stderr
    module = _generate(SAXPY, tmp_path / "prog.py")
    generated = _python(module, env=env, cwd=tmp_path)  # it imports basic2tile_runtime only
    assert generated.returncode == 0, generated.stderr
    assert generated.stdout == (ROOT / "golden" / "legacy" / "saxpy.out").read_text()
    old = tmp_path / "old.py"  # as modules generated before the runtime moved out did
    old.write_text("from transpiler.runtime import Console\n")
    generated = _python(old, env=env, cwd=tmp_path)
    assert generated.returncode == 1
    assert (
        generated.stderr.rstrip()
        .splitlines()[-1]
        .startswith("ImportError: the Python package 'transpiler' (")
    )


@pytest.mark.slow
def test_generated_modules_need_only_pip_install_basic2tile(tmp_path):
    """A fresh venv with `pip install basic2tile` and nothing else (no test extras)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = dict(os.environ, PIP_CONSTRAINT=str(ROOT / "constraints.txt"))
    env.pop("PYTHONPATH", None)
    # runtime/ as the index would give the runtime basic2tile pins
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    pip += [ROOT / "runtime", ROOT]
    installed = subprocess.run(pip, capture_output=True, text=True, env=env, timeout=900)
    assert installed.returncode == 0, installed.stderr
    have = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True, env=env
    ).stdout
    assert "pytest" not in have and "cuda-bindings" not in have  # no extras
    kernel = _generate(VECTOR_ADD, tmp_path / "vadd.py")
    legacy = _generate(SAXPY, tmp_path / "saxpy.py")
    env["BASIC2TILE_DEVICE"] = "cpu"
    ran = subprocess.run(
        [python, kernel, "N=90"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert ran.returncode == 0 and "verification: PASSED" in ran.stdout, ran.stderr
    ran = subprocess.run([python, legacy], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == (ROOT / "golden" / "legacy" / "saxpy.out").read_text()


# ---------------------------------------------------------------------- wrong sizes

SHIFTED = """\
10 INPUT N, D, A(), C()
20 DIM A(N), C(N)
30 TILE A(128), C(128)
40 LET C(BID) = A(BID + D)
50 OUTPUT C
"""


def test_a_tile_outside_its_array_is_one_located_error_not_a_traceback(tmp_path):
    """The self-test runs the reference first: sizes for which the program is wrong give
    the line --interpret gives, where the simulator raised a 34-line traceback."""
    source = tmp_path / "shifted.bas"
    source.write_text(SHIFTED)
    module = _generate(source, tmp_path / "shifted.py")
    done = _python(module, "--device", "cpu", "D=-999999")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("shifted.bas:4:4: error: tile (-999999) of A lies entirely")
    assert "    40 LET C(BID) = A(BID + D)" in done.stderr


def test_an_integer_input_scalar_is_never_truncated(tmp_path, capsys):
    source = tmp_path / "shifted.bas"
    source.write_text(SHIFTED)
    module = _import(_generate(source, tmp_path / "shifted.py"))
    a, c = np.ones(300, np.float32), np.zeros(300, np.float32)
    assert list(module.run(300, 0.0, a, c, device="cpu")[:2]) == [1.0, 1.0]  # 0.0 is whole
    from transpiler.runtime.command import DeviceError

    with pytest.raises(DeviceError, match="D is an integer INPUT scalar; 2.5 is not a whole"):
        module.run(300, 2.5, a, c, device="cpu")
    capsys.readouterr()
    assert cli.main([str(source), "--run", "--device", "cpu", "--size", "D=2.5"]) == 1
    assert (
        "D is an integer INPUT scalar (I32); 2.5 is not a whole number" in capsys.readouterr().err
    )
