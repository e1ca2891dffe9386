"""fastmedian.dask.median_filter and temporal_median equal the direct calls bit for bit, for every
border mode, window and many chunkings: in-process (threads) for breadth, on a LocalCluster of 2
worker processes for the real thing."""
import dask.array as da
import numpy as np
import pytest

import fastmedian
import fastmedian.dask
from conftest import MODES, assert_same_bits, random_stack

RNG = np.random.default_rng(21)
STACK = RNG.integers(0, 9, size=(3, 45, 52), dtype=np.uint16)  # few values: many ties
CHUNKINGS = [(3, 45, 52), (1, 10, 13), (2, 7, 30), (3, 45, 4), (1, (1, 20, 24), (50, 2))]
# Halos of 2, 3 and 10: the last is deeper than some chunks (dask then merges chunks).
WINDOWS = [{"size": (1, 5, 5)}, {"radius": 3}, {"size": (1, 21, 21)}]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("chunks", CHUNKINGS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_equals_direct_call(mode, chunks, window):
    got = fastmedian.dask.median_filter(da.from_array(STACK, chunks=chunks), **window,
                                        mode=mode, cval=4, backend="cpu")
    want = fastmedian.median_filter(STACK, **window, mode=mode, cval=4, backend="cpu")
    assert got.chunks == da.from_array(STACK, chunks=chunks).chunks
    assert_same_bits(got.compute(scheduler="threads"), want)


@pytest.mark.parametrize("chunks", [(1, 5, 7), (2, 12, 30), (1, 3, 29)], ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_window_reaching_across_the_array(mode, chunks):
    """A halo of 13 along y (12 rows): that axis is filtered whole, x still in chunks."""
    image = STACK[:2, :12, :30]
    got = fastmedian.dask.median_filter(da.from_array(image, chunks=chunks), size=(1, 27, 27),
                                        mode=mode, cval=4)
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.median_filter(image, size=(1, 27, 27), mode=mode, cval=4))


@pytest.mark.parametrize("mode", MODES)
def test_float_image_with_nan(mode):
    image = RNG.normal(size=(64, 70)).astype(np.float32)
    image[RNG.random(image.shape) < 0.3] = np.nan
    got = fastmedian.dask.median_filter(da.from_array(image, chunks=(9, 16)), size=7, mode=mode,
                                        cval=np.nan)
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.median_filter(image, size=7, mode=mode, cval=np.nan))


def test_bad_arguments_raise_before_compute():
    lazy = da.zeros((4, 10, 10), dtype=np.uint8, chunks=(1, 5, 5))
    with pytest.raises(ValueError, match="size"):
        fastmedian.dask.median_filter(lazy, size=3)
    with pytest.raises(TypeError, match="image"):
        fastmedian.dask.median_filter(lazy.astype(np.complex64), size=(1, 3, 3))


@pytest.mark.parametrize("chunks", [(1, 45, 52), (2, 16, 16), (3, 8, 52)], ids=str)
@pytest.mark.parametrize("mode", ["nearest", "mirror", "wrap"])
def test_on_a_cluster_of_two_worker_processes(client, mode, chunks):
    assert len(client.scheduler_info()["workers"]) == 2
    lazy = fastmedian.dask.median_filter(da.from_array(STACK, chunks=chunks), size=(1, 7, 7),
                                         mode=mode)
    assert_same_bits(client.compute(lazy).result(),
                     fastmedian.median_filter(STACK, size=(1, 7, 7), mode=mode))


# 23 frames, chunked along the frames in ones (smaller than every halo), in twos, unevenly, with
# one-frame chunks at both ends (whose windows reach N-1 frames inward), and in one chunk; y and x
# chunked too.
MOVIE = random_stack(np.uint16, 23, seed=5, height=6, width=7)
FRAME_CHUNKINGS = [(23, 6, 7), (1, 6, 7), (2, 3, 7), ((1, 21, 1), 6, 4),
                   ((7, 1, 1, 1, 6, 7), (1, 5), 7), ((10, 13), 2, 3), ((3, 1, 4, 1, 5, 9), 6, 7)]
TEMPORAL_WINDOWS = [1, 2, 3, 4, 5, 9, 10, 22, 23]


@pytest.mark.parametrize("mode", ["median", "subtract"])
@pytest.mark.parametrize("n", TEMPORAL_WINDOWS)
@pytest.mark.parametrize("chunks", FRAME_CHUNKINGS, ids=str)
def test_temporal_equals_direct_call(chunks, n, mode):
    lazy = da.from_array(MOVIE, chunks=chunks)
    offset = -100.5 if mode == "subtract" else 0
    got = fastmedian.dask.temporal_median(lazy, n, mode=mode, offset=offset, backend="cpu")
    assert got.chunks == lazy.chunks
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.temporal_median(MOVIE, n, mode=mode, offset=offset,
                                                backend="cpu"))


@pytest.mark.parametrize("n", [2, 5, 16])
@pytest.mark.parametrize("chunks", [(1, 4, 5), (3, 9, 2), (16, 1, 1)], ids=str)
def test_temporal_float_with_nan_and_frame_axis_last(chunks, n):
    """Float specials (NaN, +-Inf, -0.0) and frames along the last axis of the dask array."""
    stack = np.ascontiguousarray(np.moveaxis(random_stack(np.float32, 16, seed=n), 0, 2))
    lazy = da.from_array(stack, chunks=chunks[1:] + chunks[:1])
    got = fastmedian.dask.temporal_median(lazy, n, mode="subtract", offset=0.25, axis=-1)
    assert got.chunks == lazy.chunks
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.temporal_median(stack, n, mode="subtract", offset=0.25, axis=-1))


@pytest.mark.parametrize("chunks,window,want", [
    ((1,) * 10, 3, (3, 1, 1, 1, 1, 3)),    # the ends hold N frames, the inner ones 1 >= N//2
    ((1,) * 10, 5, (5, 5)),                # the first and last chunks meet
    ((1,) * 10, 6, (10,)),                 # they would share frames: one chunk
    ((2,) * 24, 9, (10, 4, 4, 4, 4, 4, 4, 4, 10)),
    ((9, 1, 1, 1, 1, 9), 9, (9, 4, 9)),    # inner chunks merged up to N//2 frames
    ((9, 1, 1, 1, 9), 9, (9, 12)),         # a short inner run joins the last chunk
    ((20, 20, 20), 3, (20, 20, 20)),       # already fine: unchanged
])
def test_temporal_frame_chunks(chunks, window, want):
    assert fastmedian.dask._frame_chunks(chunks, window) == want


def test_temporal_bad_arguments_raise_before_compute():
    lazy = da.zeros((4, 10, 10), dtype=np.uint8, chunks=(1, 5, 5))
    with pytest.raises(ValueError, match="window"):
        fastmedian.dask.temporal_median(lazy, 5)
    with pytest.raises(TypeError, match="stack"):
        fastmedian.dask.temporal_median(lazy.astype(np.complex64), 3)
    with pytest.raises(ValueError, match="mode"):
        fastmedian.dask.temporal_median(lazy, 3, mode="mean")


def test_temporal_on_a_cluster_of_two_worker_processes(client):
    lazy = fastmedian.dask.temporal_median(da.from_array(MOVIE, chunks=(2, 3, 7)), 9,
                                           mode="subtract", offset=50)
    assert_same_bits(client.compute(lazy).result(),
                     fastmedian.temporal_median(MOVIE, 9, mode="subtract", offset=50))
