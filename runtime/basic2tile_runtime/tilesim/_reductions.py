"""Reductions (sum, prod, max, min, argmax, argmin) and scans (cumsum, cumprod).

As in cuda/tile/_ir/ops.py: booleans are reduced as int32, the result keeps the input dtype
(integer sums wrap), and float max/min ignore NaN unless `propagate_nan=True`.
Batched tiles (`_batch.py`) reduce along the axes after their batch axis.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes as dt
from ._batch import per_block
from ._constants import normalize_axis, require_constant_bool
from ._elementwise import _check_rounding, _flush_subnormals, astype, make_tile
from ._errors import TileTypeError
from ._shape_ops import as_tile
from ._tile import Tile


def _axes(axis, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise TileTypeError(f"Repeated axis in {axis}")
        return axes
    return (normalize_axis(axis, ndim),)


def _prepare(x, op: str) -> Tile:
    x = as_tile(x)
    if x.dtype.restricted:
        raise TileTypeError(f"Non-arithmetic dtype {x.dtype} is unsupported for reduction")
    if x.dtype.is_bool:
        x = astype(x, dt.int32)
    return x


def _reduce(op: str, ufunc, x, axis, keepdims, *, rounding_mode=None, flush_to_zero=False):
    x = _prepare(x, op)
    keepdims = require_constant_bool(keepdims, "keepdims")
    _check_rounding(rounding_mode, flush_to_zero, x.dtype, op)
    axes = _axes(axis, x.ndim)
    values = _flush_subnormals(x._raw) if flush_to_zero else x._raw
    with np.errstate(all="ignore"):
        if not x._batched:
            result = ufunc(values, axes, keepdims)
        elif x.dtype.is_float:  # float results depend on NumPy's order: keep each block's
            result = per_block(values, lambda v: ufunc(v, axes, keepdims))
        else:
            result = ufunc(values, tuple(a + 1 for a in axes), keepdims)
    result = np.asarray(result, dtype=x.dtype.storage)
    if flush_to_zero:
        result = _flush_subnormals(result)
    return make_tile(result, x.dtype, x._batched)


def sum(x, /, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False) -> Tile:
    return _reduce(
        "sum",
        lambda v, a, k: np.add.reduce(v, axis=a, keepdims=k, dtype=v.dtype),
        x,
        axis,
        keepdims,
        rounding_mode=rounding_mode,
        flush_to_zero=flush_to_zero,
    )


def prod(x, /, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False) -> Tile:
    return _reduce(
        "prod",
        lambda v, a, k: np.multiply.reduce(v, axis=a, keepdims=k, dtype=v.dtype),
        x,
        axis,
        keepdims,
        rounding_mode=rounding_mode,
        flush_to_zero=flush_to_zero,
    )


def _extreme(nan_ignoring, nan_propagating, identity_is_low: bool, propagate_nan: bool):
    def reduce(v, axes, keepdims):
        if v.dtype.kind != "f":
            return nan_propagating.reduce(v, axis=axes, keepdims=keepdims)
        # The GPU starts from the identity (-inf for max), so an all-NaN max is -inf.
        identity = -np.inf if identity_is_low else np.inf
        ufunc = nan_propagating if propagate_nan else nan_ignoring
        return ufunc.reduce(v, axis=axes, keepdims=keepdims, initial=identity)

    return reduce


def max(x, /, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False) -> Tile:
    propagate_nan = require_constant_bool(propagate_nan, "propagate_nan")
    reduce = _extreme(np.fmax, np.maximum, True, propagate_nan)
    return _reduce("max", reduce, x, axis, keepdims, flush_to_zero=flush_to_zero)


def min(x, /, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False) -> Tile:
    propagate_nan = require_constant_bool(propagate_nan, "propagate_nan")
    reduce = _extreme(np.fmin, np.minimum, False, propagate_nan)
    return _reduce("min", reduce, x, axis, keepdims, flush_to_zero=flush_to_zero)


def _arg_extreme(x, axis, keepdims, propagate_nan: bool, largest: bool) -> Tile:
    x = _prepare(x, "argmax" if largest else "argmin")
    keepdims = require_constant_bool(keepdims, "keepdims")
    if isinstance(axis, tuple):
        raise TileTypeError("Reduction over a tuple of axes is not supported for argmax/argmin")
    final_shape = None
    values = x._raw
    lead = values.shape[:1] if x._batched else ()
    if axis is None:
        if keepdims:
            final_shape = lead + (1,) * x.ndim
        values, axis, keepdims = values.reshape(lead + (-1,)), 0, False
    else:
        axis = normalize_axis(axis, x.ndim)
    axis += x._batched
    if values.dtype.kind == "f":
        nan = np.isnan(values)
        filled = np.where(nan, -np.inf if largest else np.inf, values)
        best = (np.max if largest else np.min)(filled, axis=axis, keepdims=True)
        winners = (filled == best) & ~nan
        if propagate_nan:
            # NaN counts as the best value: a row holding NaN picks its first NaN.
            winners = np.where(nan.any(axis=axis, keepdims=True), nan, winners)
        # The first winner; a row of NaNs only (NaN ignored) picks 0, like the GPU's tie-break.
        index = np.argmax(winners, axis=axis)
    else:
        index = (np.argmax if largest else np.argmin)(values, axis=axis)
    index = np.asarray(index, dtype=np.int32)
    if keepdims:
        index = np.expand_dims(index, axis)
    if final_shape is not None:
        index = index.reshape(final_shape)
    return Tile(index, dt.int32, x._batched)


def argmax(x, /, axis=None, *, keepdims=False, propagate_nan=False) -> Tile:
    return _arg_extreme(
        x, axis, keepdims, require_constant_bool(propagate_nan, "propagate_nan"), True
    )


def argmin(x, /, axis=None, *, keepdims=False, propagate_nan=False) -> Tile:
    return _arg_extreme(
        x, axis, keepdims, require_constant_bool(propagate_nan, "propagate_nan"), False
    )


def _scan(op: str, ufunc, x, axis, reverse, rounding_mode, flush_to_zero) -> Tile:
    x = _prepare(x, op)
    reverse = require_constant_bool(reverse, "reverse")
    _check_rounding(rounding_mode, flush_to_zero, x.dtype, op)
    axis = normalize_axis(axis, x.ndim) + x._batched
    values = _flush_subnormals(x._raw) if flush_to_zero else x._raw
    if reverse:
        values = np.flip(values, axis)
    with np.errstate(all="ignore"):
        result = ufunc.accumulate(values, axis=axis, dtype=values.dtype)
    if reverse:
        result = np.flip(result, axis)
    if flush_to_zero:
        result = _flush_subnormals(result)
    return make_tile(np.array(result, order="C"), x.dtype, x._batched)


def cumsum(x, /, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False) -> Tile:
    return _scan("cumsum", np.add, x, axis, reverse, rounding_mode, flush_to_zero)


def cumprod(x, /, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False) -> Tile:
    return _scan("cumprod", np.multiply, x, axis, reverse, rounding_mode, flush_to_zero)


def scan(x, /, axis, func, identity, *, reverse=False):
    """A custom inclusive scan: `func` combines the running value (the first N
    arguments, for a tuple of N tiles) with the next element (the last N), in order
    along `axis`, from `identity`.  The GPU may group the steps differently; `func`
    must be associative for the result not to depend on it (cuTile's rule too)."""
    single = not isinstance(x, tuple)
    tiles = [as_tile(t) for t in ((x,) if single else x)]
    identities = (identity,) if single else identity
    if not isinstance(identities, tuple) or len(identities) != len(tiles):
        raise TileTypeError("scan needs one identity value per tile")
    reverse = require_constant_bool(reverse, "reverse")
    batched = any(t._batched for t in tiles)
    raws = np.broadcast_arrays(*(_lift(t, batched, tiles) for t in tiles))
    axis = normalize_axis(axis, raws[0].ndim - batched) + batched
    steps = range(raws[0].shape[axis])
    state = [
        make_tile(
            np.full(np.delete(raws[0].shape, axis), value, dtype=t.dtype.storage), t.dtype, batched
        )
        for value, t in zip(identities, tiles)
    ]
    out = [np.empty_like(r) for r in raws]
    for k in reversed(steps) if reverse else steps:
        elements = [make_tile(np.take(r, k, axis), t.dtype, batched) for r, t in zip(raws, tiles)]
        combined = func(*state, *elements)
        state = [as_tile(c) for c in ((combined,) if single else combined)]
        for o, s in zip(out, state):
            index = [slice(None)] * o.ndim
            index[axis] = k
            o[tuple(index)] = s._raw
    result = [make_tile(o, t.dtype, batched) for o, t in zip(out, tiles)]
    return result[0] if single else tuple(result)


def _lift(t: Tile, batched: bool, tiles: list[Tile]) -> np.ndarray:
    """The tile's values with a batch axis when the scan is batched."""
    if t._batched or not batched:
        return t._raw
    blocks = next(u._raw.shape[0] for u in tiles if u._batched)
    return np.broadcast_to(t._raw, (blocks, *t._raw.shape))
