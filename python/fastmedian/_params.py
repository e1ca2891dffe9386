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
TEMPORAL_MODES = ("median", "subtract")
MAX_OFFSET = 1e9  # the library's bound on the temporal and background offsets
BACKGROUND_METHODS = ("exact", "separable")
BACKGROUND_OUTPUTS = ("subtract", "background")


@dataclass(frozen=True)
class MedianParams:
    window: _native.Window
    border: str
    cval: float
    backend: str
    device: int
    halo: tuple  # per axis of the image: how far the window reaches (0 along planes)


@dataclass(frozen=True)
class TemporalParams:
    window: int
    mode: str
    offset: float
    axis: int  # the frame axis, in 0..2
    backend: str
    device: int


@dataclass(frozen=True)
class BackgroundParams:
    median: MedianParams  # the window, border, cval, backend, device and halo
    method: str
    output: str
    offset: float


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


def background_params(dtype, shape, size, radius, method, output, offset, mode, cval, backend,
                      device):
    """median_params, then the method, the output and its offset. The separable smoother reads
    the same rows and columns as the square window, so the halo is the window's."""
    median = median_params(dtype, shape, size, radius, mode, cval, backend, device)
    if not isinstance(method, str) or method not in BACKGROUND_METHODS:
        raise ValueError(f"method must be one of {', '.join(BACKGROUND_METHODS)}; got {method!r}")
    if method == "separable" and radius is not None:
        raise ValueError("method 'separable' needs size (a square window), not radius")
    if not isinstance(output, str) or output not in BACKGROUND_OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(BACKGROUND_OUTPUTS)}; got {output!r}")
    return BackgroundParams(median, method, output, _offset(offset))


def temporal_params(dtype, shape, window, mode, offset, axis, backend, device):
    if np.dtype(dtype) not in DTYPES:
        raise TypeError(f"stack must be uint8, uint16 or float32, got {np.dtype(dtype)}")
    if len(shape) != 3:
        raise ValueError(f"stack must be 3D (frames, y, x; the frame axis given by axis), got "
                         f"shape {tuple(shape)}")
    if 0 in shape:
        raise ValueError(f"stack is empty (shape {tuple(shape)})")
    if not _is_int(axis):
        raise TypeError(f"axis must be an int, got {axis!r}")
    if not -3 <= axis <= 2:
        raise ValueError(f"axis must be in -3..2 (the stack is 3D), got {axis}")
    axis = int(axis) % 3
    frames = shape[axis]
    if not _is_int(window):
        raise TypeError(f"window must be an int (a number of frames), got {window!r}")
    if not 1 <= window <= min(frames, _native.MAX_WINDOW):
        raise ValueError(f"window must be in 1..{min(frames, _native.MAX_WINDOW)} (at most the "
                         f"stack's {frames} frames along axis {axis}), got {window}")
    if not isinstance(mode, str) or mode not in TEMPORAL_MODES:
        raise ValueError(f"mode must be one of {', '.join(TEMPORAL_MODES)}; got {mode!r}")
    return TemporalParams(int(window), mode, _offset(offset), axis, _backend(backend),
                          _device(device))


def _offset(offset):
    if isinstance(offset, bool) or not isinstance(offset, numbers.Real):
        raise TypeError(f"offset must be a number, got {offset!r}")
    if not (math.isfinite(offset) and abs(offset) <= MAX_OFFSET):
        raise ValueError(f"offset must be finite and within +-{MAX_OFFSET:g}, got {offset!r}")
    return float(offset)


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
