"""The filters on NumPy arrays, named and shaped as scipy.ndimage's."""
import numpy as np

from . import _native
from ._params import median_params


def median_filter(image, size=None, radius=None, mode="nearest", cval=0.0, backend="auto",
                  device=0):
    """Exact median filter of a 2D image, or of each plane of a 3D stack (planes, y, x).

    image: uint8, uint16 or float32 array; read in place when its rows are contiguous (any
        C-contiguous array, or a view of rows and columns of one), else copied first.
    size: the side k of a square window (odd), as k or (k, k) for an image and (1, k, k) for a
        stack, the same as scipy.ndimage.median_filter(image, size=...).
    radius: instead of size, ImageJ's circular window ("Median..." with this radius).
    mode: how the image is extended past its edges, scipy's names: "nearest" (or "replicate"),
        "reflect", "mirror", "constant" (cval, rounded and clamped to the pixel type), "wrap".
    backend: "auto" (CUDA device `device` if usable, else the CPU), "cpu" or "cuda".

    Float order: NaN counts as larger than +Inf; a NaN result is the quiet NaN 0x7FC00000.
    Returns a new C-contiguous array of the image's shape and dtype. The GIL is released while
    the filter runs, so threads can filter different images at once.
    """
    image = np.asarray(image)
    p = median_params(image.dtype, image.shape, size, radius, mode, cval, backend, device)
    output = np.empty(image.shape, image.dtype)
    _native.median2d(readable_in_place(image), output, p.window, p.border, p.cval, p.backend,
                     p.device)
    return output


def readable_in_place(image):
    """`image` itself when the library can read it as it lies (contiguous rows, rows and planes
    in increasing, non-overlapping order, aligned pixels), else a C-contiguous copy."""
    s = image.strides
    item = image.itemsize
    in_order = (s[-1] == item and s[-2] >= image.shape[-1] * item and
                (image.ndim == 2 or s[0] >= s[1] * image.shape[1]))
    # np.array copies always (ascontiguousarray would keep an unaligned contiguous array, as
    # dask.distributed can deliver one).
    return image if in_order and image.flags.aligned else np.array(image, order="C")
