"""Shared helpers for the fastmedian Python tests: the shared real images
(FASTMEDIAN_SHARED_DATA, set by ctest), a bit-exact comparison, NumPy reference medians (2D and
temporal) that follow our float order, random test stacks, one dask.distributed cluster of
two worker processes, and a check that a call lets other threads run."""
import linecache
import math
import os
import pathlib
import sys
import threading

import numpy as np
import pytest

# The tests' ImageJ circle comes from tools/generators/windows.py, the one Python definition.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from generators.windows import imagej_circle_mask  # noqa: E402

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


def runs_beside_native_code(call):
    """Whether this thread ran Python code while `call`, run in a worker thread, was inside a
    call of the native module (the worker's innermost Python frame standing at a `_native.` call),
    which cannot happen while the native code holds the GIL.

    The switch interval is set far beyond the call, so this thread gets the GIL only when the
    worker gives it up itself, never by the interpreter's timed forced switch: the answer does
    not depend on timing or on the machine's load. Looking at the worker's frame tells the native
    call from other places that release the GIL (NumPy copies, thread start-up)."""
    finished = threading.Event()
    seen_inside = False
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        def work():
            try:
                call()
            finally:
                finished.set()

        worker = threading.Thread(target=work)
        worker.start()
        while not finished.is_set():
            frame = sys._current_frames().get(worker.ident)
            if frame is not None and "_native." in linecache.getline(frame.f_code.co_filename,
                                                                      frame.f_lineno):
                seen_inside = True
            # Blocks for a moment without the GIL, so the worker can take it when it wants it.
            worker.join(0.001)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    return seen_inside


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
    """The median of each 2D plane (a 2D footprint) or of the volume (a 3D footprint) by sorting
    every window with np.sort (NaN last, as our order puts NaN above +Inf); a NaN result is the
    quiet NaN 0x7FC00000, as the library writes it. Windows must not be larger than the image
    (numpy.pad's limit for the mirror modes)."""
    pad = [(0, 0)] * (image.ndim - footprint.ndim) + [(n // 2, n // 2) for n in footprint.shape]
    extra = {"constant_values": cval} if mode == "constant" else {}
    padded = np.pad(image, pad, mode=NUMPY_PAD[mode], **extra)
    axes = tuple(range(-footprint.ndim, 0))
    windows = np.lib.stride_tricks.sliding_window_view(padded, footprint.shape, axis=axes)
    values = np.sort(windows[..., footprint], axis=-1)
    out = values[..., (footprint.sum() - 1) // 2].copy()
    if out.dtype == np.float32:
        out[np.isnan(out)] = np.array(0x7FC00000, np.uint32).view(np.float32)
    return out


QUIET_NAN = np.uint32(0x7FC00000)


def sort_keys(stack):
    """Keys whose integer order is the library's float order, -Inf < ... < -0 < +0 < ... <
    +Inf < NaN (every NaN alike); integers are their own keys. numpy.sort alone puts NaN
    last too, but leaves -0.0 and +0.0 in either order."""
    if stack.dtype != np.float32:
        return stack
    bits = stack.view(np.int32).copy()
    bits[np.isnan(stack)] = QUIET_NAN.view(np.int32)
    return bits ^ ((bits >> 31) & 0x7FFFFFFF)


def from_keys(keys, dtype):
    if dtype != np.float32:
        return keys
    return (keys ^ ((keys >> 31) & 0x7FFFFFFF)).view(np.float32)


def quiet_nans(values):
    """Every NaN written as 0x7FC00000, as the library writes them."""
    if values.dtype == np.float32:
        values = values.copy()
        values.view(np.uint32)[np.isnan(values)] = QUIET_NAN
    return values


def temporal_reference(stack, n, mode="median", offset=0.0):
    """The temporal median of a (frames, y, x) stack by sorting every window with np.sort.
    Output frame t: the element of rank (n-1)//2 of frames [s, s+n) per pixel, s =
    clamp(t - n//2, 0, T - n); subtract: frame - median + offset (integers: the offset rounded,
    halves away from zero, and the result clipped to the type; floats: (frame - median) +
    float32(offset) in float32). (The CLI tests' statement, tests/cli/test_temporal_vs_numpy.py.)"""
    frames = stack.shape[0]
    keys = sort_keys(stack)
    out = np.empty_like(stack)
    medians = {}
    for t in range(frames):
        s = min(max(t - n // 2, 0), frames - n)
        if s not in medians:
            medians[s] = from_keys(np.sort(keys[s:s + n], axis=0)[(n - 1) // 2], stack.dtype)
        median = medians[s]
        if mode == "median":
            out[t] = median
        elif stack.dtype == np.float32:
            with np.errstate(invalid="ignore", over="ignore"):
                out[t] = (stack[t] - median) + np.float32(offset)
        else:
            top = np.iinfo(stack.dtype).max
            rounded = int(math.copysign(math.floor(abs(offset) + 0.5), offset))
            diff = stack[t].astype(np.int64) - median.astype(np.int64) + rounded
            out[t] = np.clip(diff, 0, top).astype(stack.dtype)
    return quiet_nans(out)


def random_stack(dtype, frames, seed, height=7, width=9):
    """A (frames, y, x) stack with ties (a few pixels take values from a short list),
    full-range values so that subtract clips at both ends, and for float32 every special
    value: NaNs with payloads and sign bits, +-Inf, -0.0 beside +0.0."""
    rng = np.random.default_rng(seed)
    shape = (frames, height, width)
    if np.dtype(dtype) == np.float32:
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


def circle_footprint(radius):
    """ImageJ's RankFilters circle of `radius` as a footprint for scipy."""
    return np.array(imagej_circle_mask(radius))
