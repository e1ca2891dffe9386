"""fastmedian's filters on dask arrays, chunk by chunk, so volumes larger than memory can be
filtered, on a dask.distributed cluster too. The result equals the NumPy call on the whole array,
bit for bit, for every chunking and every border mode.

How: dask.array.map_overlap gives each chunk the halo its window reaches into. Chunks at the
array's edge get no padding from dask (boundary "none"): there the library itself sees the
array's true edge and extends it by the mode, exactly as on the whole array. Only "wrap" reads
the far side of the array, which dask's "periodic" boundary brings in. An axis the window
reaches across is put in one chunk, so the library sees all of it.

On a cluster each worker runs the filter with the `backend` and `device` given: start each
worker with its own CUDA_VISIBLE_DEVICES (one GPU, device 0) or use backend="cpu".
"""
import functools

import dask.array as da
import numpy as np

from . import filters
from ._params import median_params


def median_filter(image, size=None, radius=None, mode="nearest", cval=0.0, backend="auto",
                  device=0):
    """fastmedian.median_filter on a dask array (2D, or a 3D stack of planes); lazy: returns a
    dask array of the same shape, dtype and chunks. Bad arguments raise now, not on compute."""
    image = da.asarray(image)
    p = median_params(image.dtype, image.shape, size, radius, mode, cval, backend, device)
    block_filter = functools.partial(filters.median_filter, size=size, radius=radius, mode=mode,
                                     cval=cval, backend=backend, device=device)
    return _map_with_halo(block_filter, image, p.halo, periodic=p.border == "wrap")


def _map_with_halo(block_filter, image, halo, periodic):
    chunks, depth = list(image.chunks), {}
    for axis, reach in enumerate(halo):
        if reach >= image.shape[axis]:
            chunks[axis] = (image.shape[axis],)
        depth[axis] = reach if len(chunks[axis]) > 1 else 0
    result = image.rechunk(tuple(chunks)).map_overlap(
        block_filter, depth=depth, boundary="periodic" if periodic else "none",
        dtype=image.dtype, meta=np.empty((0,) * image.ndim, image.dtype))
    return result.rechunk(image.chunks)
