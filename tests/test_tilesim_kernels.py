"""Real `@ct.kernel` kernels shared by the tilesim and AOT-compilation tests (no tests here).

cuTile reads kernel source with `inspect`, so kernels must live in a real file.  They are
written the way basic2tile's generated modules are: `import cuda.tile as ct`, tile sizes as
`ct.Constant[int]` parameters, ragged edges handled with slices and zero padding.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ZERO = ct.PaddingMode.ZERO


@ct.kernel
def vector_add(a, b, c, TILE: ConstInt):
    i = ct.bid(0)
    x = ct.load(a, (i,), (TILE,), padding_mode=ZERO)
    y = ct.load(b, (i,), (TILE,), padding_mode=ZERO)
    ct.store(c, (i,), x + y)


@ct.kernel
def saxpy_slice(x, y, alpha, lo, hi, TILE: ConstInt):
    """y[lo:hi] = alpha * x[lo:hi] + y[lo:hi]; `alpha` arrives as a float32 scalar."""
    i = ct.bid(0)
    xs = ct.load(x.slice(0, lo, hi), (i,), (TILE,), padding_mode=ZERO)
    ys = ct.load(y.slice(0, lo, hi), (i,), (TILE,), padding_mode=ZERO)
    ct.store(y.slice(0, lo, hi), (i,), alpha * xs + ys)


@ct.kernel
def matmul_k_loop(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """C = A @ B with a loop over K; edges are zero-padded so any M, N, K work."""
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc_dtype = ct.float64 if A.dtype == ct.float64 else ct.float32
    acc = ct.zeros((TM, TN), acc_dtype)
    for k in range(ct.num_tiles(A, 1, (TM, TK))):
        a = ct.load(A, (bm, k), (TM, TK), padding_mode=ZERO)
        b = ct.load(B, (k, bn), (TK, TN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, (bm, bn), acc.astype(C.dtype))


@ct.kernel
def row_sums(X, out, TM: ConstInt, TN: ConstInt):
    """out[i] = sum of row i of X, walking the columns tile by tile."""
    bm = ct.bid(0)
    acc = ct.zeros((TM,), ct.float32)
    for j in range(ct.num_tiles(X, 1, (TM, TN))):
        tile = ct.load(X, (bm, j), (TM, TN), padding_mode=ZERO)
        acc = acc + ct.sum(tile, axis=1)
    ct.store(out, (bm,), acc)


@ct.kernel
def atomic_total(x, total, TILE: ConstInt):
    """total[0] += sum(x) from every block: a race without the atomic."""
    part = ct.sum(ct.load(x, (ct.bid(0),), (TILE,), padding_mode=ZERO))
    ct.atomic_add(total, 0, part)


@ct.kernel
def racy_total(x, total, TILE: ConstInt):
    """The same reduction done wrong: every block stores to total[0]."""
    part = ct.sum(ct.load(x, (ct.bid(0),), (TILE,), padding_mode=ZERO))
    ct.store(total, (0,), part.reshape((1,)))


@ct.kernel
def shifted_copy(x, TILE: ConstInt):
    """x[i + 1] = x[i] over tiles: a loop-carried dependence wrongly run in parallel."""
    i = ct.bid(0)
    n = x.shape[0]
    tile = ct.load(x.slice(0, 0, n - 1), (i,), (TILE,), padding_mode=ZERO)
    ct.store(x.slice(0, 1, n), (i,), tile)


@ct.kernel
def gather_scatter_reverse(src, dst, n, TILE: ConstInt):
    """dst[n - 1 - i] = src[i] for i < n, through gather and a masked scatter."""
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    values = ct.gather(src, i, padding_value=-1)
    ct.scatter(dst, n - 1 - i, values, mask=i < n)


@ct.kernel
def load_past_the_end(x, out, TILE: ConstInt):
    """Loads the tile after the last one: wholly outside the array."""
    tile = ct.load(x, (ct.num_tiles(x, 0, (TILE,)),), (TILE,), padding_mode=ZERO)
    ct.store(out, (0,), tile)


@ct.function
def _clamp01(t):
    return ct.minimum(ct.maximum(t, 0.0), 1.0)


@ct.kernel
def clamp_with_helper(x, y, TILE: ConstInt):
    """Calls a `@ct.function` helper, which must be re-bound to the simulator too."""
    i = ct.bid(0)
    ct.store(y, (i,), _clamp01(ct.load(x, (i,), (TILE,), padding_mode=ZERO)))


@ct.kernel
def grid_ids(out):
    """out[z, y, x] = linear block id; checks bid/num_blocks on a 3-D grid."""
    x, y, z = ct.bid(0), ct.bid(1), ct.bid(2)
    nx, ny = ct.num_blocks(0), ct.num_blocks(1)
    ct.store(out, (z, y, x), ct.full((1, 1, 1), x + nx * (y + ny * z), ct.int32))


@ct.kernel
def loop_index_typing(out, STEPS: ConstInt):
    """The induction variable of `range` is an int32 scalar, so `k * 0.1` is float32."""
    acc = ct.zeros((1,), ct.float64)
    for k in range(STEPS):
        acc = acc + k * 0.1
    ct.store(out, (0,), acc)


@ct.kernel
def store_wrong_dtype(x, out, TILE: ConstInt):
    """Stores a float64 tile into a float32 array: cuTile refuses the narrowing cast."""
    tile = ct.load(x, (0,), (TILE,), padding_mode=ZERO)
    ct.store(out, (0,), tile)


@ct.kernel
def huge_tile(out):
    """A 2**25-element tile: cuTile's front end accepts it, tileiras refuses it."""
    ct.store(out, (0,), ct.zeros((1 << 25,), ct.float32))
