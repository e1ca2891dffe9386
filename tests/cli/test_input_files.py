"""Input files that are large, unusual or hostile: ImageJ's stacks past 4 GB (one page holding
every plane) read as ImageJ reads them, ImageJ hyperstacks filtered along their
axis, and the memory ceiling (--max-memory) refuses a stack before its pixels are read (the
2D filters and the temporal median stream within it)."""
import resource
import struct
import time
import zlib

import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import assert_one_line_error, listing

ASCII, SHORT, LONG = 2, 3, 4
WIDTH, HEIGHT, BITS, COMPRESSION, PHOTOMETRIC = 256, 257, 258, 259, 262
DESCRIPTION, STRIP_OFFSETS, SAMPLES, ROWS_PER_STRIP, STRIP_BYTES = 270, 273, 277, 278, 279
SAMPLE_FORMAT = 339


def write_tiff(path, pages, data=b"", order="<"):
    """A classic TIFF in byte order `order` ("<" or ">"): `data` at offset 8 (strip offsets
    point into it), then one directory per page; a page maps tag -> (type, values), the values
    of an ASCII tag being one str."""
    out = bytearray(b"II*\0" if order == "<" else b"MM\0*") + b"\0\0\0\0" + data
    out += b"\0" * (len(out) % 2)
    link = 4
    for tags in pages:
        ifd = len(out)
        struct.pack_into(order + "I", out, link, ifd)
        out += struct.pack(order + "H", len(tags))
        extra, extra_at = bytearray(), ifd + 2 + 12 * len(tags) + 4
        for tag in sorted(tags):
            kind, values = tags[tag]
            if kind == ASCII:
                blob = values.encode() + b"\0"
            else:
                blob = struct.pack(order + ("H" if kind == SHORT else "I") * len(values), *values)
            count = len(blob) if kind == ASCII else len(values)
            if len(blob) <= 4:
                out += struct.pack(order + "HHI", tag, kind, count)[:8] + blob.ljust(4, b"\0")
            else:
                out += struct.pack(order + "HHII", tag, kind, count, extra_at + len(extra))
                extra += blob + b"\0" * (len(blob) % 2)
        link = len(out)
        out += b"\0\0\0\0" + extra
    path.write_bytes(bytes(out))


def grey_page(width, height, bits, offset, nbytes, compression=1, fmt=1):
    return {WIDTH: (LONG, [width]), HEIGHT: (LONG, [height]), BITS: (SHORT, [bits]),
            COMPRESSION: (SHORT, [compression]), PHOTOMETRIC: (SHORT, [1]),
            SAMPLES: (SHORT, [1]), ROWS_PER_STRIP: (LONG, [height]),
            STRIP_OFFSETS: (LONG, [offset]), STRIP_BYTES: (LONG, [nbytes]),
            SAMPLE_FORMAT: (SHORT, [fmt])}


def imagej_one_page(path, planes, order="<", images=None, compression=1):
    """ImageJ's layout past 4 GB, in small: one page saying images=N (by default the planes'
    count), the planes one after another from its strip."""
    data = planes.astype(planes.dtype.newbyteorder(order)).tobytes()
    page = grey_page(planes.shape[2], planes.shape[1], planes.itemsize * 8, 8,
                     planes[0].nbytes, compression, 3 if planes.dtype.kind == "f" else 1)
    page[DESCRIPTION] = (ASCII, f"ImageJ=1.54f\nimages={images or len(planes)}\n"
                                f"slices={images or len(planes)}\nloop=false\n")
    write_tiff(path, [page], data, order)


@pytest.mark.parametrize("order", ["<", ">"], ids=["little-endian", "big-endian"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_imagej_stack_in_one_page_reads_every_plane(fastmedian, tmp_path, order, dtype):
    rng = np.random.default_rng(4)
    planes = (rng.random((3, 9, 7)) * 200).astype(dtype)
    imagej_one_page(tmp_path / "in.tif", planes, order)
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    assert "9x7x3" not in r.stdout and "7x9x3" in r.stdout
    want = np.stack([ndi.median_filter(p, size=3, mode="nearest") for p in planes])
    np.testing.assert_array_equal(tifffile.imread(tmp_path / "out.tif"), want)


def test_imagej_stack_from_tifffile_truncate(fastmedian, tmp_path):
    # tifffile's truncate=True writes that layout as ImageJ does past 4 GB.
    planes = np.arange(4 * 6 * 5, dtype=np.uint16).reshape(4, 6, 5)
    tifffile.imwrite(tmp_path / "in.tif", planes, imagej=True, truncate=True,
                     metadata={"axes": "TYX"})
    assert len(tifffile.TiffFile(tmp_path / "in.tif").pages) == 1
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--window", "3")
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "out.tif")
    np.testing.assert_array_equal(got[1:3], planes[1:3])  # a ramp in time is its own median


@pytest.mark.parametrize("case,message", [
    ("compressed", "ImageJ stack of 3 images in one page is compressed, tiled or RGB; only "
                   "uncompressed greyscale strips, as ImageJ writes them, can be read so"),
    ("truncated", "ImageJ stack of 100 images in one page: the file ends at byte "),
])
def test_imagej_stack_in_one_page_refused(fastmedian, tmp_path, case, message):
    planes = np.arange(3 * 4 * 5, dtype=np.uint16).reshape(3, 4, 5)
    if case == "compressed":
        imagej_one_page(tmp_path / "in.tif", planes, compression=32773)  # PackBits
    else:
        imagej_one_page(tmp_path / "in.tif", planes, images=100)  # 3 of them in the file
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert_one_line_error(r, 1, "in.tif: " + message)
    assert listing(tmp_path) == ["in.tif"]


def hyperstack(path, axes, shape):
    """An ImageJ hyperstack as tifffile writes it (a page per plane), `axes` from TZCYX."""
    data = np.random.default_rng(5).integers(0, 1000, shape, dtype=np.uint16)
    tifffile.imwrite(path, data, imagej=True, metadata={"axes": axes})
    return data


def series_reference(data, axis, filter_one):
    """`filter_one` of each series of the TCZYX `data` along `axis` (0 frames, 2 slices), the
    other two axes held."""
    moved = np.moveaxis(data, axis, 2)  # the two other axes, then the series
    out = np.empty_like(moved)
    for i in range(moved.shape[0]):
        for c in range(moved.shape[1]):
            out[i, c] = filter_one(moved[i, c])
    return np.moveaxis(out, 2, axis)


def temporal_median_of(series, n=3):
    # Output frame t uses frames [s, s + n), s = t - n // 2 clamped; the lower middle.
    frames = series.shape[0]
    out = np.empty_like(series)
    for t in range(frames):
        s = min(max(t - n // 2, 0), frames - n)
        out[t] = np.sort(series[s:s + n], axis=0)[(n - 1) // 2]
    return out


@pytest.mark.parametrize("command,axis,filter_one", [
    (["temporal", "--window", "3"], 0, temporal_median_of),
    (["median", "--size", "3", "--3d"], 2,
     lambda v: ndi.median_filter(v, size=3, mode="nearest")),
], ids=["temporal along frames", "median --3d along slices"])
def test_hyperstack_filtered_along_its_axis(fastmedian, tmp_path, command, axis, filter_one):
    data = hyperstack(tmp_path / "in.tif", "TZCYX", (4, 3, 2, 8, 6))
    r = fastmedian(command[0], tmp_path / "in.tif", tmp_path / "out.tif", *command[1:])
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "out.tif").reshape(data.shape)
    np.testing.assert_array_equal(got, series_reference(data.swapaxes(1, 2), axis,
                                                        filter_one).swapaxes(1, 2))


@pytest.mark.parametrize("axes", ["ZCYX", "TCYX"])
def test_channels_are_kept_apart_when_one_other_axis_is_there(fastmedian, tmp_path, axes):
    # A time series saved as slices is filtered along them, channel by channel, by both.
    data = hyperstack(tmp_path / "in.tif", axes, (5, 2, 8, 6))
    channels_first = data.swapaxes(0, 1)
    for command, filter_one in [
            (["temporal", "--window", "3"], temporal_median_of),
            (["median", "--size", "3", "--3d"],
             lambda v: ndi.median_filter(v, size=3, mode="nearest"))]:
        r = fastmedian(command[0], tmp_path / "in.tif", tmp_path / "out.tif", *command[1:])
        assert r.returncode == 0, r.stderr
        got = tifffile.imread(tmp_path / "out.tif").reshape(data.shape)
        want = np.stack([filter_one(channel) for channel in channels_first])
        np.testing.assert_array_equal(got, want.swapaxes(0, 1))


def test_temporal_window_is_checked_against_the_frames_of_a_series(fastmedian, tmp_path):
    hyperstack(tmp_path / "in.tif", "TZCYX", (4, 3, 2, 8, 6))
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--window", "5")
    assert_one_line_error(r, 2, "--window 5 is more than the 4 frames of ",
                          "in.tif (in each channel and slice)")


def test_hyperstack_filtered_plane_by_plane(fastmedian, tmp_path):
    data = hyperstack(tmp_path / "in.tif", "TZCYX", (4, 3, 2, 8, 6))
    r = fastmedian("median", tmp_path / "in.tif", tmp_path / "out.tif", "--size", "3")
    assert r.returncode == 0, r.stderr
    planes = data.reshape(-1, 8, 6)
    want = np.stack([ndi.median_filter(p, size=3, mode="nearest") for p in planes])
    np.testing.assert_array_equal(tifffile.imread(tmp_path / "out.tif").reshape(-1, 8, 6), want)


@pytest.mark.parametrize("axes", ["TYX", "ZYX"])
@pytest.mark.parametrize("command", [["temporal", "--window", "3"],
                                     ["median", "--size", "3", "--3d"]],
                         ids=["temporal", "median --3d"])
def test_stack_of_one_axis_is_filtered(fastmedian, tmp_path, axes, command):
    # A time series saved as slices (or the reverse) still has one axis to filter along.
    hyperstack(tmp_path / "in.tif", axes, (5, 8, 6))
    r = fastmedian(command[0], tmp_path / "in.tif", tmp_path / "out.tif", *command[1:])
    assert r.returncode == 0, r.stderr


def test_axes_not_matching_the_pages_are_a_plain_stack(fastmedian, tmp_path):
    # ImageJ, too, opens a stack whose axes do not multiply to its pages as a plain stack.
    planes = np.arange(6 * 4 * 5, dtype=np.uint8).reshape(6, 4, 5)
    pages = [grey_page(5, 4, 8, 8 + 20 * i, 20) for i in range(6)]
    pages[0][DESCRIPTION] = (ASCII, "ImageJ=1.54f\nimages=6\nchannels=2\nslices=2\n")
    write_tiff(tmp_path / "in.tif", pages, planes.tobytes())
    r = fastmedian("temporal", tmp_path / "in.tif", tmp_path / "out.tif", "--window", "3")
    assert r.returncode == 0, r.stderr


@pytest.fixture
def zeros(tmp_path):
    """One 1000 x 1000 u16 page of zeros, Deflate-compressed to a few KiB (2 MB decoded)."""
    path = tmp_path / "zeros.tif"
    tifffile.imwrite(path, np.zeros((1000, 1000), np.uint16), compression="zlib")
    return path


@pytest.mark.parametrize("command", [["median", "--size", "3"], ["median", "--size", "3", "--3d"],
                                     ["temporal", "--window", "1"],
                                     ["background", "--size", "3"],
                                     ["convolve", "--gaussian", "1"]],
                         ids=lambda c: " ".join(c[:1] + c[3:]))
def test_max_memory_counts_input_and_output(fastmedian, zeros, command, tmp_path):
    # 2,000,000 bytes in and as many out: 3 MiB is too little, 4 MiB (4,194,304) enough.
    r = fastmedian(command[0], zeros, tmp_path / "out.tif", *command[1:], "--max-memory", "3M")
    assert_one_line_error(r, 1, "zeros.tif: 1 page of 1000x1000 u16 (1.9 MiB) and the output "
                          "need 3.8 MiB, more than the memory ceiling of 3.0 MiB (--max-memory")
    assert listing(tmp_path) == ["zeros.tif"]
    r = fastmedian(command[0], zeros, tmp_path / "out.tif", *command[1:], "--max-memory", "4M")
    assert r.returncode == 0, r.stderr
    assert tifffile.imread(tmp_path / "out.tif").shape == (1000, 1000)


def test_max_memory_counts_a_float_output(fastmedian, zeros, tmp_path):
    # u16 in, f32 out: 6,000,000 bytes.
    args = ["convolve", zeros, tmp_path / "out.tif", "--gaussian", "1", "--float"]
    r = fastmedian(*args, "--max-memory", "5M")
    assert_one_line_error(r, 1, "and the output need 5.7 MiB, more than the memory ceiling of "
                          "5.0 MiB")
    r = fastmedian(*args, "--max-memory", "6m")
    assert r.returncode == 0, r.stderr


def test_default_ceiling_refuses_before_allocating(fastmedian, cli_is_sanitized, tmp_path):
    # 2048 pages of 65536 x 65536 u16 sharing one strip of 4 KiB: 16 TiB decoded, more than any
    # machine's memory. Refused from the headers alone, with 1 GiB of address space (not under
    # AddressSanitizer, which reserves terabytes of address space for its shadow memory).
    strip = zlib.compress(bytes(1 << 22))
    page = grey_page(65536, 65536, 16, 8, len(strip), compression=8)
    write_tiff(tmp_path / "bomb.tif", [page] * 2048, strip)

    def small_address_space():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    limit = None if cli_is_sanitized else small_address_space
    start = time.monotonic()
    # A 3D median that wraps along z takes the volume whole.
    r = fastmedian("median", tmp_path / "bomb.tif", tmp_path / "out.tif", "--size", "3", "--3d",
                   "--border", "wrap", preexec_fn=limit)
    assert time.monotonic() - start < 20
    assert_one_line_error(r, 1, "bomb.tif: 2048 pages of 65536x65536 u16 (16.0 TiB) and the "
                          "output need 32.0 TiB, more than the memory ceiling of ",
                          "(--max-memory; default: this machine's physical memory); --border "
                          "wrap needs the whole volume")
    assert listing(tmp_path) == ["bomb.tif"]
    # A 2D filter streams a page at a time: its first page (8 GiB and as much out, within this
    # machine's memory) is refused once its strip proves short, before any page's memory.
    r = fastmedian("median", tmp_path / "bomb.tif", tmp_path / "out.tif", "--size", "3",
                   "--max-memory", "64G", preexec_fn=limit)
    assert time.monotonic() - start < 40
    assert_one_line_error(r, 1, "bomb.tif: cannot read strip 0")
    assert listing(tmp_path) == ["bomb.tif"]


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "12X", "", "8 G", "99999999999999999999",
                                   "17179869184G"])
def test_max_memory_is_parsed_strictly(fastmedian, zeros, tmp_path, value):
    r = fastmedian("median", zeros, tmp_path / "out.tif", "--size", "3", "--max-memory", value)
    assert_one_line_error(r, 2, "--max-memory must be a positive whole number of bytes, or of "
                          "KiB, MiB or GiB with the suffix K, M or G (512M, 8G), got ")
    assert listing(tmp_path) == ["zeros.tif"]


def test_help_describes_max_memory(fastmedian):
    r = fastmedian("--help")
    assert r.returncode == 0 and "--max-memory B  the most memory the input and output" in r.stdout


def test_help_says_how_hyperstacks_are_filtered(fastmedian):
    r = fastmedian("--help")
    assert r.returncode == 0
    assert "each channel and frame of an ImageJ hyperstack is a volume of its own" in r.stdout
    temporal = r.stdout[r.stdout.index("fastmedian temporal"):r.stdout.index("fastmedian background")]
    assert "frames of each channel and slice of an ImageJ hyperstack" in temporal