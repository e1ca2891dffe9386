"""Shared helpers for the fastmedian Python tests: the shared real images
(FASTMEDIAN_SHARED_DATA, set by ctest), a bit-exact comparison, a NumPy reference median that
follows our float order, and one dask.distributed cluster of two worker processes."""
import os
import pathlib

import numpy as np
import pytest

# scipy's mode names to numpy.pad's, for the NumPy reference.
NUMPY_PAD = {"nearest": "edge", "reflect": "symmetric", "mirror": "reflect", "wrap": "wrap",
             "constant": "constant"}
MODES = list(NUMPY_PAD)


@pytest.fixture(scope="session")
def shared_data():
    d = pathlib.Path(os.environ.get("FASTMEDIAN_SHARED_DATA", ""))
    if not (d / "embryos_grey.tif").is_file():
        pytest.skip(f"the shared test images are not in '{d}' (set FASTMEDIAN_SHARED_DATA)")
    return d


@pytest.fixture(scope="session")
def client():
    """A LocalCluster of 2 worker processes with one thread each; 256 MiB per worker, so a task
    that held a whole test volume in memory would get its worker paused or killed."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  memory_limit="256MiB", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def assert_same_bits(got, want):
    """Equal shape, dtype and bytes (so -0.0 differs from 0.0 and NaN payloads count)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    g = np.ascontiguousarray(got).reshape(-1).view(np.uint8).reshape(got.size, -1)
    w = np.ascontiguousarray(want).reshape(-1).view(np.uint8).reshape(want.size, -1)
    diff = np.flatnonzero((g != w).any(axis=1))
    assert diff.size == 0, (f"{diff.size} of {got.size} pixels differ; first at flat index "
                            f"{diff[0]}: got {got.reshape(-1)[diff[0]]}, want "
                            f"{want.reshape(-1)[diff[0]]}")


def reference_median(image, footprint, mode, cval=0.0):
    """The median of each 2D plane by sorting every window with np.sort (NaN last, as our order
    puts NaN above +Inf); a NaN result is the quiet NaN 0x7FC00000, as the library writes it.
    Windows must not be larger than the image (numpy.pad's limit for the mirror modes)."""
    ry, rx = footprint.shape[0] // 2, footprint.shape[1] // 2
    pad = [(0, 0)] * (image.ndim - 2) + [(ry, ry), (rx, rx)]
    extra = {"constant_values": cval} if mode == "constant" else {}
    padded = np.pad(image, pad, mode=NUMPY_PAD[mode], **extra)
    windows = np.lib.stride_tricks.sliding_window_view(padded, footprint.shape, axis=(-2, -1))
    values = np.sort(windows[..., footprint], axis=-1)
    out = values[..., (footprint.sum() - 1) // 2].copy()
    if out.dtype == np.float32:
        out[np.isnan(out)] = np.array(0x7FC00000, np.uint32).view(np.float32)
    return out
