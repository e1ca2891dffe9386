"""The filters on NumPy arrays and on arrays on a CUDA GPU (CuPy, PyTorch: filtered there, in
place), named and shaped as scipy.ndimage's."""
import numpy as np

from . import _native
from ._cuda_arrays import cuda_view, gpu_for, in_place, is_cuda_array, new_like, output_view
from ._dtypes import NATIVE, float32_cval, from_float32, library_keys
from ._dtypes import subtract as subtract_in_dtype  # background's keyword `subtract` is a bool
from ._params import (background_params, channel_and_frame_axes, channel_axis_of,
                      check_background_output, convolve_params, gaussian_params, is_array,
                      rows_in_order,
                      median_params, one_device, temporal_params)


def median_filter(image, size=None, radius=None, mode="nearest", cval=0.0, backend="auto",
                  device=None, output=None, channel_axis=None):
    """Exact median filter of a 2D image, of each plane of a 3D stack (planes, y, x), or of a
    3D volume (z, y, x) with a 3D window.

    image: uint8, uint16 or float32 array, read in place when its rows are contiguous (any
        C-contiguous array, or a view of rows and columns of one), else copied first. bool,
        int8, int16, int32, uint32, int64, uint64, float16 and float64 arrays are filtered
        exactly through those three (bool, int8, int16 with the sign bit flipped, float16 as
        float32, the others through the ranks of their values, at most 2^24 distinct values).
        An array on a CUDA GPU (__cuda_array_interface__: CuPy, PyTorch, Numba; uint8, uint16
        or float32, rows in place) is filtered on that GPU, with no copy, into a new array of
        its own library (empty_like) or into `output` there; the work is enqueued on the
        stream its interface names (CuPy's current stream), else waited for.
    size: the side k of a square window (odd), as k or (k, k) for an image and (1, k, k) for a
        stack (each plane on its own); for a 3D array any other (kz, ky, kx) (odd sides up to
        255) is the 3D box. The same as scipy.ndimage.median_filter(image, size=...). A plain k
        on a 3D array is refused (scipy reads it as k x k x k): give (1, k, k) or (k, k, k).
    radius: instead of size, ImageJ's circular window ("Median..." with this radius), on each
        plane of a 3D array too; for a 3D array (rz, ry, rx) is ImageJ's 3D ellipsoid ("3D
        Median"): the voxels with x^2/rx^2 + y^2/ry^2 + z^2/rz^2 <= 1 (radii up to 127, a
        radius of 0 taking only offset 0 along its axis), the same as scipy's median_filter
        with that footprint.
    mode: how the image is extended past its edges, scipy's names: "nearest" (or "replicate"),
        "reflect", "mirror", "constant" (cval, rounded and clamped to the pixel type), "wrap";
        with a 3D window along z too (ImageJ's own 3D Median shrinks the window at the volume's
        edges instead).
    backend: "auto" (CUDA device `device` if usable, else the CPU), "cpu" or "cuda".
    device: a CUDA device index (default 0), or for 2D windows a list of them to spread the
        planes over. A GPU array is filtered on the GPU holding it (device, if given, must name
        that one).
    output: optional array of the image's shape and dtype to write into (not overlapping the
        image), as scipy's `output`; it is returned.
    channel_axis: None, or the axis holding channels (scikit-image's keyword: -1 for an RGB
        image (y, x, 3)): each channel is filtered on its own, size and radius naming the other
        axes.

    Float order: NaN counts as larger than +Inf; a NaN result is the quiet NaN 0x7FC00000.
    Returns a new C-contiguous array of the image's shape and dtype (or output). The GIL is
    released while the filter runs, so threads can filter different images at once.
    """
    if is_cuda_array(image):
        def run(src, dst, gpu):
            p = median_params(src.dtype, src.shape, size, radius, mode, cval, backend, gpu)
            run_median(in_place(src, "image"), in_place(dst, "output"), p)
        return _on_gpu(run, image, output, device, backend, channel_axis=channel_axis)
    image = np.asarray(image)
    if channel_axis is not None:
        return _each_channel(median_filter, image, channel_axis, output, "output",
                             size=size, radius=radius, mode=mode, cval=cval, backend=backend,
                             device=device)
    keys = library_keys(image, cval, mode == "constant")
    p = median_params(keys.image.dtype, image.shape, size, radius, mode, keys.cval, backend,
                      device)
    target = None if output is None else checked_output(output, image, "output", "image",
                                                        image.dtype)
    result = result_for(target, image.shape, keys.image.dtype)
    run_median(readable_in_place(keys.image), result, p)
    return finished(keys.back(result), target)


def run_median(image, result, p, origin=None):
    """The median (params p) of `image` into `result`, both as the library reads and writes them
    in place; with origin (plane, y, x), result is the box of the output from there (its own
    shape), the border mode applying at image's edges."""
    if image.ndim == 2 and origin is not None:
        origin = (0,) + tuple(origin)
    if isinstance(p.window, _native.Window3D):
        _native.median3d(image, result, p.window, p.border, p.cval, p.backend,
                         one_device(p.device, "the 3D median"), origin)
    else:
        _native.median2d(image, result, p.window, p.border, p.cval, p.backend, p.device, origin)


def temporal_median(stack, window, mode="median", offset=0.0, axis=0, backend="auto",
                    device=None, output=None, channel_axis=None):
    """Temporal median of a movie: for every frame t and pixel, the median of that pixel over a
    window of `window` frames (the background Fiji's FTM2 removes), the same bits on every
    backend and as `fastmedian temporal` on the command line.

    stack: uint8, uint16 or float32 3D array of frames (the other dtypes of median_filter
        exactly through them; mode "subtract" then computed in the stack's dtype by the same
        rules), (frames, y, x) by default; `axis` names
        the frame axis (1 or 2 work too: the axis is moved to the front as a view, and copied
        only when the frames do not then lie one after the other in memory). Read in place when
        its rows are contiguous (any C-contiguous array), else copied first.
    window: N, the number of frames in each window, 1 to the number of frames. Output frame t
        uses frames [s, s + N) with s = t - N // 2 moved inward at the ends (clamped to
        0..frames - N), so every output uses exactly N frames; the median is the value of rank
        (N - 1) // 2 (the lower middle for an even N).
    mode: "median" writes the median itself (the background); "subtract" writes frame - median +
        offset: for uint8/uint16 the offset rounded to the nearest integer (halves away from
        zero) and the result clipped to the type; for float32 (frame - median) + float32(offset).
    offset: added in mode "subtract"; finite, at most 1e9 in magnitude. Mode "median" takes only
        0 (another value raises ValueError, as `fastmedian temporal` refuses --offset there).
    backend: "auto" (CUDA device `device` if usable, else the CPU), "cpu" or "cuda".
    output: optional array of the stack's shape and dtype to write into (not overlapping the
        stack); it is returned.
    channel_axis: None, or the axis of a 4D stack holding channels, each filtered on its own
        (`axis` counts the stack's axes, channels included).

    Float order: NaN counts as larger than +Inf; a NaN result is the quiet NaN 0x7FC00000.
    Returns a new array of the stack's shape and dtype (C-contiguous for axis=0; for another
    axis a view of a C-contiguous (frames, y, x) array). The GIL is released while the filter
    runs.
    """
    if is_cuda_array(stack):
        ndim = cuda_view(stack, "stack").ndim
        channels, frames = ((None, axis) if channel_axis is None else
                            channel_and_frame_axes(channel_axis, axis, ndim))

        def run(src, dst, gpu):
            p = temporal_params(src.dtype, src.shape, window, mode, offset, frames, backend, gpu)
            _native.temporal_median(in_place(src.moveaxis(p.axis, 0), "stack"),
                                    in_place(dst.moveaxis(p.axis, 0), "output"), p.window,
                                    p.mode, p.offset, p.backend, p.device[0])
        return _on_gpu(run, stack, output, device, backend, name="stack", channel_axis=channels)
    stack = np.asarray(stack)
    if channel_axis is not None:
        channels, frames = channel_and_frame_axes(channel_axis, axis, stack.ndim)
        return _each_channel(temporal_median, stack, channels, output, "output", name="stack",
                             window=window, mode=mode, offset=offset, axis=frames,
                             backend=backend, device=device)
    keys = library_keys(stack, name="stack")
    p = temporal_params(keys.image.dtype, stack.shape, window, mode, offset, axis, backend,
                        device)
    if output is not None:
        output = checked_output(output, stack, "output", "stack", stack.dtype)
    # The library subtracts in its own dtypes; the others take the median back and subtract here.
    native = keys.image is stack
    frames_first = np.moveaxis(keys.image, p.axis, 0)  # a view
    target = None if output is None else np.moveaxis(output, p.axis, 0)
    result = result_for(target, frames_first.shape, keys.image.dtype)
    _native.temporal_median(readable_in_place(frames_first), result, p.window,
                            p.mode if native else "median", p.offset if native else 0.0,
                            p.backend, one_device(p.device, "the temporal median"))
    result = keys.back(result)
    if not native and p.mode == "subtract":
        result = subtract_in_dtype(np.moveaxis(stack, p.axis, 0), result, p.offset)
    finished(result, target)
    return np.moveaxis(result, 0, p.axis) if output is None else output


def background(image, size=None, radius=None, method="exact", subtract=True, offset=0.0,
               mode="nearest", cval=0.0, backend="auto", device=None, output=None,
               channel_axis=None):
    """Large-window median background of a 2D image, or of each plane of a 3D stack (planes,
    y, x): uneven illumination or autofluorescence, estimated with a median over a large window
    (64 x 64 and up) and subtracted; the same bits on every backend and as `fastmedian
    background` on the command line.

    image: uint8, uint16 or float32 array; read in place when its rows are contiguous, else
        copied first. The other dtypes of median_filter go exactly through them; subtract=True
        is then computed in the image's dtype by the same rules (integers clipped to their
        range, the offset rounded half away from zero).
    size, radius, mode, cval, backend, device: as median_filter (size k or (k, k) for an image,
        (1, k, k) for a stack; radius: ImageJ's circle).
    method: "exact", the median over the window exactly as median_filter computes it; or
        "separable" (size only), an approximate median: a median of k values along y,
        then a median of k values along x of that result, each with the same mode (the same as
        scipy's median_filter with size (k, 1), then with size (1, k)). On the CPU it is
        faster than "exact" for uint16 and float32 from k 15, not for uint8 or smaller
        windows (docs/cli.md, --method).
    subtract: True writes image - background + offset: for uint8/uint16 the offset rounded to
        the nearest integer (halves away from zero) and the result clipped to the type; for
        float32 (image - background) + float32(offset), computed in float32. False writes the
        background itself (a nonzero offset raises ValueError, as the CLI refuses --offset
        with --output background).
    offset: added with subtract=True; finite, at most 1e9 in magnitude.
    output: optional array of the image's shape and dtype to write into (not overlapping the
        image), as scipy's `output` and median_filter's; it is returned. (A string, the old
        output="subtract"/"background", raises ValueError: that choice is `subtract` now.)
    channel_axis: as median_filter's.

    Float order: NaN counts as larger than +Inf; a NaN result is the quiet NaN 0x7FC00000.
    Returns a new C-contiguous array of the image's shape and dtype (or output). The GIL is
    released while the filter runs.
    """
    check_background_output(output)
    if is_cuda_array(image):
        def run(src, dst, gpu):
            p = background_params(src.dtype, src.shape, size, radius, method, subtract, offset,
                                  mode, cval, backend, gpu)
            m = p.median
            _native.background(in_place(src, "image"), in_place(dst, "output"), m.window,
                               p.method, "subtract" if p.subtract else "background", p.offset,
                               m.border, m.cval, m.backend, m.device)
        return _on_gpu(run, image, output, device, backend, channel_axis=channel_axis)
    image = np.asarray(image)
    if channel_axis is not None:
        return _each_channel(background, image, channel_axis, output, "output",
                             size=size, radius=radius, method=method, subtract=subtract,
                             offset=offset, mode=mode, cval=cval, backend=backend, device=device)
    keys = library_keys(image, cval, mode == "constant")
    p = background_params(keys.image.dtype, image.shape, size, radius, method, subtract, offset,
                          mode, keys.cval, backend, device)
    m = p.median
    target = None if output is None else checked_output(output, image, "output", "image",
                                                        image.dtype)
    # The library subtracts in its own dtypes; the others take the background back and subtract
    # here.
    native = keys.image is image
    result = result_for(target, image.shape, keys.image.dtype)
    _native.background(readable_in_place(keys.image), result, m.window, p.method,
                       "subtract" if native and p.subtract else "background",
                       p.offset if native else 0.0, m.border, m.cval, m.backend, m.device)
    result = keys.back(result)
    if not native and p.subtract:
        result = subtract_in_dtype(image, result, p.offset)
    return finished(result, target)


def convolve(image, weights, mode="reflect", cval=0.0, output=None, normalize=False,
             backend="auto", device=None):
    """2D convolution of an image, or of each plane of a 3D stack (planes, y, x): true
    convolution, the mask flipped, as scipy.ndimage.convolve(image, weights, mode=mode,
    cval=cval); the same bits on every backend and as `fastmedian convolve` on the command line.

    image: uint8, uint16 or float32 array; read in place when its rows are contiguous, else
        copied first. The other dtypes of median_filter run in float32 (the image converted,
        exact for integers up to 2^24 in magnitude) and come back in the output dtype by the
        integer rules below (docs/python.md).
    weights: the mask, an array of real numbers of odd height and width, 1 to 63 each: 2D
        (kh, kw), or for a stack (kh, kw) or (1, kh, kw) (scipy's shape there), applied to each
        plane. Rounded to float32 (the library's precision); finite.
    mode: how the image is extended past its edges, scipy's names; the default is scipy's,
        "reflect" (d c b a | a b c d); also "nearest" (or "replicate", ImageJ's), "mirror",
        "constant" (cval, rounded and clamped to the image's pixel type) and "wrap".
    output: as scipy's `output`: None (a new array of the image's dtype); a dtype, float32
        (np.float32, "float32") or the image's own; or an array of the image's shape and one of
        those dtypes to write into (not overlapping the image), which is returned.
    normalize: divide the weights by their sum (which must not be 0) first.
    backend: "auto" (CUDA device `device` if usable, else the CPU), "cpu" or "cuda".

    Arithmetic: sums in float32, one fused multiply-add per weight in a fixed order (a result
    is within 1e-5 of scipy's float64 result, relative to the sum of |weight x pixel|). uint8/uint16 outputs are clamped to the type's range, then rounded to nearest,
    halves away from zero (scipy truncates, and wraps around). float32 outputs keep NaN and
    infinities, every NaN written as 0x7FC00000; every pixel under the mask is multiplied, so a
    NaN or Inf under a zero weight gives NaN too (scipy skips zero weights).
    Returns a new C-contiguous array of the image's shape (or the output array). The GIL is
    released while the filter runs.
    """
    if is_cuda_array(image):
        src = cuda_view(image, "image")
        p = convolve_params(src.dtype, src.shape, weights, mode, cval, _gpu_output(output),
                            normalize, backend, src.device)
        return _convolve_on_gpu(image, p, output, device, backend)
    image = np.asarray(image)
    p = convolve_params(image.dtype, image.shape, weights, mode, cval, output, normalize,
                        backend, device)
    return _convolve(image, p, output)


def gaussian_filter(image, sigma, mode="reflect", cval=0.0, truncate=4.0, output=None,
                    backend="auto", device=None):
    """Gaussian blur of an image, or of each plane of a 3D stack (planes, y, x), with
    scipy.ndimage.gaussian_filter's mask: radius int(4 sigma + 0.5) (truncate 4.0), weights
    exp(-x^2 / (2 sigma^2)) divided by their sum in float64, rounded to float32; applied along y,
    then along x. The same bits on every backend and as `fastmedian convolve --gaussian SIGMA`.

    sigma: the standard deviation in pixels, 0 to 127: s or (sy, sx) for an image, (0, sy, sx)
        for a stack (a plain s on a stack would blur across the planes in scipy, so it is
        refused). 0 leaves that axis unblurred, as in scipy.
    truncate: 4.0 only (scipy's default; the only mask the library has).
    mode, cval, output, backend, device: as convolve (the default mode is scipy's,
        "reflect"); the same arithmetic, rounding and NaN handling. (ImageJ's Gaussian Blur
        chooses its mask's size by an accuracy rule of its own, so its results differ
        slightly.)
    """
    if is_cuda_array(image):
        src = cuda_view(image, "image")
        p = gaussian_params(src.dtype, src.shape, sigma, mode, cval, truncate,
                            _gpu_output(output), backend, src.device)
        return _convolve_on_gpu(image, p, output, device, backend)
    image = np.asarray(image)
    p = gaussian_params(image.dtype, image.shape, sigma, mode, cval, truncate, output, backend,
                        device)
    return _convolve(image, p, output)


def _convolve(image, p, output):
    # `output` is an array to write into, or a dtype (already in p.output_dtype).
    target = (checked_output(output, image, "output", "image", p.output_dtype)
              if is_array(output) else None)
    if image.dtype in NATIVE:
        result = result_for(target, image.shape, p.output_dtype)
        _native.convolve(readable_in_place(image), result, p.mask, p.row, p.column, p.normalize,
                         p.border, p.cval, p.backend, p.device)
        return finished(result, target)
    # The other dtypes: the library's float32 arithmetic on the image as float32, the result
    # written in the output dtype by its rules for integers (_dtypes).
    as_float = result_for(target, image.shape, np.float32)
    _native.convolve(image.astype(np.float32), as_float, p.mask, p.row, p.column, p.normalize,
                     p.border, float32_cval(p.cval, image.dtype), p.backend, p.device)
    return finished(from_float32(as_float, p.output_dtype), target)


def _gpu_output(output):
    """`output` as the parameter checks take it: a GPU array as its view (its NumPy dtype)."""
    return cuda_view(output, "output") if is_cuda_array(output) else output


def _convolve_on_gpu(image, p, output, device, backend):
    def run(src, dst, gpu):
        _native.convolve(in_place(src, "image"), in_place(dst, "output"), p.mask, p.row,
                         p.column, p.normalize, p.border, p.cval, p.backend, p.device)
    return _on_gpu(run, image, output if is_cuda_array(output) else None, device, backend,
                   dtype=p.output_dtype)


def _on_gpu(run, image, output, device, backend, name="image", dtype=None, channel_axis=None):
    """run(src, dst, gpu) on the CudaViews of GPU array `image` and of `output` (a GPU array
    checked against it) or of a new array made by image's library, on the GPU holding them;
    returns that array. With channel_axis, run() gets each channel in turn."""
    src = cuda_view(image, name)
    gpu = gpu_for(src, device, backend, name)
    dtype = src.dtype if dtype is None else np.dtype(dtype)
    result = new_like(image, dtype) if output is None else output
    dst = output_view(result, src, "output", name, dtype)
    if channel_axis is None:
        run(src, dst, gpu)
    else:
        channels = channel_axis_of(channel_axis, src.ndim, name)
        for c in range(src.shape[channels]):
            run(src.take(channels, c), dst.take(channels, c), gpu)
    return result


def _each_channel(filter_one, array, channel_axis, into, into_name, name="image", **kwargs):
    """filter_one(channel, **kwargs) over each channel of `array` (along channel_axis), into a
    new C-contiguous array of its shape and dtype, or into `into` (the caller's output array,
    named into_name)."""
    channels = channel_axis_of(channel_axis, array.ndim, name)
    if into is not None:
        into = checked_output(into, array, into_name, name, array.dtype)
    result = np.empty(array.shape, array.dtype) if into is None else into
    source, target = np.moveaxis(array, channels, 0), np.moveaxis(result, channels, 0)
    for c in range(source.shape[0]):
        target[c] = filter_one(source[c], **kwargs)
    return result


def result_for(target, shape, dtype):
    """The array of `dtype` the library writes for `target` (the caller's output, or None):
    target itself where it has that dtype and the library can write it as it lies, else a new
    C-contiguous array, which finished() copies into target."""
    if target is not None and target.dtype == dtype and writable_in_place(target):
        return target
    return np.empty(shape, dtype)


def finished(result, target):
    """`target` holding the result (copied there unless the library wrote it in place), or the
    result itself where there is no target."""
    if target is None:
        return result
    if result is not target:
        target[...] = result
    return target


def checked_output(output, image, name, what, dtype):
    """`output` if it can take the filter of `image` with the output dtype `dtype`, else
    TypeError/ValueError naming `name`. (fastmedian.dask checks a dask image's overlap itself.)"""
    if not isinstance(output, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array, got {type(output).__name__}")
    if output.dtype != dtype:
        whose = f"the {what}'s" if dtype == image.dtype else "the output's"
        raise TypeError(f"{name} must have {whose} dtype {dtype}, got {output.dtype}")
    if output.shape != image.shape:
        raise ValueError(f"{name} must have the {what}'s shape {image.shape}, got "
                         f"{output.shape}")
    if not output.flags.writeable:
        raise ValueError(f"{name} must be writable")
    if isinstance(image, np.ndarray) and np.may_share_memory(output, image):
        raise ValueError(f"{name} must not overlap the {what} (the filter does not run in "
                         f"place)")
    return output


def writable_in_place(output):
    """Whether the library can write `output` as it lies (see readable_in_place)."""
    return output.flags.writeable and _lies_in_place(output)


def readable_in_place(image):
    """`image` itself when the library can read it as it lies (contiguous rows, rows and planes
    in increasing, non-overlapping order, aligned pixels), else a C-contiguous copy."""
    # np.array copies always (ascontiguousarray would keep an unaligned contiguous array, as
    # dask.distributed can deliver one).
    return image if _lies_in_place(image) else np.array(image, order="C")


def _lies_in_place(image):
    return rows_in_order(image.shape, image.strides, image.itemsize) and image.flags.aligned
