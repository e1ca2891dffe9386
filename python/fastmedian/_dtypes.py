"""Arrays of the other dtypes scipy users pass, filtered exactly through the library's three
(uint8, uint16, float32). A median picks one of its window's values, so it commutes with any
map that keeps the order of values; each dtype takes one:
- bool, int8, int16: the sign bit flipped (an offset of half the range) gives uint8/uint16;
- float16: float32 holds every float16 value exactly;
- int32, uint32, int64, uint64, float64: the ranks of the array's distinct values (floats in
  the library's order: -0 below +0, NaN above +Inf, every NaN one value), as uint16 up to 65536
  distinct values, else as float32, whose whole numbers are exact up to 2^24 distinct values;
  an array with more is refused.
fastmedian.dask maps each chunk (with its halo) on its own, which gives the same result: the
maps keep the order within any set of values.
The subtracting outputs (image - median + offset) are then computed here in the array's own
dtype, with the library's rules: integers take the offset rounded half away from zero and are
clipped to the dtype's range; floats compute (image - median) + offset in the dtype, any NaN
written as the quiet NaN.
The convolutions are no order statistic: they run in the library's float32 arithmetic on the
image converted to float32 (exact for integers up to 2^24 in magnitude and for float16), and
the float32 result is written in the output dtype by the library's rules for integer outputs
(clamped to the range, NaN to its low end, then rounded half away from zero)."""
import math
import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

NATIVE = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))
# The sign bit flipped: the signed type's order as the unsigned type's.
FLIPPED = {np.dtype(np.int8): (np.uint8, 0x80), np.dtype(np.int16): (np.uint16, 0x8000)}
MAX_RANKS_U16 = 2**16
MAX_RANKS_F32 = 2**24  # float32's whole numbers are exact up to here
_SIGN64 = np.uint64(1 << 63)
_NAN_KEY = np.uint64(2**64 - 1)  # every NaN, above +Inf


@dataclass(frozen=True)
class LibraryKeys:
    image: np.ndarray                              # what the library filters
    cval: object                                   # cval in the library's terms
    back: Callable[[np.ndarray], np.ndarray]       # the library's result -> the dtype's values


def library_dtype(dtype, cval=0.0, constant=False, name="image"):
    """The dtype the library filters an array of `dtype` as (for checking the other arguments
    before any pixel is read: float32 stands for the ranks, uint16 or float32); TypeError or
    ValueError where the array or its cval cannot go through."""
    dt = np.dtype(dtype)
    if dt in NATIVE:
        return dt
    if not dt.isnative:
        raise TypeError(f"{name} must be in this machine's byte order, got {dt} (convert it with "
                        f"{name}.astype({name}.dtype.newbyteorder('=')))")
    if dt.kind not in "biuf" or (dt.kind == "f" and dt.itemsize > 8):
        raise TypeError(f"{name} must be a bool, integer or float array of up to 64 bits "
                        f"(uint8, uint16 and float32 run natively, the others exactly through "
                        f"them), got {dt}")
    if _is_constant(cval, constant) and dt.kind in "biu" and not math.isfinite(cval):
        raise ValueError(f"cval must be finite for integer images, got {cval}")
    if dt == np.dtype(bool):
        return np.dtype(np.uint8)
    if dt in FLIPPED:
        return np.dtype(FLIPPED[dt][0])
    return np.dtype(np.float32)


def library_keys(image, cval=0.0, constant=False, name="image"):
    """`image` (and with `constant` the border's cval) as the library takes it: itself for the
    library's own dtypes, else mapped onto one of them keeping the order of values; and the map
    back."""
    dt = image.dtype
    if library_dtype(dt, cval, constant, name) == dt:
        return LibraryKeys(image, cval, lambda r: r)
    constant = _is_constant(cval, constant)
    if dt == np.dtype(bool):
        c = float(cval != 0) if constant else cval
        return LibraryKeys(image.view(np.uint8), c, lambda r: r.view(bool))
    if dt in FLIPPED:
        unsigned, sign = FLIPPED[dt]
        c = cval
        if constant and math.isfinite(cval):
            c = float(_integer_cval(cval, dt) + sign)
        return LibraryKeys(image.view(unsigned) ^ unsigned(sign), c,
                           lambda r: (r ^ unsigned(sign)).view(dt))
    if dt == np.dtype(np.float16):
        c = float(np.float16(cval)) if constant else cval
        return LibraryKeys(image.astype(np.float32), c, lambda r: r.astype(np.float16))
    return _ranks(image, cval, constant, name)


def subtract(image, median, offset):
    """image - median + offset in image's dtype, by the library's rules (module docstring)."""
    dt = image.dtype
    if dt.kind == "f":
        result = (image - median) + dt.type(offset)
        result[np.isnan(result)] = np.nan
        return result
    lo, hi = (0, 1) if dt == np.dtype(bool) else (np.iinfo(dt).min, np.iinfo(dt).max)
    step = _round_half_away(offset)
    # int64 holds every difference of the narrower integers; 64-bit ones take Python's.
    wide = object if dt.itemsize == 8 else np.int64
    result = image.astype(wide) - median.astype(wide) + step
    return np.clip(result, lo, hi).astype(dt)


def float32_cval(cval, dt):
    """cval for the float32 image a convolution of dtype `dt` runs on: for integer dtypes the
    library's rule for integer images (rounded half away from zero, clamped to the range)."""
    if dt == np.dtype(bool):
        return float(min(max(_round_half_away(cval), 0), 1))
    return float(_dtype_cval(cval, dt))


def from_float32(values, dt):
    """A float32 result in dtype `dt` by the library's rules for integer outputs: clamped to
    the range (NaN to its low end, as the kernels' fmaxf does), then rounded half away from
    zero; float dtypes converted (float32 itself returned as it is)."""
    if dt.kind == "f":
        return values.astype(dt, copy=False)
    lo, hi = (0, 1) if dt == np.dtype(bool) else (np.iinfo(dt).min, np.iinfo(dt).max)
    top = float(hi)
    if top > hi:  # 2^63 and 2^64 round up in float64: take the float below
        top = np.nextafter(top, 0.0)
    clamped = np.fmin(np.fmax(values.astype(np.float64), float(lo)), top)
    return np.copysign(np.floor(np.abs(clamped) + 0.5), clamped).astype(dt)


def _ranks(image, cval, constant, name):
    dt = image.dtype
    flat = image.ravel()
    if constant:
        flat = np.concatenate([flat, np.array([_dtype_cval(cval, dt)], dt)])
    keys = _order_keys(flat) if dt.kind == "f" else flat
    distinct, ranks = np.unique(keys, return_inverse=True)
    if len(distinct) > MAX_RANKS_F32:
        raise ValueError(f"{name} has {len(distinct)} distinct values; {dt} arrays are filtered "
                         f"through the ranks of their values, exact for at most "
                         f"{MAX_RANKS_F32} of them")
    values = _from_order_keys(distinct, dt) if dt.kind == "f" else distinct
    ranks = ranks.astype(np.uint16 if len(distinct) <= MAX_RANKS_U16 else np.float32)
    c = float(ranks[-1]) if constant else cval
    return LibraryKeys(ranks[:image.size].reshape(image.shape), c,
                       lambda r: values[r.astype(np.intp)])


def _order_keys(values):
    """float64 -> uint64 keys in the library's float order (one key for every NaN)."""
    bits = values.astype(np.float64).view(np.uint64)
    keys = np.where(bits & _SIGN64, ~bits, bits | _SIGN64)
    keys[np.isnan(values)] = _NAN_KEY
    return keys


def _from_order_keys(keys, dt):
    bits = np.where(keys & _SIGN64, keys & ~_SIGN64, ~keys)
    values = bits.view(np.float64)
    values[keys == _NAN_KEY] = np.nan
    return values.astype(dt)


def _is_constant(cval, constant):
    """Whether the border reads cval: mode constant, with a number (else the checks of the
    other arguments say what is wrong with it)."""
    return constant and isinstance(cval, numbers.Real) and not isinstance(cval, bool)


def _integer_cval(cval, dt):
    """The library's rule for integer images: rounded half away from zero, clamped to the type."""
    info = np.iinfo(dt)
    return min(max(_round_half_away(cval), info.min), info.max)


def _dtype_cval(cval, dt):
    return _integer_cval(cval, dt) if dt.kind in "iu" else cval


def _round_half_away(x):
    return int(math.copysign(math.floor(abs(x) + 0.5), x))
