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
to each chunk's worker the part of each INPUT array that the chunk's blocks may load
(`input_footprints`, an interval analysis of the kernel; the whole array where it cannot
tell), and brings back, from each chunk, the elements its blocks wrote (`Patch`).  The
worker keeps its part alone (a `Part`): the kernel's loads of it shift their tile index
by the part's first element (`_ShiftLoads`).  The patches
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
import logging
import os
import sys
import tempfile
import textwrap
import threading
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import device as b2t_device
from ..runtime.command import DeviceError

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


class _ShiftLoads(ast.NodeTransformer):
    """`ct.load(a, index=(i, j), shape=(p, q))` -> index `(i - b2t_a_at0 // p, j -
    b2t_a_at1 // q)` for the arrays given as parts starting at element (b2t_a_at0, ...)."""

    def __init__(self, shifted: dict[str, int]) -> None:
        self.shifted = shifted  # array parameter -> rank

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        if not (_is_ct(node.func, "load") and node.args and isinstance(node.args[0], ast.Name)):
            return node
        name = node.args[0].id
        if name not in self.shifted:
            return node
        keywords = {k.arg: k for k in node.keywords}
        index, shape = keywords["index"].value, keywords["shape"].value
        keywords["index"].value = ast.Tuple(
            elts=[
                ast.BinOp(
                    left=i,
                    op=ast.Sub(),
                    right=ast.BinOp(
                        left=ast.Name(id=at, ctx=ast.Load()), op=ast.FloorDiv(), right=size
                    ),
                )
                for i, size, at in zip(index.elts, shape.elts, _origin_names(name, len(index.elts)))
            ],
            ctx=ast.Load(),
        )
        return node


def _origin_names(array: str, rank: int) -> list[str]:
    return [f"b2t_{array}_at{axis}" for axis in range(rank)]


def offset_source(kernel, shifted: dict[str, int] | None = None) -> str:
    """The source of `kernel` (a generated @ct.kernel) taking the first block of each
    grid axis as three extra leading parameters, added to every `ct.bid(d)`; then, for
    each array of `shifted` (name -> rank), given as a part of the whole, the element
    where its part starts, subtracted (in tiles) from the index of its loads."""
    pyfunc = _kernel_function(kernel)
    tree = ast.parse(textwrap.dedent(inspect.getsource(pyfunc)))
    (func,) = tree.body
    if any(isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "num_blocks"
           for n in ast.walk(func)):  # fmt: skip
        raise DeviceError("a kernel that reads ct.num_blocks() cannot be split yet")
    func = _OffsetBids().visit(func)
    func = _ShiftLoads(shifted or {}).visit(func)
    extra = list(_OFFSET_NAMES)
    for name, rank in (shifted or {}).items():
        extra += _origin_names(name, rank)
    func.args.args[:0] = [ast.arg(arg=name) for name in extra]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


_offset_kernels: dict[tuple, Any] = {}
_offset_lock = threading.Lock()


def offset_kernel(kernel, shifted: dict[str, int] | None = None):
    """`kernel` with a block offset (`offset_source`), compiled once per process in the
    kernel's module (its helpers and constants).  The source goes to a real file:
    cuda.tile reads a kernel's source through `inspect`."""
    key = (id(kernel), tuple(sorted((shifted or {}).items())))
    with _offset_lock:
        known = _offset_kernels.get(key)
        if known is not None and known[0] is kernel:
            return known[1]
        pyfunc = _kernel_function(kernel)
        source = offset_source(kernel, shifted)
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        path = os.path.join(_scratch_dir(), f"offset_{pyfunc.__name__}_{digest}.py")
        if not os.path.exists(path):
            _write_atomically(path, source)
        namespace: dict[str, Any] = {}
        exec(compile(source, path, "exec"), pyfunc.__globals__, namespace)
        _offset_kernels[key] = (kernel, namespace[pyfunc.__name__])
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
        self.origins: dict[int, tuple[int, ...]] = {}  # id(array given as a Part) -> start

    def launch(self, kernel, grid, args, writes=()):
        grid3 = b2t_device._grid3(grid)
        box = chunk_box(grid3, self.parts, self.index)
        sub = tuple(hi - lo for lo, hi in box)
        if min(sub) <= 0:
            return
        first = tuple(lo for lo, _ in box)
        params = list(inspect.signature(_kernel_function(kernel)).parameters)
        shifted, starts = {}, []
        for param, arg in zip(params, args):
            if id(arg) in self.origins:
                shifted[param] = len(self.origins[id(arg)])
                starts += self.origins[id(arg)]
        kernel = offset_kernel(kernel, shifted)
        self.base.launch(kernel, sub, (*first, *starts, *args), writes)

    def array(self, value, shape, dtype, name, *, copy=False):
        if isinstance(value, Part):  # the part of an INPUT array the chunk loads
            arr = self.base.array(value.values, value.values.shape, dtype, name, copy=copy)
            self.origins[id(arr)] = value.start
            return arr
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
    return array.view(f"u{array.dtype.itemsize}") if array.dtype.kind == "f" else array


def make_patch(out, initial, send_initial: bool) -> Patch:
    out = _host(out)
    shape, dtype = out.shape, out.dtype.str
    before = np.zeros_like(out) if initial is None else _host(initial)
    written = _bits(out) != _bits(before)
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
    result = module.run(*[_whole(a) for a in args], device=chunk)
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


def _sum_of(out):
    """A chunk's sum of an OUTPUT array, in f64 (at least): its blocks wrote their
    elements, the others are still zero, which a sum ignores."""
    out = _host(out)
    return out.sum(dtype=np.result_type(out.dtype, np.float64))


# name -> (a chunk's partial result of an OUTPUT array, two partials combined)
REDUCTIONS = {"sum": (_sum_of, np.add)}


def _partial(out, how: str):
    return REDUCTIONS[how][0](out)


def _combine(how: str, *partials):
    total = partials[0]
    for part in partials[1:]:
        total = REDUCTIONS[how][1](total, part)
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
    targets = [workers[n % len(workers)] for n in range(len(chunk_indices(parts)))]
    per_chunk = _chunk_arguments(client, module, args, parts, targets)
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
                per_chunk[n],
                pure=False,
                workers=[targets[n]],
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


def _chunk_arguments(client, module, args, parts, targets) -> list[list]:
    """run()'s arguments for each chunk, on the engine: an INPUT array whose loads the
    chunk's blocks can be bounded for (`input_footprints`) travels as that part alone, to
    the chunk's worker (a row panel of A for gemm's block rows, a slice for a map); the
    others are scattered once to every worker (a kernel may read any of their tiles)."""
    chunks = input_footprints(module, args, parts) or [{} for _ in targets]
    arrays = [i for i, a in enumerate(args) if hasattr(a, "shape")]
    whole = [i for i in arrays if any(i not in pieces for pieces in chunks)]
    # Keys of their own (hash=False): a key shared with an earlier run's data could be
    # released by that run's end while this run's tasks need it ("lost dependencies").
    shared = {}
    if whole:
        scattered = client.scatter([args[i] for i in whole], broadcast=True, hash=False)
        shared = dict(zip(whole, scattered))
    out = []
    for pieces, worker in zip(chunks, targets):
        given = [shared.get(i, a) for i, a in enumerate(args)]
        for i, (box, value, shift) in pieces.items():
            part = client.scatter([value[box]], workers=[worker], hash=False)[0]
            piece = (value.shape, value.dtype.str, box)
            given[i] = {"b2t_piece": piece, "values": part, "shift": shift}
        out.append(given)
    return out


@dataclass
class Part:
    """The part of an INPUT array that a chunk loads, from element `start` on: the
    chunk's kernel loads it with its tile indices shifted by `start`."""

    values: Any
    start: tuple[int, ...]


def _whole(arg):
    """A chunk's argument as run() takes it: of an INPUT array the chunk received only
    the part it loads, given as a Part where every load can be shifted to it (each
    starts at a whole tile), else rebuilt at its full shape (zeros elsewhere: never
    loaded)."""
    if not (isinstance(arg, dict) and "b2t_piece" in arg):
        return arg
    shape, dtype, box = arg["b2t_piece"]
    if arg["shift"]:
        return Part(arg["values"], tuple(s.start for s in box))
    full = np.zeros(shape, dtype=np.dtype(dtype))
    full[box] = arg["values"]
    return full


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
    """The OUTPUT arrays of a generated kernel module, in run()'s order (from its BASIC
    source, as the self-test reads it)."""
    from ..errors import SourceFile
    from ..frontend.parser import parse
    from ..options import Options
    from ..passes.kernel.kernel_dialect import analyze_kernel_program

    name = _module_name(module)
    options = Options(precision=getattr(module, "BASIC_PRECISION", None))
    source = SourceFile(name + ".bas", module.BASIC_SOURCE)
    program = parse(source, options, kernel=True)
    return list(analyze_kernel_program(program, options, name, source).outputs)


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
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,  # a chunk's error: reported once, by the client
    ) as cluster, dd.Client(cluster) as client:  # fmt: skip
        yield client


# ----------------------------------------------------------------------------------------
# What each chunk reads: only those parts of the inputs travel


class _Recorder(b2t_device.CpuDevice):
    """A device that records run()'s launches instead of running them (the client's view
    of the kernel, its grid and its arguments, with the inputs converted as run() does)."""

    def __init__(self) -> None:
        self.launches: list[tuple[Any, tuple[int, int, int], tuple]] = []

    def launch(self, kernel, grid, args, writes=()):
        self.launches.append((kernel, b2t_device._grid3(grid), tuple(args)))


_Interval = "tuple[int, int] | None"  # the values an integer may take, None: unknown


class _Reads(ast.NodeVisitor):
    """Interval analysis of a generated kernel's body: for each array parameter, the tiles
    a box of blocks may load, per axis.  Sound, not precise: an integer it cannot bound is
    unknown, and an array used otherwise than as the first argument of ct.load/ct.store
    (or loaded with options it does not know) is read whole."""

    _LOAD_OPTIONS = {"index", "shape", "padding_mode", "latency"}

    def __init__(self, params: dict[str, Any], blocks) -> None:
        self.env: dict[str, Any] = {k: (v, v) for k, v in params.items() if _is_int(v)}
        self.arrays = {k for k, v in params.items() if hasattr(v, "shape")}
        self.blocks = blocks  # (lo, hi) per grid axis
        self.tiles: dict[str, list] = {}  # array -> per axis (lo, hi) tile interval | None
        self.whole: set[str] = set()
        self.stored: set[str] = set()

    # expressions
    def value(self, e) -> Any:
        if isinstance(e, ast.Constant) and _is_int(e.value):
            return (e.value, e.value)
        if isinstance(e, ast.Name):
            return self.env.get(e.id)
        if isinstance(e, ast.BinOp):
            return _binop(e.op, self.value(e.left), self.value(e.right))
        if isinstance(e, ast.Call) and _is_ct(e.func, "bid") and len(e.args) == 1:
            axis = e.args[0].value if isinstance(e.args[0], ast.Constant) else None
            if axis in (0, 1, 2):
                lo, hi = self.blocks[axis]
                return (lo, hi - 1)
        if isinstance(e, ast.Call) and _is_ct(e.func, "cdiv") and len(e.args) == 2:
            a, b = self.value(e.args[0]), self.value(e.args[1])
            return _binop(ast.FloorDiv(), _binop(ast.Add(), a, _binop(ast.Sub(), b, (1, 1))), b)
        return None

    # statements
    def visit_Assign(self, node):
        self.visit(node.value)
        known = self.value(node.value) if len(node.targets) == 1 else None
        for target in node.targets:
            for name in _names_bound(target):
                self.env[name] = known if isinstance(target, ast.Name) else None

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        for name in _names_bound(node.target):
            self.env[name] = None

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        for name in _names_bound(node.target):
            self.env[name] = None

    def visit_For(self, node):
        self.visit(node.iter)
        self._forget_assigned(node)
        loop = None
        if isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name):
            if node.iter.func.id == "range" and 1 <= len(node.iter.args) <= 2:
                bounds = [self.value(a) for a in node.iter.args]
                start = bounds[0] if len(bounds) == 2 else (0, 0)
                stop = bounds[-1]
                if start is not None and stop is not None:
                    loop = (start[0], max(start[0], stop[1] - 1))
        for name in _names_bound(node.target):
            self.env[name] = loop if isinstance(node.target, ast.Name) else None
        for statement in node.body + node.orelse:
            self.visit(statement)
        self._forget_assigned(node)

    def visit_While(self, node):
        self._forget_assigned(node)
        self.generic_visit(node)
        self._forget_assigned(node)

    def visit_If(self, node):
        self.visit(node.test)
        before = dict(self.env)
        for statement in node.body:
            self.visit(statement)
        after_body, self.env = self.env, dict(before)
        for statement in node.orelse:
            self.visit(statement)
        self.env = {k: _join(after_body.get(k), self.env.get(k)) for k in after_body}

    def _forget_assigned(self, node):
        for inner in ast.walk(node):
            targets = []
            if isinstance(inner, (ast.Assign,)):
                targets = inner.targets
            elif isinstance(inner, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = [inner.target]
            for target in targets:
                for name in _names_bound(target):
                    self.env[name] = None

    def visit_Call(self, node):
        is_load = _is_ct(node.func, "load")
        is_store = _is_ct(node.func, "store")
        if (is_load or is_store) and node.args and isinstance(node.args[0], ast.Name):
            name = node.args[0].id
            if name in self.arrays:
                if is_store:
                    self.stored.add(name)
                else:
                    self._load(name, node)
                for e in node.args[1:] + [k.value for k in node.keywords]:
                    self.visit(e)
                return
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.arrays:  # any other use of an array: it is read whole
            self.whole.add(node.id)

    def _load(self, name: str, node: ast.Call) -> None:
        keywords = {k.arg: k.value for k in node.keywords}
        index, shape = keywords.get("index"), keywords.get("shape")
        if (
            len(node.args) != 1
            or set(keywords) - self._LOAD_OPTIONS
            or not isinstance(index, ast.Tuple)
            or not isinstance(shape, ast.Tuple)
        ):
            self.whole.add(name)
            return
        tiles = [self.value(i) for i in index.elts]
        sizes = [s.value if isinstance(s, ast.Constant) else None for s in shape.elts]
        spans = self.tiles.setdefault(name, [])
        spans.append((tiles, sizes))

    def shiftable(self, name: str, box: tuple[slice, ...]) -> bool:
        """Whether every load of `name` can read a part starting at `box` instead: each
        axis starts at a whole tile of every load (then the tile indices shift)."""
        for _, sizes in self.tiles.get(name, []):
            if not all(
                isinstance(n, int) and n > 0 and s.start % n == 0 for s, n in zip(box, sizes)
            ):
                return False
        return name in self.tiles

    def footprint(self, name: str, shape: tuple[int, ...]) -> tuple[slice, ...] | None:
        """Element slices per axis that cover every load of `name`, whole tiles; None
        when the array is read whole (or written: its values outside would be lost)."""
        if name in self.whole or name in self.stored:
            return None
        loads = self.tiles.get(name, [])
        box = []
        for axis, extent in enumerate(shape):
            lo, hi = extent, 0
            for tiles, sizes in loads:
                if len(tiles) != len(shape) or len(sizes) != len(shape):
                    return None
                span, size = tiles[axis], sizes[axis]
                if span is None or not size:
                    lo, hi = 0, extent
                    break
                lo = min(lo, max(0, span[0] * size))
                hi = max(hi, min(extent, (span[1] + 1) * size))
            box.append(slice(lo, max(lo, hi)))
        return tuple(box)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _is_ct(f, attr: str) -> bool:
    return (
        isinstance(f, ast.Attribute)
        and f.attr == attr
        and isinstance(f.value, ast.Name)
        and f.value.id == "ct"
    )


def _names_bound(target) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _join(a, b):
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _binop(op, a, b):
    """Interval arithmetic on integers; None where it cannot bound the result."""
    if a is None or b is None:
        return None
    if isinstance(op, ast.Add):
        return (a[0] + b[0], a[1] + b[1])
    if isinstance(op, ast.Sub):
        return (a[0] - b[1], a[1] - b[0])
    if isinstance(op, ast.Mult):
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    if isinstance(op, ast.FloorDiv) and b[0] > 0:
        corners = [x // y for x in a for y in b]
        return (min(corners), max(corners))
    if isinstance(op, ast.Mod) and b[0] == b[1] and b[0] > 0:
        d = b[0]
        if a[0] // d == a[1] // d:
            return (a[0] % d, a[1] % d)
        return (0, d - 1)
    return None


def input_footprints(module, args, parts) -> list[dict[int, tuple]] | None:
    """Per chunk, for each of run()'s INPUT arrays that it need not receive whole: its
    position in `args` -> (the element box the chunk's blocks may load, the array as the
    kernel takes it).  None when run() cannot be followed on the client (futures among
    the arguments, not exactly one launch)."""
    if any(not hasattr(a, "shape") and not _is_scalar(a) for a in args):
        return None
    recorder = _Recorder()
    module.run(*args, device=recorder)
    if len(recorder.launches) != 1:
        return None
    kernel, grid3, launch_args = recorder.launches[0]
    pyfunc = _kernel_function(kernel)
    tree = ast.parse(textwrap.dedent(inspect.getsource(pyfunc)))
    params = list(inspect.signature(pyfunc).parameters)
    by_name = dict(zip(params, launch_args))
    run_params = list(inspect.signature(module.run).parameters)
    chunks = []
    for index in chunk_indices(parts):
        reads = _Reads(by_name, chunk_box(grid3, parts, index))
        for statement in tree.body[0].body:
            reads.visit(statement)
        pieces = {}
        for name, value in by_name.items():
            if not hasattr(value, "shape") or name not in run_params:
                continue
            box = reads.footprint(name, value.shape)
            if box is not None and box != tuple(slice(0, n) for n in value.shape):
                pieces[run_params.index(name)] = (box, value, reads.shiftable(name, box))
        chunks.append(pieces)
    return chunks


def _is_scalar(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating))
