"""Where generated programs run their kernels: the GPU (cuda.tile) or the CPU (tilesim).

Generated modules call only this small interface:

    dev = device.select(None)          # "gpu", "cpu", or None: $BASIC2TILE_DEVICE, else GPU if usable
    dev.launch(kernel, grid, args, writes=(y,))
    dev.to_host(y)                     # before host code reads an array a kernel wrote

Host code keeps BASIC arrays as NumPy arrays.  On the GPU each array has a device
mirror; `launch` uploads mirrors whose host copy may have changed and marks the
arrays a kernel writes as newer on the device; `to_host` copies back only when needed,
so arrays stay on the device across consecutive kernels.  On the CPU the kernels run
in place on the NumPy arrays through `basic2tile_runtime.tilesim`, and the transfers are
no-ops.
"""

from __future__ import annotations

import os
import sys
import weakref
from typing import Any, Sequence

import numpy as np

from .command import DeviceError  # generated programs report it as one line

_ENV = "BASIC2TILE_DEVICE"


def select(
    device: "str | Device | None" = None, *, quiet: bool = False, stream: Any = None
) -> "Device":
    """The device to run on; see the module docstring.  `stream`: the caller's CUDA
    stream (CuPy, PyTorch, cuda.core) for the GPU's launches; the CPU runs in order."""
    if isinstance(device, Device):  # a device made by the caller (scaleout.ChunkDevice)
        return device
    choice = device or os.environ.get(_ENV) or None
    if choice not in (None, "cpu", "gpu"):
        raise DeviceError(f"device must be 'gpu' or 'cpu', not {choice!r}")
    if choice == "cpu":
        return CpuDevice()
    reason = gpu_unavailable_reason()
    if reason is None:
        gpu = GpuDevice()
        gpu.stream = stream
        return gpu
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
    # run()'s first array argument (None until run() converts one): the results are
    # returned as arrays of its kind (NumPy, CuPy, PyTorch on its torch device).
    caller_array: Any = None
    # The caller's stream (CuPy, PyTorch or cuda.core) that run() launches on, or None.
    stream: Any = None

    @property
    def device_inputs(self) -> bool:
        return self.caller_array is not None and _is_device_array(self.caller_array)

    def launch(
        self, kernel, grid: Sequence[int], args: Sequence[Any], writes: Sequence = ()
    ) -> None:
        raise NotImplementedError

    def to_host(self, array: np.ndarray) -> np.ndarray:
        """Make the host copy of `array` current (a no-op on the CPU)."""
        return array

    @staticmethod
    def integer(value, name: str) -> int:
        """An integer INPUT scalar of run(): a whole number, never a truncation (2.5 for
        an I32 scalar is the caller's mistake, not 2)."""
        number = float(value)
        if not number.is_integer():
            raise DeviceError(f"{name} is an integer INPUT scalar; {value!r} is not a whole number")
        return int(number)

    def array(self, value, shape: tuple[int, ...], dtype, name: str, *, copy: bool = False):
        """An argument of a kernel program's run() as a contiguous array of this device
        with element type `dtype`.  With `copy` (the kernel writes the array) always a new
        array: run() never writes into the caller's data, on either device, whatever its
        type (NVIDIA's runner copies INPUT arrays to the device and OUTPUT arrays back
        into new host arrays)."""
        if self.caller_array is None and hasattr(value, "shape"):
            self.caller_array = value
        _refuse_silent_narrowing(value, dtype, name)
        arr = self._contiguous(_plain(value), dtype, copy)
        if arr.shape != tuple(shape):
            raise DeviceError(f"{name} has shape {arr.shape}, but its DIM says {tuple(shape)}")
        return arr

    def _contiguous(self, value, dtype, copy: bool):
        raise NotImplementedError

    def zeros(self, shape: tuple[int, ...], dtype):
        raise NotImplementedError

    def result(self, array):
        """What run() returns for an OUTPUT array: an array of the kind run() was given
        (a NumPy array when it was given none)."""
        return _like(self.caller_array, array)

    def synchronize(self) -> None:
        pass

    def snapshot(self, array: np.ndarray):
        """A copy of `array`'s current values, taken before a launch whose kernel writes
        it in place; `restore` puts them back when a block met an exception."""
        return array.copy()

    def restore(self, array: np.ndarray, saved) -> None:
        array[...] = saved


def _grid3(grid: Sequence[int]) -> tuple[int, int, int]:
    g = tuple(int(x) for x in grid) + (1, 1, 1)
    return g[:3]


class CpuDevice(Device):
    """Runs kernels block by block on NumPy arrays (basic2tile_runtime.tilesim)."""

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


def _is_torch(value) -> bool:
    return type(value).__module__.startswith("torch")


def _is_cupy(value) -> bool:
    return type(value).__module__.startswith("cupy")


def _is_device_array(value) -> bool:
    """A CuPy array or a PyTorch tensor (on any torch device)."""
    return _is_cupy(value) or _is_torch(value) or hasattr(value, "__cuda_array_interface__")


def _plain(value):
    """A PyTorch tensor of a type NumPy and CuPy lack (bfloat16) as float32, exactly;
    anything else as it is."""
    if _is_torch(value) and str(value.dtype) == "torch.bfloat16":
        return value.float()
    return value


def _to_numpy(value) -> np.ndarray:
    if _is_cupy(value):
        return value.get()
    if _is_torch(value):
        return _plain(value).detach().cpu().numpy()
    return np.asarray(value)


def _refuse_silent_narrowing(value, dtype, name: str) -> None:
    """Warn when run() is given floating-point data wider than the kernel's element type
    (an f64 array for an f32 kernel): its values are rounded, which the caller must know."""
    given = getattr(value, "dtype", None)
    if given is None:
        return
    given = str(given).removeprefix("torch.")
    given = "float32" if given == "bfloat16" else given
    try:
        given_np = np.dtype(given)
    except TypeError:
        return
    if given_np.kind == "f" and given_np.itemsize > np.dtype(dtype).itemsize:
        import warnings

        warnings.warn(
            f"{name} is {given_np.name} data, rounded to the kernel's {np.dtype(dtype).name}: "
            f"pass {np.dtype(dtype).name} data, or translate with --precision f64",
            RuntimeWarning,
            stacklevel=4,
        )


def _like(caller, array):
    """`array` (a NumPy or CuPy array) as an array of the kind of `caller`."""
    if caller is None or isinstance(caller, np.ndarray) or not hasattr(caller, "shape"):
        return _to_numpy(array) if _is_cupy(array) else array
    if _is_torch(caller):
        import torch

        if isinstance(array, np.ndarray):
            return torch.from_numpy(array).to(caller.device)
        return torch.from_dlpack(array)  # CuPy -> PyTorch, on the GPU, no copy
    if _is_cupy(caller):
        import cupy

        return cupy.asarray(array)
    return array


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
        ct.launch(self.stream or self._stream(), _grid3(grid), kernel, dev_args)
        for arr in writes:
            if isinstance(arr, np.ndarray):
                self._mirrors[id(arr)][1] = True

    def snapshot(self, array):
        return self._device_arg(array).copy()

    def restore(self, array, saved):
        entry = self._mirrors[id(array)]
        entry[0][...] = saved
        entry[1], entry[2] = True, False  # newer on the device: to_host copies it back

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
        if _is_torch(value):
            value = cp.from_dlpack(value.detach()) if value.is_cuda else value.numpy()
        if copy:
            return cp.array(value, dtype=dtype, order="C", copy=True)
        return cp.ascontiguousarray(cp.asarray(value, dtype=dtype))

    def zeros(self, shape, dtype):
        return self._cp.zeros(shape, dtype=dtype)

    def result(self, array):
        if self.device_inputs:
            return _like(self.caller_array, array)
        if self.stream is not None:
            self.stream.synchronize()  # asnumpy waits for CuPy's current stream only
        return self._cp.asnumpy(array)

    def synchronize(self):
        (self.stream or self._stream()).synchronize()
