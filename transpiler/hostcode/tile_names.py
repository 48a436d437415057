"""The names the host code of both targets gives the kernels' tile sizes (TILE = 512), once
at the top of the program instead of the literal in every launch (hostcode/launch.py)."""

from __future__ import annotations

from ..ir import kernel as ir


def tile_constants(kernels: list[ir.Kernel], names: dict[str, str]) -> dict[str, dict]:
    """Kernel name -> {tile size: the module-level constant naming it}.  A tile parameter
    of one value in every kernel is its name in capitals (`tile` -> TILE, `tile_k` ->
    TILE_K); one whose value differs between kernels is named after the kernel too
    (ITERATE_100_TILE = 16, REDUCE_500_TILE = 32).  When two parameters of a kernel have
    one value, the first (the grid's axes come first) names it."""
    values: dict[str, set[int]] = {}
    for kernel in kernels:
        for p in kernel.params:
            if isinstance(p, ir.ConstParam):
                values.setdefault(p.name, set()).add(p.value)
    tiles: dict[str, dict] = {}
    for kernel in kernels:
        mine = tiles[kernel.name] = {}
        for p in kernel.params:
            if isinstance(p, ir.ConstParam) and p.value not in mine:
                shared = len(values[p.name]) == 1
                prefix = "" if shared else f"{names[kernel.name]}_"
                mine[p.value] = f"{prefix}{p.name}".upper()
    return tiles
