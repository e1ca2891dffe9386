"""Arrays on a CUDA GPU, taken through __cuda_array_interface__ (CuPy, PyTorch, Numba): views of
them (axes moved, a channel taken) without copies, their checks, and new arrays made by the
array's own library, so that the filters run on the GPU in place and return the same kind of
array. The native module reads the views' own __cuda_array_interface__."""
import importlib
from dataclasses import dataclass, replace

import numpy as np

from ._params import rows_in_order

LIBRARY_DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))
CUDA_DLPACK_DEVICE = 2  # DLPack's kDLCUDA


def is_cuda_array(a):
    """Whether `a` is an array on a CUDA GPU (a PyTorch tensor on the CPU has no interface)."""
    return not isinstance(a, np.ndarray) and hasattr(a, "__cuda_array_interface__")


@dataclass(frozen=True)
class CudaView:
    """A strided view of a GPU array: its pointer, shape, byte strides and dtype, and the GPU
    and stream its interface names (the library enqueues the filter on that stream)."""
    pointer: int
    shape: tuple
    strides: tuple
    dtype: np.dtype
    readonly: bool
    stream: object  # the interface's stream: None, or an int
    device: int

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "strides": self.strides,
                "data": (self.pointer, self.readonly), "version": 3, "stream": self.stream}

    def moveaxis(self, source, destination):
        order = [a for a in range(self.ndim) if a != source]
        order.insert(destination, source)
        return replace(self, shape=tuple(self.shape[a] for a in order),
                       strides=tuple(self.strides[a] for a in order))

    def take(self, axis, index):
        """The view of index `index` along `axis`, that axis dropped."""
        return replace(self, pointer=self.pointer + index * self.strides[axis],
                       shape=self.shape[:axis] + self.shape[axis + 1:],
                       strides=self.strides[:axis] + self.strides[axis + 1:])

    def byte_span(self):
        """[first, end) of the bytes the view covers."""
        low = sum(s * (n - 1) for s, n in zip(self.strides, self.shape) if s < 0)
        high = sum(s * (n - 1) for s, n in zip(self.strides, self.shape) if s > 0)
        return self.pointer + low, self.pointer + high + self.dtype.itemsize


def cuda_view(a, name):
    """The CudaView of GPU array `a`; TypeError naming `name` for a dtype the library lacks."""
    cai = a.__cuda_array_interface__
    dtype = np.dtype(cai["typestr"])
    if dtype not in LIBRARY_DTYPES:
        raise TypeError(f"{name} must be uint8, uint16 or float32 on a GPU, got {dtype} (the "
                        "other dtypes are taken from NumPy arrays only)")
    if cai.get("mask") is not None:
        raise ValueError(f"{name} must not be a masked array")
    shape = tuple(int(n) for n in cai["shape"])
    strides = cai.get("strides")
    if strides is None:  # C-contiguous (plain ints: np.prod would cost more than the filter)
        strides, step = [], dtype.itemsize
        for n in reversed(shape):
            strides.insert(0, step)
            step *= n
    pointer, readonly = cai["data"]
    return CudaView(int(pointer), shape, tuple(int(s) for s in strides), dtype, bool(readonly),
                    cai.get("stream"), _gpu_of(a, name))


def _gpu_of(a, name):
    """The index of the GPU holding `a`: DLPack's device (CuPy, PyTorch), else `a.device`'s id
    (Numba)."""
    if hasattr(a, "__dlpack_device__"):
        kind, index = a.__dlpack_device__()
        if int(kind) == CUDA_DLPACK_DEVICE:
            return int(index)
    device = getattr(a, "device", None)
    for attribute in ("id", "index"):
        if isinstance(getattr(device, attribute, None), int):
            return getattr(device, attribute)
    raise TypeError(f"{name}: cannot tell which GPU holds this {type(a).__name__} (it offers "
                    "neither __dlpack_device__ nor device.id)")


def gpu_for(view, device, backend, name):
    """The GPU a filter of `view` runs on: the one holding it. ValueError where `device` names
    another or `backend` is "cpu". (Where no GPU is usable, the library raises
    BackendUnavailableError saying why.)"""
    if backend == "cpu":
        raise ValueError(f"backend 'cpu' cannot filter {name} on GPU {view.device}: use 'auto' "
                         "or 'cuda', or give a NumPy array")
    if device is not None and device != view.device:
        raise ValueError(f"device must be the GPU {name} is on ({view.device}), got {device}")
    return view.device


def new_like(a, dtype):
    """A new array of `a`'s shape and `dtype` made by `a`'s own library (cupy.empty_like,
    torch.empty_like: the same kind of array, on the same GPU)."""
    library = importlib.import_module(type(a).__module__.partition(".")[0])
    if not hasattr(library, "empty_like"):
        raise TypeError(f"{type(a).__module__} has no empty_like to make the output: pass "
                        "output=")
    return library.empty_like(a, dtype=getattr(library, np.dtype(dtype).name))


def output_view(output, source, name, what, dtype):
    """The CudaView of the caller's `output` for a filter of `source` (a CudaView) with output
    dtype `dtype`; TypeError/ValueError naming `name`."""
    if not is_cuda_array(output):
        raise TypeError(f"{name} must be an array on the GPU, as the {what} is, got "
                        f"{type(output).__name__}")
    view = cuda_view(output, name)
    if view.dtype != dtype:
        raise TypeError(f"{name} must have dtype {dtype}, got {view.dtype}")
    if view.shape != source.shape:
        raise ValueError(f"{name} must have the {what}'s shape {source.shape}, got {view.shape}")
    if view.device != source.device:
        raise ValueError(f"{name} must be on the {what}'s GPU {source.device}, got GPU "
                         f"{view.device}")
    if view.readonly:
        raise ValueError(f"{name} must be writable")
    (a0, a1), (b0, b1) = view.byte_span(), source.byte_span()
    if a0 < b1 and b0 < a1:
        raise ValueError(f"{name} must not overlap the {what} (the filter does not run in place)")
    return view


def in_place(view, name):
    """`view` where the library can read or write it as it lies (contiguous rows, rows and
    planes in increasing, non-overlapping order), else ValueError naming `name`: GPU arrays are
    not copied."""
    item = view.dtype.itemsize
    if not (rows_in_order(view.shape, view.strides, item) and view.pointer % item == 0):
        raise ValueError(f"{name} must have contiguous rows, rows and planes in increasing order, "
                         f"for the filter to read it in place on the GPU (strides "
                         f"{view.strides}); make a "
                         "contiguous copy first (cupy.ascontiguousarray, tensor.contiguous())")
    return view
