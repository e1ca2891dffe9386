"""fastmedian.median_filter on NumPy arrays against scipy.ndimage.median_filter (the shared real
images and random data with many ties) and against a NumPy reference for float NaN and Inf."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

import fastmedian
from conftest import MODES, assert_same_bits, circle_footprint, reference_median

IMAGES = ["embryos_grey.tif",                # u8 366x462
          "cancer_cell_migration_crop.tif",  # u16 48 planes of 130x130
          "BPAE_actin.tif"]                  # f32 680x1100
# Integer cvals inside every type's range, so the conversion to the pixel type is exact.
CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}
# ImageJ's RankFilters circle of radius 2 (21 pixels).
CIRCLE_2 = circle_footprint(2)


def scipy_median(image, footprint, mode, cval=0.0):
    """scipy on each plane of a stack on its own."""
    fp = footprint if image.ndim == 2 else footprint[None]
    return ndi.median_filter(image, footprint=fp, mode=mode, cval=cval)


def size_for(image, k):
    return k if image.ndim == 2 else (1, k, k)


@pytest.fixture(scope="module", params=IMAGES)
def real_image(request, shared_data):
    return tifffile.imread(shared_data / request.param)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("k", [3, 7])
def test_shared_images_square(real_image, k, mode):
    cval = CVAL[real_image.dtype] if mode == "constant" else 0.0
    got = fastmedian.median_filter(real_image, size=size_for(real_image, k), mode=mode,
                                   cval=cval, backend="cpu")
    assert_same_bits(got, scipy_median(real_image, np.ones((k, k), bool), mode, cval))


def test_shared_images_circle(real_image):
    got = fastmedian.median_filter(real_image, radius=2, mode="mirror", backend="cpu")
    assert_same_bits(got, scipy_median(real_image, CIRCLE_2, "mirror"))


def test_replicate_is_nearest(real_image):
    size = size_for(real_image, 5)
    assert_same_bits(fastmedian.median_filter(real_image, size=size, mode="replicate"),
                     fastmedian.median_filter(real_image, size=size, mode="nearest"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype,high", [(np.uint8, 4), (np.uint16, 3), (np.uint16, 65536)])
@pytest.mark.parametrize("k", [1, 3, 5, 9, 15])
def test_random_integers_with_ties(k, dtype, high, mode):
    rng = np.random.default_rng(k * 1000 + high)
    image = rng.integers(0, high, size=(37, 52), dtype=dtype)
    got = fastmedian.median_filter(image, size=k, mode=mode, cval=2, backend="cpu")
    assert_same_bits(got, scipy_median(image, np.ones((k, k), bool), mode, cval=2))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(1, 1), (3, 4), (2, 9)])
def test_window_larger_than_image(shape, mode):
    image = np.arange(np.prod(shape), dtype=np.uint16).reshape(shape) * 7 % 11
    got = fastmedian.median_filter(image, size=9, mode=mode, cval=5)
    assert_same_bits(got, scipy_median(image, np.ones((9, 9), bool), mode, cval=5))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("window", [{"size": 3}, {"size": 5}, {"radius": 2}])
def test_float_nan_and_inf(window, mode):
    """NaN counts as larger than +Inf; scipy leaves NaN undefined, so the reference sorts."""
    rng = np.random.default_rng(7)
    image = rng.normal(size=(3, 40, 33)).astype(np.float32)
    specials = rng.random(image.shape)
    image[specials < 0.3] = np.nan  # enough NaN that some windows are mostly NaN
    image[(specials > 0.3) & (specials < 0.35)] = np.inf
    image[specials > 0.95] = -np.inf
    fp = CIRCLE_2 if "radius" in window else np.ones((window["size"],) * 2, bool)
    size = {"size": (1, window["size"], window["size"])} if "size" in window else window
    got = fastmedian.median_filter(image, **size, mode=mode, cval=np.nan, backend="cpu")
    want = reference_median(image, fp, mode, cval=np.nan)
    assert np.isnan(want).any() and not np.isnan(want).all()
    assert_same_bits(got, want)


def test_float_random_vs_scipy():
    image = np.random.default_rng(3).normal(size=(50, 61)).astype(np.float32)
    got = fastmedian.median_filter(image, size=(5, 5), mode="reflect")
    assert_same_bits(got, scipy_median(image, np.ones((5, 5), bool), "reflect"))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_cuda_equals_cpu(dtype):
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no CUDA device: {fastmedian.cuda_unavailable_reason()}")
    rng = np.random.default_rng(11)
    image = (rng.random((2, 300, 257)) * 1000).astype(dtype)
    for mode in MODES:
        for window in ({"size": (1, 5, 5)}, {"radius": 3}):
            assert_same_bits(
                fastmedian.median_filter(image, **window, mode=mode, cval=9, backend="cuda"),
                fastmedian.median_filter(image, **window, mode=mode, cval=9, backend="cpu"))


@pytest.mark.parametrize("size", [5, (3, 3, 3)], ids=str)
def test_output_is_written_in_place_and_returned(monkeypatch, size):
    """scipy's `output`: written where the library can write it as it lies, else through a
    copy (a Fortran-ordered array), and returned."""
    image = np.random.default_rng(4).integers(0, 50, (6, 30, 40), np.uint16)
    size = (1, size, size) if size == 5 else size
    want = fastmedian.median_filter(image, size=size)
    outputs = []
    for name in ("median2d", "median3d"):
        native = getattr(fastmedian.filters._native, name)

        def spy(image, output, *args, native=native):
            outputs.append(output)
            return native(image, output, *args)
        monkeypatch.setattr(fastmedian.filters._native, name, spy)
    out = np.full(image.shape, 999, np.uint16)
    assert fastmedian.median_filter(image, size=size, output=out) is out
    assert np.shares_memory(outputs[-1], out)
    assert_same_bits(out, want)
    fortran = np.asfortranarray(np.zeros(image.shape, np.uint16))
    assert fastmedian.median_filter(image, size=size, output=fortran) is fortran
    assert not np.shares_memory(outputs[-1], fortran)
    assert_same_bits(np.ascontiguousarray(fortran), want)
