"""Bad arguments raise TypeError or ValueError naming the parameter; the library's other
failures raise fastmedian.Error subclasses."""
import numpy as np
import pytest

import fastmedian

IMAGE = np.zeros((8, 9), np.uint16)
STACK = np.zeros((2, 8, 9), np.float32)


@pytest.mark.parametrize("image,kwargs,error,names", [
    (IMAGE.astype(np.complex128), {"size": 3}, TypeError, "image"),
    (IMAGE.astype(np.longdouble), {"size": 3}, TypeError, "image"),
    (IMAGE.astype(object), {"size": 3}, TypeError, "image"),
    (IMAGE.astype(">u2"), {"size": 3}, TypeError, "image"),
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
    (IMAGE, {"size": (3,)}, ValueError, "size for a 2D image must be k or (k, k)"),  # as scipy
    (IMAGE, {"size": [3]}, ValueError, "size for a 2D image must be k or (k, k)"),
    (STACK, {"size": 3}, ValueError, "size=(1, 3, 3)"),
    (STACK, {"size": (1, 3)}, ValueError, "size"),
    (STACK, {"size": (3, 4, 3)}, ValueError, "size for the 3D median must have odd sides"),
    (STACK, {"size": (3, 3, 257)}, ValueError, "size for the 3D median"),
    (STACK, {"size": (0, 3, 3)}, ValueError, "size for the 3D median"),
    (STACK, {"size": (3, 3.0, 3)}, TypeError, "size"),
    (STACK, {"size": (103, 103, 103)}, ValueError, "size=(103, 103, 103): window has"),
    (STACK, {"size": (3, 3, 3, 3)}, ValueError, "size for a 3D stack"),
    (IMAGE, {"radius": (1, 1, 1)}, TypeError, "radius"),
    (STACK, {"radius": (1, 1)}, ValueError, "radius for a 3D stack"),
    (STACK, {"radius": (1, "1", 1)}, TypeError, "radius"),
    (STACK, {"radius": (1, True, 1)}, TypeError, "radius"),
    (STACK, {"radius": (1, -1, 1)}, ValueError, "radius for the 3D median"),
    (STACK, {"radius": (1, 1, float("nan"))}, ValueError, "radius for the 3D median"),
    (STACK, {"radius": (128, 1, 1)}, ValueError, "radius for the 3D median"),
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
    (IMAGE, {"size": 3, "device": 2**31}, ValueError, "device must be in 0..2147483647"),
    (IMAGE, {"size": 3, "device": [0, 2**63]}, ValueError, "device must be in 0..2147483647"),
    (STACK, {"size": (3, 3, 3), "device": 2**31}, ValueError, "device must be in 0..2147483647"),
    (IMAGE, {"size": 3, "device": []}, ValueError, "device must be a CUDA device index or a"),
    (IMAGE, {"size": 3, "device": (0, -2)}, ValueError, "device must be in 0..2147483647, got -2"),
    (IMAGE, {"size": 3, "device": [0, "1"]}, TypeError, "device"),
    (IMAGE, {"size": 3, "device": (1, 1)}, ValueError, "devices lists device 1 twice"),
    (STACK, {"size": (3, 3, 3), "device": (0, 1)}, ValueError,
     "device: the 3D median runs on one CUDA device"),
    (IMAGE, {"size": 3, "output": [[0]]}, TypeError, "output must be a NumPy array"),
    (IMAGE, {"size": 3, "output": np.zeros((8, 9), np.uint8)}, TypeError,
     "output must have the image's dtype uint16"),
    (IMAGE, {"size": 3, "output": np.zeros((9, 8), np.uint16)}, ValueError,
     "output must have the image's shape"),
    (IMAGE, {"size": 3, "output": np.broadcast_to(np.uint16(0), (8, 9))}, ValueError,
     "output must be writable"),
    (IMAGE, {"size": 3, "output": IMAGE}, ValueError, "output must not overlap the image"),
])
def test_bad_arguments_name_the_parameter(image, kwargs, error, names):
    with pytest.raises(error, match=names.replace("(", r"\(").replace(")", r"\)")):
        fastmedian.median_filter(image, **kwargs)


def test_missing_cuda_device_raises_backend_unavailable():
    missing = len(fastmedian.devices())
    with pytest.raises(fastmedian.BackendUnavailableError, match="cuda"):
        fastmedian.median_filter(IMAGE, size=3, backend="cuda", device=missing)


def test_a_list_of_devices_gives_the_same_result():
    image = np.random.default_rng(5).integers(0, 1000, (3, 40, 50), np.uint16)
    want = fastmedian.median_filter(image, size=(1, 5, 5))
    listed = list(range(max(1, len(fastmedian.devices()))))
    assert np.array_equal(fastmedian.median_filter(image, size=(1, 5, 5), device=listed), want)
    assert np.array_equal(fastmedian.median_filter(image, size=(1, 5, 5), device=listed,
                                                   backend="cpu"), want)
    got = fastmedian.background(image, size=(1, 9, 9), method="separable", device=tuple(listed))
    assert np.array_equal(got, fastmedian.background(image, size=(1, 9, 9), method="separable"))
    got = fastmedian.gaussian_filter(image, (0, 1.5, 1.5), device=listed)
    assert np.array_equal(got, fastmedian.gaussian_filter(image, (0, 1.5, 1.5)))
    with pytest.raises(ValueError, match="the temporal median runs on one CUDA device"):
        fastmedian.temporal_median(image, 3, device=[0, 1])


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
    usable = [d for d in fastmedian.devices() if not d["unsupported"]]
    assert (reason == "") == bool(usable), reason
    for d in usable:
        assert d["policy"].startswith("sm_"), d


MOVIE = np.zeros((6, 8, 9), np.uint16)


@pytest.mark.parametrize("stack,kwargs,error,names", [
    (MOVIE.astype(np.complex64), {}, TypeError, "stack"),
    (MOVIE.astype("U1"), {}, TypeError, "stack"),
    (MOVIE.astype(">u2"), {}, TypeError, "stack"),
    (MOVIE[0], {}, ValueError, "stack"),
    (np.zeros((2, 2, 2, 2), np.uint8), {}, ValueError, "stack"),
    (np.zeros((0, 4, 4), np.uint8), {"window": 1}, ValueError, "stack"),
    (MOVIE, {"window": 0}, ValueError, "window"),
    (MOVIE, {"window": 7}, ValueError, "window must be in 1..6"),
    (MOVIE, {"window": 9, "axis": 1}, ValueError, "window must be in 1..8"),
    (MOVIE, {"window": 3.0}, TypeError, "window"),
    (MOVIE, {"window": True}, TypeError, "window"),
    (MOVIE, {"window": None}, TypeError, "window"),
    (MOVIE, {"mode": "subtraction"}, ValueError, "mode"),
    (MOVIE, {"mode": None}, ValueError, "mode"),
    (MOVIE, {"offset": "1"}, TypeError, "offset"),
    (MOVIE, {"offset": None}, TypeError, "offset"),
    (MOVIE, {"offset": float("nan")}, ValueError, "offset"),
    (MOVIE, {"offset": float("inf")}, ValueError, "offset"),
    (MOVIE, {"offset": 2e9}, ValueError, "offset"),
    (MOVIE, {"axis": 3}, ValueError, "axis"),
    (MOVIE, {"axis": -4}, ValueError, "axis"),
    (MOVIE, {"axis": 0.0}, TypeError, "axis"),
    (MOVIE, {"backend": "gpu"}, ValueError, "backend"),
    (MOVIE, {"device": -1}, ValueError, "device"),
    (MOVIE, {"device": "0"}, TypeError, "device"),
    (MOVIE, {"device": 2**31}, ValueError, "device must be in 0..2147483647"),
    (MOVIE, {"offset": 5}, ValueError, "offset applies only to mode 'subtract'"),  # as the CLI
    (MOVIE, {"mode": "median", "offset": -0.5}, ValueError, "offset applies only to mode"),
    (MOVIE, {"output": [[[0]]]}, TypeError, "output"),
    (MOVIE, {"output": np.zeros((6, 8, 9), np.uint8)}, TypeError, "output"),
    (MOVIE, {"output": np.zeros((6, 9, 8), np.uint16)}, ValueError, "output"),
    (MOVIE, {"output": np.broadcast_to(np.uint16(0), (6, 8, 9))}, ValueError, "output"),
    (MOVIE, {"output": MOVIE}, ValueError, "output"),
])
def test_temporal_bad_arguments_name_the_parameter(stack, kwargs, error, names):
    kwargs = {"window": 3, **kwargs}
    with pytest.raises(error, match=names):
        fastmedian.temporal_median(stack, **kwargs)


BIG = np.arange(300 * 300, dtype=np.uint16).reshape(300, 300)


@pytest.mark.parametrize("call,name", [
    (lambda: fastmedian.background(IMAGE, size=5, subtract=BIG), "subtract"),
    (lambda: fastmedian.background(IMAGE, size=5, method=BIG), "method"),
    (lambda: fastmedian.background(IMAGE, size=5, offset=BIG), "offset"),
    (lambda: fastmedian.median_filter(IMAGE, size=BIG), "size"),
    (lambda: fastmedian.median_filter(IMAGE, radius=BIG), "radius"),
    (lambda: fastmedian.median_filter(STACK, radius=(1, BIG, 1)), "radius"),
    (lambda: fastmedian.median_filter(IMAGE, size=3, mode=BIG), "mode"),
    (lambda: fastmedian.median_filter(IMAGE, size=3, cval=BIG), "cval"),
    (lambda: fastmedian.median_filter(IMAGE, size=3, backend=BIG), "backend"),
    (lambda: fastmedian.median_filter(IMAGE, size=3, device=BIG), "device"),
    (lambda: fastmedian.temporal_median(MOVIE, BIG), "window"),
    (lambda: fastmedian.temporal_median(MOVIE, 3, mode=BIG), "mode"),
    (lambda: fastmedian.temporal_median(MOVIE, 3, axis=BIG), "axis"),
    (lambda: fastmedian.convolve(IMAGE, np.ones((3, 3)), normalize=BIG), "normalize"),
    (lambda: fastmedian.gaussian_filter(IMAGE, BIG), "sigma"),
    (lambda: fastmedian.gaussian_filter(IMAGE, 1.0, truncate=BIG), "truncate"),
])
def test_an_array_in_the_wrong_place_is_named_not_printed(call, name):
    """An image passed as another parameter: the error names the parameter and shows the
    array's type and shape, not its values (a message of the whole array, or a long part of it,
    hides the point)."""
    with pytest.raises((TypeError, ValueError)) as e:
        call()
    message = str(e.value)
    assert name in message and "ndarray of shape (300, 300) and dtype uint16" in message, message
    assert len(message) < 300 and "[[" not in message and "array(" not in message, message


def test_a_dtype_in_the_wrong_place_is_shown_not_taken_for_an_array():
    """np.float32 has `shape` and `dtype` attributes too (output= takes dtypes now)."""
    with pytest.raises(ValueError, match="mode must be one of .*; got <class 'numpy.float32'>"):
        fastmedian.median_filter(IMAGE, size=3, mode=np.float32)


def test_long_values_are_cut_short():
    with pytest.raises(ValueError, match=r"got \(3, 3, 3, .*\.\.\. \(a tuple\)$") as e:
        fastmedian.median_filter(STACK, size=(3,) * 1000)
    assert len(str(e.value)) < 200


def test_temporal_missing_cuda_device_raises_backend_unavailable():
    missing = len(fastmedian.devices())
    with pytest.raises(fastmedian.BackendUnavailableError, match="cuda"):
        fastmedian.temporal_median(MOVIE, 3, backend="cuda", device=missing)


def test_unusable_gpus_are_logged_in_one_line():
    from fastmedian._params import unusable_gpus_line
    old = {"index": 0, "name": "Quadro P4000", "compute_capability": (6, 1), "memory_bytes": 1 << 33,
           "policy": "", "unsupported": "compute capability 6.1 is older than Turing (7.5), the oldest GPU "
                                        "fastmedian supports"}
    new = dict(old, index=1, name="RTX 4090", compute_capability=(8, 9), policy="sm_89", unsupported="")
    assert unusable_gpus_line([]) is None
    assert unusable_gpus_line([old, new]) is None
    line = unusable_gpus_line([old])
    assert line == ("fastmedian: CUDA device 0 (Quadro P4000) cannot be used: compute capability 6.1 is older "
                    "than Turing (7.5), the oldest GPU fastmedian supports; backend 'auto' runs on the CPU")
    assert "\n" not in line
