"""Every dtype scipy users pass, exact: bool, int8 and int16 through uint8/uint16 with the sign
bit flipped, float16 through float32, and int32, uint32, int64, uint64 and float64 through the
ranks of their values (fastmedian/_dtypes.py). Checked against a sort of each window, and
against scipy where scipy is exact (it filters 64-bit integers through doubles)."""
import numpy as np
import pytest
import scipy.ndimage as ndi
from numpy.lib.stride_tricks import sliding_window_view

import fastmedian

INTEGERS = [np.int8, np.int16, np.int32, np.uint32, np.int64, np.uint64]
EVERY = [bool, *INTEGERS, np.float16, np.float64]
MODES = ["nearest", "reflect", "mirror", "wrap", "constant"]
NUMPY_PAD = {"nearest": "edge", "reflect": "symmetric", "mirror": "reflect", "wrap": "wrap",
             "constant": "constant"}


def random_array(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == bool:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 1000).astype(dtype)
    info = np.iinfo(dtype)  # the whole range, both ends included
    a = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    a.flat[:2] = info.min, info.max
    return a


def order(values):
    """Indices sorting values in the library's order: -0 below +0, NaN above +Inf."""
    v = values.astype(np.float64) if values.dtype.kind == "f" else values
    if values.dtype.kind != "f":
        return np.argsort(v, axis=-1, kind="stable")
    return np.lexsort((~np.signbit(v), v, np.isnan(v)), axis=-1)


def window_median(image, k, mode, cval):
    """The median of each k x k window of a 2D image, by sorting it."""
    extra = {"constant_values": np.array(cval).astype(image.dtype)} if mode == "constant" else {}
    padded = np.pad(image, k // 2, mode=NUMPY_PAD[mode], **extra)
    windows = sliding_window_view(padded, (k, k)).reshape(image.shape + (k * k,))
    ranked = np.take_along_axis(windows, order(windows), axis=-1)
    return ranked[..., (k * k - 1) // 2]


def assert_same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "f":  # every NaN the quiet NaN, as the library writes them
        want = want.copy()
        want[np.isnan(want)] = np.nan
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", EVERY, ids=lambda d: np.dtype(d).name)
def test_median_filter_equals_the_sorted_windows(dtype, mode):
    image = random_array(dtype, (37, 45), seed=len(mode))
    got = fastmedian.median_filter(image, size=5, mode=mode, cval=3, backend="cpu")
    assert_same_bits(got, window_median(image, 5, mode, 3))
    # scipy filters 64-bit integers through doubles, refuses float16, and writes cval 3 into a
    # bool output as the byte 3.
    inexact = (np.dtype(np.int64), np.dtype(np.uint64), np.dtype(np.float16))
    if np.dtype(dtype) not in inexact and not (dtype is bool and mode == "constant"):
        assert_same_bits(got, ndi.median_filter(image, size=5, mode=mode, cval=3))


def test_float64_specials_in_the_library_order():
    image = random_array(np.float64, (30, 33), seed=5)
    specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0]
    rng = np.random.default_rng(6)
    image.flat[rng.choice(image.size, 300, replace=False)] = rng.choice(specials, 300)
    for mode in MODES:
        got = fastmedian.median_filter(image, size=3, mode=mode, cval=np.nan, backend="cpu")
        assert_same_bits(got, window_median(image, 3, mode, np.nan))


def test_more_distinct_values_than_uint16_ranks_go_through_float32_ranks():
    image = random_array(np.float64, (300, 301), seed=7)  # about 90,000 distinct values
    assert len(np.unique(image)) > 2**16
    got = fastmedian.median_filter(image, size=3, backend="cpu")
    assert_same_bits(got, ndi.median_filter(image, size=3, mode="nearest"))


def test_more_distinct_values_than_float32_ranks_hold_are_refused():
    image = np.arange(2**24 + 1, dtype=np.int64).reshape(1, -1)
    with pytest.raises(ValueError, match="image has 16777217 distinct values; int64 arrays are "
                                         "filtered through the ranks of their values"):
        fastmedian.median_filter(image, size=3)


@pytest.mark.parametrize("dtype", [bool, np.int16, np.uint32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_3d_windows(dtype):
    volume = random_array(dtype, (6, 17, 19), seed=8)
    for size in [(1, 3, 3), (3, 3, 3)]:
        got = fastmedian.median_filter(volume, size=size, mode="reflect", backend="cpu")
        assert_same_bits(got, ndi.median_filter(volume, size=size, mode="reflect"))


def test_a_list_of_ints_and_an_output_of_the_dtype():
    assert_same_bits(fastmedian.median_filter([[1, 9, 2], [8, 3, 7]], size=3),
                     ndi.median_filter(np.array([[1, 9, 2], [8, 3, 7]]), size=3, mode="nearest"))
    image = random_array(np.int16, (20, 21), seed=9)
    out = np.zeros_like(image)
    assert fastmedian.median_filter(image, size=3, output=out) is out
    assert_same_bits(out, window_median(image, 3, "nearest", 0))
    with pytest.raises(TypeError, match="output must have the image's dtype int16"):
        fastmedian.median_filter(image, size=3, output=np.zeros(image.shape, np.uint16))


def test_integer_cval_rounds_half_away_and_clamps_as_for_uint16():
    image = random_array(np.int16, (15, 16), seed=10)
    for cval, used in [(2.5, 3), (-2.5, -3), (1e9, 32767), (-1e9, -32768)]:
        got = fastmedian.median_filter(image, size=5, mode="constant", cval=cval)
        assert_same_bits(got, window_median(image, 5, "constant", used))
    with pytest.raises(ValueError, match="cval must be finite for integer images"):
        fastmedian.median_filter(image, size=3, mode="constant", cval=np.inf)


def temporal_reference(stack, n, subtract=False, offset=0):
    """Frames first: output t is the median of frames [s, s + n), s = t - n // 2 moved inward."""
    frames = stack.shape[0]
    out = np.empty_like(stack)
    for t in range(frames):
        s = min(max(t - n // 2, 0), frames - n)
        window = np.moveaxis(stack[s:s + n], 0, -1)
        out[t] = np.take_along_axis(window, order(window), axis=-1)[..., (n - 1) // 2]
    return subtract_reference(stack, out, offset) if subtract else out


def subtract_reference(image, median, offset):
    if image.dtype.kind == "f":
        return (image - median) + image.dtype.type(offset)
    lo, hi = (0, 1) if image.dtype == bool else (np.iinfo(image.dtype).min, np.iinfo(image.dtype).max)
    step = int(np.sign(offset) * np.floor(abs(offset) + 0.5))
    exact = [int(a) - int(b) + step for a, b in zip(image.ravel(), median.ravel())]
    return np.clip(np.array(exact, dtype=object), lo, hi).astype(image.dtype).reshape(image.shape)


@pytest.mark.parametrize("dtype", EVERY, ids=lambda d: np.dtype(d).name)
def test_temporal_median_and_subtract(dtype):
    stack = random_array(dtype, (9, 7, 8), seed=11)
    assert_same_bits(fastmedian.temporal_median(stack, 4, backend="cpu"),
                     temporal_reference(stack, 4))
    got = fastmedian.temporal_median(stack, 5, mode="subtract", offset=-2.5, backend="cpu")
    assert_same_bits(got, temporal_reference(stack, 5, True, -2.5))
    # The frame axis last, into an output of the dtype.
    out = np.empty((7, 8, 9), stack.dtype)
    moved = np.ascontiguousarray(np.moveaxis(stack, 0, -1))
    assert fastmedian.temporal_median(moved, 3, axis=-1, output=out) is out
    assert_same_bits(out, np.moveaxis(temporal_reference(stack, 3), 0, -1))


@pytest.mark.parametrize("dtype", EVERY, ids=lambda d: np.dtype(d).name)
def test_background_both_outputs_both_methods(dtype):
    image = random_array(dtype, (33, 40), seed=12)
    for method in ["exact", "separable"]:
        if method == "exact":
            estimate = window_median(image, 7, "reflect", 0)
        else:
            estimate = ndi.median_filter(ndi.median_filter(
                image.astype(np.float32) if image.dtype == np.float16 else image, size=(7, 1),
                mode="reflect"), size=(1, 7), mode="reflect").astype(image.dtype)
            if image.dtype in (np.dtype(np.int64), np.dtype(np.uint64)):
                continue  # scipy's 64-bit integer medians go through doubles
        got = fastmedian.background(image, size=7, method=method, subtract=False,
                                    mode="reflect", backend="cpu")
        assert_same_bits(got, estimate)
        got = fastmedian.background(image, size=7, method=method, offset=100.5, mode="reflect",
                                    backend="cpu")
        assert_same_bits(got, subtract_reference(image, estimate, 100.5))


# --- fastmedian.dask: each chunk through the same maps ---

@pytest.mark.parametrize("dtype", [bool, np.int16, np.uint32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_dask_equals_the_numpy_call(dtype):
    da = pytest.importorskip("dask.array")
    stack = random_array(dtype, (4, 29, 31), seed=13)
    lazy = da.from_array(stack, chunks=(2, 11, 12))
    for call in [
        lambda m, a: m.median_filter(a, size=(1, 5, 5), mode="constant", cval=7),
        lambda m, a: m.median_filter(a, size=(3, 3, 3), mode="reflect"),
        lambda m, a: m.background(a, size=(1, 7, 7), offset=-3),
        lambda m, a: m.temporal_median(a, 3, mode="subtract", offset=2),
    ]:
        got = call(fastmedian.dask, lazy).compute(scheduler="threads")
        assert_same_bits(got, call(fastmedian, stack))


def test_dask_checks_the_dtype_before_computing():
    da = pytest.importorskip("dask.array")
    with pytest.raises(TypeError, match="image must be a bool, integer or float array"):
        fastmedian.dask.median_filter(da.zeros((8, 8), dtype=np.complex64), size=3)
    with pytest.raises(ValueError, match="cval must be finite for integer images"):
        fastmedian.dask.median_filter(da.zeros((8, 8), dtype=np.int32), size=3, mode="constant",
                                      cval=np.nan)
