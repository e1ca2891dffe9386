"""What an input file says besides its pixels reaches the output unchanged: ImageJ hyperstack
metadata (axes, calibration, unit, labels, lookup tables, ranges, Info), resolution tags and
OME-XML (with the pixel type written); and the output's layout is one ImageJ itself reads."""
import os
import shutil
import subprocess

import numpy as np
import pytest
import tifffile
from scipy import ndimage as ndi

IMAGEJ_JAR = "/usr/share/java/ij.jar"

COMMANDS = {
    "median": ["median", "--size", "3"],
    "median --3d": ["median", "--size", "3", "--3d"],
    "temporal": ["temporal", "--window", "3"],
    "background": ["background", "--size", "5"],
    "convolve": ["convolve", "--gaussian", "1"],
}


def imagej_hyperstack(path, shape=(4, 3, 2, 9, 7), dtype=np.uint16):
    """TZCYX data written by tifffile as ImageJ writes a hyperstack, with every kind of
    metadata ImageJ keeps: calibration, unit, z spacing, frame interval, labels, LUTs,
    display ranges and the Info property."""
    data = np.random.default_rng(3).integers(0, 1000, shape).astype(dtype)
    planes = shape[0] * shape[1] * shape[2]
    luts = [np.stack([np.arange(256, dtype=np.uint8), np.zeros(256, np.uint8),
                      np.arange(256, dtype=np.uint8)[::-1]]) for _ in range(shape[2])]
    tifffile.imwrite(path, data, imagej=True, resolution=(1 / 0.125, 1 / 0.25), metadata={
        "axes": "TZCYX", "unit": "um", "spacing": 2.5, "finterval": 0.75, "mode": "composite",
        "Labels": [f"plane {i}" for i in range(planes)], "LUTs": luts,
        "Ranges": (0.0, 900.0) * shape[2], "Info": "objective=63x\nwavelength=488"})
    return data


def same_imagej_metadata(got, want):
    assert got.keys() == want.keys()
    for key in want:
        if key == "LUTs":
            assert all(np.array_equal(g, w) for g, w in zip(got[key], want[key]))
        else:
            assert np.all(got[key] == want[key]) if key == "Ranges" else got[key] == want[key]


def tags(path):
    with tifffile.TiffFile(path) as f:
        page = f.pages[0]
        return {name: page.tags[name].value for name in
                ("XResolution", "YResolution", "ResolutionUnit") if name in page.tags}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_imagej_hyperstack_metadata_is_carried(fastmedian, tmp_path, command):
    imagej_hyperstack(tmp_path / "in.tif", shape=(4, 1, 1, 9, 7) if command[0] == "temporal"
                      or "--3d" in command else (4, 3, 2, 9, 7))
    r = fastmedian(command[0], tmp_path / "in.tif", tmp_path / "out.tif", *command[1:])
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "in.tif") as a, tifffile.TiffFile(tmp_path / "out.tif") as b:
        assert b.is_imagej
        same_imagej_metadata(b.imagej_metadata, a.imagej_metadata)
        assert b.pages[0].description == a.pages[0].description
        assert b.series[0].axes == a.series[0].axes and b.series[0].shape == a.series[0].shape
    assert tags(tmp_path / "out.tif") == tags(tmp_path / "in.tif")


def test_resolution_is_on_every_page(fastmedian, tmp_path):
    data = np.zeros((3, 6, 5), np.uint8)
    tifffile.imwrite(tmp_path / "in.tif", data, photometric="minisblack",
                     resolution=(300, 150, "CENTIMETER"))
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "out.tif") as f:
        for page in f.pages:
            assert page.tags["XResolution"].value == (300, 1)
            assert page.tags["YResolution"].value == (150, 1)
            assert page.tags["ResolutionUnit"].value == 3


def test_file_without_metadata_gets_none(fastmedian, tmp_path):
    tifffile.imwrite(tmp_path / "in.tif", np.zeros((2, 6, 5), np.uint16), photometric="minisblack",
                     metadata=None)
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "in.tif") as a, tifffile.TiffFile(tmp_path / "out.tif") as b:
        for name in ("ImageDescription", "50838", "50839"):
            assert name not in a.pages[0].tags and name not in b.pages[0].tags
    assert tags(tmp_path / "out.tif") == tags(tmp_path / "in.tif")


@pytest.mark.parametrize("float_output", [False, True], ids=["u16", "--float"])
def test_ome_xml_is_carried_with_the_written_type(fastmedian, tmp_path, float_output):
    data = np.random.default_rng(4).integers(0, 4000, (2, 3, 9, 7)).astype(np.uint16)
    tifffile.imwrite(tmp_path / "in.ome.tif", data, metadata={
        "axes": "CZYX", "PhysicalSizeX": 0.125, "PhysicalSizeY": 0.25, "PhysicalSizeZ": 2.5,
        "Channel": {"Name": ["DAPI", "GFP"]}})
    extra = ["--float"] if float_output else []
    r = fastmedian("convolve", tmp_path / "in.ome.tif", tmp_path / "out.ome.tif",
                   "--gaussian", "1", *extra)
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "in.ome.tif") as a, \
            tifffile.TiffFile(tmp_path / "out.ome.tif") as b:
        assert b.is_ome
        want = a.ome_metadata
        if float_output:
            want = want.replace('Type="uint16"', 'Type="float"').replace(
                'SignificantBits="16"', 'SignificantBits="32"')
        assert b.ome_metadata == want
        assert b.series[0].axes == a.series[0].axes and b.series[0].shape == a.series[0].shape
        assert b.series[0].dtype == (np.float32 if float_output else np.uint16)


def test_imagej_one_page_stack_metadata_is_carried(fastmedian, tmp_path):
    # ImageJ's own >4 GB layout (one page, images=N): the output keeps its description.
    data = np.arange(6 * 5 * 4, dtype=np.uint16).reshape(6, 5, 4)
    description = "ImageJ=1.54f\nimages=6\nslices=6\nunit=micron\nspacing=0.5\nloop=false\n"
    tifffile.imwrite(tmp_path / "page.tif", data[0], description=description, metadata=None)
    raw = bytearray((tmp_path / "page.tif").read_bytes())
    offset = tifffile.TiffFile(tmp_path / "page.tif").pages[0].dataoffsets[0]
    # The other five planes follow the first, as ImageJ stores them.
    raw[offset + data[0].nbytes:offset + data[0].nbytes] = data[1:].tobytes()
    (tmp_path / "in.tif").write_bytes(bytes(raw))
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3", "--3d")
    assert r.returncode == 0, r.stderr
    with tifffile.TiffFile(tmp_path / "out.tif") as f, tifffile.TiffFile(tmp_path / "in.tif") as i:
        assert f.pages[0].description == i.pages[0].description
        assert f.imagej_metadata == {"ImageJ": "1.54f", "images": 6, "slices": 6,
                                     "unit": "micron", "spacing": 0.5, "loop": False}
        assert len(f.pages) == 6


def planes_are_contiguous(path):
    with tifffile.TiffFile(path) as f:
        offsets = [p.dataoffsets for p in f.pages]
        counts = [p.databytecounts for p in f.pages]
    return all(len(o) == 1 for o in offsets) and all(
        offsets[i + 1][0] == offsets[i][0] + counts[i][0] for i in range(len(offsets) - 1))


def test_planes_follow_one_another(fastmedian, tmp_path):
    # ImageJ reads only page 1's header of a stack its description calls N images, and takes
    # the N planes from there one after another.
    imagej_hyperstack(tmp_path / "in.tif")
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    assert planes_are_contiguous(tmp_path / "out.tif")


@pytest.fixture(scope="session")
def imagej():
    """runs an ImageJ macro in Debian's ImageJ under Xvfb and returns what it printed."""
    if not (os.path.isfile(IMAGEJ_JAR) and shutil.which("xvfb-run")):
        pytest.skip("Debian's ImageJ and xvfb-run are needed (scripts/install-deps.sh)")

    def run(macro, tmp_path):
        (tmp_path / "check.ijm").write_text(macro)
        r = subprocess.run(["xvfb-run", "-a", "java", "-jar", IMAGEJ_JAR, "-batch",
                            str(tmp_path / "check.ijm")], capture_output=True, text=True,
                           timeout=240)
        assert r.returncode == 0, r.stderr
        return r.stdout
    return run


def test_imagej_opens_the_output_as_the_hyperstack_it_filtered(fastmedian, imagej, tmp_path):
    # End to end in ImageJ: the filtered hyperstack opens with its axes, calibration and
    # labels, and every plane equals scipy's median of that plane.
    data = imagej_hyperstack(tmp_path / "in.tif")
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    printed = imagej(f"""
open("{tmp_path / 'out.tif'}");
getDimensions(w, h, c, z, t);
getVoxelSize(pw, ph, pd, unit);
print("dims " + w + " " + h + " " + c + " " + z + " " + t);
print("voxel " + pw + " " + ph + " " + pd + " " + unit + " " + Stack.getFrameInterval());
Stack.setPosition(2, 3, 4);
print("label " + getInfo("slice.label"));
s = "";
for (y = 0; y < h; y++) for (x = 0; x < w; x++) s = s + getPixel(x, y) + " ";
print("pixels " + s);
""", tmp_path)
    lines = dict(line.split(" ", 1) for line in printed.splitlines() if " " in line)
    assert lines["dims"] == "7 9 2 3 4"
    assert lines["voxel"] == "0.125 0.25 2.5 µm 0.75"
    assert lines["label"] == f"plane {3 * 6 + 2 * 2 + 1}"
    want = ndi.median_filter(data[3, 2, 1], size=3, mode="nearest")
    assert lines["pixels"].split() == [str(v) for v in want.ravel()]
