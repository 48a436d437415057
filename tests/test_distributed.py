"""A kernel program's grid split across the workers of a Dask cluster (transpiler/run/scaleout.py).

The oracle is the same generated module run on one device (the CPU tile simulator): maps
must agree bit for bit, reductions within the element type's tolerance.  The clusters are
local, of threads (`processes=False`: a worker process takes seconds to start on two cores),
except one test of worker processes through the command line.  Dask is the optional
[distributed] extra: without it every test here skips.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

dd = pytest.importorskip(
    "dask.distributed", reason="Dask is not installed (pip install 'basic2tile[distributed]')"
)

from transpiler import driver
from transpiler.run import scaleout  # noqa: E402
from transpiler.options import Options  # noqa: E402
from transpiler.runtime.command import DeviceError  # noqa: E402
from transpiler.run.selftest import (  # noqa: E402
    TOLERANCE,
    default_scalars,
    kernel_program_from_text,
    make_inputs,
)

ROOT = Path(__file__).resolve().parent.parent
KERNELS = sorted(
    p.stem
    for p in (ROOT / "examples" / "kernels").glob("*.bas")
    if "OUTPUT" in p.read_text()  # hello.bas is a host program
)


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """Every kernel example's generated cuTile module, imported from a file."""
    folder = tmp_path_factory.mktemp("kernels")
    loaded = {}
    for name in KERNELS:
        source = (ROOT / "examples" / "kernels" / f"{name}.bas").read_text()
        analysis = driver.front_end(driver.SourceFile(f"{name}.bas", source), Options())
        path = folder / f"{name}.py"
        path.write_text(driver.generate(analysis, "cutile", None, True, None))
        spec = importlib.util.spec_from_file_location(f"dist_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        loaded[name] = module
    return loaded


@pytest.fixture(scope="module", params=[2, 3], ids=["2workers", "3workers"])
def client(request):
    with dd.LocalCluster(
        n_workers=request.param, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, dd.Client(cluster) as client:  # fmt: skip
        yield client


def problem(module, name, sizes=None):
    """run()'s arguments for generated data; sizes that leave partial tiles and a grid
    that does not divide into 2 or 3 equal chunks unless given."""
    kp = kernel_program_from_text(module.BASIC_SOURCE, name)
    scalars = default_scalars(kp, sizes)
    inputs = make_inputs(kp, scalars)
    return kp, [scalars[n] if n in kp.scalars else inputs[n] for n in kp.inputs]


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


# Sizes whose grids have 7 (or 5 x 3) blocks: uneven chunks for 2 and 3 workers.
UNEVEN = {
    "vector_add": {"N": 6 * 1024 + 5},
    "dot_blocks": {"N": 6 * 512 + 1},
    "softmax_rows": {"R": 6 * 16 + 3},
    "matrix_add_2d": {"M": 4 * 32 + 7, "N": 2 * 32 + 1},
    "gemm": {"M": 7 * 128, "N": 128, "K": 64},
    "hgemm": {"M": 4 * 64 + 9, "N": 2 * 64 + 3, "K": 40},
}


@pytest.mark.parametrize("name", KERNELS)
def test_every_kernel_example_split_gives_the_single_device_bits(modules, client, name):
    module = modules[name]
    _, args = problem(module, name, UNEVEN[name])
    one = module.run(*args, device="cpu")
    many = scaleout.run(module, *args, client=client, device="cpu")
    assert same_bits(many, one)


def test_every_kernel_example_has_uneven_sizes_here():
    assert sorted(UNEVEN) == KERNELS


@pytest.mark.parametrize("parts", [1, 5, (2, 2), (3, 1)])
def test_2d_grid_in_chunks_along_one_or_both_axes(modules, client, parts):
    module = modules["matrix_add_2d"]
    _, args = problem(module, "matrix_add_2d", UNEVEN["matrix_add_2d"])
    one = module.run(*args, device="cpu")
    assert same_bits(scaleout.run(module, *args, client=client, device="cpu", parts=parts), one)


def test_more_chunks_than_blocks_leaves_some_chunks_empty(modules, client):
    module = modules["vector_add"]
    _, args = problem(module, "vector_add", {"N": 1500})  # 2 blocks
    one = module.run(*args, device="cpu")
    assert same_bits(scaleout.run(module, *args, client=client, device="cpu", parts=4), one)


def test_reduction_partial_sums_combined_on_the_engine(modules, client):
    """dot_blocks's P holds one partial dot product per block; reduced, the workers'
    sums of their P elements are added by Dask tasks into the dot product of X and Y."""
    module = modules["dot_blocks"]
    kp, args = problem(module, "dot_blocks", UNEVEN["dot_blocks"])
    total = scaleout.run(module, *args, client=client, device="cpu", reduce={"P": "sum"})
    n, x, y = args
    want = float(np.dot(x, y))
    assert abs(float(total) - want) <= TOLERANCE["f64"] * max(1.0, abs(want)) * n
    assert abs(float(total) - float(module.run(*args, device="cpu").sum())) <= 1e-12 * n


def test_written_negative_zero_survives_the_stitch():
    """Elements are taken where their bits differ from the initial zeros: a written -0.0
    is kept (a comparison of values would lose it)."""
    out = np.array([0.0, -0.0, 3.0], dtype=np.float32)
    patch = scaleout.make_patch(out, None, send_initial=False)
    whole = scaleout.stitch([patch])
    assert same_bits(whole, out) and patch.box == (slice(1, 3),)


def test_overlapping_boxes_keep_each_chunks_own_elements():
    """A chunk of a 1-D grid over 2-D tiles (gemm's) can end inside a row of tiles: the
    boxes of two chunks overlap, and each must keep only the elements it wrote."""
    first = np.array([[1.0, 2.0], [3.0, 0.0]], dtype=np.float32)
    second = np.array([[0.0, 0.0], [0.0, 4.0]], dtype=np.float32)
    patches = [scaleout.make_patch(a, None, send_initial=False) for a in (first, second)]
    assert patches[0].box == (slice(0, 2), slice(0, 2)) and patches[0].written is not None
    assert same_bits(scaleout.stitch(patches), first + second)
    assert same_bits(scaleout.stitch(patches[::-1]), first + second)


def test_inputs_already_on_the_workers(modules, client):
    """INPUT arrays given as futures (scattered once) stay on the workers across runs."""
    module = modules["softmax_rows"]
    _, (r, x) = problem(module, "softmax_rows", UNEVEN["softmax_rows"])
    resident = client.scatter(x, broadcast=True)
    one = module.run(r, x, device="cpu")
    for _ in range(2):
        assert same_bits(scaleout.run(module, r, resident, client=client, device="cpu"), one)


def module_from_text(tmp_path, name: str, text: str):
    analysis = driver.front_end(driver.SourceFile(f"{name}.bas", text), Options())
    path = tmp_path / f"{name}.py"
    path.write_text(driver.generate(analysis, "cutile", None, True, None))
    spec = importlib.util.spec_from_file_location(f"dist_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def boxes(footprints):
    return [
        {i: tuple((s.start, s.stop) for s in box) for i, (box, *_) in chunk.items()}
        for chunk in footprints
    ]


def test_gemm_chunks_receive_their_rows_of_a_and_all_of_b(modules):
    """gemm's 1-D grid in 3 chunks of block rows (TM = BID / NT): each chunk is sent the
    128-row panel of A its C blocks load, and B whole (scattered once per worker)."""
    module = modules["gemm"]
    _, args = problem(module, "gemm", {"M": 3 * 128, "N": 2 * 128, "K": 40})
    assert boxes(scaleout.input_footprints(module, args, 3)) == [
        {3: ((0, 128), (0, 40))},
        {3: ((128, 256), (0, 40))},
        {3: ((256, 384), (0, 40))},
    ]


def test_hgemm_2d_chunks_receive_a_rows_and_b_columns(modules, client):
    """A 2-D grid in (2, 2) boxes: each box is sent its panel of A rows (BID(0)) and its
    panel of B columns (BID(1))."""
    module = modules["hgemm"]
    _, args = problem(module, "hgemm", {"M": 4 * 64, "N": 2 * 64 + 3, "K": 40})
    assert boxes(scaleout.input_footprints(module, args, (2, 2))) == [
        {3: ((0, 128), (0, 40)), 4: ((0, 40), (0, 128))},  # 3 block columns: 2 + 1
        {3: ((0, 128), (0, 40)), 4: ((0, 40), (128, 131))},
        {3: ((128, 256), (0, 40)), 4: ((0, 40), (0, 128))},
        {3: ((128, 256), (0, 40)), 4: ((0, 40), (128, 131))},
    ]
    one = module.run(*args, device="cpu")
    assert same_bits(scaleout.run(module, *args, client=client, device="cpu", parts=(2, 2)), one)


def test_a_chunk_reading_its_neighbours_tile_receives_it_too(tmp_path, client):
    text = (
        "10 INPUT N, A()\n20 DIM A(N + 4), C(N)\n30 TILE A(4), C(4)\n"
        "40 LET C(BID) = A(BID) + A(BID + 1)\n50 OUTPUT C\n60 END\n"
    )
    module = module_from_text(tmp_path, "neighbour", text)
    a = np.arange(1, 27, dtype=np.float32)  # 22 + 4: the last block's neighbour exists
    assert boxes(scaleout.input_footprints(module, [22, a], 2)) == [
        {1: ((0, 16),)},
        {1: ((12, 26),)},
    ]
    want = module.run(22, a, device="cpu")
    assert same_bits(scaleout.run(module, 22, a, client=client, device="cpu", parts=2), want)


def test_an_index_it_cannot_bound_sends_the_array_whole(tmp_path, client):
    """A tile index changed in a loop is not bounded (the analysis does not iterate): A
    goes whole to every worker; an array no block loads (J) is not sent at all."""
    text = (
        "10 INPUT N, A(), J()\n20 DIM A(N), J(N) AS I32, C(N)\n30 TILE A(4), C(4)\n"
        "40 LET T = BID\n50 FOR I = 1 TO 2\n60 LET T = T * 1\n70 NEXT I\n"
        "80 LET C(BID) = A(T)\n90 OUTPUT C\n100 END\n"
    )
    module = module_from_text(tmp_path, "unbounded", text)
    args = [16, np.arange(16, dtype=np.float32), np.zeros(16, np.int32)]
    assert boxes(scaleout.input_footprints(module, args, 2)) == [
        {2: ((16, 16),)},
        {2: ((16, 16),)},
    ]
    want = module.run(*args, device="cpu")
    assert same_bits(scaleout.run(module, *args, client=client, device="cpu", parts=2), want)


def test_a_chunk_launches_only_its_own_blocks(modules):
    """One chunk alone writes only its tiles: the block offset is applied, not the whole
    grid run by every worker."""
    module = modules["vector_add"]
    _, args = problem(module, "vector_add", {"N": 3 * 1024})
    source = Path(module.__file__).read_text()
    (patch,) = scaleout.run_chunk("vector_add", source, 3, (1, 0, 0), "cpu", None, args)
    assert patch.box == (slice(1024, 2048),)
    n, a, b = args
    assert same_bits(patch.values, a[1024:2048] + b[1024:2048])


def test_offset_kernel_adds_the_first_block_to_every_bid(modules):
    text = scaleout.offset_source(modules["hgemm"].hgemm)
    assert "ct.bid(0) + b2t_bid0_x" in text and "ct.bid(1) + b2t_bid0_y" in text
    assert text.splitlines()[1].startswith("def hgemm(b2t_bid0_x, b2t_bid0_y, b2t_bid0_z,")


def test_loads_of_a_part_shift_by_its_first_element_in_tiles(modules):
    text = scaleout.offset_source(modules["gemm"].gemm, {"a": 2})
    assert "ct.load(a, index=(tm - b2t_a_at0 // 128, kt - b2t_a_at1 // 32)" in text
    assert "b2t_bid0_z, b2t_a_at0, b2t_a_at1, n, k, a, b, c)" in text
    assert "ct.load(b, index=(kt, tn)" in text


def test_a_worker_holds_only_the_rows_of_a_its_blocks_load(modules, monkeypatch):
    """The chunk's kernel runs on A's row panel alone (a Part), not on a rebuilt A."""
    launched = []
    real = scaleout.offset_kernel
    monkeypatch.setattr(
        scaleout,
        "offset_kernel",
        lambda k, shifted=None: launched.append(shifted) or real(k, shifted),
    )
    module = modules["gemm"]
    _, (m, n, k, a, b) = problem(module, "gemm", {"M": 3 * 128, "N": 128, "K": 40})
    piece = {"b2t_piece": (a.shape, a.dtype.str, (slice(128, 256), slice(0, 40)))}
    piece.update(values=a[128:256].copy(), shift=True)
    source = Path(module.__file__).read_text()
    (patch,) = scaleout.run_chunk("gemm", source, 3, (1, 0, 0), "cpu", None, [m, n, k, piece, b])
    assert patch.box == (slice(128, 256), slice(0, 128))
    assert same_bits(patch.values, module.run(m, n, k, a, b, device="cpu")[128:256])
    assert launched == [{"a": 2}]


def test_chunks_cover_the_grid_once():
    for count in range(0, 12):
        for parts in range(1, 5):
            ranges = [scaleout.split_range(count, parts, i) for i in range(parts)]
            assert ranges[0][0] == 0 and ranges[-1][1] == count
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
            sizes = [hi - lo for lo, hi in ranges]
            assert max(sizes) - min(sizes) <= 1


def test_bad_requests_are_one_line_errors(modules, client):
    module = modules["dot_blocks"]
    _, args = problem(module, "dot_blocks")
    with pytest.raises(DeviceError, match="not an OUTPUT array: Q"):
        scaleout.run(module, *args, client=client, reduce={"Q": "sum"})
    with pytest.raises(DeviceError, match="no reduction 'max'"):
        scaleout.run(module, *args, client=client, reduce={"P": "max"})
    with pytest.raises(DeviceError, match="parts must be 1 or more"):
        scaleout.run(module, *args, client=client, parts=0)


def test_command_line_splits_across_worker_processes(tmp_path):
    """`basic2tile prog.bas --run --workers 2 --device cpu`: a local cluster of two worker
    processes, and the self-test's report as on one device."""
    prog = ROOT / "examples" / "kernels" / "matrix_add_2d.bas"
    cmd = [sys.executable, "-m", "transpiler", str(prog), "--run", "--device", "cpu"]
    one = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    many = subprocess.run(
        cmd + ["--workers", "2"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert one.returncode == 0 and many.returncode == 0, many.stderr
    assert many.stdout == one.stdout
    assert "split across 2 Dask worker(s)" in many.stderr


def test_command_line_refuses_workers_without_run():
    prog = ROOT / "examples" / "kernels" / "vector_add.bas"
    done = subprocess.run(
        [sys.executable, "-m", "transpiler", str(prog), "--workers", "2"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "--workers and --scheduler split the kernel program of --run" in done.stderr
