#!/usr/bin/python3
"""Writes the TIFF fuzzer's seed corpus into tests/fuzz/corpus/: tiny valid files of every
layout read_tiff accepts, and hostile ones it must refuse with an error, without a crash and
without allocating what their headers claim. The files are committed; rerun this only to
change the seeds (python3 tests/fuzz/make_corpus.py). Crashing inputs the fuzzer finds are
added to that folder by hand, under names saying what they broke."""
import io
import pathlib
import struct
import zlib

import numpy as np
import tifffile

SHORT, LONG = 3, 4
WIDTH, HEIGHT, BITS, COMPRESSION, PHOTOMETRIC = 256, 257, 258, 259, 262
STRIP_OFFSETS, SAMPLES, ROWS_PER_STRIP, STRIP_BYTES = 273, 277, 278, 279
PREDICTOR, COLORMAP, TILE_WIDTH, TILE_LENGTH = 317, 320, 322, 323
TILE_OFFSETS, TILE_BYTES, SAMPLE_FORMAT, IMAGE_DEPTH = 324, 325, 339, 32997


def encode(pages, loop=False):
    """Little-endian classic TIFF. A page is (tags, chunks): tags maps tag -> (type, values);
    the strip or tile offsets and byte counts are those of the chunks unless tags sets them.
    loop: the last page's next-page offset points back at the first page."""
    out = bytearray(b"II*\0\0\0\0\0")
    link, first = 4, None
    for tags, chunks in pages:
        offsets = []
        for c in chunks:
            offsets.append(len(out))
            out += c + b"\0" * (len(c) % 2)
        tags = dict(tags)
        at, counts = (TILE_OFFSETS, TILE_BYTES) if TILE_WIDTH in tags else (STRIP_OFFSETS, STRIP_BYTES)
        tags.setdefault(at, (LONG, offsets))
        tags.setdefault(counts, (LONG, [len(c) for c in chunks]))
        ifd = len(out)
        first = first or ifd
        struct.pack_into("<I", out, link, ifd)
        out += struct.pack("<H", len(tags))
        extra, extra_at = bytearray(), ifd + 2 + 12 * len(tags) + 4
        for tag in sorted(tags):
            kind, values = tags[tag]
            data = struct.pack("<%d%s" % (len(values), "H" if kind == SHORT else "I"), *values)
            if len(data) <= 4:
                out += struct.pack("<HHI", tag, kind, len(values)) + data.ljust(4, b"\0")
            else:
                out += struct.pack("<HHII", tag, kind, len(values), extra_at + len(extra))
                extra += data
        link = len(out)
        out += b"\0\0\0\0" + extra
    if loop:
        struct.pack_into("<I", out, link, first)
    return bytes(out)


def pixels(n):
    return bytes((i * 37 + 11) & 255 for i in range(n))


def grey(w, h, bits=8, fmt=1, rows=None, compress=None, tags=(), strips=None):
    """A strip page of w x h pixels, `rows` rows a strip; `compress` (code, function) encodes
    each strip; `strips` replaces the pixels (for headers claiming more than the file holds)."""
    rows = rows or h
    code = 1
    if strips is None:
        row = w * bits // 8
        data = pixels(row * h)
        strips = [data[y * row:(y + rows) * row] for y in range(0, h, rows)]
        if compress:
            code, fn = compress
            strips = [fn(s) for s in strips]
    t = {WIDTH: (LONG, [w]), HEIGHT: (LONG, [h]), BITS: (SHORT, [bits]),
         COMPRESSION: (SHORT, [code]), PHOTOMETRIC: (SHORT, [1]), SAMPLES: (SHORT, [1]),
         ROWS_PER_STRIP: (LONG, [rows]), SAMPLE_FORMAT: (SHORT, [fmt])}
    t.update(tags)
    return t, strips


def tiled(w, h, tile, bits=16, compress=None):
    px = bits // 8
    img = np.frombuffer(pixels(w * h * px), np.uint8).reshape(h, w * px)
    tiles = []
    for y in range(0, h, tile):
        for x in range(0, w, tile):
            t = np.zeros((tile, tile * px), np.uint8)
            part = img[y:y + tile, x * px:(x + tile) * px]
            t[:part.shape[0], :part.shape[1]] = part
            tiles.append(compress(t.tobytes()) if compress else t.tobytes())
    t = {WIDTH: (LONG, [w]), HEIGHT: (LONG, [h]), BITS: (SHORT, [bits]),
         COMPRESSION: (SHORT, [8 if compress else 1]), PHOTOMETRIC: (SHORT, [1]),
         SAMPLES: (SHORT, [1]), TILE_WIDTH: (LONG, [tile]), TILE_LENGTH: (LONG, [tile]),
         SAMPLE_FORMAT: (SHORT, [3 if bits == 32 else 1])}
    return t, tiles


def packbits(data):
    """PackBits as literal runs of up to 128 bytes."""
    out = bytearray()
    for i in range(0, len(data), 128):
        run = data[i:i + 128]
        out += bytes([len(run) - 1]) + run
    return bytes(out)


def differenced(w):
    """Horizontal differencing (predictor 2) of 8-bit rows of width w, then deflate."""
    def fn(strip):
        a = np.frombuffer(strip, np.uint8).reshape(-1, w).astype(np.int16)
        a[:, 1:] = a[:, 1:] - a[:, :-1]
        return zlib.compress((a & 255).astype(np.uint8).tobytes())
    return fn


def tifffile_bytes(array, **kw):
    buf = io.BytesIO()
    tifffile.imwrite(buf, array, **kw)
    return buf.getvalue()


def main():
    u16_pages = encode([grey(6, 4, 16, rows=3) for _ in range(3)])
    tile_tags, tiles = tiled(16, 16, 16)
    zeros = [zlib.compress(bytes(1 << 22))]  # 4 MiB of pixels in 4 KiB
    corpus = {
        # accepted layouts
        "u8_strips.tif": encode([grey(7, 5, rows=2)]),
        "u16_pages.tif": u16_pages,
        "f32.tif": encode([grey(5, 3, 32, 3)]),
        "u8_palette.tif": encode([grey(4, 4, tags={PHOTOMETRIC: (SHORT, [3]),
                                                   COLORMAP: (SHORT, list(range(768)))})]),
        "u8_packbits.tif": encode([grey(9, 4, rows=2, compress=(32773, packbits))]),
        "u8_deflate_predictor.tif": encode([grey(8, 6, rows=3, compress=(8, differenced(8)),
                                                 tags={PREDICTOR: (SHORT, [2])})]),
        "u16_tiles_deflate.tif": encode([tiled(20, 18, 16, compress=zlib.compress)] * 2),
        "f32_tiles.tif": encode([tiled(17, 16, 16, bits=32)]),
        "u16_big_endian.tif": tifffile_bytes(np.arange(12, dtype=">u2").reshape(3, 4)),
        "f32_bigtiff_pages.tif": tifffile_bytes(
            np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4), bigtiff=True,
            photometric="minisblack"),
        # truncated, corrupt and hostile
        "truncated.tif": u16_pages[:len(u16_pages) * 3 // 5],
        "ifd_loop.tif": encode([grey(3, 2)] * 2, loop=True),
        "pages_differ.tif": encode([grey(3, 2), grey(2, 3)]),
        "huge_volume.tif": encode([grey(100000, 100000, strips=[pixels(64)],
                                        tags={IMAGE_DEPTH: (LONG, [100000])})]),
        "huge_strip.tif": encode([grey(100000, 100000, strips=[pixels(64)],
                                       tags={STRIP_BYTES: (LONG, [0xFFFFFF00])})]),
        "huge_strip_deflate.tif": encode([grey(100000, 100000, strips=zeros,
                                               tags={COMPRESSION: (SHORT, [8])})]),
        "huge_tile.tif": encode([({**tile_tags, TILE_WIDTH: (LONG, [65536]),
                                   TILE_LENGTH: (LONG, [65536])}, tiles)]),
        "strip_offset_past_end.tif": encode([grey(4, 4, tags={STRIP_OFFSETS: (LONG, [0xFFFFFF00])})]),
        "strip_bytes_past_end.tif": encode([grey(4, 4, tags={STRIP_BYTES: (LONG, [0x7FFFFFF0])})]),
        "missing_strip_bytes.tif": encode([grey(4, 4, tags={STRIP_BYTES: (LONG, [])})]),
        "int16.tif": encode([grey(3, 3, 16, 2)]),
        "u32.tif": encode([grey(3, 3, 32, 1)]),
        "f64.tif": encode([grey(3, 3, 64, 3)]),
        "complex64.tif": encode([grey(3, 3, 64, 6)]),
        "bilevel.tif": encode([grey(16, 2, 1)]),
        "rgb.tif": encode([grey(3, 3, tags={SAMPLES: (SHORT, [3])})]),
        "min_is_white.tif": encode([grey(3, 3, tags={PHOTOMETRIC: (SHORT, [0])})]),
        "unknown_compression.tif": encode([grey(4, 4, compress=(12345, bytes))]),
        "lzw_garbage.tif": encode([grey(8, 8, compress=(5, lambda s: s[::-1]))]),
        "jpeg_garbage.tif": encode([grey(8, 8, compress=(7, bytes))]),
        "zstd_garbage.tif": encode([grey(8, 8, compress=(50000, bytes))]),
    }
    folder = pathlib.Path(__file__).resolve().parent / "corpus"
    folder.mkdir(exist_ok=True)
    for name, data in corpus.items():
        (folder / name).write_bytes(data)
    print(f"{len(corpus)} files in {folder}")


if __name__ == "__main__":
    main()
