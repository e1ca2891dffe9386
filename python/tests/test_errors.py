"""Bad arguments raise TypeError or ValueError naming the parameter; the library's other
failures raise fastmedian.Error subclasses."""
import numpy as np
import pytest

import fastmedian

IMAGE = np.zeros((8, 9), np.uint16)
STACK = np.zeros((2, 8, 9), np.float32)


@pytest.mark.parametrize("image,kwargs,error,names", [
    (IMAGE.astype(np.float64), {"size": 3}, TypeError, "image"),
    (IMAGE.astype(np.int16), {"size": 3}, TypeError, "image"),
    (IMAGE.astype(">u2"), {"size": 3}, TypeError, "image"),
    ([[1, 2], [3, 4]], {"size": 3}, TypeError, "image"),  # a list of ints becomes int64
    (np.zeros(5, np.uint8), {"size": 3}, ValueError, "image"),
    (np.zeros((2, 2, 2, 2), np.uint8), {"size": 3}, ValueError, "image"),
    (np.zeros((0, 4), np.uint8), {"size": 3}, ValueError, "image"),
    (IMAGE, {}, ValueError, "size"),
    (IMAGE, {"size": 3, "radius": 1}, ValueError, "radius"),
    (IMAGE, {"size": 4}, ValueError, "size"),
    (IMAGE, {"size": 0}, ValueError, "size"),
    (IMAGE, {"size": 1025}, ValueError, "size"),
    (IMAGE, {"size": 3.0}, TypeError, "size"),
    (IMAGE, {"size": True}, TypeError, "size"),
    (IMAGE, {"size": (3, 5)}, ValueError, "size"),
    (IMAGE, {"size": (1, 3, 3)}, ValueError, "size"),
    (STACK, {"size": 3}, ValueError, "size=(1, 3, 3)"),
    (STACK, {"size": (3, 3, 3)}, ValueError, "size"),
    (STACK, {"size": (1, 3)}, ValueError, "size"),
    (IMAGE, {"radius": -1}, ValueError, "radius"),
    (IMAGE, {"radius": float("nan")}, ValueError, "radius"),
    (IMAGE, {"radius": 600}, ValueError, "radius"),
    (IMAGE, {"radius": "2"}, TypeError, "radius"),
    (IMAGE, {"size": 3, "mode": "grid-wrap"}, ValueError, "mode"),
    (IMAGE, {"size": 3, "mode": None}, ValueError, "mode"),
    (IMAGE, {"size": 3, "cval": "0"}, TypeError, "cval"),
    (IMAGE, {"size": 3, "mode": "constant", "cval": float("inf")}, ValueError, "cval"),
    (IMAGE, {"size": 3, "backend": "gpu"}, ValueError, "backend"),
    (IMAGE, {"size": 3, "device": -1}, ValueError, "device"),
    (IMAGE, {"size": 3, "device": 0.5}, TypeError, "device"),
])
def test_bad_arguments_name_the_parameter(image, kwargs, error, names):
    with pytest.raises(error, match=names.replace("(", r"\(").replace(")", r"\)")):
        fastmedian.median_filter(image, **kwargs)


def test_missing_cuda_device_raises_backend_unavailable():
    missing = len(fastmedian.devices())
    with pytest.raises(fastmedian.BackendUnavailableError, match="cuda"):
        fastmedian.median_filter(IMAGE, size=3, backend="cuda", device=missing)


def test_auto_falls_back_to_the_cpu_for_a_missing_device():
    got = fastmedian.median_filter(IMAGE + 1, size=3, device=len(fastmedian.devices()))
    assert (got == 1).all()


def test_error_classes():
    for cls in (fastmedian.BackendUnavailableError, fastmedian.DeviceError,
                fastmedian.UnsupportedError):
        assert issubclass(cls, fastmedian.Error)
    assert issubclass(fastmedian.Error, RuntimeError)


def test_version_and_devices():
    assert fastmedian.__version__.count(".") == 2
    reason = fastmedian.cuda_unavailable_reason()
    assert (reason == "") == bool(fastmedian.devices()), reason
