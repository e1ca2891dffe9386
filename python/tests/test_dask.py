"""fastmedian.dask.median_filter equals the direct call bit for bit, for every border mode and
many chunkings: in-process (threads) for breadth, on a LocalCluster of 2 worker processes for
the real thing."""
import dask.array as da
import numpy as np
import pytest

import fastmedian
import fastmedian.dask
from conftest import MODES, assert_same_bits

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
        fastmedian.dask.median_filter(lazy.astype(np.int32), size=(1, 3, 3))


@pytest.mark.parametrize("chunks", [(1, 45, 52), (2, 16, 16), (3, 8, 52)], ids=str)
@pytest.mark.parametrize("mode", ["nearest", "mirror", "wrap"])
def test_on_a_cluster_of_two_worker_processes(client, mode, chunks):
    assert len(client.scheduler_info()["workers"]) == 2
    lazy = fastmedian.dask.median_filter(da.from_array(STACK, chunks=chunks), size=(1, 7, 7),
                                         mode=mode)
    assert_same_bits(client.compute(lazy).result(),
                     fastmedian.median_filter(STACK, size=(1, 7, 7), mode=mode))
