"""RGB TIFFs, filtered channel by channel as ImageJ filters them: each page's red, green and
blue are three planes (channels) of the stack, and the output is RGB again. Interleaved and
planar pages, 8 and 16 bits, every command; ImageJ's 48-bit hela-cells.tif with its metadata."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import imagej_circle_mask
from test_input_files import temporal_median_of

COMMANDS = {
    "median": (["median", "--size", "3"],
               lambda s: ndi.median_filter(s, size=(1, 3, 3), mode="nearest")),
    "median --3d": (["median", "--size", "3", "--3d"],
                    lambda s: ndi.median_filter(s, size=3, mode="nearest")),
    "temporal": (["temporal", "--window", "3"], temporal_median_of),
    "temporal --project": (["temporal", "--project"],
                           lambda s: np.sort(s, axis=0)[(len(s) - 1) // 2][None]),
}


def rgb_stack(path, dtype, planarconfig="contig", pages=5):
    """Pages of (y, x, 3) pixels; returns them as (channel, page, y, x)."""
    top = np.iinfo(dtype).max
    data = np.random.default_rng(8).integers(0, top, (pages, 9, 7, 3)).astype(dtype)
    stored = data if planarconfig == "contig" else np.moveaxis(data, -1, 1)  # (page, 3, y, x)
    tifffile.imwrite(path, stored, photometric="rgb", planarconfig=planarconfig)
    return np.moveaxis(data, -1, 0)


@pytest.mark.parametrize("planarconfig", ["contig", "separate"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("command", COMMANDS, ids=COMMANDS.keys())
def test_each_channel_on_its_own(fastmedian, tmp_path, command, dtype, planarconfig):
    args, reference = COMMANDS[command]
    channels = rgb_stack(tmp_path / "in.tif", dtype, planarconfig)
    r = fastmedian(args[0], tmp_path / "in.tif", tmp_path / "out.tif", *args[1:])
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "out.tif") as f:
        assert f.pages[0].photometric == tifffile.PHOTOMETRIC.RGB
        assert f.pages[0].planarconfig == tifffile.PLANARCONFIG.CONTIG
        got = np.moveaxis(f.asarray().reshape(-1, 9, 7, 3), -1, 0)
    want = np.stack([reference(c) for c in channels])
    np.testing.assert_array_equal(got, want)


def test_imagej_48_bit_composite(fastmedian, shared_data, tmp_path):
    # hela-cells.tif: 3 channels as the samples of one 16-bit RGB page, ImageJ's metadata.
    src = shared_data / "hela-cells.tif"
    r = fastmedian("median", src, tmp_path / "out.tif", "--radius", "2")
    assert r.returncode == 0, r.stderr
    assert "672x512x3 u16" in r.stdout
    footprint = np.array(imagej_circle_mask(2))
    with tifffile.TiffFile(src) as a, tifffile.TiffFile(tmp_path / "out.tif") as b:
        channels = np.moveaxis(a.asarray(), -1, 0)
        got = np.moveaxis(b.asarray(), -1, 0)
        assert b.pages[0].description == a.pages[0].description
        assert b.imagej_metadata["Info"] == a.imagej_metadata["Info"]
        # libtiff holds the resolution as a float: the same to 7 digits, not as a fraction.
        num, den = b.pages[0].tags["XResolution"].value
        assert num / den == pytest.approx(19420064 / 1000000, rel=1e-7)
        assert a.pages[0].tags["XResolution"].value == (19420064, 1000000)
    want = np.stack([ndi.median_filter(c, footprint=footprint, mode="nearest") for c in channels])
    np.testing.assert_array_equal(got, want)


def test_rgb_other_samples_still_refused(fastmedian, tmp_path):
    data = np.zeros((9, 7, 2), np.uint8)
    tifffile.imwrite(tmp_path / "in.tif", data, photometric="minisblack", planarconfig="contig",
                     extrasamples=[0])
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 1
    assert "2 samples per pixel; only 1 (greyscale) or 3 (RGB) is supported" in r.stderr
