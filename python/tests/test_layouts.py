"""How arrays reach the library: C-contiguous arrays and row/column views are read in place,
other layouts through a copy, every layout with the same result; the GIL is released."""
import time

import numpy as np
import pytest

import fastmedian
from fastmedian.filters import readable_in_place
from conftest import assert_same_bits, runs_beside_native_code

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


def test_the_gil_check_tells_a_held_gil_from_a_released_one():
    """runs_beside_native_code on stand-ins: Python code holds the GIL (the switch interval is
    out of reach), a sleep releases it; each stands at a line naming `_native.`."""
    def holds():
        return sum(range(20_000_000))  # stands for _native. code holding the GIL

    def releases():
        return time.sleep(0.3)  # stands for _native. code releasing the GIL

    assert not runs_beside_native_code(holds)
    assert runs_beside_native_code(releases)


def test_gil_is_released_while_filtering():
    """Python code in this thread runs while the native median runs in another."""
    image = np.random.default_rng(0).random((1024, 1024), dtype=np.float32)
    output = np.empty_like(image)
    assert runs_beside_native_code(
        lambda: fastmedian.median_filter(image, size=15, backend="cpu", output=output))
