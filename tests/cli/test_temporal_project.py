"""`fastmedian temporal --project`: the median of all frames as one plane (ImageJ's Z Project
> Median), for each channel and slice of a hyperstack, bit for bit against the NumPy
reference of test_temporal_vs_numpy, and the output's ImageJ metadata made to say so."""
import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, assert_same_bits
from test_temporal_vs_numpy import random_stack, temporal_reference


def projection(stack):
    """The median of all frames: the temporal median whose window is every frame."""
    return temporal_reference(stack, stack.shape[0])[:1]


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
@pytest.mark.parametrize("frames", [1, 2, 7, 48])
def test_plain_stack(fastmedian, tmp_path, dtype, frames):
    # An even count takes the lower middle, as --window does (ImageJ averages the two middles).
    stack = random_stack(dtype, frames, seed=frames)
    tifffile.imwrite(tmp_path / "in.tif", stack, photometric="minisblack")
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--project",
                   "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("temporal projection (median of all frames) on cpu")
    got = tifffile.imread(tmp_path / "out.tif")
    assert_same_bits(got.reshape(1, *stack.shape[1:]), projection(stack))


def test_rows_in_bands(fastmedian, tmp_path):
    # A row of 6000 frames of 4096 bytes takes 23 MiB, so a band of the scratch (64 MiB) is
    # two rows: bands of 2 and 1.
    stack = np.random.default_rng(2).integers(0, 256, (6000, 3, 4096), dtype=np.uint8)
    tifffile.imwrite(tmp_path / "in.tif", stack, photometric="minisblack")
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--project",
                   "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    want = np.sort(stack, axis=0)[(6000 - 1) // 2]
    np.testing.assert_array_equal(tifffile.imread(tmp_path / "out.tif"), want)


def test_hyperstack_projects_each_channel_and_slice(fastmedian, tmp_path):
    data = np.random.default_rng(6).integers(0, 1000, (5, 3, 2, 8, 6)).astype(np.uint16)
    tifffile.imwrite(tmp_path / "in.tif", data, imagej=True, resolution=(4.0, 4.0), metadata={
        "axes": "TZCYX", "unit": "um", "spacing": 2.5, "Labels": [f"p{i}" for i in range(30)],
        "Ranges": (0.0, 900.0, 10.0, 800.0), "Info": "objective=63x"})
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--project")
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "out.tif") as f:
        assert f.series[0].axes == "ZCYX" and f.series[0].shape == (3, 2, 8, 6)
        meta = f.imagej_metadata
        got = f.asarray()
        resolution = f.pages[0].tags["XResolution"].value
    # The frame count goes, and the slice labels (one per input plane); the rest stays.
    assert meta["images"] == 6 and "frames" not in meta and "Labels" not in meta
    assert meta["slices"] == 3 and meta["channels"] == 2 and meta["unit"] == "um"
    assert meta["spacing"] == 2.5 and meta["Info"] == "objective=63x"
    assert list(meta["Ranges"]) == [0.0, 900.0, 10.0, 800.0]
    assert resolution == (4, 1)
    np.testing.assert_array_equal(got, np.sort(data, axis=0)[2])


def test_slices_are_the_frames_of_a_stack_without_frames(fastmedian, tmp_path):
    data = np.random.default_rng(7).integers(0, 1000, (6, 2, 8, 6)).astype(np.uint16)
    tifffile.imwrite(tmp_path / "in.tif", data, imagej=True, metadata={"axes": "ZCYX"})
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--project")
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "out.tif") as f:
        assert f.imagej_metadata["images"] == 2 and "slices" not in f.imagej_metadata
        np.testing.assert_array_equal(f.asarray(), np.sort(data, axis=0)[2])


@pytest.mark.parametrize("extra,message", [
    (["--window", "3"], "--project takes every frame; --window does not apply"),
    (["--mode", "subtract"], "--project writes the median itself; --mode subtract does not "
                             "apply"),
    (["--project=1"], "--project"),
])
def test_refused_combinations(fastmedian, small_input, tmp_path, extra, message):
    r = fastmedian("temporal", small_input, tmp_path / "out.tif", "--project", *extra)
    assert_one_line_error(r, 2, message)
