"""Shared test fixtures: paths, the NBS corpus, and a private cuTile cache."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from transpiler.verify.cpu_cuda import default_cache_root

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "golden"
# The NBS corpus lives beside the repository, never inside it.
NBS_DIR = Path(os.environ.get("BASIC2TILE_NBS", ROOT.parent / "shared" / "corpus" / "nbs"))

# cuTile writes a kernel cache under ~/.cache unless told otherwise; keep ours in one
# per-user temporary folder, so repeated runs reuse compiled kernels.
_CACHE = os.path.join(tempfile.gettempdir(), f"basic2tile-test-cache-{os.getuid()}")
os.makedirs(_CACHE, exist_ok=True)
os.environ.setdefault("CUDA_TILE_CACHE_DIR", _CACHE)
os.environ.setdefault("CUDA_TILE_TEMP_DIR", _CACHE)

# The tests build generated CUDA for the CPU at -O0 (transpiler/verify/cpu_cuda.py): they
# check what programs print, and -O0 roughly halves a g++ build.  The -O2 command a .cu
# prints is still built as printed (tests/test_cuda_build_output.py); run
# `B2T_CPU_OPT=-O2 make test` to build everything as users do.
os.environ.setdefault("B2T_CPU_OPT", "-O0")
# One build cache for every basic2tile the tests start, also those given a TMPDIR of their
# own (tests/test_cli_process.py): each would otherwise rebuild the precompiled headers.
os.environ.setdefault("B2T_CPU_CACHE", str(default_cache_root()))


@pytest.fixture(scope="session")
def nbs_dir() -> Path:
    if not (NBS_DIR / "MANIFEST.tsv").is_file():
        pytest.skip(f"NBS corpus not found at {NBS_DIR} (set BASIC2TILE_NBS)")
    return NBS_DIR


@pytest.fixture
def built_as_printed(monkeypatch):
    """g++ builds at the printed command's -O2, not the suite's -O0: for a test whose point
    is what the optimiser may do (delete a loop it assumes ends, assume an overflow away),
    which -O0 never does."""
    monkeypatch.setenv("B2T_CPU_OPT", "-O2")
