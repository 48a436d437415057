"""The compiler's wheel ships what the package finds at run time: the C++ runtime headers
(transpiler/cpp_runtime/, found by verify/cuda_headers.py) and the Jinja templates
(templates/ in a checkout, transpiler/templates/ in the wheel, found by backends/render.py).
A header or template left out of the wheel fails only on a user's machine."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)]
    if importlib.util.find_spec("hatchling") is not None:
        command.insert(4, "--no-build-isolation")  # no index needed
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    isolated = "--no-build-isolation" not in command
    if done.returncode != 0 and isolated and "hatchling" in done.stderr:
        pytest.skip(f"hatchling cannot be installed to build the wheel: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("basic2tile-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_the_wheel_ships_the_cpp_runtime_headers(wheel_names):
    folder = ROOT / "transpiler" / "cpp_runtime"
    headers = sorted(p.relative_to(ROOT).as_posix() for p in folder.rglob("*.h"))
    assert headers and "transpiler/cpp_runtime/b2t_runtime.h" in headers
    assert set(headers) <= wheel_names


def test_the_wheel_ships_the_templates(wheel_names):
    templates = sorted(p.relative_to(ROOT) for p in (ROOT / "templates").rglob("*.jinja"))
    assert templates
    assert {("transpiler" / t).as_posix() for t in templates} <= wheel_names


def test_the_headers_are_found_where_the_package_is():
    from transpiler.verify.cuda_headers import b2t_include_dir

    assert b2t_include_dir() == ROOT / "transpiler" / "cpp_runtime"
