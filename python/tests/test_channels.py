"""channel_axis (scikit-image's keyword): RGB images and other multi-channel arrays, each
channel filtered on its own, as ImageJ filters an RGB image."""
import numpy as np
import pytest
import scipy.ndimage as ndi

import fastmedian


def each_channel(array, axis, filter_one):
    return np.stack([filter_one(c) for c in np.moveaxis(array, axis, 0)], axis=axis)


RGB = np.random.default_rng(0).integers(0, 256, (30, 41, 3)).astype(np.uint8)


@pytest.mark.parametrize("axis", [-1, 2, 0])
def test_median_of_each_channel(axis):
    image = RGB if axis != 0 else np.ascontiguousarray(np.moveaxis(RGB, -1, 0))
    got = fastmedian.median_filter(image, size=5, mode="reflect", channel_axis=axis)
    assert got.flags.c_contiguous and got.dtype == image.dtype
    assert np.array_equal(got, each_channel(
        image, axis, lambda c: ndi.median_filter(c, size=5, mode="reflect")))


def test_volume_with_channels_and_the_dtypes_and_output():
    volume = np.random.default_rng(1).standard_normal((5, 12, 13, 2))  # float64
    out = np.empty_like(volume)
    got = fastmedian.median_filter(volume, size=(3, 3, 3), channel_axis=3, output=out)
    assert got is out
    assert np.array_equal(out, each_channel(
        volume, 3, lambda c: ndi.median_filter(c, size=3, mode="nearest")))


def test_background_of_each_channel():
    got = fastmedian.background(RGB, size=9, offset=10, channel_axis=-1)
    assert np.array_equal(got, each_channel(
        RGB, -1, lambda c: fastmedian.background(c, size=9, offset=10)))


def test_temporal_median_of_each_channel_with_the_frame_axis_counted_among_all():
    movie = np.random.default_rng(2).integers(0, 4096, (2, 9, 10, 11)).astype(np.uint16)  # (c, t, y, x)
    got = fastmedian.temporal_median(movie, 5, axis=1, channel_axis=0)
    assert np.array_equal(got, each_channel(movie, 0,
                                            lambda c: fastmedian.temporal_median(c, 5)))
    moved = np.ascontiguousarray(np.moveaxis(movie, 0, -1))  # (t, y, x, c)
    assert np.array_equal(fastmedian.temporal_median(moved, 5, channel_axis=-1),
                          np.moveaxis(got, 0, -1))


@pytest.mark.parametrize("call,error,match", [
    (lambda: fastmedian.median_filter(RGB, size=3, channel_axis=3), ValueError,
     "channel_axis must be in -3..2"),
    (lambda: fastmedian.median_filter(RGB, size=3, channel_axis=1.0), TypeError, "channel_axis"),
    (lambda: fastmedian.median_filter(RGB[..., 0], size=3, channel_axis=0), ValueError,
     "image with channel_axis must be 3D or 4D"),
    (lambda: fastmedian.median_filter(RGB, size=3, channel_axis=-1,
                                      output=np.empty((30, 41), np.uint8)), ValueError, "output"),
    (lambda: fastmedian.temporal_median(RGB, 3, axis=2, channel_axis=-1), ValueError,
     "axis must be an axis of the 3D stack other than channel_axis"),
])
def test_bad_channel_arguments_name_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()
