"""Where generated programs run their kernels: the GPU (cuda.tile) or the CPU (tilesim).

Generated modules call only this small interface:

    dev = device.select(None)          # "gpu", "cpu", or None: $BASIC2TILE_DEVICE, else GPU if usable
    dev.launch(kernel, grid, args, writes=(y,))
    dev.to_host(y)                     # before host code reads an array a kernel wrote

Host code keeps BASIC arrays as NumPy arrays.  On the GPU each array has a device
mirror; `launch` uploads mirrors whose host copy may have changed and marks the
arrays a kernel writes as newer on the device; `to_host` copies back only when needed,
so arrays stay on the device across consecutive kernels.  On the CPU the kernels run
in place on the NumPy arrays through `transpiler.tilesim`, and the transfers are no-ops.
"""

from __future__ import annotations

import os
import sys
import weakref
from typing import Any, Sequence

import numpy as np

from .runtime.command import DeviceError  # generated programs report it as one line

_ENV = "BASIC2TILE_DEVICE"


def select(device: str | None = None, *, quiet: bool = False) -> "Device":
    """The device to run on; see the module docstring."""
    choice = device or os.environ.get(_ENV) or None
    if choice not in (None, "cpu", "gpu"):
        raise DeviceError(f"device must be 'gpu' or 'cpu', not {choice!r}")
    if choice == "cpu":
        return CpuDevice()
    reason = gpu_unavailable_reason()
    if reason is None:
        return GpuDevice()
    if choice == "gpu":
        raise DeviceError(f"no usable GPU: {reason}")
    if not quiet:
        print(f"basic2tile: no usable GPU ({reason}); running kernels on the CPU", file=sys.stderr)
    return CpuDevice()


def gpu_unavailable_reason() -> str | None:
    """None if cuda.tile can launch kernels here, else a short reason."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return "cuda-bindings is not installed"
    try:
        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"cuInit failed ({err.name})"
        err, count = driver.cuDeviceGetCount()
        if err != driver.CUresult.CUDA_SUCCESS or count == 0:
            return "no CUDA device"
    except Exception as exc:  # libcuda.so missing raises at first call
        return str(exc) or type(exc).__name__
    return None


class Device:
    name = "?"

    def launch(self, kernel, grid: Sequence[int], args: Sequence[Any], writes: Sequence = ()) -> None:
        raise NotImplementedError

    def to_host(self, array: np.ndarray) -> np.ndarray:
        """Make the host copy of `array` current (a no-op on the CPU)."""
        return array

    def array(self, value, shape: tuple[int, ...], dtype, name: str):
        """Convert an argument of a kernel program's run() to an array of this device."""
        raise NotImplementedError

    def zeros(self, shape: tuple[int, ...], dtype):
        raise NotImplementedError

    def result(self, array, like=None):
        """What run() returns for an OUTPUT array."""
        return array

    def synchronize(self) -> None:
        pass


def _grid3(grid: Sequence[int]) -> tuple[int, int, int]:
    g = tuple(int(x) for x in grid) + (1, 1, 1)
    return g[:3]


def _checked_host_array(value, shape, dtype, name) -> np.ndarray:
    arr = np.ascontiguousarray(np.asarray(value), dtype=dtype)
    if arr.shape != tuple(shape):
        raise DeviceError(f"{name} has shape {arr.shape}, but its DIM says {tuple(shape)}")
    return arr


class CpuDevice(Device):
    """Runs kernels block by block on NumPy arrays (transpiler.tilesim)."""

    name = "cpu"

    def launch(self, kernel, grid, args, writes=()):
        from . import tilesim

        if min(grid) > 0:  # a loop that runs zero times launches nothing
            tilesim.launch(None, _grid3(grid), kernel, tuple(args))

    def array(self, value, shape, dtype, name):
        if hasattr(value, "__cuda_array_interface__") or type(value).__module__.startswith("torch"):
            value = _to_numpy(value)
        return _checked_host_array(value, shape, dtype, name)

    def zeros(self, shape, dtype):
        return np.zeros(shape, dtype=dtype)

    def result(self, array, like=None):
        return array


def _to_numpy(value) -> np.ndarray:
    if hasattr(value, "get"):  # CuPy
        return value.get()
    if hasattr(value, "detach"):  # PyTorch
        return value.detach().cpu().numpy()
    return np.asarray(value)


class GpuDevice(Device):
    """Runs kernels with cuda.tile on the GPU; arrays are CuPy arrays."""

    name = "gpu"

    def __init__(self) -> None:
        try:
            import cupy
        except ImportError as exc:  # pragma: no cover - needs a GPU machine
            raise DeviceError("running on the GPU needs CuPy: pip install cupy-cuda13x") from exc
        self._cp = cupy
        # id(host array) -> [device array, device_is_newer, host_may_differ]; an entry
        # goes when its host array does (scalar boxes and scratch arrays are per launch).
        self._mirrors: dict[int, list] = {}

    def _stream(self):
        return self._cp.cuda.get_current_stream()

    def _device_arg(self, arg):
        if not isinstance(arg, np.ndarray):
            return arg
        key = id(arg)
        entry = self._mirrors.get(key)
        if entry is None:
            entry = [self._cp.asarray(arg), False, False]
            self._mirrors[key] = entry
            weakref.finalize(arg, self._mirrors.pop, key, None)
        elif entry[2]:
            entry[0].set(arg)
            entry[2] = False
        return entry[0]

    def launch(self, kernel, grid, args, writes=()):
        import cuda.tile as ct

        if min(grid) <= 0:  # a loop that runs zero times launches nothing
            return
        dev_args = tuple(self._device_arg(a) for a in args)
        ct.launch(self._stream(), _grid3(grid), kernel, dev_args)
        for arr in writes:
            if isinstance(arr, np.ndarray):
                self._mirrors[id(arr)][1] = True

    def to_host(self, array):
        entry = self._mirrors.get(id(array))
        if entry is not None:
            if entry[1]:
                entry[0].get(out=array)
                entry[1] = False
            entry[2] = True  # host code may now change it
        return array

    def array(self, value, shape, dtype, name):
        cp = self._cp
        arr = cp.ascontiguousarray(cp.asarray(value, dtype=dtype))
        if arr.shape != tuple(shape):
            raise DeviceError(f"{name} has shape {arr.shape}, but its DIM says {tuple(shape)}")
        return arr

    def zeros(self, shape, dtype):
        return self._cp.zeros(shape, dtype=dtype)

    def result(self, array, like=None):
        if isinstance(like, np.ndarray) or like is None:
            return self._cp.asnumpy(array)
        return array

    def synchronize(self):
        self._stream().synchronize()
