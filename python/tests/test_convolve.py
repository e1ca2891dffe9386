"""fastmedian.convolve and gaussian_filter against scipy.ndimage.convolve and gaussian_filter
computed in float64, with the CLI tests' bounds (tests/cli/test_convolve_vs_scipy.py): float
output within 1e-5 of scipy's result relative to the sum of |weight x pixel| under the mask;
integer output within 1 of scipy's result clamped to the type. On crops of the shared images and
on random data, every mode; the integer rounding, NaN and Inf, normalisation, the output array
and layouts; fastmedian.dask.convolve and gaussian_filter equal to the direct call bit for bit
for many chunkings, in-process and on a cluster of two worker processes; bad arguments."""
import math

import dask
import dask.array as da
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

import fastmedian
import fastmedian.dask
from conftest import MODES, QUIET_NAN, assert_same_bits

CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}


def masks():
    rng = np.random.default_rng(6)
    cone = np.array([[max(0.0, 5.0 - np.hypot(x - 4, y - 4)) for x in range(9)]
                     for y in range(9)])
    return {
        "3x3": np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float64),  # sharpen
        "5x3": np.round(rng.uniform(-1, 2, (5, 3)), 3),  # mixed signs, not square, asymmetric
        "9x9": cone,                                     # smoothing, integer output
        "31x31": np.round(rng.uniform(0, 1, (31, 31)), 4),  # normalised
    }


MASKS = masks()


def scipy_reference(image, weights=None, sigma=None, mode="reflect", cval=0.0):
    """scipy's result and the sum of |weight x pixel| under the mask, in float64, plane by
    plane; the weights rounded to float32 as the library takes them."""
    x = image.astype(np.float64)
    if weights is not None:
        w = weights.astype(np.float32).astype(np.float64)
        w = w if image.ndim == 2 else w[None]
        return (ndi.convolve(x, w, mode=mode, cval=cval),
                ndi.convolve(np.abs(x), np.abs(w), mode=mode, cval=abs(cval)))
    return (ndi.gaussian_filter(x, sigma, mode=mode, cval=cval, truncate=4.0),
            ndi.gaussian_filter(np.abs(x), sigma, mode=mode, cval=abs(cval), truncate=4.0))


def check(got, want, scale, dtype):
    """got: ours; want and scale: scipy's float64 result and the sum of |terms|. float32
    output within 1e-5 relative to scale; integer output within 1 of want clamped."""
    if got.dtype == np.float32:
        err = np.abs(got.astype(np.float64) - want)
        bad = err > 1e-5 * scale + 1e-30
        assert not bad.any(), (f"{bad.sum()} pixels off; worst relative error "
                               f"{(err / np.maximum(scale, 1e-30)).max():.3g}")
    else:
        assert got.dtype == dtype
        info = np.iinfo(dtype)
        err = np.abs(got.astype(np.float64) - np.clip(want, info.min, info.max))
        assert err.max() <= 1.0, f"{(err > 1).sum()} pixels off by more than 1; worst {err.max()}"


# Crops of the shared images keep the float64 references quick.
IMAGES = {"embryos_grey.tif": np.s_[100:260, 120:330],             # u8
          "cancer_cell_migration_crop.tif": np.s_[10:14, :, :],    # u16, 4 planes of 130x130
          "BPAE_actin.tif": np.s_[200:400, 300:560]}               # f32


@pytest.fixture(scope="module")
def images(shared_data):
    return {name: np.ascontiguousarray(tifffile.imread(shared_data / name)[crop])
            for name, crop in IMAGES.items()}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("image", list(IMAGES))
def test_real_image_against_scipy_convolve(images, image, name, mode):
    img = images[image]
    mask = MASKS[name]
    normalize = name == "31x31"
    # Integer images get float output where the mask's terms are too large for a float32 sum
    # to round to within 1 (as in the CLI tests).
    floats = img.dtype == np.float32 or name == "5x3"
    cval = CVAL[img.dtype] if mode == "constant" else 0.0
    got = fastmedian.convolve(img, mask, mode=mode, cval=cval, normalize=normalize,
                              output=np.float32 if floats else None, backend="cpu")
    assert got.flags.c_contiguous and got.shape == img.shape
    weights = mask.astype(np.float32)
    if normalize:
        weights = (weights.astype(np.float64) / weights.astype(np.float64).sum())
    check(got, *scipy_reference(img, weights, mode=mode, cval=cval), img.dtype)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sigma", [1, 3, 10, (0.7, 4.5)], ids=str)
@pytest.mark.parametrize("image", list(IMAGES))
def test_real_image_against_scipy_gaussian(images, image, sigma, mode):
    img = images[image]
    floats = img.dtype == np.float32 or sigma == 3
    cval = CVAL[img.dtype] if mode == "constant" else 0.0
    sigmas = sigma if img.ndim == 2 else (0,) + (sigma if isinstance(sigma, tuple) else
                                                 (sigma, sigma))
    got = fastmedian.gaussian_filter(img, sigmas, mode=mode, cval=cval,
                                     output="float32" if floats else None, backend="cpu")
    check(got, *scipy_reference(img, sigma=sigmas, mode=mode, cval=cval), img.dtype)


def random_image(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.float32:
        return (rng.standard_normal(shape) * 100).astype(np.float32)
    return rng.integers(0, np.iinfo(dtype).max, shape, endpoint=True).astype(dtype)


RANDOM_CASES = [  # weights, normalize, float output for integer images
    (MASKS["3x3"], False, False),
    (MASKS["5x3"], False, True),
    (np.round(np.random.default_rng(8).uniform(-0.5, 1, (7, 11)), 3), True, False),
    (np.ones((1, 1)) * 0.75, False, False),
    (np.array([[1.0, 2.0, 1.0]]), False, False),  # a single row
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(RANDOM_CASES)))
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_random_stack_against_scipy(dtype, case, mode):
    weights, normalize, floats = RANDOM_CASES[case]
    img = random_image(dtype, (2, 37, 45), seed=case + 3 * len(mode))
    cval = CVAL[np.dtype(dtype)] if mode == "constant" else 0.0
    # A stack takes 2D weights or scipy's (1, kh, kw).
    w = weights if case % 2 else weights[None]
    got = fastmedian.convolve(img, w, mode=mode, cval=cval, normalize=normalize,
                              output=np.float32 if floats else None)
    ref = weights.astype(np.float32).astype(np.float64)
    if normalize:
        ref = ref / ref.sum()
    check(got, *scipy_reference(img, ref, mode=mode, cval=cval), img.dtype)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32], ids=["u8", "f32"])
def test_mask_larger_than_the_image(dtype, mode):
    """A 9x9 mask and a Gaussian of radius 12 on a 5x6 image: the border keeps extending as
    scipy's does."""
    img = random_image(dtype, (5, 6), seed=1)
    weights = np.round(np.random.default_rng(2).uniform(0, 1, (9, 9)), 3)
    got = fastmedian.convolve(img, weights, mode=mode, cval=7, output=np.float32)
    check(got, *scipy_reference(img, weights, mode=mode, cval=7), img.dtype)
    got = fastmedian.gaussian_filter(img, 3, mode=mode, cval=7, output=np.float32)
    check(got, *scipy_reference(img, sigma=3, mode=mode, cval=7), img.dtype)


def test_integer_output_is_clamped_then_rounded_half_away_from_zero():
    img = np.array([[0, 1, 3, 5, 7, 200, 255]], np.uint8)
    assert fastmedian.convolve(img, [[0.5]]).tolist() == [[0, 1, 2, 3, 4, 100, 128]]
    assert fastmedian.convolve(img, [[1.5]]).tolist() == [[0, 2, 5, 8, 11, 255, 255]]
    assert fastmedian.convolve(img, [[-1.0]]).tolist() == [[0] * 7]
    u16 = np.array([[1, 3, 65535]], np.uint16)
    assert fastmedian.convolve(u16, [[2.5]]).tolist() == [[3, 8, 65535]]
    # Sums -0.5 (clamped to 0) and 0.5 (rounded to 1).
    assert fastmedian.convolve(np.array([[1, 1]], np.uint8), [[-1.0, 0.5, 0.0]],
                               mode="constant").tolist() == [[0, 1]]


def test_true_convolution_flips_the_mask():
    """An impulse spreads as the mask flipped, as scipy's convolve (not its correlate)."""
    img = np.zeros((5, 5), np.float32)
    img[2, 2] = 1
    w = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    got = fastmedian.convolve(img, w, mode="constant")
    assert_same_bits(got[1:4, 1:4], w)
    assert_same_bits(got, ndi.convolve(img, w, mode="constant"))


def test_nan_and_inf_propagate_as_in_scipy():
    """Under nonzero weights, as scipy's float64 result: a NaN under the mask gives NaN
    (written as 0x7FC00000), +Inf gives +Inf, or NaN beside -Inf."""
    rng = np.random.default_rng(4)
    img = (rng.standard_normal((40, 50)) * 10).astype(np.float32)
    img[rng.random(img.shape) < 0.01] = np.nan
    img[5, 7], img[20, 30], img[22, 31] = np.inf, np.inf, -np.inf
    img[30, 10] = np.array(0x7FC01234, np.uint32).view(np.float32)  # a NaN with a payload
    weights = MASKS["5x3"]
    assert (weights != 0).all()
    for mode in MODES:
        got = fastmedian.convolve(img, weights, mode=mode, cval=np.nan)
        want, scale = scipy_reference(img, weights, mode=mode, cval=np.nan)
        assert np.array_equal(np.isnan(got), np.isnan(want)), mode
        assert np.array_equal(np.isinf(got), np.isinf(want)), mode
        assert np.array_equal(got[np.isinf(got)], want[np.isinf(want)]), mode
        assert (got.view(np.uint32)[np.isnan(got)] == QUIET_NAN).all()
        finite = np.isfinite(want)
        check(got[finite], want[finite], scale[finite], img.dtype)
    got = fastmedian.gaussian_filter(img, 1.5)
    want, _ = scipy_reference(img, sigma=1.5)
    assert np.array_equal(np.isnan(got), np.isnan(want))


def test_nan_under_a_zero_weight_gives_nan_unlike_scipy():
    """The library multiplies every pixel under the mask, zero weights too (0 x NaN and
    0 x Inf are NaN); scipy skips zero weights."""
    for bad in (np.nan, np.inf):
        img = np.zeros((5, 5), np.float32)
        img[1, 1] = bad  # under the sharpening mask's zero corner for the centre pixel
        got = fastmedian.convolve(img, MASKS["3x3"])
        assert np.isnan(got[2, 2]) and got[2, 2].view(np.uint32) == QUIET_NAN
        assert ndi.convolve(img.astype(np.float64), MASKS["3x3"])[2, 2] == 0


def test_normalize_divides_by_the_sum():
    img = random_image(np.uint16, (30, 40), seed=5)
    w = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]])
    got = fastmedian.convolve(img, w, normalize=True, mode="nearest")
    check(got, *scipy_reference(img, w / 16.0, mode="nearest"), img.dtype)
    # Dividing by 16 is exact, so the result equals the division done beforehand.
    assert_same_bits(got, fastmedian.convolve(img, w / 16.0, mode="nearest"))


def test_gaussian_mask_is_scipys():
    for sigma in (0.3, 1, 2.5, 10, 127):
        mask = fastmedian._native.gaussian_mask(sigma)
        radius = int(4 * sigma + 0.5)
        x = np.arange(-radius, radius + 1)
        phi = np.exp(-0.5 / sigma ** 2 * x ** 2)
        assert mask.dtype == np.float32 and mask.shape == (2 * radius + 1,)
        np.testing.assert_allclose(mask, phi / phi.sum(), rtol=1e-6, atol=0)


def test_gaussian_sigma_forms():
    img = random_image(np.float32, (3, 30, 40), seed=7)
    plane = img[1]
    stack = fastmedian.gaussian_filter(img, (0, 2, 2))
    assert_same_bits(stack[1], fastmedian.gaussian_filter(plane, 2))
    assert_same_bits(fastmedian.gaussian_filter(plane, [2, 2]),
                     fastmedian.gaussian_filter(plane, np.float64(2)))
    # sigma 0 leaves that axis alone, as in scipy: a blur along x only.
    along_x = fastmedian.gaussian_filter(plane, (0, 1.5), mode="wrap")
    check(along_x, *scipy_reference(plane, sigma=(0, 1.5), mode="wrap"), plane.dtype)
    integers = random_image(np.uint8, (20, 30), seed=7)
    assert_same_bits(fastmedian.gaussian_filter(integers, 0), integers)


def test_defaults_are_scipys():
    """mode "reflect", cval 0, the image's dtype out."""
    img = random_image(np.uint8, (25, 30), seed=9)
    assert_same_bits(fastmedian.convolve(img, MASKS["9x9"] / 50),
                     fastmedian.convolve(img, MASKS["9x9"] / 50, mode="reflect",
                                         output=np.uint8))
    assert_same_bits(fastmedian.gaussian_filter(img, 2),
                     fastmedian.gaussian_filter(img, 2, mode="reflect", cval=0.0))


@pytest.fixture
def native_arrays(monkeypatch):
    """The image and output arrays that reach the native module, call by call."""
    seen = []
    native = fastmedian.filters._native.convolve

    def spy(image, output_array, *args):
        seen.append((image, output_array))
        return native(image, output_array, *args)
    monkeypatch.setattr(fastmedian.filters._native, "convolve", spy)
    return seen


def test_output_array_is_written_and_returned(native_arrays):
    img = random_image(np.uint8, (2, 20, 24), seed=6)
    out = np.full(img.shape, 7, np.float32)
    got = fastmedian.convolve(img, MASKS["5x3"], output=out)
    assert got is out
    assert np.shares_memory(native_arrays[0][1], out)  # written in place, no temporary
    assert_same_bits(out, fastmedian.convolve(img, MASKS["5x3"], output=np.float32))
    fortran = np.asfortranarray(np.zeros(img.shape[1:], np.uint8))
    assert fastmedian.gaussian_filter(img[0], 2, output=fortran) is fortran
    assert_same_bits(fortran, fastmedian.gaussian_filter(img[0], 2))


def test_output_takes_a_dtype_or_an_array_as_scipy():
    """output=, as scipy.ndimage's: a dtype (float32 or the image's own) for a new array of it,
    or an array of one of them to write into."""
    img = random_image(np.uint16, (20, 24), seed=3)
    floats = fastmedian.convolve(img, MASKS["5x3"], output=np.float32)
    assert floats.dtype == np.float32 and floats.flags.c_contiguous
    check(floats, *scipy_reference(img, MASKS["5x3"]), img.dtype)
    for dtype in ("float32", np.dtype(np.float32)):
        assert_same_bits(fastmedian.convolve(img, MASKS["5x3"], output=dtype), floats)
    own = fastmedian.convolve(img, MASKS["5x3"])
    assert own.dtype == np.uint16
    for dtype in (np.uint16, "uint16"):
        assert_same_bits(fastmedian.convolve(img, MASKS["5x3"], output=dtype), own)
    for out in (np.empty(img.shape, np.float32), np.empty(img.shape, np.uint16)):
        assert fastmedian.convolve(img, MASKS["5x3"], output=out) is out
        assert_same_bits(out, floats if out.dtype == np.float32 else own)
    blurred = fastmedian.gaussian_filter(img, 2, output="float32")
    assert blurred.dtype == np.float32
    check(blurred, *scipy_reference(img, sigma=2), img.dtype)
    out = np.empty(img.shape, np.float32)
    assert fastmedian.gaussian_filter(img, 2, output=out) is out
    assert_same_bits(out, blurred)


@pytest.mark.parametrize("name,view,in_place", [
    ("sub-rectangle", lambda a: a[3:30, 2:40], True),
    ("every other row", lambda a: a[::2], True),
    ("transposed", lambda a: a.T, False),
])
def test_layouts(native_arrays, name, view, in_place):
    base = random_image(np.uint16, (36, 44), seed=2)
    v = view(base)
    got = fastmedian.convolve(v, MASKS["5x3"], output=np.float32)
    assert np.shares_memory(native_arrays[0][0], base) == in_place
    assert_same_bits(got, fastmedian.convolve(np.ascontiguousarray(v), MASKS["5x3"],
                                              output=np.float32))


def test_input_is_not_written_and_may_be_read_only():
    img = random_image(np.float32, (20, 21), seed=1)
    before = img.copy()
    img.flags.writeable = False
    fastmedian.convolve(img, MASKS["3x3"])
    fastmedian.gaussian_filter(img, 1)
    assert_same_bits(img, before)


IMAGE = np.zeros((8, 9), np.uint16)
STACK = np.zeros((2, 8, 9), np.float32)
W3 = np.ones((3, 3))


@pytest.mark.parametrize("image,kwargs,error,names", [
    (IMAGE.astype(np.complex64), {"weights": W3}, TypeError, "image"),
    (IMAGE.astype(">u2"), {"weights": W3}, TypeError, "image must be in this machine's byte"),
    (np.zeros((2, 2, 2, 2), np.uint8), {"weights": W3}, ValueError, "image"),
    (IMAGE, {"weights": np.ones((3, 3), complex)}, TypeError, "weights"),
    (IMAGE, {"weights": [[1, 2], [3]]}, TypeError, "weights"),
    (IMAGE, {"weights": np.ones(3)}, ValueError, "weights must be 2D"),
    (IMAGE, {"weights": np.ones((1, 3, 3))}, ValueError, "weights must be 2D"),
    (STACK, {"weights": np.ones((3, 3, 3))}, ValueError, "weights for a 3D stack"),
    (IMAGE, {"weights": np.ones((3, 4))}, ValueError, "weights must have odd sides"),
    (IMAGE, {"weights": np.ones((65, 65))}, ValueError, "weights must have odd sides"),
    (IMAGE, {"weights": np.ones((0, 3))}, ValueError, "weights must have odd sides"),
    (IMAGE, {"weights": W3 * np.nan}, ValueError, "weights must be finite"),
    (IMAGE, {"weights": W3 * 1e300}, ValueError, "weights must be finite"),
    (IMAGE, {"weights": MASKS["3x3"] - np.eye(3)}, None, None),  # sums to 0: fine
    (IMAGE, {"weights": MASKS["3x3"] - [[0, 0, 0], [0, 1, 0], [0, 0, 0]],
             "normalize": True}, ValueError, "normalize needs weights whose sum is not 0"),
    (IMAGE, {"weights": W3, "normalize": "yes"}, TypeError, "normalize"),
    (IMAGE, {"weights": W3, "output": np.float64}, ValueError,
     "output must be an array to write into or a dtype, float32 or the image's dtype uint16 "
     r"\(np.float32, \"float32\"\); got float64"),
    (IMAGE, {"weights": W3, "output": np.uint8}, ValueError, "output .* got uint8"),
    (IMAGE, {"weights": W3, "output": "pixels"}, ValueError, "output .* got 'pixels'"),
    (IMAGE, {"weights": W3, "output": 3}, ValueError, "output .* got 3"),
    (IMAGE, {"weights": W3, "mode": "grid-wrap"}, ValueError, "mode"),
    (IMAGE, {"weights": W3, "cval": "0"}, TypeError, "cval"),
    (IMAGE, {"weights": W3, "mode": "constant", "cval": float("nan")}, ValueError, "cval"),
    (IMAGE, {"weights": W3, "backend": "gpu"}, ValueError, "backend"),
    (IMAGE, {"weights": W3, "device": -1}, ValueError, "device"),
    (IMAGE, {"weights": W3, "device": 0.5}, TypeError, "device"),
    (IMAGE, {"weights": W3, "output": [[0]]}, ValueError, "output must be an array"),
    (IMAGE, {"weights": W3, "output": np.zeros((8, 9), np.uint8)}, TypeError,
     "output must be an array of float32 or the image's dtype uint16, got dtype uint8"),
    (IMAGE, {"weights": W3, "output": np.zeros((9, 8), np.uint16)}, ValueError,
     "output must have the image's shape"),
    (IMAGE, {"weights": W3, "output": np.zeros((8, 9), np.float32)[::-1]}, None, None),
    (IMAGE, {"weights": W3, "output": IMAGE}, ValueError, "output must not overlap"),
    # The old keywords are gone.
    (IMAGE, {"weights": W3, "output_dtype": np.float32}, TypeError, "output_dtype"),
    (IMAGE, {"weights": W3, "output_array": np.zeros((8, 9), np.uint16)}, TypeError,
     "output_array"),
])
def test_convolve_bad_arguments_name_the_parameter(image, kwargs, error, names):
    if error is None:
        fastmedian.convolve(image, **kwargs)
        return
    with pytest.raises(error, match=names):
        fastmedian.convolve(image, **kwargs)


@pytest.mark.parametrize("image,kwargs,error,names", [
    (IMAGE.astype(object), {"sigma": 1}, TypeError, "image"),
    (IMAGE, {"sigma": "1"}, TypeError, "sigma"),
    (IMAGE, {"sigma": True}, TypeError, "sigma"),
    (IMAGE, {"sigma": None}, TypeError, "sigma"),
    (IMAGE, {"sigma": -1}, ValueError, "sigma"),
    (IMAGE, {"sigma": float("nan")}, ValueError, "sigma"),
    (IMAGE, {"sigma": 128}, ValueError, "sigma"),
    (IMAGE, {"sigma": (1, 2, 3)}, ValueError, "sigma"),
    (IMAGE, {"sigma": (1.5,)}, ValueError, "sigma for a 2D image"),  # as scipy
    (STACK, {"sigma": 2}, ValueError, r"sigma=\(0, 2, 2\)"),
    (STACK, {"sigma": (1, 2, 2)}, ValueError, "sigma"),
    (STACK, {"sigma": (2, 2)}, ValueError, "sigma"),
    (IMAGE, {"sigma": 1, "truncate": 3.0}, ValueError, "truncate"),
    (IMAGE, {"sigma": 1, "truncate": "4"}, TypeError, "truncate"),
    (IMAGE, {"sigma": 1, "mode": "grid-mirror"}, ValueError, "mode"),
    (IMAGE, {"sigma": 1, "output": np.int16}, ValueError, "output .* got int16"),
    (IMAGE, {"sigma": 1, "output": np.zeros((8, 9), np.float64)}, TypeError, "output"),
    (IMAGE, {"sigma": 1, "output_dtype": np.float32}, TypeError, "output_dtype"),
    (IMAGE, {"sigma": 1, "output_array": np.zeros((8, 9), np.uint16)}, TypeError,
     "output_array"),
    (IMAGE, {"sigma": 1, "backend": "gpu"}, ValueError, "backend"),
])
def test_gaussian_bad_arguments_name_the_parameter(image, kwargs, error, names):
    with pytest.raises(error, match=names):
        fastmedian.gaussian_filter(image, **kwargs)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_cuda_equals_cpu(dtype):
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no CUDA device: {fastmedian.cuda_unavailable_reason()}")
    img = random_image(dtype, (2, 170, 201), seed=12)
    for mode in MODES:
        for out in (None, np.float32):
            for call in (lambda **k: fastmedian.convolve(img, MASKS["5x3"], **k),
                         lambda **k: fastmedian.convolve(img, MASKS["31x31"], normalize=True,
                                                         **k),
                         lambda **k: fastmedian.gaussian_filter(img, (0, 3, 1.5), **k)):
                args = dict(mode=mode, cval=5, output=out)
                assert_same_bits(call(backend="cuda", **args), call(backend="cpu", **args))


# --- the other dtypes, through float32 ---

OTHER_DTYPES = [bool, np.int8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float16,
                np.float64]


def other_image(dtype, shape, seed):
    """Values over the dtype's range where float32 holds them exactly (|x| <= 2^20), signed
    ones negative too; floats with fractions."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.dtype(bool):
        return rng.random(shape) > 0.5
    if dt.kind == "f":
        return rng.normal(0, 300, shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(max(info.min, -2**20), min(info.max, 2**20), shape).astype(dt)


def in_dtype(as_float, dtype):
    """The library's rule for integer outputs, stated apart: NaN to the low end, clamped to the
    range, rounded half away from zero; floats converted."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return as_float.astype(dt)
    lo, hi = (0, 1) if dt == np.dtype(bool) else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
    out = []
    for v in as_float.astype(np.float64).ravel():
        v = lo if np.isnan(v) else min(max(v, lo), hi)
        r = math.floor(abs(v) + 0.5)
        out.append(min(max(int(r if v >= 0 else -r), lo), hi))
    return np.array(out, dtype=object).reshape(as_float.shape).astype(dt)


def cval_in(cval, dtype):
    """cval as the float32 image of a `dtype` image takes it (rounded half away from zero and
    clamped for integers)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return cval
    lo, hi = (0, 1) if dt == np.dtype(bool) else (np.iinfo(dt).min, np.iinfo(dt).max)
    return float(min(max(math.copysign(math.floor(abs(cval) + 0.5), cval), lo), hi))


@pytest.mark.parametrize("mode", ["reflect", "constant"])
@pytest.mark.parametrize("dtype", OTHER_DTYPES, ids=lambda d: np.dtype(d).name)
def test_other_dtypes_run_in_float32_and_come_back_in_their_own(dtype, mode):
    """The image as float32 through the library (its arithmetic), written in the image's
    dtype by the library's integer rules, or as float32 when asked; within float32's bound of
    scipy's float64 result."""
    image = other_image(dtype, (2, 23, 31), seed=3)
    weights = MASKS["3x3"][None] * 1.5  # sharpens past the range of the narrow types
    args = dict(mode=mode, cval=-2.5, backend="cpu")
    as_float = fastmedian.convolve(image.astype(np.float32), weights, output=np.float32,
                                   **{**args, "cval": cval_in(-2.5, dtype)})
    got = fastmedian.convolve(image, weights, **args)
    assert got.dtype == np.dtype(dtype)
    assert_same_bits(got, in_dtype(as_float, dtype))
    assert_same_bits(fastmedian.convolve(image, weights, output=np.float32, **args), as_float)
    into = np.full(image.shape, 7, dtype)
    assert fastmedian.convolve(image, weights, output=into, **args) is into
    assert_same_bits(into, got)
    want, scale = scipy_reference(image, weights[0], mode=mode, cval=cval_in(-2.5, dtype))
    check(as_float, want, scale, np.float32)


@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.uint32], ids=lambda d: np.dtype(d).name)
def test_gaussian_of_other_dtypes(dtype):
    image = other_image(dtype, (40, 50), seed=4)
    got = fastmedian.gaussian_filter(image, 2.5, backend="cpu")
    as_float = fastmedian.gaussian_filter(image.astype(np.float32), 2.5, backend="cpu")
    assert_same_bits(got, in_dtype(as_float, dtype))
    check(as_float, *scipy_reference(image, sigma=2.5), np.float32)


def test_integer_outputs_of_other_dtypes_round_half_away_and_clamp():
    image = np.array([[-3, 3, 5, -7, 100, -100]], np.int8)
    assert fastmedian.convolve(image, [[0.5]]).tolist() == [[-2, 2, 3, -4, 50, -50]]
    assert fastmedian.convolve(image, [[2.0]]).tolist() == [[-6, 6, 10, -14, 127, -128]]
    big = np.array([[2**62, -2**62]], np.int64)
    assert fastmedian.convolve(big, [[4.0]]).tolist() == [[2**63 - 1024, -2**63]]


@pytest.mark.parametrize("dtype", [np.int16, np.float64], ids=lambda d: np.dtype(d).name)
def test_dask_convolve_of_other_dtypes_equals_direct_call(dtype):
    image = other_image(dtype, (2, 30, 41), seed=6)
    lazy = da.from_array(image, chunks=(1, 9, 13))
    got = fastmedian.dask.convolve(lazy, MASKS["5x3"], mode="wrap", backend="cpu")
    assert got.dtype == np.dtype(dtype)
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.convolve(image, MASKS["5x3"], mode="wrap", backend="cpu"))


# --- fastmedian.dask.convolve and gaussian_filter ---

RNG = np.random.default_rng(33)
DASK_STACK = RNG.integers(0, 4000, size=(3, 45, 52), dtype=np.uint16)
CHUNKINGS = [(3, 45, 52), (1, 10, 13), (2, 7, 30), (3, 45, 4), (1, (1, 20, 24), (50, 2))]
# Halos from 1 to 16, deeper than some chunks (dask then merges chunks); float output too.
DASK_FILTERS = {
    "3x3": lambda f, a, **k: f.convolve(a, MASKS["3x3"], **k),
    "5x3 float": lambda f, a, **k: f.convolve(a, MASKS["5x3"], output=np.float32, **k),
    "31x31 normalized": lambda f, a, **k: f.convolve(a, MASKS["31x31"][None], normalize=True,
                                                     **k),
    "gaussian 1": lambda f, a, **k: f.gaussian_filter(a, (0, 1, 1), **k),
    "gaussian 4 x 0.5 float": lambda f, a, **k: f.gaussian_filter(a, (0, 4, 0.5),
                                                                  output="float32", **k),
}


@pytest.mark.parametrize("name", list(DASK_FILTERS))
@pytest.mark.parametrize("chunks", CHUNKINGS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_dask_equals_direct_call(mode, chunks, name):
    lazy = da.from_array(DASK_STACK, chunks=chunks)
    call = DASK_FILTERS[name]
    got = call(fastmedian.dask, lazy, mode=mode, cval=4, backend="cpu")
    want = call(fastmedian, DASK_STACK, mode=mode, cval=4, backend="cpu")
    assert got.chunks == lazy.chunks and got.dtype == want.dtype
    assert_same_bits(got.compute(scheduler="threads"), want)


@pytest.mark.parametrize("chunks", [(1, 5, 7), (2, 12, 30), (1, 3, 29)], ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_dask_mask_reaching_across_the_array(mode, chunks):
    """Halos of 15 (31x31) and 20 (sigma 5) along y (12 rows): that axis is filtered whole, x
    still in chunks."""
    image = DASK_STACK[:2, :12, :30]
    lazy = da.from_array(image, chunks=chunks)
    args = dict(mode=mode, cval=4)
    assert_same_bits(fastmedian.dask.convolve(lazy, MASKS["31x31"], normalize=True, **args)
                     .compute(scheduler="threads"),
                     fastmedian.convolve(image, MASKS["31x31"], normalize=True, **args))
    assert_same_bits(fastmedian.dask.gaussian_filter(lazy, (0, 5, 2), **args)
                     .compute(scheduler="threads"),
                     fastmedian.gaussian_filter(image, (0, 5, 2), **args))


@pytest.mark.parametrize("mode", MODES)
def test_dask_float_image_with_nan(mode):
    image = random_image(np.float32, (64, 70), seed=len(mode))
    image[RNG.random(image.shape) < 0.02] = np.nan
    lazy = da.from_array(image, chunks=(9, 16))
    assert_same_bits(fastmedian.dask.convolve(lazy, MASKS["5x3"], mode=mode, cval=np.nan)
                     .compute(scheduler="threads"),
                     fastmedian.convolve(image, MASKS["5x3"], mode=mode, cval=np.nan))
    assert_same_bits(fastmedian.dask.gaussian_filter(lazy, 2, mode=mode)
                     .compute(scheduler="threads"),
                     fastmedian.gaussian_filter(image, 2, mode=mode))


def test_dask_bad_arguments_raise_before_compute():
    lazy = da.zeros((4, 10, 10), dtype=np.uint8, chunks=(1, 5, 5))
    with pytest.raises(ValueError, match="weights for a 3D stack"):
        fastmedian.dask.convolve(lazy, np.ones((3, 3, 3)))
    with pytest.raises(TypeError, match="image"):
        fastmedian.dask.convolve(lazy.astype(np.complex64), W3)
    with pytest.raises(ValueError, match="normalize"):
        fastmedian.dask.convolve(lazy, W3 - 1, normalize=True)
    with pytest.raises(ValueError, match="sigma"):
        fastmedian.dask.gaussian_filter(lazy, 2)
    with pytest.raises(ValueError, match="output .* got float64"):
        fastmedian.dask.gaussian_filter(lazy, (0, 2, 2), output=np.float64)
    with pytest.raises(TypeError, match="output must be a NumPy array, got Array"):
        fastmedian.dask.convolve(lazy, W3, output=da.zeros(lazy.shape, dtype=np.float32))
    # The old keywords are gone.
    with pytest.raises(TypeError, match="output_dtype"):
        fastmedian.dask.convolve(lazy, W3, output_dtype=np.float32)
    with pytest.raises(TypeError, match="output_array"):
        fastmedian.dask.gaussian_filter(lazy, (0, 2, 2), output_array=np.zeros(lazy.shape))


def test_dask_output_dtype_stays_lazy():
    """A dtype in output= gives a lazy result of that dtype; an array is computed into."""
    lazy = da.from_array(DASK_STACK, chunks=(1, 20, 26))
    got = fastmedian.dask.convolve(lazy, MASKS["5x3"], output=np.float32)
    assert isinstance(got, da.Array) and got.dtype == np.float32
    want = fastmedian.convolve(DASK_STACK, MASKS["5x3"], output=np.float32)
    assert_same_bits(got.compute(scheduler="threads"), want)
    out = np.empty(DASK_STACK.shape, np.float32)
    with dask.config.set(scheduler="threads"):
        assert fastmedian.dask.convolve(lazy, MASKS["5x3"], output=out) is out
    assert_same_bits(out, want)


def test_dask_on_a_cluster_of_two_worker_processes(client):
    lazy = da.from_array(DASK_STACK, chunks=(1, 16, 20))
    got = fastmedian.dask.convolve(lazy, MASKS["5x3"], mode="mirror", output=np.float32)
    assert_same_bits(client.compute(got).result(),
                     fastmedian.convolve(DASK_STACK, MASKS["5x3"], mode="mirror",
                                         output=np.float32))
    got = fastmedian.dask.gaussian_filter(lazy, (0, 3, 3), mode="wrap")
    assert_same_bits(client.compute(got).result(),
                     fastmedian.gaussian_filter(DASK_STACK, (0, 3, 3), mode="wrap"))
