"""How arrays reach the library: C-contiguous arrays and row/column views are read in place,
other layouts through a copy, every layout with the same result; the GIL is released."""
import threading
import time

import numpy as np
import pytest

import fastmedian
from fastmedian.filters import readable_in_place
from conftest import assert_same_bits

BASE = np.random.default_rng(5).integers(0, 50, size=(4, 60, 70), dtype=np.uint16)


def unaligned(a):
    """A C-contiguous copy of `a` at an odd address (dask.distributed can deliver such)."""
    out = np.empty(a.nbytes + 1, np.uint8)[1:].view(a.dtype).reshape(a.shape)
    out[...] = a
    assert out.flags.c_contiguous and not out.flags.aligned
    return out


@pytest.mark.parametrize("name,view", [
    ("C-contiguous stack", lambda a: a),
    ("one plane", lambda a: a[2]),
    ("sub-rectangle of a stack", lambda a: a[1:3, 5:50, 7:61]),
    ("every other row", lambda a: a[0, ::2]),
    ("every other plane", lambda a: a[::2]),
])
def test_views_read_in_place(name, view):
    v = view(BASE)
    assert readable_in_place(v) is v
    want = fastmedian.median_filter(np.ascontiguousarray(v), size=(1, 5, 5)[-v.ndim:])
    assert_same_bits(fastmedian.median_filter(v, size=(1, 5, 5)[-v.ndim:]), want)


@pytest.mark.parametrize("name,view", [
    ("every other column", lambda a: a[0, :, ::2]),
    ("Fortran order", lambda a: np.asfortranarray(a[0])),
    ("transposed planes", lambda a: a.transpose(1, 0, 2)),
    ("rows reversed", lambda a: a[0, ::-1]),
    ("broadcast rows", lambda a: np.broadcast_to(a[0, 0], (9, 70))),
    ("C-contiguous but unaligned", lambda a: unaligned(a[0])),
])
def test_other_layouts_are_copied(name, view):
    v = view(BASE)
    assert readable_in_place(v) is not v
    size = (1, 3, 3)[-v.ndim:]
    assert_same_bits(fastmedian.median_filter(v, size=size),
                     fastmedian.median_filter(np.ascontiguousarray(v), size=size))


def test_input_is_not_written_and_may_be_read_only():
    image = BASE[0].copy()
    image.flags.writeable = False
    out = fastmedian.median_filter(image, size=5)
    assert_same_bits(image, BASE[0])
    assert out.flags.c_contiguous and out.dtype == image.dtype and out.shape == image.shape


def long_native_call():
    """A median_filter call that runs for at least 0.2 s on this machine's CPU backend."""
    side = 256
    while True:
        image = np.random.default_rng(0).random((side, side), dtype=np.float32)
        start = time.perf_counter()
        fastmedian.median_filter(image, size=15, backend="cpu")
        if time.perf_counter() - start > 0.2:
            return lambda: fastmedian.median_filter(image, size=15, backend="cpu")
        side *= 2


def test_gil_is_released_while_filtering():
    """Python code in this thread keeps running in the middle of a long native call, which
    cannot happen while the call holds the GIL."""
    run = long_native_call()
    span = {}

    def filter_image():
        span["start"] = time.perf_counter()
        run()
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=filter_image)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    duration = span["end"] - span["start"]
    middle = (span["start"] + 0.4 * duration, span["start"] + 0.6 * duration)
    assert any(middle[0] < t < middle[1] for t in ticks)
