"""The 3D median (size=(kz, ky, kx), radius=(rz, ry, rx) on a 3D array) against
scipy.ndimage.median_filter with the 3D footprint, on the shared bead stack and random volumes
with ties; float NaN against a sorting reference; fastmedian.dask against the direct call; the
CPU threads from FASTMEDIAN_CPU_THREADS, one per call in Dask's worker processes."""
import os

import dask.array as da
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

import fastmedian
import fastmedian.dask
from conftest import MODES, assert_same_bits, reference_median

CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}


def ellipsoid(rz, ry, rx):
    """ImageJ's Filters3D mask: float32 radii squared in float32, x^2/rx^2 + y^2/ry^2 +
    z^2/rz^2 <= 1 tested in float64, a radius of 0 adding nothing along its axis."""
    radii = [np.float32(r) for r in (rz, ry, rx)]
    reach = [int(np.ceil(r)) for r in radii]
    inverse = [1.0 / float(r * r) if r else 0.0 for r in radii]
    z, y, x = np.mgrid[tuple(slice(-v, v + 1) for v in reach)]
    return z * z * inverse[0] + y * y * inverse[1] + x * x * inverse[2] <= 1.0


# (keyword arguments, scipy footprint): cubes, flat and deep boxes ((1, 3, 5) is a box too:
# only (1, k, k) is the per-plane square), spheres, ellipsoids with fractional and zero radii.
WINDOWS = [({"size": (3, 3, 3)}, np.ones((3, 3, 3), bool)),
           ({"size": (5, 3, 1)}, np.ones((5, 3, 1), bool)),
           ({"size": (1, 3, 5)}, np.ones((1, 3, 5), bool)),
           ({"radius": (1, 1, 1)}, ellipsoid(1, 1, 1)),
           ({"radius": (2, 2, 2)}, ellipsoid(2, 2, 2)),
           ({"radius": (1, 2.5, 1.5)}, ellipsoid(1, 2.5, 1.5)),
           ({"radius": (0, 2, 2)}, ellipsoid(0, 2, 2))]
WINDOW_IDS = [str(w) for w, _ in WINDOWS]


@pytest.fixture(scope="module")
def beads(shared_data):
    """The bead stack (u8, 41 planes), cropped to keep scipy quick."""
    return tifffile.imread(shared_data / "Bead_Image1_crop.tif")[:, 40:100, 30:110]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("window,footprint", WINDOWS, ids=WINDOW_IDS)
def test_bead_stack(beads, window, footprint, mode):
    cval = CVAL[beads.dtype] if mode == "constant" else 0.0
    got = fastmedian.median_filter(beads, **window, mode=mode, cval=cval, backend="cpu")
    assert_same_bits(got, ndi.median_filter(beads, footprint=footprint, mode=mode, cval=cval))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("window,footprint", WINDOWS, ids=WINDOW_IDS)
def test_random_volumes_with_ties(window, footprint, dtype, mode):
    """Few distinct values (many ties), odd unequal sides; floats without NaN or -0.0, whose
    order scipy leaves open."""
    rng = np.random.default_rng(len(str(window)) * 10 + len(mode))
    volume = rng.integers(0, 4, size=(7, 11, 13)).astype(dtype)
    if dtype == np.float32:
        volume = volume * np.float32(1.5) - np.float32(2.0)
    volume[3, 4, 5:9] = np.iinfo(dtype).max if dtype != np.float32 else np.inf
    got = fastmedian.median_filter(volume, **window, mode=mode, cval=2, backend="cpu")
    assert_same_bits(got, ndi.median_filter(volume, footprint=footprint, mode=mode, cval=2))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 3, 4), (5, 1, 2)])
def test_window_larger_than_the_volume(shape, mode):
    volume = (np.arange(np.prod(shape), dtype=np.uint16).reshape(shape) * 7 % 11)
    got = fastmedian.median_filter(volume, size=(7, 5, 9), mode=mode, cval=5)
    assert_same_bits(got, ndi.median_filter(volume, size=(7, 5, 9), mode=mode, cval=5))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("window,footprint", [WINDOWS[0], WINDOWS[5]],
                         ids=[WINDOW_IDS[0], WINDOW_IDS[5]])
def test_float_nan_and_inf(window, footprint, mode):
    """NaN counts as larger than +Inf; scipy leaves NaN undefined, so the reference sorts."""
    rng = np.random.default_rng(8)
    volume = rng.normal(size=(9, 14, 12)).astype(np.float32)
    specials = rng.random(volume.shape)
    volume[specials < 0.3] = np.nan  # enough NaN that some windows are mostly NaN
    volume[(specials > 0.3) & (specials < 0.35)] = np.inf
    volume[specials > 0.95] = -np.inf
    got = fastmedian.median_filter(volume, **window, mode=mode, cval=np.nan, backend="cpu")
    want = reference_median(volume, footprint, mode, cval=np.nan)
    assert np.isnan(want).any() and not np.isnan(want).all()
    assert_same_bits(got, want)


def test_scalar_radius_stays_per_plane(beads):
    assert_same_bits(fastmedian.median_filter(beads, radius=2),
                     np.stack([fastmedian.median_filter(plane, radius=2) for plane in beads]))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_cuda_equals_cpu(dtype):
    if fastmedian.cuda_unavailable_reason():
        pytest.skip(f"no CUDA device: {fastmedian.cuda_unavailable_reason()}")
    rng = np.random.default_rng(12)
    volume = (rng.random((20, 70, 61)) * 1000).astype(dtype)
    for mode in MODES:
        for window in ({"size": (3, 3, 3)}, {"size": (5, 5, 5)}, {"radius": (2, 2, 2)},
                       {"radius": (1, 3, 3)}, {"size": (3, 7, 1)}):
            assert_same_bits(
                fastmedian.median_filter(volume, **window, mode=mode, cval=9, backend="cuda"),
                fastmedian.median_filter(volume, **window, mode=mode, cval=9, backend="cpu"))


VOLUME = np.random.default_rng(23).integers(0, 9, size=(9, 20, 23), dtype=np.uint16)
# z chunks of 1 (smaller than every halo), uneven, whole; y and x chunked too.
CHUNKINGS = [(1, 20, 23), (2, 7, 9), ((4, 1, 4), 20, (3, 20)), (9, 5, 23), (3, (1, 19), 4)]
# Halos along z of 1, 2 and 3, and of 6 (the window reaches across the 9 planes).
DASK_WINDOWS = [{"size": (3, 5, 3)}, {"radius": (2, 1, 2)}, {"size": (7, 1, 1)},
                {"size": (13, 3, 3)}]


@pytest.mark.parametrize("window", DASK_WINDOWS, ids=str)
@pytest.mark.parametrize("chunks", CHUNKINGS, ids=str)
@pytest.mark.parametrize("mode", MODES)
def test_dask_equals_direct_call(mode, chunks, window):
    lazy = da.from_array(VOLUME, chunks=chunks)
    got = fastmedian.dask.median_filter(lazy, **window, mode=mode, cval=4, backend="cpu")
    assert got.chunks == lazy.chunks
    assert_same_bits(got.compute(scheduler="threads"),
                     fastmedian.median_filter(VOLUME, **window, mode=mode, cval=4,
                                              backend="cpu"))


@pytest.mark.parametrize("mode", ["nearest", "mirror", "wrap"])
def test_dask_on_a_cluster_of_two_worker_processes(client, mode):
    lazy = fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=(2, 10, 23)),
                                         radius=(2, 2, 2), mode=mode)
    assert_same_bits(client.compute(lazy).result(),
                     fastmedian.median_filter(VOLUME, radius=(2, 2, 2), mode=mode))


def test_cpu_threads_from_the_environment(monkeypatch):
    """Read at every call: any thread count gives the same bits; anything but a positive
    integer is refused, naming the variable. (The ellipsoid of radius 1.5 has no generated
    network: its path asks for threads on volumes of any size.)"""
    window = {"radius": (1.5, 1.5, 1.5)}
    want = fastmedian.median_filter(VOLUME, **window, backend="cpu")
    for threads in ("1", "3"):
        monkeypatch.setenv("FASTMEDIAN_CPU_THREADS", threads)
        assert_same_bits(fastmedian.median_filter(VOLUME, **window, backend="cpu"), want)
    monkeypatch.setenv("FASTMEDIAN_CPU_THREADS", "0")
    with pytest.raises(ValueError, match="FASTMEDIAN_CPU_THREADS"):
        fastmedian.median_filter(VOLUME, **window, backend="cpu")


def test_dask_workers_filter_on_one_cpu_thread_each(client):
    """Worker processes get FASTMEDIAN_CPU_THREADS=1 (unless they inherited a value) once they
    have filtered; this process, on the threaded scheduler, is left as it was."""
    before = os.environ.get("FASTMEDIAN_CPU_THREADS")
    lazy = fastmedian.dask.median_filter(da.from_array(VOLUME, chunks=(3, 10, 23)),
                                         size=(3, 3, 3), backend="cpu")
    want = lazy.compute(scheduler="threads")
    assert os.environ.get("FASTMEDIAN_CPU_THREADS") == before
    workers = list(client.scheduler_info()["workers"])
    for worker in workers:
        assert_same_bits(client.compute(lazy, workers=[worker]).result(), want)
    assert client.run(os.getenv, "FASTMEDIAN_CPU_THREADS") == \
        {worker: before or "1" for worker in workers}


def test_dask_bad_arguments_raise_before_compute():
    lazy = da.zeros((4, 10, 10), dtype=np.uint8, chunks=(1, 5, 5))
    with pytest.raises(ValueError, match="size for the 3D median"):
        fastmedian.dask.median_filter(lazy, size=(3, 2, 3))
    with pytest.raises(ValueError, match="radius for the 3D median"):
        fastmedian.dask.median_filter(lazy, radius=(1, 1, -1))
