"""Filtering Zarr arrays on disk chunk by chunk, through fastmedian.dask: a volume larger than
memory streams through, on the current dask scheduler (a dask.distributed Client when one is
active, else threads in this process). Worker processes filter on one CPU thread per call, as
fastmedian.dask says."""
import dask.array as da

from . import dask as fmdask


def median_filter(source, target, size=None, radius=None, mode="nearest", cval=0.0,
                  backend="auto", device=0, overwrite=False):
    """Writes the median of the Zarr array `source` into a new Zarr array `target` with the same
    shape, dtype and chunks. source and target: paths, URLs or zarr arrays (as
    dask.array.from_zarr and to_zarr take them); other parameters as fastmedian.median_filter."""
    image = da.from_zarr(source)
    result = fmdask.median_filter(image, size=size, radius=radius, mode=mode, cval=cval,
                                  backend=backend, device=device)
    da.to_zarr(result, target, overwrite=overwrite)
