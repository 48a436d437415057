"""Option values are checked when the arguments are parsed; what can only be checked
against the program (sizes, devices, installed compilers) is a clear error, exit 1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from transpiler import cli
from transpiler.device import gpu_unavailable_reason

ROOT = Path(__file__).resolve().parent.parent
VECTOR_ADD = ROOT / "examples" / "kernels" / "vector_add.bas"
SAXPY = ROOT / "examples" / "saxpy.bas"


def _usage_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit:
        cli.main(list(argv))
    assert exit.value.code == 2
    err = capsys.readouterr().err
    first, hint = err.splitlines()
    assert hint == "try 'basic2tile --help'" and "Traceback" not in err
    return first


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--arch", "sm_9x", "--emit", "cubin"],
            "argument --arch: 'sm_9x' is not a GPU architecture",
        ),
        (["--arch", "foo", "-o", "a.py"], "argument --arch: 'foo' is not a GPU architecture"),
        (
            ["--arch", "sm_70", "--emit", "cubin"],
            "argument --arch: 'sm_70' is not a GPU architecture",
        ),
        (
            ["--tile", "33554432", "--run"],
            "argument --tile: '33554432': a tile has at most 16777216",
        ),
        (["--tile", "8192x4096"], "argument --tile: '8192x4096': a tile has at most 16777216"),
        (["--tile", "3"], "argument --tile: '3': expected a power of two"),
        (
            ["--size", "N=nan", "--interpret"],
            "argument --size: N: the value must be a finite number",
        ),
        (
            ["--size", "N=inf", "--interpret"],
            "argument --size: N: the value must be a finite number",
        ),
        (["--size", "N=ten", "--interpret"], "argument --size: N: 'ten' is not a number"),
        (["--size", "=5", "--interpret"], "argument --size: expected NAME=VALUE"),
        (["--max-steps", "0", "--interpret"], "argument --max-steps: '0' is not a whole number"),
        (["--timeout", "-1", "--run"], "argument --timeout: '-1' is not a number of seconds"),
        (["--max-steps", "10", "--run"], "--max-steps counts the interpreter's statements"),
        (["--timeout", "5", "--interpret"], "--timeout limits the generated program of --run"),
        (["--emit", "ptx"], "--emit ptx is for --target cuda"),
        (["--emit", "tileir", "--target", "cuda"], "--emit tileir is for --target cutile"),
        (["-o", "x.py", "--target", "cuda"], "-o x.py is a .py file; --target cuda writes .cu"),
        (["-o", "x.cu", "--target", "cutile"], "-o x.cu is a .cu file; --target cutile writes .py"),
        (["--tile", "0"], "basic2tile: error: argument --tile: '0': expected a power of two"),
    ],
)
def test_bad_option_values_are_usage_errors(capsys, argv, message):
    assert message in _usage_error(capsys, str(SAXPY), *argv)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a", "sm_100", "sm_100f", "sm_120"])
def test_gpu_architectures_are_accepted(arch):
    assert cli.build_arg_parser().parse_args(["p.bas", "--arch", arch]).arch == arch


@pytest.mark.parametrize(
    "size, message",
    [
        ("N=-5", ":4:8: error: with N=-5, an extent of A is -5: DIM extents must be 0 or more"),
        ("N=1e12", ":4:8: error: with N=1000000000000, A has 1000000000000 elements, more than"),
        ("X=5", ":3:10: error: not an INPUT scalar of this program: X (its INPUT scalars: N)"),
    ],
)
@pytest.mark.parametrize("mode", ["--interpret", "--run", "--check"])
def test_sizes_the_program_cannot_take_are_located_errors(capsys, size, message, mode):
    if mode == "--interpret":
        status = cli.main([str(VECTOR_ADD), mode, "--size", size])
        err = capsys.readouterr().err
    else:  # the CUDA self-test checks the sizes in this process, before building
        status = cli.main(
            [str(VECTOR_ADD), mode, "--size", size, "--target", "cuda", "--device", "cpu"]
        )
        err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(str(VECTOR_ADD) + message), err


def test_the_generated_self_test_reports_bad_sizes_in_one_line(tmp_path):
    import subprocess

    module = tmp_path / "vector_add.py"
    assert cli.main([str(VECTOR_ADD), "-o", str(module)]) == 0
    result = subprocess.run(
        [sys.executable, str(module), "N=-5"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "BASIC2TILE_DEVICE": "cpu", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == (
        "vector_add.bas:4:8: error: with N=-5, an extent of A is -5: DIM extents must be 0 or more\n"
    )


def test_size_on_a_legacy_program_is_an_error(capsys):
    assert cli.main([str(SAXPY), "--interpret", "--size", "N=5"]) == 1
    assert "--size gives INPUT scalars of cuTile BASIC kernel programs" in capsys.readouterr().err


@pytest.mark.skipif(gpu_unavailable_reason() is None, reason="a GPU is usable here")
@pytest.mark.parametrize("target", ["cutile", "cuda"])
def test_device_gpu_without_a_gpu_is_one_clear_line(capsys, target):
    status = cli.main([str(SAXPY), "--run", "--device", "gpu", "--target", target])
    err = capsys.readouterr().err
    assert status == 1
    assert (
        err.startswith("basic2tile: error: --device gpu: no usable GPU (") and err.count("\n") == 1
    )


def test_a_generated_program_told_to_use_a_missing_gpu_says_so_in_one_line(tmp_path):
    import subprocess

    if gpu_unavailable_reason() is None:
        pytest.skip("a GPU is usable here")
    module = tmp_path / "saxpy.py"
    assert cli.main([str(SAXPY), "-o", str(module)]) == 0
    result = subprocess.run(
        [sys.executable, str(module)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "BASIC2TILE_DEVICE": "gpu", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{SAXPY.relative_to(ROOT)}: error: no usable GPU") or (
        result.stderr.startswith(f"{SAXPY}: error: no usable GPU")
    )
    assert result.stderr.count("\n") == 1


# ---------------------------------------------------------------------- missing extras


def _without_nvrtc(monkeypatch):
    import cuda.bindings

    # As if cuda-bindings had no NVRTC: `from cuda.bindings import nvrtc` fails, even
    # where an earlier test imported it.
    monkeypatch.setitem(sys.modules, "cuda.bindings.nvrtc", None)
    monkeypatch.delattr(cuda.bindings, "nvrtc", raising=False)
    monkeypatch.delitem(sys.modules, "transpiler.verify.nvrtc", raising=False)


def _without_tileiras(monkeypatch, tmp_path):
    import cuda.tile._compile as compile_module

    def missing():
        raise FileNotFoundError("'tileiras' compiler not found")

    monkeypatch.setattr(compile_module, "_find_compiler_bin", missing)
    monkeypatch.setenv("CUDA_TILE_CACHE_DIR", str(tmp_path / "cache"))  # no cached cubins


@pytest.mark.parametrize("fmt, target", [("ptx", "cuda"), ("cubin", "cuda"), ("cubin", "cutile")])
def test_a_missing_nvidia_extra_says_what_to_install(capsys, monkeypatch, tmp_path, fmt, target):
    if target == "cuda":
        _without_nvrtc(monkeypatch)
    else:
        _without_tileiras(monkeypatch, tmp_path)
    monkeypatch.chdir(tmp_path)
    status = cli.main([str(SAXPY), "--emit", fmt, "--target", target])
    err = capsys.readouterr().err
    assert status == 1, err
    assert err.startswith(
        f"basic2tile: error: --emit {fmt} needs NVIDIA's compilers, which are not installed "
        "here; they come with the optional extra: pip install 'basic2tile[nvidia]'\n"
    )
    assert "internal error" not in err and list(tmp_path.glob("*.cubin")) == []


def test_cutile_and_nvrtc_cubins_have_their_own_names(capsys, monkeypatch, tmp_path):
    """Both were gemm.sm_90.cubin, the second overwriting the first; `wrote` gave an
    absolute path without -o and a relative one with it: now the path as the user would
    type it, relative to the current folder or as -o was given."""
    pytest.importorskip("cuda.bindings.nvrtc")
    gemm = str(ROOT / "examples" / "kernels" / "gemm.bas")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CUDA_TILE_CACHE_DIR", str(tmp_path / "cache"))
    status = cli.main([gemm, "--emit", "cubin", "--arch", "sm_90"])
    err = capsys.readouterr().err
    if status == 1 and "needs NVIDIA's compilers" in err:
        pytest.skip("no tileiras here (the [nvidia] extra)")
    assert (status, err) == (0, "wrote gemm.cutile.sm_90.cubin\n")
    assert cli.main([gemm, "--emit", "cubin", "--arch", "sm_90", "--target", "cuda"]) == 0
    (tmp_path / "out").mkdir()
    argv = [gemm, "--emit", "cubin", "--arch", "sm_90", "--target", "cuda", "-o", "out/g.cu"]
    assert cli.main(argv) == 0
    assert capsys.readouterr().err == (
        "wrote gemm.nvrtc.sm_90.cubin\nwrote out/gemm.nvrtc.sm_90.cubin\n"
    )
    for name in ("gemm.cutile.sm_90.cubin", "gemm.nvrtc.sm_90.cubin"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x7fELF"
    assert (tmp_path / "gemm.cutile.sm_90.cubin").read_bytes() != (
        tmp_path / "gemm.nvrtc.sm_90.cubin"
    ).read_bytes()


@pytest.mark.parametrize("bound", ["1E9", "1E300"])
@pytest.mark.parametrize("mode", [["--interpret"], ["-o", "out.py"], ["-o", "out.cu"]])
def test_a_dim_too_large_is_one_located_error_in_every_engine(tmp_path, capsys, bound, mode):
    prog = tmp_path / "big.bas"
    prog.write_text(f"10 DIM A({bound})\n20 PRINT 1\n")
    argv = [str(prog), *mode[:1], *(str(tmp_path / m) for m in mode[1:])]
    assert cli.main(argv) == 1
    assert capsys.readouterr().err == (
        f"{prog}:1:8: error: invalid DIM bound A({bound}): too many elements (at most 268435456)\n"
        "    10 DIM A(" + bound + ")\n"
        "           " + "^" * (len(bound) + 3) + "\n"
    )
    assert not (tmp_path / "out.py").exists() and not (tmp_path / "out.cu").exists()


def test_compile_errors_print_as_their_diagnostics():
    """An API caller who prints the exception sees what is wrong and where."""
    from transpiler import driver
    from transpiler.errors import CompileErrors, SourceFile
    from transpiler.options import Options

    with pytest.raises(CompileErrors) as raised:
        driver.front_end(SourceFile("p.bas", "10 PRINT 1+\n20 GOTO 99\n"), Options())
    assert str(raised.value).startswith("p.bas:1:")
    assert "error" in str(raised.value).splitlines()[0]


# The distribution that provides each top-level module a GPU run imports.
_DISTRIBUTION_OF = {
    "cuda.bindings": "cuda-bindings",
    "cupy": "cupy-cuda13x",
    "cuda.tile": "cuda-tile",
}


def test_the_gpu_extra_installs_what_the_gpu_path_imports():
    """`pip install basic2tile[gpu]` must bring every module the runtime's device.py imports
    to find and use a GPU (cuda-bindings was missing: GPU detection imports it first).
    The compiler's extra is the runtime's (runtime/pyproject.toml), whose [gpu] extra
    includes its [kernels] extra."""
    import ast as pyast
    import re

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    compiler = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = tomllib.loads((ROOT / "runtime" / "pyproject.toml").read_text())["project"]
    assert compiler["optional-dependencies"]["gpu"][0].startswith("basic2tile-runtime[gpu]==")
    extras = runtime["optional-dependencies"]
    assert extras["gpu"][0] == "basic2tile-runtime[kernels]"
    names = runtime["dependencies"] + extras["kernels"] + extras["gpu"][1:]
    installed = {re.split(r"[<>=\[ ;]", n, maxsplit=1)[0].lower() for n in names}
    tree = pyast.parse((ROOT / "runtime" / "basic2tile_runtime" / "device.py").read_text())
    imported = {a.name for n in pyast.walk(tree) if isinstance(n, pyast.Import) for a in n.names}
    imported |= {n.module for n in pyast.walk(tree) if isinstance(n, pyast.ImportFrom) and n.module}
    needed = {d for module, d in _DISTRIBUTION_OF.items() if module in imported}
    assert needed == set(_DISTRIBUTION_OF.values())  # the table still covers device.py
    assert needed <= installed, needed - installed


@pytest.mark.parametrize("flag", [["--tile", "64"], ["--no-offload"]])
def test_flags_for_legacy_loops_say_they_do_not_apply_to_a_kernel_program(capsys, flag):
    assert cli.main([str(VECTOR_ADD), "--explain", *flag]) == 0
    err = capsys.readouterr().err
    assert f"note: {flag[0]} does not apply to a cuTile BASIC kernel program" in err
    assert cli.main([str(SAXPY), "--explain", *flag]) == 0
    assert "does not apply" not in capsys.readouterr().err
