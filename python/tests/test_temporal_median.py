"""fastmedian.temporal_median on NumPy arrays against a NumPy statement of the temporal median
(conftest.temporal_reference): on the shared time-lapse movie and on random stacks with ties and
every float special value, in both modes; the frame axis, the output array, the layouts read in
place, and the GIL."""
import numpy as np
import pytest
import tifffile

import fastmedian
from conftest import assert_same_bits, random_stack, runs_beside_native_code, temporal_reference

MOVIE = "cancer_cell_migration_crop.tif"  # u16, 48 frames of 130x130
WINDOWS = [1, 2, 3, 4, 5, 9, 10, 50]
OFFSETS = {np.uint8: [20.4, -7.6], np.uint16: [1000, -300.6], np.float32: [0.1, -2.5]}


def test_reference_on_a_hand_example():
    """The reference itself: 5 frames of one pixel, N=2 and N=3, both modes."""
    stack = np.array([10, 40, 20, 30, 0], np.uint8).reshape(5, 1, 1)
    # N=2: starts 0,0,1,2,3 (one frame more before t than after); lower middle of each pair.
    assert temporal_reference(stack, 2).ravel().tolist() == [10, 10, 20, 20, 0]
    # N=3: starts 0,0,1,2,2.
    assert temporal_reference(stack, 3).ravel().tolist() == [20, 20, 30, 20, 20]
    assert temporal_reference(stack, 3, "subtract", 5.4).ravel().tolist() == [0, 25, 0, 15, 0]
    assert temporal_reference(stack, 3, "subtract", 4.5).ravel().tolist() == [0, 25, 0, 15, 0]
    assert temporal_reference(stack, 3, "subtract", -10.5).ravel().tolist() == [0, 9, 0, 0, 0]
    f = np.array([1, np.nan, -0.0, 0.0, np.inf], np.float32).reshape(5, 1, 1)
    assert temporal_reference(f, 5).ravel().view(np.uint32).tolist() == [0x3F800000] * 5
    assert temporal_reference(f, 2).ravel().view(np.uint32).tolist() == [
        0x3F800000, 0x3F800000, 0x80000000, 0x80000000, 0x00000000]


@pytest.fixture(scope="module")
def movie(shared_data):
    stack = tifffile.imread(shared_data / MOVIE)
    assert stack.dtype == np.uint16 and stack.shape == (48, 130, 130), stack.shape
    return stack


@pytest.mark.parametrize("mode,offset", [("median", 0.0), ("subtract", 100),
                                         ("subtract", -20.7)])
@pytest.mark.parametrize("n", WINDOWS)
def test_real_movie(movie, n, mode, offset):
    if n > movie.shape[0]:
        # Longer than the movie's 48 frames: its frames played forward, backward and forward.
        movie = np.concatenate([movie, movie[::-1], movie])
    got = fastmedian.temporal_median(movie, n, mode=mode, offset=offset, backend="cpu")
    assert got.flags.c_contiguous
    assert_same_bits(got, temporal_reference(movie, n, mode, offset))


@pytest.mark.parametrize("mode_offset", ["median", "subtract+", "subtract-"])
@pytest.mark.parametrize("n", WINDOWS)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_random_stack(dtype, n, mode_offset):
    stack = random_stack(dtype, 120, seed=n * 10 + len(mode_offset))
    mode = mode_offset.rstrip("+-")
    offset = 0.0 if mode == "median" else OFFSETS[dtype][mode_offset.endswith("-")]
    got = fastmedian.temporal_median(stack, n, mode=mode, offset=offset, backend="cpu")
    assert_same_bits(got, temporal_reference(stack, n, mode, offset))


@pytest.mark.parametrize("offset", [2.5, -2.5, 0.5, -0.5, 1e9, -1e9])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16], ids=["u8", "u16"])
def test_integer_offsets_round_halves_away_from_zero_and_clip(dtype, offset):
    stack = random_stack(dtype, 9, seed=4)
    got = fastmedian.temporal_median(stack, 4, mode="subtract", offset=offset, backend="cpu")
    assert_same_bits(got, temporal_reference(stack, 4, "subtract", offset))


@pytest.mark.parametrize("mode", ["median", "subtract"])
@pytest.mark.parametrize("frames", [1, 2, 5, 50])
@pytest.mark.parametrize("dtype", [np.uint16, np.float32], ids=["u16", "f32"])
def test_window_as_long_as_the_stack(dtype, frames, mode):
    """N equal to the frame count: every output frame shares one window."""
    stack = random_stack(dtype, frames, seed=frames, height=3, width=5)
    offset = 3 if mode == "subtract" else 0
    got = fastmedian.temporal_median(stack, frames, mode=mode, offset=offset)
    assert_same_bits(got, temporal_reference(stack, frames, mode, offset))


@pytest.mark.parametrize("axis", [1, 2, -1, -2, -3])
def test_frame_axis(axis):
    """A stack whose frames lie along another axis: the same result, moved to that axis."""
    stack = random_stack(np.float32, 21, seed=8)
    want = temporal_reference(stack, 5, "subtract", 1.5)
    moved = np.ascontiguousarray(np.moveaxis(stack, 0, axis))
    got = fastmedian.temporal_median(moved, 5, mode="subtract", offset=1.5, axis=axis)
    assert got.shape == moved.shape
    assert_same_bits(np.moveaxis(got, axis, 0), want)


@pytest.fixture
def native_stacks(monkeypatch):
    """The stack and output arrays that reach the native module, call by call."""
    seen = []
    native = fastmedian.filters._native.temporal_median

    def spy(stack, output, *args):
        seen.append((stack, output))
        return native(stack, output, *args)
    monkeypatch.setattr(fastmedian.filters._native, "temporal_median", spy)
    return seen


@pytest.mark.parametrize("name,view,axis", [
    ("C-contiguous stack", lambda a: a, 0),
    ("sub-rectangle of every frame", lambda a: a[2:9, 1:6, 2:8], 0),
    ("every other frame", lambda a: a[::2], 0),
    ("frames last, laid out frames first", lambda a: np.moveaxis(a, 0, 2), 2),
    ("frames in the middle, laid out frames first", lambda a: np.moveaxis(a, 0, 1), 1),
])
def test_layouts_read_in_place(native_stacks, name, view, axis):
    base = random_stack(np.uint16, 12, seed=2)
    v = view(base)
    got = fastmedian.temporal_median(v, 3, axis=axis)
    assert np.shares_memory(native_stacks[0][0], base)
    frames_first = np.ascontiguousarray(np.moveaxis(v, axis, 0))
    assert_same_bits(np.moveaxis(got, axis, 0), temporal_reference(frames_first, 3))


@pytest.mark.parametrize("name,view,axis", [
    ("every other column", lambda a: a[:, :, ::2], 0),
    ("frames last, C-contiguous", lambda a: np.ascontiguousarray(np.moveaxis(a, 0, 2)), 2),
    ("frames reversed", lambda a: a[::-1], 0),
])
def test_other_layouts_are_copied(native_stacks, name, view, axis):
    base = random_stack(np.uint16, 12, seed=2)
    v = view(base)
    got = fastmedian.temporal_median(v, 4, axis=axis)
    assert not np.shares_memory(native_stacks[0][0], base)
    frames_first = np.ascontiguousarray(np.moveaxis(v, axis, 0))
    assert_same_bits(np.moveaxis(got, axis, 0), temporal_reference(frames_first, 4))


def test_output_array_is_written_and_returned(native_stacks):
    stack = random_stack(np.uint8, 15, seed=6)
    output = np.full_like(stack, 7)
    assert fastmedian.temporal_median(stack, 5, mode="subtract", offset=9, output=output) \
        is output
    assert np.shares_memory(native_stacks[0][1], output)  # written in place, no temporary
    assert_same_bits(output, temporal_reference(stack, 5, "subtract", 9))


@pytest.mark.parametrize("axis", [0, 2])
def test_output_array_of_another_layout(axis):
    stack = np.ascontiguousarray(np.moveaxis(random_stack(np.float32, 15, seed=6), 0, axis))
    output = np.asfortranarray(np.zeros_like(stack))
    assert fastmedian.temporal_median(stack, 6, axis=axis, output=output) is output
    want = temporal_reference(np.ascontiguousarray(np.moveaxis(stack, axis, 0)), 6)
    assert_same_bits(np.moveaxis(output, axis, 0), want)


def test_input_is_not_written_and_may_be_read_only():
    stack = random_stack(np.float32, 10, seed=1)
    before = stack.copy()
    stack.flags.writeable = False
    got = fastmedian.temporal_median(stack, 3, mode="subtract")
    assert_same_bits(stack, before)
    assert got.dtype == stack.dtype and got.shape == stack.shape


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_cuda_equals_cpu(dtype):
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no CUDA device: {fastmedian.cuda_unavailable_reason()}")
    stack = random_stack(dtype, 60, seed=12, height=70, width=129)
    for n in (1, 4, 9, 50):
        for mode, offset in (("median", 0), ("subtract", -3.5)):
            assert_same_bits(
                fastmedian.temporal_median(stack, n, mode=mode, offset=offset, backend="cuda"),
                fastmedian.temporal_median(stack, n, mode=mode, offset=offset, backend="cpu"))


def test_gil_is_released_while_filtering():
    """Python code in this thread runs while the native temporal median runs in another."""
    stack = np.random.default_rng(0).random((64, 256, 256), dtype=np.float32)
    output = np.empty_like(stack)
    assert runs_beside_native_code(
        lambda: fastmedian.temporal_median(stack, 31, backend="cpu", output=output))
