"""How the CUDA lowering computes each matrix product (Mma: `a @ b + acc` on 2-D tiles).

- Tensor cores (WMMA) when the inputs are f16/bf16 (m16n16k16, f32 accumulation), tf32
  (m16n16k8, f32 operands already rounded to TensorFloat-32: `--precision tf32`) or f64
  (m8n8k4) and the tile shapes are multiples of the fragment shape: the warps share the
  result's tiles of the fragment's shape.
- Otherwise a SIMT product.  When every thread can hold elements of one column (the
  threads divide into whole columns), it reads B's element of its column once per k for
  all its rows, and A's four (f32) or two (f64) consecutive k of a row with one 16-byte
  shared load when k allows.
- A FOR loop whose body is only `ACC = MMA(a, b, ACC)` with tensor-core shapes, a and b
  not reading ACC (a GEMM main loop), keeps the accumulator in WMMA fragments for the
  whole loop.
"""

from __future__ import annotations

from ...ir import kernel as ir
from ...ir.cuda_plan import Fragment, ProductPlan

# Elements per 16-byte shared-memory load in the SIMT product's k loop.
VECTOR = {"f32": 4, "tf32": 4, "f64": 2}


def fragment_shape(e: ir.Mma) -> Fragment | None:
    """The WMMA shape for `e`, or None for the SIMT product."""
    (m, k), (_, n) = e.a.type.shape, e.b.type.shape
    dtype, acc = e.a.type.dtype, e.type.dtype
    if dtype != e.b.type.dtype:
        return None
    if dtype in ("f16", "bf16") and acc == "f32":
        frag = Fragment(16, 16, 16, dtype, acc)
    elif dtype == "tf32" and acc == "f32":
        frag = Fragment(16, 16, 8, dtype, acc)
    elif dtype == "f64" and acc == "f64":
        frag = Fragment(8, 8, 4, dtype, acc)
    else:
        return None
    if m % frag.m or n % frag.n or k % frag.k:
        return None
    return frag


def plan_product(e: ir.Mma, threads: int) -> ProductPlan:
    (m, k), (_, n) = e.a.type.shape, e.b.type.shape
    frag = fragment_shape(e)
    if frag is not None:
        tiles = (m // frag.m) * (n // frag.n)
        return ProductPlan(frag, align=32, tiles=tiles, warps=threads // 32)
    vector = VECTOR.get(e.a.type.dtype, 1)
    return ProductPlan(
        None,
        align=16,
        column_per_thread=(m * n) % threads == 0 and threads % n == 0,
        rows_apart=threads // n,
        vector=vector if k % vector == 0 else 1,
    )


def accumulation_loops(kernel: ir.Kernel) -> set[ir.ForRange]:
    """The GEMM main loops of `kernel`."""
    return {s for s in ir.statements(kernel.body) if isinstance(s, ir.ForRange) and _accumulates(s)}


def _accumulates(s: ir.ForRange) -> bool:
    if len(s.body) != 1 or not isinstance(s.body[0], ir.Let):
        return False
    let = s.body[0]
    e = let.value
    if not isinstance(e, ir.Mma) or fragment_shape(e) is None:
        return False
    if not (isinstance(e.acc, ir.Local) and e.acc.name == let.name):
        return False
    return not any(
        isinstance(n, ir.Local) and n.name == let.name for x in (e.a, e.b) for n in ir.walk(x)
    )
