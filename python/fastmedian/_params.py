"""The filter parameters users pass, checked once for the NumPy, Dask and Zarr entry points (so a
bad call fails before any chunk is computed) and turned into what the native module takes.
Every error names the parameter at fault."""
import logging
import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import _native
from ._dtypes import library_dtype

DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))
# scipy.ndimage's mode names, and ours, to the library's border names.
MODES = {"nearest": "replicate", "replicate": "replicate", "reflect": "reflect",
         "mirror": "mirror", "constant": "constant", "wrap": "wrap"}
BACKENDS = ("auto", "cpu", "cuda")
TEMPORAL_MODES = ("median", "subtract")
MAX_OFFSET = 1e9  # the library's bound on the temporal and background offsets
MAX_DEVICE = 2**31 - 1  # device indices are C ints in the library
BACKGROUND_METHODS = ("exact", "separable")
GAUSSIAN_TRUNCATE = 4.0  # the library's Gaussian mask is scipy's with truncate 4.0


@dataclass(frozen=True)
class MedianParams:
    window: object  # _native.Window (each plane on its own) or _native.Window3D (the volume)
    border: str
    cval: float
    backend: str
    device: tuple  # CUDA device indices: one, or the devices to spread the planes over
    halo: tuple  # per axis of the image: how far the window reaches (0 along planes in 2D)


@dataclass(frozen=True)
class TemporalParams:
    window: int
    mode: str
    offset: float
    axis: int  # the frame axis, in 0..2
    backend: str
    device: tuple  # CUDA device indices: one, or the devices to spread the planes over


@dataclass(frozen=True)
class BackgroundParams:
    median: MedianParams  # the window, border, cval, backend, device and halo
    method: str
    subtract: bool  # True: image - background + offset; False: the background itself
    offset: float


@dataclass(frozen=True)
class ConvolveParams:
    mask: object    # the generic mask, float32 (kh, kw), the top row first; or None
    row: object     # or the separable pair: float32 1D along x ...
    column: object  # ... and along y; None with a generic mask
    normalize: bool
    output_dtype: np.dtype  # the image's, or float32 (from `output`: a dtype or an array's)
    border: str
    cval: float
    backend: str
    device: tuple  # CUDA device indices: one, or the devices to spread the planes over
    halo: tuple  # per axis of the image: how far the mask reaches (0 along planes)


def check_image(dtype, shape):
    if np.dtype(dtype) not in DTYPES:
        raise TypeError(f"image must be uint8, uint16 or float32, got {np.dtype(dtype)}")
    if len(shape) not in (2, 3):
        raise ValueError(f"image must be 2D (y, x) or a 3D stack (planes, y, x), got shape "
                         f"{tuple(shape)}")
    if 0 in shape:
        raise ValueError(f"image is empty (shape {tuple(shape)})")


def rows_in_order(shape, strides, itemsize):
    """Whether an array of this layout has contiguous rows, and rows and planes in increasing,
    non-overlapping order: the layout the library reads and writes in place."""
    return (strides[-1] == itemsize and strides[-2] >= shape[-1] * itemsize and
            (len(shape) == 2 or strides[0] >= strides[1] * shape[1]))


def _check_convolve_image(dtype, shape):
    """The convolutions take every dtype the medians take (through float32, _dtypes)."""
    library_dtype(dtype)
    check_image(np.float32, shape)


def median_params(dtype, shape, size, radius, mode, cval, backend, device):
    check_image(dtype, shape)
    window = _window(len(shape), size, radius)
    if isinstance(window, _native.Window3D):
        try:
            runs = _native.window3d_runs(window)
        except ValueError as e:  # too many voxels: the library states its limit
            name, value = ("size", size) if radius is None else ("radius", radius)
            raise ValueError(f"{name}={_shown(value)}: {e}") from None
        halo = (runs.radius_z, runs.radius_y, runs.radius_x)
    else:
        half_widths = _native.window_half_widths(window)
        halo = (0,) * (len(shape) - 2) + ((len(half_widths) - 1) // 2, max(half_widths))
    border = _border(mode)
    return MedianParams(window, border, _cval(cval, dtype, border), _backend(backend),
                        _device(device), halo)


def background_params(dtype, shape, size, radius, method, subtract, offset, mode, cval, backend,
                      device):
    """median_params, then the method, subtract and its offset. The separable smoother reads
    the same rows and columns as the square window, so the halo is the window's."""
    median = median_params(dtype, shape, size, radius, mode, cval, backend, device)
    if isinstance(median.window, _native.Window3D):
        name, value = ("size", size) if radius is None else ("radius", radius)
        raise ValueError(f"{name} must give a window of each plane (size (1, k, k) or radius r "
                         f"on a stack; the background is estimated plane by plane), got "
                         f"{_shown(value)}")
    if not isinstance(method, str) or method not in BACKGROUND_METHODS:
        raise ValueError(f"method must be one of {', '.join(BACKGROUND_METHODS)}; got "
                         f"{_shown(method)}")
    if method == "separable" and radius is not None:
        raise ValueError("method 'separable' needs size (a square window), not radius")
    if not isinstance(subtract, (bool, np.bool_)):
        raise TypeError(f"subtract must be True (image - background + offset) or False (the "
                        f"background itself), got {_shown(subtract)}")
    offset = _offset(offset)
    if not subtract and offset != 0:  # refused, not ignored, as the CLI refuses it
        raise ValueError(f"offset applies only with subtract=True, got offset={offset:g} with "
                         f"subtract=False")
    return BackgroundParams(median, method, bool(subtract), offset)


def check_background_output(output):
    """background's `output` is an array to write into, as everywhere; it used to choose what
    is written ("subtract" or "background"), so a string gets the new spelling, not a bare
    "must be a NumPy array"."""
    if isinstance(output, str):
        raise ValueError(f"output takes an array to write into (as scipy's output), got "
                         f"{_shown(output)}; what is written is now chosen by subtract=True "
                         f"(image - background + offset) or subtract=False (the background "
                         f"itself)")


def temporal_params(dtype, shape, window, mode, offset, axis, backend, device):
    if np.dtype(dtype) not in DTYPES:
        raise TypeError(f"stack must be uint8, uint16 or float32, got {np.dtype(dtype)}")
    if len(shape) != 3:
        raise ValueError(f"stack must be 3D (frames, y, x; the frame axis given by axis), got "
                         f"shape {tuple(shape)}")
    if 0 in shape:
        raise ValueError(f"stack is empty (shape {tuple(shape)})")
    if not _is_int(axis):
        raise TypeError(f"axis must be an int, got {_shown(axis)}")
    if not -3 <= axis <= 2:
        raise ValueError(f"axis must be in -3..2 (the stack is 3D), got {axis}")
    axis = int(axis) % 3
    frames = shape[axis]
    if not _is_int(window):
        raise TypeError(f"window must be an int (a number of frames), got {_shown(window)}")
    if not 1 <= window <= min(frames, _native.MAX_WINDOW):
        raise ValueError(f"window must be in 1..{min(frames, _native.MAX_WINDOW)} (at most the "
                         f"stack's {frames} frames along axis {axis}), got {window}")
    if not isinstance(mode, str) or mode not in TEMPORAL_MODES:
        raise ValueError(f"mode must be one of {', '.join(TEMPORAL_MODES)}; got {_shown(mode)}")
    offset = _offset(offset)
    if mode == "median" and offset != 0:  # refused, not ignored, as the CLI refuses it
        raise ValueError(f"offset applies only to mode 'subtract', got offset={offset:g} with "
                         f"mode 'median'")
    return TemporalParams(int(window), mode, offset, axis, _backend(backend), _device(device))


def convolve_params(dtype, shape, weights, mode, cval, output, normalize, backend, device):
    """The generic mask as float32 (kh, kw): 2D weights, or (1, kh, kw) on a stack as scipy
    wants them there; odd sides up to the library's limit; finite as float32. `output` as
    scipy's: None, a dtype or an array to write into (its dtype; the array itself is checked
    against the image by the caller)."""
    _check_convolve_image(dtype, shape)
    mask = _weights(weights, len(shape))
    if not isinstance(normalize, (bool, np.bool_)):
        raise TypeError(f"normalize must be True or False, got {_shown(normalize)}")
    if normalize:
        # As the library sums: in double, value after value.
        total = sum(float(w) for w in mask.ravel())
        if total == 0.0:
            raise ValueError("normalize needs weights whose sum is not 0; these sum to 0")
        if np.abs(mask.astype(np.float64) / total).max() > np.finfo(np.float32).max:
            raise ValueError(f"normalize: weights divided by their sum ({total!r}) overflow "
                             f"float32")
    border = _border(mode)
    kh, kw = mask.shape
    return ConvolveParams(mask, None, None, bool(normalize), _output_dtype(output, dtype),
                          border, _cval(cval, dtype, border), _backend(backend),
                          _device(device), (0,) * (len(shape) - 2) + (kh // 2, kw // 2))


def gaussian_params(dtype, shape, sigma, mode, cval, truncate, output, backend, device):
    """The Gaussian as a separable pair of scipy's 1D masks (the library's gaussian_mask): sigma
    per axis, as scipy.ndimage.gaussian_filter takes it; 0 leaves that axis alone (the mask
    [1])."""
    _check_convolve_image(dtype, shape)
    sy, sx = _sigmas(sigma, len(shape))
    if isinstance(truncate, bool) or not isinstance(truncate, numbers.Real):
        raise TypeError(f"truncate must be a number, got {_shown(truncate)}")
    if truncate != GAUSSIAN_TRUNCATE:
        raise ValueError(f"truncate must be {GAUSSIAN_TRUNCATE} (scipy's default, the only "
                         f"Gaussian mask available: radius int(4 sigma + 0.5)), got "
                         f"{_shown(truncate)}")
    column, row = _gaussian_mask(sy), _gaussian_mask(sx)
    border = _border(mode)
    return ConvolveParams(None, row, column, False, _output_dtype(output, dtype), border,
                          _cval(cval, dtype, border), _backend(backend), _device(device),
                          (0,) * (len(shape) - 2) + (len(column) // 2, len(row) // 2))


def _weights(weights, ndim):
    try:
        w = np.asarray(weights)
    except (ValueError, TypeError) as e:
        raise TypeError(f"weights must be an array of numbers: {e}") from None
    if w.dtype.kind not in "biuf":
        raise TypeError(f"weights must be an array of real numbers, got dtype {w.dtype}")
    if ndim == 3 and w.ndim == 3:
        if w.shape[0] != 1:
            raise ValueError(f"weights for a 3D stack must be 2D (kh, kw) or (1, kh, kw) (each "
                             f"plane on its own; 3D convolution is not available), got shape "
                             f"{w.shape}")
        w = w[0]
    if w.ndim != 2:
        what = "2D (kh, kw) or (1, kh, kw)" if ndim == 3 else "2D (kh, kw)"
        raise ValueError(f"weights must be {what}, got shape {w.shape}")
    top = _native.MAX_CONVOLVE_MASK_SIZE
    if not all(1 <= n <= top and n % 2 == 1 for n in w.shape):
        raise ValueError(f"weights must have odd sides in 1..{top}, got shape {w.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        mask = np.ascontiguousarray(w, dtype=np.float32)
    if not np.isfinite(mask).all():
        raise ValueError("weights must be finite numbers (as float32, the library's precision)")
    return mask


def _output_dtype(output, dtype):
    """The dtype the convolutions write, from `output` as scipy.ndimage takes it: None (the
    image's dtype), an array to write into (its dtype) or a dtype; the library writes float32
    or the image's dtype."""
    image = np.dtype(dtype)
    accepted = f"float32 or the image's dtype {image}"
    if output is None:
        return np.dtype(image.type)
    if is_array(output):  # before np.dtype(), which would take a dask array's dtype too
        if output.dtype not in (np.dtype(np.float32), image):
            raise TypeError(f"output must be an array of {accepted}, got dtype {output.dtype}")
        return np.dtype(output.dtype.type)
    try:
        out = np.dtype(output)
    except (TypeError, ValueError):
        out = None
    if out is None or out not in (np.dtype(np.float32), image):
        raise ValueError(f"output must be an array to write into or a dtype, {accepted} "
                         f"(np.float32, \"float32\"); got "
                         f"{_shown(output) if out is None else out}")
    return np.dtype(out.type)  # NumPy's own dtype object, not one unpickled on a worker


def is_array(value):
    """Whether `value` is an array (NumPy, Dask, Zarr), not a dtype or scalar type that also
    has `shape` and `dtype` attributes (np.float32, np.float32(1))."""
    return (hasattr(value, "shape") and hasattr(value, "dtype")
            and not isinstance(value, (type, np.dtype, np.generic)))


def _sigmas(sigma, ndim):
    """(sigma_y, sigma_x) from sigma = s or (sy, sx) for an image, (0, sy, sx) for a stack. A
    plain s on a stack is refused: in scipy it also blurs across the planes."""
    # An array as a number (0 dimensions) or a list; messages show `sigma` as given.
    value = sigma.tolist() if isinstance(sigma, np.ndarray) else sigma
    if ndim == 3 and isinstance(value, numbers.Real) and not isinstance(value, bool):
        raise ValueError(f"sigma={value} on a 3D stack would blur across the planes too (as in "
                         f"scipy); to blur each plane give sigma=(0, {value}, {value})")
    sigmas = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not all(isinstance(s, numbers.Real) and not isinstance(s, bool) for s in sigmas):
        raise TypeError(f"sigma must be a number or a tuple of numbers, got {_shown(sigma)}")
    if ndim == 2 and isinstance(value, (tuple, list)) and len(sigmas) != 2:  # as scipy
        raise ValueError(f"sigma for a 2D image must be s or (sy, sx), got {_shown(sigma)}")
    if ndim == 3 and (len(sigmas) != 3 or sigmas[0] != 0):
        raise ValueError(f"sigma for a 3D stack must be (0, sy, sx) (each plane on its own; "
                         f"the 3D Gaussian is not available), got {_shown(sigma)}")
    if len(sigmas) == 1:
        sigmas = sigmas * 2
    top = _native.MAX_GAUSSIAN_SIGMA
    for s in sigmas[-2:]:
        if not (math.isfinite(s) and 0 <= s <= top):
            raise ValueError(f"sigma must be in 0..{top:g} (0: that axis is not blurred), got "
                             f"{_shown(sigma)}")
    return float(sigmas[-2]), float(sigmas[-1])


def _gaussian_mask(sigma):
    # As scipy, which leaves an axis of sigma <= 1e-15 alone; the library's mask for such a
    # sigma is [1] as well.
    return np.ones(1, np.float32) if sigma == 0 else _native.gaussian_mask(sigma)


def _offset(offset):
    if isinstance(offset, bool) or not isinstance(offset, numbers.Real):
        raise TypeError(f"offset must be a number, got {_shown(offset)}")
    if not (math.isfinite(offset) and abs(offset) <= MAX_OFFSET):
        raise ValueError(f"offset must be finite and within +-{MAX_OFFSET:g}, got "
                         f"{_shown(offset)}")
    return float(offset)


def _window(ndim, size, radius):
    if (size is None) == (radius is None):
        raise ValueError("give exactly one of size (a square window, as scipy) or radius "
                         "(ImageJ's circle)")
    if radius is not None:
        if ndim == 3 and isinstance(radius, (tuple, list)):
            return _ellipsoid(radius)
        if isinstance(radius, bool) or not isinstance(radius, numbers.Real):
            raise TypeError(f"radius must be a number, got {_shown(radius)}")
        if not 0 <= radius <= _native.MAX_RADIUS:
            raise ValueError(f"radius must be in 0..{_native.MAX_RADIUS:g}, got {_shown(radius)}")
        return _native.Window.circle(float(radius))
    return _size_window(ndim, size)


def _size_window(ndim, size):
    """The k x k square from size=k or (k, k) for an image, size=(1, k, k) for a stack; the 3D
    box from any other size=(kz, ky, kx) for a stack. A plain k on a stack stays refused: scipy
    reads it as k x k x k, a caller used to the per-plane filter may mean k x k."""
    if ndim == 3 and _is_int(size):
        raise ValueError(f"size={size} on a 3D stack is refused: give size=(1, {size}, {size}) "
                         f"to filter each plane, or size=({size}, {size}, {size}) for the 3D "
                         f"median (scipy's meaning of size={size})")
    sides = (size,) if _is_int(size) else tuple(size) if isinstance(size, (tuple, list)) else None
    if sides is None or not all(_is_int(s) for s in sides):
        raise TypeError(f"size must be an int or a tuple of ints, got {_shown(size)}")
    if ndim == 3 and len(sides) != 3:
        raise ValueError(f"size for a 3D stack must be (1, k, k) (each plane on its own) or "
                         f"(kz, ky, kx) (the 3D median), got {_shown(size)}")
    if ndim == 3 and (sides[0] != 1 or sides[1] != sides[2]):
        top = _native.MAX_SIZE_3D
        if not all(1 <= k <= top and k % 2 == 1 for k in sides):
            raise ValueError(f"size for the 3D median must have odd sides in 1..{top}, got "
                             f"{_shown(size)}")
        kz, ky, kx = (int(k) for k in sides)
        return _native.Window3D.box(kx, ky, kz)
    if ndim == 2 and not _is_int(size) and len(sides) != 2:  # one side per axis, as scipy
        raise ValueError(f"size for a 2D image must be k or (k, k), got {_shown(size)}")
    k = sides[-1]
    if len(sides) > 1 and sides[-2] != k:
        raise ValueError(f"size must be square (only k x k windows are available), got "
                         f"{_shown(size)}")
    if k < 1 or k % 2 == 0 or k > _native.MAX_SIZE:
        raise ValueError(f"size must be odd and in 1..{_native.MAX_SIZE}, got {_shown(size)}")
    return _native.Window.square(int(k))


def _ellipsoid(radius):
    """ImageJ's 3D ellipsoid from radius=(rz, ry, rx) on a stack."""
    if len(radius) != 3:
        raise ValueError(f"radius for a 3D stack must be r (ImageJ's circle, each plane) or "
                         f"(rz, ry, rx) (ImageJ's 3D ellipsoid), got {_shown(radius)}")
    if not all(isinstance(r, numbers.Real) and not isinstance(r, bool) for r in radius):
        raise TypeError(f"radius must be a tuple of numbers, got {_shown(radius)}")
    top = _native.MAX_RADIUS_3D
    if not all(0 <= r <= top for r in radius):  # False for NaN
        raise ValueError(f"radius for the 3D median must be in 0..{top:g} on each axis, got "
                         f"{_shown(radius)}")
    rz, ry, rx = (float(r) for r in radius)
    return _native.Window3D.ellipsoid(rx, ry, rz)


def _shown(value):
    """How an error message shows a value the caller passed: its repr, but an array (NumPy,
    Dask, Zarr; also inside a tuple or list) by its type, shape and dtype, and a long repr cut
    short, so that an image passed in the wrong place is not printed whole."""
    if is_array(value):
        return f"{type(value).__name__} of shape {tuple(value.shape)} and dtype {value.dtype}"
    if isinstance(value, tuple):
        text = f"({', '.join(map(_shown, value))}{',' if len(value) == 1 else ''})"
    elif isinstance(value, list):
        text = f"[{', '.join(map(_shown, value))}]"
    else:
        text = repr(value)
    return text if len(text) <= 100 else f"{text[:80]}... (a {type(value).__name__})"


def channel_axis_of(channel_axis, ndim, name="image"):
    """channel_axis (scikit-image's keyword: the axis holding the channels) in 0..ndim-1, for
    an array of ndim axes of which the others make a 2D image, a stack or a volume."""
    if not _is_int(channel_axis):
        raise TypeError(f"channel_axis must be an int or None, got {_shown(channel_axis)}")
    if ndim not in (3, 4):
        raise ValueError(f"{name} with channel_axis must be 3D or 4D (a 2D image, a stack or a "
                         f"volume, and the channels), got {ndim}D")
    if not -ndim <= channel_axis < ndim:
        raise ValueError(f"channel_axis must be in {-ndim}..{ndim - 1} ({name} is {ndim}D), got "
                         f"{channel_axis}")
    return int(channel_axis) % ndim


def channel_and_frame_axes(channel_axis, axis, ndim):
    """(the channel axis, the frame axis among the others) of a stack with channels."""
    channels = channel_axis_of(channel_axis, ndim, "stack")
    if not _is_int(axis):
        raise TypeError(f"axis must be an int, got {_shown(axis)}")
    if not -ndim <= axis < ndim or axis % ndim == channels:
        raise ValueError(f"axis must be an axis of the {ndim}D stack other than channel_axis "
                         f"({channels}), got {axis}")
    frames = int(axis) % ndim
    return channels, frames - (frames > channels)


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _border(mode):
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {_shown(mode)}")
    return MODES[mode]


def _cval(cval, dtype, border):
    if isinstance(cval, bool) or not isinstance(cval, numbers.Real):
        raise TypeError(f"cval must be a number, got {_shown(cval)}")
    if border == "constant" and np.dtype(dtype).kind in "biu" and not math.isfinite(cval):
        raise ValueError(f"cval must be finite for integer images, got {_shown(cval)}")
    return float(cval)


def _backend(backend):
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {_shown(backend)}")
    if backend == "auto":
        _note_unusable_gpus()
    return backend


def unusable_gpus_line(devices):
    """The log line for GPUs present but none usable by this build (backend "auto" then runs
    on the CPU), naming the first one's reason; None where a device is usable or there is none."""
    if not devices or any(not d["unsupported"] for d in devices):
        return None
    d = devices[0]
    return (f"fastmedian: CUDA device {d['index']} ({d['name']}) cannot be used: {d['unsupported']}; "
            f"backend 'auto' runs on the CPU")


_unusable_gpus_noted = False


def _note_unusable_gpus():
    """Logs unusable_gpus_line once per process, at the first call with backend "auto"."""
    global _unusable_gpus_noted
    if _unusable_gpus_noted:
        return
    _unusable_gpus_noted = True
    line = unusable_gpus_line(_native.cuda_devices())
    if line is not None:
        logging.getLogger("fastmedian").warning(line)


def _device(device):
    """A tuple of CUDA device indices: `device` itself, or the devices of a list or tuple (the
    plane-wise filters spread the planes over them)."""
    if device is None:  # the default: the first GPU (a GPU array's own is chosen before this)
        return (0,)
    devices = tuple(device) if isinstance(device, (list, tuple)) else (device,)
    if not devices:
        raise ValueError("device must be a CUDA device index or a non-empty list of them, got []")
    for d in devices:
        if not _is_int(d):
            raise TypeError(f"device must be an int (a CUDA device index) or a list of them, "
                            f"got {_shown(device)}")
        if not 0 <= d <= MAX_DEVICE:
            raise ValueError(f"device must be in 0..{MAX_DEVICE}, got {d}")
    return tuple(int(d) for d in devices)


def one_device(devices, what):
    """The single device of filters that run on one (`what`, for the message)."""
    if len(devices) > 1:
        raise ValueError(f"device: {what} runs on one CUDA device, got {list(devices)}")
    return devices[0]
