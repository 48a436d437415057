"""Device selection and the GPU device's host/device mirror bookkeeping, with a fake
CuPy (no GPU here): arrays are uploaded once, downloaded only when a kernel wrote them,
re-uploaded after host code may have changed them, and per-launch boxes do not pile up."""

import gc
import sys
import types

import numpy as np
import pytest

from transpiler import device


class _FakeDeviceArray:
    uploads = 0

    def __init__(self, host):
        _FakeDeviceArray.uploads += 1
        self.data = np.array(host)

    def set(self, host):
        _FakeDeviceArray.uploads += 1
        self.data[...] = host

    def get(self, out):
        out[...] = self.data


@pytest.fixture
def gpu(monkeypatch):
    fake = types.ModuleType("cupy")
    fake.asarray = _FakeDeviceArray
    monkeypatch.setitem(sys.modules, "cupy", fake)
    _FakeDeviceArray.uploads = 0
    return device.GpuDevice()


def test_an_array_is_uploaded_once_while_the_host_does_not_touch_it(gpu):
    x = np.arange(4.0)
    first = gpu._device_arg(x)
    assert gpu._device_arg(x) is first
    assert _FakeDeviceArray.uploads == 1


def test_kernel_results_come_back_and_host_changes_go_out(gpu):
    x = np.arange(4.0)
    on_device = gpu._device_arg(x)
    on_device.data[:] = 7.0  # what a kernel that writes x would do
    gpu._mirrors[id(x)][1] = True
    gpu.to_host(x)
    assert x.tolist() == [7.0] * 4
    x[0] = 1.0  # host code after to_host
    assert gpu._device_arg(x).data[0] == 1.0


def test_per_launch_boxes_do_not_accumulate(gpu):
    for i in range(100):
        gpu._device_arg(np.array([float(i)]))
    gc.collect()
    assert gpu._mirrors == {}


def test_unknown_device_name_is_an_error():
    with pytest.raises(device.DeviceError):
        device.select("tpu", quiet=True)
