"""A generated kernel module's grid split across the workers of a Dask cluster.

    from dask.distributed import Client, LocalCluster
    from transpiler import scaleout
    import gemm                                   # basic2tile gemm.bas -o gemm.py

    with Client(LocalCluster(n_workers=2, threads_per_worker=1)) as client:
        c = scaleout.run(gemm, m, n, k, a, b, client=client, device="cpu")

`run` returns what `gemm.run(m, n, k, a, b)` returns.  The kernel is the module's own:
each worker calls the module's `run()` with a device (`ChunkDevice`) whose launch runs
only a box of the grid's blocks, through a copy of the kernel whose `ct.bid(d)` reads
`ct.bid(d) + first block` (`offset_kernel`): the block offset is the only change, and
the module itself (its single-device path) is untouched.  Dask does the rest: it moves
the inputs to the workers (each worker holds all of them: a kernel may read any tile)
and brings back, from each chunk, the elements its blocks wrote (`Patch`).  The patches
are stitched by the element bits that differ from the array's initial value, so the
result is bit for bit the single-device one whenever no two blocks write one element
(which a kernel needs on one device as well).  `reduce={"P": "sum"}` instead sums the
elements of OUTPUT P: each worker sums what its blocks wrote, and the engine adds the
partial sums (a tree of Dask tasks).

On GPUs, `dask_cuda.LocalCUDACluster()` (or `dask cuda worker` per node) gives one worker
per GPU; each worker's kernels then run on its own device.  Without a GPU the workers run
the kernels in the tile simulator (`device="cpu"`), which is how the tests run it.

Dask is an optional extra: `pip install 'basic2tile[distributed]'`.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import inspect
import itertools
import os
import sys
import tempfile
import textwrap
import threading
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from . import device as b2t_device
from .runtime.command import DeviceError

INSTALL_HINT = "pip install 'basic2tile[distributed]'"
_OFFSET_NAMES = ("b2t_bid0_x", "b2t_bid0_y", "b2t_bid0_z")


def require_dask():
    """dask.distributed, or a DeviceError saying how to install it."""
    try:
        import dask.distributed as dd
    except ImportError as exc:
        raise DeviceError(f"running on several workers needs Dask: {INSTALL_HINT}") from exc
    return dd


# ----------------------------------------------------------------------------------------
# Chunks of the grid


def split_range(count: int, parts: int, index: int) -> tuple[int, int]:
    """Block range [lo, hi) of chunk `index` when `count` blocks are cut into `parts`
    near-equal chunks (the first `count % parts` chunks one block longer)."""
    size, extra = divmod(count, parts)
    lo = index * size + min(index, extra)
    return lo, lo + size + (1 if index < extra else 0)


def chunk_layout(parts: int | Sequence[int]) -> tuple[int, ...] | None:
    """Chunks per grid axis: a tuple of 3 counts, or None for `parts` chunks along the
    launch's longest grid axis (decided at launch time, when the grid is known)."""
    if isinstance(parts, int):
        if parts < 1:
            raise DeviceError(f"parts must be 1 or more, not {parts}")
        return None
    counts = tuple(int(p) for p in parts) + (1,) * (3 - len(parts))
    if len(counts) != 3 or min(counts) < 1:
        raise DeviceError(f"parts per grid axis must be up to 3 counts of 1 or more: {parts}")
    return counts


def chunk_indices(parts: int | Sequence[int]) -> list[tuple[int, int, int]]:
    """Every chunk's index: (i, 0, 0) along the longest axis, or one per box of the
    per-axis layout."""
    counts = chunk_layout(parts)
    if counts is None:
        return [(i, 0, 0) for i in range(parts)]
    return list(itertools.product(*(range(c) for c in counts)))


def chunk_box(grid3, parts, index) -> tuple[tuple[int, int], ...]:
    """The blocks [lo, hi) per grid axis that chunk `index` launches."""
    counts = chunk_layout(parts)
    if counts is None:  # the longest axis (the first of equals) in `parts` chunks
        axis = max(range(3), key=lambda a: (grid3[a], -a))
        counts = tuple(parts if a == axis else 1 for a in range(3))
        index = tuple(index[0] if a == axis else 0 for a in range(3))
    return tuple(split_range(grid3[a], counts[a], index[a]) for a in range(3))


# ----------------------------------------------------------------------------------------
# The kernel with a block offset


class _OffsetBids(ast.NodeTransformer):
    """`ct.bid(d)` -> `(ct.bid(d) + b2t_bid0_<d>)`."""

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        f = node.func
        is_bid = (
            isinstance(f, ast.Attribute)
            and f.attr == "bid"
            and isinstance(f.value, ast.Name)
            and f.value.id == "ct"
        )
        if not is_bid:
            return node
        if not (len(node.args) == 1 and isinstance(node.args[0], ast.Constant)):
            raise DeviceError("a kernel's ct.bid() axis must be a constant to split its grid")
        offset = ast.Name(id=_OFFSET_NAMES[node.args[0].value], ctx=ast.Load())
        return ast.BinOp(left=node, op=ast.Add(), right=offset)


def _kernel_function(kernel):
    pyfunc = getattr(kernel, "_pyfunc", kernel)
    if not inspect.isfunction(pyfunc):
        raise DeviceError(f"not a cuTile kernel: {kernel!r}")
    return pyfunc


def offset_source(kernel) -> str:
    """The source of `kernel` (a generated @ct.kernel) taking the first block of each
    grid axis as three extra leading parameters, added to every `ct.bid(d)`."""
    pyfunc = _kernel_function(kernel)
    tree = ast.parse(textwrap.dedent(inspect.getsource(pyfunc)))
    (func,) = tree.body
    if any(isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "num_blocks"
           for n in ast.walk(func)):  # fmt: skip
        raise DeviceError("a kernel that reads ct.num_blocks() cannot be split yet")
    func = _OffsetBids().visit(func)
    func.args.args[:0] = [ast.arg(arg=name) for name in _OFFSET_NAMES]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


_offset_kernels: dict[int, Any] = {}
_offset_lock = threading.Lock()


def offset_kernel(kernel):
    """`kernel` with a block offset (`offset_source`), compiled once per process in the
    kernel's module (its helpers and constants).  The source goes to a real file:
    cuda.tile reads a kernel's source through `inspect`."""
    with _offset_lock:
        known = _offset_kernels.get(id(kernel))
        if known is not None and known[0] is kernel:
            return known[1]
        pyfunc = _kernel_function(kernel)
        source = offset_source(kernel)
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        path = os.path.join(_scratch_dir(), f"offset_{pyfunc.__name__}_{digest}.py")
        if not os.path.exists(path):
            _write_atomically(path, source)
        namespace: dict[str, Any] = {}
        exec(compile(source, path, "exec"), pyfunc.__globals__, namespace)
        _offset_kernels[id(kernel)] = (kernel, namespace[pyfunc.__name__])
        return namespace[pyfunc.__name__]


def _scratch_dir() -> str:
    path = os.path.join(tempfile.gettempdir(), f"basic2tile-scaleout-{os.getuid()}")
    os.makedirs(path, exist_ok=True)
    return path


def _write_atomically(path: str, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


# ----------------------------------------------------------------------------------------
# One chunk, on a worker


class ChunkDevice(b2t_device.Device):
    """The device a worker gives the module's run(): as `base`, but a launch runs only
    chunk `index`'s blocks, and run() returns the device's own arrays (the task turns
    them into patches).  It records the initial value of every array a kernel may write."""

    def __init__(self, base: b2t_device.Device, parts, index) -> None:
        self.base = base
        self.name = base.name
        self.parts = parts
        self.index = index
        self.stream = base.stream
        self.initial: dict[int, Any] = {}  # id(array) -> a copy, or None for zeros

    def launch(self, kernel, grid, args, writes=()):
        grid3 = b2t_device._grid3(grid)
        box = chunk_box(grid3, self.parts, self.index)
        sub = tuple(hi - lo for lo, hi in box)
        if min(sub) <= 0:
            return
        first = tuple(lo for lo, _ in box)
        self.base.launch(offset_kernel(kernel), sub, (*first, *args), writes)

    def array(self, value, shape, dtype, name, *, copy=False):
        arr = self.base.array(value, shape, dtype, name, copy=copy)
        if copy:
            self.initial[id(arr)] = arr.copy()
        return arr

    def zeros(self, shape, dtype):
        arr = self.base.zeros(shape, dtype)
        self.initial[id(arr)] = None
        return arr

    def to_host(self, array):
        return self.base.to_host(array)

    def result(self, array):
        return array

    def synchronize(self):
        self.base.synchronize()


@dataclass
class Patch:
    """The elements of one OUTPUT array that one chunk's blocks wrote: `values` and
    `written` (a mask; None when the chunk wrote its whole box) over the box `box` (slices)
    of the whole array, whose shape and type are `shape` and `dtype`; `initial` is the
    array's value before the kernel ran (None: zeros; sent by the first chunk only)."""

    shape: tuple[int, ...]
    dtype: str
    box: tuple[slice, ...] | None
    values: np.ndarray | None
    written: np.ndarray | None
    initial: np.ndarray | None = None
    zero_start: bool = True


def _host(array) -> np.ndarray:
    return b2t_device._to_numpy(array)


def _bits(array: np.ndarray) -> np.ndarray:
    """The array's element bits (unsigned integers): -0.0 differs from 0.0, NaN equals the
    same NaN."""
    return array.view(f"u{array.dtype.itemsize}") if array.dtype.kind in "fc" else array


def make_patch(out, initial, send_initial: bool) -> Patch:
    out = _host(out)
    shape, dtype = out.shape, out.dtype.str
    before = np.zeros_like(out) if initial is None else _host(initial)
    written = _bits(out) != _bits(before)
    if out.dtype.kind == "c":  # complex: a view doubles the last axis
        written = written.reshape(*out.shape, -1).any(axis=-1)
    box = _bounding_box(written)
    start = None if initial is None or not send_initial else before
    if box is None:
        return Patch(shape, dtype, None, None, None, start, initial is None)
    written = written[box]
    mask = None if written.all() else written.copy()  # None: every element of the box
    return Patch(shape, dtype, box, out[box].copy(), mask, start, initial is None)


def _bounding_box(mask: np.ndarray) -> tuple[slice, ...] | None:
    if mask.ndim == 0:
        return () if bool(mask) else None
    box = []
    for axis in range(mask.ndim):
        others = tuple(a for a in range(mask.ndim) if a != axis)
        hit = np.flatnonzero(mask.any(axis=others) if others else mask)
        if hit.size == 0:
            return None
        box.append(slice(int(hit[0]), int(hit[-1]) + 1))
    return tuple(box)


_modules: dict[str, Any] = {}
_modules_lock = threading.Lock()


def load_module(name: str, source: str):
    """A generated module from its source text, once per process.  A worker may not see
    the client's files (another node) nor import its `__main__`: the text travels with
    the task and is written to this machine's scratch folder (cuda.tile reads kernels'
    source from files)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    with _modules_lock:
        module = _modules.get(digest)
        if module is not None:
            return module
        path = os.path.join(_scratch_dir(), f"{name}_{digest}.py")
        if not os.path.exists(path):
            _write_atomically(path, source)
        spec = importlib.util.spec_from_file_location(f"b2t_scaleout_{name}_{digest}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _modules[digest] = module
        return module


def run_chunk(name, source, parts, index, device, reduce, args) -> list:
    """The task of one chunk: the module's run() on this worker's device with only the
    chunk's blocks launched; per OUTPUT a Patch, or for a reduced OUTPUT its partial."""
    module = load_module(name, source)
    chunk = ChunkDevice(b2t_device.select(device, quiet=True), parts, index)
    result = module.run(*args, device=chunk)
    outputs = result if isinstance(result, tuple) else (result,)
    chunk.synchronize()
    first = not any(index)
    done = []
    for position, out in enumerate(outputs):
        initial = chunk.initial.get(id(out))
        how = reduce[position] if reduce else None
        if how is None:
            done.append(make_patch(out, initial, send_initial=first))
        elif initial is not None:
            raise DeviceError("a reduced OUTPUT must be an array the program DIMs (not an INPUT)")
        else:
            done.append(_partial(out, how))
    return done


REDUCTIONS = {"sum": np.add}


def _partial(out, how: str):
    """This chunk's part of a reduction over a whole OUTPUT array: its blocks wrote their
    elements, the others are still zero (which a sum ignores)."""
    return _host(out).sum(dtype=np.result_type(_host(out).dtype, np.float64))


def _combine(how: str, *partials):
    total = partials[0]
    for part in partials[1:]:
        total = REDUCTIONS[how](total, part)
    return total


# ----------------------------------------------------------------------------------------
# The client's side


def stitch(patches: Sequence[Patch]) -> np.ndarray:
    """The whole array from the chunks' patches: each chunk's written elements over the
    initial value."""
    first = patches[0]
    if first.zero_start:
        whole = np.zeros(first.shape, dtype=np.dtype(first.dtype))
    else:
        start = next(p.initial for p in patches if p.initial is not None)
        whole = np.array(start, copy=True)
    for patch in patches:
        if patch.box is not None and patch.written is None:
            whole[patch.box] = patch.values
        elif patch.box is not None:
            region = whole[patch.box]
            region[patch.written] = patch.values[patch.written]
            whole[patch.box] = region
    return whole


def workers_of(client) -> list[str]:
    return sorted(client.scheduler_info()["workers"])


def run(
    module,
    *args,
    client,
    parts: int | Sequence[int] | None = None,
    device: str | None = None,
    reduce: dict[str, str] | None = None,
):
    """`module.run(*args)` with its grid split into `parts` chunks (default: one per
    worker of `client`, along the longest grid axis; a tuple gives chunks per axis), one
    Dask task per chunk.  `device`: each worker's ("cpu": the tile simulator; "gpu" or
    None: its GPU, as `module.run` chooses).  `reduce={"P": "sum"}`: OUTPUT P comes back
    as the sum of its elements, added up on the engine from the workers' partial sums.
    Results are NumPy arrays, as `module.run` returns them for NumPy inputs.  An INPUT
    array may be given as a Dask future of it (`client.scatter(a, broadcast=True)`): it
    then stays on the workers from one run to the next instead of moving at each run."""
    require_dask()
    workers = workers_of(client)
    if not workers:
        raise DeviceError("the Dask cluster has no workers")
    parts = len(workers) if parts is None else parts
    chunk_layout(parts)  # refuses a bad layout here, not on every worker
    outputs = _output_names(module)
    reduce_by_position = _reduce_positions(outputs, reduce)
    source = inspect.getsource(module)
    name = _module_name(module)
    # Every worker holds every input (a kernel may read any tile): scattered once each.
    arrays = [i for i, a in enumerate(args) if hasattr(a, "shape")]
    # Keys of their own (hash=False): a key shared with an earlier run's data could be
    # released by that run's end while this run's tasks need it ("lost dependencies").
    scattered = (
        client.scatter([args[i] for i in arrays], broadcast=True, hash=False) if arrays else []
    )
    task_args = list(args)
    for i, future in zip(arrays, scattered):
        task_args[i] = future
    futures = []
    for n, index in enumerate(chunk_indices(parts)):
        futures.append(
            client.submit(
                run_chunk,
                name,
                source,
                parts,
                index,
                device,
                reduce_by_position,
                task_args,
                pure=False,
                workers=[workers[n % len(workers)]],
                allow_other_workers=True,
            )  # fmt: skip
        )
    results = []
    for position in range(len(outputs)):
        how = reduce_by_position[position] if reduce_by_position else None
        mine = [client.submit(_item, f, position, pure=False) for f in futures]
        if how is None:
            results.append(stitch(client.gather(mine)))
        else:
            results.append(_tree_reduce(client, how, mine))
    return results[0] if len(results) == 1 else tuple(results)


def _item(values, position):
    return values[position]


def _tree_reduce(client, how: str, futures: list):
    """Partial results combined on the engine, two at a time (a tree of tasks)."""
    while len(futures) > 1:
        futures = [
            client.submit(_combine, how, *futures[i : i + 2], pure=False)
            for i in range(0, len(futures), 2)
        ]
    return client.gather(futures[0])


def _output_names(module) -> list[str]:
    """The OUTPUT arrays of a generated kernel module, in run()'s order."""
    from .options import Options
    from .selftest import kernel_program_from_text

    precision = getattr(module, "BASIC_PRECISION", None)
    kp = kernel_program_from_text(
        module.BASIC_SOURCE, _module_name(module), Options(precision=precision)
    )
    return list(kp.outputs)


def _reduce_positions(outputs: list[str], reduce: dict[str, str] | None):
    if not reduce:
        return None
    unknown = {n for n in reduce if n.upper() not in outputs}
    if unknown:
        raise DeviceError(
            f"not an OUTPUT array: {', '.join(sorted(unknown))} (OUTPUT {', '.join(outputs)})"
        )
    wanted = {n.upper(): how for n, how in reduce.items()}
    for how in wanted.values():
        if how not in REDUCTIONS:
            raise DeviceError(f"no reduction {how!r}: {', '.join(REDUCTIONS)}")
    return [wanted.get(name) for name in outputs]


def _module_name(module) -> str:
    path = getattr(module, "__file__", None)
    return os.path.splitext(os.path.basename(path))[0] if path else module.__name__


# ----------------------------------------------------------------------------------------
# Clusters for the command line


@contextlib.contextmanager
def cluster_client(
    workers: int | None = None, scheduler: str | None = None, processes: bool = True
):
    """A Dask client: of the scheduler at `scheduler`, else of a local cluster of
    `workers` single-threaded workers (processes unless `processes` is false)."""
    dd = require_dask()
    if scheduler:
        with dd.Client(scheduler) as client:
            yield client
        return
    with dd.LocalCluster(
        n_workers=workers or 1, threads_per_worker=1, processes=processes,
        dashboard_address=None,
    ) as cluster, dd.Client(cluster) as client:  # fmt: skip
        yield client
