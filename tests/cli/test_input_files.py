"""Input files that are large, unusual or hostile: the memory ceiling (--max-memory) refuses
a stack before its pixels are read."""
import resource
import struct
import time
import zlib

import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, listing

SHORT, LONG = 3, 4
WIDTH, HEIGHT, BITS, COMPRESSION, PHOTOMETRIC = 256, 257, 258, 259, 262
STRIP_OFFSETS, SAMPLES, ROWS_PER_STRIP, STRIP_BYTES = 273, 277, 278, 279


def write_tiff(path, pages, data=b""):
    """A little-endian classic TIFF: `data` at offset 8 (strip offsets point into it), then one
    directory per page; a page maps tag -> (type, values)."""
    out = bytearray(b"II*\0\0\0\0\0") + data
    out += b"\0" * (len(out) % 2)
    link = 4
    for tags in pages:
        ifd = len(out)
        struct.pack_into("<I", out, link, ifd)
        out += struct.pack("<H", len(tags))
        extra, extra_at = bytearray(), ifd + 2 + 12 * len(tags) + 4
        for tag in sorted(tags):
            kind, values = tags[tag]
            blob = struct.pack("<%d%s" % (len(values), "H" if kind == SHORT else "I"), *values)
            if len(blob) <= 4:
                out += struct.pack("<HHI", tag, kind, len(values)) + blob.ljust(4, b"\0")
            else:
                out += struct.pack("<HHII", tag, kind, len(values), extra_at + len(extra))
                extra += blob
        link = len(out)
        out += b"\0\0\0\0" + extra
    path.write_bytes(bytes(out))


def grey_page(width, height, bits, offset, nbytes, compression=1):
    return {WIDTH: (LONG, [width]), HEIGHT: (LONG, [height]), BITS: (SHORT, [bits]),
            COMPRESSION: (SHORT, [compression]), PHOTOMETRIC: (SHORT, [1]),
            SAMPLES: (SHORT, [1]), ROWS_PER_STRIP: (LONG, [height]),
            STRIP_OFFSETS: (LONG, [offset]), STRIP_BYTES: (LONG, [nbytes])}


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


def test_default_ceiling_refuses_before_allocating(fastmedian, tmp_path):
    # 2048 pages of 65536 x 65536 u16 sharing one strip of 4 KiB: 16 TiB decoded, more than any
    # machine's memory. Refused from the headers alone, with 1 GiB of address space.
    strip = zlib.compress(bytes(1 << 22))
    page = grey_page(65536, 65536, 16, 8, len(strip), compression=8)
    write_tiff(tmp_path / "bomb.tif", [page] * 2048, strip)

    def small_address_space():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    start = time.monotonic()
    r = fastmedian("median", tmp_path / "bomb.tif", tmp_path / "out.tif", "--size", "3",
                   preexec_fn=small_address_space)
    assert time.monotonic() - start < 20
    assert_one_line_error(r, 1, "bomb.tif: 2048 pages of 65536x65536 u16 (16.0 TiB) and the "
                          "output need 32.0 TiB, more than the memory ceiling of ",
                          "(--max-memory; default: this machine's physical memory)")
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
