"""The filter parameters users pass, checked once for the NumPy, Dask and Zarr entry points (so a
bad call fails before any chunk is computed) and turned into what the native module takes.
Every error names the parameter at fault."""
import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import _native

DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))
# scipy.ndimage's mode names, and ours, to the library's border names.
MODES = {"nearest": "replicate", "replicate": "replicate", "reflect": "reflect",
         "mirror": "mirror", "constant": "constant", "wrap": "wrap"}
BACKENDS = ("auto", "cpu", "cuda")


@dataclass(frozen=True)
class MedianParams:
    window: _native.Window
    border: str
    cval: float
    backend: str
    device: int
    halo: tuple  # per axis of the image: how far the window reaches (0 along planes)


def check_image(dtype, shape):
    if np.dtype(dtype) not in DTYPES:
        raise TypeError(f"image must be uint8, uint16 or float32, got {np.dtype(dtype)}")
    if len(shape) not in (2, 3):
        raise ValueError(f"image must be 2D (y, x) or a 3D stack (planes, y, x), got shape "
                         f"{tuple(shape)}")
    if 0 in shape:
        raise ValueError(f"image is empty (shape {tuple(shape)})")


def median_params(dtype, shape, size, radius, mode, cval, backend, device):
    check_image(dtype, shape)
    window = _window(len(shape), size, radius)
    half_widths = _native.window_half_widths(window)
    border = _border(mode)
    return MedianParams(window, border, _cval(cval, dtype, border), _backend(backend),
                        _device(device),
                        (0,) * (len(shape) - 2) + ((len(half_widths) - 1) // 2, max(half_widths)))


def _window(ndim, size, radius):
    if (size is None) == (radius is None):
        raise ValueError("give exactly one of size (a square window, as scipy) or radius "
                         "(ImageJ's circle)")
    if radius is not None:
        if isinstance(radius, bool) or not isinstance(radius, numbers.Real):
            raise TypeError(f"radius must be a number, got {radius!r}")
        if not 0 <= radius <= _native.MAX_RADIUS:
            raise ValueError(f"radius must be in 0..{_native.MAX_RADIUS:g}, got {radius!r}")
        return _native.Window.circle(float(radius))
    return _native.Window.square(_square_side(ndim, size))


def _square_side(ndim, size):
    """k from size=k or (k, k) for an image, size=(1, k, k) for a stack. A plain k on a stack is
    refused: in scipy it means a k x k x k window, which arrives with the 3D median."""
    if ndim == 3 and _is_int(size):
        raise ValueError(f"size={size} on a 3D stack would be a {size}x{size}x{size} window "
                         f"(as in scipy); to filter each plane give size=(1, {size}, {size})")
    sides = (size,) if _is_int(size) else tuple(size) if isinstance(size, (tuple, list)) else None
    if sides is None or not all(_is_int(s) for s in sides):
        raise TypeError(f"size must be an int or a tuple of ints, got {size!r}")
    if ndim == 3 and (len(sides) != 3 or sides[0] != 1):
        raise ValueError(f"size for a 3D stack must be (1, k, k) (each plane on its own; the "
                         f"3D median is not available yet), got {size!r}")
    if ndim == 2 and len(sides) not in (1, 2):
        raise ValueError(f"size for a 2D image must be k or (k, k), got {size!r}")
    k = sides[-1]
    if len(sides) > 1 and sides[-2] != k:
        raise ValueError(f"size must be square (only k x k windows are available), got {size!r}")
    if k < 1 or k % 2 == 0 or k > _native.MAX_SIZE:
        raise ValueError(f"size must be odd and in 1..{_native.MAX_SIZE}, got {size!r}")
    return int(k)


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _border(mode):
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    return MODES[mode]


def _cval(cval, dtype, border):
    if isinstance(cval, bool) or not isinstance(cval, numbers.Real):
        raise TypeError(f"cval must be a number, got {cval!r}")
    if border == "constant" and np.dtype(dtype).kind == "u" and not math.isfinite(cval):
        raise ValueError(f"cval must be finite for integer images, got {cval!r}")
    return float(cval)


def _backend(backend):
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    return backend


def _device(device):
    if not _is_int(device):
        raise TypeError(f"device must be an int (a CUDA device index), got {device!r}")
    if device < 0:
        raise ValueError(f"device must be at least 0, got {device}")
    return int(device)
