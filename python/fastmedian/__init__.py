"""fastmedian: exact median filters for microscopy images and stacks, on NVIDIA GPUs (CUDA) or
the CPU with the same bits, for uint8, uint16 and float32 arrays, and exactly through them for
bool, int8, int16, int32, uint32, int64, uint64, float16 and float64 (the medians; the
convolutions take them through float32).

    fastmedian.median_filter(image, size=5)        # NumPy arrays, scipy.ndimage's names
    fastmedian.median_filter(volume, radius=(1, 2, 2))   # 3D: ImageJ's ellipsoid, or size=(kz, ky, kx)
    fastmedian.dask.median_filter(array, size=5)   # dask arrays, chunk by chunk
    fastmedian.dask.median_filter(array, size=5, output=out)   # computed into out, in place
    fastmedian.zarr.median_filter("in.zarr", "out.zarr", size=(1, 5, 5))
    fastmedian.zarr.median_filter("in.ome.zarr", "out.ome.zarr", size=(1, 5, 5))  # OME-Zarr 0.4
    fastmedian.temporal_median(movie, window=9)    # per pixel over 9 frames (frames, y, x)
    fastmedian.temporal_median(movie, 50, mode="subtract", offset=100)   # frame - median + 100
    fastmedian.dask.temporal_median(array, window=9)   # dask arrays, any chunking
    fastmedian.background(image, size=65)          # image - its median background
    fastmedian.background(image, size=129, method="separable", subtract=False)  # the background
    fastmedian.dask.background(array, size=65)     # dask arrays, any chunking
    fastmedian.convolve(image, weights)            # as scipy.ndimage.convolve (mode "reflect")
    fastmedian.gaussian_filter(image, sigma=3)     # scipy's Gaussian mask (truncate 4.0)
    fastmedian.dask.convolve(array, weights)       # and dask.gaussian_filter: any chunking

fastmedian.dask and fastmedian.zarr are there after `import fastmedian`, imported on first use
(they need dask, and zarr for the latter).

Errors: TypeError and ValueError for bad arguments (naming the parameter); fastmedian.Error and
its subclasses (BackendUnavailableError, DeviceError, UnsupportedError) for the rest.
"""
from ._native import (BackendUnavailableError, DeviceError, Error, UnsupportedError,
                      __version__)
from . import _native
from .filters import background, convolve, gaussian_filter, median_filter, temporal_median

__all__ = ["median_filter", "temporal_median", "background", "convolve", "gaussian_filter",
           "devices", "cuda_unavailable_reason", "Error",
           "BackendUnavailableError", "DeviceError", "UnsupportedError", "__version__"]

# The submodules that need dask, imported when first named, so that `import fastmedian` stays
# quick and works without dask (PEP 562).
_LAZY_SUBMODULES = ("dask", "zarr")


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


def devices():
    """The CUDA devices, as dicts (index, name, compute_capability, memory_bytes; policy, the
    GPU tuning its kernels follow, "sm_86" say; unsupported, why this build cannot use it, ""
    where it can: backend "auto" then runs on the CPU); empty without a GPU, a driver, or a CUDA
    build."""
    return _native.cuda_devices()


def cuda_unavailable_reason():
    """Why CUDA cannot be used here, or "" when at least one device can."""
    return _native.cuda_unavailable_reason()
