"""`fastmedian temporal` bit for bit against a NumPy statement of the temporal median: on the
real time-lapse stack and on random stacks long enough for every window, in both modes."""
import numpy as np
import pytest
import tifffile

from conftest import QUIET_NAN, assert_same_bits
from conftest import from_keys as float_from_keys
from conftest import sort_keys as float_sort_keys

MOVIE = "cancer_cell_migration_crop.tif"  # u16, 48 frames of 130x130
WINDOWS = [2, 3, 4, 5, 9, 10, 50, 101]


def sort_keys(stack):
    """Keys whose integer order is the library's order: floats by conftest's keys (numpy.sort
    alone puts NaN last too, but leaves -0.0 and +0.0 in either order); integers as they are."""
    return float_sort_keys(stack) if stack.dtype == np.float32 else stack


def from_keys(keys, dtype):
    return float_from_keys(keys) if dtype == np.float32 else keys


def quiet_nans(values):
    """Every NaN written as 0x7FC00000, as the library writes them."""
    if values.dtype == np.float32:
        values = values.copy()
        values.view(np.uint32)[np.isnan(values)] = QUIET_NAN
    return values


def window_start(t, frames, n):
    return min(max(t - n // 2, 0), frames - n)


def temporal_reference(stack, n, mode="median", offset=0.0):
    """Output frame t: the element of rank (n-1)//2 of frames [s, s+n) per pixel, s =
    clamp(t - n//2, 0, T - n); subtract: frame - median + offset (integers: the offset rounded,
    the result clamped to the type; floats: (frame - median) + float32(offset) in float32)."""
    frames = stack.shape[0]
    keys = sort_keys(stack)
    out = np.empty_like(stack)
    medians = {}
    for t in range(frames):
        s = window_start(t, frames, n)
        if s not in medians:
            medians[s] = from_keys(np.sort(keys[s:s + n], axis=0)[(n - 1) // 2], stack.dtype)
        median = medians[s]
        if mode == "median":
            out[t] = median
        elif stack.dtype == np.float32:
            with np.errstate(invalid="ignore", over="ignore"):
                out[t] = (stack[t] - median) + np.float32(offset)
        else:
            assert offset % 1 != 0.5, "ties of the rounding are not part of these tests"
            top = np.iinfo(stack.dtype).max
            diff = stack[t].astype(np.int64) - median.astype(np.int64) + int(round(offset))
            out[t] = np.clip(diff, 0, top).astype(stack.dtype)
    return quiet_nans(out)


def run_temporal(fastmedian, src, out, n, mode="median", offset=None, backend="cpu"):
    args = ["temporal", src, out, "--window", n, "--mode", mode, "--backend", backend]
    if offset is not None:
        args += ["--offset", repr(offset)]
    r = fastmedian(*args)
    assert r.returncode == 0, r.stderr
    return tifffile.imread(out), r.stdout


def test_reference_on_a_hand_example():
    """The reference itself: 5 frames of one pixel, N=2 and N=3, both modes."""
    stack = np.array([10, 40, 20, 30, 0], np.uint8).reshape(5, 1, 1)
    # N=2: starts 0,0,1,2,3 (one frame more before t than after); lower middle of each pair.
    assert temporal_reference(stack, 2).ravel().tolist() == [10, 10, 20, 20, 0]
    # N=3: starts 0,0,1,2,2.
    assert temporal_reference(stack, 3).ravel().tolist() == [20, 20, 30, 20, 20]
    assert temporal_reference(stack, 3, "subtract", 5.4).ravel().tolist() == [0, 25, 0, 15, 0]
    f = np.array([1, np.nan, -0.0, 0.0, np.inf], np.float32).reshape(5, 1, 1)
    got = temporal_reference(f, 5).ravel()
    assert got.view(np.uint32).tolist() == [0x3F800000] * 5  # sorted: -0 +0 1 inf nan
    got = temporal_reference(f, 2).ravel()
    assert got.view(np.uint32).tolist() == [0x3F800000, 0x3F800000, 0x80000000, 0x80000000,
                                            0x00000000]  # [1,nan] [nan,-0] [-0,0] [0,inf]


@pytest.fixture(scope="module")
def movie(shared_data):
    stack = tifffile.imread(shared_data / MOVIE)
    assert stack.dtype == np.uint16 and stack.ndim == 3 and stack.shape[0] == 48, stack.shape
    return shared_data / MOVIE, stack


@pytest.mark.parametrize("mode,offset", [("median", None), ("subtract", 100),
                                         ("subtract", -20.7)])
@pytest.mark.parametrize("n", WINDOWS)
def test_real_movie(fastmedian, movie, tmp_path, n, mode, offset):
    path, stack = movie
    if n > stack.shape[0]:
        # Longer windows than the movie's 48 frames: its real frames played forward, backward
        # and forward again (144 frames).
        stack = np.concatenate([stack, stack[::-1], stack])
        path = tmp_path / "movie_144.tif"
        tifffile.imwrite(path, stack, photometric="minisblack")
    got, stdout = run_temporal(fastmedian, path, tmp_path / "out.tif", n, mode, offset)
    assert stdout.startswith(f"temporal {mode} N={n} ")
    assert_same_bits(got, temporal_reference(stack, n, mode, offset or 0.0))


def random_stack(dtype, frames, seed, height=7, width=9):
    """Ties (a few pixels take values from a short list), full-range values so that subtract
    clamps at both ends, and for float32 every special value: NaNs with payloads and sign
    bits, +-Inf, -0.0 beside +0.0."""
    rng = np.random.default_rng(seed)
    shape = (frames, height, width)
    if dtype == np.float32:
        stack = (rng.standard_normal(shape) * 100).astype(np.float32)
        stack[:, :2] = rng.choice([-1.5, 0.0, 2.25, 7.0], (frames, 2, width))  # ties
        specials = np.array([0x7FC00000, 0x7FC01234, 0xFFC00000, 0x7F800001, 0x7F800000,
                             0xFF800000, 0x80000000, 0x00000000], np.uint32).view(np.float32)
        mask = rng.random(shape) < 0.12
        stack[mask] = rng.choice(specials, int(mask.sum()))
        stack[:, -1, -1] = np.nan  # a pixel that is NaN in every frame
        return stack
    top = np.iinfo(dtype).max
    stack = rng.integers(0, top, shape, endpoint=True).astype(dtype)
    stack[:, :2] = rng.choice(np.array([0, 1, 1, 3, top], dtype), (frames, 2, width))  # ties
    return stack


OFFSETS = {np.uint8: [20.4, -7.6], np.uint16: [1000, -300.6], np.float32: [0.1, -2.5]}


@pytest.mark.parametrize("mode_offset", ["median", "subtract+", "subtract-"])
@pytest.mark.parametrize("n", [1] + WINDOWS)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_random_stack(fastmedian, tmp_path, dtype, n, mode_offset):
    frames = 120
    stack = random_stack(dtype, frames, seed=n * 10 + len(mode_offset))
    src = tmp_path / "in.tif"
    tifffile.imwrite(src, stack, photometric="minisblack")
    mode = mode_offset.rstrip("+-")
    offset = None if mode == "median" else OFFSETS[dtype][mode_offset.endswith("-")]
    got, _ = run_temporal(fastmedian, src, tmp_path / "out.tif", n, mode, offset)
    assert_same_bits(got, temporal_reference(stack, n, mode, offset or 0.0))


@pytest.mark.parametrize("mode", ["median", "subtract"])
@pytest.mark.parametrize("frames,n", [(1, 1), (2, 2), (5, 5), (101, 101), (102, 101)])
@pytest.mark.parametrize("dtype", [np.uint16, np.float32], ids=["u16", "f32"])
def test_window_as_long_as_the_stack(fastmedian, tmp_path, dtype, frames, n, mode):
    """N equal to (or one less than) the frame count: every output shares one window."""
    stack = random_stack(dtype, frames, seed=frames, height=3, width=5)
    src = tmp_path / "in.tif"
    tifffile.imwrite(src, stack, photometric="minisblack")
    got, _ = run_temporal(fastmedian, src, tmp_path / "out.tif", n, mode,
                          None if mode == "median" else 3)
    assert_same_bits(got.reshape(stack.shape), temporal_reference(stack, n, mode, 3))


def test_summary_line(fastmedian, movie, tmp_path):
    path, _ = movie
    out = tmp_path / "out.tif"
    r = fastmedian("temporal", path, out, "--window=9", "--backend=cpu")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.startswith("temporal median N=9 on cpu (CPU): 130x130x48 u16 in "), r.stdout
    assert r.stdout.endswith(f" ms -> {out}\n") and r.stdout.count("\n") == 1
    r = fastmedian("temporal", path, out, "--window", 4, "--mode", "subtract", "--offset",
                   "100", "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("temporal subtract N=4 offset 100 on cpu (CPU): 130x130x48 u16 "
                               "in "), r.stdout


def test_defaults_are_median_and_offset_0(fastmedian, tmp_path):
    stack = random_stack(np.uint8, 12, seed=3)
    src = tmp_path / "in.tif"
    tifffile.imwrite(src, stack, photometric="minisblack")
    r = fastmedian("temporal", src, tmp_path / "a.tif", "--window", 5, "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert_same_bits(tifffile.imread(tmp_path / "a.tif"), temporal_reference(stack, 5))
    r = fastmedian("temporal", src, tmp_path / "b.tif", "--window", 5, "--mode", "subtract",
                   "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert "offset 0 on cpu" in r.stdout
    assert_same_bits(tifffile.imread(tmp_path / "b.tif"),
                     temporal_reference(stack, 5, "subtract", 0))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_cuda_backend(fastmedian, movie, cuda_devices, tmp_path, dtype):
    if not cuda_devices:
        pytest.skip("fastmedian info lists no CUDA device")
    if dtype == np.uint16:
        src, stack = movie
    else:
        stack = random_stack(dtype, 120, seed=99, height=33, width=65)
        src = tmp_path / "in.tif"
        tifffile.imwrite(src, stack, photometric="minisblack")
    for n in WINDOWS:
        if n > stack.shape[0]:
            continue
        for mode, offset in [("median", None), ("subtract", -20.7)]:
            got, stdout = run_temporal(fastmedian, src, tmp_path / "out.tif", n, mode, offset,
                                       backend="cuda")
            assert " on cuda:0 (" in stdout
            assert_same_bits(got, temporal_reference(stack, n, mode, offset or 0.0))
