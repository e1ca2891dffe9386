"""fastmedian's filters on dask arrays, chunk by chunk, so volumes larger than memory can be
filtered, on a dask.distributed cluster too. The result equals the NumPy call on the whole array,
bit for bit, for every chunking and every border mode.

How: each chunk's task gets its chunk and the thin slices of its neighbours that the window
reaches into (its halo), as dask.array.map_overlap would, and filters the chunk from the part of
the array they make up. Chunks at the array's edge get no halo there (map_overlap's boundary
"none"): the library itself sees the array's true edge and extends it by the mode, exactly as on
the whole array (scipy's "mirror" included, which no dask boundary gives). Only "wrap" reads the
far side of the array, so there the halo comes from the chunk at the other end. An axis the
window reaches across is put in one chunk, so the library sees all of it. A 3D window (the 3D
median) is the same case along z: the halo is its reach along every axis, and every mode folds
each axis on its own. The convolutions (convolve, gaussian_filter) are the same case with the
mask's radius as the halo: each output pixel reads the same input pixels in the same order
whichever block computes it.

No copies where the data allow it: where the chunk and its halo slices are views of one NumPy
array lying next to each other in it as in the array (a dask array made by
dask.array.from_array of a NumPy array, on the threaded or synchronous scheduler), the part is
a view of that array, not a copy (_join). The median filters only the chunk's box of that part
(the library's output box), straight into its result; the other filters filter the whole part
and keep the chunk's box of it. With `output` (a NumPy array of the result's shape), the call
computes at once and each task writes its chunk's result straight into `output`, instead of
compute() copying the chunks' results into a new array: together, a volume in memory is
filtered with no more memory traffic than the direct call's (bench/python/).

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
import itertools
import operator
import os
import threading

import dask
import dask.array as da
import dask.local
import dask.threaded
import numpy as np
from dask.array.overlap import ensure_minimum_chunksize
from dask.base import get_scheduler, tokenize
from dask.delayed import Delayed
from dask.highlevelgraph import HighLevelGraph

from . import filters
from ._dtypes import library_dtype, library_keys
from ._params import (background_params, check_background_output, convolve_params,
                      gaussian_params, is_array, median_params, temporal_params)

def median_filter(image, size=None, radius=None, mode="nearest", cval=0.0, backend="auto",
                  device=0, output=None):
    """fastmedian.median_filter on a dask array (2D, a 3D stack of planes, or a volume with a 3D
    window: size (kz, ky, kx) or radius (rz, ry, rx)); lazy: returns a dask array of the same
    shape, dtype and chunks, equal bit for bit to the NumPy call on the whole array for every
    chunking and mode. Bad arguments raise now, not on compute. With `output` (a NumPy array of
    the result's shape and dtype, not overlapping the image's arrays) the call computes now, on
    dask's threaded or synchronous scheduler, each task writing its chunk's result straight into
    `output`, and returns it."""
    image = da.asarray(image)
    dtype = library_dtype(image.dtype, cval, mode == "constant")
    p = median_params(dtype, image.shape, size, radius, mode, cval, backend, device)
    args = dict(size=size, radius=radius, mode=mode, cval=cval, backend=backend, device=device)
    return _blocks_with_halo(functools.partial(_median_box, args), image, p.halo,
                             p.border == "wrap", image.dtype, output, "output",
                             ("median", args))


def background(image, size=None, radius=None, method="exact", subtract=True, offset=0.0,
               mode="nearest", cval=0.0, backend="auto", device=0, output=None):
    """fastmedian.background on a dask array (2D, or a 3D stack of planes); lazy: returns a dask
    array of the same shape, dtype and chunks, equal bit for bit to the NumPy call on the whole
    array for every chunking and mode. The halo is the window's reach along y and x (both
    methods read the same rows and columns), none along the planes. Bad arguments raise now, not
    on compute. With `output` (a NumPy array of the result's shape and dtype, not overlapping
    the image's arrays) the call computes now, on dask's threaded or synchronous scheduler, each
    task writing its chunk's result straight into `output`, and returns it."""
    check_background_output(output)
    image = da.asarray(image)
    dtype = library_dtype(image.dtype, cval, mode == "constant")
    p = background_params(dtype, image.shape, size, radius, method, subtract, offset, mode,
                          cval, backend, device)
    block_filter = functools.partial(filters.background, size=size, radius=radius,
                                     method=p.method, subtract=p.subtract, offset=p.offset,
                                     mode=mode, cval=cval, backend=backend, device=device)
    return _blocks_with_halo(functools.partial(_whole_box, block_filter), image, p.median.halo,
                             p.median.border == "wrap", image.dtype, output, "output",
                             ("background", size, radius, p.method, p.subtract, p.offset, mode,
                              cval, backend, device))


def convolve(image, weights, mode="reflect", cval=0.0, output=None, normalize=False,
             backend="auto", device=0):
    """fastmedian.convolve on a dask array (2D, or a 3D stack of planes); lazy: returns a dask
    array of the same shape and chunks (and the output dtype), equal bit for bit to the NumPy
    call on the whole array for every chunking and mode. The halo is the mask's radius along y
    and x, none along the planes. Bad arguments raise now, not on compute. `output` as
    fastmedian.convolve's: None or a dtype (float32 or the image's) gives the lazy result of
    that dtype; a NumPy array of the result's shape and of one of those dtypes, not overlapping
    the image's arrays, makes the call compute now, on dask's threaded or synchronous
    scheduler, each task writing its chunk's result straight into it, and return it."""
    image = da.asarray(image)
    p = convolve_params(image.dtype, image.shape, weights, mode, cval, output, normalize,
                        backend, device)
    # The checked float32 mask goes to every block (the weights as given could be a lazy array).
    block_filter = functools.partial(filters.convolve, weights=p.mask, mode=mode, cval=cval,
                                     output=p.output_dtype, normalize=p.normalize,
                                     backend=backend, device=device)
    return _blocks_with_halo(functools.partial(_whole_box, block_filter), image, p.halo,
                             p.border == "wrap", p.output_dtype, _array_or_none(output),
                             "output", ("convolve", p.mask, mode, cval, p.output_dtype,
                                        p.normalize, backend, device))


def gaussian_filter(image, sigma, mode="reflect", cval=0.0, truncate=4.0, output=None,
                    backend="auto", device=0):
    """fastmedian.gaussian_filter on a dask array (2D, or a 3D stack of planes with sigma (0,
    sy, sx)); lazy, equal bit for bit to the NumPy call on the whole array for every chunking
    and mode. The halo is the mask's radius, int(4 sigma + 0.5), along y and x. Bad arguments
    raise now, not on compute. `output` as convolve's: a dtype for the lazy result, or a NumPy
    array to compute into now (returned)."""
    image = da.asarray(image)
    p = gaussian_params(image.dtype, image.shape, sigma, mode, cval, truncate, output, backend,
                        device)
    block_filter = functools.partial(filters.gaussian_filter, sigma=sigma, mode=mode, cval=cval,
                                     truncate=truncate, output=p.output_dtype,
                                     backend=backend, device=device)
    return _blocks_with_halo(functools.partial(_whole_box, block_filter), image, p.halo,
                             p.border == "wrap", p.output_dtype, _array_or_none(output),
                             "output", ("gaussian", sigma, mode, cval, p.output_dtype, backend,
                                        device))


def _array_or_none(output):
    """The array to compute into from the convolutions' `output`, which may be a dtype instead
    (then the result stays lazy)."""
    return output if is_array(output) else None


def temporal_median(stack, window, mode="median", offset=0.0, axis=0, backend="auto", device=0):
    """fastmedian.temporal_median on a 3D dask array (frames along `axis`); lazy: returns a dask
    array of the same shape, dtype and chunks, equal bit for bit to the NumPy call on the whole
    array for every chunking. Bad arguments raise now, not on compute."""
    stack = da.asarray(stack)
    p = temporal_params(library_dtype(stack.dtype, name="stack"), stack.shape, window, mode,
                        offset, axis, backend, device)
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


def _blocks_with_halo(box_filter, image, halo, periodic, dtype, output, output_name, token):
    """A task per chunk (after putting each axis the window reaches across in one chunk, and
    making chunks at least as long as the halo, as map_overlap does) that calls
    box_filter(part, origin, shape, out): part, the chunk with its halo (_join), the chunk's box
    of `shape` at `origin` in it; out, None (returning the chunk's result) or the chunk's box of
    `output`.
    Lazy (a dask array of the image's chunks) without `output`; with it, computed now."""
    if output is not None:
        output = _checked_output(output, image, dtype, output_name)
    chunks, depth = list(image.chunks), []
    for axis, reach in enumerate(halo):
        if reach >= image.shape[axis]:
            chunks[axis] = (image.shape[axis],)
        elif reach > 0 and len(chunks[axis]) > 1:
            chunks[axis] = ensure_minimum_chunksize(reach, chunks[axis])
        depth.append(reach if len(chunks[axis]) > 1 else 0)
    blocks = image.rechunk(tuple(chunks))
    name = "fastmedian-" + tokenize(blocks, token, None if output is None else id(output))
    starts = [tuple(itertools.accumulate(c, initial=0)) for c in blocks.chunks]
    graph = {}
    for index in itertools.product(*map(range, blocks.numblocks)):
        steps = [_steps(i, n, d, periodic) for i, n, d in zip(index, blocks.numblocks, depth)]
        pieces = _pieces(blocks.name, name + "-halo", index, steps, blocks.numblocks, depth,
                         graph)
        origin = tuple(d if s[0] < 0 else 0 for s, d in zip(steps, depth))
        box = tuple(slice(st[i], st[i + 1]) for st, i in zip(starts, index))
        shape = tuple(b.stop - b.start for b in box)
        graph[(name,) + index] = (_filter_block, box_filter, pieces, origin, shape,
                                  None if output is None else (output, box))
    if output is None:
        layers = HighLevelGraph.from_collections(name, graph, dependencies=[blocks])
        result = da.Array(layers, name, blocks.chunks, dtype=dtype,
                          meta=np.empty((0,) * image.ndim, dtype))
        return result.rechunk(image.chunks)
    graph[name] = (_stored, [k for k in graph if k[0] == name])
    Delayed(name, HighLevelGraph.from_collections(name, graph, dependencies=[blocks])).compute()
    return output


def _steps(index, count, depth, periodic):
    """The neighbours along one axis whose slices a chunk's halo takes: -1 (the one before), 0
    (the chunk itself), 1 (the one after); past the array's ends only where the border wraps."""
    if depth == 0:
        return (0,)
    return tuple(s for s in (-1, 0, 1) if periodic or 0 <= index + s < count)


def _pieces(name, halo_name, index, steps, numblocks, depth, graph):
    """The keys of the halo's pieces as nested lists, one level an axis (as np.block takes them):
    the chunk itself, and the last (first) `depth` elements of the chunk before (after) along
    each axis, each such slice a task of its own in `graph` (so that on a cluster only the
    slice, not its whole chunk, travels to the chunk's worker)."""
    def nest(axis, at, cut, offsets):
        if axis == len(index):
            key = (name,) + tuple(at)
            if all(c == slice(None) for c in cut):
                return key
            piece = (halo_name,) + tuple(index) + tuple(offsets)
            graph[piece] = (operator.getitem, key, tuple(cut))
            return piece
        return [nest(axis + 1, at + [(index[axis] + s) % numblocks[axis]],
                     cut + [slice(-depth[axis], None) if s < 0 else
                            slice(None, depth[axis]) if s > 0 else slice(None)], offsets + [s])
                for s in steps[axis]]
    return nest(0, [], [], [])


def _filter_block(box_filter, pieces, origin, shape, into):
    """A chunk's task: its result, or None once written into its box of the output (`into`)."""
    _set_worker_threads()
    out = None if into is None else into[0][into[1]]
    result = box_filter(_join(pieces), origin, shape, out)
    return result if into is None else None


def _stored(results):
    return None


def _median_box(args, part, origin, shape, out):
    """The median (median_filter's arguments `args`, checked again here: the native window does
    not travel to a cluster's workers) of the chunk's box of `shape` at `origin` in `part`:
    filtered from part as it lies (the library's output box), straight into `out` where the
    library can write it as it lies (filters.result_for)."""
    keys = library_keys(part, args["cval"], args["mode"] == "constant")
    p = median_params(keys.image.dtype, part.shape, **dict(args, cval=keys.cval))
    result = filters.result_for(out, shape, keys.image.dtype)
    filters.run_median(filters.readable_in_place(keys.image), result, p, origin)
    return filters.finished(keys.back(result), out)


def _whole_box(block_filter, part, origin, shape, out):
    """block_filter of all of `part`, and its box of `shape` at `origin` (into `out` if given)."""
    result = block_filter(part)[tuple(slice(o, o + n) for o, n in zip(origin, shape))]
    return filters.finished(result, out)


def _join(pieces):
    """The nested pieces (_pieces) as one array: a view of the NumPy array they are all views of
    where they lie next to each other in it as in the grid (a chunk of a dask array made by
    from_array with the slices of its neighbours, on a scheduler in this process), else a copy."""
    grid = np.empty(_grid_shape(pieces), dtype=object)
    for at in np.ndindex(grid.shape):
        piece = pieces
        for i in at:
            piece = piece[i]
        grid[at] = piece
    if grid.size == 1:
        return grid.flat[0]
    view = _view_of_one_array(grid)
    return np.block(pieces) if view is None else view


def _grid_shape(pieces):
    shape = []
    while isinstance(pieces, list):
        shape.append(len(pieces))
        pieces = pieces[0]
    return tuple(shape)


def _view_of_one_array(grid):
    """The view that the grid of arrays tiles, where each is a view of the same array with the
    same strides and lies where the grid puts it; else None."""
    first = grid.flat[0]
    if not all(isinstance(a, np.ndarray) for a in grid.flat):
        return None
    root = _root(first)
    if any(_root(a) is not root or a.dtype != first.dtype or a.strides != first.strides
           or not a.flags.aligned for a in grid.flat):
        return None
    # The length of each row of the grid along its axis, and where each piece must start.
    lengths = [[grid[(0,) * axis + (i,) + (0,) * (grid.ndim - axis - 1)].shape[axis]
                for i in range(grid.shape[axis])] for axis in range(grid.ndim)]
    starts = [tuple(itertools.accumulate(n, initial=0)) for n in lengths]
    base = first.__array_interface__["data"][0]
    for at in np.ndindex(grid.shape):
        a = grid[at]
        if a.shape != tuple(lengths[axis][i] for axis, i in enumerate(at)):
            return None
        offset = sum(starts[axis][i] * first.strides[axis] for axis, i in enumerate(at))
        if a.__array_interface__["data"][0] != base + offset:
            return None
    shape = tuple(s[-1] for s in starts)
    return np.lib.stride_tricks.as_strided(first, shape=shape, strides=first.strides,
                                           writeable=False)


def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _checked_output(output, image, dtype, name):
    """`output` if the tasks can write the result of `image` into it: a NumPy array of the
    result's shape and dtype that no array of image's graph overlaps, with a scheduler in this
    process (a cluster's workers would write into copies of it); else TypeError/ValueError
    naming `name`."""
    output = filters.checked_output(output, image, name, "image", dtype)
    scheduler = get_scheduler(collections=[image])
    if scheduler not in (dask.threaded.get, dask.local.get_sync):
        raise ValueError(f"{name} is written in place by the tasks, which needs dask's threaded "
                         f"or synchronous scheduler in this process, not {scheduler!r}; on a "
                         f"cluster, store the lazy result instead (to_zarr, fastmedian.zarr)")
    if any(np.may_share_memory(output, a) for a in _graph_arrays(image.__dask_graph__())):
        raise ValueError(f"{name} must not overlap the image (the filter does not run in place)")
    return output


def _graph_arrays(graph):
    """The NumPy arrays in a dask graph's values and tasks."""
    todo = list(graph.values())
    while todo:
        v = todo.pop()
        if isinstance(v, np.ndarray):
            yield v
        elif isinstance(v, (tuple, list)):
            todo.extend(v)


_THREADS = "FASTMEDIAN_CPU_THREADS"
_environ_lock = threading.Lock()


def _on_worker(block_filter):
    return functools.partial(_run_block, block_filter)


def _run_block(block_filter, block):
    _set_worker_threads()
    return block_filter(block)


def _set_worker_threads():
    """In a nanny's worker process, one CPU thread per call (see above)."""
    if _THREADS not in os.environ and _in_worker_process():
        # Under the lock and before the first call that reads it: setenv must not race getenv.
        with _environ_lock:
            os.environ.setdefault(_THREADS, "1")


def _in_worker_process():
    try:
        from distributed import get_worker
        return bool(get_worker().nanny)
    except (ImportError, ValueError):
        return False
