"""fastmedian.dask without copies: chunks of a NumPy array (dask.array.from_array) are read in
place with their halos, and with `output` (an array) each task writes its chunk's result
straight into it; the results equal the direct call bit for bit for every mode and chunking.
Bad outputs raise before anything is computed or written."""
import operator

import dask
import dask.array as da
import dask.core
import numpy as np
import pytest

import fastmedian
import fastmedian.dask
from conftest import MODES, assert_same_bits

RNG = np.random.default_rng(34)
VOLUME = RNG.integers(0, 9, size=(12, 45, 52), dtype=np.uint16)  # few values: many ties
FLOATS = RNG.normal(size=(6, 40, 33)).astype(np.float32)
FLOATS[RNG.random(FLOATS.shape) < 0.2] = np.nan
CHUNKINGS = [(12, 45, 52), (5, 10, 13), (3, 45, 4), ((1, 11), (20, 25), (2, 50))]
WINDOWS = [{"size": (3, 3, 3)}, {"radius": (1, 2, 2)}, {"size": (5, 1, 3)}, {"size": (1, 5, 5)},
           {"radius": 3}]
SCHEDULERS = ["threads", "sync"]


@pytest.fixture(autouse=True)
def threads():
    """dask's threaded scheduler, also where the session's cluster (conftest's client) would
    otherwise be the default."""
    with dask.config.set(scheduler="threads"):
        yield


@pytest.fixture
def native_calls(monkeypatch):
    """(image, output) of every call of the native medians."""
    seen = []
    for name in ("median2d", "median3d"):
        native = getattr(fastmedian.filters._native, name)

        def spy(image, output, *args, native=native):
            seen.append((image, output))
            return native(image, output, *args)
        monkeypatch.setattr(fastmedian.filters._native, name, spy)
    return seen


@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("chunks", CHUNKINGS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_output_equals_direct_call(mode, chunks, window, scheduler):
    want = fastmedian.median_filter(VOLUME, **window, mode=mode, cval=4)
    out = np.full(VOLUME.shape, 60000, np.uint16)  # poison: every pixel must be written
    with dask.config.set(scheduler=scheduler):
        got = fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=chunks), **window,
                                            mode=mode, cval=4, output=out)
    assert got is out
    assert_same_bits(out, want)


@pytest.mark.parametrize("chunks", [(2, 7, 9), (6, 40, 33)], ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_float_output_with_nan(mode, chunks):
    want = fastmedian.median_filter(FLOATS, size=(3, 5, 5), mode=mode, cval=np.nan)
    out = np.empty_like(FLOATS)
    fastmedian.dask.median_filter(da.from_array(FLOATS, chunks=chunks), size=(3, 5, 5),
                                  mode=mode, cval=np.nan, output=out)
    assert_same_bits(out, want)


@pytest.mark.parametrize("mode", ["nearest", "mirror"])
def test_chunks_are_read_and_written_in_place(native_calls, mode):
    x = da.from_array(VOLUME, chunks=(5, 20, 26))
    out = np.empty_like(VOLUME)
    fastmedian.dask.median_filter(x, size=(3, 3, 3), mode=mode, output=out)
    assert len(native_calls) == x.npartitions
    for image, output in native_calls:
        assert np.shares_memory(image, VOLUME), "a chunk with its halo was copied"
        assert np.shares_memory(output, out), "a chunk's result went through a copy"
    assert_same_bits(out, fastmedian.median_filter(VOLUME, size=(3, 3, 3), mode=mode))


def test_halos_that_wrap_round_or_come_from_a_computation_are_copied(native_calls):
    """The far side of the array (wrap) does not lie next to a chunk, nor do the results of a
    computation lie in one array: those parts are copies, with the same result."""
    x = da.from_array(VOLUME, chunks=(6, 45, 52))
    wrapped = fastmedian.median_filter(VOLUME, size=(3, 3, 3), mode="wrap")
    nearest = fastmedian.median_filter(VOLUME, size=(3, 3, 3))
    native_calls.clear()
    got = fastmedian.dask.median_filter(x, size=(3, 3, 3), mode="wrap").compute()
    assert_same_bits(got, wrapped)
    assert len(native_calls) == 2
    assert not any(np.shares_memory(image, VOLUME) for image, _ in native_calls)
    native_calls.clear()
    got = fastmedian.dask.median_filter(x + 0, size=(3, 3, 3)).compute()
    assert_same_bits(got, nearest)
    assert len(native_calls) == 2
    assert not any(np.shares_memory(image, VOLUME) for image, _ in native_calls)


@pytest.mark.parametrize("chunks", [(12, 45, 52), (4, 9, 11)], ids=str)
@pytest.mark.parametrize("mode", ["nearest", "reflect", "wrap"])
def test_output_array_of_the_other_filters(mode, chunks):
    x = da.from_array(VOLUME, chunks=chunks)
    weights = RNG.normal(size=(3, 5)).astype(np.float32)
    cases = [
        (fastmedian.dask.background, fastmedian.background,
         {"size": (1, 9, 9), "offset": 3}, VOLUME.dtype),
        (fastmedian.dask.background, fastmedian.background,
         {"size": (1, 7, 7), "method": "separable", "subtract": False}, VOLUME.dtype),
        (fastmedian.dask.convolve, fastmedian.convolve,
         {"weights": weights}, np.float32),
        (fastmedian.dask.gaussian_filter, fastmedian.gaussian_filter,
         {"sigma": (0, 1.5, 1.5)}, VOLUME.dtype),
    ]
    for lazy, direct, args, dtype in cases:
        out = np.full(VOLUME.shape, 7, dtype)
        assert lazy(x, **args, mode=mode, output=out) is out
        assert_same_bits(out, direct(VOLUME, **args, mode=mode, output=np.empty_like(out)))


def test_output_of_another_layout_goes_through_a_copy():
    out = np.zeros(VOLUME.shape[::-1], np.uint16).T  # Fortran order: rows not contiguous
    fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=(4, 20, 20)), size=(3, 3, 3),
                                  output=out)
    assert_same_bits(np.ascontiguousarray(out), fastmedian.median_filter(VOLUME, size=(3, 3, 3)))


@pytest.mark.parametrize("output,error,words", [
    ([[[0]]], TypeError, "output must be a NumPy array"),
    (np.zeros(VOLUME.shape, np.uint8), TypeError, "output must have the image's dtype uint16"),
    (np.zeros((12, 45, 51), np.uint16), ValueError, "output must have the image's shape"),
    (np.broadcast_to(np.uint16(0), VOLUME.shape), ValueError, "output must be writable"),
])
def test_bad_outputs_name_the_parameter(output, error, words):
    with pytest.raises(error, match=words):
        fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=6), size=(3, 3, 3),
                                      output=output)


@pytest.mark.parametrize("inline_array", [False, True])
def test_an_output_overlapping_the_image_is_refused_before_anything_is_written(inline_array):
    volume = VOLUME.copy()
    x = da.from_array(volume, chunks=6, inline_array=inline_array)
    with pytest.raises(ValueError, match="output must not overlap the image"):
        fastmedian.dask.median_filter(x, size=(3, 3, 3), output=volume)
    big = np.zeros((14,) + VOLUME.shape[1:], np.uint16)
    big[1:13] = VOLUME
    with pytest.raises(ValueError, match="output must not overlap the image"):
        fastmedian.dask.median_filter(da.from_array(big[1:13], chunks=6), size=(3, 3, 3),
                                      output=big[2:14])
    assert_same_bits(volume, VOLUME)
    assert_same_bits(big[1:13], VOLUME)


def test_an_output_with_a_cluster_is_refused(client):
    out = np.full(VOLUME.shape, 5, np.uint16)
    with dask.config.set(scheduler=client), \
            pytest.raises(ValueError, match="output is written in place by the tasks, which "
                                            "needs dask's threaded or synchronous scheduler"):
        fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=6), size=(3, 3, 3),
                                      output=out)
    assert (out == 5).all()


@pytest.mark.parametrize("layout", ["adjacent", "swapped", "two arrays"])
def test_join_makes_a_view_only_of_pieces_that_lie_as_the_grid_puts_them(layout):
    a = np.arange(4 * 6 * 8, dtype=np.uint16).reshape(4, 6, 8)
    # One level of lists an axis, as _pieces nests them: two along z, one along y, two along x.
    pieces = [[[a[:2, :, :5], a[:2, :, 5:]]], [[a[2:, :, :5], a[2:, :, 5:]]]]
    want = a
    if layout == "swapped":
        pieces[0][0].reverse()
        want = None
    elif layout == "two arrays":
        pieces[0][0][1] = pieces[0][0][1].copy()
    joined = fastmedian.dask._join(pieces)
    assert_same_bits(joined, np.block(pieces) if want is None else want)
    assert np.shares_memory(joined, a) == (layout == "adjacent")


def test_a_chunk_task_takes_only_its_own_chunk_and_its_neighbours_halo_slices():
    """On a cluster a chunk's task gets what it depends on sent to its worker: the neighbours'
    halos must be tasks of their own, so that only those slices travel, not whole chunks."""
    x = da.from_array(VOLUME, chunks=(4, 15, 26))
    graph = dict(fastmedian.dask.median_filter(x, size=(3, 3, 3)).__dask_graph__())
    chunks = {k for k in graph if isinstance(k, tuple) and k[0] == x.name}
    tasks = [k for k in graph if isinstance(k, tuple) and k[0].startswith("fastmedian-")
             and not k[0].endswith("-halo")]
    assert len(tasks) == x.npartitions
    for key in tasks:
        needs = dask.core.get_dependencies(graph, key)
        assert needs & chunks == {(x.name,) + key[1:]}
        for halo in needs - chunks:
            assert graph[halo][0] is operator.getitem
            assert graph[halo][1] in chunks
