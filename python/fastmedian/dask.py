"""fastmedian's filters on dask arrays, chunk by chunk, so volumes larger than memory can be
filtered, on a dask.distributed cluster too. The result equals the NumPy call on the whole array,
bit for bit, for every chunking and every border mode.

How: dask.array.map_overlap gives each chunk the halo its window reaches into. Chunks at the
array's edge get no padding from dask (boundary "none"): there the library itself sees the
array's true edge and extends it by the mode, exactly as on the whole array (scipy's "mirror"
included, which no dask boundary gives). Only "wrap" reads the far side of the array, which
dask's "periodic" boundary brings in. An axis the window reaches across is put in one chunk,
so the library sees all of it. A 3D window (the 3D median) is the same case along z: the halo
is its reach along every axis, and every mode folds each axis on its own. The convolutions
(convolve, gaussian_filter) are the same case with the mask's radius as the halo: each output
pixel reads the same input pixels in the same order whichever block computes it.

The temporal median (temporal_median) needs a halo along the frame axis only, and an uneven
one: output frame t reads frames [t - N//2, t + (N-1)//2] inside the array, but the windows of
the first N//2 and last (N-1)//2 frames are moved inward, so those outputs read up to N-1 frames
beyond themselves. See _frame_chunks for the chunking that makes the plain halo enough.

On a cluster each worker runs the filter with the `backend` and `device` given: start each
worker with its own CUDA_VISIBLE_DEVICES (one GPU, device 0) or use backend="cpu". A worker
process (started by a nanny, as LocalCluster and `dask worker` do) runs one task per thread, so
there the CPU backend takes one thread per call (FASTMEDIAN_CPU_THREADS=1, set in the worker's
environment before its first filter unless that environment already sets it), as the nanny's
OMP_NUM_THREADS=1 does for NumPy.
"""
import functools
import os
import threading

import dask.array as da
import numpy as np

from . import filters
from ._params import (background_params, convolve_params, gaussian_params, median_params,
                      temporal_params)


def median_filter(image, size=None, radius=None, mode="nearest", cval=0.0, backend="auto",
                  device=0):
    """fastmedian.median_filter on a dask array (2D, a 3D stack of planes, or a volume with a
    3D window: size (kz, ky, kx) or radius (rz, ry, rx)); lazy: returns a dask array of the same
    shape, dtype and chunks, equal bit for bit to the NumPy call on the whole array for every
    chunking and mode. Bad arguments raise now, not on compute."""
    image = da.asarray(image)
    p = median_params(image.dtype, image.shape, size, radius, mode, cval, backend, device)
    block_filter = functools.partial(filters.median_filter, size=size, radius=radius, mode=mode,
                                     cval=cval, backend=backend, device=device)
    return _map_with_halo(block_filter, image, p.halo, periodic=p.border == "wrap")


def background(image, size=None, radius=None, method="exact", output="subtract", offset=0.0,
               mode="nearest", cval=0.0, backend="auto", device=0):
    """fastmedian.background on a dask array (2D, or a 3D stack of planes); lazy: returns a dask
    array of the same shape, dtype and chunks, equal bit for bit to the NumPy call on the whole
    array for every chunking and mode. The halo is the window's reach along y and x (both
    methods read the same rows and columns), none along the planes. Bad arguments raise now,
    not on compute."""
    image = da.asarray(image)
    p = background_params(image.dtype, image.shape, size, radius, method, output, offset, mode,
                          cval, backend, device)
    block_filter = functools.partial(filters.background, size=size, radius=radius,
                                     method=p.method, output=p.output, offset=p.offset,
                                     mode=mode, cval=cval, backend=backend, device=device)
    return _map_with_halo(block_filter, image, p.median.halo,
                          periodic=p.median.border == "wrap")


def convolve(image, weights, mode="reflect", cval=0.0, output_dtype=None, normalize=False,
             backend="auto", device=0):
    """fastmedian.convolve on a dask array (2D, or a 3D stack of planes); lazy: returns a dask
    array of the same shape and chunks (and the output dtype), equal bit for bit to the NumPy
    call on the whole array for every chunking and mode. The halo is the mask's radius along y
    and x, none along the planes. Bad arguments raise now, not on compute."""
    image = da.asarray(image)
    p = convolve_params(image.dtype, image.shape, weights, mode, cval, output_dtype, normalize,
                        backend, device)
    # The checked float32 mask goes to every block (the weights as given could be a lazy array).
    block_filter = functools.partial(filters.convolve, weights=p.mask, mode=mode, cval=cval,
                                     output_dtype=p.output_dtype, normalize=p.normalize,
                                     backend=backend, device=device)
    return _map_with_halo(block_filter, image, p.halo, periodic=p.border == "wrap",
                          dtype=p.output_dtype)


def gaussian_filter(image, sigma, mode="reflect", cval=0.0, truncate=4.0, output_dtype=None,
                    backend="auto", device=0):
    """fastmedian.gaussian_filter on a dask array (2D, or a 3D stack of planes with sigma
    (0, sy, sx)); lazy, equal bit for bit to the NumPy call on the whole array for every
    chunking and mode. The halo is the mask's radius, int(4 sigma + 0.5), along y and x. Bad
    arguments raise now, not on compute."""
    image = da.asarray(image)
    p = gaussian_params(image.dtype, image.shape, sigma, mode, cval, truncate, output_dtype,
                        backend, device)
    block_filter = functools.partial(filters.gaussian_filter, sigma=sigma, mode=mode, cval=cval,
                                     truncate=truncate, output_dtype=p.output_dtype,
                                     backend=backend, device=device)
    return _map_with_halo(block_filter, image, p.halo, periodic=p.border == "wrap",
                          dtype=p.output_dtype)


def temporal_median(stack, window, mode="median", offset=0.0, axis=0, backend="auto", device=0):
    """fastmedian.temporal_median on a 3D dask array (frames along `axis`); lazy: returns a dask
    array of the same shape, dtype and chunks, equal bit for bit to the NumPy call on the whole
    array for every chunking. Bad arguments raise now, not on compute."""
    stack = da.asarray(stack)
    p = temporal_params(stack.dtype, stack.shape, window, mode, offset, axis, backend, device)
    block_filter = _on_worker(functools.partial(filters.temporal_median, window=p.window,
                                                mode=p.mode, offset=p.offset, axis=0,
                                                backend=p.backend, device=p.device))
    frames_first = da.moveaxis(stack, p.axis, 0)
    chunks = (_frame_chunks(frames_first.chunks[0], p.window),) + frames_first.chunks[1:]
    frames_first_chunks = frames_first.chunks
    frames_first = frames_first.rechunk(chunks)
    meta = np.empty((0, 0, 0), stack.dtype)
    if len(chunks[0]) == 1:
        result = frames_first.map_blocks(block_filter, dtype=stack.dtype, meta=meta)
    else:
        # Frames [N//2 before, (N-1)//2 after] each chunk; none outside the array.
        depth = {0: (p.window // 2, (p.window - 1) // 2), 1: 0, 2: 0}
        result = frames_first.map_overlap(block_filter, depth=depth, boundary="none",
                                          dtype=stack.dtype, meta=meta)
    return da.moveaxis(result.rechunk(frames_first_chunks), 0, p.axis)


def _frame_chunks(chunks, window):
    """Chunks along the frame axis for which a halo of N//2 frames before and (N-1)//2 after
    each chunk (N = window), filtered on its own, gives the whole array's result.

    Why: a block holding frames [A, B) of the array computes its frames' window starts as
    clamp(t - N//2, A, B - N) where the whole array has clamp(t - N//2, 0, T - N). For an
    inner chunk [a, b) with its halo, A = a - N//2 and B = b + (N-1)//2, so t - N//2 lies in
    [A, B - N] for every t in [a, b) and the block's clamp does nothing; the array's does
    nothing either as long as a >= N//2 and b + (N-1)//2 <= T, which holds when the first and
    last chunks have at least N frames. The first chunk [0, b) (B = b + (N-1)//2, A = 0) and
    the last [a, T) (A = a - N//2, B = T) clamp exactly as the array does at the end they share
    with it, and at their other end as the inner chunks; a first or last chunk of at least N
    frames also leaves every block at least N frames long. So: the first and last chunks are
    merged with their neighbours until they hold N frames (one chunk when they would meet),
    and inner chunks shorter than the halo are merged so that each halo comes from the
    neighbouring chunk alone (so dask does not rechunk them its own way)."""
    chunks = list(chunks)
    total = sum(chunks)
    first, start = _merge_until(chunks, window)
    last, end = _merge_until(chunks[::-1], window)
    if start + end > len(chunks):  # they would share a chunk
        return (total,)
    inner, run = [], 0
    for c in chunks[start:len(chunks) - end]:
        run += c
        if run >= max(window // 2, 1):
            inner.append(run)
            run = 0
    last += run  # a short tail joins the last chunk
    return tuple([first] + inner + [last])


def _merge_until(chunks, size):
    """The sum of the fewest leading chunks that reach `size` frames, and how many they are."""
    total = 0
    for i, c in enumerate(chunks):
        total += c
        if total >= size:
            return total, i + 1
    return total, len(chunks)


def _map_with_halo(block_filter, image, halo, periodic, dtype=None):
    dtype = image.dtype if dtype is None else dtype
    chunks, depth = list(image.chunks), {}
    for axis, reach in enumerate(halo):
        if reach >= image.shape[axis]:
            chunks[axis] = (image.shape[axis],)
        depth[axis] = reach if len(chunks[axis]) > 1 else 0
    result = image.rechunk(tuple(chunks)).map_overlap(
        _on_worker(block_filter), depth=depth, boundary="periodic" if periodic else "none",
        dtype=dtype, meta=np.empty((0,) * image.ndim, dtype))
    return result.rechunk(image.chunks)


_THREADS = "FASTMEDIAN_CPU_THREADS"
_environ_lock = threading.Lock()


def _on_worker(block_filter):
    return functools.partial(_run_block, block_filter)


def _run_block(block_filter, block):
    """block_filter(block), in a nanny's worker process on one CPU thread per call (see above)."""
    if _THREADS not in os.environ and _in_worker_process():
        # Under the lock and before the first call that reads it: setenv must not race getenv.
        with _environ_lock:
            os.environ.setdefault(_THREADS, "1")
    return block_filter(block)


def _in_worker_process():
    try:
        from distributed import get_worker
        return bool(get_worker().nanny)
    except (ImportError, ValueError):
        return False
