"""Arrays on a CUDA GPU (__cuda_array_interface__): with CuPy on a GPU, every filter runs there
in place and returns a CuPy array with the same bits as the NumPy path; everywhere, the checks
that refuse a GPU array (dtype, layout, device, backend, output) before any pixel is touched,
on a stand-in object, and the views the package takes of such arrays."""
import numpy as np
import pytest

import fastmedian
from fastmedian._cuda_arrays import CudaView, cuda_view
from conftest import assert_same_bits


class StandIn:
    """An object offering the CUDA array interface over a NumPy array's memory: the checks
    under test must refuse it before the library reads a pixel."""

    def __init__(self, array, device=0, readonly=False):
        self.host = array
        self._device = device
        self.__cuda_array_interface__ = {
            "shape": array.shape, "typestr": array.dtype.str, "version": 3,
            "data": (array.ctypes.data, readonly),
            "strides": None if array.flags.c_contiguous else array.strides}

    def __dlpack_device__(self):
        return (2, self._device)


def stand_in(shape=(16, 20), dtype=np.uint16, **kwargs):
    return StandIn(np.zeros(shape, dtype), **kwargs)


def test_views_of_a_gpu_array_are_numpy_s_views():
    host = np.zeros((3, 4, 5, 6), np.float32)
    view = cuda_view(StandIn(host), "image")
    assert view.strides == host.strides and view.device == 0 and view.stream is None
    moved, want = view.moveaxis(3, 0), np.moveaxis(host, 3, 0)
    assert moved.shape == want.shape and moved.strides == want.strides
    one = view.take(1, 2)
    assert one.shape == host[:, 2].shape and one.strides == host[:, 2].strides
    assert one.pointer == host[:, 2].ctypes.data
    flipped = np.zeros((4, 5), np.uint8)[::-1]
    first, end = cuda_view(StandIn(flipped), "image").byte_span()
    assert (first, end) == (flipped.ctypes.data - 15, flipped.ctypes.data + 5)


@pytest.mark.parametrize("call, error, words", [
    (lambda: fastmedian.median_filter(stand_in(dtype=np.int16), size=3), TypeError,
     "image must be uint8, uint16 or float32 on a GPU, got int16"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, backend="cpu"), ValueError,
     "backend 'cpu' cannot filter image on GPU 0"),
    (lambda: fastmedian.median_filter(stand_in(device=1), size=3, device=0), ValueError,
     "device must be the GPU image is on (1), got 0"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, output=np.zeros((16, 20), np.uint16)),
     TypeError, "output must be an array on the GPU, as the image is, got ndarray"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, output=stand_in(dtype=np.uint8)),
     TypeError, "output must have dtype uint16, got uint8"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, output=stand_in((16, 21))),
     ValueError, "output must have the image's shape (16, 20), got (16, 21)"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, output=stand_in(device=1)),
     ValueError, "output must be on the image's GPU 0, got GPU 1"),
    (lambda: fastmedian.median_filter(stand_in(), size=3, output=stand_in(readonly=True)),
     ValueError, "output must be writable"),
    (lambda: fastmedian.temporal_median(stand_in((5, 8, 8)), 3, axis=2,
                                        output=stand_in((5, 8, 8))), ValueError,
     "stack must have contiguous rows, rows and planes in increasing order"),
    (lambda: fastmedian.median_filter(StandIn(np.zeros((8, 8), np.uint8).T), size=3,
                                      output=stand_in((8, 8), np.uint8)),
     ValueError, "image must have contiguous rows"),
    (lambda: fastmedian.convolve(stand_in(), np.ones((3, 3)), output=np.float64), ValueError,
     "output must be an array to write into or a dtype, float32 or the image's dtype"),
    (lambda: fastmedian.median_filter(stand_in(), size=4, output=stand_in()), ValueError,
     "size must be odd"),
])
def test_a_gpu_array_is_refused_before_a_pixel_is_read(call, error, words):
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)


def test_an_output_over_the_image_is_refused():
    image = stand_in()
    with pytest.raises(ValueError, match="output must not overlap the image"):
        fastmedian.median_filter(image, size=3, output=StandIn(image.host[::-1]))


def test_an_array_whose_library_makes_no_arrays_needs_output():
    with pytest.raises(TypeError, match="has no empty_like to make the output: pass output="):
        fastmedian.median_filter(stand_in(), size=3)


def test_without_a_gpu_a_gpu_array_says_why():
    if not fastmedian.cuda_unavailable_reason():
        pytest.skip("a GPU is here: the stand-in's host memory would be refused as such")
    image = stand_in()
    with pytest.raises(fastmedian.BackendUnavailableError):
        fastmedian.median_filter(image, size=3, output=stand_in())


# ---- CuPy on a GPU ----

@pytest.fixture(scope="module")
def cp():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed (the GPU machine has it)")
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no usable GPU: {fastmedian.cuda_unavailable_reason()}")
    return cupy


def data(dtype, shape, seed=0):
    """Random data with ties; floats with fractions, NaN and infinities."""
    rng = np.random.default_rng(seed)
    if dtype == np.float32:
        a = rng.normal(100, 30, shape).astype(np.float32)
        a.flat[::97] = np.nan
        a.flat[5::101] = np.inf
        a.flat[7::103] = -np.inf
        return a
    return rng.integers(0, 40 if dtype == np.uint8 else 5000, shape).astype(dtype)


def poisoned(cp, shape, dtype):
    out = cp.empty(shape, dtype)
    out.view(np.uint8)[...] = 0xA5
    return out


DTYPES = [np.uint8, np.uint16, np.float32]
FILTERS = {
    "median 5x5": (lambda f, a, **k: f.median_filter(a, size=(1, 5, 5), **k), (3, 67, 45)),
    "median circle 2 reflect": (
        lambda f, a, **k: f.median_filter(a, radius=2, mode="reflect", **k), (61, 80)),
    "median 3D ellipsoid": (
        lambda f, a, **k: f.median_filter(a, radius=(1, 2, 2), mode="mirror", **k), (9, 30, 41)),
    "median 3D box wrap": (
        lambda f, a, **k: f.median_filter(a, size=(3, 3, 5), mode="wrap", **k), (7, 20, 33)),
    "temporal 5": (lambda f, a, **k: f.temporal_median(a, 5, **k), (12, 30, 41)),
    "temporal 4 subtract": (
        lambda f, a, **k: f.temporal_median(a, 4, mode="subtract", offset=3, **k), (9, 20, 33)),
    "background 31": (lambda f, a, **k: f.background(a, size=(1, 31, 31), **k), (2, 70, 90)),
    "background separable": (lambda f, a, **k: f.background(
        a, size=33, method="separable", subtract=False, **k), (70, 90)),
    "convolve 3x5": (lambda f, a, **k: f.convolve(
        a, np.arange(15, dtype=np.float32).reshape(3, 5) / 7, mode="constant", cval=2, **k),
        (2, 40, 50)),
    "gaussian 2": (lambda f, a, **k: f.gaussian_filter(a, sigma=2, **k), (40, 50)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FILTERS)
def test_a_cupy_array_is_filtered_on_its_gpu_as_numpy_is(cp, name, dtype):
    call, shape = FILTERS[name]
    host = data(dtype, shape)
    want = call(fastmedian, host, backend="cpu")
    image = cp.asarray(host)
    got = call(fastmedian, image)
    assert isinstance(got, cp.ndarray) and got.device.id == image.device.id
    assert_same_bits(cp.asnumpy(got), want)
    into = poisoned(cp, shape, want.dtype)
    assert call(fastmedian, image, output=into) is into
    assert_same_bits(cp.asnumpy(into), want)
    assert_same_bits(cp.asnumpy(image), host)  # the input untouched


def test_channels_and_the_frame_axis_of_a_cupy_array(cp):
    host = data(np.uint16, (3, 10, 24, 31))  # (channels, frames, y, x)
    want = fastmedian.temporal_median(host, 3, channel_axis=0, axis=1, backend="cpu")
    got = fastmedian.temporal_median(cp.asarray(host), 3, channel_axis=0, axis=1)
    assert_same_bits(cp.asnumpy(got), want)
    want = fastmedian.median_filter(host, size=(1, 3, 3), channel_axis=0, backend="cpu")
    got = fastmedian.median_filter(cp.asarray(host), size=(1, 3, 3), channel_axis=0)
    assert_same_bits(cp.asnumpy(got), want)


def test_a_view_of_rows_and_columns_is_read_in_place(cp):
    host = data(np.float32, (50, 70))
    image = cp.asarray(host)
    got = fastmedian.median_filter(image[5:45, 3:60], size=7)
    assert_same_bits(cp.asnumpy(got), fastmedian.median_filter(host[5:45, 3:60], size=7,
                                                               backend="cpu"))


def test_the_filter_follows_the_work_before_it_on_the_stream(cp):
    """Enqueued on CuPy's current stream, after the kernel that makes the image: a large image
    made just before is read whole, and the result is there once the stream has run."""
    host = data(np.float32, (2048, 2048), seed=3)
    want = fastmedian.median_filter(host * 2, size=5, backend="cpu")
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        source = cp.asarray(host)
        stream.synchronize()
        image = source * 2  # pending on the stream when the filter is called
        got = fastmedian.median_filter(image, size=5)
        stream.synchronize()
    assert_same_bits(cp.asnumpy(got), want)


def test_a_gpu_array_on_another_device_than_asked_is_refused(cp):
    with pytest.raises(ValueError, match="device must be the GPU image is on"):
        fastmedian.median_filter(cp.zeros((8, 8), cp.uint8), size=3, device=5)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_a_pytorch_tensor_on_a_gpu_comes_back_as_one(dtype):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available() or fastmedian.cuda_unavailable_reason():
        pytest.skip("PyTorch sees no GPU")
    host = data(dtype, (3, 40, 50))
    tensor = torch.from_numpy(host).cuda()
    got = fastmedian.median_filter(tensor, size=(1, 5, 5))
    assert isinstance(got, torch.Tensor) and got.device == tensor.device
    assert_same_bits(got.cpu().numpy(), fastmedian.median_filter(host, size=(1, 5, 5),
                                                                 backend="cpu"))
