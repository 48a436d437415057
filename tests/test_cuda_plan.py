"""The CUDA lowering's decisions are made by passes, before printing
(passes/kernel/cuda_plan.py into `Kernel.cuda`), for every kernel the compiler makes:
the CUDA printer reads them and lays out text (tests/test_cuda_kernels.py checks what it
prints; tests/test_golden.py that moving the decisions changed no generated line)."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from transpiler import driver
from transpiler.errors import BasicUnsupportedError, SourceFile
from transpiler.ir.cuda_plan import AxisGroups, Fragment
from transpiler.options import Options

POLYBENCH_FOURTH = EXAMPLES.parent / "tests" / "polybench_fourth"


def _kernels(path, precision=None):
    analysis = driver.front_end(SourceFile.read(path), Options(precision=precision))
    if analysis.kind == "kernel":
        return analysis, [driver.kernel_library(analysis).kernel]
    return analysis, driver.host_program(analysis).kernels


def test_a_kernel_program_is_planned_with_its_tensor_core_main_loop():
    _, [kernel] = _kernels(EXAMPLES / "kernels" / "hgemm.bas")
    plan = kernel.cuda
    assert plan.threads == 256 and plan.unsupported is None
    [product] = plan.products.values()
    assert product.fragment == Fragment(16, 16, 16, "f16", "f32")
    assert (product.tiles, product.warps) == (16, 8)  # a 64 x 64 result, 8 warps
    assert len(plan.accumulation_loops) == 1


def test_an_f32_product_is_a_simt_product_reading_four_k_at_a_time():
    _, [kernel] = _kernels(EXAMPLES / "kernels" / "gemm.bas")
    [product] = kernel.cuda.products.values()
    assert product.fragment is None and product.column_per_thread and product.vector == 4
    assert not kernel.cuda.accumulation_loops


def test_a_row_reduction_shares_each_row_between_lanes_of_a_warp():
    _, [kernel] = _kernels(EXAMPLES / "kernels" / "softmax_rows.bas")
    groups = {r.axis for r in kernel.cuda.reductions.values()}
    assert groups == {AxisGroups(group=16, outputs=16, per_round=16, rounds=1)}


def test_offloaded_loops_are_planned_in_the_middle_end():
    _, kernels = _kernels(EXAMPLES / "matmul.bas")
    assert kernels and all(k.cuda is not None and k.cuda.unsupported is None for k in kernels)
    hows = {r.how for k in kernels for r in k.cuda.reductions.values()}
    assert hows == {"any", "block"}  # the lanes' exception flags, the sum


def test_a_kernel_cuda_cannot_print_stops_only_the_cuda_target():
    """f16 atomics have no CUDA translation: the plan keeps the located error, raised when
    the CUDA printer is asked for the kernel; the cuTile target prints the program."""
    path = POLYBENCH_FOURTH / "atax_data.bas"
    analysis, kernels = _kernels(path, "f16")
    assert any(k.cuda.unsupported is not None for k in kernels)
    assert "ct.atomic_add" in driver.generate(analysis, "cutile")
    with pytest.raises(BasicUnsupportedError, match="atomic updates of f16 arrays") as caught:
        driver.generate(analysis, "cuda")
    assert (caught.value.coord.line, caught.value.coord.column) == (15, 25)
