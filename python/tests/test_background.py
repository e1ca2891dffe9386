"""fastmedian.background and fastmedian.dask.background against a NumPy statement of the
background (the median of every window sorted in our float order, or two 1D medians for method
separable, then the subtraction): random images with ties and every float special value, every
mode, both methods, subtracted or not; scipy on a real image; the output array, the layouts,
and the dask version for many chunkings, in-process and on a cluster of two worker processes."""
import math
import re

import dask.array as da
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

import fastmedian
import fastmedian.dask
from conftest import (MODES, NUMPY_PAD, assert_same_bits, circle_footprint, from_keys, quiet_nans,
                      sort_keys)

OFFSETS = {np.dtype(np.uint8): 20.5, np.dtype(np.uint16): -300.5, np.dtype(np.float32): 0.1}


def window_median(image, ky, kx, mode, cval, footprint=None):
    """The median of every ky x kx window (or footprint) of each plane, in our order: -Inf <
    ... < -0 < +0 < ... < +Inf < NaN. Windows no larger than the image (numpy.pad's limit for
    the mirror modes)."""
    pad = [(0, 0)] * (image.ndim - 2) + [(ky // 2, ky // 2), (kx // 2, kx // 2)]
    extra = {"constant_values": cval} if mode == "constant" else {}
    padded = np.pad(image, pad, mode=NUMPY_PAD[mode], **extra)
    windows = np.lib.stride_tricks.sliding_window_view(sort_keys(padded), (ky, kx),
                                                       axis=(-2, -1))
    mask = np.ones((ky, kx), bool) if footprint is None else footprint
    keys = np.sort(windows[..., mask], axis=-1)[..., (mask.sum() - 1) // 2]
    return from_keys(np.ascontiguousarray(keys), image.dtype)


def reference(image, k=None, method="exact", subtract=True, offset=0.0, mode="nearest",
              cval=0.0, footprint=None):
    """The background of each plane (exact: the k x k or footprint median; separable: a median
    of k along y, then of k along x), then with subtract: integers clip(image - background +
    round(offset)) with halves away from zero; float32 (image - background) + float32(offset)
    in float32. Every NaN written as 0x7FC00000."""
    cval = np.array(cval).astype(image.dtype) if image.dtype == np.float32 else \
        np.clip(round_half_away(cval), 0, np.iinfo(image.dtype).max)
    if footprint is not None:
        bg = window_median(image, *footprint.shape, mode, cval, footprint)
    elif method == "exact":
        bg = window_median(image, k, k, mode, cval)
    else:
        bg = window_median(window_median(image, k, 1, mode, cval), 1, k, mode, cval)
    if not subtract:
        return quiet_nans(bg)
    if image.dtype == np.float32:
        with np.errstate(invalid="ignore", over="ignore"):
            return quiet_nans((image - bg) + np.float32(offset))
    top = np.iinfo(image.dtype).max
    diff = image.astype(np.int64) - bg.astype(np.int64) + int(round_half_away(offset))
    return np.clip(diff, 0, top).astype(image.dtype)


def round_half_away(v):
    return math.copysign(math.floor(abs(v) + 0.5), v)


def random_image(dtype, shape, seed):
    """Full-range values (so subtract clips at both ends), ties in the first rows, and for
    float32 NaNs with payloads and sign bits, +-Inf, -0.0 beside +0.0, and a NaN block."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.float32:
        img = (rng.standard_normal(shape) * 100).astype(np.float32)
        img[..., :3, :] = rng.choice([-1.5, 0.0, 2.25, 7.0], img[..., :3, :].shape)
        specials = np.array([0x7FC00000, 0x7FC01234, 0xFFC00000, 0x7F800001, 0x7F800000,
                             0xFF800000, 0x80000000, 0x00000000], np.uint32).view(np.float32)
        mask = rng.random(shape) < 0.1
        img[mask] = rng.choice(specials, int(mask.sum()))
        img[..., 8:20, 10:25] = np.nan
        return img
    top = np.iinfo(dtype).max
    img = rng.integers(0, top, shape, endpoint=True).astype(dtype)
    img[..., :3, :] = rng.choice(np.array([0, 1, 1, 3, top], dtype), img[..., :3, :].shape)
    return img


def test_reference_on_a_hand_example():
    """The reference itself: a 1 x 5 image, windows of 3, both methods, subtracted or not."""
    img = np.array([[10, 40, 20, 30, 0]], np.uint8)
    # exact 3x3, nearest: rows replicate, so each window is 3 copies of a 1x3 window.
    assert reference(img, 3, subtract=False).ravel().tolist() == [10, 20, 30, 20, 0]
    assert reference(img, 3, offset=4.5).ravel().tolist() == [5, 25, 0, 15, 5]
    assert reference(img, 3, offset=-0.5).ravel().tolist() == [0, 19, 0, 9, 0]
    assert reference(img, 3, "separable", False).ravel().tolist() == [10, 20, 30, 20, 0]
    f = np.array([[-0.0, 0.0, -0.0, np.nan, np.inf]], np.float32)
    assert reference(f, 3, subtract=False).ravel().view(np.uint32).tolist() == [
        0x80000000, 0x80000000, 0x00000000, 0x7F800000, 0x7F800000]


CASES = [(k, method) for k in (1, 3, 9, 31) for method in ("exact", "separable")]


@pytest.mark.parametrize("subtract", [True, False])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("k,method", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_equals_reference(dtype, k, method, mode, subtract):
    img = random_image(dtype, (2, 37, 45), seed=k + 7 * len(mode))
    offset = OFFSETS[np.dtype(dtype)] if subtract else 0
    cval = 77.4 if dtype != np.float32 else -1.5
    got = fastmedian.background(img, size=(1, k, k), method=method, subtract=subtract,
                                offset=offset, mode=mode, cval=cval, backend="cpu")
    assert got.flags.c_contiguous and got.dtype == img.dtype
    assert_same_bits(got, reference(img, k, method, subtract, offset, mode, cval))


@pytest.mark.parametrize("mode", MODES)
def test_circle(mode):
    img = random_image(np.float32, (30, 41), seed=3)
    got = fastmedian.background(img, radius=2, offset=-2.5, mode=mode, cval=np.nan)
    assert_same_bits(got, reference(img, footprint=circle_footprint(2), offset=-2.5, mode=mode,
                                    cval=np.nan))


@pytest.mark.parametrize("offset", [2.5, -2.5, 0.5, -0.5, 1e9, -1e9])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16], ids=["u8", "u16"])
def test_integer_offsets_round_halves_away_from_zero_and_clip(dtype, offset):
    img = random_image(dtype, (21, 26), seed=4)
    got = fastmedian.background(img, size=5, offset=offset, backend="cpu")
    assert_same_bits(got, reference(img, 5, offset=offset))


def test_real_image_against_scipy(shared_data):
    """K=65 and K=129 on a crop of the embryos image: exact against scipy's median_filter,
    separable against two scipy 1D medians; subtracted or not."""
    img = tifffile.imread(shared_data / "embryos_grey.tif")[100:231, 150:290]
    for k, method, mode in [(65, "exact", "reflect"), (129, "separable", "mirror"),
                            (65, "separable", "constant")]:
        if method == "exact":
            bg = ndi.median_filter(img, size=k, mode=mode, cval=9)
        else:
            bg = ndi.median_filter(ndi.median_filter(img, size=(k, 1), mode=mode, cval=9),
                                   size=(1, k), mode=mode, cval=9)
        got = fastmedian.background(img, size=k, method=method, subtract=False, mode=mode,
                                    cval=9)
        assert_same_bits(got, bg)
        got = fastmedian.background(img, size=k, method=method, offset=100, mode=mode, cval=9)
        assert_same_bits(got, np.clip(img.astype(int) - bg + 100, 0, 255).astype(np.uint8))


def test_defaults_are_exact_subtract_offset_0_nearest():
    img = random_image(np.uint16, (25, 30), seed=9)
    assert_same_bits(fastmedian.background(img, size=7), reference(img, 7))
    assert_same_bits(fastmedian.background(img, size=7, subtract=True), reference(img, 7))
    # An offset with the background itself is refused, not ignored.
    with pytest.raises(ValueError, match="offset applies only with subtract=True, got offset=5 "
                                         "with subtract=False"):
        fastmedian.background(img, size=7, subtract=False, offset=5)
    assert_same_bits(fastmedian.background(img, size=7, subtract=False, offset=0.0),
                     reference(img, 7, subtract=False))


def test_subtract_false_gives_the_background_itself():
    """subtract=False writes the estimate (the old output="background"): for method exact,
    median_filter's result; image - it is the subtracted output with offset 0."""
    img = random_image(np.uint8, (2, 30, 33), seed=8)
    bg = fastmedian.background(img, size=(1, 9, 9), subtract=False, mode="reflect")
    assert_same_bits(bg, fastmedian.median_filter(img, size=(1, 9, 9), mode="reflect"))
    assert_same_bits(bg, reference(img, 9, subtract=False, mode="reflect"))
    diff = np.clip(img.astype(int) - bg, 0, 255).astype(np.uint8)
    assert_same_bits(fastmedian.background(img, size=(1, 9, 9), mode="reflect"), diff)
    assert_same_bits(fastmedian.background(img, size=(1, 9, 9), subtract=np.False_,
                                           mode="reflect"), bg)


@pytest.mark.parametrize("old", ["subtract", "background"])
def test_a_string_output_names_the_new_keyword(old):
    """output= is an array to write into now; what is written is subtract=True/False."""
    words = re.escape(f"output takes an array to write into (as scipy's output), got '{old}'; "
                      f"what is written is now chosen by subtract=True (image - background + "
                      f"offset) or subtract=False (the background itself)")
    img = random_image(np.uint16, (12, 14), seed=1)
    with pytest.raises(ValueError, match=words):
        fastmedian.background(img, size=5, output=old)
    with pytest.raises(ValueError, match=words):
        fastmedian.background(np.stack([img, img], -1), size=5, output=old, channel_axis=-1)
    with pytest.raises(ValueError, match=words):
        fastmedian.dask.background(da.from_array(img, chunks=6), size=5, output=old)


@pytest.fixture
def native_arrays(monkeypatch):
    """The image and output arrays that reach the native module, call by call."""
    seen = []
    native = fastmedian.filters._native.background

    def spy(image, output_array, *args):
        seen.append((image, output_array))
        return native(image, output_array, *args)
    monkeypatch.setattr(fastmedian.filters._native, "background", spy)
    return seen


def test_output_array_is_written_and_returned(native_arrays):
    img = random_image(np.uint8, (2, 20, 24), seed=6)
    out = np.full_like(img, 7)
    got = fastmedian.background(img, size=(1, 9, 9), method="separable", offset=9,
                                output=out)
    assert got is out
    assert np.shares_memory(native_arrays[0][1], out)  # written in place, no temporary
    assert_same_bits(out, reference(img, 9, "separable", offset=9))


def test_output_array_of_another_layout():
    img = random_image(np.float32, (20, 24), seed=6)
    out = np.asfortranarray(np.zeros_like(img))
    assert fastmedian.background(img, size=5, output=out) is out
    assert_same_bits(out, reference(img, 5))


@pytest.mark.parametrize("name,view,in_place", [
    ("C-contiguous", lambda a: a, True),
    ("sub-rectangle", lambda a: a[3:30, 2:40], True),
    ("every other row", lambda a: a[::2], True),
    ("every other column", lambda a: a[:, ::2], False),
    ("transposed", lambda a: a.T, False),
])
def test_layouts(native_arrays, name, view, in_place):
    base = random_image(np.uint16, (36, 44), seed=2)
    v = view(base)
    got = fastmedian.background(v, size=9, subtract=False)
    assert np.shares_memory(native_arrays[0][0], base) == in_place
    assert_same_bits(got, reference(np.ascontiguousarray(v), 9, subtract=False))


def test_input_is_not_written_and_may_be_read_only():
    img = random_image(np.float32, (20, 21), seed=1)
    before = img.copy()
    img.flags.writeable = False
    got = fastmedian.background(img, size=9)
    assert_same_bits(img, before)
    assert got.dtype == img.dtype and got.shape == img.shape


IMAGE = np.zeros((8, 9), np.uint16)


@pytest.mark.parametrize("image,kwargs,error,names", [
    (IMAGE.astype(np.complex64), {"size": 3}, TypeError, "image"),
    (np.zeros((2, 2, 2, 2), np.uint8), {"size": 3}, ValueError, "image"),
    (IMAGE, {}, ValueError, "size"),
    (IMAGE, {"size": 64}, ValueError, "size"),
    (IMAGE, {"size": 3, "radius": 2}, ValueError, "radius"),
    (IMAGE[None], {"size": 65}, ValueError, "size"),
    (IMAGE[None], {"size": (3, 3, 3)}, ValueError, "size must give a window of each plane"),
    (IMAGE[None], {"radius": (1, 2, 2)}, ValueError, "radius must give a window of each plane"),
    (IMAGE, {"radius": -1}, ValueError, "radius"),
    (IMAGE, {"size": 3, "method": "mean"}, ValueError, "method"),
    (IMAGE, {"size": 3, "method": None}, ValueError, "method"),
    (IMAGE, {"radius": 3, "method": "separable"}, ValueError, "method 'separable' needs size"),
    (IMAGE, {"size": 3, "output": "divide"}, ValueError, "output takes an array to write into"),
    (IMAGE, {"size": 3, "subtract": "background"}, TypeError, "subtract must be True"),
    (IMAGE, {"size": 3, "subtract": None}, TypeError, "subtract must be True"),
    (IMAGE, {"size": 3, "subtract": 0}, TypeError, "subtract must be True"),
    (IMAGE, {"size": 3, "offset": "1"}, TypeError, "offset"),
    (IMAGE, {"size": 3, "offset": float("nan")}, ValueError, "offset"),
    (IMAGE, {"size": 3, "offset": 2e9}, ValueError, "offset"),
    (IMAGE, {"size": 3, "mode": "grid-wrap"}, ValueError, "mode"),
    (IMAGE, {"size": 3, "mode": "constant", "cval": float("inf")}, ValueError, "cval"),
    (IMAGE, {"size": 3, "backend": "gpu"}, ValueError, "backend"),
    (IMAGE, {"size": 3, "device": -1}, ValueError, "device"),
    (IMAGE, {"size": 3, "output": [[0]]}, TypeError, "output must be a NumPy array"),
    (IMAGE, {"size": 3, "output": np.float32}, TypeError, "output must be a NumPy array"),
    (IMAGE, {"size": 3, "output": np.zeros((8, 9), np.uint8)}, TypeError,
     "output must have the image's dtype uint16"),
    (IMAGE, {"size": 3, "output": np.zeros((9, 8), np.uint16)}, ValueError,
     "output must have the image's shape"),
    (IMAGE, {"size": 3, "output": IMAGE}, ValueError, "output must not overlap"),
    # The old keyword is gone.
    (IMAGE, {"size": 3, "output_array": np.zeros((8, 9), np.uint16)}, TypeError,
     "output_array"),
])
def test_bad_arguments_name_the_parameter(image, kwargs, error, names):
    with pytest.raises(error, match=names):
        fastmedian.background(image, **kwargs)


def test_missing_cuda_device_raises_backend_unavailable():
    missing = len(fastmedian.devices())
    with pytest.raises(fastmedian.BackendUnavailableError, match="cuda"):
        fastmedian.background(IMAGE, size=3, backend="cuda", device=missing)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_cuda_equals_cpu(dtype):
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no CUDA device: {fastmedian.cuda_unavailable_reason()}")
    img = random_image(dtype, (2, 170, 201), seed=12)
    for kwargs in [{"size": (1, 65, 65)}, {"size": (1, 129, 129), "method": "separable"},
                   {"radius": 30}, {"size": (1, 31, 31), "method": "separable"}]:
        for mode in MODES:
            for subtract in (True, False):
                args = dict(kwargs, mode=mode, subtract=subtract, offset=-3.5 if subtract else 0,
                            cval=5)
                assert_same_bits(fastmedian.background(img, **args, backend="cuda"),
                                 fastmedian.background(img, **args, backend="cpu"))


# --- fastmedian.dask.background ---

RNG = np.random.default_rng(33)
STACK = RNG.integers(0, 9, size=(3, 45, 52), dtype=np.uint16)  # few values: many ties
CHUNKINGS = [(3, 45, 52), (1, 10, 13), (2, 7, 30), (3, 45, 4), (1, (1, 20, 24), (50, 2))]
# Halos of 3 to 16, deeper than some chunks (dask then merges chunks); subtracted or not.
DASK_WINDOWS = [{"size": (1, 7, 7)},
                {"size": (1, 15, 15), "method": "separable", "subtract": False},
                {"radius": 7, "subtract": False},
                {"size": (1, 21, 21), "method": "separable"},
                {"size": (1, 33, 33)}]


@pytest.mark.parametrize("window", DASK_WINDOWS, ids=str)
@pytest.mark.parametrize("chunks", CHUNKINGS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_dask_equals_direct_call(mode, chunks, window):
    lazy = da.from_array(STACK, chunks=chunks)
    args = dict(window, offset=3.5 if window.get("subtract", True) else 0, mode=mode, cval=4,
                backend="cpu")
    got = fastmedian.dask.background(lazy, **args)
    assert got.chunks == lazy.chunks and got.dtype == STACK.dtype
    assert_same_bits(got.compute(scheduler="threads"), fastmedian.background(STACK, **args))


@pytest.mark.parametrize("method", ["exact", "separable"])
@pytest.mark.parametrize("chunks", [(1, 5, 7), (2, 12, 30), (1, 3, 29)], ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_dask_window_reaching_across_the_array(mode, chunks, method):
    """A halo of 13 along y (12 rows): that axis is filtered whole, x still in chunks."""
    image = STACK[:2, :12, :30]
    args = dict(size=(1, 27, 27), method=method, mode=mode, cval=4, offset=-1)
    got = fastmedian.dask.background(da.from_array(image, chunks=chunks), **args)
    assert_same_bits(got.compute(scheduler="threads"), fastmedian.background(image, **args))


@pytest.mark.parametrize("method", ["exact", "separable"])
@pytest.mark.parametrize("mode", MODES)
def test_dask_float_image_with_nan(mode, method):
    image = random_image(np.float32, (64, 70), seed=len(mode))
    args = dict(size=9, method=method, mode=mode, cval=np.nan, offset=0.25)
    got = fastmedian.dask.background(da.from_array(image, chunks=(9, 16)), **args)
    assert_same_bits(got.compute(scheduler="threads"), fastmedian.background(image, **args))


def test_dask_bad_arguments_raise_before_compute():
    lazy = da.zeros((4, 10, 10), dtype=np.uint8, chunks=(1, 5, 5))
    with pytest.raises(ValueError, match="size"):
        fastmedian.dask.background(lazy, size=3)
    with pytest.raises(TypeError, match="image"):
        fastmedian.dask.background(lazy.astype(np.complex64), size=(1, 3, 3))
    with pytest.raises(ValueError, match="method"):
        fastmedian.dask.background(lazy, radius=3, method="separable")
    with pytest.raises(ValueError, match="subtract=True"):
        fastmedian.dask.background(lazy, size=(1, 3, 3), output="median")
    with pytest.raises(TypeError, match="subtract"):
        fastmedian.dask.background(lazy, size=(1, 3, 3), subtract="background")
    with pytest.raises(ValueError, match="offset applies only with subtract=True"):
        fastmedian.dask.background(lazy, size=(1, 3, 3), subtract=False, offset=1)
    with pytest.raises(TypeError, match="output_array"):
        fastmedian.dask.background(lazy, size=(1, 3, 3), output_array=np.zeros(lazy.shape))


@pytest.mark.parametrize("method", ["exact", "separable"])
def test_dask_on_a_cluster_of_two_worker_processes(client, method):
    lazy = fastmedian.dask.background(da.from_array(STACK, chunks=(1, 16, 20)), size=(1, 15, 15),
                                      method=method, mode="mirror", offset=2)
    assert_same_bits(client.compute(lazy).result(),
                     fastmedian.background(STACK, size=(1, 15, 15), method=method,
                                           mode="mirror", offset=2))
