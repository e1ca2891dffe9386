"""Stacks larger than memory: the 2D filters (median, background, convolve) stream runs of
planes from file to file within --max-memory, the temporal median blocks of frames with the
frames their windows share, and the 3D median slabs of slices with the slices their windows
reach, with the same output as the whole stack at once; peak memory measured. A stack past 4 GB
is read and written as BigTIFF the same way."""
import resource
import subprocess
import sys

import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import (assert_one_line_error, assert_same_bits, ellipsoid, from_keys, listing,
                      small_file_limit, sort_keys)

COMMANDS = {
    "median": ["median", "--size", "3"],
    "background": ["background", "--size", "31"],
    "convolve": ["convolve", "--gaussian", "2", "--float"],
}
# What the measuring Python adds to nothing: the peak of its only child.
PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, "
        "text=True); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
        " r.stderr.replace(chr(10), ' '))")


def peak_kib(cli, *args):
    """Runs the CLI as the only child of a fresh Python; its peak resident memory in KiB."""
    r = subprocess.run([sys.executable, "-c", PEAK, cli, *map(str, args)], capture_output=True,
                       text=True, timeout=600)
    code, peak, err = r.stdout.split(" ", 2)
    assert code == "0", err
    return int(peak)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """64 planes of 512 x 512 u16: 32 MiB, 16 times the 2 MiB ceiling the tests set."""
    path = tmp_path_factory.mktemp("streaming") / "in.tif"
    data = np.random.default_rng(12).integers(0, 65535, (64, 512, 512)).astype(np.uint16)
    tifffile.imwrite(path, data, photometric="minisblack")
    return path


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_streamed_equals_whole(cli, fastmedian, cli_is_sanitized, stack, tmp_path, command):
    whole = peak_kib(cli, command[0], stack, tmp_path / "whole.tif", *command[1:])
    streamed = peak_kib(cli, command[0], stack, tmp_path / "streamed.tif", *command[1:],
                        "--max-memory", "2M")
    assert_same_bits(tifffile.imread(tmp_path / "streamed.tif"),
                     tifffile.imread(tmp_path / "whole.tif"))
    tiny = tmp_path / "tiny.tif"
    tifffile.imwrite(tiny, np.zeros((1, 8, 8), np.uint16), photometric="minisblack")
    baseline = peak_kib(cli, command[0], tiny, tmp_path / "t.tif", *command[1:])
    if not cli_is_sanitized:  # AddressSanitizer's shadow and quarantine swamp these figures
        # The 2 MiB of the runs' planes and the filter's own scratch over a process that
        # filters 8 x 8 pixels; the whole stack in and out takes 64 MiB more.
        assert streamed - baseline < 6 * 1024, (streamed, baseline)
        assert whole - baseline > 48 * 1024, (whole, baseline)


def test_rgb_streams_whole_pages(fastmedian, tmp_path):
    data = np.random.default_rng(13).integers(0, 255, (10, 64, 64, 3)).astype(np.uint8)
    tifffile.imwrite(tmp_path / "in.tif", data, photometric="rgb")
    # 24 KiB a page in and out: 60 KiB hold two pages, so runs of 6 planes.
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3",
                   "--max-memory", "60K")
    assert r.returncode == 0, r.stderr
    want = ndi.median_filter(data, size=(1, 3, 3, 1), mode="nearest")
    np.testing.assert_array_equal(tifffile.imread(tmp_path / "out.tif"), want)


def test_page_over_the_ceiling_is_refused(fastmedian, stack, tmp_path):
    r = fastmedian("median", stack, tmp_path / "out.tif", "--size", "3", "--max-memory", "1000K")
    assert r.returncode == 1
    assert "1 page of 512x512 u16 (512.0 KiB) and the output need 1.0 MiB, more than the " \
           "memory ceiling of 1000.0 KiB" in r.stderr


def test_stack_past_4_gb(cli, cli_is_sanitized, tmp_path):
    # 33 planes of 8192 x 8192 u16: 4.1 GiB in and out, as BigTIFF, through 512 MiB.
    if cli_is_sanitized:
        pytest.skip("8 GiB through AddressSanitizer takes minutes; the release build runs it")
    planes, size = 33, 8192
    ramp = np.arange(size, dtype=np.uint16)
    with tifffile.TiffWriter(tmp_path / "in.tif", bigtiff=True) as w:
        for z in range(planes):
            w.write((ramp[:, None] * 3 + ramp[None, :] * 5 + z * 7).astype(np.uint16),
                    photometric="minisblack", contiguous=True)
    peak = peak_kib(cli, "median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3",
                    "--max-memory", "512M")
    assert peak < 600 * 1024, peak
    with tifffile.TiffFile(tmp_path / "out.tif") as f:
        assert f.is_bigtiff and len(f.pages) == planes
        offsets = [p.dataoffsets[0] for p in f.pages]
        assert offsets == [offsets[0] + z * size * size * 2 for z in range(planes)]
        for z in (0, 17, planes - 1):
            with tifffile.TiffFile(tmp_path / "in.tif") as i:
                want = ndi.median_filter(i.pages[z].asarray(), size=3, mode="nearest")
            np.testing.assert_array_equal(f.pages[z].asarray(), want)


def hyperstack_file(path, axes, shape, seed):
    data = np.random.default_rng(seed).integers(0, 65535, shape).astype(np.uint16)
    tifffile.imwrite(path, data, imagej=True, metadata={"axes": axes})
    return data


# (axes, shape): a plain movie; frames of 2 channels x 3 slices; slices taken as frames.
MOVIES = {"TYX": (40, 24, 20), "TZCYX": (30, 3, 2, 24, 20), "ZCYX": (30, 2, 24, 20)}


@pytest.mark.parametrize("window", [1, 2, 5, 8, 30])
@pytest.mark.parametrize("axes", MOVIES, ids=MOVIES.keys())
def test_temporal_in_blocks_of_frames_equals_whole(fastmedian, tmp_path, axes, window):
    # 24 x 20 u16 planes of 960 bytes in and out: 60K holds 32 planes, so a frame of 6 planes
    # and a window of 5 go in blocks of a frame or more, each with the frames its windows share.
    hyperstack_file(tmp_path / "in.tif", axes, MOVIES[axes], seed=window)
    args = ["temporal", tmp_path / "in.tif", None, "--window", str(window), "--backend", "cpu"]
    frame = int(np.prod(MOVIES[axes][1:-2]))
    limit = max(60, (window + 1) * frame * 960 * 2 // 1024 + 1)
    r = fastmedian(*args[:2], tmp_path / "whole.tif", *args[3:])
    assert r.returncode == 0, r.stderr
    r = fastmedian(*args[:2], tmp_path / "blocks.tif", *args[3:], "--max-memory", f"{limit}K")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "blocks.tif").read_bytes() == (tmp_path / "whole.tif").read_bytes()


def test_temporal_refuses_a_window_over_the_ceiling(fastmedian, tmp_path):
    hyperstack_file(tmp_path / "in.tif", "TYX", (40, 24, 20), seed=1)
    # The 5 frames of a window in and out (9600 bytes) do not fit 9K.
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--window", "5",
                   "--max-memory", "9K")
    assert r.returncode == 1
    assert "5 pages of 20x24 u16 (4.7 KiB) and the output need 9.4 KiB, more than the " \
           "memory ceiling of 9.0 KiB" in r.stderr


def test_temporal_peak_memory(cli, cli_is_sanitized, stack, tmp_path):
    # 64 frames of 512 KiB through 4 MiB with a window of 3: blocks of 2 frames and the 2
    # their windows share.
    streamed = peak_kib(cli, "temporal", stack, tmp_path / "out.tif", "--window", "3",
                        "--max-memory", "4M")
    tiny = tmp_path / "tiny.tif"
    tifffile.imwrite(tiny, np.zeros((3, 8, 8), np.uint16), photometric="minisblack")
    baseline = peak_kib(cli, "temporal", tiny, tmp_path / "t.tif", "--window", "3")
    if cli_is_sanitized:
        pytest.skip("AddressSanitizer's shadow and quarantine swamp the figures")
    assert streamed - baseline < 8 * 1024, (streamed, baseline)


# --- median --3d in slabs of slices ---

SCIPY_MODE = {"replicate": "nearest", "reflect": "reflect", "mirror": "mirror",
              "constant": "constant", "wrap": "wrap"}
# (options, footprint, z radius): a box of 5 slices, and an ellipsoid reaching 4 slices on
# either side, more than a block of 3.
WINDOWS3D = {"box": (["--size", "3", "--zsize", "5"], np.ones((5, 3, 3), bool), 2),
             "ellipsoid": (["--radius", "1", "--zradius", "4"], ellipsoid(1, 1, 4), 4)}


def median3d_reference(volume, footprint, border, cval):
    """scipy's median over the volume in the library's order: float32 through integer keys
    (NaN above +Inf, written as 0x7FC00000)."""
    mode = SCIPY_MODE[border]
    if volume.dtype != np.float32:
        return ndi.median_filter(volume, footprint=footprint, mode=mode, cval=cval)
    keys = ndi.median_filter(sort_keys(volume), footprint=footprint, mode=mode,
                             cval=int(sort_keys(np.array([cval], np.float32))[0]))
    return from_keys(keys)


def random_volume(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype != np.float32:
        return rng.integers(0, np.iinfo(dtype).max, shape, endpoint=True).astype(dtype)
    data = (rng.standard_normal(shape) * 100).astype(np.float32)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0], np.float32)
    mask = rng.random(shape) < 0.1
    data[mask] = rng.choice(specials, int(mask.sum()))
    data[7:12, 3:15, 4:16] = np.nan  # slabs of windows mostly NaN
    return data


def slab_ceiling(plane_bytes, block, radius):
    """--max-memory for blocks of `block` slices (of `plane_bytes` in and out each): their input
    with the 2 * radius slices their windows reach, and their output."""
    return plane_bytes * (2 * block + 2 * radius)


@pytest.mark.parametrize("border", ["replicate", "reflect", "mirror", "constant"])
@pytest.mark.parametrize("window", WINDOWS3D, ids=WINDOWS3D.keys())
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32], ids=["u8", "u16", "f32"])
def test_3d_slabs_equal_scipy(fastmedian, tmp_path, dtype, window, border):
    # 40 slices of 24 x 20 in blocks of 3 (the last of 1), each read with up to 4 slices on
    # either side: input and output 5 to 8 times the ceiling.
    volume = random_volume(dtype, (40, 24, 20), seed=len(border))
    tifffile.imwrite(tmp_path / "in.tif", volume, photometric="minisblack")
    options, footprint, radius = WINDOWS3D[window]
    cval = 7 if border == "constant" else 0
    ceiling = slab_ceiling(volume[0].nbytes, 3, radius)
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--3d", *options,
                   "--border", border, *(["--cval", cval] if cval else []),
                   "--max-memory", ceiling, "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert_same_bits(tifffile.imread(tmp_path / "out.tif"),
                     median3d_reference(volume, footprint, border, cval))


def hyperstack_volumes(tmp_path):
    """3 frames of 17 slices of 2 channels of 24 x 20 u16, written as an ImageJ hyperstack."""
    data = np.random.default_rng(5).integers(0, 65535, (3, 17, 2, 24, 20)).astype(np.uint16)
    tifffile.imwrite(tmp_path / "in.tif", data, imagej=True, metadata={"axes": "TZCYX"})
    return data


def per_volume(data, footprint, border):
    """The reference over each channel and frame of a TZCYX hyperstack as a volume."""
    want = np.empty_like(data)
    for t in range(data.shape[0]):
        for c in range(data.shape[2]):
            want[t, :, c] = median3d_reference(data[t, :, c], footprint, border, 0)
    return want


@pytest.mark.parametrize("window", WINDOWS3D, ids=WINDOWS3D.keys())
def test_3d_slabs_of_a_hyperstack(fastmedian, tmp_path, window):
    # A step is a slice of both channels (1920 bytes in and out): each frame goes in blocks of
    # 3 slices (17 = 5 x 3 + 2), and the next frame starts afresh.
    data = hyperstack_volumes(tmp_path)
    options, footprint, radius = WINDOWS3D[window]
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--3d", *options,
                   "--border", "reflect", "--max-memory", str(slab_ceiling(1920, 3, radius)))
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "out.tif")
    assert_same_bits(got.reshape(data.shape), per_volume(data, footprint, "reflect"))


def test_3d_wrap_takes_each_volume_whole(fastmedian, tmp_path):
    # Wrapping along z reads the volume's other end: a frame's 17 x 2 planes in and out (65280
    # bytes) are the least, a third of the stack.
    data = hyperstack_volumes(tmp_path)
    args = ["median", tmp_path / "in.tif", tmp_path / "out.tif", "--3d", "--size", "3",
            "--border", "wrap", "--max-memory"]
    r = fastmedian(*args, "65279")
    assert r.returncode == 1
    assert "34 pages of 20x24 u16 (31.9 KiB) and the output need 63.8 KiB, more than the " \
           "memory ceiling of 63.7 KiB (--max-memory; default: this machine's physical " \
           "memory); --border wrap needs the whole volume" in r.stderr
    r = fastmedian(*args, "65280")
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "out.tif")
    assert_same_bits(got.reshape(data.shape), per_volume(data, np.ones((3, 3, 3), bool), "wrap"))
    # Without a reach along z, wrap goes in slabs too (here of one slice and no halo).
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "flat.tif", "--3d", "--size", "3",
                   "--zsize", "1", "--border", "wrap", "--max-memory", "3840")
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "flat.tif")
    assert_same_bits(got.reshape(data.shape), per_volume(data, np.ones((1, 3, 3), bool), "wrap"))


def test_3d_refuses_a_slice_and_its_halo_over_the_ceiling(fastmedian, tmp_path):
    hyperstack_file(tmp_path / "in.tif", "ZYX", (40, 24, 20), seed=2)
    # One output slice and the 5 input slices its window reaches (5760 bytes).
    args = ["median", tmp_path / "in.tif", tmp_path / "out.tif", "--3d", "--size", "3",
            "--zsize", "5", "--max-memory"]
    r = fastmedian(*args, "5759")
    assert r.returncode == 1
    assert "5 pages of 20x24 u16 (4.7 KiB) and the output need 5.6 KiB, more than the " \
           "memory ceiling of 5.6 KiB" in r.stderr
    assert fastmedian(*args, "5760").returncode == 0


def test_3d_peak_memory(cli, cli_is_sanitized, stack, tmp_path):
    # 64 slices of 512 KiB through 4 MiB with a 3 x 3 x 3 box: blocks of 3 slices, read with
    # the slice on either side.
    streamed = peak_kib(cli, "median", stack, tmp_path / "streamed.tif", "--3d", "--size", "3",
                        "--max-memory", "4M")
    whole = peak_kib(cli, "median", stack, tmp_path / "whole.tif", "--3d", "--size", "3")
    assert_same_bits(tifffile.imread(tmp_path / "streamed.tif"),
                     tifffile.imread(tmp_path / "whole.tif"))
    tiny = tmp_path / "tiny.tif"
    tifffile.imwrite(tiny, np.zeros((3, 8, 8), np.uint16), photometric="minisblack")
    baseline = peak_kib(cli, "median", tiny, tmp_path / "t.tif", "--3d", "--size", "3")
    if cli_is_sanitized:
        pytest.skip("AddressSanitizer's shadow and quarantine swamp the figures")
    # The 4 MiB of a slab and its output, and the filter's scratch; the whole stack in and out
    # takes 64 MiB.
    assert streamed - baseline < 8 * 1024, (streamed, baseline)
    assert whole - baseline > 48 * 1024, (whole, baseline)


# --- blocks in flight: the next read and the last written while one is filtered ---

# 40 planes of 24 x 20 u16 (960 bytes in and out each), and --max-memory for the stack whole,
# in blocks one at a time, and in blocks two at a time (each at least its halo: the temporal
# window's N - 1 frames, the 3D median's 2 RZ slices; see plan_for in filter_file.cpp).
OVERLAP = {
    # 1.5 planes in and out: one block of 1 plane; 2 x 3 of them: two blocks of 3.
    "median": (["median", "--size", "3"], 2880, 11520),
    # N = 5: 3 frames and the 4 of the window (13440 bytes), not 2 x 4 and 4; then 2 x 4 and 4.
    "temporal": (["temporal", "--window", "5"], 13440, 30720),
    # 5 slices deep: 3 slices out, 3 and 4 in; then two of 4 out, 4 and 4 in.
    "median --3d": (["median", "--3d", "--size", "3", "--zsize", "5"], 9600, 23040),
}


@pytest.mark.parametrize("command", OVERLAP, ids=OVERLAP.keys())
def test_blocks_in_flight_equal_one_at_a_time_and_whole(fastmedian, tmp_path, command):
    args, one_at_a_time, two_at_a_time = OVERLAP[command]
    hyperstack_file(tmp_path / "in.tif", "ZYX", (40, 24, 20), seed=9)
    outputs = []
    for memory in [[], ["--max-memory", one_at_a_time], ["--max-memory", two_at_a_time]]:
        outputs.append(tmp_path / f"out{len(outputs)}.tif")
        r = fastmedian(args[0], tmp_path / "in.tif", outputs[-1], *args[1:], "--backend", "cpu",
                       *memory)
        assert r.returncode == 0, r.stderr
    assert outputs[0].read_bytes() == outputs[1].read_bytes() == outputs[2].read_bytes()


@pytest.mark.parametrize("command", OVERLAP, ids=OVERLAP.keys())
def test_a_later_block_that_cannot_be_read_leaves_no_file(fastmedian, tmp_path, command):
    # Our own output lays its planes after every header: cutting its end cuts the last plane,
    # which the last block reads while the one before is filtered.
    args, _, two_at_a_time = OVERLAP[command]
    hyperstack_file(tmp_path / "stack.tif", "ZYX", (40, 24, 20), seed=10)
    assert fastmedian("median", tmp_path / "stack.tif", tmp_path / "whole.tif",
                      "--size", "1").returncode == 0
    cut = tmp_path / "cut.tif"
    cut.write_bytes((tmp_path / "whole.tif").read_bytes()[:-100])
    out = tmp_path / "out"
    out.mkdir()
    whole = fastmedian(args[0], cut, out / "out.tif", *args[1:], "--backend", "cpu")
    blocks = fastmedian(args[0], cut, out / "out.tif", *args[1:], "--backend", "cpu",
                        "--max-memory", two_at_a_time)
    assert_one_line_error(blocks, 1, "cut.tif: cannot read")
    assert blocks.stderr == whole.stderr
    assert listing(out) == []


def test_a_later_block_that_cannot_be_written_leaves_the_old_file(fastmedian, tmp_path):
    # 100 planes of 32 x 32 u16 in blocks of 4 planes, two at a time: writes past 64 KiB fail
    # (EFBIG, as on a full disk) some blocks in.
    hyperstack_file(tmp_path / "in.tif", "ZYX", (100, 32, 32), seed=11)
    out = tmp_path / "out"
    out.mkdir()
    (out / "out.tif").write_bytes(b"previous result")
    r = fastmedian("median", tmp_path / "in.tif", out / "out.tif", "--size", "3",
                   "--max-memory", "32K", preexec_fn=small_file_limit)
    assert_one_line_error(r, 1, f"{out / 'out.tif'}", "cannot write")
    assert listing(out) == ["out.tif"] and (out / "out.tif").read_bytes() == b"previous result"
