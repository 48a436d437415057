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
    # Whether run()'s first array argument lives on a GPU (CuPy, PyTorch): results are
    # returned the same way; None until run() converts an argument.
    device_inputs: bool | None = None

    def launch(self, kernel, grid: Sequence[int], args: Sequence[Any], writes: Sequence = ()) -> None:
        raise NotImplementedError

    def to_host(self, array: np.ndarray) -> np.ndarray:
        """Make the host copy of `array` current (a no-op on the CPU)."""
        return array

    def array(self, value, shape: tuple[int, ...], dtype, name: str, *, copy: bool = False):
        """An argument of a kernel program's run() as a contiguous array of this device
        with element type `dtype`.  With `copy` (the kernel writes the array) always a new
        array: run() never writes into the caller's data, on either device, whatever its
        type (NVIDIA's runner copies INPUT arrays to the device and OUTPUT arrays back
        into new host arrays)."""
        if self.device_inputs is None:
            self.device_inputs = _is_device_array(value)
        arr = self._contiguous(value, dtype, copy)
        if arr.shape != tuple(shape):
            raise DeviceError(f"{name} has shape {arr.shape}, but its DIM says {tuple(shape)}")
        return arr

    def _contiguous(self, value, dtype, copy: bool):
        raise NotImplementedError

    def zeros(self, shape: tuple[int, ...], dtype):
        raise NotImplementedError

    def result(self, array):
        """What run() returns for an OUTPUT array: a NumPy array, or a device array where
        run() was given device arrays."""
        return array

    def synchronize(self) -> None:
        pass


def _grid3(grid: Sequence[int]) -> tuple[int, int, int]:
    g = tuple(int(x) for x in grid) + (1, 1, 1)
    return g[:3]


class CpuDevice(Device):
    """Runs kernels block by block on NumPy arrays (transpiler.tilesim)."""

    name = "cpu"

    def launch(self, kernel, grid, args, writes=()):
        from . import tilesim

        if min(grid) > 0:  # a loop that runs zero times launches nothing
            tilesim.launch(None, _grid3(grid), kernel, tuple(args))

    def _contiguous(self, value, dtype, copy):
        if _is_device_array(value):
            value = _to_numpy(value)
        if copy:
            return np.array(value, dtype=dtype, order="C", copy=True)
        return np.ascontiguousarray(np.asarray(value), dtype=dtype)

    def zeros(self, shape, dtype):
        return np.zeros(shape, dtype=dtype)



def _is_device_array(value) -> bool:
    return hasattr(value, "__cuda_array_interface__") or type(value).__module__.startswith("torch")


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

    def _contiguous(self, value, dtype, copy):
        cp = self._cp
        if copy:
            return cp.array(value, dtype=dtype, order="C", copy=True)
        return cp.ascontiguousarray(cp.asarray(value, dtype=dtype))

    def zeros(self, shape, dtype):
        return self._cp.zeros(shape, dtype=dtype)

    def result(self, array):
        return array if self.device_inputs else self._cp.asnumpy(array)

    def synchronize(self):
        self._stream().synchronize()
