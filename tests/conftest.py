"""Shared test fixtures: paths, the NBS corpus, and a private cuTile cache."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def nbs_dir() -> Path:
    if not (NBS_DIR / "MANIFEST.tsv").is_file():
        pytest.skip(f"NBS corpus not found at {NBS_DIR} (set BASIC2TILE_NBS)")
    return NBS_DIR
